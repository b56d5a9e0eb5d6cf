//! Bad input: each a clear answer, nothing lost, nothing corrupted.

use super::*;
use smolweb_search::{QueryError, SearchError};

fn err(index: &SearchIndex, q: &str) -> SearchError {
    index
        .search(&Request {
            query: q,
            scope: Scope::Person,
            sources: None,
            since: None,
            offset: 0,
            limit: 5,
        })
        .unwrap_err()
}

#[test]
fn bad_queries_are_answered_and_the_index_is_unharmed() {
    let tmp = tempfile::tempdir().unwrap();
    let index = index_in(tmp.path(), Arc::default());
    commit(
        &index,
        vec![Op::Add(doc(
            "gemini://a.test/",
            "A",
            "the moss of the north",
            Source::History,
        ))],
    );
    let long = "moss ".repeat(20_000);
    assert!(matches!(
        err(&index, &long),
        SearchError::Query(QueryError::TooLong { chars: 100_000 })
    ));
    let e = err(&index, "the of and");
    assert!(e.to_string().contains("common words"), "{e}");
    assert!(matches!(
        err(&index, ""),
        SearchError::Query(QueryError::Empty)
    ));
    // An unclosed quote reads the rest as a phrase, and says so.
    let r = person(&index, "\"moss of the");
    assert_eq!(r.total, 1);
    assert!(r.notes[0].contains("not closed"), "{:?}", r.notes);
    // Control characters are read as spaces, and said.
    let r = person(&index, "moss\u{1b}]0;pwned\u{7}");
    assert!(
        r.notes.iter().any(|n| n.contains("control")),
        "{:?}",
        r.notes
    );
    assert_eq!(person(&index, "moss").total, 1);
}

#[test]
fn huge_pages_are_cut_and_still_found_and_their_snippets_are_short() {
    let tmp = tempfile::tempdir().unwrap();
    let index = index_in(tmp.path(), Arc::default());
    let mut big = String::from("tardigrade opening words\n");
    while big.len() < 5 * 1024 * 1024 {
        big.push_str("lorem ipsum dolor sit amet moss\n");
    }
    big.push_str("hiddenword at the very end\n");
    let one_line = format!("lichen {} end", "x".repeat(2 * 1024 * 1024));
    let hostile = "moss \u{1b}[2J\u{1b}]52;c;ZXZpbA==\u{7} and \u{202e}evil";
    commit(
        &index,
        vec![
            Op::Add(doc("gemini://big.test/", "Big", &big, Source::History)),
            Op::Add(doc(
                "gemini://line.test/",
                "Line",
                &one_line,
                Source::History,
            )),
            Op::Add(doc(
                "gemini://hostile.test/",
                "\u{1b}[31mRed",
                hostile,
                Source::History,
            )),
        ],
    );
    let r = person(&index, "tardigrade");
    assert_eq!(urls(&r), ["gemini://big.test/"]);
    assert!(r.hits[0].cut);
    assert!(
        r.hits[0].snippet.text.chars().count() <= 260,
        "{}",
        r.hits[0].snippet.text.len()
    );
    // Past the indexed part: not found (the hit says the page was cut).
    assert_eq!(person(&index, "hiddenword").total, 0);
    let r = person(&index, "lichen");
    assert_eq!(urls(&r), ["gemini://line.test/"]);
    assert!(r.hits[0].snippet.text.len() < 1000);
    // Terminal controls never come back.
    let r = person(&index, "evil");
    let h = &r.hits[0];
    for s in [h.snippet.text.as_str(), h.title.as_deref().unwrap()] {
        assert!(
            !s.contains('\u{1b}') && !s.contains('\u{7}') && !s.contains('\u{202e}'),
            "{s:?}"
        );
    }
}

#[test]
fn scripts_without_spaces_are_found_by_their_words() {
    let tmp = tempfile::tempdir().unwrap();
    let index = index_in(tmp.path(), Arc::default());
    // Japanese and Thai: no spaces between words. Javanese is not a script the tokenizer cuts:
    // a run of its letters longer than a token may be is left out, the page's other words
    // stay.
    let javanese: String = std::iter::repeat_n("ꦲꦏꦱꦫꦗꦮ", 40).collect();
    commit(
        &index,
        vec![
            Op::Add(doc(
                "gemini://ja.test/",
                "苔",
                "庭の苔の中にクマムシが住んでいる。乾燥に強い。",
                Source::History,
            )),
            Op::Add(doc(
                "gemini://th.test/",
                "Thai",
                "หมีน้ำอาศัยอยู่ในมอส",
                Source::History,
            )),
            Op::Add(doc(
                "gemini://jv.test/",
                "Javanese",
                &format!("{javanese} lumut"),
                Source::History,
            )),
        ],
    );
    let r = person(&index, "クマムシ");
    assert_eq!(urls(&r), ["gemini://ja.test/"]);
    let s = &r.hits[0].snippet;
    let marked: String = s.highlights.iter().map(|h| &s.text[h.clone()]).collect();
    assert_eq!(marked, "クマムシ", "{s:?}");
    // A part of a word is found too (the characters in that order), never a lone
    // character of another word.
    assert_eq!(urls(&person(&index, "ムシ")), ["gemini://ja.test/"]);
    assert_eq!(person(&index, "シム").total, 0);
    assert_eq!(urls(&person(&index, "\"หมีน้ำ\"")), ["gemini://th.test/"]);
    assert_eq!(urls(&person(&index, "lumut")), ["gemini://jv.test/"]);
    assert_eq!(person(&index, &javanese[..60]).total, 0);
}

//! What a query finds, and what each scope may see.

use super::*;
use smolweb_search::SearchError;

fn moss_index(tmp: &Path) -> SearchIndex {
    let index = index_in(tmp, Arc::default());
    let mut en = doc(
        "gemini://moss.test/tardigrades.gmi",
        "Water bears",
        "Tardigrades live in mosses and lichens.\nThey survive drying out for years.",
        Source::History,
    );
    en.lang = Some("en".into());
    let mut fr = doc(
        "gemini://mousse.test/tardigrades.gmi",
        "Oursons d'eau",
        "Les tardigrades vivent dans les mousses humides.",
        Source::Agent,
    );
    fr.lang = Some("fr".into());
    fr.time = at(10);
    let plain = doc(
        "gopher://stones.test/0/dry.txt",
        "Dry stones",
        "A dry season on the stones; no moss grows here.",
        Source::Feed,
    );
    let ja = doc(
        "gemini://koke.test/kumamushi.gmi",
        "クマムシ",
        "苔の中のクマムシは乾燥に強い。",
        Source::Shared,
    );
    let secret = doc(
        "gemini://diary.test/moss-notes.gmi",
        "My moss notes",
        "Private notes on moss and tardigrades.",
        Source::History,
    );
    commit(
        &index,
        vec![
            Op::Add(en),
            Op::Add(fr),
            Op::Add(plain),
            Op::Add(ja),
            Op::Add(secret),
        ],
    );
    index
}

#[test]
fn words_phrases_prefixes_exclusions_and_sites() {
    let tmp = tempfile::tempdir().unwrap();
    let index = moss_index(tmp.path());
    let r = person(&index, "tardigrades");
    assert_eq!(r.total, 3, "{:?}", urls(&r));
    // English stemming: "moss" finds the English page that says "mosses".
    let r = person(&index, "moss");
    assert!(
        urls(&r).contains(&"gemini://moss.test/tardigrades.gmi"),
        "{:?}",
        urls(&r)
    );
    // A phrase, in order.
    let r = person(&index, "\"dry season\"");
    assert_eq!(urls(&r), ["gopher://stones.test/0/dry.txt"]);
    assert!(person(&index, "\"season dry\"").hits.is_empty());
    // Words on one page but apart are not the phrase.
    assert!(person(&index, "\"season stones\"").hits.is_empty());
    // A phrase on a stemmed page is read as the page was indexed: "lives in moss" is
    // "live in mosses".
    let r = person(&index, "\"lives in moss\"");
    assert_eq!(urls(&r), ["gemini://moss.test/tardigrades.gmi"]);
    // Leaving out a phrase leaves out only the pages that have it.
    let r = person(&index, "moss -\"dry season\"");
    assert!(
        !urls(&r).contains(&"gopher://stones.test/0/dry.txt"),
        "{:?}",
        urls(&r)
    );
    let r = person(&index, "moss -\"season dry\"");
    assert!(
        urls(&r).contains(&"gopher://stones.test/0/dry.txt"),
        "{:?}",
        urls(&r)
    );
    // A prefix of several tokens is a phrase whose last word is a prefix.
    let r = person(&index, "moss-gro*");
    assert_eq!(urls(&r), ["gopher://stones.test/0/dry.txt"]);
    assert!(person(&index, "grows-mo*").hits.is_empty());
    // The snippet marks a phrase's words.
    let r = person(&index, "\"moss grows\"");
    assert_eq!(urls(&r), ["gopher://stones.test/0/dry.txt"]);
    assert!(
        r.hits[0]
            .snippet
            .marked("[", "]")
            .contains("[moss] [grows]"),
        "{:?}",
        r.hits[0].snippet
    );
    // A prefix.
    let r = person(&index, "lich*");
    assert_eq!(urls(&r), ["gemini://moss.test/tardigrades.gmi"]);
    // Leave out.
    let r = person(&index, "tardigrades -lichens");
    assert!(!urls(&r).contains(&"gemini://moss.test/tardigrades.gmi"));
    assert_eq!(r.total, 2);
    // A site, and a site alone.
    let r = person(&index, "tardigrades site:mousse.test");
    assert_eq!(urls(&r), ["gemini://mousse.test/tardigrades.gmi"]);
    assert_eq!(person(&index, "site:test").total, 5);
    // French stemming: "mousse" finds "mousses" on the French page.
    let r = person(&index, "mousse");
    assert_eq!(urls(&r), ["gemini://mousse.test/tardigrades.gmi"]);
    // A script written without spaces: a word inside a sentence.
    let r = person(&index, "乾燥");
    assert_eq!(urls(&r), ["gemini://koke.test/kumamushi.gmi"]);
    // The snippet marks what matched.
    let r = person(&index, "lichens");
    let hit = &r.hits[0];
    assert_eq!(
        hit.snippet.marked("[", "]"),
        "Tardigrades live in mosses and [lichens]. They survive drying out for years"
    );
    assert_eq!(hit.title.as_deref(), Some("Water bears"));
    assert_eq!(hit.source, Source::History);
}

#[test]
fn an_agent_sees_only_its_sources_and_never_learns_of_the_others() {
    let tmp = tempfile::tempdir().unwrap();
    let index = moss_index(tmp.path());
    let agent = Scope::Agent {
        search_history: false,
    };
    let r = search(&index, "moss", agent);
    for h in &r.hits {
        assert!(agent.sees(h.source), "{h:?}");
        assert!(h.also.iter().all(|s| agent.sees(*s)));
    }
    assert!(!urls(&r).contains(&"gemini://diary.test/moss-notes.gmi"));
    // The total counts only what the agent may see.
    let r = search(&index, "tardigrades", agent);
    assert_eq!(r.total, 1, "{:?}", urls(&r));
    // Asking for a hidden source is an error that names the setting, not a count.
    let err = index
        .search(&Request {
            query: "moss",
            scope: agent,
            sources: Some(&[Source::History]),
            since: None,
            offset: 0,
            limit: 10,
        })
        .unwrap_err();
    assert!(matches!(err, SearchError::HiddenSource(Source::History)));
    assert!(err.to_string().contains("search_history"), "{err}");
    // With search_history, the person's pages too.
    let trusted = Scope::Agent {
        search_history: true,
    };
    assert_eq!(search(&index, "tardigrades", trusted).total, 3);
}

fn ask(
    index: &SearchIndex,
    query: &str,
    sources: Option<&[Source]>,
    since: Option<OffsetDateTime>,
    (offset, limit): (usize, usize),
) -> Results {
    let req = Request {
        query,
        scope: Scope::Person,
        sources,
        since,
        offset,
        limit,
    };
    index.search(&req).unwrap()
}

#[test]
fn filters_windows_and_merged_sources() {
    let tmp = tempfile::tempdir().unwrap();
    let index = moss_index(tmp.path());
    // Another source for a page already there: one hit, the other source named.
    let mut again = doc(
        "gemini://moss.test/tardigrades.gmi",
        "Water bears",
        "Tardigrades live in mosses.",
        Source::Agent,
    );
    again.time = at(3);
    commit(&index, vec![Op::Add(again)]);
    let r = person(&index, "tardigrades");
    assert_eq!(r.total, 3);
    let h = r.hits.iter().find(|h| h.url.contains("moss.test")).unwrap();
    assert_eq!(h.also.len(), 1);
    // Since: only what was seen from day 5 on.
    let recent = ask(&index, "tardigrades", None, Some(at(5)), (0, 10));
    assert_eq!(urls(&recent), ["gemini://mousse.test/tardigrades.gmi"]);
    // By source.
    let feed = ask(&index, "moss", Some(&[Source::Feed]), None, (0, 10));
    assert_eq!(urls(&feed), ["gopher://stones.test/0/dry.txt"]);
    // Windows.
    let first = ask(&index, "site:test", None, None, (0, 2));
    assert_eq!((first.hits.len(), first.next_offset), (2, Some(2)));
    let last = ask(&index, "site:test", None, None, (4, 2));
    assert_eq!((last.hits.len(), last.next_offset), (1, None));
}

#[test]
fn forgetting_and_clearing_remove_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let index = moss_index(tmp.path());
    commit(
        &index,
        vec![Op::Forget {
            url: "gemini://diary.test/moss-notes.gmi".into(),
            sources: vec![Source::History],
        }],
    );
    assert!(!urls(&person(&index, "notes")).contains(&"gemini://diary.test/moss-notes.gmi"));
    commit(
        &index,
        vec![Op::Clear {
            source: Source::History,
        }],
    );
    let r = person(&index, "tardigrades");
    assert!(
        r.hits.iter().all(|h| h.source != Source::History),
        "{:?}",
        urls(&r)
    );
    assert_eq!(r.total, 1);
}

#[test]
fn a_visit_forgotten_in_the_history_store_leaves_the_index() {
    let tmp = tempfile::tempdir().unwrap();
    let stores = Arc::new(Stores::default());
    let index = index_in(tmp.path(), stores.clone());
    let kept = "gemini://moss.test/kept.gmi";
    let forgotten = "gemini://moss.test/forgotten.gmi";
    *stores.1.lock().unwrap() = Some((1, vec![kept.into(), forgotten.into()]));
    commit(
        &index,
        vec![
            Op::Add(doc(kept, "Kept", "moss kept", Source::History)),
            Op::Add(doc(
                forgotten,
                "Forgotten",
                "moss forgotten",
                Source::History,
            )),
            Op::Add(doc(forgotten, "Forgotten", "moss forgotten", Source::Agent)),
        ],
    );
    assert_eq!(person(&index, "moss").total, 2);
    // The person forgets one visit (another process wrote the history file).
    *stores.1.lock().unwrap() = Some((2, vec![kept.into()]));
    let r = person(&index, "forgotten");
    // The agent's own fetch of it stays; the visit is gone.
    assert_eq!(r.total, 1);
    assert_eq!(r.hits[0].source, Source::Agent);
    assert!(r.hits[0].also.is_empty(), "{:?}", r.hits[0]);
    // The history cleared.
    *stores.1.lock().unwrap() = Some((3, Vec::new()));
    let r = person(&index, "kept");
    assert_eq!(r.total, 0);
}

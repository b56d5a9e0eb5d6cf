//! `about:search`: the browser's page of the local index (gemtext, so results are numbered
//! links), and the filters a query may carry: `source:NAME[,NAME]` and `since:SPEC`
//! (`7d`, `12h`, `2w`, `6m`, `1y` or a date `2026-01-31`), `page:N` for later results.

use super::{Client, Request, Results, SearchError, Source};
use smolweb_core::text::one_line;
use smolweb_core::url::percent_encode;
use time::OffsetDateTime;

/// Results shown per page of `about:search`.
pub(super) const PER_PAGE: usize = 20;

/// The filters of a query, and the query without them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filters {
    /// The query, filters taken out.
    pub query: String,
    /// `source:` values (None: every source).
    pub sources: Option<Vec<Source>>,
    /// `since:` as a time.
    pub since: Option<OffsetDateTime>,
    /// `page:` (1-based).
    pub page: usize,
}

/// A filter that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    /// `source:` named no source.
    #[error("\"{0}\" is not a source: use history, offline, feed, bookmark, shared or agent")]
    Source(String),
    /// `since:` was not a time.
    #[error(
        "\"{0}\" is not a time: use a number and d, h, w, m or y (7d is a week), or a date \
         such as 2026-01-31"
    )]
    Since(String),
}

/// `since:`'s value: a span back from `now` (`7d`, `12h`, `2w`, `6m`, `1y`) or a date.
pub fn parse_since(spec: &str, now: OffsetDateTime) -> Result<OffsetDateTime, FilterError> {
    let s = spec.trim();
    let bad = || FilterError::Since(s.to_string());
    let date = time::macros::format_description!("[year]-[month]-[day]");
    if let Ok(d) = time::Date::parse(s, &date) {
        return Ok(d.midnight().assume_utc());
    }
    let split = s.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let n: i64 = s[..split].parse().map_err(|_| bad())?;
    let hours = match &s[split..] {
        "h" => 1,
        "d" => 24,
        "w" => 24 * 7,
        "m" => 24 * 30,
        "y" => 24 * 365,
        _ => return Err(bad()),
    };
    // At most two centuries back: never an overflow.
    let back = time::Duration::hours(n.saturating_mul(hours).min(24 * 365 * 200));
    Ok(now.checked_sub(back).unwrap_or(OffsetDateTime::UNIX_EPOCH))
}

/// Take the filters out of a query.
pub fn parse_filters(text: &str, now: OffsetDateTime) -> Result<Filters, FilterError> {
    let mut f = Filters {
        page: 1,
        ..Filters::default()
    };
    let mut rest = Vec::new();
    for word in text.split_whitespace() {
        if let Some(v) = word.strip_prefix("source:") {
            let list = f.sources.get_or_insert_with(Vec::new);
            for name in v.split(',').filter(|n| !n.is_empty()) {
                list.push(Source::parse(name).ok_or_else(|| FilterError::Source(name.into()))?);
            }
        } else if let Some(v) = word.strip_prefix("since:") {
            f.since = Some(parse_since(v, now)?);
        } else if let Some(v) = word.strip_prefix("page:")
            && let Ok(n) = v.parse::<usize>()
        {
            f.page = n.clamp(1, 1000);
        } else {
            rest.push(word);
        }
    }
    f.query = rest.join(" ");
    Ok(f)
}

fn link(query: &str, label: &str) -> String {
    format!("=> about:search?{} {label}\n", percent_encode(query))
}

/// The page without a query: how to search, and what is in the index.
fn help(client: &Client) -> String {
    let mut g = String::from(
        "# Search what you read\n\n\
         Words find the pages you visited, saved, bookmarked or shared, the entries of the \
         feeds you follow, and the pages your agents fetched. Open this page with its key and \
         type the words, or go to about:search?words.\n\n\
         ## How to ask\n\n\
         * moss tardigrades — pages with both words (a stemmer per language, when the page \
         says its language)\n\
         * \"water bears\" — the words in this order\n\
         * tardi* — words that start so\n\
         * -lichen — pages without the word\n\
         * site:example.org — pages of a capsule (and its subdomains)\n\
         * source:feed,agent — only these sources (history, offline, feed, bookmark, shared, \
         agent)\n\
         * since:7d — seen in the last week (h, d, w, m, y, or a date: since:2026-01-31)\n\n",
    );
    match client.search_index().map(|i| i.stats()) {
        Some(Ok(s)) => g.push_str(&format!(
            "The index holds {} ({} on disk){}.\n",
            smolweb_core::text::count(s.documents as usize, "document", "documents"),
            smolweb_core::text::human_bytes(s.bytes),
            match s.queued {
                0 => String::new(),
                n => format!(", {n} waiting to be added"),
            }
        )),
        Some(Err(e)) => g.push_str(&format!("The index cannot be read: {e}\n")),
        None => g.push_str("The index is switched off ([search] index = false).\n"),
    }
    g.push_str(
        "\n## Searching Geminispace\n\nWords typed in the address bar (or ?words) go to the \
         search engine set by [search] engine in the config; K picks another for this session:\n\n",
    );
    let current = client.search_engine().ok();
    for e in super::ENGINES {
        let mark = if current.as_deref() == Some(e.url) {
            " (set in the config)"
        } else {
            ""
        };
        g.push_str(&format!("=> {} {} — {}{mark}\n", e.url, e.name, e.about));
    }
    g
}

/// `about:search` (`query` is the raw query of the URL).
pub fn search_page(client: &Client, query: Option<&str>) -> String {
    let raw =
        query.map(|q| String::from_utf8_lossy(&smolweb_core::url::percent_decode(q)).into_owned());
    let Some(raw) = raw.filter(|q| !q.trim().is_empty()) else {
        return help(client);
    };
    let shown = one_line(raw.trim(), None);
    let mut g = format!("# Search: {shown}\n\n");
    let filters = match parse_filters(&raw, client.now()) {
        Ok(f) => f,
        Err(e) => {
            g.push_str(&format!("{e}.\n\n=> about:search How to search\n"));
            return g;
        }
    };
    let req = Request {
        query: &filters.query,
        scope: client.search_scope(),
        sources: filters.sources.as_deref(),
        since: filters.since,
        offset: (filters.page - 1) * PER_PAGE,
        limit: PER_PAGE,
    };
    match client.search_local(&req) {
        Ok(r) => results(&mut g, &raw, &filters, &r),
        Err(SearchError::Query(e)) => {
            g.push_str(&format!("{e}.\n\n=> about:search How to search\n"));
        }
        Err(e) => g.push_str(&format!("The search failed: {e}\n")),
    }
    g
}

fn without_filters(raw: &str) -> String {
    raw.split_whitespace()
        .filter(|w| {
            !(w.starts_with("source:") || w.starts_with("since:") || w.starts_with("page:"))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn results(g: &mut String, raw: &str, f: &Filters, r: &Results) {
    if let Some(rebuilt) = &r.rebuilt {
        g.push_str(&format!("Note: {}.\n\n", rebuilt.message()));
    }
    for note in &r.notes {
        g.push_str(&format!("Note: {note}.\n"));
    }
    let first = (f.page - 1) * PER_PAGE;
    match r.total {
        0 => g.push_str("No page found.\n"),
        n => g.push_str(&format!(
            "{}{} found; {}-{} shown.\n",
            smolweb_core::text::count(n, "page", "pages"),
            if r.more { " or more" } else { "" },
            first + 1,
            first + r.hits.len()
        )),
    }
    let base = without_filters(raw);
    g.push_str("\n## Filters\n\n");
    g.push_str(&link(&base, "All sources, any time"));
    for s in Source::ALL {
        g.push_str(&link(
            &format!("{base} source:{}", s.as_str()),
            &format!("Only {}", s.label()),
        ));
    }
    for (spec, label) in [
        ("1d", "Seen in the last day"),
        ("7d", "Seen in the last week"),
        ("30d", "Seen in the last 30 days"),
        ("1y", "Seen in the last year"),
    ] {
        g.push_str(&link(&format!("{base} since:{spec}"), label));
    }
    g.push_str("\n## Results\n");
    for h in &r.hits {
        let title = h
            .title
            .as_deref()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or(&h.url);
        g.push_str(&format!("\n=> {} {title}\n", h.url));
        let mut line = h.source.label().to_string();
        for also in &h.also {
            line.push_str(", ");
            line.push_str(also.label());
        }
        line.push_str(&format!(" · {}", super::day(h.time)));
        if let Some(feed) = &h.feed {
            line.push_str(&format!(" · {feed}"));
        }
        if h.cut {
            line.push_str(" · only its first megabyte is searched");
        }
        g.push_str(&format!("{line}\n"));
        if !h.snippet.text.is_empty() {
            g.push_str(&format!("> {}\n", h.snippet.marked("«", "»")));
        }
    }
    if r.next_offset.is_some() {
        let next = format!("{raw} page:{}", f.page + 1);
        let next = next
            .split_whitespace()
            .filter(|w| !w.starts_with("page:") || *w == format!("page:{}", f.page + 1))
            .collect::<Vec<_>>()
            .join(" ");
        g.push('\n');
        g.push_str(&link(&next, "More results"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap()
    }

    #[test]
    fn filters_come_out_of_the_query() {
        let f = parse_filters("moss source:feed,agent since:7d page:2 -lichen", now()).unwrap();
        assert_eq!(f.query, "moss -lichen");
        assert_eq!(f.sources, Some(vec![Source::Feed, Source::Agent]));
        assert_eq!(f.since, Some(now() - time::Duration::days(7)));
        assert_eq!(f.page, 2);
        assert!(matches!(
            parse_filters("moss source:diary", now()),
            Err(FilterError::Source(s)) if s == "diary"
        ));
        assert!(parse_filters("moss since:soon", now()).is_err());
    }

    #[test]
    fn since_takes_spans_and_dates() {
        let cases = [
            ("12h", Some(now() - time::Duration::hours(12))),
            ("2w", Some(now() - time::Duration::days(14))),
            ("1y", Some(now() - time::Duration::days(365))),
            (
                "2026-01-31",
                Some(time::macros::datetime!(2026-01-31 0:00 UTC)),
            ),
            ("7", None),
            ("d", None),
            ("7x", None),
            ("99999999999999999999d", None),
        ];
        for (spec, want) in cases {
            assert_eq!(parse_since(spec, now()).ok(), want, "{spec}");
        }
        // A huge but parseable span is clamped, never an overflow.
        assert!(parse_since("9999999999y", now()).is_ok());
    }
}

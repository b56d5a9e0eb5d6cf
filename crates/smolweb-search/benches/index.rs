//! The index with 10,000 pages of 5 KB (the targets: built in under 60 s on this
//! 2-core machine, under 30 MB on disk, a query's median under 5 ms through the library call
//! the CLI makes). Run: `cargo bench -p smolweb-search --bench index [prose|synthetic]`.
//!
//! Two corpora, each of 10,000 pages of 5 KB (50 MB of text):
//! - **prose**: real text, the main text of the extraction bench's 265 pages (articles and
//!   other pages, in several languages, as the reader shows them), each page a run of
//!   paragraphs of one of them (see [`prose_pages`]);
//! - **synthetic**: a 30,000-word vocabulary drawn with Zipf's law (as words are in prose),
//!   a third of the pages marked English (stemmed). Its words are drawn independently, so
//!   it compresses worse than prose: the harder case for the disk.
//!
//! The build is `reindex` (what `smolweb search --reindex` and a rebuild run). Then: bytes on
//! disk, and the latency of 440 queries (single words common and rare, two words, a phrase,
//! a prefix, an exclusion, a site; the words ranked by frequency in the corpus), each
//! through `SearchIndex::search` with a window of 10 and snippets; the worst phrase (the
//! corpus's commonest pair of words, whose check reads most of the stored text); and the
//! cost of one page added by a visit (queued, then committed: `submit` + `flush`).
//!
//! With `SEARCH_BENCH_DATA_DIR=DIR` it only builds the synthetic pages into the data
//! directory DIR, every page an agent's fetch (the one source no store keeps, so the
//! binary's first search keeps them all), for the scripts that measure the built binary
//! (`benches/search_faces.sh`, whose queries are the synthetic words).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use smolweb_search::{Corpus, Doc, Op, Request, Results, Scope, SearchIndex, Source};
use std::sync::Arc;
use std::time::{Duration, Instant};
use time::OffsetDateTime;

const PAGES: usize = 10_000;
const PAGE_BYTES: usize = 5_000;
const VOCABULARY: usize = 30_000;

/// A small deterministic generator (no dependency).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        self.0 >> 33
    }
    fn unit(&mut self) -> f64 {
        self.next() as f64 / (1u64 << 31) as f64
    }
}

fn word(i: usize) -> String {
    const SYL: [&str; 24] = [
        "ka", "mo", "ri", "ta", "ne", "so", "lu", "vi", "de", "ga", "po", "mi", "ser", "tan",
        "bel", "cor", "dun", "fal", "gor", "hin", "jas", "kel", "lor", "mus",
    ];
    let mut n = i + 1;
    let mut w = String::new();
    while n > 0 {
        w.push_str(SYL[n % SYL.len()]);
        n /= SYL.len();
    }
    w
}

/// Zipf ranks by inverse transform over the harmonic weights.
struct Zipf(Vec<f64>);
impl Zipf {
    fn new(n: usize) -> Zipf {
        let mut acc = 0.0;
        let cdf = (1..=n)
            .map(|r| {
                acc += 1.0 / r as f64;
                acc
            })
            .collect::<Vec<_>>();
        let total = acc;
        Zipf(cdf.into_iter().map(|c| c / total).collect())
    }
    fn draw(&self, rng: &mut Lcg) -> usize {
        let u = rng.unit();
        self.0.partition_point(|c| *c < u).min(self.0.len() - 1)
    }
}

struct Generated(Vec<Doc>);
impl Corpus for Generated {
    fn documents(&self) -> Result<Vec<Doc>, String> {
        Ok(self.0.clone())
    }
}

fn pages(agent_only: bool) -> Vec<Doc> {
    let words: Vec<String> = (0..VOCABULARY).map(word).collect();
    let zipf = Zipf::new(VOCABULARY);
    let mut rng = Lcg(7);
    let t0 = OffsetDateTime::from_unix_timestamp(1_790_000_000).unwrap();
    (0..PAGES)
        .map(|i| {
            let mut text = String::with_capacity(PAGE_BYTES + 64);
            let mut line = 0;
            while text.len() < PAGE_BYTES {
                text.push_str(&words[zipf.draw(&mut rng)]);
                line += 1;
                text.push(if line % 12 == 0 { '\n' } else { ' ' });
            }
            Doc {
                url: format!("gemini://capsule{}.test/gemlog/{i}.gmi", i % 200),
                title: Some(format!(
                    "{} {}",
                    words[zipf.draw(&mut rng)],
                    words[i % VOCABULARY]
                )),
                text,
                source: match agent_only {
                    true => Source::Agent,
                    false => Source::ALL[i % Source::ALL.len()],
                },
                feed: None,
                lang: (i % 3 == 0).then(|| "en".to_string()),
                time: t0 + Duration::from_secs(i as u64 * 60),
            }
        })
        .collect()
}

/// The prose corpus: real text, the main text of the extraction bench's pages (articles and
/// other pages in several languages, `smolweb-core/benches/extract`), as the reader shows it.
/// Page `i` takes consecutive paragraphs of source page `i % n` from a drawn start (wrapping
/// to the next source page) up to 5 KB, so pages next to each other in the index come from
/// different sources and the store compresses them as it would unrelated pages. The pool is
/// about 2 MB, so a paragraph recurs in several pages: the postings are those of real text,
/// the store's ratio close to it (a block holds different sources).
fn prose_pages(agent_only: bool) -> Vec<Doc> {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../smolweb-core/benches/extract");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv"))
        .expect("the extraction bench's manifest.tsv");
    let mut sources: Vec<(Vec<String>, Option<String>)> = Vec::new();
    for row in manifest.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (Some(url), Some(expected)) = (cols.get(4), cols.get(6)) else {
            continue;
        };
        let raw = std::fs::read(dir.join(expected)).expect("an expected page");
        let mut html = Vec::new();
        match expected.ends_with(".gz") {
            true => std::io::Read::read_to_end(
                &mut flate2::read::GzDecoder::new(raw.as_slice()),
                &mut html,
            )
            .map(drop)
            .expect("gzip"),
            false => html = raw,
        }
        let html = String::from_utf8_lossy(&html);
        let page = smolweb_core::html::convert_html(&html, url, smolweb_core::html::Extract::Full);
        let paragraphs: Vec<String> = page
            .markdown
            .split("\n\n")
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        if !paragraphs.is_empty() {
            sources.push((paragraphs, page.meta.lang));
        }
    }
    let mut rng = Lcg(11);
    let t0 = OffsetDateTime::from_unix_timestamp(1_790_000_000).unwrap();
    (0..PAGES)
        .map(|i| {
            let (mut s, mut p) = (i % sources.len(), 0);
            p += rng.next() as usize % sources[s].0.len();
            let lang = sources[s].1.clone();
            let title = sources[s].0[0].chars().take(80).collect::<String>();
            let mut text = String::with_capacity(PAGE_BYTES + 1024);
            while text.len() < PAGE_BYTES {
                if p == sources[s].0.len() {
                    (s, p) = ((s + 1) % sources.len(), 0);
                }
                text.push_str(&sources[s].0[p]);
                text.push_str("\n\n");
                p += 1;
            }
            let mut cut = PAGE_BYTES;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
            Doc {
                url: format!("gemini://capsule{}.test/gemlog/{i}.gmi", i % 200),
                title: Some(title),
                text,
                source: match agent_only {
                    true => Source::Agent,
                    false => Source::ALL[i % Source::ALL.len()],
                },
                feed: None,
                lang,
                time: t0 + Duration::from_secs(i as u64 * 60),
            }
        })
        .collect()
}

fn dir_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

/// Bytes by kind of file (tantivy's extensions: store, pos, idx, term, fast, fieldnorm, ...).
fn breakdown(dir: &std::path::Path) -> String {
    let mut by: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let ext = name.rsplit_once('.').map_or("-", |(_, x)| x).to_string();
        *by.entry(ext).or_default() += e.metadata().map(|m| m.len()).unwrap_or(0);
    }
    by.iter()
        .map(|(k, v)| format!("{k} {:.1}", *v as f64 / 1e6))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The CPU time this thread has run (Linux: /proc/thread-self/schedstat, in nanoseconds;
/// the kernel brings it up to date at each tick, so only a sum over many searches is
/// exact). A search runs in the calling thread, so this is its cost whatever else the
/// machine runs (the wall time on a busy 2-core machine is mostly waiting for a core).
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

fn median_ms(mut v: Vec<Duration>) -> (f64, f64) {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (ms(v[v.len() / 2]), ms(v[v.len() * 95 / 100]))
}

/// Words of a corpus by falling frequency (lowercased runs of letters of 3 or more).
fn ranked_words(docs: &[Doc]) -> Vec<String> {
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for d in docs {
        for w in d.text.split(|c: char| !c.is_alphabetic()) {
            if w.chars().count() >= 3 {
                *counts.entry(w.to_lowercase()).or_default() += 1;
            }
        }
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    // Words a query can be made of alone (not "the", "and": the parser refuses those).
    v.into_iter()
        .map(|(w, _)| w)
        .filter(|w| smolweb_search::parse(w).is_ok())
        .collect()
}

/// The bench's queries on a corpus: words common to rare, two words, a phrase, a prefix, an
/// exclusion and a site.
fn queries_for(docs: &[Doc]) -> Vec<String> {
    let ranked = ranked_words(docs);
    let w = |rank: usize| ranked[rank.min(ranked.len() - 1)].clone();
    // A phrase of the corpus: the first two words of a page's line.
    let phrase = docs[PAGES / 2]
        .text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| w.len() >= 3)
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    let prefix: String = w(30).chars().take(3).collect();
    vec![
        w(0),
        w(5),
        w(100),
        w(2_000),
        w(20_000),
        format!("{} {}", w(3), w(50)),
        format!("{} {}", w(40), w(900)),
        format!("\"{phrase}\""),
        format!("{prefix}*"),
        format!("{} -{}", w(10), w(11)),
        format!("{} site:capsule7.test", w(8)),
    ]
}

/// The commonest pair of adjacent words in the first 500 pages, quoted.
fn commonest_pair(docs: &[Doc]) -> String {
    let mut counts: std::collections::HashMap<(String, String), usize> =
        std::collections::HashMap::new();
    for d in docs.iter().take(500) {
        let words: Vec<String> = d
            .text
            .split(|c: char| !c.is_alphabetic())
            .filter(|w| w.len() >= 2)
            .map(str::to_lowercase)
            .collect();
        for w in words.windows(2) {
            *counts.entry((w[0].clone(), w[1].clone())).or_default() += 1;
        }
    }
    let best = counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|((a, b), _)| format!("{a} {b}"))
        .unwrap_or_default();
    format!("\"{best}\"")
}

/// One search with a window of 10, as the CLI makes it, and how long it took.
fn timed_search(index: &SearchIndex, query: &str, scope: Scope) -> (Results, Duration) {
    let t = Instant::now();
    let r = index
        .search(&Request {
            query,
            scope,
            sources: None,
            since: None,
            offset: 0,
            limit: 10,
        })
        .unwrap();
    (r, t.elapsed())
}

/// A corpus's maker (the argument: every page an agent's fetch).
type Make = fn(bool) -> Vec<Doc>;

fn main() {
    let keep = std::env::var_os("SEARCH_BENCH_DATA_DIR").map(std::path::PathBuf::from);
    let only = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    println!("| corpus | measure | value | target |");
    println!("|---|---|---|---|");
    let corpora: [(&str, Make); 2] = [("prose", prose_pages), ("synthetic", pages)];
    for (name, make) in corpora {
        if only.as_deref().is_some_and(|o| o != name) || (keep.is_some() && name != "synthetic") {
            continue;
        }
        run(name, make(keep.is_some()), keep.clone());
    }
}

fn run(corpus: &str, docs: Vec<Doc>, keep: Option<std::path::PathBuf>) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = keep.clone().unwrap_or_else(|| tmp.path().to_path_buf());
    let paths = smolweb_store::paths::Paths::resolve(Some(dir), None, None, None).unwrap();
    let raw: usize = docs.iter().map(|d| d.text.len()).sum();
    let queries = queries_for(&docs);
    let pair = commonest_pair(&docs);
    let index = SearchIndex::new(
        paths.search_dir(),
        paths.search_queue(),
        Arc::new(Generated(docs)),
    );
    let started = Instant::now();
    let built = index.reindex("benchmark").unwrap();
    let build = started.elapsed();
    let bytes = dir_bytes(&paths.search_dir());
    println!(
        "| {corpus} | build {} pages of {} B ({:.1} MB of text) | {:.1} s | < 60 s |",
        built.documents,
        PAGE_BYTES,
        raw as f64 / 1e6,
        build.as_secs_f64()
    );
    println!(
        "| {corpus} | index on disk (MB by file kind: {}) | {:.1} MB | < 30 MB |",
        breakdown(&paths.search_dir()),
        bytes as f64 / 1e6
    );
    if keep.is_some() {
        return;
    }
    for scope in [
        Scope::Person,
        Scope::Agent {
            search_history: false,
        },
    ] {
        let mut times = Vec::new();
        let mut found = 0;
        let cpu = thread_cpu();
        for round in 0..40 {
            for q in &queries {
                let (r, took) = timed_search(&index, q, scope);
                times.push(took);
                if round == 0 {
                    found += r.total;
                }
            }
        }
        let cpu = thread_cpu().saturating_sub(cpu).as_secs_f64() * 1000.0 / times.len() as f64;
        let (median, p95) = median_ms(times);
        println!(
            "| {corpus} | query, {scope:?} ({} queries, {found} pages found in the first round) | median {median:.2} ms, p95 {p95:.2} ms (CPU time: mean {cpu:.2} ms) | median < 5 ms |",
            queries.len() * 40
        );
    }
    // The worst phrase: the corpus's commonest pair of words, on most pages, so its check
    // reads most of the stored text (phrases are checked against it, see `phrase.rs`).
    let mut times = Vec::new();
    let mut found = 0;
    for _ in 0..20 {
        let (r, took) = timed_search(&index, &pair, Scope::Person);
        times.push(took);
        found = r.total;
    }
    let (median, p95) = median_ms(times);
    println!(
        "| {corpus} | the worst phrase: the commonest pair of words ({pair}, {found} pages) | median {median:.1} ms, p95 {p95:.1} ms | |"
    );
    let mut visits = Vec::new();
    for i in 0..20 {
        let t = Instant::now();
        index.submit(Op::Add(Doc {
            url: format!("gemini://visit.test/{i}"),
            title: Some("A visit".into()),
            text: "moss and tardigrades ".repeat(250),
            source: Source::History,
            feed: None,
            lang: None,
            time: OffsetDateTime::now_utc(),
        }));
        let f = index.flush(Duration::from_secs(10)).unwrap();
        assert_eq!(f.queued, 0);
        visits.push(t.elapsed());
    }
    let (median, p95) = median_ms(visits);
    println!(
        "| {corpus} | one visit added (queued + committed, off the face's thread) | median {median:.1} ms, p95 {p95:.1} ms | not in the first paint |"
    );
}

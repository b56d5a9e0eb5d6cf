//! The driver: start the writer, kill it with SIGKILL at a random moment, check the store,
//! again and again; optionally on a small tmpfs kept nearly full, so writes also fail for
//! want of space at random points.
//!
//! A data directory takes [`Store::writes_per_dir`] writes at most, then the next one is
//! started (the old one removed, which on the tmpfs gives its space back). The random source
//! is seeded from `SMOLWEB_CRASH_SEED` when set, else from the clock, and the seed is in the
//! report so a failing run can be replayed.

use super::{Store, Verdict, check, judge};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A small, seedable random source (xorshift64*): the harness needs spread, not secrecy.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Seeded from `SMOLWEB_CRASH_SEED`, else from the clock.
    pub fn from_env() -> Rng {
        let seed = std::env::var("SMOLWEB_CRASH_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            });
        Rng::new(seed)
    }
    /// Seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    /// The seed this source would replay from now.
    pub fn seed(&self) -> u64 {
        self.0
    }
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }
}

/// A tmpfs mounted for the run (unmounted on drop).
#[derive(Debug)]
pub struct Tmpfs {
    dir: PathBuf,
}

impl Tmpfs {
    /// Mount a tmpfs of `bytes` on `dir` (created); the error says why not (no permission,
    /// no `mount`).
    pub fn mount(dir: &Path, bytes: u64) -> Result<Tmpfs, String> {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o"])
            .arg(format!("size={bytes},mode=0700"))
            .arg("tmpfs")
            .arg(dir)
            .output()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
        }
        Ok(Tmpfs {
            dir: dir.to_path_buf(),
        })
    }
    /// Where it is mounted.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.dir).status();
    }
}

/// A file that takes all the space of a file system but a few bytes.
#[derive(Debug)]
struct Ballast {
    path: PathBuf,
}

impl Ballast {
    /// Fill the file system, then give back `free` bytes.
    fn fill(&self, free: u64) {
        let _ = std::fs::remove_file(&self.path);
        let Ok(mut file) = std::fs::File::create(&self.path) else {
            return;
        };
        let chunk = vec![0u8; 16 * 1024];
        while file.write_all(&chunk).is_ok() {}
        // The last chunk may have landed in part: count what is there.
        let len = file.metadata().map_or(0, |m| m.len());
        let _ = file.set_len(len.saturating_sub(free));
    }
    fn remove(&self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// How a run goes.
#[derive(Clone, Debug)]
pub struct Options {
    /// The writer binary (`smolweb-store-writer`).
    pub writer: PathBuf,
    /// Kills per store.
    pub kills: usize,
    /// The longest wait between starting the writer and killing it.
    pub max_delay: Duration,
    /// Keep the file system nearly full: before each start, at most this many bytes are
    /// left free (a random amount below it). None: no ballast.
    pub free_at_most: Option<u64>,
}

/// The figures of one store over a run.
#[derive(Clone, Debug, Default)]
pub struct Figures {
    /// Which store.
    pub store: &'static str,
    /// Writers killed.
    pub kills: usize,
    /// Checks after which the store opened.
    pub opened: usize,
    /// Records found not whole (summed over the checks).
    pub partial: usize,
    /// Acknowledged writes found missing (summed over the checks).
    pub lost: usize,
    /// Writes found that were neither acknowledged nor in flight.
    pub phantom: usize,
    /// Acknowledged writes over the run.
    pub acked: u64,
    /// Writes that failed (full disk) as the writer reported them.
    pub failed_writes: u64,
    /// Kills that landed while a write was in flight (the writer had started it and not
    /// acknowledged it).
    pub in_flight: usize,
    /// Most leftovers of killed writers found after a kill ([`super::Found::leftovers`]).
    pub leftovers: usize,
    /// Checks that found more leftovers than one write in flight leaves (they pile up).
    pub piled_up: usize,
    /// On a full disk: after space came back, a write succeeded.
    pub recovered: Option<bool>,
    /// The first few things that went wrong.
    pub notes: Vec<String>,
}

impl Figures {
    /// Nothing went wrong.
    pub fn clean(&self) -> bool {
        self.opened == self.kills
            && self.partial == 0
            && self.lost == 0
            && self.phantom == 0
            && self.piled_up == 0
            && self.recovered != Some(false)
    }
    fn add(&mut self, v: &Verdict) {
        self.opened += usize::from(v.opened);
        self.partial += v.partial;
        self.lost += v.lost;
        self.phantom += v.phantom;
        for n in &v.notes {
            if self.notes.len() < 5 {
                self.notes.push(n.clone());
            }
        }
    }
}

/// What a killed writer said: its last acknowledged write, its failed writes, and whether it
/// had started a write it did not acknowledge.
fn read_writer(out: &str, first: u64) -> (u64, u64, bool) {
    let (mut acked, mut failed, mut pending) = (first - 1, 0, false);
    for line in out.lines() {
        if let Some(n) = line.strip_prefix("ack ").and_then(|n| n.parse().ok()) {
            acked = n;
            pending = false;
        } else if line.starts_with("fail ") {
            failed += 1;
            pending = false;
        } else if line.starts_with("start ") {
            pending = true;
        }
    }
    (acked, failed, pending)
}

/// Start the writer of `store` on `dir` from write `first`, let it run `delay`, kill it;
/// return its output.
fn run_writer(
    opts: &Options,
    store: Store,
    dir: &Path,
    first: u64,
    delay: Duration,
) -> std::io::Result<String> {
    let mut child = Command::new(&opts.writer)
        .arg(store.name())
        .arg(dir)
        .arg(first.to_string())
        // The last write of this directory, counted from its first: a run that starts at
        // write 24 stops at the bound too, or a store that keeps 50 (suggestions) would drop
        // its oldest by design and the check would call them lost.
        .arg(store.writes_per_dir().max(first).to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    std::thread::sleep(delay);
    let _ = child.kill();
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        stdout.read_to_string(&mut out)?;
    }
    child.wait()?;
    Ok(out)
}

/// Run the writer until it acknowledges one write (at most `within`); true when it did.
fn one_write(opts: &Options, store: Store, dir: &Path, first: u64, within: Duration) -> bool {
    let Ok(mut child) = Command::new(&opts.writer)
        .arg(store.name())
        .arg(dir)
        .arg(first.to_string())
        .arg(first.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    let start = Instant::now();
    let mut out = String::new();
    let mut stdout = child.stdout.take();
    // The writer prints `done` and waits once its last write is acknowledged.
    while start.elapsed() < within && !out.contains("done") {
        let mut buf = [0u8; 256];
        match stdout.as_mut().map(|s| s.read(&mut buf)) {
            Some(Ok(n)) if n > 0 => out.push_str(&String::from_utf8_lossy(&buf[..n])),
            _ => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    out.contains(&format!("ack {first}"))
}

/// Kill `store`'s writer `opts.kills` times under `root` and check the store after each.
pub fn run(opts: &Options, store: Store, root: &Path, rng: &mut Rng) -> Figures {
    let mut figures = Figures {
        store: store.name(),
        ..Figures::default()
    };
    let ballast = opts.free_at_most.map(|_| Ballast {
        path: root.join("ballast"),
    });
    let mut generation = 0;
    let mut dir = root.join(format!("{}-{generation}", store.name()));
    let mut last = 0;
    for _ in 0..opts.kills {
        if last >= store.writes_per_dir() / 2 {
            let _ = std::fs::remove_dir_all(&dir);
            generation += 1;
            dir = root.join(format!("{}-{generation}", store.name()));
            last = 0;
        }
        if let (Some(b), Some(free)) = (&ballast, opts.free_at_most.map(|f| store.free_at_most(f)))
        {
            // Mostly a little room, sometimes none: halved 0 to 5 times.
            b.fill(rng.below(free + 1) >> rng.below(6));
        }
        let most = store.max_delay(opts.max_delay);
        let delay = Duration::from_micros(rng.below(most.as_micros() as u64 + 1));
        let out = match run_writer(opts, store, &dir, last + 1, delay) {
            Ok(out) => out,
            Err(e) => {
                figures.notes.push(format!("cannot run the writer: {e}"));
                break;
            }
        };
        figures.kills += 1;
        let (acked, failed, pending) = read_writer(&out, last + 1);
        figures.acked += acked - last;
        figures.failed_writes += failed;
        figures.in_flight += usize::from(pending);
        let found = check(store, &dir);
        if let Ok(f) = &found {
            figures.leftovers = figures.leftovers.max(f.leftovers);
            if f.leftovers > store.in_flight_leftovers() {
                figures.piled_up += 1;
                if figures.notes.len() < 5 {
                    figures
                        .notes
                        .push(format!("{} leftovers after a kill", f.leftovers));
                }
            }
        }
        let verdict = judge(store, &found, acked);
        figures.add(&verdict);
        last = verdict.last;
    }
    if let Some(b) = &ballast {
        b.remove();
        figures.recovered = Some(one_write(
            opts,
            store,
            &dir,
            last + 1,
            Duration::from_secs(20),
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
    figures
}

/// The figures as a table (one row per store), for the test's output and the bench script.
pub fn table(rows: &[Figures], title: &str) -> String {
    let mut s = format!(
        "{title}\n| store | kills | opens OK | partial records | lost beyond in-flight | \
         phantom | acked writes | kills mid-write | failed writes | leftovers (max) | piled up | recovered |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    for r in rows {
        let recovered = match r.recovered {
            None => "-",
            Some(true) => "yes",
            Some(false) => "NO",
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.store,
            r.kills,
            r.opened,
            r.partial,
            r.lost,
            r.phantom,
            r.acked,
            r.in_flight,
            r.failed_writes,
            r.leftovers,
            r.piled_up,
            recovered
        ));
    }
    for r in rows.iter().filter(|r| !r.notes.is_empty()) {
        s.push_str(&format!("{}: {}\n", r.store, r.notes.join("; ")));
    }
    s
}

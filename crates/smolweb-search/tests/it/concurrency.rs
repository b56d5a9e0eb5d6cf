//! Real processes (this test binary started again as a child): two committing at once, one
//! killed while it holds the writer lock, one whose disk is full while it commits. Nothing
//! queued is lost and the index stays readable.

use super::*;
use smolweb_search::SearchError;
use std::process::{Child, Command, Stdio};

const ROLE: &str = "SMOLWEB_SEARCH_CHILD";
const DATA: &str = "SMOLWEB_SEARCH_CHILD_DATA";

fn child_command(role: &str, data: &Path) -> Command {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args(["concurrency::child", "--exact", "--ignored", "--nocapture"])
        .env(ROLE, role)
        .env(DATA, data)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    c
}

fn wait_ok(child: Child) -> String {
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "child failed: {text}");
    text
}

/// The child's side: what it does is in its role.
#[test]
#[ignore = "started by the other tests of this module as a child process"]
fn child() {
    let role = std::env::var(ROLE).unwrap();
    let data = std::path::PathBuf::from(std::env::var(DATA).unwrap());
    let index = index_in(&data, Arc::default());
    if let Some(n) = role.strip_prefix("writer-") {
        for i in 0..40 {
            let url = format!("gemini://p{n}.test/{i}");
            index.submit(Op::Add(doc(
                &url,
                "page",
                &format!("shared words page{i}"),
                Source::Agent,
            )));
        }
        let f = index.flush(Duration::from_secs(60)).unwrap();
        println!("flushed {f:?}");
    } else if role == "holder" {
        let queue = smolweb_store::paths::Paths::resolve(Some(data), None, None, None)
            .unwrap()
            .search_queue();
        let _held = queue.try_writer().unwrap().expect("the lock is free");
        println!("holding");
        std::thread::sleep(Duration::from_secs(60));
    } else if role == "full-disk" {
        match index.flush(Duration::from_secs(5)) {
            Err(SearchError::Commit { reason, .. }) => {
                println!("refused: {reason}");
                assert_eq!(index.stats().unwrap().queued, 1);
            }
            other => panic!("expected a failed commit, got {other:?}"),
        }
    }
}

#[test]
fn two_processes_committing_at_once_lose_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let a = child_command("writer-1", tmp.path()).spawn().unwrap();
    let b = child_command("writer-2", tmp.path()).spawn().unwrap();
    wait_ok(a);
    wait_ok(b);
    let index = index_in(tmp.path(), Arc::default());
    let f = index.flush(Duration::from_secs(10)).unwrap();
    assert_eq!(f.queued, 0);
    assert_eq!(person(&index, "site:p1.test").total, 40);
    assert_eq!(person(&index, "site:p2.test").total, 40);
    assert_eq!(person(&index, "shared words").total, 80);
}

#[test]
fn a_writer_killed_while_holding_the_lock_leaves_the_queue_to_the_next() {
    let tmp = tempfile::tempdir().unwrap();
    let mut holder = child_command("holder", tmp.path()).spawn().unwrap();
    // The child's harness prints its own lines first.
    let said = std::io::BufRead::lines(std::io::BufReader::new(holder.stdout.take().unwrap()))
        .map_while(Result::ok)
        .find(|l| l.starts_with("holding"));
    assert!(said.is_some(), "the child did not take the lock");
    let index = index_in(tmp.path(), Arc::default());
    index.submit(Op::Add(doc(
        "gemini://q.test/",
        "Queued",
        "lichens",
        Source::Agent,
    )));
    let f = index.flush(Duration::from_millis(300)).unwrap();
    assert_eq!((f.committed, f.queued), (0, 1), "the other process writes");
    holder.kill().unwrap();
    holder.wait().unwrap();
    // The lock went with the process: this process's committer (still trying) or this flush
    // commits the page.
    let f = index.flush(Duration::from_secs(10)).unwrap();
    assert_eq!(f.queued, 0);
    assert_eq!(urls(&person(&index, "lichens")), ["gemini://q.test/"]);
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_while_committing_keeps_the_page_queued() {
    if Command::new("prlimit").arg("--version").output().is_err() {
        eprintln!("*** SKIP a_full_disk_while_committing: prlimit (util-linux) is missing");
        assert!(std::env::var_os("SMOLWEB_REQUIRE_PRLIMIT").is_none());
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let index = index_in(tmp.path(), Arc::default());
    commit(
        &index,
        vec![Op::Add(doc(
            "gemini://a.test/",
            "A",
            "first",
            Source::Agent,
        ))],
    );
    // The first index's committer tries once more to commit the queue as it is dropped: had
    // the big page been queued by now, this process (with no file size limit) would commit it.
    drop(index);
    // About a megabyte of distinct words: the index files of it are far over the limit. Queued
    // by an index that never started a committer, so only the child can commit it.
    let text: String = (0..120_000).map(|i| format!("w{i} ")).collect();
    let index = index_in(tmp.path(), Arc::default());
    index
        .queue_now(&Op::Add(doc(
            "gemini://big.test/",
            "Big",
            &text,
            Source::Agent,
        )))
        .unwrap();
    drop(index);
    // Files over 64 KiB cannot be written by the child (EFBIG, as a full disk would refuse).
    let exe = std::env::current_exe().unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; exec prlimit --fsize=65536 -- \"$0\" concurrency::child --exact --ignored --nocapture")
        .arg(&exe)
        .env(ROLE, "full-disk")
        .env(DATA, tmp.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}\n{err}");
    assert!(said.contains("refused:"), "{said}");
    // Nothing lost, nothing corrupted: the next writer commits it, the old page is there.
    let index = index_in(tmp.path(), Arc::default());
    let f = index.flush(Duration::from_secs(10)).unwrap();
    assert_eq!((f.committed, f.queued), (1, 0));
    assert!(f.rebuilt.is_none());
    assert_eq!(urls(&person(&index, "w119999")), ["gemini://big.test/"]);
    assert_eq!(urls(&person(&index, "first")), ["gemini://a.test/"]);
}

//! The crash harness's writer: `smolweb-store-writer <store> <data-dir> <first> <last>`
//! performs writes `first..=last` of one store ([`smolweb_testkit::crash::write`]), printing
//! `start N` before write N and `ack N` once it returned (or `fail N <error>`, then it tries
//! N again a moment later: a full disk), then `done`, and waits to be killed (or for its
//! driver to die: then it leaves, as it does when its output is closed). The driver
//! ([`smolweb_testkit::crash::driver`]) kills it with SIGKILL at a random moment.

use smolweb_testkit::crash::{self, Store};
use std::io::Write;
use std::path::PathBuf;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(store), Some(dir), Some(first), Some(last)) = (
        args.first().and_then(|s| Store::from_name(s)),
        args.get(1).map(PathBuf::from),
        args.get(2).and_then(|s| s.parse::<u64>().ok()),
        args.get(3).and_then(|s| s.parse::<u64>().ok()),
    ) else {
        let _ = writeln!(
            std::io::stderr(),
            "usage: smolweb-store-writer <store> <data-dir> <first> <last>"
        );
        return std::process::ExitCode::from(2);
    };
    let mut out = std::io::stdout().lock();
    while let Err(e) = crash::prepare(store, &dir) {
        let _ = writeln!(out, "fail 0 {e}");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let mut n = first;
    while n <= last {
        if writeln!(out, "start {n}").is_err() {
            // The driver is gone (its end of the pipe closed).
            return std::process::ExitCode::from(3);
        }
        match crash::write(store, &dir, n) {
            Ok(()) => {
                let _ = writeln!(out, "ack {n}");
                n += 1;
            }
            Err(e) => {
                let _ = writeln!(out, "fail {n} {e}");
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
        let _ = out.flush();
    }
    let _ = writeln!(out, "done");
    let _ = out.flush();
    // Wait to be killed; a driver that died first leaves this process to init: leave too.
    let parent = std::os::unix::process::parent_id();
    while std::os::unix::process::parent_id() == parent {
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    std::process::ExitCode::SUCCESS
}

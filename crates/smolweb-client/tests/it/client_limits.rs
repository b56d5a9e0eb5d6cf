//! Process-wide bounds on fetches in flight, against a loopback Gemini server that counts the
//! connections open at once: many concurrent calls to one host never hold more than
//! `max_in_flight_per_host` connections, the process never more than `max_in_flight`, and all
//! of them still complete (the rest queue).

use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_store::paths::Paths;
use std::sync::Arc;
use std::time::Duration;
use support::gemini::{Reply, Routes, Server};

fn client(edit: impl FnOnce(&mut Config)) -> (Arc<Client>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    config.network.allow_private_addresses = true;
    config.network.timeout_seconds = 30;
    config.politeness.per_host_interval_ms = 0;
    config.cache.ttl_seconds = 0;
    edit(&mut config);
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    (
        Arc::new(Client::new(config, paths, Face::Agent).unwrap()),
        dir,
    )
}

async fn burst(c: &Arc<Client>, server: &Server, calls: usize) {
    let mut tasks = Vec::new();
    for i in 0..calls {
        let (c, url) = (c.clone(), server.url(&format!("/p{i}")));
        tasks.push(tokio::spawn(async move {
            c.open(&url, &OpenOptions::default()).await
        }));
    }
    for t in tasks {
        match t.await.unwrap() {
            Outcome::Page { .. } => {}
            other => panic!("every queued call completes: {other:?}"),
        }
    }
}

fn slow_pages() -> Routes {
    // Each answer takes a while, so unbounded callers would all be connected at once.
    Routes::new().handler(|_| Reply::drip("# p\n", Duration::from_millis(20)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_to_one_host_stay_within_the_per_host_bound() {
    let server = Server::start(slow_pages()).await;
    let (c, _dir) = client(|cfg| {
        cfg.network.max_in_flight = 100;
        cfg.network.max_in_flight_per_host = 3;
    });
    burst(&c, &server, 30).await;
    assert!(
        server.max_open() <= 3,
        "{} connections were open at once",
        server.max_open()
    );
    assert!(server.max_open() >= 2, "the calls did overlap");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_process_bound_holds_across_hosts() {
    let server = Server::start(slow_pages()).await;
    let (c, _dir) = client(|cfg| {
        cfg.network.max_in_flight = 2;
        cfg.network.max_in_flight_per_host = 10;
    });
    // One server under two host names: the per-host bound (10) never binds, the process's does.
    let mut tasks = Vec::new();
    for i in 0..20 {
        let host = if i % 2 == 0 { "127.0.0.1" } else { "localhost" };
        let url = server.url(&format!("/p{i}")).replace("127.0.0.1", host);
        let c = c.clone();
        tasks.push(tokio::spawn(async move {
            c.open(&url, &OpenOptions::default()).await
        }));
    }
    for t in tasks {
        let o = t.await.unwrap();
        assert!(matches!(o, Outcome::Page { .. }), "{o:?}");
    }
    assert!(server.max_open() <= 2, "{} open at once", server.max_open());
    assert_eq!(server.max_open(), 2, "the calls did overlap");
}

//! The region picker in a real terminal (issue 30, item 4): on a web page whose text the
//! reader finds wrong, V lists the page's regions at the bottom and shows above what the one
//! under the cursor keeps; V again goes to the next, Enter keeps it as the site's rule (the
//! file `smolweb rules list` reads), `i` names the rule, and the next visit of another page
//! of the site is read by it. Without tmux: a loud SKIP, unless SMOLWEB_REQUIRE_TMUX=1.

use crate::tui_tmux_driver::{Tmux, tmux_available};
use smolweb_testkit::http::{Reply, Server};
use std::path::Path;

/// A recipe page whose steps sit in a "sidebar" box the reader leaves out as chrome.
fn recipe(n: u32) -> String {
    let story = "<p>My grandmother made this bread every week, and the kitchen smelled of it \
                 from the morning on, which is a story I tell every time I bake it. </p>"
        .repeat(3);
    let steps = format!(
        "<ol><li>Mix the flour and the water for recipe {n}.</li><li>Let it rest.</li>\
         <li>Fold the dough four times, an hour apart.</li><li>Bake it hot.</li></ol>"
    );
    let steps = steps.repeat(3);
    format!(
        "<!doctype html><html><head><title>Bread {n}</title></head><body>\
         <article class=\"story\"><h1>Bread {n}</h1>{story}</article>\
         <div class=\"sidebar recipe-card\"><h2>Steps</h2>{steps}</div></body></html>"
    )
}

fn browser(data: &Path, url: &str) -> String {
    format!(
        "env -u SMOLWEB_IMAGES {} --data-dir {} {url}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        data.display()
    )
}

fn rules_list(data: &Path) -> String {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(data)
        .args(["rules", "list"])
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_CONFIG")
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_region_picked_with_v_is_kept_as_the_sites_rule() {
    if !tmux_available("tui_tmux_rules") {
        return;
    }
    let server = Server::start(|r| match r.path() {
        "/bread/1" => Reply::html(&recipe(1)),
        "/bread/2" => Reply::html(&recipe(2)),
        _ => Reply::new(404, "text/plain", ""),
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let command = browser(data.path(), &server.url("/bread/1"));
    let (first, second) = (server.url("/bread/1"), server.url("/bread/2"));
    let dir = data.path().to_path_buf();
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("rules-pick", &command, 110, 34);
        let s = t.wait_for("grandmother");
        assert!(
            !s.contains("Fold the dough"),
            "the steps are left out first: {s}"
        );
        t.keys(&["V"]);
        let s = t.wait_for("pick its region");
        println!("{s}");
        assert!(s.contains("div.sidebar.recipe-card"), "{s}");
        assert!(s.contains("no rule: the main text smolweb finds"), "{s}");
        // Move to the steps' box: the page above shows what it keeps.
        let line = s
            .lines()
            .find(|l| l.contains("div.sidebar.recipe-card"))
            .unwrap();
        let n = line
            .trim_start_matches(['│', ' '])
            .split('.')
            .next()
            .unwrap()
            .to_string();
        t.keys(&[&n]);
        let s = t.wait_for("Fold the dough");
        assert!(
            !s.contains("every time I bake it"),
            "only the box is previewed: {s}"
        );
        t.keys(&["Enter"]);
        let s = t.wait_for("rule kept");
        println!("{s}");
        assert!(
            s.contains("site rule"),
            "the status line says a rule chose the text: {s}"
        );
        let list = rules_list(&dir);
        assert!(list.contains("content  div.sidebar.recipe-card"), "{list}");
        t.keys(&["i"]);
        let s = t.wait_for("Site rule");
        assert!(s.contains("div.sidebar.recipe-card (127.0.0.1)"), "{s}");
        // Any key closes the page info (Esc then ':' at once would read as alt-:).
        t.keys(&["i"]);
        t.wait_gone("Site rule");
        // Another page of the site is read by the rule.
        t.keys(&[":"]);
        t.type_text(&second);
        t.keys(&["Enter"]);
        let s = t.wait_for("recipe 2");
        assert!(!s.contains("every time I bake it"), "{s}");
        assert!(s.contains("site rule"), "{s}");
        // Esc in the picker puts the page back and changes nothing.
        t.keys(&["V"]);
        t.wait_for("pick its region");
        t.keys(&["Escape"]);
        let s = t.wait_for("put back");
        assert!(s.contains("Fold the dough"), "{s}");
        assert!(rules_list(&dir).contains("div.sidebar.recipe-card"));
        let _ = first;
    })
    .await
    .unwrap();
}

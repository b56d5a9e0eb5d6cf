//! `smolweb bookmarks` through the real binary: importing amfora's and Lagrange's files,
//! folders kept, duplicates skipped, the result shared with the browser's bookmarks file.

use std::path::Path;
use std::process::{Command, Output};

fn run(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME")
        .output()
        .unwrap()
}

#[test]
fn import_from_amfora_and_lagrange_keeps_folders_and_skips_what_is_there() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let amfora = dir.path().join("bookmarks.xml");
    std::fs::write(
        &amfora,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<xbel version="1.0">
  <bookmark href="gemini://geminiprotocol.net/"><title>Project Gemini</title></bookmark>
  <folder><title>Gemlogs</title>
    <bookmark href="gemini://a.example/log/"><title>A's log</title></bookmark>
  </folder>
</xbel>"#,
    )
    .unwrap();
    let o = run(&data, &["bookmarks", "import", amfora.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("2 bookmarks added") && said.contains("XBEL"),
        "{said}"
    );

    let lagrange = dir.path().join("bookmarks.ini");
    std::fs::write(
        &lagrange,
        "[1]\nurl = \"gemini://geminiprotocol.net/\"\ntitle = \"Gemini again\"\n\
         [2]\ntitle = \"Gemlogs\"\n\
         [3]\nurl = \"gemini://b.example/\"\ntitle = \"B\"\nparent = 2\n",
    )
    .unwrap();
    let o = run(&data, &["bookmarks", "import", lagrange.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("1 bookmark added") && said.contains("1 already"),
        "{said}"
    );

    // The browser's file holds them under one folder heading, readable as a page.
    let file = std::fs::read_to_string(data.join("bookmarks.gmi")).unwrap();
    assert_eq!(
        file,
        "# Bookmarks\n\n=> gemini://geminiprotocol.net/ Project Gemini\n\n## Gemlogs\n\
         => gemini://a.example/log/ A's log\n=> gemini://b.example/ B\n"
    );
    let list = run(&data, &["bookmarks", "list"]);
    let shown = String::from_utf8_lossy(&list.stdout);
    assert!(
        shown.contains("Gemlogs:\n  A's log  gemini://a.example/log/"),
        "{shown}"
    );

    let junk = dir.path().join("junk.txt");
    std::fs::write(&junk, "just some words = = =").unwrap();
    let o = run(&data, &["bookmarks", "import", junk.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a bookmarks file"));
    let missing = run(
        &data,
        &["bookmarks", "import", "/nonexistent/bookmarks.xml"],
    );
    assert_eq!(missing.status.code(), Some(1));
}

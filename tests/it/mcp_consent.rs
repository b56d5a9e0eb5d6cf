//! Identity and trust changes need the human: pending approvals performed by the `smolweb`
//! binary, elicitation accept/decline on both protocol generations, and `ask_user` answers that
//! never reach the agent.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::*;
use serde_json::json;
use support::gemini::{self, Reply, Routes};

fn members_only() -> Routes {
    Routes::new().handler(
        |req| match (req.path.as_str(), &req.client_cert, &req.query) {
            ("/club", None, _) => Reply::status(60, "Members only"),
            ("/club", Some(fp), _) => Reply::gemtext(&format!("# Welcome\nmember {fp}\n")),
            ("/secret", _, None) => Reply::status(11, "Password"),
            ("/secret", _, Some(_)) => Reply::gemtext("# Inside\n"),
            _ => Reply::status(51, "not found"),
        },
    )
}

#[tokio::test]
async fn identity_without_elicitation_waits_for_the_cli_approval() {
    let server = gemini::Server::start(members_only()).await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let club = server.url("/club");
    let first = sc(&call(&s, "gemini_fetch", json!({"url": club})).await);
    assert_eq!(first["kind"], "certificate");
    assert_eq!(first["status"], 60);
    assert_eq!(first["required"], true);
    assert!(
        first["next_step"]
            .as_str()
            .unwrap()
            .contains("Ask the user")
    );

    let bad = call(&s, "gemini_client_cert_update", json!({"action": "create", "url": club, "fingerprint": format!("sha256:{}", "a".repeat(64))})).await;
    assert_eq!(error_code(&bad), "INVALID_REQUEST");
    let bad = call(
        &s,
        "gemini_client_cert_update",
        json!({"action": "remove", "url": club}),
    )
    .await;
    assert_eq!(error_code(&bad), "INVALID_REQUEST");

    let r = call(
        &s,
        "gemini_client_cert_update",
        json!({"action": "create", "url": club}),
    )
    .await;
    let v = sc(&r);
    assert_eq!(v["kind"], "client_cert_update", "{v}");
    assert_eq!(v["pending"], true);
    assert_eq!(v["changed"], false);
    let id = v["approval_id"].as_str().unwrap().to_string();
    assert!(
        v["next_step"]
            .as_str()
            .unwrap()
            .contains(&format!("smolweb identity approve {id}"))
    );
    let still = sc(&call(&s, "gemini_fetch", json!({"url": club})).await);
    assert_eq!(
        still["kind"], "certificate",
        "nothing changes before the human approves"
    );

    let (ok, queued) = env.run(&["identity", "pending"]);
    assert!(ok, "{queued}");
    let (ok, out) = env.run(&["identity", "approve", &id]);
    assert!(ok, "approve failed: {out}");
    let list = sc(&call(&s, "gemini_client_cert_list", json!({})).await);
    let entries = list["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    // The queue asked the person about the identity that now exists, by its name.
    let name = entries[0]["name"].as_str().unwrap();
    assert!(name.starts_with("127.0.0.1-club-"), "{name}");
    assert!(
        queued.contains(&format!("'{name}'")) && out.contains(&format!("'{name}'")),
        "pending and approve name {name}: {queued} / {out}"
    );
    assert_eq!(entries[0]["created_by"], "agent");
    assert_eq!(entries[0]["path"], "/club");
    let fp = entries[0]["fingerprint"].as_str().unwrap().to_string();
    assert!(!list.to_string().contains("PRIVATE KEY"));
    assert!(
        !list
            .to_string()
            .contains(&env.data_dir().display().to_string())
    );

    let page = sc(&call(&s, "gemini_fetch", json!({"url": club})).await);
    assert_eq!(page["kind"], "gemtext", "{page}");
    let last = server
        .requests()
        .into_iter()
        .rev()
        .find(|q| q.path == "/club")
        .unwrap();
    assert_eq!(last.client_cert.as_deref(), Some(fp.as_str()));

    let pins = sc(&call(&s, "gemini_trust_list", json!({"host": "127.0.0.1"})).await);
    assert_eq!(pins["entries"][0]["fingerprint"], server.fingerprint());
    let other = format!("sha256:{}", "b".repeat(64));
    let pin = sc(&call(
        &s,
        "gemini_trust_update",
        json!({"action": "pin", "host": "127.0.0.1", "port": server.port(), "fingerprint": other}),
    )
    .await);
    assert_eq!(pin["pending"], true);
    let id = pin["approval_id"].as_str().unwrap().to_string();
    let (ok, out) = env.run(&["trust", "approve", &id]);
    assert!(ok, "{out}");
    let changed = call(
        &s,
        "gemini_fetch",
        json!({"url": server.url("/club"), "refresh": true}),
    )
    .await;
    assert_eq!(error_code(&changed), "CERTIFICATE_CHANGED");
    s.cancel().await.unwrap();
}

async fn elicited_identity(generation: Gen) {
    let server = gemini::Server::start(members_only()).await;
    let env = Env::loopback();
    let club = server.url("/club");
    let yes = TestClient::new(Elicit::Accept(json!({"approve": true})));
    let asked = yes.asked.clone();
    let s = connect(&env, generation, yes).await;
    let r = call(
        &s,
        "gemini_client_cert_update",
        json!({"action": "create", "url": club}),
    )
    .await;
    let v = sc(&r);
    assert_eq!(v["kind"], "client_cert_update", "{v}");
    assert_eq!(v["changed"], true);
    assert_eq!(v["pending"], false);
    assert!(v["expires"].is_string());
    let fp = v["fingerprint"].as_str().unwrap().to_string();
    if generation == Gen::Initialize {
        let q = asked.lock().unwrap().clone();
        assert_eq!(q.len(), 1);
        assert!(q[0].contains(&club), "the question names the scope: {q:?}");
        // ... and the identity by the name it has once made.
        let list = sc(&call(&s, "gemini_client_cert_list", json!({})).await);
        let name = list["entries"][0]["name"].as_str().unwrap().to_string();
        assert!(
            q[0].contains(&format!("named '{name}'")),
            "the question names the identity made ({name}): {q:?}"
        );
        assert!(v["message"].as_str().unwrap().contains(&name), "{v}");
    }
    let page = sc(&call(&s, "gemini_fetch", json!({"url": club})).await);
    assert_eq!(page["kind"], "gemtext");
    let again = call(
        &s,
        "gemini_client_cert_update",
        json!({"action": "create", "url": club}),
    )
    .await;
    assert_eq!(error_code(&again), "CERTIFICATE_EXISTS");
    let wrong = format!("sha256:{}", "c".repeat(64));
    let mismatch = call(
        &s,
        "gemini_client_cert_update",
        json!({"action": "remove", "url": club, "fingerprint": wrong}),
    )
    .await;
    assert_eq!(error_code(&mismatch), "FINGERPRINT_MISMATCH");
    let removed = sc(&call(
        &s,
        "gemini_client_cert_update",
        json!({"action": "remove", "url": club, "fingerprint": fp}),
    )
    .await);
    assert_eq!(removed["changed"], true, "{removed}");
    let list = sc(&call(&s, "gemini_client_cert_list", json!({})).await);
    assert_eq!(list["entries"], json!([]));
    s.cancel().await.unwrap();

    let no = TestClient::new(Elicit::Decline);
    let s = connect(&env, generation, no).await;
    let declined = call(
        &s,
        "gemini_client_cert_update",
        json!({"action": "create", "url": club}),
    )
    .await;
    assert_eq!(error_code(&declined), "USER_DECLINED");
    let pin = call(
        &s,
        "gemini_trust_update",
        json!({"action": "remove", "host": "127.0.0.1", "port": server.port()}),
    )
    .await;
    assert_eq!(error_code(&pin), "USER_DECLINED");
    let list = sc(&call(&s, "gemini_client_cert_list", json!({})).await);
    assert_eq!(list["entries"], json!([]));
    let (_, pending) = env.run(&["identity", "pending"]);
    assert!(
        pending.contains("no pending"),
        "a declined request leaves nothing queued: {pending}"
    );
    s.cancel().await.unwrap();

    let cancel = TestClient::new(Elicit::Cancel);
    let s = connect(&env, generation, cancel).await;
    let cancelled = call(
        &s,
        "gemini_client_cert_update",
        json!({"action": "create", "url": club}),
    )
    .await;
    assert_eq!(error_code(&cancelled), "USER_DECLINED");
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn elicited_identity_initialize() {
    elicited_identity(Gen::Initialize).await;
}

#[tokio::test]
async fn elicited_identity_discover() {
    elicited_identity(Gen::Discover).await;
}

async fn trust_with_elicitation(generation: Gen) {
    let server = gemini::Server::start(members_only()).await;
    let env = Env::loopback();
    let s = connect(
        &env,
        generation,
        TestClient::new(Elicit::Accept(json!({"approve": true}))),
    )
    .await;
    let first = sc(&call(&s, "gemini_fetch", json!({"url": server.url("/secret")})).await);
    assert_eq!(first["kind"], "input");
    let wrong = format!("sha256:{}", "d".repeat(64));
    let args = json!({"action": "remove", "host": "127.0.0.1", "port": server.port(), "fingerprint": wrong});
    assert_eq!(
        error_code(&call(&s, "gemini_trust_update", args).await),
        "FINGERPRINT_MISMATCH"
    );
    let args = json!({"action": "remove", "host": "127.0.0.1", "port": server.port(), "fingerprint": server.fingerprint()});
    let removed = sc(&call(&s, "gemini_trust_update", args).await);
    assert_eq!(removed["kind"], "trust_update");
    assert_eq!(removed["changed"], true, "{removed}");
    let list = sc(&call(&s, "gemini_trust_list", json!({})).await);
    assert_eq!(list["entries"], json!([]));
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn trust_with_elicitation_initialize() {
    trust_with_elicitation(Gen::Initialize).await;
}

#[tokio::test]
async fn trust_with_elicitation_discover() {
    trust_with_elicitation(Gen::Discover).await;
}

async fn ask_user(generation: Gen) {
    let server = gemini::Server::start(members_only()).await;
    let env = Env::loopback();
    let secret = "hunter2-Ω";
    let client = TestClient::new(Elicit::Accept(json!({"answer": secret})));
    let asked = client.asked.clone();
    let s = connect(&env, generation, client).await;
    let r = call(
        &s,
        "gemini_fetch",
        json!({"url": server.url("/secret"), "ask_user": true}),
    )
    .await;
    let v = sc(&r);
    assert_eq!(v["kind"], "gemtext", "{v}");
    assert_eq!(v["input_from_user"], true);
    assert_eq!(v["request_info"]["has_query"], true);
    let everything = format!("{v}{}", texts(&r).join(""));
    assert!(
        !everything.contains("hunter2"),
        "the answer never reaches the agent"
    );
    let sent = server
        .requests()
        .into_iter()
        .find(|q| q.query.is_some())
        .unwrap();
    assert_eq!(sent.query.as_deref(), Some("hunter2-%CE%A9"));
    if generation == Gen::Initialize {
        let q = asked.lock().unwrap().clone();
        assert!(
            q[0].contains("Password") && q[0].contains("sensitive"),
            "{q:?}"
        );
    }
    s.cancel().await.unwrap();

    let s = connect(&env, generation, TestClient::new(Elicit::Decline)).await;
    let r = call(
        &s,
        "gemini_fetch",
        json!({"url": server.url("/secret"), "ask_user": true}),
    )
    .await;
    assert_eq!(error_code(&r), "USER_DECLINED");
    s.cancel().await.unwrap();

    let s = connect(&env, generation, TestClient::new(Elicit::Off)).await;
    let r = sc(&call(
        &s,
        "gemini_fetch",
        json!({"url": server.url("/secret"), "ask_user": true}),
    )
    .await);
    assert_eq!(
        r["kind"], "input",
        "without elicitation the prompt goes to the agent"
    );
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn ask_user_initialize() {
    ask_user(Gen::Initialize).await;
}

#[tokio::test]
async fn ask_user_discover() {
    ask_user(Gen::Discover).await;
}

#[tokio::test]
async fn store_tool_results_carry_request_info() {
    let env = Env::loopback();
    let s = connect(
        &env,
        Gen::Initialize,
        TestClient::new(Elicit::Accept(json!({"approve": true}))),
    )
    .await;
    let fp = format!("sha256:{}", "b".repeat(64));
    let calls = [
        ("gemini_client_cert_list", json!({})),
        (
            "gemini_client_cert_update",
            json!({"action": "create", "url": "gemini://example.org/app"}),
        ),
        ("gemini_client_cert_list", json!({"host": "example.org"})),
        (
            "gemini_trust_update",
            json!({"action": "pin", "host": "example.org", "fingerprint": fp}),
        ),
        ("gemini_trust_list", json!({})),
        (
            "gemini_trust_update",
            json!({"action": "pin", "host": "example.org", "fingerprint": fp}),
        ),
    ];
    for (tool, args) in calls {
        let r = call(&s, tool, args.clone()).await;
        let v = sc(&r);
        assert_ne!(v["kind"], "error", "{tool} {args}: {v}");
        let info = v["request_info"]
            .as_object()
            .unwrap_or_else(|| panic!("{tool} {args}: no request_info in {v}"));
        assert!(info.get("timestamp").is_none(), "nothing was sent: {v}");
        if tool.ends_with("_update") {
            assert_eq!(info["host"], "example.org", "{tool}: {v}");
        }
    }
    let v = sc(&call(&s, "gemini_client_cert_list", json!({})).await);
    assert_eq!(v["entries"].as_array().unwrap().len(), 1);
    // The output schemas say so too.
    let tools = s.list_all_tools().await.unwrap();
    for t in tools
        .iter()
        .filter(|t| t.name.starts_with("gemini_client_cert") || t.name.starts_with("gemini_trust"))
    {
        let schema = serde_json::to_value(t.output_schema.as_deref().unwrap()).unwrap();
        let success = schema["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["properties"]["kind"]["const"] != "error")
            .unwrap();
        let def = success["$ref"]
            .as_str()
            .unwrap()
            .trim_start_matches("#/$defs/");
        let required: Vec<&str> = schema["$defs"][def]["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|x| x.as_str())
            .collect();
        assert!(required.contains(&"request_info"), "{}: {success}", t.name);
    }
    s.cancel().await.unwrap();
}

/// One corrupt identity file is named in the list (by file name, never its path) and the
/// other identities are still listed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cert_list_names_a_corrupt_identity_file_and_lists_the_rest() {
    let env = Env::loopback();
    let (ok, out) = env.run(&[
        "identity",
        "create",
        "gemini://example.org/app",
        "--name",
        "me",
    ]);
    assert!(ok, "{out}");
    let dir = env.data_dir().join(smolweb_store::files::IDENTITIES_DIR);
    let bad = dir.join(format!("{}.toml", "ab".repeat(32)));
    smolweb_store::perms::write_private(&bad, "this is = = not toml").unwrap();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let r = call(&s, "gemini_client_cert_list", json!({})).await;
    assert!(!r.is_error.unwrap_or(false), "{:?}", sc(&r));
    let v = sc(&r);
    assert_eq!(v["entries"].as_array().unwrap().len(), 1, "{v}");
    let warnings = v["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{v}");
    let w = warnings[0].as_str().unwrap();
    assert!(w.contains(&format!("{}.toml", "ab".repeat(32))), "{w}");
    assert!(
        !w.contains(&*env.data_dir().to_string_lossy()),
        "no path: {w}"
    );
    assert!(texts(&r)[0].contains("warning:"), "{:?}", texts(&r));
    assert_eq!(
        std::fs::read_to_string(&bad).unwrap(),
        "this is = = not toml"
    );
    s.cancel().await.unwrap();
}

/// An MCP client names itself: `clientInfo.name` is remote text. Whatever it holds (ESC
/// sequences, C1 controls, bidi overrides, zero-width characters), `identity pending` and
/// `trust pending` never write it to the person's terminal as it is.
#[test]
fn a_hostile_client_name_never_reaches_the_terminal_raw() {
    use mcp_harness::raw::Raw;
    let env = Env::loopback();
    let name = "evil\x1b]0;pwned\x07\x1b[2J\u{9b}31m\u{202e}exe.txt\u{2066}\u{200b}!";
    let mut raw = Raw::spawn(&env);
    raw.send(
        &json!({"jsonrpc":"2.0","id":"init","method":"initialize","params":{
        "protocolVersion":"2025-06-18","capabilities":{},
        "clientInfo":{"name": name,"version":"1"}}}),
    );
    raw.reply("init");
    raw.send(&json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    let fp = format!("sha256:{}", "b".repeat(64));
    raw.call(
        1,
        "gemini_trust_update",
        json!({"action": "pin", "host": "example.org", "port": 1965, "fingerprint": fp}),
    );
    let pin = raw.reply(1);
    assert_eq!(pin["result"]["structuredContent"]["pending"], true, "{pin}");
    raw.call(
        2,
        "gemini_client_cert_update",
        json!({"action": "create", "url": "gemini://example.org/"}),
    );
    let create = raw.reply(2);
    assert_eq!(
        create["result"]["structuredContent"]["pending"], true,
        "{create}"
    );
    drop(raw);

    for what in ["trust", "identity"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_smolweb"))
            .args(env.args())
            .args([what, "pending"])
            .env_remove("SMOLWEB_HOME")
            .env_remove("SMOLWEB_CONFIG")
            .output()
            .unwrap();
        assert!(out.status.success(), "{what} pending failed");
        let bytes = out.stdout;
        // Byte by byte: no ESC, no BEL, no 8-bit CSI (C2 9B), no bidi override (E2 80 AE) or
        // isolate (E2 81 A6), no zero-width space (E2 80 8B).
        for bad in [
            &b"\x1b"[..],
            b"\x07",
            b"\xc2\x9b",
            b"\xe2\x80\xae",
            b"\xe2\x81\xa6",
            b"\xe2\x80\x8b",
        ] {
            assert!(
                !bytes.windows(bad.len()).any(|w| w == bad),
                "{what} pending wrote {bad:x?}: {bytes:x?}"
            );
        }
        let text = String::from_utf8(bytes).unwrap();
        assert!(
            text.contains("(asked by evil\u{fffd}]0;pwned\u{fffd}\u{fffd}[2J\u{fffd}31m\u{fffd}exe.txt\u{fffd}!"),
            "{what}: {text:?}"
        );
    }
}

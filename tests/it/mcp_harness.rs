//! Shared helpers for the MCP tests: a temp data dir + config, the built `smolweb --mcp`
//! binary spawned over stdio, and an rmcp test client that can answer elicitations and count
//! progress notifications. Both protocol generations are selectable.
#![allow(dead_code)]

pub(crate) mod python;
pub(crate) mod raw;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, Implementation, ProgressNotificationParam, ProtocolVersion,
};
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, RoleClient};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A data directory and a config file for one server process.
pub(crate) struct Env {
    pub dir: tempfile::TempDir,
}

pub(crate) const LOOPBACK_CONFIG: &str = "\
[network]
allow_private_addresses = true
timeout_seconds = 5
[politeness]
per_host_interval_ms = 0
";

impl Env {
    /// Loopback-friendly config plus `extra` TOML lines (appended).
    pub(crate) fn new(config: &str) -> Env {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("data")).unwrap();
        std::fs::write(dir.path().join("config.toml"), config).unwrap();
        Env { dir }
    }
    pub(crate) fn loopback() -> Env {
        Env::new(LOOPBACK_CONFIG)
    }
    pub(crate) fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }
    pub(crate) fn config_file(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }
    /// Arguments for `smolweb` subcommands run against this environment.
    pub(crate) fn args(&self) -> Vec<String> {
        vec![
            "--data-dir".into(),
            self.data_dir().display().to_string(),
            "--config".into(),
            self.config_file().display().to_string(),
        ]
    }
    /// Run the smolweb binary (e.g. `identity approve ID`) and return (status, stdout).
    pub(crate) fn run(&self, args: &[&str]) -> (bool, String) {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_smolweb"))
            .args(self.args())
            .args(args)
            .env_remove("SMOLWEB_HOME")
            .env_remove("SMOLWEB_CONFIG")
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }
}

/// How the test client answers elicitations.
#[derive(Clone, Debug)]
pub(crate) enum Elicit {
    /// Declare no elicitation capability.
    Off,
    Accept(Value),
    Decline,
    Cancel,
}

#[derive(Clone)]
pub(crate) struct TestClient {
    pub elicit: Elicit,
    /// Messages of the elicitations received.
    pub asked: Arc<Mutex<Vec<String>>>,
    pub progress: Arc<Mutex<Vec<f64>>>,
    /// The message of every progress notification that had one.
    pub progress_messages: Arc<Mutex<Vec<String>>>,
    /// How many progress notifications were handled (wait on it with `subscribe`).
    pub progress_count: Arc<tokio::sync::watch::Sender<usize>>,
    /// The protocol version asked for in `initialize` (None: rmcp's default).
    pub version: Option<ProtocolVersion>,
}

impl TestClient {
    pub(crate) fn new(elicit: Elicit) -> TestClient {
        TestClient {
            elicit,
            asked: Arc::default(),
            progress: Arc::default(),
            progress_messages: Arc::default(),
            progress_count: Arc::new(tokio::sync::watch::Sender::new(0)),
            version: None,
        }
    }

    /// Ask for this protocol version in `initialize`.
    pub(crate) fn speaking(mut self, version: ProtocolVersion) -> TestClient {
        self.version = Some(version);
        self
    }
}

impl ClientHandler for TestClient {
    fn get_info(&self) -> ClientConfig {
        let caps = match self.elicit {
            Elicit::Off => ClientCapabilities::default(),
            _ => ClientCapabilities::builder().enable_elicitation().build(),
        };
        let config = ClientConfig::new(caps, Implementation::new("smolweb-test", "1.0"));
        match &self.version {
            Some(v) => config.with_protocol_version(v.clone()),
            None => config,
        }
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _ctx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        if let ElicitRequestParams::FormElicitationParams { message, .. } = &request {
            self.asked.lock().unwrap().push(message.clone());
        }
        Ok(match &self.elicit {
            Elicit::Accept(v) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(v.clone())
            }
            Elicit::Decline => ElicitResult::new(ElicitationAction::Decline),
            _ => ElicitResult::new(ElicitationAction::Cancel),
        })
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _ctx: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params.progress);
        if let Some(m) = params.message {
            self.progress_messages.lock().unwrap().push(m);
        }
        self.progress_count.send_modify(|n| *n += 1);
    }
}

/// Which MCP generation the client speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gen {
    /// `initialize` handshake (2025-11-25).
    Initialize,
    /// `server/discover`, per-request metadata (2026-07-28).
    Discover,
}

pub(crate) type Session = RunningService<RoleClient, TestClient>;

/// Spawn `smolweb --mcp` for `env` and connect.
pub(crate) async fn connect(env: &Env, generation: Gen, client: TestClient) -> Session {
    let args = env.args();
    let cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_smolweb")).configure(|c| {
        c.arg("--mcp")
            .args(&args)
            .env_remove("SMOLWEB_HOME")
            .env_remove("SMOLWEB_CONFIG");
    });
    let transport = TokioChildProcess::new(cmd).unwrap();
    let mode = match generation {
        Gen::Initialize => ClientLifecycleMode::Initialize,
        Gen::Discover => ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    };
    client.serve_with_lifecycle(transport, mode).await.unwrap()
}

/// Call a tool with JSON arguments.
pub(crate) async fn call(s: &Session, tool: &str, args: Value) -> CallToolResult {
    let shown = args.to_string();
    let args = args.as_object().cloned().unwrap_or_default();
    let call = s.call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args));
    tokio::time::timeout(std::time::Duration::from_secs(30), call)
        .await
        .unwrap_or_else(|_| panic!("{tool} {shown} did not answer within 30 s"))
        .unwrap_or_else(|e| panic!("{tool} failed at the protocol level: {e}"))
}

/// The structuredContent of a result.
pub(crate) fn sc(r: &CallToolResult) -> Value {
    r.structured_content.clone().unwrap_or(json!(null))
}

/// The text blocks of a result.
pub(crate) fn texts(r: &CallToolResult) -> Vec<String> {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect()
}

/// The error code of an error result (asserting isError).
pub(crate) fn error_code(r: &CallToolResult) -> String {
    let v = sc(r);
    assert_eq!(v["kind"], "error", "expected an error, got {v}");
    assert_eq!(r.is_error, Some(true), "error results set isError");
    v["error"]["code"].as_str().unwrap().to_string()
}

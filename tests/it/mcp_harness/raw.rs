//! A raw JSON-RPC line client for `smolweb --mcp`: writes bytes to its stdin as given and
//! reads every stdout line, so tests can send what a real SDK never would (broken JSON,
//! oversized lines, mismatched arguments) and wait for the exact replies.

use super::Env;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

pub(crate) struct Raw {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, in order.
    pub seen: Vec<Value>,
}

impl Raw {
    /// Spawn the server; nothing is sent yet.
    pub(crate) fn spawn(env: &Env) -> Raw {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_smolweb"))
            .arg("--mcp")
            .args(env.args())
            .env_remove("SMOLWEB_HOME")
            .env_remove("SMOLWEB_CONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Raw {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// Spawn and complete the initialize handshake (protocol 2025-06-18).
    pub(crate) fn initialized(env: &Env) -> Raw {
        Raw::initialized_with(env, "2025-06-18")
    }

    /// Spawn and complete the initialize handshake asking for `version`; the server must
    /// answer with that version.
    pub(crate) fn initialized_with(env: &Env, version: &str) -> Raw {
        let mut raw = Raw::spawn(env);
        raw.send(
            &json!({"jsonrpc":"2.0","id":"init","method":"initialize","params":{
            "protocolVersion":version,"capabilities":{},
            "clientInfo":{"name":"raw","version":"1"}}}),
        );
        let r = raw.reply("init");
        assert_eq!(r["result"]["protocolVersion"], version, "negotiated: {r}");
        raw.send(&json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        raw
    }

    pub(crate) fn send(&mut self, v: &Value) {
        self.send_line(v.to_string().as_bytes());
    }

    /// Write `bytes` and a newline.
    pub(crate) fn send_line(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Write raw bytes (no newline added).
    pub(crate) fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin
            .as_mut()
            .expect("stdin is open")
            .write_all(bytes)
            .unwrap();
    }

    pub(crate) fn close_stdin(&mut self) {
        drop(self.stdin.take());
    }

    /// The next line, parsed (panics if it is not JSON or none comes within `within`).
    pub(crate) fn next(&mut self, within: Duration) -> Value {
        match self.lines.recv_timeout(within) {
            Ok(line) => {
                let v: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|_| panic!("stdout line is not JSON: {line}"));
                assert_eq!(v["jsonrpc"], "2.0", "{v}");
                self.seen.push(v.clone());
                v
            }
            Err(RecvTimeoutError::Timeout) => panic!("no reply within {within:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed stdout"),
        }
    }

    /// Wait (at most 30 s) for the reply to request `id`; other lines are kept in `seen`.
    pub(crate) fn reply(&mut self, id: impl Into<Value>) -> Value {
        let id = id.into();
        if let Some(v) = self
            .seen
            .iter()
            .find(|v| v["id"] == id && v.get("method").is_none())
        {
            return v.clone();
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self.next(left);
            if v["id"] == id && v.get("method").is_none() {
                return v;
            }
        }
    }

    /// A `tools/call` request.
    pub(crate) fn call(&mut self, id: i64, tool: &str, args: Value) {
        self.send(&json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
            "params":{"name":tool,"arguments":args}}));
    }

    /// Wait (at most `within`) for the process to exit; true if it did.
    pub(crate) fn exited_within(&mut self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if self.child.try_wait().unwrap().is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    /// Peak resident memory of the server so far, in KiB (Linux `VmHWM`).
    pub(crate) fn peak_rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

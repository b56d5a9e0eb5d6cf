//! This session's writer of the activity log (`[agents] activity_log`): its start (the
//! client's declared name and version), each tool call as `call` saw it end (tool, URL without
//! query, result kind or error code, bytes, cached, time), each consent step (`gate`), and its
//! end (when the front end closes, or when the last handle goes). Nothing else: arguments are
//! read for `url`/`urls` only, and the store cleans those again. With
//! `[agents] activity_log = false` nothing is written. Entries are queued to the log's writer
//! thread (`Activity::queue`), so no call waits for the disk; the session's end waits until
//! everything it queued is written. The session's own counters live here too:
//! its `show_to_user` turns and whether it watches the shared pages.

use crate::outcome::without_query;
use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, Implementation, JsonObject};
use serde_json::Value;
use smolweb_client::Client;
use smolweb_store::activity::{ConsentStep, Entry, Event};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, Default)]
struct State {
    started: bool,
    ended: bool,
    client: String,
    shows: VecDeque<Instant>,
    watching: bool,
}

/// This session's writer of the activity log (see the module docs).
pub(crate) struct SessionLog {
    client: Arc<Client>,
    id: String,
    state: Mutex<State>,
}

fn clean_info(info: Option<Implementation>) -> (String, String) {
    match info {
        Some(i) => (i.name, i.version),
        None => (String::new(), String::new()),
    }
}

impl SessionLog {
    pub(crate) fn new(client: Arc<Client>) -> SessionLog {
        let id = smolweb_store::activity::new_session_id().unwrap_or_else(|e| {
            tracing::warn!("no random session id ({e}); using the process id");
            format!("{:08x}", std::process::id())
        });
        SessionLog {
            client,
            id,
            state: Mutex::new(State::default()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The session id the log and the suggestions carry.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// The client's declared name ("an MCP client" when it gave none).
    pub(crate) fn client_name(&self) -> String {
        let s = self.state();
        if s.client.is_empty() {
            "an MCP client".into()
        } else {
            s.client.clone()
        }
    }

    fn write(&self, event: Event) {
        if !self.client.config().agents.activity_log {
            return;
        }
        let entry = Entry::new(&self.id, self.client.now(), event);
        // Queued: the log's writer thread appends it, so the reply never waits for the disk.
        if let Err(e) = self.client.log_activity(&entry) {
            tracing::warn!("cannot record agent activity: {e}");
        }
    }

    /// The session began (idempotent): with the client's declared identity when known.
    pub(crate) fn start(&self, info: Option<Implementation>) {
        let (client, version) = clean_info(info);
        {
            let mut s = self.state();
            if s.started {
                if s.client.is_empty() && !client.is_empty() {
                    s.client = client;
                }
                return;
            }
            s.started = true;
            s.client = client.clone();
        }
        self.write(Event::Start {
            client,
            version,
            pid: std::process::id(),
        });
    }

    /// The session ended (once; nothing when it never started).
    pub(crate) fn end(&self) {
        {
            let mut s = self.state();
            if !s.started || s.ended {
                return;
            }
            s.ended = true;
        }
        self.write(Event::End);
        // The session's last line, and every line before it, are on disk before it is over.
        self.client.flush_activity();
    }

    /// A tool call ended with `response` after `elapsed`.
    pub(crate) fn call(
        &self,
        tool: &str,
        arguments: Option<&JsonObject>,
        response: &Result<CallToolResponse, ErrorData>,
        elapsed: Duration,
    ) {
        let (url, urls) = urls_of(arguments);
        let summary = summarize(response);
        self.write(Event::Call {
            tool: tool.to_string(),
            url,
            urls,
            outcome: summary.outcome,
            error: summary.error,
            bytes: summary.bytes,
            cached: summary.cached,
            ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        });
    }

    /// A `resources/read` ended: what was read (a shared page's URL, or the URI) and, for a
    /// page, its result as its fetch tool gives it (the log sums it up as a call's), or the
    /// JSON-RPC error.
    pub(crate) fn read(
        &self,
        what: &str,
        answer: Result<(&Value, bool), &ErrorData>,
        elapsed: Duration,
    ) {
        let summary = match answer {
            Ok((Value::Null, false)) => Summary::plain("ok", false),
            Ok((value, is_error)) => summarize_value(value, is_error),
            Err(e) => Summary::plain(&format!("jsonrpc {}", e.code.0), true),
        };
        self.write(Event::Call {
            tool: "resources/read".to_string(),
            url: Some(without_query(what)),
            urls: None,
            outcome: summary.outcome,
            error: summary.error,
            bytes: summary.bytes,
            cached: summary.cached,
            ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        });
    }

    /// A consent step of a gated change.
    pub(crate) fn consent(&self, tool: &str, step: ConsentStep, what: &str) {
        self.write(Event::Consent {
            tool: tool.to_string(),
            step,
            what: what.to_string(),
            approval: None,
            by: None,
        });
    }

    /// A gated change waits in the approval queue as `approval` (the person's decision on it
    /// is written under this session by the face where they make it, through the client).
    pub(crate) fn queued(&self, tool: &str, what: &str, approval: &str) {
        self.write(Event::Consent {
            tool: tool.to_string(),
            step: ConsentStep::Queued,
            what: what.to_string(),
            approval: Some(approval.to_string()),
            by: None,
        });
    }

    /// Take a `show_to_user` turn: false when this session used its turns of the last minute.
    pub(crate) fn take_turn(&self, per_minute: u32) -> bool {
        let now = Instant::now();
        let mut s = self.state();
        while s
            .shows
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(60))
        {
            s.shows.pop_front();
        }
        if s.shows.len() >= per_minute as usize {
            return false;
        }
        s.shows.push_back(now);
        true
    }

    /// Claim the watcher of this session's shared pages (only the first caller gets it).
    pub(crate) fn claim_watch(&self) -> bool {
        let mut s = self.state();
        !std::mem::replace(&mut s.watching, true)
    }
}

impl Drop for SessionLog {
    fn drop(&mut self) {
        self.end();
    }
}

/// The URL a call was about (none, one, or the first of a batch and their count).
fn urls_of(arguments: Option<&JsonObject>) -> (Option<String>, Option<u32>) {
    let Some(args) = arguments else {
        return (None, None);
    };
    if let Some(u) = args.get("url").and_then(Value::as_str) {
        return (Some(without_query(u)), None);
    }
    if let Some(list) = args.get("urls").and_then(Value::as_array) {
        let first = list.first().and_then(Value::as_str).map(without_query);
        return (first, Some(u32::try_from(list.len()).unwrap_or(u32::MAX)));
    }
    (None, None)
}

struct Summary {
    outcome: String,
    error: bool,
    bytes: Option<u64>,
    cached: Option<bool>,
}

impl Summary {
    fn plain(outcome: &str, error: bool) -> Summary {
        Summary {
            outcome: outcome.to_string(),
            error,
            bytes: None,
            cached: None,
        }
    }
}

/// What the log says of a call's answer: its kind (or error code), bytes and cached flag.
fn summarize(response: &Result<CallToolResponse, ErrorData>) -> Summary {
    let r = match response {
        Ok(CallToolResponse::Complete(r)) => r,
        Ok(CallToolResponse::InputRequired(_)) => return Summary::plain("input_required", false),
        Ok(CallToolResponse::Task(_)) => return Summary::plain("task", false),
        Ok(_) => return Summary::plain("ok", false),
        Err(e) => return Summary::plain(&format!("jsonrpc {}", e.code.0), true),
    };
    let error = r.is_error == Some(true);
    match r.structured_content.as_ref() {
        Some(v) => summarize_value(v, error),
        None => Summary::plain(if error { "error" } else { "ok" }, error),
    }
}

/// The same of a result's structured value.
fn summarize_value(v: &Value, error: bool) -> Summary {
    // A batch: its list's kinds, counted.
    if let Some(list) = v.get("result").and_then(Value::as_array) {
        let ok = list
            .iter()
            .filter(|x| x.get("kind").and_then(Value::as_str) != Some("error"))
            .count();
        let bytes = list.iter().filter_map(bytes_of).sum::<u64>();
        return Summary {
            outcome: format!("{ok} of {} read", list.len()),
            error,
            bytes: (bytes > 0).then_some(bytes),
            cached: None,
        };
    }
    let code = v
        .get("error")
        .and_then(|e| e.get("code"))
        .and_then(Value::as_str);
    let kind = v.get("kind").and_then(Value::as_str);
    let outcome = match (error, code, kind) {
        (true, Some(c), _) => c.to_string(),
        (_, _, Some(k)) => k.to_string(),
        (false, _, None) => "page".to_string(),
        (true, None, None) => "error".to_string(),
    };
    // `fromCache` is fetch_url's name for it.
    let cached = ["cached", "from_cache", "fromCache"]
        .iter()
        .find_map(|k| v.get(*k))
        .and_then(Value::as_bool);
    Summary {
        outcome,
        error,
        bytes: bytes_of(v),
        cached,
    }
}

fn bytes_of(v: &Value) -> Option<u64> {
    v.get("size")
        .or_else(|| v.get("bytes"))
        .and_then(Value::as_u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::CallToolResult;
    use serde_json::json;

    #[test]
    fn a_call_is_summed_up_by_kind_code_bytes_and_cache() {
        let ok = CallToolResult::structured(json!({"kind": "gemtext", "size": 42, "cached": true}));
        let s = summarize(&Ok(ok.into()));
        assert_eq!(
            (s.outcome.as_str(), s.error, s.bytes, s.cached),
            ("gemtext", false, Some(42), Some(true))
        );
        let err = CallToolResult::structured_error(
            json!({"kind": "error", "error": {"code": "BLOCKED"}}),
        );
        let s = summarize(&Ok(err.into()));
        assert_eq!((s.outcome.as_str(), s.error), ("BLOCKED", true));
        let batch = CallToolResult::structured(
            json!({"result": [{"kind": "menu", "size": 3}, {"kind": "error"}]}),
        );
        let s = summarize(&Ok(batch.into()));
        assert_eq!((s.outcome.as_str(), s.bytes), ("1 of 2 read", Some(3)));
        let args: JsonObject =
            serde_json::from_value(json!({"url": "gemini://h/p?secret", "input": "hunter2"}))
                .unwrap();
        assert_eq!(urls_of(Some(&args)), (Some("gemini://h/p".into()), None));
        let args: JsonObject =
            serde_json::from_value(json!({"urls": ["gopher://a/", "gopher://b/"]})).unwrap();
        assert_eq!(urls_of(Some(&args)), (Some("gopher://a/".into()), Some(2)));
    }
}

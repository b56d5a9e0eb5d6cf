//! How a tool answers: its result kind as `structuredContent` plus compact text blocks, with
//! `isError` set for an error kind ([`StoreAnswer`] for the results of the identity and trust
//! tools); and the `_meta` that tells clients how large a whole answer of the fetch tools may
//! be. Every tool builds its answer here.

use crate::results::ErrorCode;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, MetaObject};
use serde::Serialize;
use serde_json::json;

/// `structuredContent` + the given text blocks.
pub(crate) fn tool_result<T: Serialize>(
    value: &T,
    texts: Vec<String>,
    is_error: bool,
) -> CallToolResult {
    let value = serde_json::to_value(value).unwrap_or_else(|e| {
        json!({"kind": "error", "request_info": {}, "error": {
            "code": ErrorCode::InternalError, "message": e.to_string(), "retryable": false}})
    });
    // Not rmcp's `CallToolResult::structured`: it also renders the whole value as a JSON text
    // block, which these results replace with their own (for a 50,000-char window that
    // rendering was a third of the call's work, thrown away).
    let content = texts.into_iter().map(ContentBlock::text).collect();
    let mut r = if is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    r.structured_content = Some(value);
    r
}

/// The largest tool result (in characters) the fetch tools may return whole: a full window
/// (`mcp.max_rendered_chars`, 50,000 by default) plus its structured twin and metadata.
pub(crate) const MAX_RESULT_SIZE_CHARS: u64 = 200_000;

/// `_meta` of the fetch tools: tells clients that divert large results to a file (key
/// `anthropic/maxResultSizeChars`) to hand a whole window to the model instead.
pub(crate) fn fetch_meta() -> MetaObject {
    let mut meta = JsonObject::new();
    meta.insert(
        "anthropic/maxResultSizeChars".into(),
        MAX_RESULT_SIZE_CHARS.into(),
    );
    MetaObject(meta)
}

/// A store tool's result (identity and trust tools): its text block and error flag.
pub(crate) trait StoreAnswer: Serialize + Sized {
    /// The text block.
    fn text(&self) -> String;
    /// Is it the `error` kind?
    fn is_error(&self) -> bool;
    /// The whole answer.
    fn reply(&self) -> CallToolResult {
        tool_result(self, vec![self.text()], self.is_error())
    }
}

/// `store_answer!(Result, OkVariant, render)`: a result enum of an `OkVariant` rendered by
/// `render` and an `Error(ErrorOut)` rendered as every error is.
macro_rules! store_answer {
    ($ty:ident, $ok:ident, $render:path) => {
        impl $crate::reply::StoreAnswer for $ty {
            fn text(&self) -> String {
                match self {
                    $ty::$ok(x) => $render(x),
                    $ty::Error(e) => $crate::render::store_error(e),
                }
            }
            fn is_error(&self) -> bool {
                matches!(self, $ty::Error(_))
            }
        }
    };
}
pub(crate) use store_answer;

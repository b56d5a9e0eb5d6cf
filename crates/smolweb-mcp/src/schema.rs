//! JSON Schemas for tool inputs and outputs, generated from the serde types and made portable.
//!
//! Invariants: every output schema has top-level `type: object`; a single-fetch or store tool's
//! output is a `oneOf` over its result kinds discriminated by `kind`; a batch tool's output is an
//! object whose `result` array items are that `oneOf` (with `kind: error`, `error` and an empty
//! `result` when the batch's arguments were refused). Integer `format`s (`uint16`, `int64`...)
//! that strict validators reject are removed (unsigned ones keep `minimum: 0`).

use rmcp::model::JsonObject;
use rmcp::schemars::JsonSchema;
use rmcp::schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Drop non-standard numeric formats everywhere in a schema.
fn strip_formats(v: &mut Value) {
    match v {
        Value::Object(map) => {
            let numeric = map.get("format").and_then(Value::as_str).is_some_and(|f| {
                f.starts_with("int") || f.starts_with("uint") || f == "double" || f == "float"
            });
            if numeric {
                map.remove("format");
            }
            map.values_mut().for_each(strip_formats);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_formats),
        _ => {}
    }
}

fn generate<T: JsonSchema>(settings: SchemaSettings) -> Map<String, Value> {
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut value = serde_json::to_value(schema).unwrap_or_else(|_| json!({}));
    strip_formats(&mut value);
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// Input schema of a parameter type (top-level object).
pub(crate) fn input<T: JsonSchema>() -> Arc<JsonObject> {
    let mut map = generate::<T>(SchemaSettings::draft2020_12());
    map.insert("type".into(), json!("object"));
    Arc::new(map)
}

/// Output schema of a result enum: top-level object + `oneOf` by kind.
pub(crate) fn output<T: JsonSchema>() -> Arc<JsonObject> {
    let mut map = generate::<T>(SchemaSettings::draft2020_12().for_serialize());
    map.insert("type".into(), json!("object"));
    Arc::new(map)
}

/// Output schema of a batch tool: `{"result": [one single-fetch result per URL]}`.
pub(crate) fn batch_output<T: JsonSchema>() -> Arc<JsonObject> {
    let mut item = generate::<T>(SchemaSettings::draft2020_12().for_serialize());
    let defs = item.remove("$defs");
    let schema_uri = item.remove("$schema");
    item.remove("title");
    let mut map = Map::new();
    if let Some(s) = schema_uri {
        map.insert("$schema".into(), s);
    }
    map.insert("type".into(), json!("object"));
    map.insert(
        "properties".into(),
        json!({
            "result": {
                "type": "array",
                "description": "One result per URL, in the order given; each is what the single-fetch tool returns.",
                "items": Value::Object(item),
            },
            "kind": {
                "const": "error",
                "description": "Only when the arguments were refused: `error` says why and `result` is empty.",
            },
            "request_info": { "$ref": "#/$defs/RequestInfoOut" },
            "error": { "$ref": "#/$defs/ErrorBody" },
        }),
    );
    map.insert("required".into(), json!(["result"]));
    if let Some(d) = defs {
        map.insert("$defs".into(), d);
    }
    Arc::new(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{GeminiResult, GopherResult};

    fn kinds(schema: &JsonObject) -> Vec<String> {
        let one_of = schema["oneOf"].as_array().expect("oneOf");
        one_of
            .iter()
            .map(|b| {
                b["properties"]["kind"]["const"]
                    .as_str()
                    .or_else(|| b["properties"]["kind"]["enum"][0].as_str())
                    .expect("kind const")
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn gemini_output_is_object_with_one_of_by_kind() {
        let s = output::<GeminiResult>();
        assert_eq!(s["type"], "object");
        assert_eq!(
            kinds(&s),
            [
                "gemtext",
                "success",
                "binary",
                "input",
                "redirect",
                "certificate",
                "error"
            ]
        );
        assert!(!serde_json::to_string(&*s).unwrap().contains("uint"));
    }

    #[test]
    fn batch_output_wraps_items() {
        let s = batch_output::<GopherResult>();
        assert_eq!(s["type"], "object");
        let items = s["properties"]["result"]["items"].as_object().unwrap();
        assert_eq!(kinds(items), ["menu", "text", "binary", "error"]);
        let defs = s["$defs"].as_object().unwrap();
        for def in ["ErrorBody", "RequestInfoOut"] {
            assert!(
                defs.contains_key(def),
                "{def} is there for the refusal's keys"
            );
        }
    }

    #[test]
    fn line_types_are_cores_line_kinds_by_name() {
        use smolweb_core::gemtext::LineKind;
        let kinds = [
            LineKind::Text,
            LineKind::Link,
            LineKind::Heading1,
            LineKind::Heading2,
            LineKind::Heading3,
            LineKind::List,
            LineKind::Quote,
            LineKind::Preformat,
        ];
        let s = output::<GeminiResult>();
        let defs = s["$defs"].as_object().unwrap();
        let line = &defs["LineOut"]["properties"]["type"];
        let name = line["$ref"]
            .as_str()
            .unwrap()
            .trim_start_matches("#/$defs/");
        let published: Vec<&str> = defs[name]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let sent: Vec<String> = kinds
            .iter()
            .map(|k| {
                serde_json::to_value(k)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(published, sent);
        assert!(kinds.iter().zip(&sent).all(|(k, s)| k.as_str() == s));
    }
}

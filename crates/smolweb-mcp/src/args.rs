//! Checks tool arguments against the tool's published input schema, before the tool runs.
//!
//! `mcp::call` runs every `tools/call` through [`check`] with the very schema `tools/list`
//! publishes (generated from the serde parameter types), and answers a [`Mismatch`] per
//! protocol generation. The checker knows the keywords those schemas use: `type` (one or a
//! list), `properties`, `additionalProperties: false`, `required`, `$ref` into `$defs`, `enum`,
//! `minimum`, `maximum`, `items`, `minItems`; an integer must also fit the i64 the parameter
//! types read. `maxItems` is left to the tool on purpose: the contract answers an over-long
//! batch with one `INVALID_REQUEST` element per URL. Unknown properties are ignored, as serde
//! ignores them, unless the schema forbids them (`fetch_url`'s does). Every message names the
//! field and, for a range, the bound.

use rmcp::model::JsonObject;
use serde_json::Value;

/// Why arguments do not match: the field (a path such as `urls[2]`) and a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The field, as a path (`url`, `urls[2]`; empty for the arguments as a whole).
    pub field: String,
    /// What is wrong with it, naming the bound for a range.
    pub message: String,
}

/// Check `args` against `schema` (a tool's input schema).
pub(crate) fn check(schema: &JsonObject, args: &JsonObject) -> Result<(), Mismatch> {
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        for name in required.iter().filter_map(Value::as_str) {
            if !args.contains_key(name) {
                return Err(Mismatch {
                    field: name.to_string(),
                    message: format!("`{name}` is required"),
                });
            }
        }
    }
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(());
    };
    if schema.get("additionalProperties") == Some(&Value::Bool(false))
        && let Some(name) = args.keys().find(|k| !props.contains_key(*k))
    {
        let known: Vec<&str> = props.keys().map(String::as_str).collect();
        return Err(Mismatch {
            field: name.clone(),
            message: format!(
                "`{name}` is not a parameter of this tool (it takes {})",
                known.join(", ")
            ),
        });
    }
    for (name, value) in args {
        if let Some(prop) = props.get(name) {
            check_value(schema, prop, value, name)?;
        }
    }
    Ok(())
}

fn resolve<'a>(root: &'a JsonObject, schema: &'a Value) -> &'a Value {
    let target = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .and_then(|name| root.get("$defs")?.get(name));
    target.unwrap_or(schema)
}

fn type_matches(name: &str, v: &Value) -> bool {
    match name {
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => true,
    }
}

fn mismatch(field: &str, what: String, v: &Value) -> Mismatch {
    Mismatch {
        field: field.to_string(),
        message: format!("`{field}` must be {what} (got {})", shown(v)),
    }
}

/// A short rendering of the offending value (never more than 40 characters of it).
fn shown(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

fn article(t: &str) -> String {
    match t {
        "integer" | "array" | "object" => format!("an {t}"),
        "null" => "null".to_string(),
        _ => format!("a {t}"),
    }
}

fn check_value(root: &JsonObject, schema: &Value, v: &Value, field: &str) -> Result<(), Mismatch> {
    let schema = resolve(root, schema);
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !types.is_empty() && !types.iter().any(|t| type_matches(t, v)) {
        let what: Vec<String> = types.iter().map(|t| article(t)).collect();
        return Err(mismatch(field, what.join(" or "), v));
    }
    // The parameter types read integers as i64: a larger one is out of range, not a panic or
    // a deserialization failure later.
    if types.contains(&"integer") && v.is_u64() && !v.is_i64() {
        return Err(mismatch(field, format!("<= {}", i64::MAX), v));
    }
    if let Some(choices) = schema.get("enum").and_then(Value::as_array)
        && !choices.contains(v)
    {
        let list: Vec<String> = choices.iter().map(Value::to_string).collect();
        return Err(mismatch(field, format!("one of {}", list.join(", ")), v));
    }
    if let Some(n) = v.as_f64() {
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64)
            && n < min
        {
            return Err(mismatch(field, format!(">= {min}"), v));
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64)
            && n > max
        {
            return Err(mismatch(field, format!("<= {max}"), v));
        }
    }
    if let Some(items) = v.as_array() {
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
            && (items.len() as u64) < min
        {
            let what = format!("an array of at least {min} item(s)");
            return Err(mismatch(field, what, v));
        }
        if let Some(item_schema) = schema.get("items") {
            for (i, item) in items.iter().enumerate() {
                check_value(root, item_schema, item, &format!("{field}[{i}]"))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::BatchParams;
    use crate::schema;
    use crate::tools::certs::CertUpdateParams;
    use crate::tools::gemini::GeminiFetchParams;
    use crate::tools::trust::TrustUpdateParams;
    use serde_json::json;

    fn run<T: schemars::JsonSchema>(args: Value) -> Result<(), Mismatch> {
        check(&schema::input::<T>(), args.as_object().unwrap())
    }

    #[test]
    fn field_errors_name_the_field() {
        let cases = [
            (json!({"url": 5}), "url", "`url` must be a string (got 5)"),
            (json!({}), "url", "`url` is required"),
            (
                json!({"url": "gemini://a/", "offset": "x"}),
                "offset",
                "`offset` must be an integer (got \"x\")",
            ),
            (
                json!({"url": "gemini://a/", "offset": -1}),
                "offset",
                "`offset` must be >= 0 (got -1)",
            ),
            (
                json!({"url": "gemini://a/", "offset": 1.5}),
                "offset",
                "`offset` must be an integer (got 1.5)",
            ),
            (
                json!({"url": "gemini://a/", "offset": u64::MAX}),
                "offset",
                "`offset` must be <= 9223372036854775807 (got 18446744073709551615)",
            ),
            (
                json!({"url": "gemini://a/", "refresh": "yes"}),
                "refresh",
                "`refresh` must be a boolean (got \"yes\")",
            ),
            (
                json!({"url": "gemini://a/", "input": 3}),
                "input",
                "`input` must be a string or null (got 3)",
            ),
        ];
        for (args, field, message) in cases {
            let m = run::<GeminiFetchParams>(args.clone()).expect_err("mismatch");
            assert_eq!(
                (m.field.as_str(), m.message.as_str()),
                (field, message),
                "{args}"
            );
        }
        assert!(run::<GeminiFetchParams>(json!({"url": "x", "input": null, "extra": 1})).is_ok());
    }

    #[test]
    fn enums_refs_ranges_and_items() {
        let m = run::<CertUpdateParams>(json!({"action": "burn", "url": "gemini://a/"}))
            .expect_err("enum");
        assert_eq!(m.field, "action");
        assert!(
            m.message.contains("\"create\", \"remove\""),
            "{}",
            m.message
        );
        let m = run::<TrustUpdateParams>(json!({"action": "pin", "host": "a", "port": 70000}))
            .expect_err("max");
        assert_eq!(m.message, "`port` must be <= 65535 (got 70000)");
        let m = run::<BatchParams>(json!({"urls": ["gemini://a/", 7]})).expect_err("items");
        assert_eq!(m.field, "urls[1]");
        assert_eq!(
            run::<BatchParams>(json!({"urls": []}))
                .expect_err("min")
                .field,
            "urls"
        );
        // The batch limit is the tool's: it answers each element.
        let many: Vec<String> = (0..60).map(|i| format!("gemini://a/{i}")).collect();
        assert!(run::<BatchParams>(json!({ "urls": many })).is_ok());
    }

    #[test]
    fn a_schema_that_forbids_unknown_properties_names_them() {
        use crate::tools::web::FetchUrlParams;
        let m = run::<FetchUrlParams>(json!({"url": "https://a/", "maxChars": 5}))
            .expect_err("unknown property");
        assert_eq!(m.field, "maxChars");
        assert!(
            m.message
                .starts_with("`maxChars` is not a parameter of this tool (it takes ")
                && m.message.contains("max_chars"),
            "{}",
            m.message
        );
        let m =
            run::<FetchUrlParams>(json!({"url": "https://a/", "max_chars": 0})).expect_err("range");
        assert_eq!(m.message, "`max_chars` must be >= 1 (got 0)");
    }
}

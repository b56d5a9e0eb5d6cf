#![allow(clippy::unwrap_used, clippy::expect_used)]
use super::*;

#[test]
fn placeholder_until_core_lands() {
    assert_eq!(without_query("gemini://h/p?secret"), "gemini://h/p");
}

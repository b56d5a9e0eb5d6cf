//! The prompts (`prompts/list`, `prompts/get`) through the official Python SDK over stdio, on
//! both protocol generations (tests/python/prompts.py): declared arguments, filled templates
//! that name the tools, and -32602 for a missing required argument.

use crate::mcp_harness::{Env, python};

async fn run(mode: &str) {
    let Some(py) = python::interpreter(&format!("mcp_prompts ({mode})")) else {
        return;
    };
    let stdout = python::run(&py, "prompts.py", Some(mode), &Env::loopback(), &[]).await;
    println!("{stdout}");
    assert!(stdout.contains("python prompts"), "{stdout}");
    assert!(stdout.contains("error -32602"), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_prompts_legacy() {
    run("legacy").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_prompts_auto() {
    run("auto").await;
}

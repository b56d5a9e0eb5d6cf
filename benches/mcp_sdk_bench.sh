#!/bin/sh
# The MCP per-call benchmark (issue 32) through the official Python SDK: builds smolweb and the
# loopback servers in release mode, then runs benches/mcp_sdk_bench.py (needs `pip install mcp`,
# SDK 2.x; PYTHON picks the interpreter). Extra arguments go to the script (--mode auto for
# 2026-07-28, --quick for a smoke run).
set -eu
cd "$(dirname "$0")/.."
cargo build --release -p smolweb --bin smolweb
cargo build --release -p smolweb-testkit --example bench_servers
exec "${PYTHON:-python3}" benches/mcp_sdk_bench.py target/release/smolweb \
    target/release/examples/bench_servers "$@"

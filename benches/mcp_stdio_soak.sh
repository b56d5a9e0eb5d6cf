#!/bin/sh
# `smolweb --mcp` over stdio through 6,000 calls in one session (cache churn, windows, Gopher,
# errors): the server's RSS and file descriptors every 500 calls. Release build. The test is
# tests/it/mcp_stdio_soak.rs.
set -eu
cd "$(dirname "$0")/.."
exec cargo test --release -p smolweb --test it -- --ignored --nocapture --test-threads=1 \
    mcp_stdio_soak::

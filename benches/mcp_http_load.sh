#!/bin/sh
# `smolweb --mcp --http` under many clients: 50 sessions of 200 mixed calls each (Gemini,
# Gopher and web pages from loopback servers, batches, later windows, consent questions left
# unanswered), 20 sessions dropped without closing, 10 clients trickling their headers and 10
# stalling their bodies. Release build. Prints latency p50/p99, peak RSS, RSS, descriptors and
# threads before and after; fails if a reply does not match its request, a dropped session is
# not reaped, a slow client is not cut off, or descriptors or threads grow. The test is
# tests/it/mcp_http_load.rs (a smaller run of it is in `cargo test`).
set -eu
cd "$(dirname "$0")/.."
exec cargo test --release -p smolweb --test it -- --ignored --nocapture --test-threads=1 \
    mcp_http_load::fifty_sessions_of_two_hundred_calls

#!/bin/sh
# Latency of a cached fetch_url window through the real `smolweb --mcp` binary (release
# build, in-process loopback HTTP server). Prints the median.
set -eu
cd "$(dirname "$0")/.."
exec cargo test --release -p smolweb --test it -- --ignored --nocapture --test-threads=1 web_mcp::bench_

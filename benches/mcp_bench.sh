#!/bin/sh
# Latency and size figures of `smolweb --mcp` against in-process loopback servers:
# start to initialized, a cold local fetch, a cached window, a batch of 20 URLs over 4 servers,
# and bytes returned per byte of page. Release build; prints medians. The tests are
# tests/it/mcp_bench.rs, ignored in the normal run.
set -eu
cd "$(dirname "$0")/.."
exec cargo test --release -p smolweb --test it -- --ignored --nocapture --test-threads=1 mcp_bench::

#!/bin/sh
# Peak resident memory of the release `smolweb --mcp` after converting a 5 MB page with
# fetch_url (tests/web_memory.rs, ignored by default). Prints the figure; target: < 50 MiB.
set -eu
cd "$(dirname "$0")/.."
exec cargo test --release --test web_memory -- --ignored --nocapture --test-threads=1

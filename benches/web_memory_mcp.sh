#!/bin/sh
# Peak resident memory of the release `smolweb --mcp` after converting a 5 MB page with
# fetch_url (tests/it/web_memory.rs, ignored by default). Prints the figure; target: < 50 MiB.
# PROFILE=dist measures the packagers' build (fat LTO, one code unit) instead of `release`.
set -eu
cd "$(dirname "$0")/.."
exec cargo test --profile "${PROFILE:-release}" -p smolweb --test it -- --ignored --nocapture --test-threads=1 web_memory::

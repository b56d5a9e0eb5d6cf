#!/bin/sh
# The local index as the faces see it (issue 34): search_local through `smolweb --mcp` over
# stdio, the browser's memory with and without the index, and a visit's first paint with the
# index on and off, on a data directory of the library bench's 10,000 pages of 5 KB. Builds
# smolweb, the loopback servers and that data directory in release mode, then runs
# benches/search_faces.py (PYTHON picks the interpreter; with the `mcp` SDK importable it also
# times the SDK). Needs tmux. Extra arguments go to the script (--rounds N, --visits N).
set -eu
cd "$(dirname "$0")/.."
cargo build --release -p smolweb --bin smolweb
cargo build --release -p smolweb-testkit --example bench_servers
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT INT TERM
SEARCH_BENCH_DATA_DIR="$WORK/data" cargo bench -p smolweb-search --bench index
"${PYTHON:-python3}" benches/search_faces.py target/release/smolweb "$WORK/data" \
    --servers target/release/examples/bench_servers "$@"

#!/bin/sh
# Killed at any moment, nothing half-written: every store's writer killed with SIGKILL at
# random moments, 1,000 times per store on the ordinary disk and 1,000 times on a nearly full
# tmpfs (mounting one needs root; without it the full-disk half prints *** SKIP). Prints one
# table per half: kills, opens OK, partial records, acknowledged writes lost, leftovers.
# The tests are crates/smolweb-testkit/tests/it/crash.rs, which `cargo test` runs with a few
# kills per store. SMOLWEB_CRASH_SEED=<n> replays a run; the counts can be overridden, and
# SMOLWEB_CRASH_STORES=tour,follows (store names, comma-separated) runs only those stores.
set -eu
cd "$(dirname "$0")/.."
export SMOLWEB_CRASH_KILLS="${SMOLWEB_CRASH_KILLS:-1000}"
export SMOLWEB_CRASH_FULL_KILLS="${SMOLWEB_CRASH_FULL_KILLS:-1000}"
# The run takes a while: the writer and the test binary run from copies, so a build meanwhile
# does not replace them under it.
cargo build -q -p smolweb-testkit --bin smolweb-store-writer
# The test binary's artifact (the writer binary is an artifact of the same build: pick the test).
test_bin=$(cargo test -q -p smolweb-testkit --test it --no-run --message-format=json 2>/dev/null |
    grep '"kind":\["test"\]' | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp target/debug/smolweb-store-writer "$test_bin" "$copy/"
export SMOLWEB_CRASH_WRITER="$copy/smolweb-store-writer"
"$copy/$(basename "$test_bin")" --nocapture --test-threads=1 crash::

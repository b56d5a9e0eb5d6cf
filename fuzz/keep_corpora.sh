#!/usr/bin/env bash
# Keep a small corpus per target in the repo (fuzz/corpora/<target>): the inputs of the last
# campaign's corpus (fuzz/corpus/<target>, which is not committed) that add coverage, merged
# by libFuzzer (`-merge=1`) into what is kept, inputs over FUZZ_KEEP_MAX_BYTES (default 8192)
# left out, and the kept set cut to FUZZ_KEEP_MAX_FILES (default 300) of the smallest.
#
#   fuzz/keep_corpora.sh              every target with a corpus
#   fuzz/keep_corpora.sh url gopher   only these
#
# run.sh starts each campaign from the kept corpus as well as the seeds, so a campaign does
# not start over from nothing. Uses the debug build without sanitizer (smoke.sh's, built
# here if missing). Needs the nightly toolchain and cargo-fuzz.
set -euo pipefail
cd "$(dirname "$0")"
FUZZ=$(pwd)
MAX_BYTES=${FUZZ_KEEP_MAX_BYTES:-8192}
MAX_FILES=${FUZZ_KEEP_MAX_FILES:-300}
TRIPLE=$(rustc +nightly -vV | sed -n 's/^host: //p')
BIN="$FUZZ/target/$TRIPLE/debug"
cargo +nightly fuzz build --dev -s none
if [ $# -gt 0 ]; then
    TARGETS=("$@")
else
    mapfile -t TARGETS < <(cargo +nightly fuzz list)
fi
for t in "${TARGETS[@]}"; do
    [ -d "corpus/$t" ] || { echo "$t: no corpus/$t, skipped"; continue; }
    small=$(mktemp -d)
    # Only inputs small enough to keep take part in the merge.
    find "corpus/$t" -type f -size -$((MAX_BYTES + 1))c -exec cp -t "$small" {} +
    mkdir -p "corpora/$t"
    "$BIN/$t" -merge=1 -timeout=20 -rss_limit_mb=2048 "corpora/$t" "$small" \
        >"$small.log" 2>&1 || { echo "$t: merge failed"; tail -20 "$small.log"; exit 1; }
    # Over the cap: keep the smallest (the merge prefers small inputs too).
    find "corpora/$t" -type f -printf '%s %p\n' | sort -n | tail -n +$((MAX_FILES + 1)) |
        cut -d' ' -f2- | xargs -r rm --
    rm -rf "$small" "$small.log"
    echo "$t: $(find "corpora/$t" -type f | wc -l) inputs," \
        "$(find "corpora/$t" -type f -printf '%s\n' | awk '{s+=$1} END {print s+0}') bytes"
done

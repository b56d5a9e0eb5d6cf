#!/usr/bin/env bash
# CI's short fuzzing pass: every target for a few seconds (FUZZ_SMOKE_TIME, default 5) from
# its seeds and its kept corpus (fuzz/corpora), failing on the first crash, timeout or leak.
# The long campaigns are fuzz/run.sh.
#
# The build is a debug one without sanitizer (`cargo fuzz build --dev -s none`): it compiles
# in a fraction of the time of run.sh's optimised AddressSanitizer build, and panics and
# debug assertions (overflow checks included) still fail a run. Needs nightly and cargo-fuzz.
set -euo pipefail
cd "$(dirname "$0")"
FUZZ=$(pwd)
TIME=${FUZZ_SMOKE_TIME:-5}
TRIPLE=$(rustc +nightly -vV | sed -n 's/^host: //p')
BIN="$FUZZ/target/$TRIPLE/debug"
mapfile -t TARGETS < <(cargo +nightly fuzz list)
python3 seeds.py >/dev/null
cargo +nightly fuzz build --dev -s none
failed=()
for t in "${TARGETS[@]}"; do
    work=$(mktemp -d)
    # Wall-clock limits, roomy for an unoptimised build on a busy CI machine: the smoke is
    # there to catch crashes and real hangs; run.sh's optimised campaigns keep tight limits.
    limit=10
    case "$t" in pdf | picture) limit=30 ;; esac
    # The seeds, and the corpus kept in the repo (inputs earlier campaigns found: replayed
    # here, so a fix that regresses on one fails CI).
    kept=()
    [ -d "corpora/$t" ] && kept=("$FUZZ/corpora/$t")
    if "$BIN/$t" "$work" "$FUZZ/seeds/$t" "${kept[@]}" -max_total_time="$TIME" -timeout="$limit" \
        -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$work/" >"$work/log" 2>&1; then
        echo "fuzz smoke: $t ok ($(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$work/log" | tail -1) runs)"
    else
        echo "fuzz smoke: $t FAILED"
        tail -40 "$work/log"
        failed+=("$t")
    fi
    rm -rf "$work"
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz smoke: failed: ${failed[*]}"
    exit 1
fi

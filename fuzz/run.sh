#!/usr/bin/env bash
# Run every fuzz target, one after another, and write a summary table.
#
#   fuzz/run.sh                 every target, 600 s each
#   fuzz/run.sh url gopher      only these
#   FUZZ_TIME=60 fuzz/run.sh    a shorter campaign
#   FUZZ_TIMEOUT=10 fuzz/run.sh a longer per-input limit (a loaded machine)
#   FUZZ_DEV=1 fuzz/run.sh      the debug build without sanitizer (no release build first)
#
# Each target runs with libFuzzer under AddressSanitizer (leaks detected), one job and one
# worker (`-jobs=1 -workers=1`: the machine is shared), a memory limit (FUZZ_RSS_MB, default
# 2048), a per-input time limit (`-timeout`: 1 s, 10 s for the PDF and picture readers, whose
# legitimate work within their limits takes longer) and a bounded input size per target.
# Corpora grow in fuzz/corpus/<target> (seeded from fuzz/seeds/<target>, written by
# fuzz/seeds.py from the tests, and from the small corpus kept in the repo,
# fuzz/corpora/<target>, which fuzz/keep_corpora.sh refreshes after a campaign), findings land in fuzz/artifacts/<target>, logs and the
# summary (fuzz/logs/summary.md) in fuzz/logs. Needs the nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`). Not run in CI.
set -u
cd "$(dirname "$0")"
FUZZ=$(pwd)
TIME=${FUZZ_TIME:-600}
RSS=${FUZZ_RSS_MB:-2048}
TRIPLE=$(rustc +nightly -vV | sed -n 's/^host: //p')
# FUZZ_DEV=1: the debug build without sanitizer that smoke.sh makes (no long release build
# with AddressSanitizer first; slower per input, and memory errors in unsafe code go unseen).
if [ -n "${FUZZ_DEV:-}" ]; then
    BUILD=(--dev -s none)
    BIN="$FUZZ/target/$TRIPLE/debug"
else
    BUILD=()
    BIN="$FUZZ/target/$TRIPLE/release"
fi

# Longest input each target is given (bytes); the web conversion is bounded at 200 kB.
max_len() {
    case "$1" in
        html | feed) echo 200000 ;;
        gemini_header | url | cert) echo 4096 ;;
        window | charset | mcp_args) echo 16384 ;;
        search_query) echo 8192 ;;
        *) echo 65536 ;;
    esac
}

# Longest time one input may take (seconds). libFuzzer measures it on the wall clock, so on a
# loaded machine a slow input is reported as a hang: FUZZ_TIMEOUT raises it for every target.
time_limit() {
    if [ -n "${FUZZ_TIMEOUT:-}" ]; then
        echo "$FUZZ_TIMEOUT"
        return
    fi
    case "$1" in
        pdf | picture) echo 10 ;;
        *) echo 1 ;;
    esac
}

if [ $# -gt 0 ]; then
    TARGETS=("$@")
else
    mapfile -t TARGETS < <(cargo +nightly fuzz list)
fi

[ -d seeds ] || python3 seeds.py
cargo +nightly fuzz build "${BUILD[@]}" || exit 1
mkdir -p logs

# The summary: one row per target (the last run of each, kept in logs/<target>/row.md, so
# running a few targets again updates only their rows), then whatever follows the table in
# the old summary (the hand-written "Findings and fixes" section) is kept as it was.
SUMMARY=logs/summary.md

for t in "${TARGETS[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t" "logs/$t"
    dict=()
    [ -f "dicts/$t.dict" ] && dict=("-dict=$FUZZ/dicts/$t.dict")
    kept=()
    [ -d "corpora/$t" ] && kept=("$FUZZ/corpora/$t")
    echo "== $t: ${TIME}s (max_len $(max_len "$t"))"
    # -jobs=1 runs the fuzzer in one worker process whose output is logs/$t/fuzz-0.log.
    start=$SECONDS
    touch "logs/$t/started"
    (cd "logs/$t" && ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 "$BIN/$t" \
        "$FUZZ/corpus/$t" "$FUZZ/seeds/$t" "${kept[@]}" \
        -max_total_time="$TIME" -rss_limit_mb="$RSS" -timeout="$(time_limit "$t")" \
        -jobs=1 -workers=1 -max_len="$(max_len "$t")" -print_final_stats=1 \
        -artifact_prefix="$FUZZ/artifacts/$t/" "${dict[@]}" >/dev/null 2>&1)
    log="logs/$t/fuzz-0.log"
    stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
    # Findings of this run only (older ones stay in artifacts/ until removed by hand).
    count() { find "artifacts/$t" -name "$1-*" -newer "logs/$t/started" | wc -l; }
    runs=$(stat number_of_executed_units)
    eps=$(stat average_exec_per_sec)
    new=$(stat new_units_added)
    rss=$(stat peak_rss_mb)
    corpus=$(find "corpus/$t" -type f | wc -l)
    echo "| $t | $((SECONDS - start)) | ${runs:-?} | ${eps:-?} | $corpus | ${new:-?} | ${rss:-?} | $(count crash) | $(count timeout) | $(count oom) | $(count leak) |" >"logs/$t/row.md"
    cat "logs/$t/row.md"
done

tail=$( [ -f "$SUMMARY" ] && sed -n '/^## /,$p' "$SUMMARY")
{
    echo "# Fuzzing summary (fuzz/run.sh; crash/timeout/oom/leak count the files in fuzz/artifacts)"
    echo
    echo "| target | seconds | runs | exec/s | corpus | new units | peak RSS MB | crash | timeout | oom | leak |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for t in $(cargo +nightly fuzz list); do
        [ -f "logs/$t/row.md" ] && cat "logs/$t/row.md"
    done
    [ -n "$tail" ] && printf '\n%s\n' "$tail"
} >"$SUMMARY.new" && mv "$SUMMARY.new" "$SUMMARY"
echo
cat "$SUMMARY"

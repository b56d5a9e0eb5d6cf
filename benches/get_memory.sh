#!/bin/sh
# Peak RSS of `smolweb get` on three large inputs (issue 8 item 17): a 20 MB gemtext page of
# 1,000,000 links, a 1,000,000-item Gopher menu, and 4 MB of preformatted toggles. Files are
# served from loopback by socat (Gemini over TLS with a throwaway certificate, Gopher over
# TCP); output goes to /dev/null. Prints, per input, the body size, the peak RSS measured by
# /usr/bin/time -v, and the target (3x the body plus 20 MiB).
#
# Usage: benches/get_memory.sh [path/to/smolweb]   (default: target/release/smolweb, built
# if missing). Needs socat, openssl and GNU time.
set -eu
cd "$(dirname "$0")/.."
BIN=${1:-target/release/smolweb}
if [ ! -x "$BIN" ]; then cargo build --release --bin smolweb >/dev/null; fi
WORK=$(mktemp -d)
PIDS=""
cleanup() { for p in $PIDS; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT INT TERM

# Inputs.
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "=> /p/%06d link %06d\n", i, i }' \
    >"$WORK/links.gmi"
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "0item %06d\t/s/%06d\t127.0.0.1\t70\r\n", i, i }' \
    >"$WORK/menu.txt"
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "```\n" }' >"$WORK/pre.gmi"
for f in links pre; do
    printf '20 text/gemini\r\n' >"$WORK/$f.resp"
    cat "$WORK/$f.gmi" >>"$WORK/$f.resp"
done

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj /CN=127.0.0.1 -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
serve_tls() { # port file
    socat "OPENSSL-LISTEN:$1,bind=127.0.0.1,reuseaddr,fork,cert=$WORK/cert.pem,key=$WORK/key.pem,verify=0" \
        "SYSTEM:cat $2" 2>/dev/null &
    PIDS="$PIDS $!"
}
serve_tcp() { # port file
    socat "TCP-LISTEN:$1,bind=127.0.0.1,reuseaddr,fork" "SYSTEM:cat $2" 2>/dev/null &
    PIDS="$PIDS $!"
}
P1=$(free_port); serve_tls "$P1" "$WORK/links.resp"
P2=$(free_port); serve_tls "$P2" "$WORK/pre.resp"
P3=$(free_port); serve_tcp "$P3" "$WORK/menu.txt"
sleep 0.5

measure() { # name url body-file
    bytes=$(wc -c <"$3")
    rm -rf "$WORK/data"
    /usr/bin/time -v "$BIN" --data-dir "$WORK/data" get "$2" >/dev/null 2>"$WORK/time.txt" || {
        echo "$1: smolweb get failed:"; cat "$WORK/time.txt"; return 1; }
    kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/time.txt")
    awk -v n="$1" -v b="$bytes" -v k="$kib" 'BEGIN {
        mib = k / 1024; target = 3 * b / 1048576 + 20
        printf "%-22s body %6.1f MiB  peak RSS %7.1f MiB  target <= %6.1f MiB  %s\n",
            n, b / 1048576, mib, target, (mib <= target ? "ok" : "OVER") }'
}
measure "1M links (gemtext)" "gemini://127.0.0.1:$P1/" "$WORK/links.gmi"
measure "1M-item menu (gopher)" "gopher://127.0.0.1:$P3/1/" "$WORK/menu.txt"
measure "1M pre toggles" "gemini://127.0.0.1:$P2/" "$WORK/pre.gmi"

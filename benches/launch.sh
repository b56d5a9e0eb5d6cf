#!/bin/sh
# Time to the browser's first paint in tmux (issue 33 item 1): a 120x40 tmux window, a fresh
# profile (a new data directory in a temporary folder for every launch, so no config, history
# or session is read), the median of 5 launches. The terminal's own floor is measured in the
# same run and the same way: a trivial program (the shell's printf) that paints once.
#
# A launch is timed from the `tmux new-window` that starts it to the first capture of the
# window (`tmux capture-pane`, polled) that shows anything but blanks. The poll costs a few
# milliseconds a round; the floor pays it too, so compare each line with the floor.
#
# Rows: the floor; the browser as configured by default (`[tui] images = "auto"`, `theme =
# "auto"`: it asks the terminal what it draws and its background colour); and with
# SMOLWEB_IMAGES=off (no graphics question, the background one only).
#
# Usage: benches/launch.sh [path/to/smolweb]   (default: target/release/smolweb, built if
# missing). Needs tmux and python3 (for a clock in milliseconds).
set -eu
cd "$(dirname "$0")/.."
BIN=${1:-target/release/smolweb}
if [ ! -x "$BIN" ]; then cargo build --release --bin smolweb >/dev/null; fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
RUNS=${RUNS:-5}
WORK=$(mktemp -d)
SOCK="smolweb-launch-$$"
cleanup() { tmux -L "$SOCK" kill-server 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT INT TERM

tmux -L "$SOCK" -f /dev/null new-session -d -s bench -x 120 -y 40 'sleep 3600'

# Milliseconds from starting `command` in a new window to its first painted screen.
launch_ms() { # command
    python3 - "$SOCK" "$1" <<'EOF'
import subprocess, sys, time
sock, command = sys.argv[1], sys.argv[2]
tmux = ["tmux", "-L", sock]
start = time.monotonic()
pane = subprocess.run(tmux + ["new-window", "-d", "-P", "-F", "#{pane_id}", command],
                      capture_output=True, text=True, check=True).stdout.strip()
while True:
    shown = subprocess.run(tmux + ["capture-pane", "-p", "-t", pane],
                           capture_output=True, text=True).stdout
    if shown.strip():
        break
    if time.monotonic() - start > 10:
        print("timeout", file=sys.stderr)
        break
took = (time.monotonic() - start) * 1000
subprocess.run(tmux + ["kill-pane", "-t", pane], capture_output=True)
print(f"{took:.1f}")
EOF
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

row() { # label command
    : >"$WORK/times"
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        i=$((i + 1))
        # A fresh profile for every launch: @ENV@ becomes its environment.
        d=$(mktemp -d "$WORK/profile.XXXXXX")
        env="SMOLWEB_HOME=$d HOME=$d XDG_CONFIG_HOME=$d XDG_DATA_HOME=$d XDG_CACHE_HOME=$d"
        launch_ms "$(printf '%s' "$2" | sed "s|@ENV@|$env|")" >>"$WORK/times"
        sleep 0.3
    done
    printf '%-34s median %7.1f ms   (runs: %s)\n' "$1" "$(median <"$WORK/times")" \
        "$(tr '\n' ' ' <"$WORK/times")"
}

echo "tmux $(tmux -V | cut -d' ' -f2), 120x40, median of $RUNS launches, $BIN"
row "floor (printf, paints once)" 'printf "\033[?1049h\033[Hfloor"; sleep 30'
row "smolweb (images auto)" "env -u SMOLWEB_IMAGES @ENV@ $BIN"
row "smolweb (SMOLWEB_IMAGES=off)" "env SMOLWEB_IMAGES=off @ENV@ $BIN"

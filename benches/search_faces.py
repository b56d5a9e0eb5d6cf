"""The local index as the faces see it (issue 34's targets that the library bench cannot
measure), on a data directory holding the 10,000 pages of 5 KB of the library bench
(`SEARCH_BENCH_DATA_DIR=DIR cargo bench -p smolweb-search --bench index` makes it; every page
is an agent's fetch, so an agent's default scope sees all of them: the slowest case).

Usage: search_faces.py SMOLWEB DATA_DIR [--rounds N]
(benches/search_faces.sh builds everything in release mode and runs this.)

1. `search_local` through `smolweb --mcp` over stdio: the median and p95 of a call's round
   trip over a bare JSON-RPC pipe (one line written, one read), the bench's 11 queries, N
   rounds each, after one warm-up round; `ping` through the same pipe is the floor. With the
   official Python SDK importable, the same through the SDK (which also checks each result
   against the tool's outputSchema).
2. The browser's memory: RSS (VmRSS and the peak VmHWM from /proc) of `smolweb` in tmux
   (120x40) after it opened about:search with a query over the 10,000 pages, against the
   same walk with `[search] index = false` (the page then says the index is off).
3. A visit's first paint with the index on and off: a loopback Gemini server (the testkit's
   bench_servers), the browser in tmux opening `/page/N` from the address bar, timed from the
   Enter to the first screen that shows the page's text, median of N visits. Each visit with
   the index on queues the page and commits it into the 10,000-page index in the background.

Prints tables; asserts nothing about speed.
"""

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SYL = ["ka", "mo", "ri", "ta", "ne", "so", "lu", "vi", "de", "ga", "po", "mi", "ser", "tan",
       "bel", "cor", "dun", "fal", "gor", "hin", "jas", "kel", "lor", "mus"]


def word(i):
    """The library bench's synthetic word of rank i (crates/smolweb-search/benches/index.rs)."""
    n, w = i + 1, ""
    while n > 0:
        w += SYL[n % len(SYL)]
        n //= len(SYL)
    return w


QUERIES = [
    word(0), word(5), word(100), word(2000), word(20000),
    f"{word(3)} {word(50)}", f"{word(40)} {word(900)}", f'"{word(0)} {word(1)}"',
    f"{word(30)[:3]}*", f"{word(10)} -{word(11)}", f"{word(8)} site:capsule7.test",
]

CONFIG = """\
[network]
allow_private_addresses = true
timeout_seconds = 10
[politeness]
per_host_interval_ms = 0
"""


def ms(s):
    return s * 1000.0


def summary(samples):
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, len(samples) * 95 // 100)]
    return f"median {ms(statistics.median(samples)):.2f} ms, p95 {ms(p95):.2f} ms"


class Pipe:
    """A bare JSON-RPC session with `smolweb --mcp` over stdio."""

    def __init__(self, exe, data, config):
        self.args = [exe, "--mcp", "--data-dir", data, "--config", config]
        self.id = 0

    async def start(self):
        self.p = await asyncio.create_subprocess_exec(
            *self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, limit=64 * 1024 * 1024)
        await self.request("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "search-faces-bench", "version": "1"}})
        self.p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        await self.p.stdin.drain()

    async def request(self, method, params=None):
        self.id += 1
        msg = {"jsonrpc": "2.0", "id": self.id, "method": method}
        if params is not None:
            msg["params"] = params
        self.p.stdin.write((json.dumps(msg) + "\n").encode())
        await self.p.stdin.drain()
        while True:
            line = await self.p.stdout.readline()
            if not line:
                raise RuntimeError("smolweb --mcp closed its output")
            reply = json.loads(line)
            if reply.get("id") == self.id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    async def stop(self):
        self.p.stdin.close()
        await self.p.wait()


async def pipe_times(exe, data, config, rounds):
    pipe = Pipe(exe, data, config)
    await pipe.start()
    found = {}
    for q in QUERIES:  # warm-up: opens the index, runs each query once
        r = await pipe.request("tools/call", {"name": "search_local",
                                              "arguments": {"query": q, "limit": 10}})
        if r.get("isError"):
            raise RuntimeError(f"search_local {q!r}: {r}")
        found[q] = r["structuredContent"]["total"]
    calls, floor = [], []
    for _ in range(rounds):
        for q in QUERIES:
            t = time.perf_counter()
            await pipe.request("tools/call", {"name": "search_local",
                                              "arguments": {"query": q, "limit": 10}})
            calls.append(time.perf_counter() - t)
            t = time.perf_counter()
            await pipe.request("ping")
            floor.append(time.perf_counter() - t)
    await pipe.stop()
    return calls, floor, found


async def sdk_times(exe, data, config, rounds):
    try:
        from mcp import Client
        from mcp.client.stdio import StdioServerParameters
    except ImportError:
        return None
    params = StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data, "--config", config])
    calls = []
    async with Client(params) as client:
        for q in QUERIES:
            await client.call_tool("search_local", {"query": q, "limit": 10})
        for _ in range(rounds):
            for q in QUERIES:
                t = time.perf_counter()
                r = await client.call_tool("search_local", {"query": q, "limit": 10})
                calls.append(time.perf_counter() - t)
                if r.is_error:
                    raise RuntimeError(f"search_local {q!r}: {r}")
    return calls


class Tmux:
    def __init__(self, name):
        self.sock = f"smolweb-search-faces-{os.getpid()}-{name}"
        self.tmux = ["tmux", "-L", self.sock, "-f", "/dev/null"]

    def start(self, command):
        subprocess.run(self.tmux + ["new-session", "-d", "-s", "b", "-x", "120", "-y", "40",
                                    command], check=True)

    def keys(self, *keys):
        for k in keys:
            subprocess.run(self.tmux + ["send-keys", "-t", "b", k], check=True)
            time.sleep(0.05)

    def type(self, text):
        subprocess.run(self.tmux + ["send-keys", "-t", "b", "-l", text], check=True)

    def screen(self):
        return subprocess.run(self.tmux + ["capture-pane", "-p", "-t", "b"],
                              capture_output=True, text=True).stdout

    def wait_for(self, text, timeout=30.0, poll=0.002, shown=None):
        deadline = time.monotonic() + timeout
        while True:
            s = self.screen()
            if (shown(s) if shown else text in s):
                return s
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {text!r}:\n{s}")
            time.sleep(poll)

    def pid(self):
        out = subprocess.run(self.tmux + ["list-panes", "-t", "b", "-F", "#{pane_pid}"],
                             capture_output=True, text=True, check=True).stdout.strip()
        return int(out)

    def stop(self):
        subprocess.run(self.tmux + ["kill-server"], stderr=subprocess.DEVNULL)


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def browser(exe, data, config, start):
    """A browser in tmux (exec'd: the pane's process is smolweb itself)."""
    t = Tmux(os.path.basename(config))
    t.start(f"exec {exe} --data-dir {data} --config {config} {start}")
    return t


def memory(exe, data, config, index_on):
    t = browser(exe, data, config, f"about:search?{word(5)}")
    try:
        t.wait_for("Search:" if index_on else "switched off", timeout=60)
        if index_on:
            t.wait_for("found", timeout=60)
        time.sleep(1.0)
        # A second query, the way a person narrows a search.
        t.keys(":", "C-u")
        t.type(f"about:search?{word(3)} {word(50)}")
        t.keys("Enter")
        t.wait_for(f"Search: {word(3)}", timeout=60)
        time.sleep(1.0)
        pid = t.pid()
        return status_kb(pid, "VmRSS"), status_kb(pid, "VmHWM")
    finally:
        t.stop()


def first_paints(exe, data, config, base, visits, tag):
    t = browser(exe, data, config, "about:blank")
    times = []
    try:
        time.sleep(1.0)
        for i in range(visits + 1):
            url = f"{base}/page/{tag}-{i}"
            t.keys(":", "C-u")
            t.type(url)
            time.sleep(0.1)
            start = time.perf_counter()
            t.keys("Enter")
            # The page's heading is its path; the address (in the prompt, the status line)
            # holds the host, so a line with the path and no host is the page painted.
            path = f"/page/{tag}-{i}"
            t.wait_for(path, timeout=30, shown=lambda s: any(
                path in line and "127.0.0.1" not in line for line in s.splitlines()))
            if i > 0:  # the first visit opens the stores and the connection: not counted
                times.append(time.perf_counter() - start)
            time.sleep(0.3)
    finally:
        t.stop()
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("smolweb")
    ap.add_argument("data")
    ap.add_argument("--servers", help="the testkit's bench_servers (for the first-paint case)")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--visits", type=int, default=15)
    a = ap.parse_args()
    exe = os.path.abspath(a.smolweb)
    work = tempfile.mkdtemp()
    try:
        on = os.path.join(work, "on.toml")
        off = os.path.join(work, "off.toml")
        with open(on, "w") as f:
            f.write(CONFIG)
        with open(off, "w") as f:
            f.write(CONFIG + "[search]\nindex = false\n")
        calls, floor, found = asyncio.run(pipe_times(exe, a.data, on, a.rounds))
        print("| measure | value | target |")
        print("|---|---|---|")
        print(f"| search_local over a bare stdio pipe ({len(calls)} calls; "
              f"{sum(found.values())} pages found by the 11 queries) | {summary(calls)} "
              f"| median < 15 ms |")
        print(f"| ping over the same pipe (the floor) | {summary(floor)} | |")
        sdk = asyncio.run(sdk_times(exe, a.data, on, a.rounds))
        if sdk is None:
            print("| search_local through the Python SDK | (mcp not importable: skipped) | |")
        else:
            print(f"| search_local through the Python SDK (checks the outputSchema) "
                  f"| {summary(sdk)} | |")
        # The browser reads (and may commit into) the index: a copy per run keeps the
        # measured data directory as the bench made it.
        for label, config, index_on in [("index on", on, True), ("index off", off, False)]:
            data = os.path.join(work, "data-" + label.replace(" ", "-"))
            shutil.copytree(a.data, data)
            rss, hwm = memory(exe, data, config, index_on)
            print(f"| browser RSS after two about:search queries, {label} | "
                  f"{rss / 1024:.1f} MiB (peak {hwm / 1024:.1f} MiB) | index < 20 MiB |")
        if a.servers:
            srv = subprocess.Popen([a.servers], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   text=True)
            try:
                base = json.loads(srv.stdout.readline())["gemini"].rstrip("/")
                for label, config in [("index on", on), ("index off", off)]:
                    data = os.path.join(work, "paint-" + label.replace(" ", "-"))
                    shutil.copytree(a.data, data)
                    times = first_paints(exe, data, config, base, a.visits,
                                         label.replace(" ", ""))
                    print(f"| a visit's first paint (Enter to the page's text on screen), "
                          f"{label}, {len(times)} visits | {summary(times)} | not delayed |")
            finally:
                srv.stdin.close()
                srv.wait()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

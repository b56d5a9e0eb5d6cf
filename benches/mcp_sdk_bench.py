"""Per-call cost of `smolweb --mcp` as an agent sees it, through the official Python MCP SDK.

Usage: mcp_sdk_bench.py SMOLWEB BENCH_SERVERS [--mode legacy|auto] [--quick]
(benches/mcp_sdk_bench.sh builds both in release mode and runs this.)

The cases of issue 32, against the loopback servers of `bench_servers` (the testkit's Gemini
and Gopher servers in a process of their own), each reported as the median time of a call and
as that median minus the floor: the cheapest request through the same session (`ping` on
2025-11-25; on 2026-07-28, which has no ping, `prompts/list` with the SDK's response cache
bypassed). The difference is the time the call spends above what the SDK and the pipe cost.

The SDK checks each result against the tool's output schema; that time is clocked apart (a
client-side cost that grows with the result and the shape of its schema). The same cases are
then timed over a bare JSON-RPC pipe (no SDK: one line written, one read) with `ping` as its
floor: that column is the server's own time, without the SDK's parsing and checking.

Prints a table; asserts nothing about speed.
"""

import argparse
import asyncio
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

from mcp import Client
from mcp.client.stdio import StdioServerParameters

CONFIG = """\
[network]
allow_private_addresses = true
timeout_seconds = 10
max_response_bytes = 8388608
[politeness]
per_host_interval_ms = 0
"""


def ms(seconds):
    return seconds * 1000.0


def median_ms(samples):
    return ms(statistics.median(samples))


def child_pid(name):
    """The pid of our child process called `name` (the SDK spawns the server)."""
    me = os.getpid()
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        if ppid == me and comm == name:
            return int(entry.name)
    return None


def peak_rss_mb(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024.0
    return float("nan")


class Cases:
    """Timed cases over one way of calling (the SDK or the bare pipe): `call(name, args)` and
    `floor()` are awaited; each case returns a list of seconds."""

    def __init__(self, call, floor, base, rounds):
        self.call, self.floor, self.base, self.rounds = call, floor, base, rounds
        # The SDK's time checking results against output schemas (seconds, summed); the
        # bare pipe checks nothing.
        self.checking = [0.0]
        self.steps = 0

    async def timed(self, fn, n):
        out = []
        for _ in range(n):
            t = time.perf_counter()
            await fn()
            out.append(time.perf_counter() - t)
        return out

    async def warm(self):
        g, h = self.base["gemini"], self.base["gopher"]
        # robots.txt answers, TLS session, the cached pages.
        await self.call("gemini_fetch", {"url": g + "/page/warm"})
        await self.call("gopher_fetch", {"url": h + "/0/warm"})
        await self.call("gemini_fetch", {"url": g + "/small"})
        await self.call("gopher_fetch", {"url": h + "/1/small"})
        await self.call("gopher_fetch", {"url": h + "/1/big"})
        await self.call("gemini_fetch", {"url": g + "/big"})

    async def case(self, r, key, samples):
        """Record a case's samples, and the SDK's mean schema-check time per call in it."""
        before = self.checking[0]
        r[key] = await samples
        r[key + ":check"] = (self.checking[0] - before) / len(r[key])

    async def walk(self, g):
        """Each next window of the 2 MiB page, from the cache, over whole walks."""
        steps = []
        for _ in range(max(2, self.rounds // 100)):
            offset = (await self.call("gemini_fetch", {"url": g + "/big"}))["next_offset"]
            self.steps = 0
            while offset is not None:
                t = time.perf_counter()
                sc = await self.call("gemini_fetch", {"url": g + "/big", "offset": offset})
                steps.append(time.perf_counter() - t)
                offset = sc["next_offset"]
                self.steps += 1
        return steps

    async def menu(self, h):
        out = []
        for _ in range(max(5, self.rounds // 20)):
            for offset in range(0, 5053, 1000):
                t = time.perf_counter()
                sc = await self.call("gopher_fetch", {"url": h + "/1/big", "offset": offset})
                out.append(time.perf_counter() - t)
                assert sc["cached"], sc
        return out

    async def batches(self, g):
        out = []
        for k in range(max(5, self.rounds // 20)):
            urls = [f"{g}/page/batch/{self.label}/{k}/{i}" for i in range(10)]
            t = time.perf_counter()
            sc = await self.call("gemini_batch_fetch", {"urls": urls})
            out.append(time.perf_counter() - t)
            assert len(sc["result"]) == 10 and all(e["kind"] == "gemtext" for e in sc["result"])
        return out

    async def run(self):
        g, h, n = self.base["gemini"], self.base["gopher"], self.rounds
        await self.warm()
        r = {}
        call = self.call
        await self.case(r, "floor", self.timed(self.floor, n))
        await self.case(r, "local", self.timed(lambda: call("gemini_client_cert_list", {}), n))
        await self.case(
            r, "cached_gemini", self.timed(lambda: call("gemini_fetch", {"url": g + "/small"}), n)
        )
        await self.case(
            r, "cached_gopher", self.timed(lambda: call("gopher_fetch", {"url": h + "/1/small"}), n)
        )
        await self.case(
            r,
            "big_first",
            self.timed(
                lambda: call("gemini_fetch", {"url": g + "/big", "refresh": True}),
                max(5, n // 20),
            ),
        )
        await self.case(r, "big_next", self.walk(g))
        await self.case(r, "menu", self.menu(h))
        await self.case(r, "batch", self.batches(g))
        return r


def sdk_params(exe, env):
    return StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", env["data"], "--config", env["config"]]
    )


async def sdk_cases(exe, env, base, mode, rounds):
    async with Client(sdk_params(exe, env), mode=mode, cache=None) as client:
        version = client.protocol_version
        # The SDK checks every structuredContent against the tool's output schema: a cost on
        # the client's side that grows with the result and its schema. Clock it apart.
        session, checking = client.session, [0.0]
        validate = session.validate_tool_result

        async def timed_validate(name, result):
            t = time.perf_counter()
            try:
                return await validate(name, result)
            finally:
                checking[0] += time.perf_counter() - t

        session.validate_tool_result = timed_validate

        async def call(name, args):
            r = await client.call_tool(name, args)
            if r.is_error:
                raise AssertionError(f"{name} {args}: {r.structured_content}")
            return r.structured_content

        if version >= "2026-07-28":
            floor_name = "prompts/list"

            async def floor():
                await client.list_prompts(cache_mode="bypass")
        else:
            floor_name = "ping"

            async def floor():
                await client.session.send_ping()

        cases = Cases(call, floor, base, rounds)
        cases.label = "sdk-" + mode
        cases.checking = checking
        results = await cases.run()
        return version, floor_name, results, cases.steps


async def sdk_spawn(exe, env, mode, n):
    out = []
    for _ in range(n):
        t = time.perf_counter()
        async with Client(sdk_params(exe, env), mode=mode, cache=None):
            out.append(time.perf_counter() - t)
    return out


async def sdk_peak_rss(exe, env, base, mode):
    """A fresh server walks the whole 2 MiB page; its peak resident set afterwards."""
    async with Client(sdk_params(exe, env), mode=mode, cache=None) as client:
        url = base["gemini"] + "/big"
        offset = 0
        while offset is not None:
            r = await client.call_tool("gemini_fetch", {"url": url, "offset": offset})
            offset = r.structured_content["next_offset"]
        pid = child_pid("smolweb")
        return peak_rss_mb(pid) if pid else float("nan")


class Pipe:
    """JSON-RPC over the server's stdin/stdout, one request at a time, no SDK."""

    def __init__(self, exe, env):
        self.exe, self.env, self.next_id = exe, env, 0

    async def start(self):
        self.proc = await asyncio.create_subprocess_exec(
            self.exe, "--mcp", "--data-dir", self.env["data"], "--config", self.env["config"],
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=64 * 1024 * 1024,
        )
        await self.request("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "mcp_sdk_bench-pipe", "version": "1"},
        })
        await self.notify("notifications/initialized")

    async def notify(self, method):
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "method": method}) + "\n").encode())
        await self.proc.stdin.drain()

    async def request(self, method, params=None):
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        await self.proc.stdin.drain()
        while True:
            reply = json.loads(await self.proc.stdout.readline())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise AssertionError(f"{method}: {reply['error']}")
                return reply["result"]

    async def call(self, name, args):
        r = await self.request("tools/call", {"name": name, "arguments": args})
        if r.get("isError"):
            raise AssertionError(f"{name} {args}: {r.get('structuredContent')}")
        return r["structuredContent"]

    async def stop(self):
        self.proc.stdin.close()
        await self.proc.wait()


async def pipe_cases(exe, env, base, rounds):
    pipe = Pipe(exe, env)
    await pipe.start()
    cases = Cases(pipe.call, lambda: pipe.request("ping"), base, rounds)
    cases.label = "pipe"
    results = await cases.run()
    await pipe.stop()
    return results


async def pipe_spawn(exe, env, n):
    out = []
    for _ in range(n):
        t = time.perf_counter()
        pipe = Pipe(exe, env)
        await pipe.start()
        out.append(time.perf_counter() - t)
        await pipe.stop()
    return out


ROWS = [
    ("floor", "floor: {floor}"),
    ("local", "local-only call (gemini_client_cert_list)"),
    ("cached_gemini", "cached re-read, Gemini (2 KB page)"),
    ("cached_gopher", "cached re-read, Gopher (20-item menu)"),
    ("big_first", "2 MiB page, first window (downloaded again)"),
    ("big_next", "2 MiB page, each next window ({steps} steps)"),
    ("menu", "5,053-item Gopher menu, a window from cache"),
    ("batch", "batch of 10 Gemini pages (not cached)"),
    ("spawn", "spawn + {handshake}"),
]


def table(sdk, pipe, floor_name, steps, version, rss):
    handshake = "server/discover" if version >= "2026-07-28" else "initialize"
    sdk_floor, pipe_floor = median_ms(sdk["floor"]), median_ms(pipe["floor"])
    lines = [
        f"smolweb --mcp through the Python SDK (protocol {version}) and over a bare pipe; "
        "medians in ms (the SDK's schema check: mean ms per call)",
        "",
        "| case | SDK | SDK above its floor | of which the SDK's schema check "
        "| pipe | pipe above its floor (ping) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for key, label in ROWS:
        label = label.format(floor=floor_name, steps=steps, handshake=handshake)
        s, p = median_ms(sdk[key]), median_ms(pipe[key])
        check = ms(sdk.get(key + ":check", 0.0))
        if key == "floor":
            lines.append(f"| {label} (pipe: ping) | {s:.3f} | | | {p:.3f} | |")
        elif key == "spawn":
            lines.append(f"| {label} | {s:.2f} | | | {p:.2f} | |")
        else:
            lines.append(
                f"| {label} | {s:.3f} | {s - sdk_floor:.3f} | {check:.3f} "
                f"| {p:.3f} | {p - pipe_floor:.3f} |"
            )
    lines.append(f"| peak RSS over the 2 MiB walk (fresh server) | {rss:.1f} MB | | | | |")
    return "\n".join(lines)


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("smolweb")
    ap.add_argument("servers")
    ap.add_argument("--mode", default="legacy", choices=["legacy", "auto"])
    ap.add_argument("--quick", action="store_true", help="fewer rounds (a smoke run)")
    a = ap.parse_args()
    rounds = 40 if a.quick else 300
    servers = subprocess.Popen([a.servers], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        base = json.loads(servers.stdout.readline())
        with tempfile.TemporaryDirectory(prefix="smolweb-bench-") as tmp:
            env = {"data": os.path.join(tmp, "data"), "config": os.path.join(tmp, "config.toml")}
            os.makedirs(env["data"])
            pathlib.Path(env["config"]).write_text(CONFIG)
            spawns = 5 if a.quick else 20
            sdk_spawns = await sdk_spawn(a.smolweb, env, a.mode, spawns)
            version, floor_name, sdk, steps = await sdk_cases(a.smolweb, env, base, a.mode, rounds)
            sdk["spawn"] = sdk_spawns
            rss = await sdk_peak_rss(a.smolweb, env, base, a.mode)
            pipe = await pipe_cases(a.smolweb, env, base, rounds)
            pipe["spawn"] = await pipe_spawn(a.smolweb, env, spawns)
        print(table(sdk, pipe, floor_name, steps, version, rss))
    finally:
        servers.stdin.close()
        servers.wait()


if __name__ == "__main__":
    asyncio.run(main())

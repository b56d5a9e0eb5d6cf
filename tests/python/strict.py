"""Send `smolweb --mcp` what an SDK never would, on the wire, and read each reply with the
official Python SDK's own JSON-RPC message types (mcp_types), as a Python client would.

The session is on 2025-06-18, where tool arguments that fail the input schema are JSON-RPC
errors too (from 2025-11-25 they are tool results: tests/python/arguments.py).

Usage: strict.py SMOLWEB DATA_DIR CONFIG
Prints each reply; exits non-zero on the first failed check.
"""

import json
import subprocess
import sys

import mcp_types as types
from pydantic import TypeAdapter

MESSAGE = TypeAdapter(types.JSONRPCMessage)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def main():
    exe, data_dir, config = sys.argv[1:4]
    proc = subprocess.Popen(
        [exe, "--mcp", "--data-dir", data_dir, "--config", config],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )

    def send(raw: bytes):
        proc.stdin.write(raw + b"\n")
        proc.stdin.flush()

    def reply():
        line = proc.stdout.readline()
        check(line, "the server answered")
        return MESSAGE.validate_json(line)

    send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "strict", "version": "1"}}}).encode())
    check(isinstance(reply(), types.JSONRPCResponse), "initialized")
    send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')

    cases = [
        ("invalid JSON", b'{"jsonrpc":"2.0","id":2,', -32700, None),
        ("5 MiB line", b'{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":"'
         + b"a" * (5 * 1024 * 1024) + b'"}}', -32600, 3),
        ("url: 5", json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "gemini_fetch", "arguments": {"url": 5}}}).encode(), -32602, 4),
        ("offset: -1", json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
            "name": "gemini_fetch", "arguments": {"url": "gemini://a/", "offset": -1}}}).encode(),
         -32602, 5),
        ("method: 7", b'{"jsonrpc":"2.0","id":6,"method":7}', -32600, 6),
        ("arguments: []", json.dumps({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {
            "name": "gemini_fetch", "arguments": []}}).encode(), -32602, 8),
    ]
    for what, raw, code, rid in cases:
        send(raw)
        r = reply()
        print(f"python sdk parses the reply to {what}: {r.model_dump_json(exclude_none=True)}")
        check(isinstance(r, types.JSONRPCError), f"{what}: an error")
        check(r.error.code == code, f"{what}: code {r.error.code}")
        check(r.id == rid, f"{what}: id {r.id}")
    send(b'{"jsonrpc":"2.0","id":7,"method":"ping"}')
    check(isinstance(reply(), types.JSONRPCResponse), "still serving")
    proc.stdin.close()
    check(proc.wait(timeout=5) == 0, "clean exit")
    print("python strict protocol: OK")


main()

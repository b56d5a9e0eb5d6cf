"""Arguments that do not match a tool's input schema, as the official Python MCP SDK sees them,
on each protocol generation the SDK can speak (either major).

Usage: arguments.py SMOLWEB DATA_DIR CONFIG
With SDK 2.x: sessions on 2025-06-18 (the handshake pinned back), 2025-11-25 (mode "legacy")
and 2026-07-28 (mode "auto"). With SDK 1.x: 2025-06-18 (pinned back) and 2025-11-25 (its
default). Up to 2025-06-18 a mismatch must reach the caller as the SDK's JSON-RPC error
exception (-32602, naming the field); from 2025-11-25 as a CallToolResult with isError whose
structuredContent matches the tool's output schema and names the field. Prints every reply as
the SDK hands it over; exits non-zero on the first failed check.
"""

import asyncio
import sys

from importlib.metadata import version as dist_version

import jsonschema

SDK = dist_version("mcp")
MAJOR = int(SDK.split(".")[0])


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def cases(gemini):
    return [
        ("gemini_fetch", {"url": gemini + "/", "offset": -1}, "offset", "INVALID_REQUEST"),
        ("gemini_fetch", {"url": 5}, "url", "INVALID_REQUEST"),
        ("gemini_batch_fetch", {"urls": gemini + "/"}, "urls", "INVALID_REQUEST"),
        ("gemini_trust_update", {"action": "trust", "host": "a"}, "action", "INVALID_REQUEST"),
        ("feed_fetch", {"url": gemini + "/", "offset": -1}, "offset", "INVALID_REQUEST"),
        ("fetch_url", {"url": "http://127.0.0.1:9/", "max_chars": 0}, "max_chars", "INVALID_INPUT"),
        ("fetch_url", {"url": "http://127.0.0.1:9/", "maxChars": 5}, "maxChars", "INVALID_INPUT"),
    ]


def judge(label, version, tool, args, field, code, outcome, schemas):
    """Check one reply: `outcome` is ("raised", exc) or ("result", CallToolResult)."""
    kind, value = outcome
    print(f"{label} protocol {version}: {tool} {args} -> {kind}: {value!r}")
    if version <= "2025-06-18":
        check(kind == "raised", f"{tool} {args}: a JSON-RPC error on {version}, got {value!r}")
        err = getattr(value, "error", value)
        check(err.code == -32602, f"{tool}: -32602, got {err.code}")
        check(f"`{field}`" in err.message, f"{tool}: the message names {field}: {err.message}")
        check((err.data or {}).get("field") == field, f"{tool}: data.field {err.data}")
        return
    check(kind == "result", f"{tool} {args}: a tool result on {version}, got {value!r}")
    is_error = getattr(value, "is_error", None)
    if is_error is None:
        is_error = value.isError
    sc = getattr(value, "structured_content", None)
    if sc is None:
        sc = value.structuredContent
    check(is_error is True, f"{tool}: isError")
    check(sc["error"]["code"] == code, f"{tool}: {code}, got {sc}")
    check(sc["error"]["retryable"] is False, f"{tool}: not retryable")
    check(f"`{field}`" in sc["error"]["message"], f"{tool}: names {field}: {sc}")
    check(tool == "fetch_url" or sc["kind"] == "error", f"{tool}: kind error: {sc}")
    jsonschema.validate(sc, schemas[tool])


async def run_v2(exe, data_dir, config, gemini):
    import mcp.client.session as session_module
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    from mcp.shared.exceptions import MCPError

    params = StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config]
    )
    for mode, pin in [("legacy", "2025-06-18"), ("legacy", None), ("auto", None)]:
        latest = session_module.LATEST_HANDSHAKE_VERSION
        if pin:
            session_module.LATEST_HANDSHAKE_VERSION = pin
        try:
            async with Client(params, mode=mode) as client:
                version = client.protocol_version
                schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
                for tool, args, field, code in cases(gemini):
                    try:
                        outcome = ("result", await client.call_tool(tool, args))
                    except MCPError as e:
                        outcome = ("raised", e)
                    judge(f"python sdk {SDK}", version, tool, args, field, code,
                          outcome, schemas)
                seen.append(version)
        finally:
            session_module.LATEST_HANDSHAKE_VERSION = latest


async def run_v1(exe, data_dir, config, gemini):
    import mcp.types as types
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.shared.exceptions import McpError

    params = StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config]
    )
    for pin in ["2025-06-18", None]:
        latest = types.LATEST_PROTOCOL_VERSION
        if pin:
            types.LATEST_PROTOCOL_VERSION = pin
        try:
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    version = (await session.initialize()).protocolVersion
                    schemas = {t.name: t.outputSchema for t in (await session.list_tools()).tools}
                    for tool, args, field, code in cases(gemini):
                        try:
                            outcome = ("result", await session.call_tool(tool, args))
                        except McpError as e:
                            outcome = ("raised", e)
                        judge(f"python sdk {SDK}", version, tool, args, field, code,
                              outcome, schemas)
                    seen.append(version)
        finally:
            types.LATEST_PROTOCOL_VERSION = latest


seen = []


async def main():
    exe, data_dir, config = sys.argv[1:4]
    gemini = "gemini://127.0.0.1:1965"  # never fetched: every call is refused first
    if MAJOR >= 2:
        await run_v2(exe, data_dir, config, gemini)
        want = ["2025-06-18", "2025-11-25", "2026-07-28"]
    else:
        await run_v1(exe, data_dir, config, gemini)
        want = ["2025-06-18", "2025-11-25"]
    check(seen == want, f"negotiated {seen}, wanted {want}")
    print(f"python sdk {SDK} argument errors on {', '.join(seen)}: OK")


asyncio.run(main())

"""Drive `smolweb --mcp` with the official Python MCP SDK (2.x).

Usage: smoke.py MODE SMOLWEB DATA_DIR CONFIG GEMINI_BASE GOPHER_BASE TOOLS
MODE is "legacy" (initialize handshake) or "auto" (2026-07-28 discover, fallback). TOOLS is
the published tool names in order, comma-separated (the Rust test reads them from the
tools/list snapshot, tests/snapshots/mcp_tools_list.snap).
The SDK validates every structuredContent against the tool's outputSchema, so a schema
mismatch fails here. Exits non-zero on the first failed check.
"""

import asyncio
import json
import sys

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters


def check(cond, what):
    if not cond:
        raise AssertionError(what)


async def approve(_context, params):
    # The test user says yes to every question smolweb asks.
    if "Password" in getattr(params, "message", ""):
        return types.ElicitResult(action="accept", content={"answer": "open sesame"})
    return types.ElicitResult(action="accept", content={"approve": True})


async def main():
    mode, exe, data_dir, config, gemini, gopher, published = sys.argv[1:8]
    params = StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config]
    )
    async with Client(params, mode=mode, elicitation_callback=approve) as client:
        tools = await client.list_tools()
        names = [t.name for t in tools.tools]
        check(names == published.split(","), f"the published tools in their order {published}, got {names}")
        for t in tools.tools:
            if t.name == "fetch_url":
                continue  # no `kind` (safe-fetch-mcp-server's shape); see tests/python/web.py
            schema = t.output_schema or {}
            check(schema.get("type") == "object", f"{t.name}: outputSchema type object")
            one_of = schema.get("oneOf") or (
                schema.get("properties", {}).get("result", {}).get("items", {}).get("oneOf")
            )
            check(bool(one_of), f"{t.name}: oneOf over kinds")

        page = await client.call_tool("gemini_fetch", {"url": gemini + "/"})
        sc = page.structured_content
        check(sc["kind"] == "gemtext", f"gemtext page: {sc}")
        check(page.content[0].text.startswith("gemtext "), "compact text block")
        check(not page.is_error, "not an error")

        ask = await client.call_tool("gemini_fetch", {"url": gemini + "/ask"})
        check(ask.structured_content["kind"] == "input", "input prompt")
        answered = await client.call_tool("gemini_fetch", {"url": gemini + "/ask", "input": "x y"})
        check(answered.structured_content["kind"] == "gemtext", "answered page")

        secret = await client.call_tool("gemini_fetch", {"url": gemini + "/secret", "ask_user": True})
        s = secret.structured_content
        check(s["kind"] == "gemtext" and s.get("input_from_user") is True, f"ask_user: {s}")
        check("open sesame" not in json.dumps(s), "answer never returned")

        # Arguments that do not match the input schema: on these sessions (2025-11-25 and
        # 2026-07-28) tool errors naming the field (tests/python/arguments.py has 2025-06-18).
        for args, field in [({"url": gemini + "/", "offset": -1}, "offset"), ({"url": 5}, "url")]:
            bad = await client.call_tool("gemini_fetch", args)
            print(f"python sdk sees for {args}: {bad!r}")
            e = bad.structured_content["error"]
            check(bad.is_error and e["code"] == "INVALID_REQUEST", f"{args}: {bad}")
            check(f"`{field}`" in e["message"], f"{args}: the message names {field}")

        batch = await client.call_tool(
            "gemini_batch_fetch", {"urls": [gemini + "/", "", gemini + "/missing"]}
        )
        kinds = [e["kind"] for e in batch.structured_content["result"]]
        check(kinds == ["gemtext", "error", "error"], f"batch order: {kinds}")
        check(len(batch.content) == 3, "one text block per URL")

        menu = await client.call_tool("gopher_fetch", {"url": gopher + "/1/"})
        check(menu.structured_content["kind"] == "menu", f"menu: {menu.structured_content}")
        items = menu.structured_content["items"]
        check(len(items) == 2 and items[1]["next_url"] == "" and items[1]["refused_scheme"] == "javascript",
              f"a refused scheme is no destination: {items}")
        spoof = (await client.call_tool("gemini_fetch", {"url": gemini + "/spoof"})).structured_content
        check(spoof["charset"] == "utf-16le" and spoof["hints"] == ["bidi-controls"], f"spoof: {spoof}")
        check([k["url"] for k in spoof["document"]["links"]] == [gemini + "/ask"], f"links: {spoof}")
        check(spoof["document"]["lines"][1]["link"]["refused_scheme"] == "javascript", "flagged")

        made = await client.call_tool(
            "gemini_client_cert_update", {"action": "create", "url": gemini + "/club"}
        )
        m = made.structured_content
        check(m["kind"] == "client_cert_update" and m["changed"] is True, f"cert create: {m}")
        club = await client.call_tool("gemini_fetch", {"url": gemini + "/club"})
        check(club.structured_content["kind"] == "gemtext", "identity presented")

        listed = await client.call_tool("gemini_client_cert_list", {})
        check(len(listed.structured_content["entries"]) == 1, "one identity")
        pins = await client.call_tool("gemini_trust_list", {})
        check(len(pins.structured_content["entries"]) == 1, "one pin")

        policy = await client.read_resource("smolweb://policy")
        check("max_rendered_chars" in policy.contents[0].text, "policy resource")
        version = client.protocol_version
    print(f"python mcp client ({mode}, protocol {version}): OK")


asyncio.run(main())

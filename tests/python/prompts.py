"""The prompts of `smolweb --mcp`, through the official Python MCP SDK (2.x) over stdio.

Usage: prompts.py MODE SMOLWEB DATA_DIR CONFIG
MODE is "legacy" (initialize handshake) or "auto" (2026-07-28 discover, fallback).
prompts/list: every prompt declares its arguments with their `required` flag; prompts/get fills
the arguments into a text that names the tools to call; a missing required argument, an
unknown prompt and an unknown argument are errors (-32602). Exits non-zero on a failed check.
"""

import asyncio
import sys

from mcp import Client, MCPError
from mcp.client.stdio import StdioServerParameters

TOOLS = ("gemini_fetch", "gemini_batch_fetch", "gopher_fetch", "gopher_batch_fetch",
         "fetch_url", "feed_fetch")


def check(cond, what):
    if not cond:
        raise AssertionError(what)


async def refused(client, name, args, field):
    try:
        await client.get_prompt(name, args)
    except MCPError as e:
        check(e.error.code == -32602, f"{name} {args}: -32602, got {e.error}")
        check(field in e.error.message, f"{name} {args}: the message names {field}: {e.error}")
        print(f"prompts/get {name} {args}: error {e.error.code}: {e.error.message}")
        return
    raise AssertionError(f"prompts/get {name} {args} should fail")


async def main():
    mode, exe, data_dir, config = sys.argv[1:5]
    params = StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config]
    )
    async with Client(params, mode=mode) as client:
        check(client.server_capabilities.prompts is not None, "the prompts capability is declared")
        listed = await client.list_prompts()
        names = [p.name for p in listed.prompts]
        print(f"prompts/list ({mode}): {names}")
        for want in ("explore_capsule", "summarize_gemlog", "read_web_article"):
            check(want in names, f"{want} listed: {names}")
        for p in listed.prompts:
            check(p.description, f"{p.name}: a description")
            required = [a.name for a in p.arguments or [] if a.required]
            check(required, f"{p.name}: at least one required argument")
            print(f"  {p.name}: required {required}, optional "
                  f"{[a.name for a in p.arguments if not a.required]}")

        got = await client.get_prompt(
            "explore_capsule", {"url": "gemini://capsule.example/", "focus": "poetry"}
        )
        text = got.messages[0].content.text
        check(got.messages[0].role == "user", "a user message")
        check("gemini://capsule.example/" in text and "poetry" in text, f"arguments filled: {text}")
        named = [t for t in TOOLS if f"`{t}`" in text]
        check("gemini_fetch" in named, f"names the tools to call: {named}")
        print(f"prompts/get explore_capsule names {named}")

        got = await client.get_prompt("summarize_gemlog", {"url": "gemini://g.example/log/"})
        check("`feed_fetch`" in got.messages[0].content.text, "the gemlog prompt uses feed_fetch")

        await refused(client, "explore_capsule", {}, "url")
        await refused(client, "read_web_article", {"url": "gemini://x/"}, "url")
        await refused(client, "explore_capsule", {"url": "gemini://x/", "depth": "2"}, "depth")
        await refused(client, "no_such_prompt", {}, "no_such_prompt")
        version = client.protocol_version
    print(f"python prompts ({mode}, protocol {version}): OK")


asyncio.run(main())

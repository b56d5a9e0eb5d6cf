"""Drive smolweb's titan_upload with the official Python MCP SDK (2.x): a consent event.

Usage: titan.py MODE SMOLWEB DATA_DIR CONFIG TITAN_BASE
The test user approves uploads whose question names /approved and declines the others; every
question is kept and checked for the size, the MIME type and the first lines. The Rust side
then checks what the server received (only the approved upload). Exits non-zero on the first
failed check.
"""

import asyncio
import sys

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters

QUESTIONS = []


def check(cond, what):
    if not cond:
        raise AssertionError(what)


async def user(_context, params):
    message = getattr(params, "message", "")
    QUESTIONS.append(message)
    print("  asked the user: " + " / ".join(message.splitlines()[:3]))
    if "/approved" in message:
        return types.ElicitResult(action="accept", content={"approve": True})
    return types.ElicitResult(action="decline")


async def main():
    mode, exe, data_dir, config, titan = sys.argv[1:6]
    params = StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config]
    )
    async with Client(params, mode=mode, elicitation_callback=user) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        a = tools["titan_upload"].annotations
        check(a.destructive_hint is True and a.read_only_hint is False
              and a.idempotent_hint is False and a.open_world_hint is True, f"annotations: {a}")

        text = "# Hello\nfrom the agent\n"
        ok = await client.call_tool("titan_upload", {
            "url": titan + "/approved.gmi", "text": text, "token": "tok3n"})
        sc = ok.structured_content
        print(f"  titan_upload approved.gmi -> {sc['kind']} {sc.get('new_url')}")
        check(not ok.is_error and sc["kind"] == "redirect"
              and sc["new_url"].endswith("/approved.gmi"), f"approved upload: {sc}")
        check("tok3n" not in str(sc) and "tok3n" not in ok.content[0].text, "token never echoed")
        q = QUESTIONS[-1]
        check("upload 23 bytes of text/gemini" in q and "| # Hello" in q
              and "| from the agent" in q and "upload token" in q, f"question: {q}")
        check("tok3n" not in q, f"the token is not shown: {q}")

        no = await client.call_tool("titan_upload", {
            "url": titan + "/declined.gmi", "base64": "aGVsbG8=", "mime": "text/plain"})
        n = no.structured_content
        print(f"  titan_upload declined.gmi -> {n['error']['code']}")
        check(no.is_error and n["kind"] == "error" and n["error"]["code"] == "USER_DECLINED",
              f"declined upload: {n}")
        check("upload 5 bytes of text/plain" in QUESTIONS[-1], f"question: {QUESTIONS[-1]}")

        gone = await client.call_tool("titan_upload", {"url": titan + "/declined.gmi", "text": ""})
        check(gone.structured_content["error"]["code"] == "USER_DECLINED", "delete declined")
        check("DELETE" in QUESTIONS[-1], f"a delete says so: {QUESTIONS[-1]}")

        bad = await client.call_tool("titan_upload", {"url": "gemini://127.0.0.1/x", "text": "x"})
        check(bad.structured_content["error"]["code"] == "INVALID_REQUEST", "not titan")
        check(len(QUESTIONS) == 3, f"no question for a refused call: {QUESTIONS}")
    print(f"python titan_upload ({mode}): OK")


asyncio.run(main())

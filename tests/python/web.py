"""Drive `smolweb --mcp`'s fetch_url with the official Python MCP SDK (2.x).

Usage: web.py MODE SMOLWEB DATA_DIR CONFIG BASE
BASE is the http://127.0.0.1:PORT of the test server (tests/web_mcp.rs). The SDK validates
every structuredContent against fetch_url's outputSchema, so a schema mismatch fails here.
"""

import asyncio
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters


def check(cond, what):
    if not cond:
        raise AssertionError(what)


async def main():
    mode, exe, data_dir, config, base = sys.argv[1:6]
    params = StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config]
    )
    async with Client(params, mode=mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        tool = tools["fetch_url"]
        check(tool.output_schema.get("type") == "object", "outputSchema is an object")
        ann = tool.annotations
        check(ann.read_only_hint and ann.idempotent_hint and ann.open_world_hint, f"{ann}")

        page = await client.call_tool("fetch_url", {"url": base + "/article"})
        sc = page.structured_content
        check(not page.is_error, f"article: {sc}")
        check(sc["extraction"] == "main" and sc["status"] == 200, f"{sc}")
        check("harbour fills slowly" in sc["text"], sc["text"])
        check(page.content[0].text.splitlines()[0].startswith("The text below is untrusted"),
              page.content[0].text)

        text = ""
        start = 0
        while True:
            w = await client.call_tool(
                "fetch_url", {"url": base + "/article", "max_chars": 100, "start_index": start}
            )
            ws = w.structured_content
            check(ws["fromCache"], "later windows come from the held copy")
            text += ws["text"]
            if ws["nextStartIndex"] is None:
                break
            start = ws["nextStartIndex"]
        check(len(text) == sc["totalChars"], "windows join to totalChars")

        for path, code, retryable in [
            ("/missing", "INVALID_RESPONSE", False),
            ("/busy", "INVALID_RESPONSE", True),
            ("/png", "UNSUPPORTED_CONTENT_TYPE", False),
            ("/to-localhost", "POLICY_REJECTED", False),
            ("/loop", "REDIRECT_FAILED", False),
        ]:
            r = await client.call_tool("fetch_url", {"url": base + path})
            e = r.structured_content["error"]
            check(r.is_error and e["code"] == code and e["retryable"] == retryable,
                  f"{path}: {r.structured_content}")
        missing = await client.call_tool("fetch_url", {"url": base + "/missing"})
        check(missing.structured_content["status"] == 404, "a 404 still carries its page")
        check("Not here" in missing.structured_content["text"], "404 text")

        md = await client.call_tool("fetch_url", {"url": base + "/md"})
        check(md.structured_content["markdownTokens"] == 42, f"{md.structured_content}")
        raw = await client.call_tool("fetch_url", {"url": base + "/article", "format": "raw"})
        check(raw.structured_content["text"].startswith("<!doctype html>"), "raw is as sent")
        check(raw.structured_content["extraction"] == "none", "raw is not converted")
        js = await client.call_tool("fetch_url", {"url": base + "/json"})
        jsc = js.structured_content
        check(not js.is_error and jsc["extraction"] == "none", f"json: {jsc}")
        check(jsc["text"] == '{\n  "a": [\n    1,\n    2\n  ]\n}\n', f"json is pretty: {jsc}")
        pdf = await client.call_tool("fetch_url", {"url": base + "/pdf"})
        pdc = pdf.structured_content
        check(not pdf.is_error and pdc["extraction"] == "none", f"pdf: {pdc}")
        check(pdc["text"].startswith("--- page 1 of 1 ---") and pdc["title"] == "Tides", f"{pdc}")
        locked = await client.call_tool("fetch_url", {"url": base + "/locked.pdf"})
        e = locked.structured_content["error"]
        check(locked.is_error and e["code"] == "UNSUPPORTED_CONTENT_TYPE", f"{locked.structured_content}")
        check("encrypted" in e["message"], e["message"])
        bad = await client.call_tool("fetch_url", {"url": "file:///etc/passwd"})
        check(bad.is_error and bad.structured_content["error"]["code"] == "INVALID_INPUT", "file:")
        zero = await client.call_tool("fetch_url", {"url": base + "/article", "max_chars": 0})
        z = zero.structured_content
        check(zero.is_error and z["error"]["code"] == "INVALID_INPUT"
              and "`max_chars`" in z["error"]["message"], f"max_chars 0: {z}")
    print("OK")


asyncio.run(main())

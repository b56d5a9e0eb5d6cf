"""Drive smolweb's smallnet_fetch with the official Python MCP SDK (2.x).

Usage: smallnet.py MODE SMOLWEB DATA_DIR CONFIG NEX FINGER SPARTAN SCROLL GOPHERS
(each a scheme://127.0.0.1:PORT base). The SDK validates every structuredContent against the
tool's outputSchema, so a schema mismatch fails here. Exits non-zero on the first failed check.
"""

import asyncio
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters


def check(cond, what):
    if not cond:
        raise AssertionError(what)


async def main():
    mode, exe, data_dir, config, nex, finger, spartan, scroll, gophers = sys.argv[1:10]
    params = StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config]
    )
    async with Client(params, mode=mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        t = tools["smallnet_fetch"]
        check(t.annotations.read_only_hint is True and t.annotations.open_world_hint is True,
              f"annotations: {t.annotations}")
        kinds = [k["properties"]["kind"]["const"] for k in t.output_schema["oneOf"]]
        check(len(kinds) == len(set(kinds)), f"one shape per kind: {kinds}")

        async def fetch(args):
            r = await client.call_tool("smallnet_fetch", args)
            sc = r.structured_content
            said = sc.get("error", {}).get("code") or sc.get("new_url") or str(
                sc.get("content") or sc.get("document", {}).get("links") or sc.get("items") or "")
            shown = {k: v for k, v in args.items() if k != "input"}
            print(f"  smallnet_fetch {shown} -> {sc['kind']}: {said[:70]!r}")
            return r, sc

        r, sc = await fetch({"url": nex + "/"})
        check(not r.is_error and sc["kind"] == "gemtext", f"nex directory: {sc}")
        links = [l["url"] for l in sc["document"]["links"]]
        check(links == [nex + "/about.txt"], f"nex links: {links}")
        r, sc = await fetch({"url": nex + "/about.txt"})
        check(sc["kind"] == "success" and "nex file" in sc["content"], f"nex file: {sc}")

        r, sc = await fetch({"url": finger + "/alice"})
        check(sc["kind"] == "success" and "Login: alice" in sc["content"], f"finger: {sc}")
        r, sc = await fetch({"url": finger + "/alice@elsewhere.example"})
        check(r.is_error and sc["error"]["code"] == "INVALID_REQUEST"
              and "forward" in sc["error"]["message"], f"finger forward refused: {sc}")

        r, sc = await fetch({"url": spartan + "/"})
        check(sc["kind"] == "gemtext", f"spartan page: {sc}")
        r, sc = await fetch({"url": spartan + "/old"})
        check(sc["kind"] == "redirect" and sc["new_url"] == spartan + "/"
              and sc["cross_host"] is False, f"spartan redirect: {sc}")
        r, sc = await fetch({"url": spartan + "/post", "input": "a secret note"})
        check(sc["kind"] == "success" and sc["content"] == "got 13 bytes",
              f"spartan data block: {sc}")
        check("a secret note" not in str(sc["request_info"]), f"input not echoed: {sc}")
        check(sc["cached"] is False, f"an input answer is never cached: {sc}")

        r, sc = await fetch({"url": scroll + "/doc"})
        check(sc["kind"] == "gemtext", f"scroll: {sc}")
        info = sc["request_info"]
        check(info["tls_version"].startswith("TLSv1.") and info["cert_fingerprint"].startswith("sha256:"),
              f"scroll over TLS: {info}")
        check("first visit" in info.get("tofu_warning", ""), f"TOFU: {info}")

        r, sc = await fetch({"url": gophers + "/1"})
        check(sc["kind"] == "menu", f"gophers menu: {sc}")
        urls = [i["next_url"] for i in sc["items"]]
        check(urls == [gophers + "/0/here", "gopher://example.org/0/x"],
              f"the same host stays on TLS, another is as its menu line says: {urls}")
        r, sc = await fetch({"url": gophers + "/9/blob"})
        check(sc["kind"] == "binary" and sc["size"] == 4, f"gophers binary: {sc}")

        r, sc = await fetch({"url": "gemini://127.0.0.1/"})
        check(r.is_error and "gemini_fetch" in sc["error"]["message"], f"wrong tool: {sc}")
    print(f"python smallnet_fetch ({mode}): OK")


asyncio.run(main())

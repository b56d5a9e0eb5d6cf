"""Drive `search_local` with the official Python MCP SDK (2.x), with and without
`[agents] search_history`, printing a transcript of what the agent is answered.

Usage: search.py MODE SMOLWEB DATA_DIR CONFIG CONFIG_HISTORY GEMINI_BASE
The person's history already holds a private page about tardigrades (the Rust side put it
there, as the browser does). The agent fetches a public page about tardigrades, then searches.
The SDK validates every structuredContent against the tool's outputSchema.
"""

import asyncio
import json
import sys
import time

from mcp import Client
from mcp.client.stdio import StdioServerParameters


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def server(exe, data_dir, config):
    return StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config]
    )


def show(label, result):
    print(f"--- {label}")
    print(json.dumps(result.structured_content, indent=1, ensure_ascii=False))


async def found(client, query, want, **extra):
    """search_local until `want` pages are found (the fetch is indexed in the background)."""
    args = {"query": query, **extra}
    deadline = time.monotonic() + 15
    while True:
        r = await client.call_tool("search_local", args)
        sc = r.structured_content
        if r.is_error or sc.get("total", 0) >= want or time.monotonic() > deadline:
            return r
        await asyncio.sleep(0.2)


async def policy_sources(client):
    res = await client.read_resource("smolweb://policy")
    text = res.contents[0].text
    return json.loads(text)["search"]["sources_visible_to_agents"]


async def main():
    mode, exe, data_dir, config, config_history, gemini = sys.argv[1:7]
    async with Client(server(exe, data_dir, config), mode=mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        t = tools["search_local"]
        check(t.annotations.read_only_hint is True, "read-only")
        check(t.annotations.open_world_hint is False, "no network")
        check(await policy_sources(client) == ["feed", "shared", "agent"], "policy: default scope")

        page = await client.call_tool("gemini_fetch", {"url": gemini + "/moss.gmi"})
        check(not page.is_error, f"fetch: {page.structured_content}")

        r = await found(client, "tardigrades", 1)
        show("search_history = false: search_local {query: tardigrades}", r)
        sc = r.structured_content
        check(sc["kind"] == "search_results", f"kind: {sc}")
        check(sc["sources"] == ["feed", "shared", "agent"], f"scope: {sc}")
        check(sc["total"] == 1, f"only the agent's page is counted: {sc}")
        hit = sc["results"][0]
        check(hit["url"] == gemini + "/moss.gmi" and hit["source"] == "agent", f"hit: {hit}")
        check("«Tardigrades»" in hit["snippet"], f"snippet: {hit}")
        check(all("diary" not in h["url"] for h in sc["results"]), "the private page is hidden")

        hidden = await client.call_tool("search_local", {"query": "tardigrades", "sources": ["history"]})
        show("search_history = false: search_local {sources: [history]}", hidden)
        h = hidden.structured_content
        check(hidden.is_error and h["error"]["code"] == "INVALID_REQUEST", f"hidden: {h}")
        check("search_history" in h["error"]["message"], f"names the setting: {h}")

        diary = await client.call_tool("search_local", {"query": "diary"})
        check(diary.structured_content["total"] == 0, "a hidden page is not even counted")

        long = await client.call_tool("search_local", {"query": "moss " * 20000})
        show("a query of 100,000 characters", long)
        check(long.is_error and long.structured_content["error"]["code"] == "INVALID_REQUEST",
              "too long")

    async with Client(server(exe, data_dir, config_history), mode=mode) as client:
        check("history" in await policy_sources(client), "policy: history allowed")
        r = await found(client, "tardigrades", 2)
        show("search_history = true: search_local {query: tardigrades}", r)
        sc = r.structured_content
        check(sc["total"] == 2, f"the person's page too: {sc}")
        sources = sorted(h["source"] for h in sc["results"])
        check(sources == ["agent", "history"], f"sources: {sources}")
        mine = await client.call_tool("search_local",
                                      {"query": "tardigrades", "sources": ["history"], "limit": 1})
        show("search_history = true: search_local {sources: [history], limit: 1}", mine)
        check(mine.structured_content["results"][0]["url"].endswith("/diary.gmi"), "history")
    print("OK")


asyncio.run(main())

"""Shared pages and caching hints as the official Python MCP SDK (2.x) sees them, per revision.

Usage: listen.py MODE SMOLWEB DATA_DIR CONFIG GEMINI_BASE READY_FILE
MODE "auto" negotiates 2026-07-28 (no session: `subscriptions/listen`, caching hints on the
cacheable results); "legacy" negotiates 2025-11-25 (an initialize session:
`notifications/resources/list_changed` on the session, no hints). Once the client listens,
READY_FILE is created and the test shares a page through the store, as the browser does: the
change must arrive, the page must list and read back. Prints a transcript and OK.
"""

import asyncio
import pathlib
import sys

import mcp.types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.subscriptions import ResourcesListChanged


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def say(*parts):
    print(*parts, flush=True)


def hints(result):
    """The caching hints as sent: None for a field the server left out."""
    sent = result.model_fields_set
    return (
        result.ttl_ms if "ttl_ms" in sent else None,
        result.cache_scope if "cache_scope" in sent else None,
    )


async def main():
    mode, exe, data_dir, config, gemini, ready = sys.argv[1:7]
    changed = asyncio.Event()

    async def on_message(message):
        if isinstance(message, types.ResourceListChangedNotification):
            changed.set()

    params = StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config]
    )
    async with Client(params, mode=mode, cache=None, message_handler=on_message) as c:
        version = c.protocol_version
        modern = version >= "2026-07-28"
        say(f"protocol {version}")
        check(modern == (mode == "auto"), f"negotiated {version} in mode {mode}")

        tools = await c.list_tools()
        prompts = await c.list_prompts()
        listed = await c.list_resources()
        policy = await c.read_resource("smolweb://policy")
        for name, result in [
            ("tools/list", tools),
            ("prompts/list", prompts),
            ("resources/list", listed),
            ("resources/read smolweb://policy", policy),
        ]:
            say(f"{name}: ttlMs, cacheScope = {hints(result)}")
        if modern:
            check(hints(tools) == (600000, "public"), f"tools/list: {hints(tools)}")
            check(hints(prompts) == (600000, "public"), f"prompts/list: {hints(prompts)}")
            check(hints(listed) == (0, "private"), f"resources/list: {hints(listed)}")
            check(hints(policy) == (600000, "private"), f"policy: {hints(policy)}")
        else:
            for name, result in [("tools", tools), ("resources", listed), ("policy", policy)]:
                check(hints(result) == (None, None), f"no hints before 2026-07-28: {name}")
        check([r.uri for r in listed.resources] == ["smolweb://policy"], "only the policy yet")

        if modern:
            async with c.listen(resources_list_changed=True) as sub:
                say("subscriptions/listen honored:", sub.honored.model_dump(exclude_none=True))
                check(sub.honored.resources_list_changed is True, f"honored: {sub.honored}")
                pathlib.Path(ready).write_text("ready")
                event = await asyncio.wait_for(anext(aiter(sub)), timeout=10)
                say("listen event:", type(event).__name__)
                check(isinstance(event, ResourcesListChanged), f"event: {event!r}")
        else:
            pathlib.Path(ready).write_text("ready")
            await asyncio.wait_for(changed.wait(), timeout=10)
            say("notifications/resources/list_changed received on the session")

        res = (await c.list_resources()).resources
        mine = [r for r in res if r.uri.startswith("smolweb://shared/")]
        check(len(mine) == 1, f"one shared page: {res}")
        read = await c.read_resource(mine[0].uri)
        text = read.contents[0].text
        say(f"resources/read {mine[0].uri}: {text.splitlines()[0]!r}; hints {hints(read)}")
        check("# Shared" in text, text)
        if modern:
            ttl, scope = hints(read)
            # Downloaded just now: held for the cache's whole lifetime (300 s by default).
            check(scope == "private" and 0 < ttl <= 300000, f"page hints: {hints(read)}")
            again = await c.read_resource(mine[0].uri)
            ttl2, _ = hints(again)
            say(f"read again from the cache: ttlMs {ttl2}")
            check(0 < ttl2 <= ttl, f"what is left of the cache's lifetime: {ttl2} after {ttl}")
        else:
            check(hints(read) == (None, None), f"no hints: {hints(read)}")
    print(f"python listen ({mode}): OK")


asyncio.run(main())

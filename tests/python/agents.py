"""Side by side with the person, through the official Python MCP SDK (2.x).

Usage: agents.py MODE SMOLWEB DATA_DIR CONFIG GEMINI_BASE READY_FILE
Two concurrent sessions (agent-a, agent-b) fetch pages with a query, an input answer and a
status-11 answer; show_to_user queues a suggestion (a browser's heartbeat was written by the
test, so browser_running is true) and refuses a metadata address; then READY_FILE is created
and the test shares a page through the store API, as the browser does: it must arrive as
notifications/resources/list_changed, list as smolweb://shared/ID (name = title, description
= note) and read back with the page's text. Prints a transcript and OK.
"""

import asyncio
import pathlib
import sys

import mcp.types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def server(exe, data_dir, config):
    return StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config]
    )


def say(*parts):
    print(*parts, flush=True)


async def session(name, mode, exe, data_dir, config, gemini):
    info = types.Implementation(name=name, version="0.9")
    async with Client(server(exe, data_dir, config), mode=mode, client_info=info, cache=None) as c:
        r = await c.call_tool("gemini_fetch", {"url": gemini + "/?secret-query-" + name})
        check(not r.is_error, f"{name}: page: {r.structured_content}")
        r = await c.call_tool("gemini_fetch", {"url": gemini + "/ask", "input": "hunter2-" + name})
        check(r.structured_content["kind"] == "gemtext", f"{name}: answered: {r.structured_content}")
        r = await c.call_tool("gemini_fetch", {"url": gemini + "/secret", "input": "open sesame"})
        check(r.structured_content["kind"] == "gemtext", f"{name}: status 11: {r.structured_content}")
        say(f"[{name}] gemini_fetch x3 -> gemtext")


async def main():
    mode, exe, data_dir, config, gemini, ready = sys.argv[1:7]
    # 1. Two sessions at once.
    await asyncio.gather(
        session("agent-a", mode, exe, data_dir, config, gemini),
        session("agent-b", mode, exe, data_dir, config, gemini),
    )

    changed = asyncio.Event()

    async def on_message(message):
        if isinstance(message, types.ResourceListChangedNotification):
            changed.set()

    info = types.Implementation(name="agent-c", version="1.0")
    async with Client(
        server(exe, data_dir, config), mode=mode, client_info=info, cache=None,
        message_handler=on_message,
    ) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        show = tools["show_to_user"]
        check(show.annotations.read_only_hint is False, "show_to_user is not read-only")
        check(show.annotations.destructive_hint is False, "nor destructive")
        check(show.annotations.open_world_hint is False, "nor open-world")
        check("person should see" in show.description, show.description)
        shared = tools["shared_pages_list"]
        check(shared.annotations.read_only_hint is True, "shared_pages_list is read-only")

        # 2. Agent -> person.
        r = await c.call_tool("show_to_user", {"url": gemini + "/?q=x", "note": "Please read the intro"})
        sc = r.structured_content
        say("show_to_user ->", sc)
        check(not r.is_error and sc["kind"] == "suggestion_queued", f"queued: {sc}")
        check(sc["browser_running"] is True, f"the browser's heartbeat is seen: {sc}")
        check(sc["url"] == gemini + "/" and len(sc["id"]) == 8, f"id and url: {sc}")
        r = await c.call_tool("show_to_user", {"url": "gemini://169.254.169.254/"})
        sc = r.structured_content
        say("show_to_user metadata ->", sc["error"]["code"])
        check(r.is_error and sc["error"]["code"] == "BLOCKED", f"guard: {sc}")

        # 3. Person -> agent.
        before = [x.uri for x in (await c.list_resources()).resources]
        check(before == ["smolweb://policy"], f"only the policy yet: {before}")
        pathlib.Path(ready).write_text("ready")
        await asyncio.wait_for(changed.wait(), timeout=10)
        say("notifications/resources/list_changed received")
        res = (await c.list_resources()).resources
        mine = [x for x in res if x.uri.startswith("smolweb://shared/")]
        check(len(mine) == 1, f"one shared page: {res}")
        page = mine[0]
        say("resources/list ->", page.uri, "name:", page.name, "description:", page.description)
        check(page.name == "Python", f"name = title: {page}")
        check(page.description == "Summarise this for me", f"description = note: {page}")
        read = await c.read_resource(page.uri)
        text = read.contents[0].text
        say("resources/read ->", text.splitlines()[0])
        check("Summarise this for me" in text and "# Python" in text, text)
        listed = await c.call_tool("shared_pages_list", {})
        sc = listed.structured_content
        check(sc["kind"] == "shared_pages" and sc["pages"][0]["uri"] == page.uri, f"tool: {sc}")
        check(sc["pages"][0]["note"] == "Summarise this for me", f"note: {sc}")
        say("shared_pages_list ->", [p["uri"] for p in sc["pages"]])
    print("python agents: OK")


asyncio.run(main())

"""Drive smolweb's feed tools with the official Python MCP SDK (2.x).

Usage: feeds.py MODE SMOLWEB DATA_DIR CONFIG CONFIG_NO_LIST GEMINI_BASE GOPHER_BASE PAGE
(PAGE: a page followed for its new links, which gained one link, Tulips, before the run)
The SDK validates every structuredContent against the tool's outputSchema, so a schema
mismatch fails here. Exits non-zero on the first failed check.
"""

import asyncio
import json
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def server(exe, data_dir, config):
    return StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config]
    )


async def main():
    mode, exe, data_dir, config, config_no_list, gemini, gopher, page = sys.argv[1:9]
    async with Client(server(exe, data_dir, config), mode=mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        for name in ("feed_fetch", "subscriptions_list", "changes_since"):
            check(name in tools, f"{name} listed: {sorted(tools)}")
            t = tools[name]
            check(t.output_schema.get("type") == "object", f"{name}: object schema")
            check(bool(t.output_schema.get("oneOf")), f"{name}: oneOf over kinds")
            check(t.annotations.read_only_hint is True, f"{name}: read-only")
        check(tools["subscriptions_list"].annotations.open_world_hint is False, "store only")
        check(tools["changes_since"].annotations.open_world_hint is False, "store only")

        log = await client.call_tool("feed_fetch", {"url": gemini + "/log/"})
        sc = log.structured_content
        check(not log.is_error and sc["kind"] == "feed", f"gemlog feed: {sc}")
        check(sc["title"] == "Python log" and sc["feed_type"] == "gemlog", f"title: {sc}")
        check(sc["total_items"] == 3 and sc["truncated"] is True, f"window: {sc}")
        check(sc["next_offset"] == 2 and len(sc["entries"]) == 2, f"two per window: {sc}")
        first = sc["entries"][0]
        check(first == {"title": "Newest", "url": gemini + "/log/new.gmi",
                        "published": "2026-11-30T00:00:00Z"}, f"entry: {first}")
        check(sc["cached"] is False and sc["request_info"]["host"] == "127.0.0.1", f"meta: {sc}")
        check(log.content[0].text.startswith("feed (gemlog)"), log.content[0].text)

        more = await client.call_tool("feed_fetch", {"url": gemini + "/log/", "offset": 2})
        m = more.structured_content
        check(m["cached"] is True and m["next_offset"] is None, f"second window: {m}")
        check([e["title"] for e in m["entries"]] == ["Oldest"], f"rest: {m}")

        atom = await client.call_tool("feed_fetch", {"url": gemini + "/atom.xml"})
        a = atom.structured_content
        check(a["kind"] == "feed" and a["feed_type"] == "atom", f"atom: {a}")
        check(a["entries"][0]["url"] == gemini + "/posts/one.gmi", f"relative link: {a}")

        phlog = await client.call_tool("feed_fetch", {"url": gopher + "/1/phlog"})
        p = phlog.structured_content
        check(p["kind"] == "feed" and p["total_items"] == 1, f"phlog: {p}")
        check("selector" in p["request_info"], f"gopher request_info: {p}")

        plain = await client.call_tool("feed_fetch", {"url": gemini + "/plain.txt"})
        check(plain.is_error and plain.structured_content["error"]["code"] == "INVALID_REQUEST",
              f"not a feed: {plain.structured_content}")
        gone = await client.call_tool("feed_fetch", {"url": gemini + "/gone"})
        g = gone.structured_content
        check(gone.is_error and g["error"]["code"] == "PERMANENT_ERROR" and g["error"]["status"] == 51,
              f"51: {g}")
        neg = await client.call_tool("feed_fetch", {"url": gemini + "/log/", "offset": -1})
        n = neg.structured_content
        check(neg.is_error and n["error"]["code"] == "INVALID_REQUEST"
              and "`offset`" in n["error"]["message"], f"offset: {n}")

        subs = await client.call_tool("subscriptions_list", {})
        s = subs.structured_content
        check(not subs.is_error and s["kind"] == "subscriptions_list", f"list: {s}")
        check(len(s["subscriptions"]) == 3 and s["total_unread"] == 3, f"three subs: {s}")
        by_url = {x["url"]: x for x in s["subscriptions"]}
        log_sub = by_url["gemini://log.example/"]
        check(by_url[page]["follows"] == "links", f"a followed page: {by_url[page]}")
        check(by_url[page]["entries"][0]["url"] == page, f"the page's own URL: {by_url[page]}")
        check([(e["title"], e["unread"]) for e in log_sub["entries"]]
              == [("Fresh", True), ("Seen", False)], f"unread flags: {log_sub}")
        only = await client.call_tool("subscriptions_list", {"filter": "PHLOG", "unread_only": True})
        o = only.structured_content
        check([x["title"] for x in o["subscriptions"]] == ["Holes"], f"filter: {o}")
        check(all(e["unread"] for e in o["subscriptions"][0]["entries"]), "unread only")

        since = await client.call_tool("changes_since", {"since": "1h", "diff_items": 5})
        c = since.structured_content
        print(f"changes_since ({mode}) -> " + json.dumps(c, indent=1))
        check(not since.is_error and c["kind"] == "changes_since", f"changes: {c}")
        check(c["total_items"] == 4 and c["next_offset"] is None, f"3 entries, 1 change: {c}")
        changes = [i for i in c["items"] if i["type"] == "page_change"]
        check(len(changes) == 1 and changes[0]["url"] == page, f"the change: {c}")
        d = changes[0]["diff"]
        check(d["links_added"] == [{"url": gemini + "/tulips.gmi", "label": "Tulips"}], f"diff: {d}")
        check(d["counts"]["links_added"] == 1 and d["truncated"] is False, f"counts: {d}")
        check(d["paragraphs_added"] == [] and d["links_removed"] == [], f"links only: {d}")
        entries = {i["url"] for i in c["items"] if i["type"] == "entry"}
        check(entries == {"gemini://log.example/fresh", "gemini://log.example/seen",
                          "gopher://hole.example/0/p"}, f"entries: {entries}")
        unread = await client.call_tool("changes_since", {"since": "1h", "unread_only": True,
                                                           "max_items": 1})
        u = unread.structured_content
        check(u["total_items"] == 3 and u["next_offset"] == 1, f"unread, windowed: {u}")
        bad = await client.call_tool("changes_since", {"since": "soonish"})
        check(bad.is_error and bad.structured_content["error"]["code"] == "INVALID_REQUEST",
              f"bad time: {bad.structured_content}")

    async with Client(server(exe, data_dir, config_no_list), mode=mode) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        check("feed_fetch" in names and "subscriptions_list" not in names
              and "changes_since" not in names, f"switched off: {sorted(names)}")
        version = client.protocol_version
    print(f"python feeds ({mode}, protocol {version}): OK")


asyncio.run(main())

"""Drive `smolweb --mcp --http` with the official Python MCP SDK's Streamable HTTP client.

Usage: http_transport.py SMOLWEB DATA_DIR CONFIG URL TOKEN GEMINI_BASE
(the first three, the test harness's usual arguments, are not used: the server already runs.)
Both connection modes ("legacy": initialize handshake and a session; "auto": 2026-07-28
discover), each with the bearer token in an Authorization header: tools/list, a gemini_fetch,
consent-free calls (the trust and identity lists), prompts, an identity created through the
consent flow (the test user accepts the elicitation). Then two sessions that cannot be asked
(no elicitation) each queue a request, which must carry that session's client name. A client
without the token must be refused. Exits non-zero on the first failed check.
"""

import asyncio
import sys

import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def check(cond, what):
    if not cond:
        raise AssertionError(what)


async def approve(_context, _params):
    return types.ElicitResult(action="accept", content={"approve": True})


def connect(url, token, mode, name, http, elicit=True):
    return Client(
        streamable_http_client(url, http_client=http),
        mode=mode,
        client_info=types.Implementation(name=name, version="1.0"),
        elicitation_callback=approve if elicit else None,
    )


expected_tools = []


async def full_session(url, token, gemini, mode):
    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with connect(url, token, mode, f"http-{mode}", http) as client:
            tools = await client.list_tools()
            names = sorted(t.name for t in tools.tools)
            check(names == expected_tools, f"the stdio server's tools {expected_tools}, got {names}")
            print(f"tools/list over HTTP ({mode}): {names}")

            page = await client.call_tool("gemini_fetch", {"url": gemini + "/"})
            sc = page.structured_content
            check(sc["kind"] == "gemtext" and not page.is_error, f"gemtext page: {sc}")
            print(f"gemini_fetch over HTTP ({mode}): kind={sc['kind']}, {page.content[0].text[:50]!r}")

            pins = await client.call_tool("gemini_trust_list", {})
            check(len(pins.structured_content["entries"]) == 1, f"one pin: {pins}")
            ids = await client.call_tool("gemini_client_cert_list", {})
            check(ids.structured_content["kind"] == "client_cert_list", f"list: {ids}")

            bad = await client.call_tool("gemini_fetch", {"url": gemini + "/", "offset": -1})
            check(bad.is_error and "`offset`" in bad.structured_content["error"]["message"],
                  f"the per-generation argument check: {bad}")

            prompts = await client.list_prompts()
            check(len(prompts.prompts) >= 3, f"prompts: {prompts}")

            version = client.protocol_version
            if mode == "legacy":
                made = await client.call_tool(
                    "gemini_client_cert_update", {"action": "create", "url": gemini + "/club"}
                )
                m = made.structured_content
                check(m["kind"] == "client_cert_update" and m["changed"] is True,
                      f"identity created after consent over HTTP: {m}")
                club = await client.call_tool("gemini_fetch", {"url": gemini + "/club"})
                check(club.structured_content["kind"] == "gemtext", "identity presented")
            print(f"python sdk over HTTP ({mode}, protocol {version}): tools, fetch, consent OK")


async def queued(url, token, gemini, name):
    """A session that cannot be asked: its request waits in the queue under its own name."""
    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with connect(url, token, "legacy", name, http, elicit=False) as client:
            r = await client.call_tool(
                "gemini_client_cert_update", {"action": "create", "url": gemini + "/" + name}
            )
            sc = r.structured_content
            check(sc.get("pending") is True, f"{name}: queued for approval: {sc}")
            return sc


def leaves(e):
    if isinstance(e, BaseExceptionGroup):
        return [x for sub in e.exceptions for x in leaves(sub)]
    return [e]


async def refused(url, gemini):
    async with create_mcp_http_client(headers={"Authorization": "Bearer wrong"}) as http:
        try:
            async with connect(url, "wrong", "legacy", "no-token", http) as client:
                await client.list_tools()
        except BaseException as e:  # the SDK may wrap the HTTP error in exception groups
            said = "; ".join(f"{type(x).__name__}: {x}" for x in leaves(e))
            print(f"a wrong token is refused by the server: {said}")
            return
    raise AssertionError("a client with a wrong token got a session")


async def main():
    global expected_tools
    url, token, gemini, tools = sys.argv[4:8]
    expected_tools = sorted(tools.split(","))
    for mode in ("legacy", "auto"):
        await full_session(url, token, gemini, mode)
    a, b = await asyncio.gather(
        queued(url, token, gemini, "agent-a"), queued(url, token, gemini, "agent-b")
    )
    print(f"two sessions queued: {a['next_step'][:60]!r}..., {b['next_step'][:60]!r}...")
    await refused(url, gemini)
    print("python http: OK")


asyncio.run(main())

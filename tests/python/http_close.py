"""Close a Streamable HTTP session of `smolweb --mcp --http` with the official Python SDK, on
either major version (1.x or 2.x), and check that the SDK takes the close for a success.

Usage: http_close.py SMOLWEB DATA_DIR CONFIG URL TOKEN
(the first three, the test harness's usual arguments, are not used: the server already runs.)
Opens a session (initialize, tools/list), leaves it, and watches what the SDK saw: the status
of its DELETE (through an httpx response hook) and what it logged. Both SDKs accept only 200 or
204 and log "Session termination failed: N" otherwise. Exits non-zero on a failed check.
"""

import asyncio
import importlib.metadata
import logging
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def check(cond, what):
    if not cond:
        raise AssertionError(what)


class Recorder(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


async def main():
    url, token = sys.argv[4:6]
    sdk = importlib.metadata.version("mcp")
    logs = Recorder()
    logger = logging.getLogger("mcp.client.streamable_http")
    logger.addHandler(logs)
    logger.setLevel(logging.DEBUG)
    deletes = []

    async def seen(response):
        if response.request.method == "DELETE":
            deletes.append(response.status_code)

    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
        http.event_hooks = {"response": [seen]}
        async with streamable_http_client(url, http_client=http) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
                check(len(tools.tools) > 0, "the session works")
    failed = [m for m in logs.messages if "termination failed" in m]
    print(f"SDK {sdk}: DELETE answered {deletes}; SDK log: {failed or 'no failure'}")
    check(len(deletes) == 1, f"the SDK closed its session with one DELETE: {deletes}")
    check(deletes[0] in (200, 204), f"a close the SDK accepts: {deletes[0]}")
    check(not failed, f"the SDK logged no failure: {failed}")
    print("python http close: OK")


asyncio.run(main())

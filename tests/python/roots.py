"""fetch_url over https, verified by a root that only SSL_CERT_FILE names, through the official
Python MCP SDK (2.x), which validates every structuredContent against the outputSchema.

Usage: roots.py MODE SMOLWEB DATA_DIR CONFIG URL PEM
URL is the https://127.0.0.1:PORT/ of a test server whose CA is in PEM (tests/it/web_roots.rs).
The server is started twice: with SSL_CERT_FILE=PEM (verified, request_info.tls_root names the
CA and the variable) and without (a CONNECTION_FAILED naming the certificate).
"""

import asyncio
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters


def check(cond, what):
    if not cond:
        raise AssertionError(what)


async def fetch(mode, exe, data_dir, config, url, env):
    params = StdioServerParameters(
        command=exe, args=["--mcp", "--data-dir", data_dir, "--config", config], env=env
    )
    async with Client(params, mode=mode) as client:
        return await client.call_tool("fetch_url", {"url": url})


async def main():
    mode, exe, data_dir, config, url, pem = sys.argv[1:7]
    page = await fetch(mode, exe, data_dir, config, url, {"SSL_CERT_FILE": pem})
    sc = page.structured_content
    check(not page.is_error, f"verified through SSL_CERT_FILE: {sc}")
    info = sc["request_info"]
    check(info["tls_root"] == f"smolweb test CA, from SSL_CERT_FILE ({pem})", f"{info}")
    check(info["cert_fingerprint"].startswith("sha256:"), f"{info}")
    print("verified:", info)

    refused = await fetch(mode, exe, data_dir, config, url, {})
    e = refused.structured_content["error"]
    check(refused.is_error and e["code"] == "CONNECTION_FAILED", f"{refused.structured_content}")
    check("certificate" in e["message"].lower(), e["message"])
    print("without SSL_CERT_FILE:", e)
    print("OK")


asyncio.run(main())

#!/usr/bin/env python3
"""Write the fuzz corpora's seeds (fuzz/seeds/<target>/) from the project's own tests.

Sources: the string and byte-string literals of the unit and integration tests that
exercise each parser (read out of the Rust sources, escapes undone), the files in
tests/fixtures, the config example in assets/, a few store files and certificates made
here, and small pages in the pattern of the benches. Each seed gets the prefix its
target's input format asks for (see the comment at the top of each fuzz_targets/*.rs).

Deterministic; run it again after the tests change. Usage: fuzz/seeds.py [OUT_DIR]
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "fuzz" / "seeds"

# ---------------------------------------------------------------- Rust literals


LITERAL = re.compile(
    r"""(?P<raw>b?r(?P<hashes>\#*)"(?P<rawbody>.*?)"(?P=hashes))"""
    r"""|(?P<plain>b?"(?P<body>(?:[^"\\]|\\.|\\\n)*)")""",
    re.S,
)
ESCAPE = re.compile(r"""\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|n|r|t|0|\\|"|'|\n\s*)""")


def unescape(body: str, is_bytes: bool) -> bytes:
    out = bytearray()
    pos = 0
    for m in ESCAPE.finditer(body):
        out += body[pos : m.start()].encode()
        e = m.group(1)
        if e.startswith("x"):
            v = int(e[1:], 16)
            out += bytes([v]) if is_bytes else chr(v).encode()
        elif e.startswith("u"):
            out += chr(int(e[2:-1], 16)).encode("utf-8", "surrogatepass")
        elif e[0] == "\n":
            pass  # line continuation
        else:
            out += {"n": b"\n", "r": b"\r", "t": b"\t", "0": b"\0"}.get(e, e.encode())
        pos = m.end()
    out += body[pos:].encode()
    return bytes(out)


def literals(*paths: str) -> list[bytes]:
    """Every string literal (at least 2 bytes) of the given files or directories."""
    found: list[bytes] = []
    for p in paths:
        base = ROOT / p
        files = sorted(base.rglob("*.rs")) if base.is_dir() else [base]
        for f in files:
            src = f.read_text()
            for m in LITERAL.finditer(src):
                if m.group("raw"):
                    value = m.group("rawbody").encode()
                else:
                    value = unescape(m.group("body"), m.group("plain").startswith("b"))
                if len(value) >= 2 and value not in found:
                    found.append(value)
    return found


def json_arguments(*dirs: str) -> list[bytes]:
    """The objects of `json!({...})` macros and their `"arguments": {...}` (literal ones only)."""
    found: list[bytes] = []
    for d in dirs:
        for f in sorted((ROOT / d).rglob("*.rs")):
            src = f.read_text()
            for m in re.finditer(r'(?:"arguments"\s*:|json!\()\s*\{', src):
                depth, i = 0, m.end() - 1
                for j in range(i, len(src)):
                    depth += {"{": 1, "}": -1}.get(src[j], 0)
                    if depth == 0:
                        break
                text = re.sub(r",(\s*[}\]])", r"\1", src[i : j + 1])
                try:
                    value = json.dumps(json.loads(text)).encode()
                except ValueError:
                    continue
                if value not in found:
                    found.append(value)
    return found


# ---------------------------------------------------------------- writing


def write(target: str, seeds) -> None:
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    n = 0
    for s in seeds:
        name = hashlib.sha1(s).hexdigest()
        (d / name).write_bytes(s)
        n += 1
    print(f"{target}: {len(list(d.iterdir()))} seeds")


def bench_gemtext(lines: int = 160) -> bytes:
    """A page in the pattern of benches/gemtext.rs, small."""
    out = []
    for i in range(lines):
        out.append(
            [
                f"# Section {i}",
                f"Some prose about topic number {i}, with a few more words to read.",
                f"=> /posts/{i}.gmi Post number {i}: a link label",
                f"=> /posts/{i}.gmi Post number {i}: a link label",
                f"=> gemini://capsule{i % 97}.example/log/ Capsule {i}",
                f"=> ../up/{i}.txt",
                f"* list item {i}",
                f"Some prose about topic number {i}, with a few more words to read.",
                f"=> /posts/{i}.gmi Post number {i}: a link label",
                f"=> /posts/{i}.gmi Post number {i}: a link label",
                f"> a quoted line {i}",
                "```rust example",
                f"fn f{i}() -> u32 {{ {i} }}",
                "```",
                f"## Subsection {i}",
                f"=> https://web.example/{i} Web link {i}",
            ][i % 16]
        )
    return ("\n".join(out) + "\n").encode()


def bench_menu(items: int = 120) -> bytes:
    """A Gopher menu like the benches' (info lines, menus, text items, a search, an h link)."""
    out = []
    for i in range(items):
        kind = "i1070h"[i % 6]
        if kind == "i":
            out.append(f"iWelcome line {i}\t\tfake\t0")
        elif kind == "h":
            out.append(f"hWeb link {i}\tURL:https://web.example/{i}\tfake\t0")
        else:
            out.append(f"{kind}Item {i}\t/dir/{i}\tgopher.example\t70")
    return ("\r\n".join(out) + "\r\n.\r\n").encode()


def dotted_text() -> list[bytes]:
    return [
        b"line one\r\n..stuffed\r\n.\r\nnot content\r\n.\r\n",
        b"plain text without a terminator\n.\nstill content\n",
        b"text\r\n.\r\n",
        b".\r\n",
        b"..\r\n...\r\n.\r\n",
    ]


# ---------------------------------------------------------------- store files

KNOWN_HOSTS = """# smolweb known hosts
[[pin]]
host = "example.org"
port = 1965
fingerprint = "sha256:""" + "ab" * 32 + """"
not_after = "2030-01-01T00:00:00Z"
first_seen = "2024-01-01T00:00:00Z"
last_seen = "2024-06-01T12:00:00+02:00"

[[pin]]
host = "Example.ORG"
port = 1966
fingerprint = "sha256:""" + "cd" * 32 + """"
first_seen = "2024-01-01T00:00:00Z"
last_seen = "2024-01-01T00:00:00Z"
"""

IDENTITY = """# smolweb client identity me.
name = "me"
fingerprint = "sha256:""" + "ef" * 32 + """"
not_before = "2024-01-01T00:00:00Z"
not_after = "2034-01-01T00:00:00Z"
created_by = "human"
agent_use = false
algorithm = "ecdsa-p256"
cert_pem = \"\"\"-----BEGIN CERTIFICATE-----
MIIB
-----END CERTIFICATE-----
\"\"\"

[scope]
host = "example.org"
port = 1965
path = "/app/"
"""

APPROVALS = """[[approval]]
id = "0a1b2c3d"
client = "agent \\u001b[31m"
requested_at = "2024-01-01T00:00:00Z"
expires_at = "2024-01-02T00:00:00Z"

[approval.request]
action = "trust_pin"
host = "example.org"
port = 1965
fingerprint = "sha256:""" + "ab" * 32 + """"

[[approval]]
id = "ffffffff"
client = "c"
requested_at = "2024-01-01T00:00:00Z"
expires_at = "2024-01-02T00:00:00Z"

[approval.request]
action = "identity_create"
name = "n"

[approval.request.scope]
host = "h"
port = 1965
path = "/"
"""

BOOKMARKS = "# Bookmarks\n\n=> gemini://example.org/ Example\n=> gopher://g.example/1/\n=>x\n"

HISTORY = """[[visit]]
url = "gemini://example.org/a"
title = "A"
at = "2024-01-01T00:00:00Z"

[[visit]]
url = "gopher://g.example/"
at = "2024-01-01T00:00:00.5-01:00"
"""

SUBSCRIPTIONS = """[[subscription]]
url = "gemini://example.org/gemlog/"
title = "Log"
added = "2024-01-01T00:00:00Z"
refreshed = "2024-01-02T00:00:00Z"

[[subscription.entry]]
url = "gemini://example.org/gemlog/1.gmi"
title = "First"
published = "2024-01-01T00:00:00Z"
first_seen = "2024-01-01T00:00:00Z"
read = true

[[subscription]]
url = "https://blog.example/feed.xml"
added = "2024-01-01T00:00:00Z"
error = "status 51: not found"
"""

OFFLINE_INDEX = """[[page]]
url = "gemini://example.org/"
bytes = 12
fetched = "2024-01-01T00:00:00Z"
last_used = "2024-01-01T00:00:00Z"
saved = "2024-01-01T00:00:00Z"
title = "Home"
"""

OFFLINE_PAGE = (
    b"smolweb-offline 1\nurl: gemini://example.org/\ntype: text/gemini; charset=utf-8\n"
    b"fetched: 2024-01-01T00:00:00Z\n\n# Home\r\n\x00\xff"
)


def certificates() -> list[bytes]:
    """A few DER certificates made with openssl (skipped when it is missing)."""
    if not shutil.which("openssl"):
        return []
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (key, days) in enumerate([("ec:-", 365), ("rsa:1024", 1), ("ed25519", 3650)]):
            args = ["openssl", "req", "-x509", "-nodes", "-subj", "/CN=fuzz.example",
                    "-days", str(days), "-outform", "DER", "-out", f"{tmp}/c{i}.der",
                    "-keyout", f"{tmp}/k{i}.pem"]
            if key == "ec:-":
                args[3:3] = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
            elif key == "ed25519":
                args[3:3] = ["-newkey", "ed25519"]
            else:
                args[3:3] = ["-newkey", key]
            if subprocess.run(args, capture_output=True).returncode == 0:
                out.append(Path(f"{tmp}/c{i}.der").read_bytes())
    return out


# ---------------------------------------------------------------- per target


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)

    header = literals("crates/smolweb-core/src/response.rs", "crates/smolweb-core/src/response", "crates/smolweb-net/src/gemini/header.rs")
    write("gemini_header", header + [b"20 text/gemini; charset=utf-8; lang=en\r\n# Hi\n"])

    gem = literals("crates/smolweb-core/src/gemtext.rs", "crates/smolweb-core/src/gemtext", "crates/smolweb-core/src/page", "crates/smolweb-core/src/feed/gemlog.rs")
    metas = [b"text/gemini", b"text/gemini; charset=iso-8859-1; lang=fr", b"text/plain", b""]
    write("gemtext", [m + b"\n" + s for s in gem + [bench_gemtext()] for m in metas[:2]]
          + [m + b"\n# T\n=> a b\n" for m in metas])

    win = literals("crates/smolweb-core/src/window.rs", "crates/smolweb-core/src/window") + gem
    write("window", [bytes([lim, 0, k]) + s for s in win + [bench_gemtext(40)]
                     for lim in (1, 7, 64) for k in (0, 1)])

    goph = literals("crates/smolweb-core/src/gopher.rs", "crates/smolweb-core/src/gopher", "crates/smolweb-net/src/gopher.rs", "crates/smolweb-client/tests/it/client_gopher.rs")
    goph += [bench_menu()] + dotted_text()
    write("gopher", [t + s for s in goph for t in (b"1", b"0")]
          + [b"h" + s for s in dotted_text()] + [b"9GIF89a", b"I\x89PNG\r\n\x1a\n"])

    robots = literals("crates/smolweb-net/src/policy/robots.rs", "crates/smolweb-net/src/policy/http_robots.rs", "crates/smolweb-net/src/policy.rs")
    write("robots", [p + b"\n" + s for s in robots for p in (b"/", b"/private/x")])

    urls = literals("crates/smolweb-core/src/url.rs", "crates/smolweb-core/src/url", "crates/smolweb-core/src/feed.rs")
    pairs = [a + b"\n" + b for a, b in zip(urls, urls[1:])]
    write("url", urls + pairs + [b"gemini://h/a/b\n../c?q#f", b"gopher://h/1/x\n%09search"])

    cs = literals("crates/smolweb-core/src/charset.rs", "crates/smolweb-core/src/charset")
    labels = [b"utf-8", b"iso-8859-1", b"cp437", b"shift_jis", b"utf-16le", b"x-unknown"]
    write("charset", [lab + b"\n" + s for s in cs for lab in labels[:3]]
          + [lab + b"\n\xef\xbb\xbf\xe2\x80\x94 \xff\xfe" for lab in labels]
          + [b"\n<meta charset=\"windows-1251\">\xc0\xc1"])

    html = literals("crates/smolweb-core/src/html.rs", "crates/smolweb-core/src/html", "crates/smolweb-core/src/feed/discover.rs", "crates/smolweb-client/src/web")
    html = [s for s in html if b"<" in s]
    write("html", [m + s for s in html for m in (b"\x00", b"\x01")]
          + [b"\x0a" + html[0], b"\x10" + html[0], b"\x28# Title\n\ntext", b"\x15\xff\xfeh\x00i\x00",
             b"\x80text/html; charset=windows-1251\n<p>\xc0\xc1</p>",
             b"\x84application/octet-stream\n\x00\x01binary"])

    feeds = sorted((ROOT / "crates/smolweb-core/tests/fixtures/feeds").iterdir())
    fixture = [f.read_bytes() for f in feeds]
    feed_lits = literals("crates/smolweb-core/src/feed", "crates/smolweb-client/src/feeds.rs", "tests/it/cli_feeds.rs")
    write("feed", [b"\x02" + f for f in fixture]
          + [b"\x00" + s for s in gem + feed_lits if b"=>" in s]
          + [b"\x01" + bench_menu(), b"\x01i2024-01-02 x\t\t\t\r\n02024-01-03 Post\t/p\th\t70\r\n"]
          + [b"\x02" + s for s in feed_lits if s.lstrip()[:1] in (b"<", b"{")]
          + [b"\x03" + s for s in html + feed_lits if b"<link" in s]
          + [b"\x00# " + b"x" * 299 + b" y\n=> /a 2024-01-01 " + b"y " * 200 + b"\n"])

    mcp = literals("crates/smolweb-mcp/src/stdio", "crates/smolweb-mcp/src/args.rs", "tests/it/mcp_protocol.rs", "tests/it/mcp_errors.rs")
    jsonish = [s for s in mcp if s.lstrip()[:1] in (b"{", b"[")]
    stream = b"\n".join(jsonish[:40]) + b"\n"
    write("mcp_lines", [bytes([255, 63]) + s + b"\n" for s in jsonish]
          + [bytes([255, 3]) + stream, bytes([1, 0]) + stream, bytes([4, 5]) + b"abc\r\n" + stream])

    args = []
    for s in jsonish:
        try:
            v = json.loads(s)
        except ValueError:
            continue
        params = v.get("params") if isinstance(v, dict) else None
        a = params.get("arguments") if isinstance(params, dict) else None
        if isinstance(a, (dict, list)):
            args.append(json.dumps(a).encode())
    args += json_arguments("tests", "crates/smolweb-mcp/src")
    args += [b'{"url":"gemini://a/","offset":-1,"max_chars":1e99}', b'{"urls":["gemini://a/",5]}', b"{}"]
    write("mcp_args", args)

    store = [KNOWN_HOSTS, IDENTITY, APPROVALS, BOOKMARKS, HISTORY, SUBSCRIPTIONS, OFFLINE_INDEX]
    config = (ROOT / "assets/config.example.toml").read_bytes()
    write("store_files", [bytes([i]) + s.encode() for i, s in enumerate(store)]
          + [bytes([7]) + OFFLINE_PAGE, bytes([8]) + config])

    write("cert", certificates())


if __name__ == "__main__":
    main()

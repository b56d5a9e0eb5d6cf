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


def pdfs() -> list[bytes]:
    """Small PDFs: one page of text, two pages, no text, a broken cross-reference table."""

    def pdf(pages: list[bytes]) -> bytes:
        objs = [b"<< /Type /Catalog /Pages 2 0 R >>", None,
                b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
        kids = []
        for content in pages:
            stream = b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"
            objs.append(stream)
            objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                        b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % len(objs))
            kids.append(b"%d 0 R" % len(objs))
        objs[1] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % len(kids)
        out = b"%PDF-1.4\n"
        offsets = []
        for i, o in enumerate(objs):
            offsets.append(len(out))
            out += b"%d 0 obj\n" % (i + 1) + o + b"\nendobj\n"
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
        out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
        out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
        return out

    text = b"BT /F1 12 Tf 72 720 Td (Hello, fuzz) Tj ET"
    two = [text, b"BT /F1 12 Tf 72 720 Td [(Second) -250 (page)] TJ T* (more) ' ET"]
    one = pdf([text])
    return [one, pdf(two), pdf([b"q 1 0 0 1 0 0 cm Q"]), one.replace(b"xref", b"xref\n0 zz"),
            one[: len(one) // 2]]


def pictures() -> list[bytes]:
    """Tiny pictures in every format the browser decodes (PNG, GIF, BMP, PNM, QOI, ICO)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    big = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 40000, 40000, 8, 2, 0, 0, 0))
    gif = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00"
           b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
    bmp_pixels = b"\x00\x00\xff\x00"
    bmp = (b"BM" + struct.pack("<IHHI", 14 + 40 + len(bmp_pixels), 0, 0, 54)
           + struct.pack("<IiiHHIIiiII", 40, 1, 1, 1, 24, 0, len(bmp_pixels), 2835, 2835, 0, 0) + bmp_pixels)
    pnm = b"P6\n2 1\n255\n\xff\x00\x00\x00\xff\x00"
    qoi = b"qoif" + struct.pack(">IIBB", 1, 1, 3, 0) + b"\xfe\xff\x00\x00" + b"\x00" * 7 + b"\x01"
    return [png, big, gif, bmp, pnm, qoi, png[:30]]


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

    sels = [b"div.post", b"#thread > div", b"main, aside.about", b"article p:nth-child(2)", b"div[", b"::x(", b""]
    rems = [b"", b".share", b"nav;footer", b"div["]
    pages = [s for s in html if b"<body" in s or b"<div" in s][:40]
    write("site_rules", [sel + b"\n" + rem + b"\n" + p for p in pages for sel, rem in zip(sels, rems * 2)])

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

    # The small protocols' answers (issue 36): literals of their tests and the testkit's
    # servers, and a few answers written here.
    small = literals("crates/smolweb-net/src/spartan.rs", "crates/smolweb-net/src/scroll.rs", "crates/smolweb-net/src/request.rs", "crates/smolweb-client/tests/it/client_smallnet.rs", "crates/smolweb-testkit/src/smallnet.rs", "tests/it/mcp_smallnet.rs")
    spartan = [b"2 text/gemini\r\n# Spartan\n=: /echo Leave a note\n=> /up Up\n",
               b"3 /moved\r\n", b"3 //other.example/x\r\n", b"3 /../../x\r\n",
               b"4 not found\r\n", b"5 broken\r\n", b"2 text/plain; charset=iso-8859-1\r\n\xe9t\xe9",
               b"2 text/gemini\n" + bench_gemtext(40)]
    write("spartan", spartan + [s for s in small if s[:1] in b"2345" and b" " in s[:3]])
    scroll = [b"20 text/gemini\r\nAlice\r\n2024-01-01\r\n\r\n# Doc\n=> /a A\n",
              b"20 text/gemini; lang=en\r\n\r\n\r\n\r\nbody", b"31 /elsewhere\r\n",
              b"51 not found\r\n", b"20 text/plain\r\nonly one line\r\n",
              b"20 text/gemini\r\n" + b"a" * 1100 + b"\r\n"]
    write("scroll", scroll + [s for s in small if s[:2].isdigit()])
    write("nex", [b"\n=> docs/ Docs\n=> a.txt\n=> ../up\n", b"docs/\n" + bench_gemtext(40),
                  b"a.txt\nplain text\n", b"img.png\n\x89PNG\r\n\x1a\n", b"d%0Ae/\n=> x\n",
                  b"caf%C3%A9.gmi\n# caf\xc3\xa9\n"])
    write("finger", [b"alice\nLogin: alice\r\nPlan:\r\nnothing\r\n", b"\nUsers online: 3\n",
                     b"/W alice\nx", b"a%0D%0Ab\nx", b"alice@other.example\n\x1b[2Jhi"])
    answers = header[:20] + [b"20 text/gemini\r\n# Uploaded\n", b"30 gemini://fuzz.example/new.gmi\r\n",
                             b"31 /new\r\n", b"59 too large\r\n", b"60 certificate needed\r\n"]
    titan = [b"titan://fuzz.example/wiki/page.gmi\ntext/gemini\ns3cr%et\n\x10\x00" + a for a in answers]
    titan += [b"titan://fuzz.example/a;size=1\ntext/plain\n\n\x00\x00" + answers[0],
              b"titan://fuzz.example/a?q\ntext/gemini\ntok en\n\xff\xff" + answers[1],
              b"gemini://fuzz.example/\ntext/gemini\n\n\x01\x00" + answers[0]]
    write("titan", titan)

    # Guppy answers (datagrams split on 0xFF): a document in order, reordered and repeated,
    # the three statuses, and packets past the end.
    doc = [b"6 text/gemini\r\n# Guppy\n", b"7\r\n=> /a A\n", b"8\r\nmore\n", b"9\r\n"]
    guppy = [doc, [doc[0], doc[2], doc[1], doc[1], doc[3]], [doc[1], doc[0], doc[3], doc[2]],
             [b"1 your name?\r\n"], [b"3 guppy://other.example/\r\n"], [b"4 not found\r\n"],
             [doc[0], doc[3], b"10\r\nafter the end"], [b"6 text/plain\r\n" + b"x" * 900, b"7\r\n"],
             [b"0 zero\r\n"], [b"5\r\n"], [b"6 text/gemini\r\n"] + [b"%d\r\n" % n + b"y" * 512 for n in range(7, 20)]]
    write("guppy", [b"\xff".join(d) for d in guppy])

    # The agents' files (issue 36).
    activity = [
        b'{"at":"2026-01-01T00:00:00Z","session":"0a1b2c3d","event":"start","client":"claude","version":"1.0","pid":42}\n',
        b'{"at":"2026-01-01T00:00:01.5Z","session":"0a1b2c3d","event":"call","tool":"gemini_fetch","url":"gemini://h/a","outcome":"gemtext","error":false,"bytes":120,"cached":false,"ms":3}\n',
        b'{"at":"2026-01-01T00:00:02Z","session":"0a1b2c3d","event":"consent","tool":"trust_pin","step":"timed_out","what":"trust h\\u001b[2J"}\n',
        b'{"at":"2026-01-01T00:00:03Z","session":"0a1b2c3d","event":"end"}\n',
        b'{"at":"2026-01-01T00:00:04Z","session":"ffffffff","event":"call","tool":"x","urls":3,"outcome":"' + b"\\u0007" * 200 + b'","ms":1}\n',
        b'{not json\n\x00\xff\n{"at":"2026-01-01T00:00:00Z","session":"a","ev',
    ]
    write("activity_log", activity + [b"".join(activity[:4]), b"".join(activity) * 3])
    agent = [
        """[[shared]]\nid = "0a1b2c3d"\nurl = "gemini://h/a"\ntitle = "A"\nnote = "look"\nat = "2026-01-01T00:00:00Z"\n""",
        """[[suggestion]]\nid = "0a1b2c3d"\nurl = "gemini://h/a"\nnote = "see"\nclient = "bot"\nsession = "s1"\nat = "2026-01-01T00:00:00Z"\n""",
        """[[browser]]\npid = 42\nseen = "2026-01-01T00:00:00Z"\n\n[[browser]]\npid = 4294967295\nseen = "2026-01-01T00:00:00+02:00"\n""",
        """[[queued]]\nurl = "gemini://h/a"\nat = "2026-01-01T00:00:00Z"\nfrom = "gemini://h/feed"\ntries = 2\n""",
        """[[allowance]]\nagent = "bot"\nscope = "gemini://h/wiki/"\nadded = "2026-01-01T00:00:00Z"\n""",
    ]
    write("agent_files", [bytes([i]) + a.encode() for i, a in enumerate(agent)]
          + [bytes([i]) + b"x = 1\n" for i in range(5)])

    # Issue 36 on issues 34 and 35: a followed page's copy and the tour (the store's unit
    # test holds the same files), two versions of a followed page, search queries and search
    # queue files.
    followed = ('url = "gemini://h/log.gmi"\nfetched = "2026-01-02T00:00:00Z"\n'
                'text = "# Log\\n=> gemini://h/1.gmi One\\n"\n\n[memory]\n'
                'recent = ["00000000000000ff", "0123456789abcdef"]\nstreak = 1\nrestless = false\n\n'
                '[[change]]\nat = "2026-01-02T00:00:00Z"\nsince = "2026-01-01T00:00:00Z"\n\n'
                '[change.diff]\n\n[[change.diff.links_added]]\nurl = "gemini://h/1.gmi"\nlabel = "One"\n\n'
                '[[change.diff.removed]]\nkind = "heading"\ntext = "Old"\n\n[change.diff.counts]\n'
                'links_added = 1\nlinks_removed = 0\nadded = 0\nremoved = 1\nnoise = 2\n')
    tour = ('[[stop]]\nurl = "gemini://h/a"\nat = "2026-01-01T00:00:00Z"\nlabel = "A"\n\n'
            '[[stop]]\nurl = "gopher://g/1/"\nat = "2026-01-01T00:00:01Z"\n\n[stop.agent]\n'
            'client = "bot"\nsession = "s1"\nreason = "read this"\n')
    rules = ('[[rule]]\nsite = "forum.example"\ncontent = "div.post"\nremove = [".share"]\n'
             'added = "2026-12-01T00:00:00Z"\n\n[[rule]]\nsite = "b.example"\ncontent = "main"\n'
             'added = "2026-12-01T00:00:01Z"\n')
    write("follow_tour_files", [b"\x00" + followed.encode(), b"\x01" + tour.encode(),
                                b"\x02" + rules.encode(),
                                b"\x00url = 1\n", b"\x01[[stop]]\n", b"\x02[[rule]]\n"])
    old = (b"# Log\n\nUpdated 2026-01-01 at 10:00\n=> /a.gmi First post\n=> /b.gmi?v=1 Second\n"
           b"* a list item\n> a quote\n```\npre line\n\npre two\n```\nVisitors: 1041\n")
    new = (b"# Log\n\nUpdated 2026-01-02 at 11:30\n=> /c.gmi Third post\n=> /a.gmi First post\n"
           b"=> /b.gmi?v=2 Second\n* a new item\n> a quote\n```\npre line\n```\nVisitors: 1042\n"
           + b"word " * 80 + b"\n")
    write("follow_diff", [bytes([w]) + a + b"\x00" + b for w in (0, 1) for (a, b) in
                          ((old, new), (new, old), (old, old), (b"", new), (old, b""))]
          + [b"\x01" + bench_gemtext(60) + b"\x00" + bench_gemtext(80)])
    queries = ['tardigrades "in moss" crypto* -water site:Example.ORG -"dry season"',
               "moss \"in the", "the of and", "m* moss", "site:gemini://a.moss.example:1965/x moss",
               "moss\x1b[31m\x07red", "- moss", "-moss", "\u30af\u30de\u30e0\u30b7", "wasser*",
               " ".join("w%d" % i for i in range(40)), "moss " * 300, "\"to be or not to be\""]
    ops = [b'{"op":"add","url":"gemini://a.b.example/x","title":"T","text":"moss and water","source":"history","lang":"en","time":"2026-01-01T00:00:00Z"}',
           b'{"op":"add","url":"https://x.example/","title":null,"text":"caf\xc3\xa9 \xe2\x80\x94 tea","source":"agent","time":"2026-01-01T00:00:00Z"}',
           b'{"op":"forget","url":"gemini://h/a?q","sources":["history","offline"]}',
           b'{"op":"clear","source":"feed"}', b'{"op":"nothing"}']
    write("search_query", [bytes([0, k]) + q.encode() for q in queries for k in (0, 1, 6, 0x45)]
          + [b"\x01" + o for o in ops])

    # The PDF and picture front ends (issue 36): the testkit's PDFs are written by code, so
    # a few small files are written here; pictures from the image crate's smallest forms.
    write("pdf", pdfs())
    write("picture", pictures())


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The shape of one crate, as issue 31 measures it: lines, `pub` items, module cycles and the
largest functions.

Usage: benches/crate_shape.py crates/smolweb-mcp [--top N] [--edges]

- lines: every line of the crate's `src/**/*.rs` (tests inside the files included), and the
  same without the `#[cfg(test)]` modules at the end of a file (and without `*_tests.rs`).
- pub items: item declarations (fn, struct, enum, mod, const, static, type, trait, use,
  impl-less; fields and methods included) outside tests, split by visibility: `pub` (the
  crate's public surface as written) and `pub(crate)` / `pub(super)` / `pub(in ...)`.
- cycles: the modules (one node per file: `server`, `stdio::verdict`, ...) and the edges
  between them read from the sources outside tests: every `use` (braces expanded) and every
  path in the code that starts with `crate::`, `super::` or `self::` or names a child module
  the file declares. A re-export in lib.rs (`pub(crate) use server::SmolwebServer`) stands for
  the module it comes from. The strongly connected components with more than one module are
  the cycles; `--edges` prints every edge.
- largest functions: lines from a `fn` line to its closing brace (brace counting that skips
  strings, chars and comments), outside tests.

Reads files as text; no build needed.
"""

import os
import re
import sys
from collections import defaultdict

ITEM_KEYWORDS = ("fn", "async fn", "const fn", "unsafe fn", "struct", "enum", "mod", "const",
                 "static", "type", "trait", "use", "union")


def rust_files(src):
    out = []
    for root, _dirs, files in os.walk(src):
        for f in files:
            if f.endswith(".rs"):
                out.append(os.path.join(root, f))
    return sorted(out)


def module_of(src, path):
    rel = os.path.relpath(path, src)[:-3]
    parts = rel.split(os.sep)
    if parts[-1] == "mod":
        parts = parts[:-1]
    if parts == ["lib"] or parts == ["main"]:
        return ""
    return "::".join(parts)


def strip_comments_and_strings(text):
    """The text with comments, string and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            hashes = m.group(1)
            end = text.find('"' + hashes, i + len(m.group(0)))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append('"' + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + '"')
            i = j
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^'\\])'", text[i:])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def without_tests(code):
    """Cut `#[cfg(test)]` items (a module or a fn) out of comment-free code."""
    lines = code.split("\n")
    keep = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "#[cfg(test)]":
            # Skip the attribute and the item after it (to its matching brace or semicolon).
            depth, j, opened = 0, i + 1, False
            while j < len(lines):
                line = lines[j]
                depth += line.count("{") - line.count("}")
                opened = opened or "{" in line
                if (opened and depth <= 0) or (not opened and line.rstrip().endswith(";")):
                    break
                j += 1
            keep.extend([""] * (j - i + 1))
            i = j + 1
            continue
        keep.append(lines[i])
        i += 1
    return "\n".join(keep)


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e]."""
    tree = re.sub(r"\s+", "", tree)

    def split_top(s):
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += ch == "{"
            depth -= ch == "}"
            cur += ch
        if cur:
            parts.append(cur)
        return parts

    def walk(prefix, s):
        if "{" not in s:
            return [prefix + s]
        head, _, rest = s.partition("{")
        inner = rest[: rest.rfind("}")]
        out = []
        for p in split_top(inner):
            out.extend(walk(prefix + head, p))
        return out

    return [re.sub(r"\bas\b.*$", "", p) for p in walk("", tree)]


def resolve(path, module, modules, children, reexports):
    """The module a path in `module` refers to, or None (outside the crate)."""
    segs = [s for s in path.split("::") if s]
    if not segs:
        return None
    here = module.split("::") if module else []
    if segs[0] == "crate":
        base, segs = [], segs[1:]
    elif segs[0] == "self":
        base, segs = here[:], segs[1:]
    elif segs[0] == "super":
        base = here[:]
        while segs and segs[0] == "super":
            base, segs = base[:-1], segs[1:]
    elif segs[0] in children.get(module, ()):
        base = here[:]
    else:
        return None
    # The longest prefix that is a module of the crate.
    best = "::".join(base)
    for k in range(1, len(segs) + 1):
        cand = "::".join(base + segs[:k])
        if cand in modules:
            best = cand
        else:
            break
    if best == "" and segs:
        # Through the root: a re-export in lib.rs stands for its source module.
        target = reexports.get(segs[0])
        if target is not None:
            return target
    return best


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    crate = args[0]
    top = int(args[args.index("--top") + 1]) if "--top" in args else 10
    show_edges = "--edges" in args
    src = os.path.join(crate, "src")
    files = rust_files(src)
    modules = {module_of(src, f): f for f in files if not f.endswith("_tests.rs")}
    codes, children, summed = {}, defaultdict(set), defaultdict(set)
    total_lines = prod_lines = 0
    pub_items = restricted_items = 0
    functions = []
    for f in files:
        text = open(f, encoding="utf-8").read()
        total_lines += text.count("\n")
        if f.endswith("_tests.rs"):
            continue
        m = module_of(src, f)
        code = without_tests(strip_comments_and_strings(text))
        codes[m] = code
        prod_lines += sum(1 for line in code.split("\n") if line.strip())
        for cm in re.finditer(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", code, re.M):
            name = cm.group(1)
            children[m].add(name)
        # smolweb-mcp's `families![a, b, ...]` declares its tool families as child modules and
        # calls each one's router.
        for fm in re.finditer(r"\bfamilies!\s*\[([^\]]*)\]", code):
            for name in re.findall(r"\w+", fm.group(1)):
                children[m].add(name)
                summed[m].add(name)
        for line in code.split("\n"):
            s = line.strip()
            pm = re.match(r"pub(\([^)]*\))?\s+(.*)", s)
            if not pm:
                continue
            rest = pm.group(2)
            is_item = any(rest.startswith(k + " ") for k in ITEM_KEYWORDS) or re.match(r"\w+\s*:", rest)
            if not is_item:
                continue
            if pm.group(1):
                restricted_items += 1
            else:
                pub_items += 1
        # Function lengths.
        lines = code.split("\n")
        for i, line in enumerate(lines):
            fm = re.match(r"\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+(\w+)", line)
            if not fm:
                continue
            depth, opened, j = 0, False, i
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                opened = opened or "{" in lines[j]
                if not opened and lines[j].rstrip().endswith(";"):
                    break
                if opened and depth <= 0:
                    break
                j += 1
            if opened:
                where = os.path.relpath(f, crate)
                functions.append((j - i + 1, f"{where}:{i + 1} {fm.group(1)}"))
    # Re-exports at the root: `use server::SmolwebServer` -> the name stands for `server`.
    reexports = {}
    for um in re.finditer(r"\buse\s+([^;]+);", codes.get("", "")):
        for p in expand_use(um.group(1)):
            segs = [s for s in p.split("::") if s and s not in ("crate", "self")]
            if len(segs) >= 2 and segs[0] in modules:
                target = segs[0]
                for k in range(2, len(segs)):
                    if "::".join(segs[:k]) in modules:
                        target = "::".join(segs[:k])
                reexports[segs[-1]] = target
    edges = defaultdict(set)
    for m, code in codes.items():
        paths = []
        for um in re.finditer(r"\buse\s+([^;]+);", code):
            paths.extend(expand_use(um.group(1)))
        body = re.sub(r"\buse\s+[^;]+;", "", code)
        for pm in re.finditer(r"\b((?:crate|super|self)(?:::\w+)+)", body):
            paths.append(pm.group(1))
        for child in summed.get(m, ()):
            paths.append(child + "::router")
        for child in children.get(m, ()):
            for pm in re.finditer(r"(?<![:\w])(" + re.escape(child) + r"(?:::\w+)+)", body):
                paths.append(pm.group(1))
        for p in paths:
            t = resolve(p, m, modules, children, reexports)
            if t is None or t == m or t not in modules:
                continue
            # Reaching into one's own child is containment, not a dependency... unless the
            # child reaches back; both directions are kept so that such a pair shows.
            edges[m].add(t)
    # Tarjan's strongly connected components (iterative).
    index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
    for start in sorted(modules):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    sccs.append(sorted(comp))
    name = os.path.basename(os.path.abspath(crate))
    print(f"crate {name}")
    print(f"  files: {len(files)}")
    print(f"  lines: {total_lines} (without tests, comments and blank lines: {prod_lines})")
    print(f"  pub items: {pub_items} `pub`, {restricted_items} `pub(crate)`/`pub(super)`/`pub(in ..)`")
    print(f"  modules: {len(modules)}, edges: {sum(len(v) for v in edges.values())}")
    print(f"  module cycles: {len(sccs)}")
    for c in sccs:
        print(f"    {len(c)} modules: {', '.join(m or '(root)' for m in c)}")
    print(f"  largest functions (lines, outside tests):")
    for n, where in sorted(functions, reverse=True)[:top]:
        print(f"    {n:4} {where}")
    if show_edges:
        for m in sorted(edges):
            print(f"  {m or '(root)'} -> {', '.join(sorted(t or '(root)' for t in edges[m]))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

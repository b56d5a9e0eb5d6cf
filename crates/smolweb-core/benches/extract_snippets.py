#!/usr/bin/env python3
"""A second check of `extract=main`, on pages nobody tuned smolweb against: the evaluation
set in trafilatura's repository (tests/eval/*.html with tests/evaldata.json, which says for
each page a few snippets its main text must contain and a few it must not). Nothing of it is
committed here: point this script at a checkout of that repository.

    python3 crates/smolweb-core/benches/extract_snippets.py /path/to/trafilatura [--pred DIR]

Pages whose file name is a 32-hex id come from another public benchmark, which is held back
for acceptance: they are skipped, never read. For each page smolweb's markdown (from the
extraction bench's `--dump`) is read as the text a reader sees (link targets and pictures
dropped, markdown marks removed); a snippet counts when it occurs in that text with runs of
whitespace made one space. Precision, recall and F are over all snippets, as trafilatura's
own evaluation computes them. `--pred DIR` scores another extractor's plain-text outputs
instead (DIR/ID.txt, the ID being the page's file name without `.html`).
"""

import json
import os
import re
import subprocess
import sys
import tempfile

HEX_ID = re.compile(r"[0-9a-f]{32}\.html")


def plain_markdown(text):
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)
    text = re.sub(r"\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)", r"\1", text)
    text = re.sub(r"(?m)^\s{0,3}#{1,6}\s*", "", text)
    text = re.sub(r"(?m)^\s*(?:[-*+]|\d+\.)\s+", "", text)
    text = re.sub(r"(?m)^\s*>\s?", "", text)
    text = text.replace("**", "").replace("__", "")
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|>~])", r"\1", text)
    return text.replace("`", "").replace("|", " ")


def squeeze(text):
    return re.sub(r"\s+", " ", text)


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    repo = args[0]
    pred = args[args.index("--pred") + 1] if "--pred" in args else None
    cases = json.load(open(os.path.join(repo, "tests", "evaldata.json"), encoding="utf-8"))
    pages = {}
    for url, case in cases.items():
        name = case["file"]
        path = os.path.join(repo, "tests", "eval", name)
        if HEX_ID.fullmatch(name) or not os.path.exists(path):
            continue
        pages[name[: -len(".html")]] = (url, path, case)
    if pred is None:
        work = tempfile.mkdtemp(prefix="smolweb-snippets-")
        open(os.path.join(work, "none.txt"), "w").write("-\n")
        with open(os.path.join(work, "manifest.tsv"), "w", encoding="utf-8") as m:
            m.write("# source\tid\tkind\tsplit\turl\thtml\texpected\n")
            for pid, (url, path, _) in pages.items():
                clean = pid.replace("\t", " ")
                m.write(f"eval\t{clean}\tarticle\tholdout\t{url}\t{path}\tnone.txt\n")
        dump = os.path.join(work, "dump")
        subprocess.run(
            ["cargo", "bench", "-q", "-p", "smolweb-core", "--bench", "extract_quality", "--",
             "--dump", dump],
            env=dict(os.environ, SMOLWEB_EXTRACT_BENCH_DIR=work),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        outputs = {pid: os.path.join(dump, "eval", pid.replace("\t", " ") + ".md") for pid in pages}
    else:
        outputs = {pid: os.path.join(pred, pid + ".txt") for pid in pages}
    tp = fp = fn = tn = 0
    for pid, (_, _, case) in pages.items():
        path = outputs[pid]
        text = open(path, encoding="utf-8", errors="replace").read() if os.path.exists(path) else ""
        text = squeeze(plain_markdown(text) if pred is None else text)
        for s in case.get("with", []):
            if squeeze(s) in text:
                tp += 1
            else:
                fn += 1
        for s in case.get("without", []):
            if squeeze(s) in text:
                fp += 1
            else:
                tn += 1
    p = tp / max(tp + fp, 1)
    r = tp / max(tp + fn, 1)
    f = 2 * p * r / max(p + r, 1e-9)
    print(f"pages {len(pages)}  snippets: precision {p:.3f}  recall {r:.3f}  F {f:.3f}  "
          f"(tp {tp} fp {fp} fn {fn} tn {tn})")


if __name__ == "__main__":
    main()

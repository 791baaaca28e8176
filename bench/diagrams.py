#!/usr/bin/env python3
"""diagrams.py: what one diagram costs a folio build, cold and warm: a
50-node Mermaid flowchart (issue 38's figure), a 30-object pikchr
drawing, and a small Mermaid diagram of each other kind (those of
bench/mermaid/run.sh), each alone in a post of an otherwise empty site.

Usage: diagrams.py [--folio ./folio] [--runs 7]

For each site (the flowchart, the drawing, and the same post without a
diagram: the baseline), --runs times: a cold build (no .folio-cache, no
output: the diagram drawn, Mermaid's interpreter loaded) then a warm one
(the same again: the Markdown cache keeps the page, nothing drawn), with
`-j 1` and FOLIO_TIMINGS. Prints the median (min-max) of the Markdown
stage's milliseconds (the diagram is drawn there; a warm build has no such
stage: "-") and of the process's CPU (user + system), and the diagram's
cost: the median less the baseline's.
Standard library only; the sites are in a temporary folder.
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

FRONT = "---\ntitle: Diagram\ndate: 2026-01-01\n---\nA post.\n\n"


def flowchart50():
    """The 50-node flowchart of bench/mermaid/run.sh: a tree of labelled steps."""
    lines = ["flowchart TD"]
    for i in range(1, 50):
        p = i // 2 + i % 3 - 1 if i > 3 else 0
        lines.append("  n%d[Step %d] --> n%d[Step %d]" % (p, p, i, i))
    return "```mermaid\n" + "\n".join(lines) + "\n```\n"


# The small diagrams of bench/mermaid/run.sh, one of each kind.
KINDS = [
    ("mermaid, flowchart, 4 nodes", "graph LR\n  A[Start] --> B{Is it?}\n  B -->|Yes| C[OK]\n  B -->|No| D[End]\n"),
    ("mermaid, state, 4 states", "stateDiagram-v2\n  [*] --> Still\n  Still --> [*]\n  Still --> Moving\n"
     "  Moving --> Still\n  Moving --> Crash\n  Crash --> [*]\n"),
    ("mermaid, class, 3 classes", "classDiagram\n  Animal <|-- Duck\n  Animal <|-- Fish\n  Animal : +int age\n"
     "  Animal : +isMammal()\n  class Duck{\n    +String beakColor\n    +swim()\n  }\n"),
    ("mermaid, ER, 3 entities", "erDiagram\n  CUSTOMER ||--o{ ORDER : places\n  ORDER ||--|{ LINE-ITEM : contains\n"
     "  CUSTOMER {\n    string name\n    int id PK\n  }\n"),
    ("mermaid, sequence, 3 messages", "sequenceDiagram\n  Alice->>Bob: Hello Bob\n  Bob-->>Alice: Hi Alice\n"
     "  Alice->>Bob: How are you?\n"),
]


def pikchr30():
    """30 objects: three rows of five boxes and the arrows between them."""
    rows = []
    for r in range(3):
        objs = ['box "stage %d.%d" fit' % (r, c) if c % 2 == 0 else "arrow" for c in range(9)]
        if r:
            objs[0] += " with .nw at previous box.sw - (0, 0.3in)"
        rows.append("\n".join(objs))
    text = "\n".join(rows) + "\n"
    n = sum(1 for line in text.splitlines() if line.startswith(("box", "arrow")))
    return "```pikchr\n" + text + "".join('circle "%d" fit\n' % i for i in range(30 - n)) + "```\n"


def site(root, name, body):
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "content", "posts"))
    with open(os.path.join(d, "folio.yml"), "w") as f:
        f.write('title: "Bench"\nbase_url: "https://example.org/"\n')
    with open(os.path.join(d, "content", "posts", "p.md"), "w") as f:
        f.write(FRONT + body)
    return d


def build(folio, d, cold):
    """One build of d: (the Markdown stage's ms, the process's CPU ms)."""
    out = os.path.join(d, "public")
    if cold:
        shutil.rmtree(os.path.join(d, ".folio-cache"), ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, FOLIO_TIMINGS="1", SOURCE_DATE_EPOCH="1790000000")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([folio, "build", d, "-o", out, "-j", "1"], env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit("folio build %s failed:\n%s" % (d, r.stderr))
    m = re.search(r"markdown\+site ([0-9.]+)", r.stderr)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3
    return float(m.group(1)) if m else float("nan"), cpu


def summary(xs):
    if any(x != x for x in xs):  # no Markdown stage: a warm build renders no page
        return "-"
    return "%7.1f (%.1f-%.1f)" % (statistics.median(xs), min(xs), max(xs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folio", default="./folio")
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    folio = os.path.abspath(a.folio)
    root = tempfile.mkdtemp(prefix="folio-diagrams-")
    try:
        sites = [("none (baseline)", site(root, "none", "")),
                 ("mermaid, 50-node flowchart", site(root, "mermaid", flowchart50())),
                 ("pikchr, 30 objects", site(root, "pikchr", pikchr30()))]
        sites += [(name, site(root, "kind%d" % i, "```mermaid\n" + src + "```\n"))
                  for i, (name, src) in enumerate(KINDS)]
        res = {}
        for name, d in sites:
            runs = {"cold": ([], []), "warm": ([], [])}
            for _ in range(a.runs):
                for kind in ("cold", "warm"):
                    md, cpu = build(folio, d, kind == "cold")
                    runs[kind][0].append(md)
                    runs[kind][1].append(cpu)
            res[name] = runs
        base = res[sites[0][0]]
        print("median (min-max) of %d runs, ms; -j 1; diagram = median less the baseline's" % a.runs)
        print("%-30s %-5s %-22s %-22s %9s %9s" % ("site", "build", "markdown stage", "process CPU",
                                                   "diagram", "(CPU)"))
        for name, _ in sites:
            for kind in ("cold", "warm"):
                md, cpu = res[name][kind]
                dm = statistics.median(md) - statistics.median(base[kind][0])
                dc = statistics.median(cpu) - statistics.median(base[kind][1])
                print("%-30s %-5s %-22s %-22s %9s %9.1f" % (name, kind, summary(md), summary(cpu),
                                                            "-" if dm != dm else "%.1f" % dm, dc))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()

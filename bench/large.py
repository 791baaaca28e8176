#!/usr/bin/env python3
"""large.py: issue 44's rows, folio on a very large site (100,000 posts by
default): what an edit costs when the site is big.

Usage: large.py [--folio ./folio] [--posts 100000] [--runs 3]
                [--corpora bench/corpus] [--out bench/out] [--serve-runs 9]
                [--no-compare] [--no-serve]

The corpus (../shared/bench/gen_corpus.py, seed 1) is made once and kept
in --corpora, with its twin of folio's defaults but highlighting and math
(c{N}-lfl, hard links; the search index and the link check on). Measured,
to disk, into --out/large-{N}:
  - cold: no .folio-cache, no output (one run: minutes at 100k);
  - nothing changed (--runs runs);
  - one post's text edited, a line added each run (--runs runs), with
    the search index's CPU time of each (FOLIO_TIMINGS);
  - the output after those edits compared byte for byte with a cold
    build of the same site into another folder (the warm state is put
    aside for it and put back): every file, both ways;
  - folio serve, saved to reload (bench/serve_reload.py, --serve-runs).
Each row: median, min and max of wall, user and sys CPU (wait4), and the
peak RSS in MB. Prints a Markdown table; bench.py runs it last (--large N,
0: not) and appends it to its report.
Standard library only.
"""
import argparse
import filecmp
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from bench import corpus, rm, run, settle  # noqa: E402


def row(name, rows):
    def m(i):
        v = [r[i] for r in rows]
        return f"{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f})"
    rss = statistics.median(r[3] for r in rows)
    return f"| {name} | {m(0)} | {m(1)} | {m(2)} | {rss:.0f} | {len(rows)} |"


def compare(a, b):
    """the paths below a whose file differs in b or is not there, and b's
    files that a's folders lack (a folder of a that b lacks ends in '/';
    b's that a lacks: compare(b, a)), up to about 20"""
    bad = []
    for dirpath, dirs, files in os.walk(a):
        rel = os.path.relpath(dirpath, a)
        other = os.path.join(b, rel)
        if not os.path.isdir(other):
            bad.append(rel + "/")
            continue
        theirs = set(os.listdir(other))
        for f in files:
            if f == ".folio-output":
                continue
            if f not in theirs or not filecmp.cmp(os.path.join(dirpath, f), os.path.join(other, f), shallow=False):
                bad.append(os.path.join(rel, f))
        for f in theirs - set(files) - set(dirs):
            bad.append(os.path.join(rel, f) + " (only in the cold build)")
        if len(bad) >= 20:
            break
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--folio", default=os.path.join(ROOT, "folio"))
    ap.add_argument("--posts", type=int, default=100000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--corpora", default=os.path.join(ROOT, "bench", "corpus"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out"))
    ap.add_argument("--serve-runs", type=int, default=9)
    ap.add_argument("--no-compare", action="store_true")
    ap.add_argument("--no-serve", action="store_true")
    args = ap.parse_args(argv)
    args.folio = os.path.abspath(args.folio)
    os.makedirs(args.corpora, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    _, site, md = corpus(args, args.posts)
    out = os.path.join(args.out, f"large-{args.posts}")
    cache = os.path.join(site, ".folio-cache")
    posts = sorted(f for f in os.listdir(os.path.join(site, "content", "posts")) if f.endswith(".md"))
    post = os.path.join(site, "content", "posts", posts[len(posts) // 3])
    original = open(post, "rb").read()
    # the twin's files are hard links of the corpus's: the edited post
    # becomes a file of its own, so that the corpus stays as generated
    os.unlink(post)
    with open(post, "wb") as f:
        f.write(original)

    def build(env=None):
        settle(out, 3000)
        return run([args.folio, "build", site, "-o", out], env=env)

    lines = [f"## {args.posts} posts ({md / 1e6:.0f} MB of Markdown), folio's defaults but highlighting "
             "and math, to disk", "",
             "| build | wall s | user s | sys s | RSS MB | runs |", "|---|---|---|---|---|---|"]

    def say(s):
        print(s, flush=True)
        lines.append(s)
    for s in lines[:]:
        print(s, flush=True)
    try:
        rm(cache)
        rm(out)
        say(row("cold", [build()]))
        build()  # the state settles (a first warm build takes the spare)
        say(row("nothing changed", [build() for _ in range(args.runs)]))
        edits, search = [], []
        env = dict(os.environ, FOLIO_TIMINGS="1")
        for i in range(args.runs + 1):
            with open(post, "ab") as f:
                f.write(b"\nA line added by large.py, run %d.\n" % i)
            r = build(env)
            m = re.search(r"search index: ([0-9.]+) ms of CPU", r[4])
            if i:  # the first: a warm-up (the spare taken)
                edits.append(r)
                if m:
                    search.append(float(m.group(1)))
        say(row("one post's text edited", edits))
        if search:
            say(f"| (of which the search index, ms of CPU) | {statistics.median(search):.0f} "
                f"({min(search):.0f}–{max(search):.0f}) | | | | {len(search)} |")
        if not args.no_compare:
            aside = cache + ".large-aside"
            rm(aside)
            os.rename(cache, aside)
            cold = out + "-cold"
            rm(cold)
            try:
                run([args.folio, "build", site, "-o", cold])
                # (the folders only the cold build has, from the other side)
                bad = compare(out, cold) + [p + " (only in the cold build)" for p in compare(cold, out)
                                            if p.endswith("/")]
            finally:
                rm(cache)
                os.rename(aside, cache)
                rm(cold)
            say("")
            say(f"- after the edits, the output and a cold build's: "
                f"{'byte for byte the same' if not bad else 'DIFFERENT: ' + ', '.join(bad[:5])}")
    finally:
        with open(post, "wb") as f:
            f.write(original)
    if not args.no_serve:
        r = subprocess.run([sys.executable, os.path.join(HERE, "serve_reload.py"), "--folio", args.folio,
                            "--site", site, "--runs", str(args.serve_runs)], capture_output=True, text=True)
        summary = [l for l in r.stdout.splitlines() if l.startswith(("saved to reload", "server:"))]
        say("")
        for l in summary or ["folio serve: " + (r.stdout + r.stderr).strip()[-300:]]:
            say(f"- folio serve, {l}")
    print()
    return lines + [""]


if __name__ == "__main__":
    main()

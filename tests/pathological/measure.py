#!/usr/bin/env python3
"""measure.py: the build time of every pathological case of gen.py against
the goal of 0.5 s for 1 MiB of input (issue 7), on the release binary.

    measure.py [--folio ./folio] [--cmark CMARK_TIME] [--runs 3] [--size BYTES] [NAME...]

Each case is built --runs times from a cold start (no .folio-cache, no
output folder). Printed: the median wall time (the goal's measure) and CPU
time (user + system: steadier on a busy machine), and with --cmark (the
cmark_time program of this folder) the time cmark-gfm alone takes to parse
and render the post, to tell cmark's share from folio's. First comes the
same site with a one-word post (the cost of the theme's other pages), last
the slowest case. Run with `make bench-patho`. The test (run.py) only
checks that nothing hangs; speed lives here.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

GOAL = 0.5


def build_time(folio, site, out):
    """(wall seconds, CPU seconds, exit status) of one cold build."""
    shutil.rmtree(os.path.join(site, ".folio-cache"), ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.monotonic()
    p = subprocess.Popen([folio, "build", site, "-o", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return time.monotonic() - t0, ru.ru_utime + ru.ru_stime, p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folio", default=os.environ.get("FOLIO", "./folio"))
    ap.add_argument("--cmark", help="the cmark_time program")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--size", type=int, default=gen.MIB)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    cases = [gen.by_name(n) for n in args.names] if args.names else gen.CASES
    tmp = tempfile.mkdtemp(prefix="folio-measure-")
    rows = []
    try:
        base = gen.Case("baseline", "render", lambda size: {"folio.yml": gen.CONFIG.encode(),
                                                            "content/posts/case.md": gen.FRONT.encode() + b"a\n"})
        print("%-28s %-6s %4s %8s %8s %8s  %s" % ("case", "kind", "exit", "wall", "cpu", "cmark",
                                                  "(medians; goal %.1f s)" % GOAL))
        for case in [base] + cases:
            site, out = os.path.join(tmp, "site"), os.path.join(tmp, "out")
            shutil.rmtree(site, ignore_errors=True)
            gen.write(case, site, args.size)
            times, cpus, code = [], [], 0
            for _ in range(args.runs):
                t, cpu, code = build_time(args.folio, site, out)
                times.append(t)
                cpus.append(cpu)
            m = statistics.median(times)
            mark = "over" if m > GOAL else ""
            post = os.path.join(site, "content", "posts", "case.md")
            cm = "-"
            if args.cmark and os.path.exists(post) and os.path.getsize(post) <= 16 * gen.MIB:
                r = [float(subprocess.run([args.cmark, post], capture_output=True, text=True).stdout.split()[0])
                     for _ in range(args.runs)]
                cm = "%.3fs" % statistics.median(r)
            print("%-28s %-6s %4d %7.3fs %7.3fs %8s  %s" % (case.name, case.kind, code, m, statistics.median(cpus),
                                                            cm, mark), flush=True)
            if case is not base:
                rows.append((m, case.name))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    rows.sort(reverse=True)
    over = [r for r in rows if r[0] > GOAL]
    print("slowest: %s in %.3f s; %d of %d cases over %.1f s" % (rows[0][1], rows[0][0], len(over), len(rows), GOAL))
    return 0


if __name__ == "__main__":
    sys.exit(main())

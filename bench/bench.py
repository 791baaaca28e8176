#!/usr/bin/env python3
"""bench.py: `make bench`: folio's build speed on the deterministic corpora,
side by side with Hugo when it is installed.

Usage: bench.py [--folio ./folio] [--hugo hugo] [--sizes 1000,10000]
                [--runs 5] [--corpora bench/corpus] [--report bench/out/report.md]
                [--only disk|tmpfs] [--no-search]
                [--no-images | --images-only] [--images 40] [--image-runs 3]
                [--no-refs] [--large 100000]

For each corpus size (made by ../shared/bench/gen_corpus.py, seed 1, once;
kept in --corpora):
  - folio, full features (highlighting and math on) and like for like
    (highlighting and math off, as the Hugo site has neither): cold (no
    .folio-cache, no output) and warm (cache present, output present,
    nothing changed; and, like for like, with one post's times changed,
    its bytes the same, and with one post's text edited); to disk and to
    /dev/shm where it exists;
  - Hugo on bench/hugo/ (the same content, one page per post, home, tag,
    category and series pages, a year archive, feeds, sitemap), cold,
    alternating with folio's cold runs like for like (a twin with neither
    a search index nor a link check, which the Hugo site has not) and
    with highlighting and math off (the search index and link check on);
    the ratios against issue 40's goals (user CPU 8x and wall 3x like for
    like, user CPU 6x with the search index and link check);
  - the link check's cost: cold full-feature builds with links.check on
    (the default) and off, alternating, and the number of links checked;
  - the floor: `cp -r` of folio's output folder, on the same file system.
  - search (bench/search_bench.py), on the largest corpus: the index's cost
    in folio's cold build (search on and off), beside Pagefind 1.6.0 run on
    the same output (bench/package.json; `npm ci` in bench/), both indexes'
    size, bytes received for a first and a second query and keypress to
    results in headless chromium, and a relevance set (--no-search: none).
  - images (bench/images.py): resized copies of --images photographs and
    screenshots (bench/gen_images.py), folio beside Hugo on the same
    images, cold and warm, --image-runs runs (--no-images: none;
    --images-only: that row alone, no corpus of posts).
  - references (bench/refs.py), on the largest corpus: numbered figures,
    tables and equations, references across posts and citations, beside
    a twin with the same text written out (--no-refs: none).
  - a large site (bench/large.py, --large posts, 100,000 by default; 0:
    none): cold, nothing changed, one post edited (and the search index's
    share), the output then compared with a cold build's, folio serve's
    save to reload. It takes a quarter of an hour and 5 GB of memory.
Each figure is one warm-up run, then --runs measured runs: median, min and
max of wall time, user and system CPU (of the process and its threads, from
wait4), peak RSS, pages written and MB of Markdown per second. Standard
library only.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, cwd=None, env=None):
    """Runs cmd; returns (wall s, user s, sys s, peak RSS MB, output)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.read().decode("utf-8", "replace")
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed ({p.returncode}):\n{out[-2000:]}")
    return wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss / 1024.0, out


def reporter():
    """The report's lines, and say(line): prints a line and adds it to them."""
    lines = []

    def say(s=""):
        print(s, flush=True)
        lines.append(s)
    return lines, say


def rm(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.lexists(path):
        os.unlink(path)


def settle(out, tenths=600):
    """A big site's old copy is deleted in the background after the swap:
    waits for that to end (up to tenths of a second), so that runs do not
    overlap. (The spare, .OUT.folio-spare, stays: it is the next build's
    staging folder, not a deletion.)"""
    parent, base = os.path.split(out)
    for _ in range(tenths):
        if not any(n.startswith("." + base + ".folio-") and not n.endswith(".folio-spare")
                   for n in os.listdir(parent)):
            return
        time.sleep(0.1)


def make_twin(site, suffix, extra, twin=None):
    """A site beside site (or at twin) with the same content and folio.yml
    plus extra. Its folders are hard links of site's files (a symbolic link
    out of a site folder is an error to folio)."""
    twin = twin or site + suffix
    if not os.path.exists(os.path.join(twin, "folio.yml")):
        rm(twin)
        os.makedirs(twin)
        with open(os.path.join(site, "folio.yml")) as f:
            cfg = f.read()
        with open(os.path.join(twin, "folio.yml"), "w") as f:
            f.write(cfg.rstrip("\n") + "\n" + extra)
        for sub in ("content", "static", "data", "templates"):
            if os.path.exists(os.path.join(site, sub)):
                shutil.copytree(os.path.join(site, sub), os.path.join(twin, sub), copy_function=os.link)
    return twin


def corpus(args, n):
    """The folio site of n posts, and a like-for-like twin sharing its
    content (highlighting and math off)."""
    site = os.path.join(args.corpora, f"c{n}")
    if not os.path.exists(os.path.join(site, "folio.yml")):
        gen = os.path.join(ROOT, "..", "shared", "bench", "gen_corpus.py")
        print(f"bench: generating the {n}-post corpus into {site}", flush=True)
        subprocess.run([sys.executable, gen, "--posts", str(n), "--seed", "1", "--out", site], check=True)
    twin = make_twin(site, "-lfl", "# like for like with the Hugo site\nhighlight: false\nmath: false\n")
    md = 0
    for dirpath, _, files in os.walk(os.path.join(site, "content")):
        md += sum(os.path.getsize(os.path.join(dirpath, f)) for f in files if f.endswith(".md"))
    return site, twin, md


def stats(rows, md_bytes):
    """Summary of measured runs: each figure as (median, min, max)."""
    def f(i):
        v = [r[i] for r in rows]
        return statistics.median(v), min(v), max(v)
    wall, user, sys_, rss = f(0), f(1), f(2), f(3)
    return {"wall": wall, "user": user, "sys": sys_, "rss": rss, "pages": rows[-1][5],
            "mbs": md_bytes / 1e6 / wall[0]}


def fmt(s):
    m = lambda t, u="s": f"{t[0]:.2f} ({t[1]:.2f}–{t[2]:.2f})"
    return (f"{m(s['wall'])} | {m(s['user'])} | {m(s['sys'])} | {s['rss'][0]:.0f} | {s['pages']} | "
            f"{s['mbs']:.1f}")


def folio_pages(out):
    m = re.search(r"built (\d+) pages", out)
    return int(m.group(1)) if m else 0


def hugo_pages(out):
    m = re.search(r"Pages\s*\|\s*(\d+)", out)
    p = int(m.group(1)) if m else 0
    m = re.search(r"Paginator pages\s*\|\s*(\d+)", out)
    return p + (int(m.group(1)) if m else 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folio", default=os.path.join(ROOT, "folio"))
    ap.add_argument("--hugo", default=shutil.which("hugo"))
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--corpora", default=os.path.join(ROOT, "bench", "corpus"))
    ap.add_argument("--report", default=os.path.join(ROOT, "bench", "out", "report.md"))
    ap.add_argument("--only", choices=["disk", "tmpfs"], help="measure to one of them only")
    ap.add_argument("--no-search", action="store_true", help="leave out search_bench.py")
    img = ap.add_mutually_exclusive_group()
    img.add_argument("--no-images", action="store_true", help="leave out the image row (images.py)")
    img.add_argument("--images-only", action="store_true", help="the image row alone")
    ap.add_argument("--images", type=int, default=40, help="images in the image row's corpus")
    ap.add_argument("--image-runs", type=int, default=3, help="measured runs of the image row")
    ap.add_argument("--no-refs", action="store_true", help="leave out the references row (refs.py)")
    ap.add_argument("--large", type=int, default=100000,
                    help="posts of the large site's rows (large.py: issue 44's); 0: leave them out")
    args = ap.parse_args()
    if args.images_only:
        args.sizes, args.no_search, args.no_refs, args.large = "", True, True, 0
    args.folio = os.path.abspath(args.folio)
    os.makedirs(args.corpora, exist_ok=True)
    dests = [("disk", os.path.join(ROOT, "bench", "out"))]
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        dests.append(("tmpfs", f"/dev/shm/folio-bench-{os.getpid()}"))
    if args.only:
        dests = [d for d in dests if d[0] == args.only]
    lines, say = reporter()

    with open("/proc/cpuinfo") as f:
        cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    say(f"# folio benchmark, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    say()
    version = run([args.folio, "--version"])[4].splitlines()[0].strip()
    say(f"- machine: {os.cpu_count()} cores ({cpu}); {version}; "
        f"{'Hugo ' + run([args.hugo, 'version'])[4].split()[1] if args.hugo else 'no Hugo installed'}")
    if args.sizes:
        say(f"- {args.runs} measured runs after one warm-up; figures are median (min–max); "
            "user and sys are CPU seconds, RSS is the peak in MB")
    say()
    scaling = {}
    nlinks, link_cost = {}, {}
    for n in [int(x) for x in args.sizes.split(",") if x]:
        site, twin, md = corpus(args, n)
        for dname, dbase in dests:
            os.makedirs(dbase, exist_ok=True)
            out = os.path.join(dbase, f"folio-{n}")
            hout = os.path.join(dbase, f"hugo-{n}")
            say(f"## {n} posts ({md / 1e6:.1f} MB of Markdown), to {dname}")
            say()
            say("| build | wall s | user s | sys s | RSS MB | pages | MB/s |")
            say("|---|---|---|---|---|---|---|")
            res = {}

            def folio_cold(s):
                settle(out)
                rm(os.path.join(s, ".folio-cache"))
                rm(out)
                r = run([args.folio, "build", s, "--future", "-o", out])
                return r[:4] + (r[4], folio_pages(r[4]))

            def folio_warm(s):
                settle(out)
                r = run([args.folio, "build", s, "--future", "-o", out])
                return r[:4] + (r[4], folio_pages(r[4]))

            def hugo_cold():
                rm(hout)
                cache = hout + "-cache"
                rm(cache)
                r = run([args.hugo, "--source", os.path.join(ROOT, "bench", "hugo"), "--contentDir",
                         os.path.join(os.path.abspath(site), "content"), "--destination", hout, "--buildFuture",
                         "--cacheDir", cache])
                return r[:4] + (r[4], hugo_pages(r[4]))

            # cold, alternating: folio like for like (the Hugo site has no
            # search index and no link check: neither has this twin), folio
            # with its defaults but highlighting and math (search and link
            # check on), and Hugo
            bare = make_twin(site, "-bare", "# like for like with the Hugo site, search and link check too\n"
                             "highlight: false\nmath: false\nsearch: false\nlinks:\n  check: off\n")
            lfl, bar, hug = [], [], []
            for i in range(args.runs + 1):
                c = folio_cold(bare)
                a = folio_cold(twin)
                b = hugo_cold() if args.hugo else None
                if i:
                    bar.append(c)
                    lfl.append(a)
                    if b:
                        hug.append(b)
            res["bare-cold"] = stats(bar, md)
            say(f"| folio, like for like (no search index, no link check), cold | {fmt(res['bare-cold'])} |")
            res["lfl-cold"] = stats(lfl, md)
            say(f"| folio, highlighting and math off (search and link check on), cold | {fmt(res['lfl-cold'])} |")
            if hug:
                res["hugo"] = stats(hug, md)
                say(f"| Hugo {'(same content)'} | {fmt(res['hugo'])} |")
            folio_cold(twin)
            warm = [folio_warm(twin) for _ in range(args.runs + 1)][1:]
            res["lfl-warm"] = stats(warm, md)
            say(f"| folio, like for like, warm (nothing changed) | {fmt(res['lfl-warm'])} |")

            def folio_touched(s):
                # one post's times change, not its text: a warm build that
                # must look at everything, rendering no page
                posts = os.path.join(s, "content", "posts")
                first = sorted(os.listdir(posts))[0]
                p = os.path.join(posts, first)
                if os.path.isdir(p):
                    p = os.path.join(p, "index.md")
                os.utime(p)
                return folio_warm(s)

            warm = [folio_touched(twin) for _ in range(args.runs + 1)][1:]
            res["lfl-touched"] = stats(warm, md)
            say(f"| folio, like for like, warm (one post touched) | {fmt(res['lfl-touched'])} |")

            def folio_edited(s, i):
                # one post's text changes (a sentence added): its page,
                # the pages that show its summary or reading time, the
                # search index and the Markdown cache are made again
                posts = os.path.join(s, "content", "posts")
                first = sorted(os.listdir(posts))[0]
                p = os.path.join(posts, first)
                if os.path.isdir(p):
                    p = os.path.join(p, "index.md")
                with open(p, "a") as f:
                    f.write(f"\nOne more sentence, edit {i}.\n")
                return folio_warm(s)

            warm = [folio_edited(twin, i) for i in range(args.runs + 1)][1:]
            res["lfl-edited"] = stats(warm, md)
            say(f"| folio, like for like, warm (one post's text edited) | {fmt(res['lfl-edited'])} |")
            # the cost of the link check: cold builds with links.check on
            # (the default) and off, alternating
            nolinks = make_twin(site, "-nolinks", "links:\n  check: off\n")
            full, off = [], []
            for i in range(args.runs + 1):
                a = folio_cold(site)
                b = folio_cold(nolinks)
                if i:
                    full.append(a)
                    off.append(b)
            res["full-cold"] = stats(full, md)
            say(f"| folio, highlighting and math, cold | {fmt(res['full-cold'])} |")
            res["nolinks-cold"] = stats(off, md)
            say(f"| folio, highlighting and math, cold, links.check: off | {fmt(res['nolinks-cold'])} |")
            links = re.search(r"(\d+) internal links", run([args.folio, "check", site, "--future"])[4])
            nlinks[n] = int(links.group(1)) if links else 0
            cpu_on = statistics.median(r[1] + r[2] for r in full)
            cpu_off = statistics.median(r[1] + r[2] for r in off)
            link_cost[(n, dname)] = (statistics.median(r[1] for r in full), statistics.median(r[1] for r in off),
                                     cpu_on, cpu_off)
            warm = [folio_warm(site) for _ in range(args.runs + 1)][1:]
            res["full-warm"] = stats(warm, md)
            say(f"| folio, highlighting and math, warm | {fmt(res['full-warm'])} |")
            settle(out)
            cps = []
            for i in range(args.runs + 1):
                rm(out + "-copy")
                r = run(["cp", "-r", out, out + "-copy"])
                if i:
                    cps.append(r[:4] + ("", 0))
            rm(out + "-copy")
            res["cp"] = stats(cps, md)
            say(f"| floor: cp -r of folio's output | {fmt(res['cp'])} |")
            say()
            if dname == dests[-1][0]:
                # folio serve: from saving a post to the reload event an
                # open tab receives (bench/serve_reload.py); goal at 10k:
                # median <= 50 ms, max <= 100 ms
                sr = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "serve_reload.py"), "--folio",
                                     args.folio, "--site", site, "--runs", "9", "--future"],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                m = re.search(r"median ([\d.]+) ms, min ([\d.]+) ms, max ([\d.]+) ms", sr.stdout)
                if m:
                    say(f"folio serve, one post edited, saved to reload (9 runs): median {m.group(1)} ms, "
                        f"min {m.group(2)} ms, max {m.group(3)} ms; goal: median <= 50 ms, max <= 100 ms")
                else:
                    say("folio serve: serve_reload.py failed:\n" + sr.stdout[-1000:])
                say()
            if "hugo" in res:
                h, c, w = res["hugo"], res["lfl-cold"], res["lfl-warm"]
                b = res["bare-cold"]
                say(f"Hugo/folio, like for like (no search, no link check), cold: user CPU "
                    f"{h['user'][0] / b['user'][0]:.1f}x (goal: at least 8x), wall {h['wall'][0] / b['wall'][0]:.1f}x "
                    f"(goal: at least 3x); with the search index and the link check: user CPU "
                    f"{h['user'][0] / c['user'][0]:.1f}x (goal: at least 6x)")
                say(f"Hugo/folio, highlighting and math off, cold: user CPU {h['user'][0] / c['user'][0]:.1f}x, "
                    f"wall {h['wall'][0] / c['wall'][0]:.1f}x, peak RSS {h['rss'][0] / c['rss'][0]:.1f}x; "
                    f"Hugo's build / folio's warm rebuild, wall: {h['wall'][0] / w['wall'][0]:.1f}x "
                    f"(one post touched: {h['wall'][0] / res['lfl-touched']['wall'][0]:.1f}x)")
                say()
            on_u, off_u, on_c, off_c = link_cost[(n, dname)]
            say(f"Link check: {nlinks[n]} internal links; a cold build's user CPU {on_u:.2f} s with "
                f"links.check on, {off_u:.2f} s off ({(on_u / off_u - 1) * 100:+.1f}%; user+sys "
                f"{(on_c / off_c - 1) * 100:+.1f}%); goal: at most +10%")
            say()
            scaling[(n, dname)] = res["lfl-cold"]["wall"][0]
            rm(out)
            rm(hout)
            rm(hout + "-cache")
        say()
    sizes = sorted({n for n, _ in scaling})
    if len(sizes) >= 2:
        for dname, _ in dests:
            a, b = scaling.get((sizes[0], dname)), scaling.get((sizes[-1], dname))
            if a and b:
                say(f"Scaling ({dname}): {sizes[-1]} posts take {b / a:.1f}x the time of {sizes[0]} "
                    f"(like for like, cold, wall)")
    if not args.no_search and sizes:
        import search_bench
        site, _, _ = corpus(args, sizes[-1])
        lines += search_bench.main(["--folio", args.folio, "--site", site, "--runs", str(args.runs),
                                    "--pagefind-runs", str(min(3, args.runs)), "--out", dests[0][1]])
    if not args.no_refs and sizes:
        import refs
        site, _, _ = corpus(args, sizes[-1])
        lines += refs.main(["--folio", args.folio, "--site", site, "--runs", str(min(3, args.runs)),
                            "--out", dests[0][1]])
    if not args.no_images:
        import images
        lines += images.main(["--folio", args.folio, "--images", str(args.images), "--runs", str(args.image_runs),
                              "--corpora", args.corpora, "--out", dests[0][1]]
                             + (["--hugo", args.hugo] if args.hugo else ["--hugo", ""]))
    if args.large:
        import large
        lines += large.main(["--folio", args.folio, "--posts", str(args.large), "--runs", str(min(3, args.runs)),
                             "--corpora", args.corpora, "--out", dests[0][1]])
    for dname, dbase in dests:
        if dname == "tmpfs":
            rm(dbase)
    os.makedirs(os.path.dirname(args.report), exist_ok=True)
    with open(args.report, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"bench: report written to {args.report}")


if __name__ == "__main__":
    main()

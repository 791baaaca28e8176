#!/usr/bin/env python3
"""search_bench.py: folio's search index beside Pagefind (bench/package.json
pins it; `npm ci` in bench/ installs it), on one corpus. Run by bench.py
(`make bench`) for the largest size, or alone:

  search_bench.py --folio ./folio --site bench/corpus/c10000 [--runs 5]

Measures, medians of --runs after one warm-up:
  - folio's cold build with search on (the default) and off (a twin site
    with `search: false`), alternating: the index's extra wall, user and
    sys CPU and peak memory;
  - Pagefind 1.6.0 run on the same output (its binary, for its own CPU and
    memory; fewer runs, it is slow), and both indexes' size and files;
  - in headless chromium (bench/search_browser.mjs), the output served
    with gzip as a static host would: bytes received for a first query of
    a typical word (the script and all it fetches) and for a second one,
    from the network log; the time from a keypress to its results drawn;
    and the relevance set of both.
The relevance set of the corpus is made from it by rules (relevance_set),
not from any search's results: each query and the post that must be in
its first three. Prints a Markdown section, returned to bench.py.
"""
import argparse
import gzip
import http.server
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

ROOT = bench.ROOT
FIRST, SECOND = "allocator", "scheduler"
KEYS = ["profiling", "latency", "compiler", "replica", "tokenizer", "bandwidth", "pipeline", "checkpoint",
        "scheduler", "allocation", "coroutine"]

STOP = {"a", "an", "the", "and", "or", "of", "to", "in", "for", "with", "on", "is", "are", "from", "by", "i",
        "what", "about", "why", "how", "part", "notes", "on", "at", "it", "vs", "we"}


def title_words(t):
    return [w for w in re.findall(r"[a-z0-9]+", t.lower()) if w not in STOP and not w.isdigit()]


def front(path):
    text = open(path, encoding="utf-8").read()
    m = re.match(r"---\n(.*?)\n---\n", text, re.S)
    fm, body = (m.group(1), text[m.end():]) if m else ("", text)
    title = re.search(r'^title:\s*"?(.*?)"?\s*$', fm, re.M)
    tags = re.findall(r"^  - (.+)$", fm.split("tags:", 1)[1], re.M) if "tags:" in fm else []
    draft = re.search(r"^draft:\s*true", fm, re.M)
    return (title.group(1) if title else ""), [t.strip() for t in tags], body, bool(draft)


def inflect(w):
    """Another form of w, as Snowball's English stemmer takes it back."""
    if w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith("y") and len(w) > 3:
        return w[:-1] + "ies"
    if w.endswith("ing"):
        return w[:-3] + "ed"
    if w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w + "s"


def relevance_set(site, n_each=5, seed=1):
    """Queries of the corpus, by kind, each with the post (its URL) that
    must be in the first three: titles, headings and tags that are unique
    in the corpus, in whole or in part."""
    posts = {}
    d = os.path.join(site, "content", "posts")
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        if os.path.isdir(p):
            p = os.path.join(p, "index.md")
        title, tags, body, draft = front(p)
        if not draft:
            posts["/posts/%s/" % os.path.splitext(name)[0]] = (title, tags, body)
    rnd = random.Random(seed)
    by_title = {}
    for url, (t, _, _) in posts.items():
        by_title.setdefault(tuple(title_words(t)), []).append(url)
    unique = sorted((k, v[0]) for k, v in by_title.items() if len(v) == 1 and len(k) >= 3)
    rnd.shuffle(unique)
    out = []
    for words, url in unique[:n_each]:
        out.append((" ".join(words), "title", url))
    for words, url in unique[n_each:2 * n_each]:
        w = list(words)
        w[-1] = inflect(w[-1])
        w[0] = inflect(w[0])
        out.append((" ".join(w), "stem", url))
    for words, url in unique[2 * n_each:3 * n_each]:
        last = words[-1]
        out.append((" ".join(words[:-1] + (last[:max(3, (len(last) * 2 + 2) // 3)],)), "prefix", url))
    # two words: a pair of title words that only one title has
    pairs = {}
    for url, (t, _, _) in posts.items():
        ws = sorted(set(title_words(t)))
        for i in range(len(ws)):
            for j in range(i + 1, len(ws)):
                pairs.setdefault((ws[i], ws[j]), []).append(url)
    two = sorted((k, v[0]) for k, v in pairs.items() if len(v) == 1)
    rnd.shuffle(two)
    for (a, b), url in two[:n_each]:
        out.append(("%s %s" % (a, b), "two words", url))
    # headings that one post alone has
    heads = {}
    for url, (_, _, body) in posts.items():
        for h in re.findall(r"^#{2,3} (.+)$", body, re.M):
            heads.setdefault(h.strip().lower(), set()).add(url)
    # of those, the ones whose words the fewest posts have (a heading of
    # common words is no better found than any post with them)
    df = {}
    for _, (t, _, body) in posts.items():
        for w in set(re.findall(r"[a-z0-9]+", (t + " " + body).lower())):
            df[w] = df.get(w, 0) + 1
    hs = sorted((sum(df.get(w, 0) for w in title_words(h)), h, next(iter(u))) for h, u in heads.items()
                if len(u) == 1 and len(title_words(h)) >= 2)
    for _, h, url in hs[:n_each]:
        out.append((" ".join(title_words(h)), "heading", url))
    # a tag with the title words that make it one post's
    tagged = sorted((url, tags, title_words(t)) for url, (t, tags, _) in posts.items() if tags)
    rnd.shuffle(tagged)
    k = 0
    for url, tags, tw in tagged:
        if k == n_each:
            break
        tag = tags[0]
        for m in range(1, len(tw) + 1):
            q = set(tw[:m])
            hits = [u for u, (t, tg, _) in posts.items() if tag in tg and q <= set(title_words(t))]
            if hits == [url]:
                out.append(("%s %s" % (tag, " ".join(tw[:m])), "tag", url))
                k += 1
                break
    # series: each name finds its guide
    sd = os.path.join(site, "content", "series")
    names = []
    for name in sorted(os.listdir(sd)):
        t, _, _, _ = front(os.path.join(sd, name))
        names.append((t.lower(), "series", "/series/%s/" % os.path.splitext(name)[0]))
    rnd.shuffle(names)
    out += names[:n_each]
    return out


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzipped when the client takes it (as a static host
    does), but for files that are compressed already (Pagefind's)."""

    def log_message(self, *a):
        pass

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path) or "gzip" not in self.headers.get("Accept-Encoding", ""):
            return super().send_head()
        data = open(path, "rb").read()
        if data[:2] == b"\x1f\x8b" or path.endswith((".png", ".jpg", ".woff2")):
            return super().send_head()
        body = gzip.compress(data, 6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return __import__("io").BytesIO(body)


def serve(folder):
    h = lambda *a, **k: Handler(*a, directory=folder, **k)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def tree_size(path, skip=()):
    n = size = 0
    for dp, _, fs in os.walk(path):
        for f in fs:
            if f in skip:
                continue
            n += 1
            size += os.path.getsize(os.path.join(dp, f))
    return n, size


def pagefind_binary():
    d = os.path.join(ROOT, "bench", "node_modules", "@pagefind")
    for sub in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        for name in ("pagefind_extended", "pagefind"):
            p = os.path.join(d, sub, "bin", name)
            if os.path.isfile(p) and os.access(p, os.X_OK):
                return p
    return None


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--folio", default=os.path.join(ROOT, "folio"))
    ap.add_argument("--site", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pagefind-runs", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out"))
    args = ap.parse_args(argv)
    lines, say = bench.reporter()

    site = os.path.abspath(args.site)
    os.makedirs(args.out, exist_ok=True)
    # twins of the corpus in --out (hard links): builds leave the corpus
    # as it is
    work = os.path.join(args.out, "search-sites")
    os.makedirs(work, exist_ok=True)
    on_site = bench.make_twin(site, "", "", os.path.join(work, "on"))
    off = bench.make_twin(site, "", "search: false\n", os.path.join(work, "off"))
    out = os.path.join(args.out, "search-on")
    out_off = os.path.join(args.out, "search-off")

    def cold(s, o):
        bench.rm(os.path.join(s, ".folio-cache"))
        bench.rm(o)
        return bench.run([args.folio, "build", s, "--future", "-o", o])

    on_r, off_r = [], []
    for i in range(args.runs + 1):
        a = cold(on_site, out)
        b = cold(off, out_off)
        if i:
            on_r.append(a)
            off_r.append(b)
    med = lambda rows, k: statistics.median(r[k] for r in rows)
    say("## Search: folio's index beside Pagefind 1.6.0")
    say()
    say(f"{os.path.basename(site)}: folio's cold build with search on and off, alternating, "
        f"{args.runs} runs after a warm-up (medians):")
    say()
    say("| build | wall s | user s | sys s | user+sys s | peak RSS MB |")
    say("|---|---|---|---|---|---|")
    for name, rows in (("search on", on_r), ("search: false", off_r)):
        say(f"| folio, {name} | {med(rows, 0):.2f} | {med(rows, 1):.2f} | {med(rows, 2):.2f} | "
            f"{statistics.median(r[1] + r[2] for r in rows):.2f} | {med(rows, 3):.0f} |")
    extra_user = med(on_r, 1) - med(off_r, 1)
    extra_cpu = statistics.median(r[1] + r[2] for r in on_r) - statistics.median(r[1] + r[2] for r in off_r)
    extra_rss = med(on_r, 3) - med(off_r, 3)
    extra_wall = med(on_r, 0) - med(off_r, 0)

    pf = pagefind_binary()
    pf_rows = []
    if pf:
        for i in range(args.pagefind_runs + 1):
            bench.rm(os.path.join(out, "pagefind"))
            r = bench.run([pf, "--site", out, "--output-subdir", "pagefind"])
            if i:
                pf_rows.append(r)
        say(f"| Pagefind 1.6.0 on that output ({args.pagefind_runs} runs) | {med(pf_rows, 0):.2f} | "
            f"{med(pf_rows, 1):.2f} | {med(pf_rows, 2):.2f} | "
            f"{statistics.median(r[1] + r[2] for r in pf_rows):.2f} | {med(pf_rows, 3):.0f} |")
    say()
    say(f"The index's cost in folio's cold build: {extra_user:+.2f} s user CPU ({extra_cpu:+.2f} s user+sys, "
        f"{extra_wall:+.2f} s wall), {extra_rss:+.0f} MB peak memory; goal: at most 1.0 s and 100 MB"
        + (f" (Pagefind: {med(pf_rows, 1):.1f} s user, {med(pf_rows, 2):.1f} s sys, "
           f"{med(pf_rows, 3):.0f} MB)" if pf_rows else ""))
    say()
    fn, fs = tree_size(os.path.join(out, "search"), skip=("index.html",))
    say(f"Index size: folio {fs / 1e6:.1f} MB in {fn} files"
        + (lambda t: f"; Pagefind {t[1] / 1e6:.1f} MB in {t[0]} files; folio/Pagefind "
           f"{fs / t[1]:.3f} (goal: at most 0.25)")(tree_size(os.path.join(out, "pagefind"))) if pf_rows else "")
    say()

    # the browser: both indexes in one output, served gzipped
    bench_page = os.path.join(out, "pagefind-bench.html")
    with open(bench_page, "w") as f:
        f.write('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pagefind</title>'
                '<link href="/pagefind/pagefind-ui.css" rel="stylesheet">'
                '<script src="/pagefind/pagefind-ui.js"></script></head><body><div id="search"></div>'
                '<script>new PagefindUI({ element: "#search", showSubResults: false });</script></body></html>\n')
    rel = relevance_set(site)
    qfile = os.path.join(args.out, "search-relevance.tsv")
    with open(qfile, "w") as f:
        f.write("# query\tkind\tpage (made from the corpus by search_bench.py's relevance_set)\n")
        for q in rel:
            f.write("\t".join(q) + "\n")
    srv = serve(out)
    env = dict(os.environ, BASE_URL="http://127.0.0.1:%d" % srv.server_address[1],
               PLAYWRIGHT=os.path.join(ROOT, "tests", "browser", "node_modules", "playwright-core", "index.mjs"),
               QUERIES=qfile, FIRST=FIRST, SECOND=SECOND, KEYS=" ".join(KEYS),
               PAGEFIND="/pagefind-bench.html" if pf_rows else "")
    p = subprocess.run(["node", os.path.join(ROOT, "bench", "search_browser.mjs")], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=1800)
    srv.shutdown()
    try:
        b = json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        say("search_browser.mjs failed:\n" + p.stdout[-1500:] + p.stderr[-1500:])
        return lines
    with open(os.path.join(args.out, "search-browser.json"), "w") as f:
        json.dump(b, f, indent=1)
    say(f"In headless chromium, served with gzip; bytes received from the network log (the page's HTML and "
        f"CSS left out): a first query (\"{FIRST}\", after the page's load: the script and all it fetches) "
        f"and a second (\"{SECOND}\"), and the time from the last keypress of a word to its results drawn "
        f"(median of {len(KEYS)} words, after the first load):")
    say()
    say("| | first query | second query | keypress to results |")
    say("|---|---|---|---|")
    for who in ("folio", "pagefind"):
        if who + "_first" not in b:
            continue
        f1, f2 = b[who + "_first"], b[who + "_second"]
        say(f"| {'folio' if who == 'folio' else 'Pagefind 1.6.0 (its UI)'} | {f1['bytes'] / 1000:.1f} KB "
            f"({f1['files']} files) | {f2['bytes'] / 1000:.1f} KB ({f2['files']} files) | "
            f"{b[who + '_keypress_median']:.1f} ms |")
    if "pagefind_first" in b:
        say()
        say(f"folio/Pagefind bytes: first query {b['folio_first']['bytes'] / b['pagefind_first']['bytes']:.2f}, "
            f"second {b['folio_second']['bytes'] / max(1, b['pagefind_second']['bytes']):.2f} (goal: at most 0.5); "
            f"keypress to results goal: at most 50 ms")
    say()
    say(f"Relevance on this corpus ({len(rel)} queries made from it; the page must be among the first three):")
    say()
    say("| query | kind | page | folio | Pagefind |")
    say("|---|---|---|---|---|")
    fr = b.get("folio_relevance", [])
    pr = {x["q"]: x for x in b.get("pagefind_relevance", [])}
    for x in fr:
        y = pr.get(x["q"])
        say(f"| {x['q']} | {x['kind']} | {x['want']} | {'yes' if x['hit'] else 'no'} | "
            f"{('yes' if y['hit'] else 'no') if y else '-'} |")
    say()
    say(f"folio: {sum(x['hit'] for x in fr)} of {len(fr)}"
        + (f"; Pagefind: {sum(x['hit'] for x in pr.values())} of {len(pr)}" if pr else ""))
    say()
    bench.rm(out_off)
    bench.rm(work)
    return lines


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""images.py: `make bench`'s image row: folio's resized copies of a site's
photographs and screenshots beside Hugo's, on the same images.

Usage: images.py [--folio ./folio] [--hugo hugo] [--images 40] [--runs 3]
                 [--corpora bench/corpus] [--out bench/out]
(bench.py calls main() and appends its lines to bench/out/report.md;
run alone, it prints them.)

The corpus is bench/gen_images.py's (seed 1, made once, kept in
--corpora): page bundles of JPEG photographs and PNG screenshots. folio
builds it with its default images: settings (widths 480, 960, 1600 below
each image's own; WebP and the image's own format; WebP quality 80, JPEG
82); Hugo builds the same content folder with bench/hugo-images/, whose
render hook asks .Resize for the same copies (same widths, formats,
qualities, and the Mitchell-Netravali filter folio's resampler uses).

Measured, alternating folio and Hugo: cold (no .folio-cache, no Hugo
cache, no output) and warm (both caches and outputs there, nothing
changed); each the median (min-max) of --runs runs of wall time and of
user and system CPU (of the process and its threads, from wait4). Beside
them: the copies encoded (files the build wrote into its cache: folio's
.folio-cache/images/, Hugo's --cacheDir _gen/, bench/hugo-images/hugo.toml), and the bytes of the copies in
the output, by source (photographs, screenshots) and format (WebP, the
image's own). No warm-up run: a cold run takes tens of seconds, and the
generator has just read every image into the page cache.

Standard library only (the generator needs Pillow: see python_with_pil).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys

import bench

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# a copy in folio's output: NAME-480w.webp; in Hugo's: NAME_hu<hash>_...
FOLIO_COPY = re.compile(r"-\d+w\.(webp|jpe?g|png)$")
HUGO_COPY = re.compile(r"_hu[0-9a-f]{16,}_.*\.(webp|jpe?g|png)$")


def python_with_pil():
    """An interpreter that can import Pillow: this one, else Debian's
    (python3-pil), which a python3 of pyenv or a venv does not see."""
    for exe in (sys.executable, "/usr/bin/python3"):
        if exe and os.path.exists(exe) and subprocess.run(
                [exe, "-c", "import PIL"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            return exe
    return None


def corpus(corpora, n):
    """The folio site of n images (bench/gen_images.py, seed 1), made once."""
    site = os.path.join(corpora, f"images-{n}")
    if not os.path.exists(os.path.join(site, "folio.yml")):
        py = python_with_pil()
        if not py:
            return None
        print(f"bench: generating {n} images into {site}", flush=True)
        tmp = site + ".tmp"
        bench.rm(tmp)
        subprocess.run([py, os.path.join(HERE, "gen_images.py"), "--images", str(n), "--seed", "1", tmp],
                       check=True)
        os.replace(tmp, site)
    return site


def snapshot(folder):
    """{path: (size, mtime_ns)} of the files under folder."""
    out = {}
    for dirpath, _, files in os.walk(folder):
        for f in files:
            p = os.path.join(dirpath, f)
            st = os.stat(p)
            out[p] = (st.st_size, st.st_mtime_ns)
    return out


def written(before, after):
    """How many files of after are new or changed since before."""
    return sum(1 for p, v in after.items() if before.get(p) != v)


def copies_bytes(out, pattern):
    """Bytes of the copies in the output folder out, as
    {(photo|screen, webp|own): bytes}, and the output's total bytes."""
    b, total = {}, 0
    for dirpath, _, files in os.walk(out):
        for f in files:
            size = os.path.getsize(os.path.join(dirpath, f))
            total += size
            m = pattern.search(f)
            if m:
                k = ("photo" if f.startswith("photo-") else "screen", "webp" if m.group(1) == "webp" else "own")
                b[k] = b.get(k, 0) + size
    return b, total


def med(rows, i):
    v = [r[i] for r in rows]
    return statistics.median(v), min(v), max(v)


def cell(t):
    return f"{t[0]:.2f} ({t[1]:.2f}–{t[2]:.2f})"


def mb(n):
    return f"{n / 1e6:.1f}"


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--folio", default=os.path.join(ROOT, "folio"))
    ap.add_argument("--hugo", default=shutil.which("hugo"))
    ap.add_argument("--images", type=int, default=40)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--corpora", default=os.path.join(ROOT, "bench", "corpus"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out"))
    args = ap.parse_args(argv)
    lines, say = bench.reporter()

    os.makedirs(args.corpora, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    site = corpus(args.corpora, args.images)
    if not site:
        say("## Images\n\nNo image row: Pillow is not installed (Debian: python3-pil), so "
            "bench/gen_images.py cannot make the corpus.\n")
        return lines
    hugo_src = os.path.join(HERE, "hugo-images")
    folio_out = os.path.join(args.out, "images-folio")
    hugo_out = os.path.join(args.out, "images-hugo")
    hugo_cache = os.path.join(args.out, "images-hugo-cache")
    folio_cache = os.path.join(site, ".folio-cache", "images")
    photos = screens = 0
    src_bytes = 0
    for dirpath, _, files in os.walk(os.path.join(site, "content")):
        for f in files:
            if f.startswith("photo-"):
                photos += 1
            elif f.startswith("screen-"):
                screens += 1
            if not f.endswith(".md"):
                src_bytes += os.path.getsize(os.path.join(dirpath, f))
    hugo_version = ""
    if args.hugo:
        hugo_version = bench.run([args.hugo, "version"])[4].split()[1]
        if "extended" not in hugo_version:
            say(f"(Hugo {hugo_version} is not the extended build: it cannot encode WebP; its row is left out)")
            args.hugo = None

    def folio(cold):
        if cold:
            bench.rm(os.path.join(site, ".folio-cache"))
            bench.rm(folio_out)
        before = snapshot(folio_cache)
        r = bench.run([args.folio, "build", site, "-o", folio_out])
        return r[:4] + (written(before, snapshot(folio_cache)),)

    def hugo(cold):
        if cold:
            bench.rm(hugo_out)
            bench.rm(hugo_cache)
        gen = os.path.join(hugo_cache, "_gen")
        before = snapshot(gen)
        r = bench.run([args.hugo, "--source", hugo_src, "--contentDir", os.path.join(site, "content"),
                       "--destination", hugo_out, "--cacheDir", hugo_cache, "--quiet"])
        return r[:4] + (written(before, snapshot(gen)),)

    res = {}
    fc, hc = [], []
    for _ in range(args.runs):
        fc.append(folio(True))
        if args.hugo:
            hc.append(hugo(True))
    res["folio cold"] = (fc, copies_bytes(folio_out, FOLIO_COPY))
    if args.hugo:
        res["Hugo cold"] = (hc, copies_bytes(hugo_out, HUGO_COPY))
    res["folio warm"] = ([folio(False) for _ in range(args.runs)], copies_bytes(folio_out, FOLIO_COPY))
    if args.hugo:
        res["Hugo warm"] = ([hugo(False) for _ in range(args.runs)], copies_bytes(hugo_out, HUGO_COPY))
    lock = os.path.join(hugo_src, ".hugo_build.lock")
    if os.path.exists(lock):
        os.unlink(lock)

    say(f"## Images: {photos + screens} images ({photos} JPEG photographs, {screens} PNG screenshots; "
        f"{mb(src_bytes)} MB), resized copies")
    say()
    say("folio: its default images: settings; "
        + (f"Hugo {hugo_version}: bench/hugo-images/ (.Resize in a render hook). " if args.hugo else "no Hugo. ")
        + "Widths 480, 960, 1600 below each image's own (never enlarged) in the image's own format; "
        "those and the whole width in WebP; WebP quality 80, JPEG 82; Mitchell-Netravali filter. "
        "folio makes a PNG's WebP copies lossless, Hugo 0.111 lossy (it has no lossless WebP). "
        f"Median (min–max) of {args.runs} runs, alternating folio and Hugo, no warm-up; CPU in seconds.")
    say()
    say("| build | wall s | user s | sys s | RSS MB | copies encoded | copies MB: photos WebP / JPEG | "
        "screenshots WebP / PNG | output MB |")
    say("|---|---|---|---|---|---|---|---|---|")
    for name, (rows, (b, total)) in res.items():
        enc = statistics.median(r[4] for r in rows)
        say(f"| {name} | {cell(med(rows, 0))} | {cell(med(rows, 1))} | {cell(med(rows, 2))} | "
            f"{med(rows, 3)[0]:.0f} | {enc:.0f} | {mb(b.get(('photo', 'webp'), 0))} / "
            f"{mb(b.get(('photo', 'own'), 0))} | {mb(b.get(('screen', 'webp'), 0))} / "
            f"{mb(b.get(('screen', 'own'), 0))} | {mb(total)} |")
    say()
    if args.hugo:
        f, h = res["folio cold"][0], res["Hugo cold"][0]
        fu, hu = med(f, 1)[0], med(h, 1)[0]
        fus, hus = statistics.median(r[1] + r[2] for r in f), statistics.median(r[1] + r[2] for r in h)
        say(f"Cold, Hugo/folio: user CPU {hu / fu:.2f}x (user+sys {hus / fus:.2f}x), wall "
            f"{med(h, 0)[0] / med(f, 0)[0]:.2f}x; goal: folio's user CPU at most 1/3 of Hugo's (3x) "
            f"{'met' if hu >= 3 * fu else 'not met'}. Warm: folio encoded "
            f"{statistics.median(r[4] for r in res['folio warm'][0]):.0f} copies (goal 0), Hugo "
            f"{statistics.median(r[4] for r in res['Hugo warm'][0]):.0f}.")
        say()
    return lines


if __name__ == "__main__":
    main()

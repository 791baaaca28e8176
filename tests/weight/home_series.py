#!/usr/bin/env python3
"""home_series.py SITE [--first N]: checks a built site's home page names
every series (each folder of SITE/series/ with a guide) with its posts in
the guide's order: all of them, or, with --first N, the first N of each and
a link to the guide saying how many there are (the home page bounded at
scale). Prints one line per fault and "N series on the home page"; exits 1
on a fault."""
import html
import os
import re
import sys


def links(block):
    """the posts' paths of the first <ol> in block, in order"""
    m = re.search(r"<ol[^>]*>(.*?)</ol>", block, re.S)
    return re.findall(r'<li[^>]*><a href="([^"]+)"', m.group(1)) if m else []


def main():
    site = sys.argv[1]
    first = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--first" else 0
    home = open(os.path.join(site, "index.html"), encoding="utf-8").read()
    m = re.search(r'<section class="series-overview".*?</section>', home, re.S)
    if not m:
        print("no series-overview section on the home page")
        return 1
    blocks = {}
    for b in re.split(r"(?=<div><h3>)", m.group(0))[1:]:
        title = html.unescape(re.match(r"<div><h3>(.*?)</h3>", b).group(1))
        blocks[title] = b
    faults = []
    root = os.path.join(site, "series")
    for slug in sorted(os.listdir(root)):
        guide = os.path.join(root, slug, "index.html")
        if not os.path.isfile(guide):
            continue
        g = open(guide, encoding="utf-8").read()
        title = html.unescape(re.search(r"<h1[^>]*>(.*?)</h1>", g, re.S).group(1).strip())
        posts = links(re.search(r'<ol class="series-list series-list-full".*?</ol>', g, re.S).group(0))
        posts = [p.replace("../../", "/") for p in posts]
        if title not in blocks:
            faults.append(f"{slug}: {title!r} is not on the home page")
            continue
        shown = links(blocks[title])
        want = posts[:first] if first else posts
        if shown != want:
            faults.append(f"{slug}: the home page lists {shown[:4]}..., the guide {want[:4]}...")
        if first and len(posts) > first and f">{len(posts)} " not in blocks[title] and f"{len(posts)} posts" not in blocks[title]:
            faults.append(f"{slug}: no link to the guide's {len(posts)} posts")
    for f in faults:
        print(f)
    print(f"{len(blocks)} series on the home page")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())

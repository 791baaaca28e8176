#!/usr/bin/env python3
"""refs.py: `make bench`'s references row: what numbered cross-references
and citations cost a cold build of the largest corpus.

Usage: refs.py [--folio ./folio] [--site bench/corpus/c10000] [--runs 3]
               [--out bench/out] [--seed 1]
(bench.py calls main() and appends its lines to bench/out/report.md; run
alone, it prints them.)

From gen_corpus.py's site, two twins are written beside it, the same text
but for the syntax (seeded, deterministic):
  - refs: each post's image paragraphs become numbered figures
    (![alt](src "caption"){#fig:fN}), its tables get a numbered caption
    (: caption {#tbl:tN}), a closing section has a numbered display
    equation ($$ ... $$ {#eq:main}), and a paragraph refers to them
    (@eq:main, [@fig:f1], @tbl:t1), to the equation of another post of its
    series (@SLUG#eq:main: a reference across posts), and cites three
    entries of a 400-entry BibTeX file (refs.bib; [@a; @b, p. 4] and a bare
    @c), which the post's References section lists;
  - plain: the same figures with their captions but no labels, the same
    caption text as a paragraph, the same equation unlabelled, the
    references written out as the text they print ("Eq. (1)", "Figure 1",
    "[1, 2, p. 4]"), and a written list of the three entries.
Cold builds (no .folio-cache, no output) of the two alternate; the row
gives the median (min-max) wall time and user and system CPU, and the
difference of the medians of user CPU. Goal: at most +5%.

Standard library only.
"""
import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys

import bench

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

EQUATIONS = [
    r"y_{%d} = \sum_{i=1}^{n} w_i x_i + b",
    r"\hat{m}_t = \frac{m_t}{1 - \beta_1^{%d}}",
    r"T(n) = %d\,T(n/2) + \Theta(n)",
    r"\mathrm{AI} = \frac{\text{FLOPs}}{\text{bytes}} \le %d",
    r"\|A\|_F^2 = \sum_{i,j} a_{ij}^2 + %d",
]
SURNAMES = ["Vaswani", "Kingma", "Dao", "Williams", "Patterson", "Hennessy", "Lattner", "Aho", "Knuth",
            "Dean", "Ghemawat", "Lamport", "Liskov", "Hoare", "Dijkstra", "Shazeer", "Narayanan", "Rajbhandari"]
VENUES = ["Proceedings of OSDI", "Proceedings of SOSP", "NeurIPS", "ICLR", "Communications of the ACM",
          "Proceedings of PLDI", "Proceedings of ISCA", "MLSys"]
IMAGE_LINE = re.compile(r"^!\[([^\]]*)\]\(([^)\s]+)\)\s*$")


def bibliography(rng, n):
    """n BibTeX entries (key ref1..refN) and, for the plain twin, the text
    each prints as."""
    entries, texts = [], []
    for i in range(1, n + 1):
        authors = rng.sample(SURNAMES, rng.randint(1, 4))
        year = rng.randint(1970, 2025)
        title = f"On the {rng.choice(['cost', 'design', 'limits', 'speed'])} of system {i}"
        venue = rng.choice(VENUES)
        fields = [f"  author = {{{' and '.join(a + ', A.' for a in authors)}}}",
                  f"  title = {{{title}}}", f"  booktitle = {{{venue}}}", f"  year = {year}"]
        if i % 3 == 0:
            fields.append(f"  doi = {{10.1145/{3000000 + i}}}")
        elif i % 3 == 1:
            fields.append(f"  eprint = {{{2000 + i % 900}.{10000 + i}}}")
            fields.append("  archivePrefix = {arXiv}")
        entries.append(f"@inproceedings{{ref{i},\n" + ",\n".join(fields) + "\n}\n")
        who = authors[0] + (" et al." if len(authors) > 2 else (" and " + authors[1] if len(authors) == 2 else ""))
        texts.append(f"{who}. {title}. {venue}, {year}.")
    return "\n".join(entries), texts


def split_front(text):
    """(front matter with its fences, body) of a post."""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end > 0:
            return text[:end + 5], text[end + 5:]
    return "", text


def series_of(front):
    m = re.search(r'^series:\s*"?([^"\n]+)"?\s*$', front, re.M)
    return m.group(1).strip() if m else None


def order_of(front, name):
    m = re.search(r"^(?:order|series_order|part):\s*(\d+)", front, re.M)
    return int(m.group(1)) if m else 0


def convert(body, refs, slug, other, rng, cites, texts, other_title):
    """The body of one post in the refs twin (refs) or the plain one."""
    out, fig, tbl, in_table = [], 0, 0, False
    lines = body.split("\n")
    for i, line in enumerate(lines):
        m = IMAGE_LINE.match(line)
        if m and (i == 0 or not lines[i - 1].strip()):
            fig += 1
            cap = f"Figure {fig} of the walkthrough"
            out.append(f'![{m.group(1)}]({m.group(2)} "{cap}")' + (f"{{#fig:f{fig}}}" if refs else ""))
            continue
        is_row = line.startswith("|")
        if in_table and not is_row:
            tbl += 1
            out.append("")
            out.append(f": Measured results, run {tbl} {{#tbl:t{tbl}}}" if refs else f"Measured results, run {tbl}")
        in_table = is_row
        out.append(line)
    if in_table:
        tbl += 1
        out.append("")
        out.append(f": Measured results, run {tbl} {{#tbl:t{tbl}}}" if refs else f"Measured results, run {tbl}")
    eq = rng.choice(EQUATIONS) % rng.randint(1, 9)
    out.append("")
    out.append("## The numbers, formally")
    out.append("")
    out.append(f"$$ {eq} $$" + (" {#eq:main}" if refs else ""))
    out.append("")
    a, b, c = cites
    if refs:
        parts = ["As @eq:main shows"]
        if fig:
            parts.append("and as [@fig:f1] draws it")
        if tbl:
            parts.append("with the times of @tbl:t1")
        s = ", ".join(parts) + ", the cost stays bounded"
        if other:
            s += f"; compare @{other}#eq:main"
        s += f" [@ref{a}; @ref{b}, p. 4]. The method follows @ref{c}."
        out.append(s)
    else:
        parts = ["As Eq. (1) shows"]
        if fig:
            parts.append("and as Figure 1 draws it")
        if tbl:
            parts.append("with the times of Table 1")
        s = ", ".join(parts) + ", the cost stays bounded"
        if other:
            s += f"; compare Eq. (1) of *{other_title}*"
        s += f" [1, 2, p. 4]. The method follows {texts[c - 1].split('.')[0]} [3]."
        out.append(s)
        out.append("")
        out.append("## References")
        out.append("")
        for k, n in enumerate((a, b, c), 1):
            out.append(f"{k}. {texts[n - 1]}")
    out.append("")
    return "\n".join(out)


def make_twins(site, seed):
    """The refs and plain twins of site (written once; their paths)."""
    twins = (site + "-refs", site + "-refs-plain")
    if all(os.path.exists(os.path.join(t, "folio.yml")) for t in twins):
        return twins
    rng = random.Random(seed)
    bib, texts = bibliography(rng, 400)
    posts_dir = os.path.join(site, "content", "posts")
    posts = []
    for name in sorted(os.listdir(posts_dir)):
        p = os.path.join(posts_dir, name)
        path = os.path.join(p, "index.md") if os.path.isdir(p) else p
        if not path.endswith(".md"):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        front, body = split_front(text)
        slug = name[:-3] if name.endswith(".md") else name
        t = re.search(r'^title:\s*"?(.*?)"?\s*$', front, re.M)
        posts.append((name, path, front, body, slug, series_of(front), t.group(1) if t else slug))
    # for the reference across posts: the post before each one in its
    # series, by file name (any other part would do), never a draft
    prev, last = {}, {}
    for name, _, front, _, slug, ser, title in posts:
        if ser and not re.search(r"^draft:\s*true", front, re.M):
            prev[slug] = last.get(ser)
            last[ser] = (slug, title)
    for twin, refs in zip(twins, (True, False)):
        tmp = twin + ".tmp"
        bench.rm(tmp)
        shutil.copytree(site, tmp, copy_function=os.link,
                        ignore=lambda d, names: [n for n in names if n == ".folio-cache"])
        prng = random.Random(seed)
        for name, path, front, body, slug, ser, title in posts:
            other = prev.get(slug)
            cites = prng.sample(range(1, 401), 3)
            text = front + convert(body, refs, slug, other[0] if other else None, prng, cites, texts,
                                   other[1] if other else "")
            dest = os.path.join(tmp, os.path.relpath(path, site))
            os.unlink(dest)  # a hard link to the corpus: never written through
            with open(dest, "w", encoding="utf-8") as f:
                f.write(text)
        if refs:
            with open(os.path.join(tmp, "refs.bib"), "w", encoding="utf-8") as f:
                f.write(bib)
            cfg = os.path.join(tmp, "folio.yml")
            with open(cfg, encoding="utf-8") as f:
                c = f.read()
            os.unlink(cfg)
            with open(cfg, "w", encoding="utf-8") as f:
                f.write(c.rstrip("\n") + "\nbibliography: refs.bib\n")
        os.replace(tmp, twin)
    return twins


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--folio", default=os.path.join(ROOT, "folio"))
    ap.add_argument("--site", default=os.path.join(ROOT, "bench", "corpus", "c10000"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out"))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    refs, plain = make_twins(os.path.abspath(args.site), args.seed)
    lines = []
    say = lambda s="": lines.append(s)
    out = os.path.join(args.out, "folio-refs")
    os.makedirs(args.out, exist_ok=True)

    def cold(site):
        bench.rm(os.path.join(site, ".folio-cache"))
        bench.rm(out)
        r = bench.run([args.folio, "build", site, "--future", "-o", out])
        return r[:4] + (r[4], bench.folio_pages(r[4]))

    rows = {"refs": [], "plain": []}
    for i in range(args.runs + 1):
        a = cold(plain)
        b = cold(refs)
        if i:
            rows["plain"].append(a)
            rows["refs"].append(b)
    bench.rm(out)
    n = sum(1 for _ in os.scandir(os.path.join(refs, "content", "posts")))
    say(f"## References and citations, {n} posts, cold")
    say()
    say("| build | wall s | user s | sys s | RSS MB | pages | MB/s |")
    say("|---|---|---|---|---|---|---|")
    md = {}
    for k, site in (("refs", refs), ("plain", plain)):
        md[k] = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(os.path.join(site, "content"))
                    for f in fs if f.endswith(".md"))
    st = {k: bench.stats(v, md[k]) for k, v in rows.items()}
    say(f"| the same text, references written out | {bench.fmt(st['plain'])} |")
    say(f"| numbered figures, tables, equations, references across posts, citations | {bench.fmt(st['refs'])} |")
    say()
    up, pu = st["refs"]["user"][0], st["plain"]["user"][0]
    say(f"References and citations: a cold build's user CPU {up:.2f} s beside {pu:.2f} s "
        f"({(up / pu - 1) * 100:+.1f}%); goal: at most +5%")
    say()
    if __name__ == "__main__":
        print("\n".join(lines))
    return lines


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    main()

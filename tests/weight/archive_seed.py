#!/usr/bin/env python3
"""archive_seed.py SITE SEED: the archive page of a built site (SITE/archive/,
all its pages) against the seed's archive page as text (SEED, the blog
folio copies: its heading, its sections, its tag cloud and its post
cards). Checks, and prints each problem:

  - the first page's h1 is the seed's heading, and its h2s name the seed's
    sections (Series, Tags, Archive) in the seed's order;
  - every tag of the seed's cloud is in the site's, with a count;
  - every post card of the seed is a card of the site's, with the same
    category, title, date and reading time, summary and tags (in order),
    and the seed's cards come in the seed's order;
  - every card of the site has a title, a date and a reading time.

Exits 1 if anything differs; the last line says how many cards were
compared."""
import html
import html.parser
import os
import re
import sys


def seed_page(path):
    """The seed's heading, section names, cloud {tag: count} and cards."""
    lines = [l.rstrip("\n") for l in open(path, encoding="utf-8")]
    heading = next(l.strip() for l in lines if l.strip().startswith("Browse by"))
    sections = [l.strip() for l in lines if l.strip() in ("Series", "Tags", "Archive")]
    cloud = {}
    for i, l in enumerate(lines):
        if l.strip() == "Tags":
            words = next(x for x in lines[i + 1:] if x.strip()).split()
            cloud = {words[k]: int(words[k + 1]) for k in range(0, len(words) - 1, 2)}
            break
    cards = []
    for i, l in enumerate(lines):
        m = re.match(r"^\s*•\s+(.*)$", l)
        if not m:
            continue
        rest = []
        for x in lines[i + 1:]:
            if re.match(r"^\s*•\s+", x):
                break
            if x.strip():
                rest.append(x.strip())
        title, meta, summary, tags = rest[0], rest[1], rest[2], rest[3].split()
        cards.append({"category": m.group(1).strip(), "title": title, "meta": meta, "summary": summary,
                      "tags": tags})
    return heading, sections, cloud, cards


class Page(html.parser.HTMLParser):
    """The h1, the h2s, the tag cloud and the post cards of one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.h1, self.h2s, self.cloud, self.cards = "", [], {}, []
        self.stack = []      # open elements: (tag, class)
        self.text = None     # the text being gathered, and what for
        self.what = None
        self.card = None
        self.section = None  # the id of the section we are in

    def attr(self, attrs, name):
        return dict(attrs).get(name) or ""

    def handle_starttag(self, tag, attrs):
        cls = self.attr(attrs, "class")
        if tag == "section":
            self.section = self.attr(attrs, "aria-labelledby")
        if tag == "article" and "post-card" in cls.split():
            self.card = {"category": "", "title": "", "meta": "", "summary": "", "tags": []}
        want = None
        if tag == "h1":
            want = "h1"
        elif tag == "h2" and self.card is None:
            want = "h2"
        elif self.card is not None and tag == "p" and "card-kicker" in cls:
            want = "category"
        elif self.card is not None and "card-title" in cls:
            want = "title"
        elif self.card is not None and tag == "p" and cls == "meta":
            want = "meta"
        elif self.card is not None and tag == "p" and cls == "summary":
            want = "summary"
        elif self.card is not None and tag == "a" and "tag" in cls.split():
            want = "tag"
        elif self.card is None and self.section == "by-tag" and tag == "li":
            want = "cloud"
        if want:
            self.what, self.text, self.depth = want, [], len(self.stack)
        if tag not in ("br", "img", "meta", "link", "input"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        while self.stack and self.stack[-1] != tag:
            self.stack.pop()
        if self.stack:
            self.stack.pop()
        if self.what and len(self.stack) == self.depth:
            t = " ".join("".join(self.text).split())
            if self.what == "h1":
                self.h1 = t
            elif self.what == "h2":
                self.h2s.append(t)
            elif self.what == "tag":
                self.card["tags"].append(t.lstrip("#"))
            elif self.what == "cloud":
                m = re.match(r"^(.*) (\d+)$", t)
                if m:
                    self.cloud[m.group(1)] = int(m.group(2))
            else:
                self.card[self.what] = t
            self.what = None
        if tag == "article" and self.card is not None:
            self.cards.append(self.card)
            self.card = None
        if tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.what:
            self.text.append(data)


def pages(site):
    """The archive's pages in order: /archive/, then /archive/PATH/2/, ..."""
    first = os.path.join(site, "archive", "index.html")
    out = [first]
    for d in sorted(os.listdir(os.path.join(site, "archive"))):
        sub = os.path.join(site, "archive", d)
        if not d.isdigit() and os.path.isdir(sub):
            nums = sorted((int(n) for n in os.listdir(sub) if n.isdigit()))
            out += [os.path.join(sub, str(n), "index.html") for n in nums]
    return out


def main(site, seed):
    heading, sections, cloud, seed_cards = seed_page(seed)
    parsed = []
    for p in pages(site):
        pg = Page()
        pg.feed(open(p, encoding="utf-8").read())
        parsed.append(pg)
    first = parsed[0]
    cards = [c for pg in parsed for c in pg.cards]
    problems = []
    if first.h1 != heading:
        problems.append("h1 is %r, the seed's %r" % (first.h1, heading))
    order = [h for h in first.h2s if h in sections]
    if order != sections:
        problems.append("sections %r, the seed's %r" % (first.h2s, sections))
    for tag, n in cloud.items():
        if tag not in first.cloud:
            problems.append("tag %r of the seed's cloud is not in the site's" % tag)
        elif first.cloud[tag] < n:
            problems.append("tag %r: %d posts, the seed's cloud says %d" % (tag, first.cloud[tag], n))
    by_title = {c["title"]: (i, c) for i, c in enumerate(cards)}
    last = -1
    for s in seed_cards:
        if s["title"] not in by_title:
            problems.append("the seed's card %r is not in the archive" % s["title"])
            continue
        i, c = by_title[s["title"]]
        for k in ("category", "meta", "summary", "tags"):
            if c[k] != s[k]:
                problems.append("%r: %s is %r, the seed's %r" % (s["title"], k, c[k], s[k]))
        if i < last:
            problems.append("%r comes before the seed's card above it" % s["title"])
        last = i
    for c in cards:
        if not c["title"] or not re.search(r"\d{4} · \d+ min read", c["meta"]):
            problems.append("a card without its title, date or reading time: %r" % c)
    for p in problems:
        print(p)
    print("%d of the seed's cards compared among the archive's %d, on %d page(s): %s" %
          (len(seed_cards), len(cards), len(parsed), "%d problem(s)" % len(problems) if problems else "the same"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

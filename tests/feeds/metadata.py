#!/usr/bin/env python3
"""metadata.py OUT: checks what a built site (the folder OUT, built with a
base_url and the default theme in English) says about its posts to
machines, and that every place agrees on a part's number. Prints one line
per fault, "PATH: error: WHAT", then "checked N posts, M series, K URLs";
exit 1 if any.

- each post's JSON-LD is a BlogPosting with headline, datePublished,
  dateModified (ISO 8601), author and publisher (each an Organization or
  a Person with a name; a publisher's logo an ImageObject with a URL),
  mainEntityOfPage (a WebPage whose @id is the page's canonical URL, an
  absolute URL; a url, when given, is the same),
  image (an absolute URL) when the page has an og:image, and, in a series,
  position and isPartOf;
- a post of a series shows one number: "Part N of M" with N its JSON-LD
  position, the same M on every post of the series; its next card's
  "part K" is the next post's position; the numbers of its series list
  and of the series guide's list (an <ol>'s start and each <li>'s value,
  as a browser counts them) are the positions of the posts they link;
- sitemap.xml is a urlset whose every URL has an absolute loc, once, and a
  lastmod in the W3C date format.
"""
import json
import os
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

W3C_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$")
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


class Page(HTMLParser):
    """The JSON-LD, canonical link, og:image and the numbered lists
    (class series-list) of a page: each list's numbers and links."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ld, self.canonical, self.og_image = [], None, None
        self.lists = []  # (classes, [(number, href or None)])
        self.in_ld = False
        self.ld_text = ""
        self.ol = None  # [classes, next number, items]
        self.li = None
        self.next_card = None  # [href, text]
        self.text = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and a.get("type") == "application/ld+json":
            self.in_ld, self.ld_text = True, ""
        elif tag == "link" and a.get("rel") == "canonical":
            self.canonical = a.get("href")
        elif tag == "meta" and a.get("property") == "og:image":
            self.og_image = a.get("content")
        elif tag == "ol" and "series-list" in (a.get("class") or "").split():
            self.ol = [a.get("class"), int(a.get("start", "1")), []]
        elif tag == "li" and self.ol is not None:
            n = int(a["value"]) if "value" in a else self.ol[1]
            self.ol[1] = n + 1
            self.li = [n, None]
            self.ol[2].append(self.li)
        elif tag == "a" and self.li is not None and self.li[1] is None:
            self.li[1] = a.get("href")
        elif tag == "span" and self.li is not None and a.get("aria-current") == "page" and self.li[1] is None:
            self.li[1] = "(this page)"
        elif tag == "a" and a.get("rel") == "next" and "next-card" in (a.get("class") or ""):
            self.next_card = [a.get("href"), ""]

    def handle_endtag(self, tag):
        if tag == "script" and self.in_ld:
            self.in_ld = False
            self.ld.append(self.ld_text)
        elif tag == "ol" and self.ol is not None:
            self.lists.append((self.ol[0], [(n, h) for n, h in self.ol[2]]))
            self.ol = None
            self.li = None
        elif tag == "li":
            self.li = None
        elif tag == "a" and self.next_card is not None and len(self.next_card) == 2:
            self.next_card.append(True)

    def handle_data(self, data):
        if self.in_ld:
            self.ld_text += data
        if self.next_card is not None and len(self.next_card) == 2:
            self.next_card[1] += data
        self.text.append(data)


def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    p.all_text = "".join(p.text)
    return p


def is_abs(u):
    s = urllib.parse.urlsplit(u or "")
    return s.scheme in ("http", "https") and bool(s.netloc)


class Site:
    def __init__(self, out):
        self.out = out
        self.faults = []
        self.position = {}  # page path (URL path) -> position
        self.total = {}  # series url -> M
        self.pages = {}

    def fault(self, path, what):
        self.faults.append(f"{path}: error: {what}")

    def entity(self, path, where, e, kinds=("Organization", "Person")):
        if not isinstance(e, dict) or e.get("@type") not in kinds or not e.get("name"):
            self.fault(path, f"JSON-LD {where} must be an {' or '.join(kinds)} with a name, found {json.dumps(e)}")
            return
        if "logo" in e and not (isinstance(e["logo"], dict) and e["logo"].get("@type") == "ImageObject"
                                and is_abs(e["logo"].get("url"))):
            self.fault(path, f"JSON-LD {where}'s logo must be an ImageObject with an absolute url")

    def post(self, path, url_path):
        p = parse(path)
        self.pages[url_path] = p
        if len(p.ld) != 1:
            self.fault(path, f"{len(p.ld)} JSON-LD blocks (one is wanted)")
            return
        try:
            ld = json.loads(p.ld[0])
        except json.JSONDecodeError as e:
            self.fault(path, f"JSON-LD is not JSON: {e}")
            return
        if ld.get("@context") != "https://schema.org" or ld.get("@type") != "BlogPosting":
            self.fault(path, "JSON-LD must be a schema.org BlogPosting")
        for k in ("headline", "datePublished", "dateModified"):
            if not isinstance(ld.get(k), str) or not ld[k]:
                self.fault(path, f"JSON-LD has no {k}")
        for k in ("datePublished", "dateModified"):
            if isinstance(ld.get(k), str) and not ISO.match(ld[k]):
                self.fault(path, f"JSON-LD {k} is not an ISO 8601 date-time: {ld[k]}")
        if not is_abs(p.canonical):
            self.fault(path, f"the canonical link is not an absolute URL: {p.canonical}")
        if "url" in ld and ld["url"] != p.canonical:
            self.fault(path, f"JSON-LD url {ld['url']} is not the canonical URL {p.canonical}")
        m = ld.get("mainEntityOfPage")
        if not isinstance(m, dict) or m.get("@type") != "WebPage" or m.get("@id") != p.canonical:
            self.fault(path, f"JSON-LD mainEntityOfPage must be the WebPage {p.canonical}, found {json.dumps(m)}")
        self.entity(path, "author", ld.get("author"))
        self.entity(path, "publisher", ld.get("publisher"))
        if p.og_image and ld.get("image") != p.og_image:
            self.fault(path, f"JSON-LD image {ld.get('image')} is not the page's og:image {p.og_image}")
        if "image" in ld and not is_abs(ld["image"]):
            self.fault(path, f"JSON-LD image is not an absolute URL: {ld['image']}")
        part = re.search(r"Part (\d+) of (\d+)", p.all_text)
        if "isPartOf" in ld:
            pos = ld.get("position")
            series = ld["isPartOf"].get("url")
            if not isinstance(pos, int):
                self.fault(path, "JSON-LD of a post of a series has no position")
            elif not part or int(part.group(1)) != pos:
                self.fault(path, f"shows {part.group(0) if part else 'no Part N of M'}, but its position is {pos}")
            else:
                self.position[url_path] = pos
                m_ = int(part.group(2))
                if self.total.setdefault(series, m_) != m_:
                    self.fault(path, f"Part N of {m_}, where other posts of the series say of {self.total[series]}")
        elif part:
            self.fault(path, f"shows '{part.group(0)}' without a series in its JSON-LD")

    def numbers(self, path, lists, here):
        for cls, items in lists:
            for n, href in items:
                target = here if href == "(this page)" else urllib.parse.urlsplit(href or "").path
                if target in self.position and self.position[target] != n:
                    self.fault(path, f"its {cls} list numbers {target} {n}, but that post is part "
                               f"{self.position[target]}")

    def check(self):
        posts = os.path.join(self.out, "posts")
        for slug in sorted(os.listdir(posts)):
            path = os.path.join(posts, slug, "index.html")
            if os.path.isfile(path):
                self.post(path, f"/posts/{slug}/")
        for url_path, p in self.pages.items():
            path = os.path.join(self.out, url_path.strip("/"), "index.html")
            self.numbers(path, p.lists, url_path)
            if p.next_card and url_path in self.position:
                k = re.search(r"part (\d+)", p.next_card[1], re.I)
                target = urllib.parse.urlsplit(p.next_card[0]).path
                if not k or self.position.get(target) != int(k.group(1)):
                    self.fault(path, f"its next card says '{p.next_card[1].strip()}' for {target}, part "
                               f"{self.position.get(target)}")
        nseries = 0
        sdir = os.path.join(self.out, "series")
        for slug in sorted(os.listdir(sdir)) if os.path.isdir(sdir) else []:
            path = os.path.join(sdir, slug, "index.html")
            if os.path.isfile(path):
                nseries += 1
                self.numbers(path, parse(path).lists, f"/series/{slug}/")
        return nseries

    def sitemap(self):
        path = os.path.join(self.out, "sitemap.xml")
        try:
            root = ET.parse(path).getroot()
        except (ET.ParseError, OSError) as e:
            self.fault(path, f"not well-formed XML: {e}")
            return 0
        if root.tag != SM + "urlset":
            self.fault(path, f"the root must be a sitemap urlset, found {root.tag}")
        seen = set()
        urls = root.findall(SM + "url")
        for u in urls:
            loc = (u.findtext(SM + "loc") or "").strip()
            if not is_abs(loc):
                self.fault(path, f"a loc that is not an absolute URL: '{loc}'")
            if loc in seen:
                self.fault(path, f"{loc} is listed twice")
            seen.add(loc)
            lastmod = u.findtext(SM + "lastmod")
            if lastmod is None:
                self.fault(path, f"{loc} has no lastmod")
            elif not W3C_DATE.match(lastmod.strip()):
                self.fault(path, f"{loc} has a lastmod that is not a W3C date: '{lastmod}'")
        return len(urls)


def main(argv):
    if len(argv) != 2:
        print("usage: metadata.py OUT", file=sys.stderr)
        return 2
    s = Site(argv[1])
    nseries = s.check()
    nurls = s.sitemap()
    for f in s.faults:
        print(f)
    print(f"checked {len(s.pages)} posts, {nseries} series, {nurls} URLs")
    return 1 if s.faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""crawl.py START: follows every link, image, script, stylesheet and
srcset/poster URL of the pages reachable from START (an http:// URL on this
machine) that stay on its host, and prints one line per broken one:
"BROKEN <status> <url> (on <page>)"; then "crawled N pages, M URLs". Also
checks that each #fragment names an id of its page. Exit 1 if any is broken.
"""
import sys
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if v is None:
                continue
            if k in ("href", "src", "poster"):
                self.urls.append(v)
            elif k == "srcset":
                for part in v.split(","):
                    if part.strip():
                        self.urls.append(part.split()[0])
            elif k == "id" or (k == "name" and tag == "a"):
                self.ids.add(v)


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, "", b""


def main():
    start = sys.argv[1]
    host = urllib.parse.urlsplit(start).netloc
    todo, seen, ids, frags, broken = [start], {start}, {}, [], 0
    pages = 0
    while todo:
        url = todo.pop()
        status, ctype, body = fetch(url)
        if status != 200:
            print(f"BROKEN {status} {url}")
            broken += 1
            continue
        if not ctype.startswith("text/html"):
            continue
        pages += 1
        p = Page()
        p.feed(body.decode("utf-8", "replace"))
        ids[url] = p.ids
        for u in p.urls:
            full = urllib.parse.urljoin(url, u)
            parts = urllib.parse.urlsplit(full)
            if parts.scheme not in ("http", "https") or parts.netloc != host:
                continue
            bare = urllib.parse.urlunsplit(parts._replace(fragment=""))
            if parts.fragment:
                frags.append((bare, parts.fragment, url))
            if bare not in seen:
                seen.add(bare)
                todo.append(bare)
    for target, frag, page in frags:
        have = ids.get(target)
        if have is not None and frag != "top" and urllib.parse.unquote(frag) not in have:
            print(f"BROKEN #{frag} {target} (on {page})")
            broken += 1
    print(f"crawled {pages} pages, {len(seen)} URLs, {broken} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

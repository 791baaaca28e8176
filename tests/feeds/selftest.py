#!/usr/bin/env python3
"""selftest.py FEED.json FEED.xml: proves that the checkers catch broken
feeds. Each case breaks a copy of a valid feed (one folio wrote) in one way,
and the checker must report exactly that fault; the valid feeds must pass.
Prints "FAIL ..." for each case that goes wrong, then "N passed, M failed";
exit 1 if any failed.
"""
import copy
import json
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import atom  # noqa: E402
import jsonfeed  # noqa: E402

A = "{http://www.w3.org/2005/Atom}"
passed = failed = 0


def expect(name, faults, want):
    """want: a text one of the faults contains; None: no fault at all."""
    global passed, failed
    ok = not faults if want is None else any(want in f for f in faults)
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: wanted {want!r}, got {faults[:3]!r}")


def json_cases(feed):
    """(name, mutate(doc) or raw bytes, the fault wanted)"""
    def item0(f):
        return lambda d: f(d["items"][0])

    def setk(k, v):
        return lambda o: o.__setitem__(k, v)

    def delk(k):
        return lambda o: o.pop(k, None)
    return [
        ("no version", delk("version"), "'version' must be \"https://jsonfeed.org/version/1.1\""),
        ("version 1.0", setk("version", "https://jsonfeed.org/version/1"), "'version' must be"),
        ("no title", delk("title"), "'title' is required"),
        ("a title that is a number", setk("title", 5), "'title' must be a string"),
        ("no items", delk("items"), "'items' is required"),
        ("items an object", setk("items", {}), "'items' must be an array"),
        ("an item without content", item0(lambda i: (i.pop("content_html", None), i.pop("content_text", None))),
         "items[0]: no content_html or content_text (one of them is required)"),
        ("an item without id", item0(delk("id")), "items[0]: 'id' is required"),
        ("an empty id", item0(setk("id", "")), "items[0]: 'id' is empty"),
        ("two items with one id", lambda d: d["items"][1].__setitem__("id", d["items"][0]["id"]),
         "items[1]: id"),
        ("a date without a time", item0(setk("date_published", "2026-10-24")),
         "'date_published' must be an RFC 3339 date-time"),
        ("February 30", item0(setk("date_modified", "2026-02-30T00:00:00Z")), "'date_modified' must be an RFC 3339"),
        ("a date without an offset", item0(setk("date_published", "2026-10-24T00:00:00")), "RFC 3339"),
        ("a relative home_page_url", setk("home_page_url", "/"), "'home_page_url' must be an absolute http(s) URL"),
        ("a relative item url", item0(setk("url", "/posts/x/")), "items[0]: 'url' must be an absolute"),
        ("an empty author", setk("authors", [{}]), "authors[0]: an author needs at least one of name, url, avatar"),
        ("an author url that is empty", setk("authors", [{"name": "J", "url": ""}]),
         "authors[0]: 'url' must be an absolute"),
        ("authors an object", setk("authors", {"name": "J"}), "'authors' must be an array"),
        ("tags that are numbers", item0(setk("tags", [1, 2])), "'tags' must be an array of strings"),
        ("a misspelt key", item0(setk("content_htm", "<p>x</p>")), "unknown key 'content_htm'"),
        ("an extension key", item0(setk("_folio", {"part": 3})), None),
        ("a language with an underscore", setk("language", "en_US"), "'language' must be an RFC 5646 tag"),
        ("an attachment without mime_type", item0(setk("attachments", [{"url": "https://e.org/a.mp3"}])),
         "'mime_type' is required"),
        ("expired a string", setk("expired", "no"), "'expired' must be a boolean"),
        ("not JSON", b'{"version": ', "not JSON"),
        ("an array", b"[]", "the top level must be an object"),
        ("not UTF-8", b'{"title": "\xff"}', "not UTF-8"),
    ]


def atom_cases():
    def first(root, name):
        return root.find(A + name)

    def entry(root, i=0):
        return root.findall(A + "entry")[i]

    def drop(parent, name):
        for el in parent.findall(A + name):
            parent.remove(el)

    def add(parent, name, text=None, **attrs):
        el = ET.SubElement(parent, A + name, attrs)
        el.text = text
        return el
    return [
        ("no feed id", lambda r: drop(r, "id"), "feed: no atom:id (exactly one is required)"),
        ("two feed titles", lambda r: add(r, "title", "Again"), "feed: 2 atom:title (exactly one is required)"),
        ("no feed updated", lambda r: drop(r, "updated"), "feed: no atom:updated"),
        ("two subtitles", lambda r: (add(r, "subtitle", "a"), add(r, "subtitle", "b")), "atom:subtitle (at most one"),
        ("no author anywhere", lambda r: drop(r, "author"),
         "entry 1: no atom:author, and the feed has none (one is required)"),
        ("an author without name", lambda r: drop(first(r, "author"), "name"),
         "feed atom:author: no atom:name (exactly one is required)"),
        ("an entry without updated", lambda r: drop(entry(r), "updated"), "entry 1: no atom:updated"),
        ("an entry without id", lambda r: drop(entry(r), "id"), "entry 1: no atom:id"),
        ("an entry without title", lambda r: drop(entry(r), "title"), "entry 1: no atom:title"),
        ("a relative id", lambda r: setattr(first(entry(r), "id"), "text", "/posts/x/"),
         "entry 1: atom:id must be an absolute IRI, found '/posts/x/'"),
        ("a date without a time", lambda r: setattr(first(entry(r), "updated"), "text", "2026-10-24"),
         "entry 1: atom:updated must be an RFC 3339 date-time"),
        ("a lowercase t", lambda r: setattr(first(r, "updated"), "text", "2026-10-24t00:00:00Z"),
         "feed: atom:updated must be an RFC 3339"),
        ("no content and no alternate link",
         lambda r: (drop(entry(r), "content"), drop(entry(r), "link")),
         "entry 1: no atom:content and no rel=\"alternate\" link (one is required)"),
        ("two alternate links of one type",
         lambda r: add(entry(r), "link", rel="alternate", type="text/html", href="https://e.org/b/"),
         "entry 1: two rel=\"alternate\" links of type text/html"),
        ("a link without href", lambda r: add(entry(r), "link", rel="related"), "entry 1: an atom:link without href"),
        ("a category without term", lambda r: add(entry(r), "category", label="x"),
         "entry 1: an atom:category without term"),
        ("html content with an element",
         lambda r: (drop(entry(r), "content"), ET.SubElement(add(entry(r), "content", type="html"), "b")),
         "entry 1: atom:content of type html holds an element"),
        ("content by src without summary",
         lambda r: (drop(entry(r), "content"), drop(entry(r), "summary"),
                    add(entry(r), "content", type="text/html", src="https://e.org/x/")),
         "entry 1: atom:content with src or Base64 content needs an atom:summary"),
        ("base64 content without summary",
         lambda r: (drop(entry(r), "content"), drop(entry(r), "summary"),
                    add(entry(r), "content", "iVBORw0KGgo=", type="image/png")),
         "needs an atom:summary"),
        ("a title of type markdown", lambda r: first(entry(r), "title").set("type", "markdown"),
         "entry 1: atom:title type must be text, html or xhtml"),
        ("xhtml without its div", lambda r: first(entry(r), "title").set("type", "xhtml"),
         "atom:title of type xhtml must hold one xhtml:div"),
        ("an entry twice", lambda r: r.append(copy.deepcopy(entry(r))), "are those of entry 1"),
        ("two contents", lambda r: (add(entry(r), "content", "a"), add(entry(r), "content", "b")),
         "entry 1: 2 atom:content (at most one is allowed)"),
        ("an email that is no address", lambda r: add(first(r, "author"), "email", "jae"),
         "atom:email must be an address"),
    ]


def main(argv):
    if len(argv) != 3:
        print("usage: selftest.py FEED.json FEED.xml", file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        jdata = f.read()
    with open(argv[2], "rb") as f:
        adata = f.read()
    expect("the JSON Feed as folio wrote it", jsonfeed.check(jdata), None)
    expect("the Atom feed as folio wrote it", atom.check(adata), None)
    base = json.loads(jdata)
    assert len(base.get("items", [])) >= 2, "the JSON Feed needs two items"
    for name, change, want in json_cases(base):
        if isinstance(change, bytes):
            data = change
        else:
            doc = copy.deepcopy(base)
            change(doc)
            data = json.dumps(doc).encode()
        expect(f"JSON Feed, {name}", jsonfeed.check(data), want)
    ET.register_namespace("", "http://www.w3.org/2005/Atom")
    for name, change, want in atom_cases():
        root = ET.fromstring(adata)
        change(root)
        expect(f"Atom, {name}", atom.check(ET.tostring(root, encoding="utf-8")), want)
    expect("Atom, not well-formed", atom.check(adata[: len(adata) // 2]), "not well-formed XML")
    expect("Atom, an RSS feed", atom.check(b'<rss version="2.0"><channel/></rss>'),
           "the root element must be atom:feed")
    expect("Atom, an unescaped ampersand", atom.check(adata.replace(b"&#39;", b"&", 1) if b"&#39;" in adata
                                                     else adata.replace(b"</title>", b" & </title>", 1)),
           "not well-formed XML")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

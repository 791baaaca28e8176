#!/usr/bin/env python3
"""atom.py FILE...: checks each file against the MUST rules of the Atom
Syndication Format (RFC 4287) and prints one line per fault, "FILE: error:
WHERE: WHAT"; exit 1 if any. No validator package is at hand offline, so
this follows the RFC's words itself:

- the document is well-formed XML (Python's expat parser) whose root is
  atom:feed (section 4.1.1);
- atom:feed has exactly one atom:id, atom:title and atom:updated, at most
  one atom:subtitle, atom:icon, atom:logo, atom:rights and atom:generator
  (4.1.1), and an atom:author unless every entry has one (4.1.1);
- atom:entry has exactly one atom:id, atom:title and atom:updated, at most
  one atom:published, atom:summary, atom:content, atom:rights and
  atom:source (4.1.2); an atom:link rel="alternate" when it has no
  atom:content; an atom:summary when its content has a src or is not text,
  html, xhtml, XML or text/* (4.1.2);
- in a feed, or in an entry, no two rel="alternate" links share their type
  and hreflang (4.1.1, 4.1.2);
- an atom:id is an absolute IRI (4.2.6), and two entries with one id have
  different atom:updated (4.1.1, a SHOULD that folio keeps);
- atom:updated and atom:published are RFC 3339 date-times with an
  uppercase T and Z (3.3);
- a Person construct (atom:author, atom:contributor) has exactly one
  atom:name, at most one atom:uri (an IRI) and atom:email (3.2);
- a Text construct's type is text, html or xhtml; text and html hold no
  child elements; xhtml holds one xhtml:div (3.1);
- atom:content's type is text, html, xhtml or a MIME type, and with a src
  it is empty (4.1.3);
- atom:link has an href (4.2.7), atom:category a term (4.2.2), and
  atom:icon and atom:logo an IRI (4.2.5, 4.2.8).

check(data) returns the faults of one document as a list of strings.
"""
import re
import sys
import xml.etree.ElementTree as ET

import checkfiles  # the command line, beside this file

A = "{http://www.w3.org/2005/Atom}"
XHTML_DIV = "{http://www.w3.org/1999/xhtml}div"

DATE = re.compile(r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?"
                  r"(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
MIME = re.compile(r"^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+$")


def text(el):
    return (el.text or "").strip()


class Checker:
    def __init__(self):
        self.faults = []

    def fault(self, where, what):
        self.faults.append(f"{where}: {what}")

    def counts(self, where, el, once, at_most):
        for name in once:
            n = len(el.findall(A + name))
            if n != 1:
                self.fault(where, f"{'no' if n == 0 else n} atom:{name} (exactly one is required)")
        for name in at_most:
            n = len(el.findall(A + name))
            if n > 1:
                self.fault(where, f"{n} atom:{name} (at most one is allowed)")

    def iri(self, where, what, value, absolute):
        if not value or any(c.isspace() for c in value):
            self.fault(where, f"{what} must be an IRI, found '{value}'")
        elif absolute and not SCHEME.match(value):
            self.fault(where, f"{what} must be an absolute IRI, found '{value}'")

    def date(self, where, el, name):
        for d in el.findall(A + name):
            if not DATE.match(text(d)):
                self.fault(where, f"atom:{name} must be an RFC 3339 date-time (uppercase T and Z), found '{text(d)}'")

    def text_construct(self, where, el):
        for name in ("title", "subtitle", "summary", "rights"):
            for t in el.findall(A + name):
                kind = t.get("type", "text")
                if kind not in ("text", "html", "xhtml"):
                    self.fault(where, f"atom:{name} type must be text, html or xhtml, found '{kind}'")
                elif kind in ("text", "html") and len(t):
                    self.fault(where, f"atom:{name} of type {kind} holds an element (escape its markup)")
                elif kind == "xhtml" and (len(t) != 1 or t[0].tag != XHTML_DIV):
                    self.fault(where, f"atom:{name} of type xhtml must hold one xhtml:div")

    def persons(self, where, el):
        for name in ("author", "contributor"):
            for p in el.findall(A + name):
                w = f"{where} atom:{name}"
                self.counts(w, p, ["name"], ["uri", "email"])
                for u in p.findall(A + "uri"):
                    self.iri(w, "atom:uri", text(u), absolute=False)
                for e in p.findall(A + "email"):
                    if not re.match(r"^[^@\s]+@[^@\s]+$", text(e)):
                        self.fault(w, f"atom:email must be an address, found '{text(e)}'")

    def links(self, where, el):
        seen = set()
        for ln in el.findall(A + "link"):
            if ln.get("href") is None:
                self.fault(where, "an atom:link without href")
                continue
            self.iri(where, "a link's href", ln.get("href"), absolute=False)
            if ln.get("rel", "alternate") == "alternate":
                key = (ln.get("type"), ln.get("hreflang"))
                if key in seen:
                    self.fault(where, f"two rel=\"alternate\" links of type {key[0]} and hreflang {key[1]}")
                seen.add(key)

    def common(self, where, el):
        for i in el.findall(A + "id"):
            self.iri(where, "atom:id", text(i), absolute=True)
        self.date(where, el, "updated")
        self.date(where, el, "published")
        self.text_construct(where, el)
        self.persons(where, el)
        self.links(where, el)
        for c in el.findall(A + "category"):
            if not c.get("term"):
                self.fault(where, "an atom:category without term")

    def entry(self, where, e):
        self.counts(where, e, ["id", "title", "updated"], ["published", "summary", "content", "rights", "source"])
        self.common(where, e)
        content = e.find(A + "content")
        alternate = [ln for ln in e.findall(A + "link") if ln.get("rel", "alternate") == "alternate"]
        if content is None and not alternate:
            self.fault(where, "no atom:content and no rel=\"alternate\" link (one is required)")
        if content is not None:
            kind = content.get("type", "text")
            if kind not in ("text", "html", "xhtml") and not MIME.match(kind):
                self.fault(where, f"atom:content type must be text, html, xhtml or a MIME type, found '{kind}'")
            if content.get("src") is not None and (len(content) or (content.text or "").strip()):
                self.fault(where, "atom:content with src must be empty")
            if kind in ("text", "html") and len(content):
                self.fault(where, f"atom:content of type {kind} holds an element (escape its markup)")
            xmlish = kind.endswith("+xml") or kind.endswith("/xml") or kind.startswith("text/")
            if e.find(A + "summary") is None and (
                    content.get("src") is not None or (kind not in ("text", "html", "xhtml") and not xmlish)):
                self.fault(where, "atom:content with src or Base64 content needs an atom:summary")

    def feed(self, data):
        try:
            root = ET.fromstring(data)
        except ET.ParseError as e:
            self.fault("feed", f"not well-formed XML: {e}")
            return
        if root.tag != A + "feed":
            self.fault("feed", f"the root element must be atom:feed, found {root.tag}")
            return
        self.counts("feed", root, ["id", "title", "updated"], ["subtitle", "icon", "logo", "rights", "generator"])
        self.common("feed", root)
        for name in ("icon", "logo"):
            for x in root.findall(A + name):
                self.iri("feed", f"atom:{name}", text(x), absolute=False)
        g = root.find(A + "generator")
        if g is not None and g.get("uri") is not None:
            self.iri("feed", "atom:generator's uri", g.get("uri"), absolute=False)
        entries = root.findall(A + "entry")
        if not root.findall(A + "author"):
            for i, e in enumerate(entries):
                src = e.find(A + "source")
                if not e.findall(A + "author") and (src is None or not src.findall(A + "author")):
                    self.fault(f"entry {i + 1}", "no atom:author, and the feed has none (one is required)")
        updated_by_id = {}
        for i, e in enumerate(entries):
            self.entry(f"entry {i + 1}", e)
            key = (text(e.find(A + "id")) if e.find(A + "id") is not None else None,
                   text(e.find(A + "updated")) if e.find(A + "updated") is not None else None)
            if key[0] and key in updated_by_id:
                self.fault(f"entry {i + 1}", f"id '{key[0]}' and atom:updated are those of entry {updated_by_id[key]}")
            updated_by_id.setdefault(key, i + 1)


# check(data): the faults of one Atom document (bytes), as strings
check = checkfiles.checker(Checker)


if __name__ == "__main__":
    sys.exit(checkfiles.main(sys.argv, check))

#!/usr/bin/env python3
"""jsonfeed.py FILE...: checks each file against the rules of JSON Feed 1.1
(https://www.jsonfeed.org/version/1.1/) and prints one line per fault,
"FILE: error: WHERE: WHAT"; exit 1 if any. No validator package is at hand
offline, so this follows the spec's words itself:

- the document is UTF-8 JSON whose top level is an object;
- version is "https://jsonfeed.org/version/1.1"; title is a string; items
  is an array (all three required);
- home_page_url, feed_url, next_url, icon, favicon, and an item's url,
  external_url, image, banner_image are absolute http(s) URLs when given;
- description, user_comment, language and an item's title, summary,
  content_html, content_text, language are strings; expired a boolean;
- authors is an array of author objects, each with at least one of name,
  url, avatar (strings; url and avatar URLs); the 1.0 `author` object is
  accepted;
- hubs are objects with a type and a url;
- each item has an id (a string, or a number, which readers coerce; never
  empty), unique in the feed, and content_html or content_text (one of
  them is required);
- date_published and date_modified are RFC 3339 date-times;
- tags is an array of strings; attachments objects with url and mime_type
  (strings), size_in_bytes and duration_in_seconds numbers;
- language is an RFC 5646 tag;
- a key the version does not define starts with an underscore (the spec's
  rule for extensions), so a misspelt key (content_htm) is a fault.

check(data) returns the faults of one document as a list of strings.
"""
import datetime
import json
import re
import sys
import urllib.parse

import checkfiles  # the command line, beside this file

VERSION = "https://jsonfeed.org/version/1.1"

TOP = {"version", "title", "home_page_url", "feed_url", "description", "user_comment", "next_url", "icon",
       "favicon", "authors", "author", "language", "expired", "hubs", "items"}
ITEM = {"id", "url", "external_url", "title", "content_html", "content_text", "summary", "image",
        "banner_image", "date_published", "date_modified", "authors", "author", "tags", "language",
        "attachments"}
AUTHOR = {"name", "url", "avatar"}
ATTACHMENT = {"url", "mime_type", "title", "size_in_bytes", "duration_in_seconds"}

RFC3339 = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
LANG = re.compile(r"^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$")


def is_url(v):
    if not isinstance(v, str) or not v or any(c.isspace() for c in v):
        return False
    u = urllib.parse.urlsplit(v)
    return u.scheme in ("http", "https") and bool(u.netloc)


def rfc3339(v):
    """Whether v is an RFC 3339 date-time with a real date and time."""
    if not isinstance(v, str):
        return False
    m = RFC3339.match(v)
    if not m:
        return False
    y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
    try:
        datetime.datetime(y, mo, d, h, mi, min(s, 59))  # a leap second is 60
    except ValueError:
        return False
    off = m.group(8)
    if off not in ("Z", "z") and (int(off[1:3]) > 23 or int(off[4:6]) > 59):
        return False
    return s <= 60


class Checker:
    def __init__(self):
        self.faults = []

    def fault(self, where, what):
        self.faults.append(f"{where}: {what}" if where else what)

    def keys(self, where, obj, known):
        for k in obj:
            if k not in known and not k.startswith("_"):
                self.fault(where, f"unknown key '{k}' (an extension's key starts with '_')")

    def string(self, where, obj, key, required=False, empty=True):
        if key not in obj:
            if required:
                self.fault(where, f"'{key}' is required")
            return
        if not isinstance(obj[key], str):
            self.fault(where, f"'{key}' must be a string, found {type(obj[key]).__name__}")
        elif not empty and not obj[key]:
            self.fault(where, f"'{key}' is empty")

    def url(self, where, obj, key):
        if key in obj and not is_url(obj[key]):
            self.fault(where, f"'{key}' must be an absolute http(s) URL, found {json.dumps(obj[key])}")

    def language(self, where, obj):
        self.string(where, obj, "language")
        if isinstance(obj.get("language"), str) and not LANG.match(obj["language"]):
            self.fault(where, f"'language' must be an RFC 5646 tag, found {json.dumps(obj['language'])}")

    def author(self, where, a):
        if not isinstance(a, dict):
            self.fault(where, "an author must be an object")
            return
        self.keys(where, a, AUTHOR)
        if not any(k in a for k in AUTHOR):
            self.fault(where, "an author needs at least one of name, url, avatar")
        self.string(where, a, "name")
        self.url(where, a, "url")
        self.url(where, a, "avatar")

    def authors(self, where, obj):
        if "authors" in obj:
            if not isinstance(obj["authors"], list):
                self.fault(where, "'authors' must be an array")
            else:
                for i, a in enumerate(obj["authors"]):
                    self.author(f"{where}.authors[{i}]" if where else f"authors[{i}]", a)
        if "author" in obj:
            self.author(f"{where}.author" if where else "author", obj["author"])

    def item(self, where, it, ids):
        if not isinstance(it, dict):
            self.fault(where, "an item must be an object")
            return
        self.keys(where, it, ITEM)
        if "id" not in it:
            self.fault(where, "'id' is required")
        elif isinstance(it["id"], bool) or not isinstance(it["id"], (str, int, float)):
            self.fault(where, f"'id' must be a string, found {type(it['id']).__name__}")
        elif str(it["id"]) == "":
            self.fault(where, "'id' is empty")
        else:
            key = str(it["id"])
            if key in ids:
                self.fault(where, f"id {json.dumps(key)} is also the id of {ids[key]} (ids are unique in a feed)")
            else:
                ids[key] = where
        for k in ("url", "external_url", "image", "banner_image"):
            self.url(where, it, k)
        for k in ("title", "summary", "content_html", "content_text"):
            self.string(where, it, k)
        if "content_html" not in it and "content_text" not in it:
            self.fault(where, "no content_html or content_text (one of them is required)")
        for k in ("date_published", "date_modified"):
            if k in it and not rfc3339(it[k]):
                self.fault(where, f"'{k}' must be an RFC 3339 date-time, found {json.dumps(it[k])}")
        if "tags" in it and (not isinstance(it["tags"], list) or not all(isinstance(t, str) for t in it["tags"])):
            self.fault(where, "'tags' must be an array of strings")
        self.language(where, it)
        self.authors(where, it)
        for i, at in enumerate(it.get("attachments", []) if isinstance(it.get("attachments", []), list) else [None]):
            w = f"{where}.attachments[{i}]"
            if not isinstance(at, dict):
                self.fault(w, "an attachment must be an object")
                continue
            self.keys(w, at, ATTACHMENT)
            self.url(w, at, "url")
            if "url" not in at:
                self.fault(w, "'url' is required")
            self.string(w, at, "mime_type", required=True, empty=False)
            self.string(w, at, "title")
            for k in ("size_in_bytes", "duration_in_seconds"):
                if k in at and (isinstance(at[k], bool) or not isinstance(at[k], (int, float))):
                    self.fault(w, f"'{k}' must be a number")

    def feed(self, data):
        try:
            doc = json.loads(data.decode("utf-8"))
        except UnicodeDecodeError as e:
            self.fault("", f"not UTF-8: {e}")
            return
        except json.JSONDecodeError as e:
            self.fault("", f"not JSON: {e}")
            return
        if not isinstance(doc, dict):
            self.fault("", "the top level must be an object")
            return
        self.keys("", doc, TOP)
        if doc.get("version") != VERSION:
            self.fault("", f"'version' must be \"{VERSION}\", found {json.dumps(doc.get('version'))}")
        self.string("", doc, "title", required=True)
        for k in ("home_page_url", "feed_url", "next_url", "icon", "favicon"):
            self.url("", doc, k)
        for k in ("description", "user_comment"):
            self.string("", doc, k)
        if "expired" in doc and not isinstance(doc["expired"], bool):
            self.fault("", "'expired' must be a boolean")
        self.language("", doc)
        self.authors("", doc)
        for i, h in enumerate(doc.get("hubs", []) if isinstance(doc.get("hubs", []), list) else [None]):
            if not isinstance(h, dict) or not isinstance(h.get("type"), str) or not isinstance(h.get("url"), str):
                self.fault(f"hubs[{i}]", "a hub is an object with a type and a url")
        if "items" not in doc:
            self.fault("", "'items' is required")
        elif not isinstance(doc["items"], list):
            self.fault("", "'items' must be an array")
        else:
            ids = {}
            for i, it in enumerate(doc["items"]):
                self.item(f"items[{i}]", it, ids)


# check(data): the faults of one JSON Feed document (bytes), as strings
check = checkfiles.checker(Checker)


if __name__ == "__main__":
    sys.exit(checkfiles.main(sys.argv, check))

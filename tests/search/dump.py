#!/usr/bin/env python3
"""dump.py SITE_OUTPUT [WORD...]: reads the search index folio wrote under
SITE_OUTPUT/search/ as folio-site(5) describes it (a reader of the format
apart from the theme's script) and prints, for each shard, its key and
words; with WORDs, each word's shard and the documents of its stem."""
import json
import os
import sys


def varint(b, i):
    x = s = 0
    while True:
        c = b[i]
        i += 1
        x |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return x, i


def shard(path):
    """[(word, stem_only, [(doc, impact)])] of a shard file."""
    b = open(path, "rb").read()
    i = 0
    ns, i = varint(b, i)
    stems = []
    for _ in range(ns):
        df, i = varint(b, i)
        docs, d = [], 0
        for _ in range(df):
            x, i = varint(b, i)
            d += x
            docs.append(d)
        q = b[i:i + df]
        i += df
        stems.append(list(zip(docs, q)))
    nw, i = varint(b, i)
    words, last = [], b""
    for _ in range(nw):
        c, i = varint(b, i)
        n, i = varint(b, i)
        w = last[:c] + b[i:i + n]
        i += n
        s, i = varint(b, i)
        words.append((w.decode(), s & 1, stems[s >> 1]))
        last = w
    if i != len(b):
        raise ValueError(f"{path}: {len(b) - i} bytes left over")
    return words


def main():
    out = sys.argv[1]
    meta = json.load(open(os.path.join(out, "search", "index.json")))
    want = sys.argv[2:]
    for key, h in sorted(meta["shards"].items()):
        words = shard(os.path.join(out, "search", "t", h + ".bin"))
        if not want:
            print(key, " ".join(w for w, only, _ in words if not only))
        for w, only, posts in words:
            if w in want:
                print(f"{w} (shard {key}{', a stem' if only else ''}): {posts[:20]}")


if __name__ == "__main__":
    main()

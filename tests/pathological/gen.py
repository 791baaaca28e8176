#!/usr/bin/env python3
"""gen.py: pathological sites for folio, one per case, written by code.

Every case is a small site whose one post (or folio.yml, a data file, a
template) is the pathological input: the deep nesting, openers without
closers and amplification tricks that md4c's and cmark's pathological tests
use, and the bombs and limits of YAML and of the template language.

A case is either
  render  the site builds (exit 0) and its pages are well-formed UTF-8, or
  error   the build fails at once (exit 1) with a diagnostic that contains
          the case's `expect` text, in the form path:line:col: error: ...
(`either` cases may do either, e.g. a formula KaTeX refuses.)

    gen.py list                   the cases: NAME KIND, one a line
    gen.py write NAME DIR [SIZE]  writes the case's site into DIR (SIZE:
                                  bytes of pathological input, default 1 MiB)

run.py (the test) and measure.py (the benchmark) import this module.
"""
import os
import struct
import sys
import zlib

MIB = 1 << 20

# The links these inputs write lead nowhere ('[a](b)' a million times): they
# are checked, as every build checks them, but only warned of, so that a
# case tests its parser; the links-* cases below check with errors on.
CONFIG = 'title: "Pathological"\nbase_url: "https://example.org/"\nlinks:\n  check: warn\n'
STRICT = 'title: "Pathological"\nbase_url: "https://example.org/"\n'
FRONT = '---\ntitle: "Case"\ndate: 2026-01-01\n---\n'


def fill(unit, size):
    """unit repeated to about size bytes (at least once)."""
    if isinstance(unit, str):
        unit = unit.encode()
    return unit * max(1, size // len(unit))


def grow(make, size):
    """make(0) + make(1) + ... up to about size bytes: for inputs whose
    parts grow (one more backtick, one more level of indentation)."""
    parts, n, i = [], 0, 1
    while n < size:
        p = make(i)
        if isinstance(p, str):
            p = p.encode()
        parts.append(p)
        n += len(p)
        i += 1
    return b"".join(parts)


def wrap(text, width=72, prefix=b""):
    """text (bytes) cut into lines of width bytes, so a run of inline
    openers stays one paragraph without being one 1 MB line. prefix starts
    every line: "x " keeps a line from starting an HTML block."""
    return b"\n".join(prefix + text[i:i + width] for i in range(0, len(text), width)) + b"\n"


def png(w, h):
    """A w x h grey PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + b"\x80" * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


IMAGE = {"static/i.png": png(3, 2)}


class Case:
    def __init__(self, name, kind, files, expect=None, what="", balanced=True, post="posts/case"):
        self.name = name
        self.kind = kind  # "render", "error" or "either"
        self.files = files  # size -> {relative path: bytes}
        self.expect = expect  # text the first error contains (error cases)
        self.what = what
        self.balanced = balanced  # the post's HTML has matching tags
        self.post = post  # the post's page folder, for the output checks


CASES = []


def md(name, body, what="", balanced=True, kind="render", expect=None, extra=None, config=None):
    """A case whose one post's body is body(size) (bytes); extra: more files;
    config: folio.yml (CONFIG if None)."""

    def files(size):
        f = {"folio.yml": (config or CONFIG).encode(), "content/posts/case.md": FRONT.encode() + body(size)}
        f.update(extra or {})
        return f

    CASES.append(Case(name, kind, files, expect, what, balanced))


def site(name, kind, files, expect=None, what="", balanced=True, post="posts/case"):
    CASES.append(Case(name, kind, files, expect, what, balanced, post))


# ---------------------------------------------------------------- Markdown
# Block nesting.
md("blockquote-deep", lambda n: fill("> ", n) + b"a\n", "one line of 500k '> '")
md("blockquote-stairs", lambda n: grow(lambda i: "> " * i + "a\n", n), "lines one '>' deeper each")
md("blockquote-lazy", lambda n: fill("> a\nb\n", n), "lazy continuation lines")
md("list-deep", lambda n: fill("- ", n) + b"a\n", "one line of 500k '- '")
md("list-ordered-deep", lambda n: fill("1. ", n) + b"a\n", "one line of 333k '1. '")
md("list-stairs", lambda n: grow(lambda i: "  " * i + "- a\n", n), "items indented one level deeper each")
md("list-quote-deep", lambda n: fill("- > ", n) + b"a\n", "lists and quotes interleaved")
md("list-many", lambda n: fill("- a\n", n), "250k items")
md("tasklist-many", lambda n: fill("- [ ] a\n- [x] b\n", n), "task list items")
md("html-block-deep", lambda n: b"<div>\n\n" * (n // 15) + b"</div>\n\n" * (n // 15), "nested <div> blocks")
md("indented-code", lambda n: fill("    a\n", n), "one long indented code block")
md("setext-many", lambda n: fill("a\n=\n\n", n), "setext headings")
md("paragraphs-many", lambda n: fill("a\n\n", n), "350k paragraphs")
# Brackets, links and images.
md("brackets-open", lambda n: wrap(fill("[", n)), "'[' without ']'")
md("brackets-close", lambda n: wrap(fill("]", n)), "']' without '['")
md("brackets-nested", lambda n: wrap(fill("[", n // 2) + b"a" + fill("]", n // 2)), "[[[...a...]]]")
md("links-nested", lambda n: wrap(fill("[", n // 5) + b"a" + fill("](b)", n * 4 // 5)), "[[[a](b)](b)](b)")
md("images-nested", lambda n: wrap(fill("![", n // 4) + b"a" + fill("](/i.png)", n * 3 // 4)),
   "![![![a](/i.png)](/i.png)](/i.png): images in alt texts", extra=IMAGE)
md("links-unclosed-dest", lambda n: wrap(fill("[a](", n)), "'[a](' without ')'")
md("link-dest-parens", lambda n: b"[a](" + fill("(", n) + b")\n", "a destination of 1M '('")
md("linkref-many", lambda n: grow(lambda i: "[r%d]: /u%d\n" % (i, i), n // 2) + grow(lambda i: "[r%d] " % i, n // 2),
   "50k definitions, each used")
md("linkref-longlabel", lambda n: b"[" + b"x" * 999 + b"]: /u\n\n" + wrap(fill(b"[" + b"x" * 999 + b"] ", n)),
   "a 999-character label used 1000 times")
# The link check (links.check: error): many broken links, fragments and
# .md links, each told once at most 50 times a page and found in linear time.
md("links-broken-many", lambda n: fill("[a](/nope/) ", n), "100k links to a page that is not there",
   kind="error", expect="broken link", config=STRICT)
md("links-fragment-many", lambda n: fill("# h\n\n[a](#h) [b](#nope)\n\n", n),
   "many headings, links to them and to a missing id", kind="error", expect="has no element with id",
   config=STRICT)
md("links-fragment-ok", lambda n: grow(lambda i: "# h%d\n[a](#h%d)\n" % (i, i), n),
   "50k headings, each linked to", config=STRICT)
md("links-md-many", lambda n: fill("[a](x.md#y) [b](@/posts/none.md) ", n), ".md and @/ links to no post",
   kind="error", expect="no post, page or series", config=STRICT)
md("links-climb", lambda n: b"[a](" + fill("../", n) + b"x)\n", "a relative link 1M '../' deep",
   kind="error", expect="climbs out of the site", config=STRICT)
md("links-raw-html", lambda n: fill('<a href="/nope/" id="x"><img src="/n.png" srcset="/a.png 1x, /b.png 2x"></a>\n', n),
   "raw HTML links, images and srcsets to nothing", kind="error", expect="broken link", config=STRICT)
md("linkref-expansion", lambda n: b"[a]: /" + b"u" * 4000 + b"\n\n" + wrap(fill("[a] ", n)),
   "a 4 KB destination used 250k times (1 GB of output if expanded)")
md("linkref-undefined", lambda n: wrap(fill("[a][b]", n)), "[a][b][a][b]... no definitions")
md("linkref-defs-only", lambda n: fill("[a]: /u\n", n), "one label defined 125k times")
md("images-many", lambda n: grow(lambda i: '![a](/i.png?%d "t")\n\n' % i, n), "figures: images alone with a title",
   extra=IMAGE)
md("images-inline", lambda n: wrap(grow(lambda i: '![a](/i.png?%d) ' % i, n)), "images in one paragraph", extra=IMAGE)
md("images-missing", lambda n: grow(lambda i: '![a](/no%d.png "t")\n\n' % i, n), "40k missing images",
   kind="error", expect="not found")
md("footnotes-many", lambda n: grow(lambda i: "[^%d] " % i, n // 2) + b"\n\n" +
   grow(lambda i: "[^%d]: n\n" % i, n // 2), "footnote references and definitions")
md("footnotes-chain", lambda n: b"[^1]\n\n" + grow(lambda i: "[^%d]: [^%d]\n" % (i, i + 1), n),
   "each footnote refers to the next")
md("footnote-self", lambda n: wrap(fill("[^a] ", n)) + b"\n[^a]: [^a] [^a]\n", "a footnote that refers to itself")
# Emphasis and code spans.
md("emph-open", lambda n: wrap(fill("*a ", n)), "'*a ' without closers")
md("emph-under-open", lambda n: wrap(fill("_a ", n)), "'_a ' without closers")
md("emph-close", lambda n: wrap(fill("a* ", n)), "closers without openers")
md("emph-nested", lambda n: wrap(fill("*", n // 2) + b"a" + fill("*", n // 2)), "***...a...***")
md("emph-mixed", lambda n: wrap(fill("*a **a ", n)), "single and double openers")
md("emph-alternating", lambda n: wrap(fill("*_", n // 2) + b"a" + fill("_*", n // 2)), "*_*_...a..._*_*")
md("strike-open", lambda n: wrap(fill("~~a ", n)), "'~~a ' without closers")
md("tildes", lambda n: wrap(fill("~", n)), "1M '~'")
md("backticks-grow", lambda n: wrap(grow(lambda i: "e" + "`" * i, n)), "runs of 1, 2, 3... backticks")
md("backticks-open", lambda n: wrap(fill("`a ", n)), "'`a ' without closers")
md("smart-quotes", lambda n: wrap(fill("\"'a ", n)), "quotes for smart punctuation")
# Raw HTML and entities (after a letter, so they stay inline).
md("html-comment-open", lambda n: wrap(fill("a <!-- ", n), prefix=b"x "), "'<!--' without '-->'")
md("html-cdata-open", lambda n: wrap(fill("a <![CDATA[ ", n), prefix=b"x "), "'<![CDATA[' without ']]>'")
md("html-pi-open", lambda n: wrap(fill("a <? ", n), prefix=b"x "), "'<?' without '?>'")
md("html-decl-open", lambda n: wrap(fill("a <!A ", n), prefix=b"x "), "'<!A' without '>'")
md("html-tag-open", lambda n: wrap(fill('a <a href="', n), prefix=b"x "), "'<a href=\"' without a closing quote")
md("lt-many", lambda n: wrap(fill("<", n), prefix=b"x "), "1M '<'")
md("entities-open", lambda n: wrap(fill("&#", n)), "'&#' without ';'")
md("entities-many", lambda n: wrap(fill("&amp;&#x41;&copy; ", n)), "entities")
# GFM extensions.
md("autolink-www", lambda n: wrap(fill("www.", n)), "'www.' repeated")
md("autolink-email", lambda n: wrap(fill("a@b.", n)), "'a@b.' repeated")
md("autolink-underscores", lambda n: b"www.a" + fill("_", n) + b"\n", "www.a followed by 1M '_'")
md("autolink-angle", lambda n: wrap(fill("<http://a", n)), "'<http://a' without '>'")
md("table-wide", lambda n: fill("|a", n // 2) + b"|\n" + fill("|-", n // 2) + b"|\n|b|\n",
   "a header of 250k columns")
md("table-rows", lambda n: b"|a|b|\n|-|-|\n" + fill("|c|d|\n", n), "170k rows")
md("table-pad", lambda n: fill("|a", 20000) + b"|\n" + fill("|-", 20000) + b"|\n" + fill("|\n", n),
   "10k columns, then 500k empty rows to pad")
md("table-pipes", lambda n: b"|a|\n|-|\n" + fill("|", n) + b"\n", "one row of 1M '|'")
# folio's extensions: math, directives, headings, code blocks.
md("math-open", lambda n: wrap(fill("$a ", n)), "'$a ' without closers", kind="either")
md("math-dollars", lambda n: wrap(fill("$", n)), "1M '$'", kind="either")
md("math-display-open", lambda n: wrap(fill("$$a ", n)), "'$$a ' without closers", kind="either")
md("math-same", lambda n: wrap(fill("$x^2$ ", n)), "170k copies of one formula", kind="either")
md("math-braces", lambda n: b"$" + fill("{", 50000) + fill("}", 50000) + b"$\n", "a formula nested 50k deep",
   kind="either")
md("math-in-emph", lambda n: wrap(fill("*$a$ _$b$ ", n)), "formulas among emphasis openers", kind="either")
md("directive-open", lambda n: fill(":::note\n", n), "':::note' without ':::'", kind="either")
md("directive-deep", lambda n: fill(":::note\n", n // 2) + fill(":::\n", n // 2), "callouts nested 65k deep",
   kind="either")
md("directive-close", lambda n: fill(":::\n", n), "':::' without an opener", kind="either")
md("directive-colons", lambda n: fill(":", n) + b"\n", "one line of 1M ':'", kind="either")
md("directive-attrs", lambda n: b":::note{" + grow(lambda i: "k%d=v " % i, n) + b"}\n:::\n", "1M of attributes",
   kind="either")
md("directive-unclosed-attrs", lambda n: fill(":::note{a=\"\n", n), "attributes never closed", kind="either")
# a site's own directives (templates/directives/): many calls, nested deep
UDIR = {"templates/directives/kbd.html": b"<kbd>{{ content }}</kbd>\n",
        "templates/directives/box.html": b"<div class=\"box\">{{ content }}</div>\n"}
md("udir-inline-many", lambda n: wrap(fill("a :kbd[Ctrl] b ", n)), "60k inline calls of a site's directive",
   extra=UDIR, kind="either")
md("udir-leaf-many", lambda n: fill("::box\n\n", n), "150k leaf calls", extra=UDIR, kind="either")
md("udir-block-deep", lambda n: fill(":::box\n", n // 2) + fill(":::\n", n // 2), "a site's directive nested 65k deep",
   extra=UDIR, kind="either")
md("udir-inline-nested", lambda n: wrap(fill(":kbd[", n // 2) + b"x" + fill("]", n // 2)), "inline calls in calls",
   extra=UDIR, kind="either")
md("udir-inline-unclosed", lambda n: fill(":kbd[a ", n) + b"\n", "one paragraph of 150k ':kbd[' never closed",
   extra=UDIR, kind="either")
md("udir-inline-closed-once", lambda n: fill(":kbd[a ", n) + b"]\n", "150k ':kbd[' and one ']' at the end",
   extra=UDIR, kind="either")
md("headings-same", lambda n: fill("# a\n", n), "250k headings with the same id")
md("headings-collide", lambda n: grow(lambda i: "## a\n## a-%d\n" % i, n), "'a', 'a-1', 'a', 'a-2'... clashing")
md("headings-customid", lambda n: fill("## a {#x}\n", n), "one custom id 100k times", kind="either")
md("heading-long", lambda n: b"# " + fill("ab ", n) + b"\n", "one heading of 1 MB")
md("headings-levels", lambda n: grow(lambda i: "#" * (i % 6 + 1) + " h\n", n), "levels 1-6 in turn (TOC)")
md("fences-many", lambda n: fill("```c\nint x;\n```\n", n), "70k highlighted code blocks")
md("fence-unclosed", lambda n: b"```\n" + fill("a\n", n), "a fence never closed")
md("fence-c-nested", lambda n: b"```c\n" + fill("{", n // 2) + fill("}", n // 2) + b"\n```\n",
   "C nested 500k braces deep")
md("fence-python-nested", lambda n: b"```python\nx = " + fill("(", n // 2) + fill(")", n // 2) + b"\n```\n",
   "Python nested 500k parentheses deep")
md("fence-hl-range", lambda n: b'```c {hl="1-4000000000" linenos}\n' + fill("x;\n", n) + b"```\n",
   "a highlighted range of 4 billion lines", kind="either")
md("fence-backticks", lambda n: grow(lambda i: "`" * (i + 2) + "\n", n), "fences of 3, 4, 5... backticks")
md("fence-hl-empty", lambda n: fill("```{hl=100000}\n```\n", n),
   "55k empty blocks each naming line 100,000 in hl (100 KB each as a bitmap)")
md("fence-hl-repeat", lambda n: b'```{hl="' + grow(lambda i: "1-100000," , n - 20) + b'1"}\nx\n```\n',
   "hl naming lines 1-100000 100k times")
md("fence-linenos-empty", lambda n: b"```{linenos}\n" + fill("\n", n) + b"```\n",
   "line numbers on 1M empty lines: 80 MB of markup, past a page's 64 MiB (at valgrind's 64 KiB, 5 MB: a page)",
   kind="either")
md("fence-unknown-warnings", lambda n: fill("\n", n - 21000) + fill("```zz\n```\n", 21000),
   "2,100 warnings after 1M empty lines, each with the line")
# Diagrams: pikchr reads at most 10,000 tokens a diagram (macros included)
# and 64 KiB of source, and a page's diagrams may take 0.25 s of CPU (under bench-patho's goal of 0.5 s).
PIK_VARS = "".join("v%d=1\n" % i for i in range(8000))  # 60 KB
PIK_MACRO = ("define ma {box;box;box;box;box;box;box;box;box;box}\ndefine mb {ma;ma;ma;ma;ma;ma;ma;ma;ma;ma}\n"
             "define mc {mb;mb;mb;mb;mb;mb;mb;mb;mb;mb}\nmc\nmc\nmc\nmc\nmc\nmc\n")
md("pikchr-many", lambda n: fill('```pikchr\nbox "a"; arrow; circle "b"\n```\n', n),
   "30k small diagrams (past the page's 0.25 s, or not)", kind="either")
md("pikchr-vars", lambda n: fill("```pikchr\n%s```\n" % PIK_VARS, n),
   "diagrams of 60 KB defining distinct variables (pikchr looks each up in a list)", kind="error",
   expect="pikchr: ")
md("pikchr-big", lambda n: b"```pikchr\n" + fill("box\n", n) + b"```\n", "one diagram of 1 MB", kind="error",
   expect="past the limit of 64 KiB")
md("pikchr-nested", lambda n: fill("```pikchr\n%s%s\n```\n" % ("[" * 30000, "]" * 30000), n),
   "diagrams nested 30k deep", kind="error", expect="pikchr: parser stack overflow")
md("pikchr-macro", lambda n: fill("```pikchr\n%s```\n" % PIK_MACRO, n), "macros expanding to 6,000 boxes each",
   kind="error", expect="pikchr: script is too complex")
# Formulas KaTeX makes big: a macro expanded 100 times makes 200 KB of
# MathML from 270 bytes; repeated, the page's HTML would pass 1 GiB, where
# cmark's renderer aborts.
AMP = "\\def\\a{%s}\\def\\b{%s}\\def\\c{%s}\\c" % ("x+" * 100, "\\a" * 10, "\\b" * 10)
md("math-amplified", lambda n: fill("$%s$\n\n" % AMP, n), "one formula of 200 KB of MathML, 3,800 times",
   kind="error", expect="more than 64 times its TeX")
md("math-amplified-distinct", lambda n: grow(lambda i: "$%s y_{%d}$\n\n" % (AMP, i), n),
   "3,700 different formulas of 200 KB of MathML each", kind="error", expect="math:")
md("math-nul", lambda n: fill("$\\char0$ a\n\n", n), "KaTeX's \\char0 makes a NUL", kind="error",
   expect="cannot hold")
# Searches through the file for a place, once per node.
md("customid-dup-long", lambda n: b"# " + fill("x", n // 2) + b" &#123;#dup}\n\n" + fill("# {#dup}\n", n // 2),
   "a duplicate {#id} 50k times, the first heading 500 KB long", kind="error", expect="duplicate heading id")
md("images-by-reference", lambda n: b"[r]: #\n\n" + fill("![a][r]", n) + b"\n",
   "150k images by reference on one line (no '](' to find)")


def fnv_colliding(stages, bits=20):
    """2**stages slugs whose FNV-1a hashes share their low bits: FNV's low
    bits depend on the input's low bits only, so one colliding pair of
    4-letter blocks a stage is found quickly."""
    mask = (1 << bits) - 1
    prime, state = 1099511628211 & mask, 1469598103934665603 & mask
    alpha = "abcdefghijklmnopqrstuvwxyz0123456789"
    pairs = []
    for _ in range(stages):
        seen = {}
        for blk in ("q" + a + b + c for a in alpha for b in alpha for c in alpha):
            t = state
            for ch in blk.encode():
                t = ((t ^ ch) * prime) & mask
            if t in seen:
                pairs.append((seen[t], blk))
                state = t
                break
            seen[t] = blk
    out = [""]
    for a, b in pairs:
        out = [x + a for x in out] + [x + b for x in out]
    return out


md("headings-fnv-colliding", lambda n: "".join("# %s\n" % s for s in fnv_colliding(max(1, (n // 64).bit_length() - 1))).encode(),
   "16k headings whose slugs all fall in one slot of an FNV table")
# Text shapes.
md("long-word", lambda n: fill("a", n) + b"\n", "one word of 1 MB")
md("long-line", lambda n: fill("a ", n) + b"\n", "one line of 500k words")
md("nul-bytes", lambda n: b"a" + fill(b"\0", n) + b"\n", "1M NUL bytes")
md("carriage-returns", lambda n: fill(b"a\r", n), "lines ended by CR only")
md("tabs", lambda n: fill(b"\t", n) + b"a\n", "1M tabs")
md("more-many", lambda n: fill("a\n<!--more-->\n", n), "the summary separator 75k times")
md("backslashes", lambda n: wrap(fill("\\", n)), "1M backslashes")

# ---------------------------------------------------------------- YAML
BOMB = "".join("l%d: &l%d [%s]\n" % (i, i, ",".join(["*l%d" % (i - 1)] * 9)) for i in range(1, 10))
BOMB = 'l0: &l0 "lol"\n' + BOMB


def bomb_files(where):
    def files(size):
        f = {"folio.yml": CONFIG.encode(), "content/posts/case.md": FRONT.encode() + b"a\n"}
        if where == "config":
            f["folio.yml"] = (CONFIG + BOMB).encode()
        elif where == "front":
            f["content/posts/case.md"] = ("---\ntitle: \"Case\"\ndate: 2026-01-01\nx:\n" +
                                          "".join("  " + l + "\n" for l in BOMB.splitlines()) + "---\na\n").encode()
        else:
            f["data/bomb.yml"] = BOMB.encode()
        return f
    return files


site("yaml-bomb-config", "error", bomb_files("config"), "aliases", "billion laughs in folio.yml")
site("yaml-bomb-front", "error", bomb_files("front"), "aliases", "billion laughs in front matter")
site("yaml-bomb-data", "error", bomb_files("data"), "aliases", "billion laughs in a data file")

DEEP = 100000


def deep_files(where, opener, tail="", head=""):
    text = head + opener * DEEP + tail

    def files(size):
        f = {"folio.yml": CONFIG.encode(), "content/posts/case.md": FRONT.encode() + b"a\n"}
        if where == "config":
            f["folio.yml"] = (CONFIG + "menu: " + text + "\n").encode()
        elif where == "front":
            f["content/posts/case.md"] = ("---\ntitle: \"Case\"\ndate: 2026-01-01\ntags: " + text +
                                          "\n---\na\n").encode()
        else:
            f["data/deep.yml"] = (text + "\n").encode()
        return f
    return files


site("yaml-deep-flow-config", "error", deep_files("config", "["), "nested deeper", "100k '[' in folio.yml")
site("yaml-deep-flow-front", "error", deep_files("front", "["), "nested deeper", "100k '[' in front matter")
site("yaml-deep-map-front", "error", deep_files("front", "{a: "), "nested deeper", "100k '{a: ' in front matter")
site("yaml-deep-block-data", "error", deep_files("data", "- ", "a"), "nested deeper", "100k '- ' in a data file")
site("yaml-deep-block-config", "error", deep_files("config", "- ", "a", "\n  "), "nested deeper",
     "100k '- ' in folio.yml")
site("yaml-deep-block-front-line", "error", deep_files("front", "- ", "a", "\n  "), "nested deeper",
     "100k '- ' in front matter, on one line")
site("yaml-deep-flow-data", "error", deep_files("data", "[{a: "), "nested deeper", "100k '[{a: ' in a data file")
site("yaml-deep-block-front", "error",
     lambda size: {"folio.yml": CONFIG.encode(),
                   "content/posts/case.md": ("---\ntitle: \"Case\"\ndate: 2026-01-01\ntags:\n" +
                                             "".join("  " * i + "- \n" for i in range(1, 2000)) + "---\na\n").encode()},
     "nested deeper", "a block list indented 2000 levels deep")
site("yaml-long-key", "error",
     lambda size: {"folio.yml": CONFIG.encode(),
                   "content/posts/case.md": FRONT.encode()[:-4] + fill("k", size) + b": 1\n---\na\n"},
     "YAML", "a front matter key of 1 MB")
site("yaml-many-keys", "error",
     lambda size: {"folio.yml": CONFIG.encode(),
                   "content/posts/case.md": FRONT.encode()[:-4] + b"x:\n" +
                   grow(lambda i: "  k%d: 1\n" % i, size) + b"  k1: 2\n---\na\n"},
     "k1", "a map of 100k keys with one twice")

# ---------------------------------------------------------------- sizes
def big_post(size):
    # The size limit is on the file, whatever the scale of the run.
    return {"folio.yml": CONFIG.encode(), "content/posts/case.md": FRONT.encode() + fill("word ", 100 * MIB)}


site("post-100mb", "error", big_post, "larger than", "a post of 100 MB")
site("config-20mb", "error",
     lambda size: {"folio.yml": (CONFIG + "description: \"" + "d" * (20 * MIB) + "\"\n").encode(),
                   "content/posts/case.md": FRONT.encode() + b"a\n"}, "larger than", "a folio.yml of 20 MB")

# ---------------------------------------------------------------- templates
def tmpl_site(templates, body=b"a\n"):
    def files(size):
        f = {"folio.yml": CONFIG.encode(), "content/posts/case.md": FRONT.encode() + body}
        for k, v in templates(size).items():
            f["templates/" + k] = v.encode() if isinstance(v, str) else v
        return f
    return files


def include_chain(n):
    t = {"post.html": '{% include "c1.html" %}\n'}
    for i in range(1, n):
        t["c%d.html" % i] = '{%% include "c%d.html" %%}\n' % (i + 1)
    t["c%d.html" % n] = "end\n"
    return t


def extends_chain(n):
    t = {"post.html": '{% extends "e1.html" %}\n'}
    for i in range(1, n):
        t["e%d.html" % i] = '{%% extends "e%d.html" %%}\n' % (i + 1)
    t["e%d.html" % n] = "{% block main %}end{% endblock %}\n"
    return t


site("include-chain", "error", tmpl_site(lambda s: include_chain(10000)), "deeper", "10,000 includes deep")
site("include-self", "error", tmpl_site(lambda s: {"post.html": '{% include "post.html" %}'}), "includes itself",
     "a template that includes itself")
site("extends-chain", "error", tmpl_site(lambda s: extends_chain(10000)), "levels", "10,000 parents deep")
site("extends-cycle", "error",
     tmpl_site(lambda s: {"post.html": '{% extends "a.html" %}', "a.html": '{% extends "b.html" %}',
                          "b.html": '{% extends "a.html" %}'}), "extend", "a extends b extends a")
site("macro-recursive", "error",
     tmpl_site(lambda s: {"post.html": "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}"}), "deeper",
     "a macro that calls itself")
site("macro-default-recursive", "error",
     tmpl_site(lambda s: {"post.html": '{% macro m(a, b=m("x")) %}{{ a }}{{ b }}{% endmacro %}{{ m("x") }}'}),
     "deeper", "a macro whose default value calls the macro (the fuzzer's stack overflow)")
site("macro-fork", "error",
     tmpl_site(lambda s: {"post.html": "{% macro m(n) %}{% if n %}{{ m(n - 1) }}{{ m(n - 1) }}{% endif %}"
                                       "{% endmacro %}{{ m(90) }}"}), "",
     "a macro that calls itself twice, 90 deep (2^90 calls)")
site("output-1gb-loop", "error",
     tmpl_site(lambda s: {"post.html": "{% for i in range(1000000) %}" + "0123456789" * 100 + "{% endfor %}"}),
     "output larger",
     "a loop printing 1 GB")
site("output-1gb-nested", "error",
     tmpl_site(lambda s: {"post.html": "{% for i in range(100000) %}{% for j in range(100000) %}"
                                       "0123456789{% endfor %}{% endfor %}"}), "output larger",
     "nested loops printing 100 GB")
site("output-1gb-repeat", "error",
     tmpl_site(lambda s: {"post.html": '{{ "0123456789" * 100000000 }}'}), "more than 67108864",
     "a string repeated to 1 GB")
site("repeat-empty", "render",
     tmpl_site(lambda s: {"post.html": '<!doctype html><html><body>[{{ "" * 9223372036854775807 }}]'
                                       '</body></html>\n'}), None,
     "the empty string repeated 2^63 - 1 times")
site("replace-blowup", "error",
     tmpl_site(lambda s: {"post.html": '{{ ("x" * 1000000) | replace("x", "y" * 60000000) }}'}), "longer than",
     "a million characters each replaced by 60 MB (60 TB)")
site("join-blowup", "error",
     tmpl_site(lambda s: {"post.html": '{{ range(1000000) | join("y" * 60000000) }}'}), "longer than",
     "a million numbers joined by 60 MB (60 TB)")
site("escape-chain", "error",
     tmpl_site(lambda s: {"post.html": '{{ ("&" * 60000000) | escape | escape | escape }}'}), "longer than",
     "60 MB of '&' escaped three times (7.5 GB)")


def shared_list(name="ns"):
    """a list holding one list twice, nested 40 deep: 2^40 strings in 40 lists."""
    return ('{%% set %s = namespace(v="x") %%}{%% for i in range(40) %%}{%% set %s.v = [%s.v, %s.v] %%}'
            '{%% endfor %%}' % (name, name, name, name))


site("shared-list-print", "error", tmpl_site(lambda s: {"post.html": shared_list() + "{{ ns.v }}"}),
     "output larger", "a list of 2^40 strings (40 lists in memory) printed")
site("shared-list-json", "error", tmpl_site(lambda s: {"post.html": shared_list() + "{{ ns.v | json }}"}),
     "longer than", "a list of 2^40 strings written as JSON")
site("shared-list-compare", "error",
     tmpl_site(lambda s: {"post.html": shared_list() + shared_list("ns2") + "{{ ns.v == ns2.v }}"}),
     "values compared", "two lists of 2^40 strings compared")
site("shared-list-sort", "error",
     tmpl_site(lambda s: {"post.html": shared_list() + shared_list("ns2") + "{{ [ns.v, ns2.v] | sort }}"}),
     "values compared", "two lists of 2^40 strings sorted")
BIG_S = '{% set s = "x" * 60000000 %}'
site("filter-loop", "error",
     tmpl_site(lambda s: {"post.html": BIG_S + "{% for i in range(1000000) %}{% if s | length %}{% endif %}{% endfor %}"}),
     "steps of work", "a filter over 60 MB, a million times (60 TB read, nothing printed)")
site("index-loop", "error",
     tmpl_site(lambda s: {"post.html": BIG_S + "{% for i in range(1000000) %}{% if s[-1] %}{% endif %}{% endfor %}"}),
     "steps of work", "the last character of 60 MB, a million times")
site("contains-loop", "error",
     tmpl_site(lambda s: {"post.html": BIG_S + '{% for i in range(1000000) %}{% if "y" in s %}{% endif %}{% endfor %}'}),
     "steps of work", "a search through 60 MB, a million times")
site("compare-loop", "error",
     tmpl_site(lambda s: {"post.html": BIG_S + '{% set t = "x" * 60000000 %}'
                                       "{% for i in range(1000000) %}{% if s == t %}{% endif %}{% endfor %}"}),
     "steps of work", "two strings of 60 MB compared a million times")
site("string-loop", "error",
     tmpl_site(lambda s: {"post.html": BIG_S + "{% for c in s %}{% endfor %}"}), "more than 2796202 characters",
     "a loop over the characters of 60 MB")
site("string-first-last", "render",
     tmpl_site(lambda s: {"post.html": BIG_S + "<!doctype html><html><body>{{ s | first }}{{ s | last }}"
                                       "{{ s | reverse | length }}{{ s | slice(-3) }}</body></html>\n"}), None,
     "first, last, reverse and slice of 60 MB")
site("list-sum-loop", "error",
     tmpl_site(lambda s: {"post.html": "{% set l = range(1000000) %}"
                                       "{% for i in range(1000000) %}{% if l | sum %}{% endif %}{% endfor %}"}),
     "steps of work", "a list of a million numbers summed a million times")
site("list-copy-loop", "error",
     tmpl_site(lambda s: {"post.html": "{% set l = range(1000000) %}"
                                       "{% for i in range(1000000) %}{% set m = l + [] %}{% endfor %}"}),
     "", "a list of a million numbers copied a million times")
site("output-doubling", "error",
     tmpl_site(lambda s: {"post.html": '{% set ns = namespace(s="ab") %}{% for i in range(40) %}'
                                       '{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}'}), "longer than",
     "a string doubled 40 times, never printed")
site("output-content-repeat", "error",
     tmpl_site(lambda s: {"post.html": "{% for i in range(1000) %}{{ post.content }}{% endfor %}"},
               body=fill("word ", 200000) + b"\n"), "output larger", "a 1 MB post printed 1000 times")
site("loop-silent", "error",
     tmpl_site(lambda s: {"post.html": "{% for i in range(1000000000) %}{% endfor %}"}), "",
     "a loop of a billion empty iterations")
site("template-deep-if", "either",
     tmpl_site(lambda s: {"post.html": "{% if 1 %}" * 100000 + "x" + "{% endif %}" * 100000}), "",
     "'if' nested 100k deep")
site("template-deep-parens", "either",
     tmpl_site(lambda s: {"post.html": "{{ " + "(" * 100000 + "1" + ")" * 100000 + " }}"}), "",
     "an expression nested 100k deep")
site("template-deep-list", "either",
     tmpl_site(lambda s: {"post.html": "{{ " + "[" * 100000 + "]" * 100000 + " }}"}), "",
     "a list literal nested 100k deep")
site("template-unclosed-tags", "error",
     tmpl_site(lambda s: {"post.html": "{% for x in y %}" * 100000}), "", "100k 'for' never closed")
site("template-open-braces", "either",
     tmpl_site(lambda s: {"post.html": "{" * (1 << 20)}), "", "1M '{'")
site("template-big", "error",
     tmpl_site(lambda s: {"post.html": "x" * (20 * MIB)}), "larger than", "a template of 20 MB")

# ---------------------------------------------------------------- site checks
# "Did you mean" searches every post's slug: an error that names a missing
# post must not search them again once its file's errors are no longer
# shown, nor copy them all each time.
def many_posts(size):
    """min(4096, size / 256) posts, slugs of some 30 letters."""
    return {"content/posts/p%d-a-post-about-something.md" % i: FRONT.encode() + b"a\n"
            for i in range(min(4096, size // 256))}


def missing_slugs(size, indent):
    return grow(lambda i: "%s- missing-%d-a-post-about-something\n" % (indent, i), size)


def series_missing(size):
    f = {"folio.yml": CONFIG.encode(),
         "content/series/s.md": b'---\ntitle: "S"\ndescription: "d"\nposts:\n' + missing_slugs(size, "  ") +
         b"---\n"}
    f.update(many_posts(size))
    return f


def best_of_missing(size):
    f = {"folio.yml": CONFIG.encode() + b"best_of:\n" + missing_slugs(size, "  ")}
    f.update(many_posts(size))
    return f


site("series-missing-posts", "error", series_missing, "no post",
     "a series listing 30k posts that do not exist, beside 4096 that do")
site("best-of-missing-posts", "error", best_of_missing, "best_of names no post",
     "best_of naming 30k posts that do not exist, beside 4096 that do")
site("tags-many", "error",
     lambda s: {"folio.yml": CONFIG.encode(),
                "content/posts/case.md": b'---\ntitle: "Case"\ndate: 2026-01-01\ntags:\n' +
                grow(lambda i: "  - tag-%d\n" % i, s) + b"---\na\n"},
     "a post may have at most 32",
     "one post with 1 MiB of tags: each tag's pages show them all (5000 wrote 2 GB)")


def with_posts(size, files, front=b""):
    """files plus min(4096, size / 256) posts, each with `front` in its
    front matter: texts repeated on every page multiply by them."""
    f = dict(files)
    for i in range(min(4096, size // 256)):
        f["content/posts/p%d.md" % i] = b'---\ntitle: "Case"\ndate: 2026-01-01\n' + front + b"---\na\n"
    return f


site("site-title-long", "error",
     lambda s: with_posts(s, {"folio.yml": b'title: "' + fill("t", s) + b'"\n'}),
     "it is repeated on every page", "a 1 MiB site title, beside 4096 posts (100 KB in 2000 made 1.6 GB)")
site("menu-many", "error",
     lambda s: with_posts(s, {"folio.yml": CONFIG.encode() + b"menu:\n" +
                              grow(lambda i: '  - {label: "M%d", url: "/m%d/"}\n' % (i, i), s)}),
     "the menu is on every page", "1 MiB of menu items, beside 4096 posts")
site("series-title-long", "error",
     lambda s: with_posts(s, {"folio.yml": CONFIG.encode(),
                              "content/series/s.md": b'---\ntitle: "' + fill("s", s) + b'"\ndescription: "d"\n---\n'},
                          b"series: s\n"),
     "it is repeated on every post of the series", "a 1 MiB series title on 4096 posts; they do not each say it is unknown")

# ---------------------------------------------------------------- UTF-8
BAD = [b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82", b"\x80", b"\xfe\xfe"]


def bad_utf8():
    return b"a".join(BAD)


site("utf8-front-matter", "either",
     lambda s: {"folio.yml": CONFIG.encode(),
                "content/posts/case.md": b'---\ntitle: "T' + bad_utf8() + b'"\ndate: 2026-01-01\n'
                b'summary: "s' + bad_utf8() + b'"\ntags: [t' + b"\xff" + b"]\n---\na\n"},
     what="invalid UTF-8 in title, summary and tags")
site("utf8-config", "either",
     lambda s: {"folio.yml": CONFIG.encode() + b'tagline: "t' + bad_utf8() + b'"\n',
                "content/posts/case.md": FRONT.encode() + b"a\n"}, what="invalid UTF-8 in folio.yml")
md("utf8-body", lambda n: fill(b"# h" + bad_utf8() + b"\n\nw" + bad_utf8() + b" *e" + b"\xff" + b"* `c" + b"\xe2" +
                                b"` $x" + b"\xff" + b"$ [l\xff](/u\xff \"t\xff\") ![i\xff](/i.png?\xff)\n\n"
                                b"```c\nint \xff;\n```\n\n:::note{title=\"n\xff\"}\nb\xff\n:::\n\n", n // 8),
   "invalid UTF-8 in headings, text, code, math, links, images, directives", extra=IMAGE, kind="error",
   expect="is not UTF-8")
md("utf8-body-bytes", lambda n: bytes(range(128, 256)) * (n // 1024) + b"\n", "every non-ASCII byte, in order",
   kind="error", expect="byte 0x80 is not UTF-8")
site("utf8-template", "either",
     tmpl_site(lambda s: {"post.html": b"<!doctype html><html><head><meta charset=\"utf-8\"><title>x</title>"
                                       b"</head><body>" + bad_utf8() + b"{{ post.title }}</body></html>\n"}),
     what="invalid UTF-8 in a template")
site("utf8-file-name", "either",
     lambda s: {"folio.yml": CONFIG.encode(), "content/posts/case.md": FRONT.encode() + b"a\n",
                b"content/posts/bad\xff\xfename.md": FRONT.encode() + b"b\n"},
     what="a post whose file name is not UTF-8")
site("utf8-data", "either",
     lambda s: {"folio.yml": CONFIG.encode(), "content/posts/case.md": FRONT.encode() + b"a\n",
                "data/d.yml": b"x: \"" + bad_utf8() + b"\"\n"}, what="invalid UTF-8 in a data file")


def by_name(name):
    for c in CASES:
        if c.name == name:
            return c
    raise KeyError(name)


def write(case, root, size=MIB):
    """Writes case's site into root (made if need be)."""
    for rel, data in case.files(size).items():
        if isinstance(rel, str):
            rel = rel.encode()
        path = os.path.join(os.fsencode(root), rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def main(argv):
    if len(argv) >= 2 and argv[1] == "list":
        for c in CASES:
            print(c.name, c.kind)
        return 0
    if len(argv) in (4, 5) and argv[1] == "write":
        write(by_name(argv[2]), argv[3], int(argv[4]) if len(argv) == 5 else MIB)
        return 0
    sys.stderr.write("usage: gen.py list | gen.py write NAME DIR [SIZE]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""seeds.py: builds the fuzz targets' seed folders from the test suite's own
files, in the input format each target reads (see tests/fuzz/fuzz_*.c):

  yaml      each test site's folio.yml, alone and with each of its posts,
            series, pages and data files; the data of tests/tmpl/ cases
  tmpl      the cases of tests/tmpl/*.txt, the theme's templates, and one
            that prints the long post of fuzz_tmpl.c's model
  markdown  the cases of tests/markdown/*.txt, the formulas of
            tests/math/, the code of tests/highlight/, every post body
  serve     the request targets and Host headers of tests/unit/test_serve.c
  image     every image file of tests/sites/
  imgdecode small JPEG, PNG and WebP files of every layout the decoders
            take: progressive, baseline with restarts, arithmetic, gray,
            YCCK/Adobe JPEGs (bytes folio's encoder and libjpeg wrote,
            below), EXIF orientations and ICC profiles spliced in; PNGs
            written here with zlib (RGB, RGBA, gray of 1 and 16 bits,
            palette with tRNS, Adam7, iCCP, text); lossy and lossless
            WebP; a two-image GIF; tests/sites/'s JPEGs and PNGs
  mdcache   .folio-cache/markdown.pack files holding the tests/markdown/
            cases' HTML and tables of contents (the layout of mdcache.c)
  links     the HTML of the tests/markdown/ cases, the theme's templates,
            and pages of links written for it (@@@ OUT between pages)
  toml      Hugo-like front matter and config files, every TOML type and
            form, a few broken ones (TOML_SEEDS below)
  json      the test sites' expected feed.json files, and Hugo-like front
            matter and config (JSON_SEEDS below)
  fmcache   .folio-cache/frontmatter files of trees like those of the
            test sites' front matter (the layout of fmcache.c), their salt
            and checksum left to the target to make
  related   .folio-cache/related files (the layout of site.c) of a few
            sizes, their checksums left to the target to make
  search    the HTML of the tests/markdown/ cases, the example blog's posts
            as documents (@@@ between them), and text in many scripts
  searchpack  a mode byte and a .folio-cache/search.pack file (the layout of
            src/search/pack.c) of documents made of the example blog's
            posts' words, in one record of texts or several, whole or cut
  srccache  .folio-cache/sources files of records of the example blog's
            posts, series and pages (the layout of srccache.c), their salt
            and checksum left to the target to make
  manifest  manifests of output folders (the layout of output/manifest.c):
            the files of each test site's expected output, version 1 and 2,
            with and without a spare's folder
  deployrecord  records of folio deploy (the layout of deploy/plan.c): the
            files of each test site's expected output, hashes 0 among them
  mathcache .folio-cache/math/KEY.cache files of the formulas of
            tests/math/ (their TeX and MathML, the layout of md/math.c) of
            every age, their key, count and checksum left to the target
  mathjax   a mode byte (display) and a formula: the TeX of tests/math/
            (MathJax's dialect among it), and unclosed or repeated
            constructs of the rewrites
  extcache  .folio-cache/external-links files (the layout of
            check/extcheck.c): answers fresh and stale at the target's
            clock, redirects, a URL answered twice, lines it skips
  pages     .folio-cache/pages-HASH files (the layout of
            incremental/rebuild.c): the keys, fingerprints and records of
            the example blog's pages, with and without the link check's
            memo, their stamp left to the target
  uptodate  .folio-cache/uptodate-HASH files (the layout of
            incremental/rebuild.c): the example blog's files as inputs,
            with and without warnings said
  bibtex    .bib files: the example blog's and the test sites', and
            entries of every form and its pathological cases (BIBTEX_SEEDS
            below: deep braces, a doubling @string chain, a 1 MB field,
            unclosed braces and quotes)
  pikchr    diagrams' sources: every ```pikchr block of the example blog,
            the test sites and the man pages, and drawings of each of
            pikchr's features and errors (PIKCHR_SEEDS below)
  mermaid   the same for ```mermaid blocks, and diagrams of each kind
            beautiful-mermaid draws, with its errors (MERMAID_SEEDS)
  symbol    "LANG NAME" and a file of code: the example blog's code/
            files and the test sites', snippets of each language with
            symbols (SYMBOL_SEEDS), deep nesting, many definitions

Usage: seeds.py OUT (run from the top of the repository). OUT/TARGET/ is
emptied and refilled; file names are hashes of the contents."""
import hashlib
import os
import re
import shutil
import struct
import sys
import zlib


def spec_cases(path):
    """The cases of a spec-style file: lists of (kind, name, text), one
    trailing newline of each section dropped (as the unit tests read them)."""
    cases, sec = [], None
    for line in open(path, encoding="utf-8", errors="surrogateescape").read().split("\n"):
        if line.startswith("=== "):
            cases.append([])
            sec = None
        elif line.startswith("--- ") and cases:
            words = line[4:].split(" ", 1)
            sec = [words[0], words[1] if len(words) > 1 else "", []]
            cases[-1].append(sec)
        elif sec is not None:
            sec[2].append(line)
    out = []
    for c in cases:
        out.append([(k, n, "\n".join(t[:-1] if t and t[-1] == "" else t)) for k, n, t in c])
    return out


def section(case, kind):
    for k, n, t in case:
        if k == kind:
            return t
    return None


class Seeds:
    def __init__(self, out):
        self.out = out
        self.count = {}

    def add(self, target, data):
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        d = os.path.join(self.out, target)
        os.makedirs(d, exist_ok=True)
        name = hashlib.sha1(data).hexdigest()
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        self.count[target] = self.count.get(target, 0) + 1


def read(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "surrogateescape")


def sites():
    """The site folders of the tests and examples."""
    found = []
    for base in ("tests/sites", "examples"):
        if not os.path.isdir(base):
            continue
        for name in sorted(os.listdir(base)):
            site = os.path.join(base, name, "site") if base == "tests/sites" else os.path.join(base, name)
            if os.path.isfile(os.path.join(site, "folio.yml")):
                found.append(site)
    return found


def site_files(site):
    """(kind, path) of a site's content and data files."""
    files = []
    for kind, sub in (("post", "content/posts"), ("series", "content/series"), ("page", "content/pages"),
                      ("data", "data")):
        d = os.path.join(site, sub)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            if kind == "post" and os.path.isdir(p) and os.path.isfile(os.path.join(p, "index.md")):
                files.append(("bundle", os.path.join(p, "index.md")))
            elif os.path.isfile(p) and (name.endswith(".md") or name.endswith(".yml")):
                files.append((kind, p))
    return files


def body(text):
    """A Markdown file without its front matter."""
    m = re.match(r"\A---[ \t]*\r?\n.*?^(---|\.\.\.)[ \t]*\r?\n", text, re.S | re.M)
    return text[m.end():] if m else text


def yaml_seeds(s):
    for site in sites():
        cfg = read(os.path.join(site, "folio.yml"))
        s.add("yaml", cfg)
        for kind, path in site_files(site):
            s.add("yaml", cfg + "\n@@@ " + kind + "\n" + read(path))
    for path in sorted(glob("tests/tmpl", ".txt")):
        for case in spec_cases(path):
            data = section(case, "data")
            if data:
                s.add("yaml", "title: t\n@@@ data\n" + data)


def tmpl_seeds(s):
    for path in sorted(glob("tests/tmpl", ".txt")):
        for case in spec_cases(path):
            parts, first = [], True
            for kind, name, text in case:
                if kind == "template":
                    parts.append(text if first else "@@@ " + name + "\n" + text)
                    first = False
                elif kind == "options" and "strict=false" in text:
                    parts.append("@@@ options\nstrict=false")
            if parts and not first:
                s.add("tmpl", "\n".join(parts))
    for path in sorted(glob("theme/templates", "")):
        s.add("tmpl", read(path))
    # the model's long post ("big"), a piece of its page where a build
    # prints it as it is, a copy in a capture or a macro
    s.add("tmpl", "{% extends 'base.html' %}{% block body %}<main>{{ big }}</main>"
          "{% set c %}{{ big }}{% endset %}{{ c | length }}{{ m(big) }}{{ big | safe }}{{ super() }}{% endblock %}\n"
          "@@@ base.html\n{% macro m(x) %}[{{ x }}]{% endmacro %}<body>{% block body %}{{ big }}{% endblock %}</body>")


def udirdecl_seeds(s):
    """Templates of a site's own directive: declarations good and bad."""
    s.add("udirdecl", "{# args:\n     id: {type: string, required: true}\n     start: {type: int, default: 0}\n"
          "     title: string\n#}\n<iframe src=\"{{ id }}\"></iframe>\n")
    s.add("udirdecl", "{#- args:\n  a: bool\n  b: {type: number, default: 1.5}\n  c: {type: bool, default: true}\n-#}x")
    s.add("udirdecl", "{# args:\n  id: {type: strin, required: true, defualt: 3}\n  content: string\n"
          "  s: {type: int, default: soon}\n  m: {type: string, required: true, default: x}\n  bad: [1, 2]\n#}")
    s.add("udirdecl", "{# a comment, not a declaration #}<kbd>{{ content }}</kbd>")
    s.add("udirdecl", "{# args: [a, b] #}")
    s.add("udirdecl", "{# args:\n  a: &x string\n  b: *x\nother: 1\n#}")
    s.add("udirdecl", "<kbd>{{ content }}</kbd>")


def markdown_seeds(s):
    for path in sorted(glob("tests/markdown", ".txt")):
        for case in spec_cases(path):
            md = section(case, "markdown")
            if md is None:
                continue
            opts = (section(case, "options") or "").split()
            words = [] if "smart" in opts else ["nosmart"]
            words += [w for w in opts if w in ("nomath", "safe") or w.startswith("line_offset=")]
            s.add("markdown", "%% " + " ".join(words) + "\n" + md)
    for case in spec_cases("tests/math/10_katex.txt"):
        tex = section(case, "tex")
        if tex is not None:
            display = "display" in (section(case, "options") or "")
            s.add("markdown", "$$\n" + tex + "\n$$\n" if display else "Inline $" + tex + "$ math.\n")
    langs = {".c": "c", ".cpp": "cpp", ".cu": "cuda", ".py": "python", ".sh": "bash", ".rs": "rust",
             ".js": "javascript", ".json": "json", ".go": "go"}
    for path in sorted(glob("tests/highlight", "")):
        ext = os.path.splitext(path)[1]
        if ext in langs:
            s.add("markdown", "```" + langs[ext] + " {linenos hl=\"2-3\" title=\"x\"}\n" + read(path) + "```\n")
    for site in sites():
        for kind, path in site_files(site):
            if path.endswith(".md"):
                s.add("markdown", body(read(path)))
    # Large documents (past the fuzz build's lowered threshold, some
    # 1,000 nodes): counted beside their render, with and without what
    # md_blocks replaces, and footnotes whose HTML grows by much.
    s.add("markdown", "*_" * 1500 + "a" + "_*" * 1500 + "\n")
    s.add("markdown", "[^a] " * 1200 + "\n\n[^a]: [^a] *b* <img src=\"c.png\"> \u65e5\u672c\n")
    s.add("markdown", "| a | b |\n|---|---|\n" + "| *c* | `d` |\n" * 450 + "\n```c {hl=\"1\"}\nint x;\n```\n")
    s.add("markdown", "- *a* $x$ ![i](b.png \"T\")\n" * 250)
    # directives of a site's own (fuzz_markdown's udirs): block, leaf,
    # nested, inline with inlines inside, bad arguments, a failing template
    s.add("markdown", "%% udirs\n:::box{kind=a n=2 on}\nBody *x*.\n\n:::box{kind=b}\nIn :k[y **z**]{} end.\n:::\n:::\n\n"
          "::box{kind=\"q\" n=x on=maybe}\n\n::k\n\nA :k[b] c :k[d]{e=f} :other[x] `:k[code]`.\n\n::fails\n\n"
          ":::box\nmissing kind\n:::\n\n> :k[quoted] and\n> - :k[listed [nested] brackets]\n")
    s.add("markdown", "%% udirs\nFirst :k[call] in the summary.\n\n<!--more-->\n\n:::boxx{kind=a}\n:::\n")
    # raw <img> tags of a local image (htmlimg.c): quoted and not, in a
    # block and inline, in an author's <picture>, a comment, a script
    s.add("markdown", "<div><img src=/img/banner.png alt=x width=120/></div>\n\nA <IMG SRC='/img/banner.png'> b "
          "<picture><img src=\"/img/banner.png\"></picture> <!-- <img src=\"/img/banner.png\"> -->\n\n"
          "<script>'<img src=\"/img/banner.png\">'</script>\n<img src=\"figures/photo.jpg\" srcset=\"x 1w\">\n")
    # math.delimiters: brackets (and without dollars): \( \) \[ \] among
    # code, links, titles and escapes
    s.add("markdown", "%% brackets\nInline \\(a_1\\) and \\[b\\] `\\(c\\)` [l](u\\)v \"t\\(\") \\\\(d\\\\)\n\n"
          "\\[\n+ x\n\n- y\n\\]\n\n> \\[\n> z\n> \\] after\n")
    s.add("markdown", "%% brackets nodollars\n$a$ \\(b\\) $$\nc\n$$\n\\[ unclosed\n")
    s.add("markdown", "%% sidenotes\nA[^1], B[^b] and A[^1].\n\n# H[^h]\n\n[^1]: One *note* with $x$.\n[^b]: Two\n\n    paras.\n[^h]: In a heading.\n")
    s.add("markdown", "%% sidenotes\n- item[^n]\n\n> quote[^q] <b id=x>raw</b>\n\n[^n]: In a list [link](/x).\n[^q]: A note[^n] in a note.\n")


def serve_seeds(s):
    src = read("tests/unit/test_serve.c")
    urls = re.findall(r'\{"(/[^"]*|[a-z]+://[^"]*|[^"/][^"]*)", [0-9]+\}', src)
    urls += re.findall(r'serve_resolve\(root, "([^"]*)"', src)
    hosts = re.findall(r'serve_host_ok\("([^"]*)"', src)
    hosts += ["localhost", "127.0.0.1:8080", "[::1]:8080", "[fe80::1]:65535", "10.0.0.7:1"]
    pages = ["<html><body><p>x</p></body></html>", "<p>no body</p>", "</BODY></body>"]
    for i, u in enumerate(dict.fromkeys(urls)):
        s.add("serve", u + "\n" + hosts[i % len(hosts)] + "\n" + pages[i % len(pages)])
    for h in dict.fromkeys(hosts):
        s.add("serve", "/\n" + h + "\n")


def image_seeds(s):
    exts = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")
    for root, dirs, files in os.walk("tests/sites"):
        dirs.sort()
        for name in sorted(files):
            if name.lower().endswith(exts):
                with open(os.path.join(root, name), "rb") as f:
                    s.add("image", f.read()[:65536])
    # an AVIF's head as libavif writes it (imagesize.c's boxes): ftyp,
    # meta with hdlr and iprp/ipco/ispe (640 x 360), and one whose meta
    # has a 64-bit size
    box = lambda t, b: (8 + len(b)).to_bytes(4, "big") + t + b
    ispe = box(b"ispe", bytes(4) + (640).to_bytes(4, "big") + (360).to_bytes(4, "big"))
    meta = box(b"meta", bytes(4) + box(b"hdlr", bytes(8) + b"pict") + box(b"iprp", box(b"ipco", ispe)))
    ftyp = box(b"ftyp", b"avif" + bytes(4) + b"avifmif1miaf")
    s.add("image", ftyp + meta)
    big = (1).to_bytes(4, "big") + b"meta" + (16 + len(meta) - 8).to_bytes(8, "big") + meta[8:]
    s.add("image", ftyp + big)


# Images for imgdecode, as hex: made once with folio's encoders
# (img_encode: the progressive and gray JPEGs, the WebPs) and with libjpeg
# directly (the layouts folio does not write), 16x16 or 8x8 gradients.
JPEG_PROGRESSIVE = (
    "ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123"
    "251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064785c656763ffdb0043011112"
    "121815182f1a1a2f63423842636363636363636363636363636363636363636363636363636363636363636363636363"
    "6363636363636363636363636363ffc20011080010001003012200021101031101ffc400140001000000000000000000"
    "00000000000004ffc40014010100000000000000000000000000000000ffda000c030100021003100000010294a3ffc4"
    "001510010100000000000000000000000000000200ffda000801010001050222222222ffc40016110003000000000000"
    "0000000000000000000304ffda0008010301013f019de7ffc400161100030000000000000000000000000000000203ff"
    "da0008010201013f017a9fffc40014100100000000000000000000000000000020ffda0008010100063f021fffc40014"
    "100100000000000000000000000000000020ffda0008010100013f210abfffda000c0301000200030000001003ffc400"
    "161100030000000000000000000000000000002131ffda0008010301013f10933fffc400141101000000000000000000"
    "00000000000000ffda0008010201013f103fffc400161000030000000000000000000000000000002131ffda00080101"
    "00013f108a2689a228ffd9")
JPEG_GRAY = (
    "ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123"
    "251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064785c656763ffc2000b080008"
    "000801011100ffc40014000100000000000000000000000000000000ffda00080101000000017fffc400151001010000"
    "0000000000000000000000000004ffda000801010001050281ffc4001510010100000000000000000000000000000001"
    "ffda0008010100063f028fffc40014100100000000000000000000000000000000ffda0008010100013f211fffda0008"
    "0101000000107fffc40015100101000000000000000000000000000000c1ffda0008010100013f1083ffd9")
JPEG_BASELINE_RESTARTS = (
    "ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123"
    "251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064785c656763ffdb0043011112"
    "121815182f1a1a2f63423842636363636363636363636363636363636363636363636363636363636363636363636363"
    "6363636363636363636363636363ffc00011080010001003012200021101031101ffc4001f0000010501010101010100"
    "000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d010203000411051221"
    "31410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a"
    "434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a9293949596979899"
    "9aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1"
    "f2f3f4f5f6f7f8f9faffc4001f0100030101010101010101010000000000000102030405060708090a0bffc400b51100"
    "020102040403040705040400010277000102031104052131061241510761711322328108144291a1b1c109233352f015"
    "6272d10a162434e125f11718191a262728292a35363738393a434445464748494a535455565758595a63646566676869"
    "6a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4"
    "c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffdd00040001ffda000c0301000211"
    "0311003f00863d32c4a811dbdb06c1c170c467fba4607bfcdd29238adc1206978dbc0cc64e0fbe0f23d08fcaa786da60"
    "79b18d70bce22276fa01ea7a7278f6a9d6dee1d0a3698ca3ee931a6081fec9cf27dcfe543d83fafebfaff83fffd9")
JPEG_ARITHMETIC = (
    "ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123"
    "251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064785c656763ffdb0043011112"
    "121815182f1a1a2f63423842636363636363636363636363636363636363636363636363636363636363636363636363"
    "6363636363636363636363636363ffc90011080010001003012200021101031101ffcc000a0010100501101105ffda00"
    "0c03010002110311003f00fbc4bb80b273747486e13313db2ffbe983f62f33d1d87d45f42bfd6459872308fab58b470a"
    "d2c4baeaa15380b6801b3b017ed1ce42eb2f8f466350109de583c76f1c5b76bb92c679aa34d3bf9e6e7ae1ee9bdda9aa"
    "c1800000000018ffd9")
JPEG_YCCK_ADOBE = (
    "ffd8ffee000e41646f626500640000000002ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123251d"
    "283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064785c656763ffdb00430111121218"
    "15182f1a1a2f634238426363636363636363636363636363636363636363636363636363636363636363636363636363"
    "636363636363636363636363ffc00014080010001004012200021101031101042200ffc4001f00000105010101010101"
    "00000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d0102030004110512"
    "2131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a343536373839"
    "3a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798"
    "999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9ea"
    "f1f2f3f4f5f6f7f8f9faffc4001f0100030101010101010101010000000000000102030405060708090a0bffc400b511"
    "00020102040403040705040400010277000102031104052131061241510761711322328108144291a1b1c109233352f0"
    "156272d10a162434e125f11718191a262728292a35363738393a434445464748494a535455565758595a636465666768"
    "696a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3"
    "c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000e04010002110311040000"
    "3f00b2da95db361b52233dca0c0ffc7aaacd7971ff004184ff00be7ffaf4e9af2dff00e830ff00f7cfff005eaa9d46d5"
    "010da986f72849ff00d085105d25fd7df1fd4212eefef7fe501ab610450974b3b49d86311c7692863f4dc40fd69ff629"
    "a7915a3b0b9b60063645691907dfe6627f5a62d8411425d2ced27618c471da4a18fd37103f5a7fd8a69e4568ec2e6d80"
    "18d915a4641f7f9989fd6bffd9")
WEBP_LOSSY_ALPHA = (
    "524946468000000057454250565038580a000000100000000f00000f0000414c504824000000017f20104810da5f7885"
    "88481d0c434073b1c4124b2cb1c412cb48f68fe87fdc1a8bf80b5650382036000000d001009d012a1000100004006825"
    "b002747f001814537c00fef17f2ac923a9d6af6fcb0cbe60818652e2bfb826fd96f67e9b15849000")
WEBP_LOSSLESS = (
    "5249464630000000574542505650384c230000002f0fc00310993244f43f3611d1ff0091b64d2ddcbfe0c1d38918c081"
    "9f00d23a40fd0700")


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_file(w, h, depth, ctype, rows, interlace=0, extra=b"", plte=b"", trns=b""):
    """A PNG of w x h: rows(x0, y0, dx, dy) gives the raw scanlines (filter
    byte 0 and packed samples) of the pixels x0, x0 + dx, ... of rows y0,
    y0 + dy, ...: one call for the whole image, one per Adam7 pass."""
    ihdr = struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace)
    if interlace:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        raw = b"".join(rows(*p) for p in passes if p[0] < w and p[1] < h)
    else:
        raw = rows(0, 0, 1, 1)
    out = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + extra
    if plte:
        out += png_chunk(b"PLTE", plte)
    if trns:
        out += png_chunk(b"tRNS", trns)
    return out + png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b"")


def png_rows(w, h, pixel):
    """rows() for png_file: pixel(x, y) gives a pixel's bytes (8 bits or
    more a sample)."""
    def rows(x0, y0, dx, dy):
        return b"".join(b"\x00" + b"".join(pixel(x, y) for x in range(x0, w, dx)) for y in range(y0, h, dy))
    return rows


def icc_profile(space):
    """A small ICC profile header of the colour space (b"RGB ", b"GRAY"),
    with one text tag."""
    head = bytearray(132)
    struct.pack_into(">I", head, 0, 132 + 12 + 40)
    head[8:10] = b"\x02\x10"
    head[12:24] = b"mntr" + space + b"XYZ "
    head[36:40] = b"acsp"
    head[68:80] = bytes.fromhex("0000f6d6000100000000d32d")
    struct.pack_into(">I", head, 128, 1)
    return bytes(head) + b"cprt" + struct.pack(">II", 144, 40) + b"text\0\0\0\0" + bytes(range(32))


def jpeg_with(jpeg, segment):
    """jpeg with a segment (marker and data) put after SOI."""
    return jpeg[:2] + segment + jpeg[2:]


def exif_app1(orientation, little):
    if little:
        tiff = b"II*\x00" + struct.pack("<IHHHII", 8, 1, 0x112, 3, 1, orientation) + b"\0\0\0\0"
    else:
        tiff = b"MM\x00*" + struct.pack(">IHHHIHH", 8, 1, 0x112, 3, 1, orientation, 0) + b"\0\0\0\0"
    data = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(data) + 2) + data


def imgdecode_seeds(s):
    jpegs = [bytes.fromhex(h) for h in (JPEG_PROGRESSIVE, JPEG_GRAY, JPEG_BASELINE_RESTARTS, JPEG_ARITHMETIC,
                                        JPEG_YCCK_ADOBE)]
    for j in jpegs:
        s.add("imgdecode", j)
    for o in range(2, 9):
        s.add("imgdecode", jpeg_with(jpegs[0], exif_app1(o, o % 2)))
    icc = icc_profile(b"RGB ")
    app2 = b"ICC_PROFILE\0\x01\x01" + icc
    s.add("imgdecode", jpeg_with(jpegs[2], b"\xff\xe2" + struct.pack(">H", len(app2) + 2) + app2))
    s.add("imgdecode", jpeg_with(jpegs[0], b"\xff\xfe\x00\x07hello"))  # a comment
    s.add("imgdecode", bytes.fromhex(WEBP_LOSSY_ALPHA))
    s.add("imgdecode", bytes.fromhex(WEBP_LOSSLESS))
    rgb = png_rows(7, 5, lambda x, y: bytes((x * 36, y * 60, 99)))
    s.add("imgdecode", png_file(7, 5, 8, 2, rgb))
    s.add("imgdecode", png_file(7, 5, 8, 2, rgb, interlace=1))
    s.add("imgdecode", png_file(7, 5, 8, 2, rgb, extra=png_chunk(b"iCCP", b"icc\0\0" + zlib.compress(icc))))
    s.add("imgdecode", png_file(7, 5, 8, 2, rgb, extra=png_chunk(b"tEXt", b"Comment\0folio")))
    s.add("imgdecode", png_file(6, 6, 8, 6, png_rows(6, 6, lambda x, y: bytes((x * 40, y * 40, 7, x * y * 7))),
                                interlace=1))
    s.add("imgdecode", png_file(5, 3, 16, 0, png_rows(5, 3, lambda x, y: struct.pack(">H", x * 9000 + y))))
    s.add("imgdecode", png_file(4, 2, 16, 4, png_rows(4, 2, lambda x, y: struct.pack(">HH", x * 9000, y * 30000))))

    def bits(x0, y0, dx, dy):
        return b"".join(b"\x00" + bytes((0b10110010,)) for y in range(y0, 3, dy))
    s.add("imgdecode", png_file(8, 3, 1, 0, bits))
    s.add("imgdecode", png_file(6, 2, 8, 3, png_rows(6, 2, lambda x, y: bytes(((x + y) % 3,))),
                                plte=bytes((255, 0, 0, 0, 255, 0, 0, 0, 255)), trns=b"\x00\x80"))
    gif = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\0\0\0\xff\xff\xff" +
           2 * (b"\x21\xf9\x04\x00\x0a\x00\x00\x00" + b"\x2c\0\0\0\0\x01\0\x01\0\0\x02\x02\x44\x01\0") + b"\x3b")
    s.add("imgdecode", gif)
    for root, dirs, files in os.walk("tests/sites"):
        dirs.sort()
        for name in sorted(files):
            if name.lower().endswith((".png", ".jpg", ".jpeg", ".webp")) and "/expected" not in root:
                with open(os.path.join(root, name), "rb") as f:
                    data = f.read()
                if len(data) <= 4096:
                    s.add("imgdecode", data)


def toc_tree(text):
    """A --- toc section ("h2 id | text | html", two spaces a level) as
    nested (level, id, text, html, children)."""
    root, stack = [], []
    for line in text.split("\n"):
        m = re.match(r"( *)h([1-6]) (.*?) \| (.*?) \| (.*)$", line)
        if not m:
            continue
        depth = len(m.group(1)) // 2
        node = (int(m.group(2)), m.group(3), m.group(4), m.group(5), [])
        del stack[depth:]
        (stack[-1][4] if stack else root).append(node)
        stack.append(node)
    return root


def pack_toc(toc):
    out = b""
    for level, id_, text, html, children in toc:
        f = [x.encode() for x in (id_, text, html)]
        out += struct.pack("<5Q", level, len(children), *map(len, f)) + b"".join(f) + pack_toc(children)
    return out


def pack_xrefs(labels, refs):
    """Cross-reference labels (kind, number, name, text) and references
    (label, target, name), as mdcache.c's put_xrefs writes them."""
    out = b""
    for kind, number, name, text in labels:
        out += struct.pack("<6Q", kind, number, 1, 1, len(name), len(text)) + name + text
    for label, target, name in refs:
        out += struct.pack("<qQQQQQ", label, 0, 2, 5, len(target), len(name)) + target + name
    return out


def pack_blob(html, summary, toc, labels=(), refs=(), deps=b""):
    h, sh, st = html.encode(), summary.encode(), re.sub(r"<[^>]*>", "", summary).encode()
    words = len(re.sub(r"<[^>]*>", " ", html).split())
    head = struct.pack("<11Q4i5Q", len(h), len(sh), len(st), len(toc), len(toc), words, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                       0, len(labels), len(refs), len(deps))
    return (head + h + b"\0" + sh + b"\0" + st + b"\0" + pack_toc(toc) + pack_xrefs(labels, refs) + deps
            + b"\0")


def pack_file(blobs):
    out = b"folio-md-pack 4\n" + struct.pack("<Q", len(blobs))
    for i, (blob, reads_files) in enumerate(blobs):
        key = hashlib.sha1(blob).digest()[:16]
        out += key + struct.pack("<3Q", 7 * i, reads_files, len(blob)) + blob + b"\0" * (-len(blob) % 8)
    return out


def mdcache_seeds(s):
    blobs = []
    for path in sorted(glob("tests/markdown", ".txt")):
        for case in spec_cases(path):
            html = section(case, "html")
            if html is None:
                continue
            toc = toc_tree(section(case, "toc") or "")
            summary = section(case, "summary_html") or html.split("\n")[0]
            deps = b"00000000000000ab content/posts/x/gemm.cu\n" if len(blobs) % 4 == 1 else b""
            blobs.append((pack_blob(html, summary, toc, deps=deps), len(blobs) % 3 == 0))
    s.add("mdcache", pack_file([]))
    # a document with cross-references: an equation's label, a heading's,
    # a reference to the first and one into another post
    xb = pack_blob('<div class="equation" id="eq:a">x</div><p>\x01R0\x01 \x01R1\x01</p>', "x", [],
                   [(0, 1, b"eq:a", b""), (4, 0, b"sec:m", b"Method")], [(0, b"", b"eq:a"), (-1, b"gpu-13", b"fig:t")])
    s.add("mdcache", pack_file([(xb, 0)]))
    for i in range(0, len(blobs), 3):
        s.add("mdcache", pack_file(blobs[i:i + 3]))


def fm_node(kind, line, col, n, quoted=0):
    return struct.pack("<BBxxIII", kind, quoted, line, col, n)


def fm_tree(v, line=2, col=1, quoted=0):
    """The bytes of a tree of v (str: a scalar, list: a sequence, dict: a
    map), one line per node."""
    if isinstance(v, str):
        b = v.encode("utf-8")
        return fm_node(0, line, col, len(b), quoted) + b
    if isinstance(v, list):
        out = fm_node(1, line, col, len(v))
        for i, x in enumerate(v):
            out += fm_tree(x, line + i, col + 2)
        return out
    out = fm_node(2, line, col, len(v))
    for i, (k, x) in enumerate(v.items()):
        out += fm_tree(k, line + i, col) + fm_tree(x, line + i, col + len(k) + 2, 1 if i % 2 else 0)
    return out


def fm_file(trees):
    body = b""
    for i, t in enumerate(trees):
        body += struct.pack("<QQII", 0x9e3779b97f4a7c15 * (i + 1) % 2**64, i, len(t), 0) + t
        body += b"\0" * (-len(t) % 8)
    return b"folio-fm-pack 1\n" + struct.pack("<QQQ", 0, len(trees), 0) + body


def fmcache_seeds(s):
    trees = [
        {"title": "A post", "date": "2026-01-02", "tags": ["cuda", "c++"]},
        {"title": "Series", "posts": ["a", "b", "c"], "nested": {"deep": {"deeper": ["1", {"k": "v"}]}}},
        {"summary": "A block\nof text.\n", "empty": ""},
        {},
        "a scalar",
        [],
    ]
    s.add("fmcache", fm_file([]))
    for i in range(len(trees)):
        s.add("fmcache", fm_file([fm_tree(t) for t in trees[i:i + 3]]))


def src_file(records):
    body = b""
    for path, r in records:
        pb = path.encode()
        body += struct.pack("<7Q3iI", *r, len(pb)) + pb + b"\0" * (-len(pb) % 8)
    return b"folio-sources 1\n" + struct.pack("<QQQ", 0, len(records), 0) + body


def srccache_seeds(s):
    recs = []
    for kind in ("posts", "series", "pages"):
        for path in sorted(glob(os.path.join("examples/techblog/content", kind), ".md")):
            data = open(path, "rb").read()
            m = re.match(rb"---\n(.*?\n)---\n", data, re.S)
            if not m:
                continue
            fm_len, body_off = len(m.group(1)), m.end()
            body_line = m.group(0).count(b"\n")
            h = int(hashlib.sha1(data).hexdigest()[:16], 16) or 1
            bh = int(hashlib.sha1(data[body_off:]).hexdigest()[:16], 16) or 1
            rec = (h, len(data), body_off, bh, h ^ 1, h ^ 2, fm_len, body_line, body_line - 1,
                   2 if b".md" not in data[body_off:] else 1)
            recs.append(("content/%s/%s" % (kind, os.path.basename(path)), rec))
    s.add("srccache", src_file([]))
    for i in range(0, min(len(recs), 60), 6):
        s.add("srccache", src_file(recs[i:i + 6]))


def related_file(n, mx, seed):
    """A related file of n posts with up to mx related each (fuzz_related.c
    makes its checksum, the last 8 bytes)."""
    counts = [(i * 7 + seed) % (mx + 1) if n > 1 else 0 for i in range(n)]
    why = bytearray(n * mx)
    post = [0] * (n * mx)
    for i in range(n):
        for k in range(counts[i]):
            why[i * mx + k] = (i + k + seed) % 4
            post[i * mx + k] = (i + 1 + k) % n if (i + 1 + k) % n != i else (i + 2 + k) % n
    head = b"folio-related 1\n" + struct.pack("<IIQQQ", 0x01020304, mx, 0x9e3779b97f4a7c15 ^ seed, seed + 1, n)
    body = head + bytes(counts) + bytes(why)
    body += b"\0" * (-len(body) % 4)
    body += struct.pack("<%dI" % len(post), *post)
    return body + b"\0" * 8


def related_seeds(s):
    for n, mx, seed in [(0, 1, 0), (1, 5, 1), (2, 1, 2), (3, 3, 3), (7, 5, 4), (40, 5, 5), (100, 8, 6), (5, 255, 7)]:
        s.add("related", related_file(n, mx, seed))
def manifest_seeds(s):
    for site in sites():
        exp = os.path.join(os.path.dirname(site), "expected")
        if not os.path.isdir(exp):
            continue
        lines = []
        for i, path in enumerate(sorted(glob(exp, ""))):
            rel = os.path.relpath(path, exp)
            data = read(path)
            lines.append("%016x %d %d %d %s\n" % (int(hashlib.sha1(data.encode("utf-8", "surrogateescape")).hexdigest()[:16], 16), len(data),
                                                   1700000000000000000 + i, 1000 + i, rel))
        body = "".join(lines[:40])
        s.add("manifest", "folio-manifest 1\n" + body)
        s.add("manifest", "folio-manifest 2\ntree 2049 131 1700000000123456789\n" + body)
        s.add("manifest", "folio-manifest 2\ntree 2049 131 -5\nwhere /tmp/.public.folio-spare\n" + body)
        s.add("manifest", "folio-manifest 2\ntree 0 0 0\n" + body[:len(body) // 2])


def deployrecord_seeds(s):
    for site in sites():
        exp = os.path.join(os.path.dirname(site), "expected")
        if not os.path.isdir(exp):
            continue
        lines = []
        for i, path in enumerate(sorted(glob(exp, ""))):
            rel = os.path.relpath(path, exp)
            data = read(path)
            h = 0 if i % 7 == 3 else int(hashlib.sha1(data.encode("utf-8", "surrogateescape")).hexdigest()[:16], 16)
            lines.append("%016x %d %s\n" % (h, len(data), rel))
        body = "".join(lines[:40])
        s.add("deployrecord", "folio-deploy 1\ntarget folder /srv/www/blog\n" + body)
        s.add("deployrecord", "folio-deploy 1\ntarget git git@host:me/site.git gh-pages\n" + body[:len(body) // 2])


def links_seeds(s):
    for path in sorted(glob("tests/markdown", ".txt")):
        for case in spec_cases(path):
            html = section(case, "html")
            if html:
                s.add("links", html)
    for path in sorted(glob("theme/templates", "")):
        s.add("links", read(path))
    pages = [
        '<h2 id="intro">I</h2><a href="#intro">x</a> <a href="#intr">y</a> <a href="#top">t</a>',
        '<a href="x.md">x</a> <a href="../posts/b/index.md#s">b</a> <a href="@/posts/x.md#frag">c</a>'
        ' <a href="a%20b.md?v=1&amp;w=2">d</a> <a href="../../../../up.md">e</a>',
        '<img src="/img/a.png" srcset="/img/a.png 1x, /img/b.png 2x,c.png 100w" alt="">'
        '<video poster=/p.jpg src=\'v.mp4\'></video><A HREF=/files/a%20b.pdf>f</A>',
        '<!-- <a href="/no/"> --><script>"<a href=/no/>"</script><style>a{}</style><a name=n href=/skip/x>',
        '<a href="https://e.org/">e</a> <a href="//cdn.e.org/x.js">c</a> <a href="mailto:a@e.org">m</a>'
        ' <a href="/posts/draft/">d</a> <a href="/posts/x">p</a> <a href="/blog/posts/x/">b</a>',
        '<a href="&#x2F;posts&#47;x&#x2f;">x</a> <a href=\'/a&amp;b\'>y</a> <a href="&#0;&#xD800;&#x110000;">z</a>',
    ]
    for p in pages:
        s.add("links", p)
    s.add("links", "https://x.org/blog/\n" + "\n".join(pages))
    s.add("links", pages[0] + "\n@@@ posts/x/index.html\n" + pages[1] + "\n@@@ about/index.html\n" + pages[2])
    s.add("links", "".join('<a href="/missing-%d/">' % i for i in range(60)) + "\n@@@ a/\n" + pages[4])


def import_seeds(s):
    """The post bodies of tests/import/*/src, and unclosed or repeated
    constructs of Liquid and kramdown."""
    for root, _dirs, files in sorted(os.walk("tests/import")):
        if "/src" not in root:
            continue
        for n in sorted(files):
            if n.endswith((".md", ".markdown", ".mkd", ".html")):
                s.add("import", read(os.path.join(root, n)))
    for unit in ["{%", "{{", "{% raw %}", "{% highlight c %}\n", "{% endhighlight %}", "$$", "$$\n",
                 "<!--", "<script type=\"math/tex\">", "](", "{:", "`", "```\n", "{% comment %}",
                 "{::comment}\n", "- $$x\n", "[a]: /x\n", " src=\"/a.png\"", "{{< katex >}}", "{{< x",
                 "{{< highlight go \"linenos=table\" >}}\n", "{{</* a */>}}", "```go {hl_lines=[1]}\n",
                 "> ```go {file=\"a\"}\n", "{{< figure src=\"a.png\" >}}", "{{< ref \"a.md\" >}}",
                 "\n<a name=\"f\" />\n![a](/b.png)\n", "\n<br/>\n$$x$$\n", "<a href='/x'/>", "<span />",
                 "[a](http://x_(y%29) z ", "](u_(", "<a name=\"x>\" />",
                 "<video poster=\"/p.png\"><source src=\"/v.mp4\">", "<img srcset=\"/a.png 1x, /b.png 2x,\" ",
                 " data-srcset=\", , ,", " data-src='/x.png'", "<pre>\n\n$$\n</pre>", "\n:::\n",
                 "{% include x.html a=\"1\" %}", "{{ include.a | default: \"x\" }}", "{% if include.a == 'b' %}",
                 "{% unless include.c %}{% endunless %}", "{{ .Get \"a\" | default \"b\" }}"]:
        s.add("import", unit * 500)
    s.add("import", "{% highlight c %}\n" * 200 + "{% endhighlight %}")
    s.add("import", "[" * 1000 + "](" + ")" * 1000)
    s.add("import", "x" * 20000 + "{{ site.url }}" + "$$a$$" * 100)


def search_seeds(s):
    """Bodies and texts for the search index's tokeniser."""
    for path in sorted(glob("tests/markdown", ".txt")):
        for case in spec_cases(path):
            html = section(case, "html")
            if html:
                s.add("search", html)
    posts = sorted(glob("examples/techblog/content/posts", ".md"))
    for i in range(0, len(posts), 8):
        s.add("search", "\n@@@ ".join(os.path.basename(p)[:-3] + "\n" + body(read(p)) for p in posts[i:i + 8]))
    for t in ["Stra\u00dfe \ufb01le \uff21\uff22 e\u0301t\u00e9 \u65e5\u672c\u8a9e GPU\u306e\u30ab\u30fc\u30cd\u30eb",
              "\u0391\u03a3\u03a3 \u03bb\u03cc\u03b3\u03bf\u03c2 \u0645\u0631\u062d\u0628\u0627 \ud55c\uad6d\uc5b4 \u2460\u00b2",
              '<h2 id="a">Warp <em>shuffle</em></h2><span class="math inline"><span>x</span></span><pre>code</pre>',
              "<pre>" * 50 + "</pre>", '<span class="math">' + "<span>" * 300, "&amp;" * 200 + "x" * 300]:
        s.add("search", t)


# TOML and JSON documents like those of Hugo sites (folio import hugo reads
# them), with every type and form of the formats.
TOML_SEEDS = [
    """baseURL = 'https://example.org/'
languageCode = 'en-us'
title = "My New Hugo Site"
paginate = 5
[taxonomies]
  tag = 'tags'
  category = 'categories'
[params]
  description = 'A blog'
  [params.author]
    name = 'Jo'
[[menus.main]]
  name = 'Home'
  pageRef = '/'
  weight = 10
[[menus.main]]
  name = 'Posts'
  pageRef = '/posts'
  weight = 20
[markup.goldmark.renderer]
  unsafe = true
[outputs]
  home = ['HTML', 'RSS', 'JSON']
""",
    """title = 'Spring Cleaning'
date = 2024-03-01T10:00:00-05:00
draft = false
tags = ['cleaning', 'home']
categories = ["life"]
weight = 10
[params]
  math = true
[[resources]]
  src = 'images/a.jpg'
  title = 'A'
""",
    'basic = "a\\tb \\u00e9 \\U0001F600 \\"q\\""\n'
    "literal = 'C:\\dir\\x'\n"
    'ml = """\nline 1\\\n   joined\nline 2"""\n'
    "mll = '''\nraw \\n\nnext'''\n",
    """a = 3
b = -17
c = +99
d = 1_000_000
e = 0xDEAD_beef
f = 0o755
g = 0b1101
h = 9223372036854775807
i = 1.0
j = 5e+22
k = -2E-2
l = 224_617.445_991
m = inf
n = -inf
o = nan
p = -0.0
""",
    """odt1 = 1979-05-27T07:32:00Z
odt2 = 1979-05-27T00:32:00-07:00
odt3 = 1979-05-27T00:32:00.999999+05:30
odt4 = 1979-05-27 07:32:00Z
ldt = 1979-05-27T07:32:00
ld = 1979-05-27
lt = 07:32:00.999999
""",
    """zeta = 1
mid.b = 3
"quoted key" = 5
'lit.key' = 6
inline = {z = 1, y = {x = 2}, w.v = 3}
mixed = ["a", 1, 2.5, [true], {x = 1}]
multi = [
  1,
  2, # comment
]
[a.b.c]
d = 1
[a]
e = 2
[[fruits]]
name = "apple"
[fruits.physical]
color = "red"
[[fruits.varieties]]
name = "red delicious"
[[fruits]]
name = "banana"
""",
    "title = Hello\n",
    "[a]\nx = 1\n[a]\n",
    "t = {a = 1,}\narr = [1, 2\n",
]

JSON_SEEDS = [
    """{
  "baseURL": "https://example.org/",
  "title": "My Site",
  "paginate": 5,
  "params": {"description": "A blog", "math": true},
  "menus": {"main": [{"name": "Home", "pageRef": "/", "weight": 10}]},
  "taxonomies": {"tag": "tags"}
}
""",
    """{
  "title": "Hello",
  "date": "2024-01-02T10:00:00Z",
  "draft": false,
  "tags": ["c", "json"],
  "weight": -1.5e3,
  "nothing": null
}
""",
    '["a\\tb\\nc", "q\\"q", "back\\\\slash", "sl\\/ash", "\\b\\f\\r", "\\u00e9\\u4e2d", "\\ud83d\\ude00"]',
    '{"a": 1, "b": 2, "a": 3}',
    '{"a": [1, 2}',
    "{title: 1, 'b': 2, // no\n}",
    "[" * 64 + "1" + "]" * 64,
]


def toml_seeds(s):
    for t in TOML_SEEDS:
        s.add("toml", t)


def json_seeds(s):
    for t in JSON_SEEDS:
        s.add("json", t)
    for site in sites():
        path = os.path.join(os.path.dirname(site), "expected", "feed.json")
        if os.path.isfile(path):
            s.add("json", read(path))


def varint(v):
    out = b""
    while True:
        c = v & 0x7F
        v >>= 7
        if v:
            out += bytes([c | 0x80])
        else:
            return out + bytes([c])


def searchpack_record(kind, payload):
    # the hash is left 0: the target makes it right in its mode 1
    return struct.pack("<IIQ", kind, len(payload), 0) + payload + b"\0" * (-len(payload) % 8)


def searchpack_dict(texts):
    return searchpack_record(1, varint(len(texts)) + b"".join(varint(len(t.encode())) + t.encode() for t in texts))


def searchpack_file(docs, split):
    """A pack of docs (lists of words): texts numbered in the order they
    come, a DICT record before the documents (or before each, split), each
    word's stem the word less a final s; postings in the stems' order."""
    texts, recs = {}, []
    for i, words in enumerate(docs):
        new = []

        def tid(t):
            if t not in texts:
                texts[t] = len(texts)
                new.append(t)
            return texts[t]

        stems, body, counts = {}, b"", []
        seen = []
        for w in words:
            if w in seen:
                counts[stems[w.rstrip("s") or w]] += 2
                continue
            seen.append(w)
            st = w.rstrip("s") or w
            body += varint(tid(w))
            if st in stems:
                body += varint(stems[st] + 2)
                counts[stems[st]] += 2
            elif st == w:
                stems[st] = len(counts)
                counts.append(2)
                body += varint(0)
            else:
                stems[st] = len(counts)
                counts.append(2)
                body += varint(1) + varint(tid(st))
        payload = hashlib.sha1(repr(words).encode()).digest()[:16]
        payload += varint(len(seen)) + varint(len(counts)) + varint(len(words)) + varint(0) + varint(1)
        payload += body + b"".join(varint(c << 2 | (1 if k == 0 else 0)) + (varint(1) if k == 0 else b"")
                                   for k, c in enumerate(counts))
        if split and new:
            recs.append(searchpack_dict(new))
        recs.append(searchpack_record(2, payload))
    if not split:
        recs.insert(0, searchpack_dict(sorted(texts, key=texts.get)))
    return b"folio-search 1\n\0" + struct.pack("<Q", len(recs)) + b"".join(recs)


def searchpack_seeds(s):
    docs = []
    for path in sorted(glob("examples/techblog/content/posts", ".md"))[:12]:
        words = re.findall(r"[a-z]{2,20}", read(path).lower())[:150]
        if words:
            docs.append(words)
    for split in (0, 1):
        for k in range(1, 5):
            f = searchpack_file(docs[:k], split)
            for mode in (b"\0", b"\1"):
                s.add("searchpack", mode + f)
                s.add("searchpack", mode + f[:len(f) * 2 // 3])


def math_file(formulas):
    """A math cache of (display, age, tex, mathml): the key and the end
    line's count and checksum zeros (fuzz_mathcache.c makes them)."""
    out = b"folio-math-cache 1 " + b"0" * 16 + b"\n"
    for display, age, tex, html in formulas:
        t, h = tex.encode(), html.encode()
        out += b"%d %d %d %d\n" % (display, age, len(t), len(h)) + t + h + b"\n"
    return out + b"end %d %s\n" % (len(formulas), b"0" * 16)


def mathcache_seeds(s):
    found = []
    for case in spec_cases("tests/math/10_katex.txt"):
        tex, html = section(case, "tex"), section(case, "mathml")
        if tex is not None and html is not None:
            found.append((1 if "display" in (section(case, "options") or "") else 0, tex, html))
    s.add("mathcache", math_file([]))
    for i in range(0, len(found), 3):
        s.add("mathcache", math_file([(d, (i + k) % 7, t, h) for k, (d, t, h) in enumerate(found[i:i + 3])]))
    # the same TeX twice (the first is kept), inline and display of one TeX
    d, t, h = found[0]
    s.add("mathcache", math_file([(0, 0, t, h), (0, 2, t, h + "x"), (1, 1, t, h)]))


def mathjax_seeds(s):
    for path in sorted(glob("tests/math", ".txt")):
        for case in spec_cases(path):
            tex = section(case, "tex")
            if tex is not None:
                s.add("mathjax", ("\x01" if "display" in (section(case, "options") or "") else "\x00") + tex)
    for unit in ["{", "}", "\\text{", "\\scr ", "x_\\max", "^\\vec{", "\\bbox[", "\\buildrel a",
                 "\\newcommand{\\a}[2]{", "\\cases{a\\cr", "\\unicode{x1F600}", "\\begin{eqnarray}",
                 "\\tag{", "\\text{$x_\\min$ ^_&}", "\\DeclareMathOperator*{\\f}", "\\\u00e9", "%"]:
        s.add("mathjax", "\x00" + unit * 400)
        s.add("mathjax", "\x01" + unit * 60)


EXT_NOW = 1800000000  # fuzz_extcache.c's clock


def extcache_seeds(s):
    urls = ["https://example.org/", "https://example.org/a?b=c", "http://example.com/x/y.html",
            "https://docs.nvidia.com/cuda/", "https://en.wikipedia.org/wiki/Finite-state_machine",
            "https://github.com/folio/folio/issues/35", "http://[::1]:8080/"]
    lines = []
    for i, u in enumerate(urls):
        age = [10, 3600, 86399, 86400, 86401, 10 ** 7, -59, -61][i % 8]
        status, redir, new = [(200, 0, "-"), (404, 0, "-"), (410, 0, "-"), (200, 301, u + "new/"),
                              (204, 308, "https://example.net/"), (302, 0, "-"), (200, 301, "-")][i % 7]
        lines.append("%d\t%d\t%d\t%s\t%s\n" % (EXT_NOW - age, status, redir, u, new))
    head = "folio-linkcheck 1\n"
    s.add("extcache", head)
    s.add("extcache", head + "".join(lines))
    s.add("extcache", head + "".join(lines[:3]) + lines[0].replace(str(EXT_NOW - 10), str(EXT_NOW - 5)))
    s.add("extcache", head + "x\ty\n1\t200\t0\t\t-\n1\t99\t0\tu\t-\n1\t200\t302\tu\t-\n"
          "1\t200\t0\tu\t-\textra\n" + lines[0] + lines[0][:-1])
    s.add("extcache", "folio-linkcheck 2\n" + "".join(lines))


def pages_record(vars_fp, ids, out, links):
    o = out.encode()
    return struct.pack("<QII", vars_fp, len(ids), len(o)) + o + struct.pack("<%dI" % len(ids), *ids) + \
        struct.pack("<Q", len(links)) + links


def pages_file(slugs, tags, memo):
    """A pages state of posts slugs tagged tags, as rebuild_save writes it:
    ids 1.. given in order (a post's and a tag's map: 17 ids, a global or
    a template: 1), a page per post, tag and the index; its stamp 0
    (fuzz_pages.c makes it)."""
    keys, nid = [], 1
    for k, n in ([("global:site", 1), ("template:post.html", 1), ("template:list.html", 1),
                  ("templates:names", 1)] + [("post:" + p, 17) for p in slugs] + [("tag:" + t, 17) for t in tags]):
        keys.append((k, nid, n))
        nid += n
    kid = {k: i for k, i, n in keys}
    recs = []
    for j, p in enumerate(slugs):
        ids = sorted({kid["global:site"], kid["template:post.html"], kid["post:" + p], kid["post:" + p] + 1 + j % 16}
                     | {kid["tag:" + t] for t in tags[j % 2::2]})
        links = b"iintro\0isummary\0l/posts/%s/\0l/tags/%s/#top\0lhttps://example.org/%d\0" % (
            p.encode(), tags[0].encode() if tags else b"x", j)
        recs.append(pages_record(0x1234567 * (j + 1), ids, "posts/%s/index.html" % p, links if j % 3 else b""))
    for t in tags:
        recs.append(pages_record(0x99 + len(t), [kid["global:site"], kid["template:list.html"], kid["tag:" + t]]
                                 + [kid["post:" + p] for p in slugs], "tags/%s/index.html" % t, b"l/\0"))
    recs.append(pages_record(7, list(range(1, nid)), "index.html", b"ltags/\0"))
    out = b"folio-pages 4\n\0\0" + struct.pack("<QQQ", 0, 0xc0ffee, len(memo)) + memo
    out += struct.pack("<IQ", nid, len(keys))
    for k, i, n in keys:
        out += struct.pack("<III", i, n, len(k.encode())) + k.encode()
    out += struct.pack("<Q", nid) + b"".join(struct.pack("<Q", (0x9e3779b97f4a7c15 * i) % 2 ** 64 or 1)
                                               for i in range(nid))
    out += struct.pack("<Q", len(recs)) + b"".join(recs)
    return out


def pages_seeds(s):
    slugs = [os.path.basename(p)[:-3] for p in sorted(glob("examples/techblog/content/posts", ".md"))]
    memo = b"folio-links 1\n\0\0" + struct.pack("<QQ", 5, 3) + struct.pack("<3Q", 1, 2 ** 40, 2 ** 63)
    s.add("pages", pages_file([], [], b""))
    for i, k in enumerate((1, 2, 5, 9)):
        s.add("pages", pages_file(slugs[i * 9:i * 9 + k], ["cuda", "c++", "compilers"][:k % 4], memo if i % 2 else b""))


def uptodate_file(inputs, said, warnings):
    """An up-to-date state of inputs (path, size, i), as
    rebuild_uptodate_save writes it."""
    sb = said.encode()
    out = b"folio-uptodate-2 %016x %d %d %d %d %016x %d %d %d\n" % (
        0x0123456789abcdef, 1800086400 if warnings else 0, 40, 30, 55, 0xfeedface, warnings, len(sb), len(inputs))
    out += sb + b"\n"
    for path, size, i in inputs:
        pb = path.encode()
        mode = 16877 if path.endswith("/") or "." not in os.path.basename(path) else 33188
        sig = (mode, size, 1700000000000000000 + i, 1700000000000000001 + i, 4000 + i, 2049, 0)
        out += b"%016x" % ((0x9e3779b97f4a7c15 * (i + 1)) % 2 ** 64 if mode == 33188 else 0)
        out += b"".join(b" %d" % v for v in sig) + b" %d %s\n" % (len(pb), pb)
    return out + b"end\n"


def uptodate_seeds(s):
    inputs = []
    base = "examples/techblog"
    for root, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in [""] + sorted(files):
            p = os.path.relpath(os.path.join(root, n), base) if n else os.path.relpath(root, base)
            if p != ".":
                inputs.append((p, os.path.getsize(os.path.join(base, p)) if n else 0, len(inputs)))
    said = "content/posts/a.md:3:1: warning: unknown front matter key 'titel' (did you mean 'title'?)\n" \
        "folio.yml:1:1: warning: no base_url\n"
    s.add("uptodate", uptodate_file([], "", 0))
    for i, k in enumerate((1, 3, 10, 40)):
        s.add("uptodate", uptodate_file(inputs[i * 7:i * 7 + k], said if i % 2 else "", 2 if i % 2 else 0))


# Drawings of pikchr's objects, places, attributes, text, macros,
# variables and errors, for fuzz_pikchr.c.
PIKCHR_SEEDS = [
    'box "Hello" fill white\narrow\ncircle "World" color red\n',
    'arrow right 200% "Markdown" "Source"\nbox rad 10px "Markdown" "Formatter" "(markdown.c)" fit\n'
    'arrow right 200% "HTML+SVG" "Output"\narrow <-> down 70% from last box.s\n'
    'box same "Pikchr" "Formatter" "(pikchr.c)" fit\n',
    'A: box "a"; B: box "b" at 1in right of A; arrow from A.e to B.w chop; line from A.s down then right until even with B then to B.s\n',
    'circle "C0"; arrow; circle "C1"; arrow; circle "C2"; arrow; circle "C4"; arrow; circle "C6"\n'
    'circle "C3" at dist(C2,C4) heading 30 from C2\n',
    'cylinder "DB" fill lightblue; file "out.html" with .w at last cylinder.e + (0.5,0); oval "end"; ellipse; diamond\n',
    'spline from (0,0) then to (1,1) then to (2,0) then to (3,1) ->\narc cw from (0,0) to (1,1) <-\ndot at (2,2) color blue\n',
    'scale = 0.8\nfontscale = 1.2\nthickness = 2px\nboxwid = 1cm; boxht = 5mm\nbox dashed; box dotted; box thick; box thin; box invis\n',
    'define pipe { box $1 fit; arrow }\npipe("parse")\npipe("render")\npipe("write")\nbox "done"\n',
    '[ A: box "in"; B: box "out" ] ; arrow from last [].A.n up 0.5in\n',
    'text "left" ljust; text "right" rjust above; text "bold" bold italic mono big small; text "a\\"b" aligned\n',
    'x1 = 3; x1 += 2; x1 *= 1.5; box wid x1/4 ht sqrt(x1)/2 color 0x336699 fill rgb(0,0,0)\nassert( x1 == 7.5 )\nprint x1, "x1"\n',
    'box behind last box; layer = 2; box; line from 1st box.nw to 2nd box.se; move; box with .n at previous.s\n',
    'fgcolor = red\nbgcolor = 0x202020\nbox fill white "t" color white\n',
    '# a comment\n// another\n/* and another */\n',
    '',
    'box wid junk\n',
    'box\nbox box box\n',
    'define m { box wid junk }\nm\n',
    '[' * 300 + 'box' + ']' * 300,
    'box wid ' + '(' * 300 + '1' + ')' * 300 + '\n',
    'define ma {box;box;box;box;box;box;box;box;box;box}\ndefine mb {ma;ma;ma;ma;ma;ma;ma;ma;ma;ma}\nmb\nmb\n',
    'define r { r }\nr\n',
    'line from (0,0)' + ''.join(' then to (%d,%d)' % (i, i % 3) for i in range(40)) + '\n',
    '"&lt;b&gt; &amp; &#92; &nbsp;" at (0,0)\ntext "\t\r" at (1,1)\n',
    'box "\u5b57 \u03bb \U0001f600" fit\n',
    'box\r\narrow\r\ncircle radius foo\r\n',
    'box at 1000000th box\nbox with .c at 3rd last box.ne\n',
    'box wid 1e308 ht 1e308\nmove 1e308\n',
    'arc; arc cw; arc ccw ->; arc <- rad 2\n',
    'B1: box; B2: box; B3: box at B1 + (B2.x - B1.x, 0.5); line from B1.n to B2.n to B3.n close fill yellow\n',
    'down\nbox; arrow; box; left; arrow; box; up; arrow; box; right\n',
]


# Diagrams of each kind beautiful-mermaid draws (flowcharts with shapes,
# subgraphs and styles, state, sequence, class, ER, xychart), and its
# errors, for fuzz_mermaid.c.
MERMAID_SEEDS = [
    'graph TD\n  A[Start] --> B{Is it?}\n  B -->|Yes| C[OK]\n  B -->|No| D[End]\n',
    'flowchart LR\n  A((circle)) --- B>flag] -.-> C[(db)] ==> D{{hex}}\n  D --o E[/para/] --x F[\\alt\\]\n'
    '  F <--> A\n  click A callback\n',
    'flowchart TB\n  subgraph one [First]\n    direction LR\n    a1 --> a2\n  end\n  subgraph two\n'
    '    b1 --> b2\n    subgraph inner\n      c1\n    end\n  end\n  a2 --> b1\n  one --> two\n  c1 --> a1\n',
    'graph TD\n  A:::hot --> B\n  classDef hot fill:#f96,stroke:#333,stroke-width:4px\n  style B fill:#bbf\n'
    '  linkStyle 0 stroke:red\n',
    'graph LR\n  A -- text --> B -- more --> C\n  A & B --> C & D\n  D --> D\n',
    'stateDiagram-v2\n  [*] --> Still\n  Still --> [*]\n  Still --> Moving : push\n  Moving --> Still\n'
    '  state Moving {\n    [*] --> Slow\n    Slow --> Fast\n  }\n  note right of Still : a note\n',
    'sequenceDiagram\n  participant A as Alice\n  actor B\n  A->>B: Hello\n  B-->>A: Hi\n  loop Every minute\n'
    '    A-)B: ping\n  end\n  alt ok\n    B->>A: yes\n  else no\n    B-xA: no\n  end\n  Note over A,B: done\n',
    'classDiagram\n  Animal <|-- Duck\n  Animal *-- Leg\n  Animal o-- Food : eats\n  Animal : +int age\n'
    '  Animal : +isMammal() bool\n  class Duck{\n    <<interface>>\n    +String beak\n    +swim()$\n  }\n',
    'erDiagram\n  CUSTOMER ||--o{ ORDER : places\n  ORDER ||--|{ LINE-ITEM : contains\n'
    '  CUSTOMER {\n    string name\n    int id PK\n    string email UK "the address"\n  }\n',
    'xychart-beta\n  title "Sales"\n  x-axis [jan, feb, mar, apr]\n  y-axis "Revenue" 0 --> 100\n'
    '  bar [20, 45, 60, 80]\n  line [10, 30, 50, 90]\n',
    '%%{init: {"theme": "dark"}}%%\ngraph TD\n  A --> B\n',
    'graph TD\n  A["&lt;b&gt; &amp; &#92; &#x1F600; <script>"] --> B["a<br/>b"]\n',
    'graph TD\n  A[\u5b57 \u03bb \U0001f600] --> B\n',
    'graph TD\r\n  A --> B\r\n',
    'pie title Pets\n  "Dogs" : 386\n',
    'nonsense\n',
    'graph\n',
    'graph XY\n  A --> B\n',
    '',
    'flowchart TD\n' + ''.join('  n%d --> n%d\n' % (i // 2, i) for i in range(1, 60)),
    'flowchart LR\n' + ''.join('  a%d --> b%d\n  b%d --> a%d\n' % (i, (i * 7) % 13, (i * 3) % 11, i) for i in range(20)),
    'graph TD\n' + '  subgraph s\n' * 30 + '  A\n' + '  end\n' * 30,
    'graph TD\n  A[' + 'x' * 3000 + '] --> B\n',
]


def mermaid_seeds(s):
    for t in MERMAID_SEEDS:
        s.add("mermaid", t)
    fenced_seeds(s, "mermaid")


def pikchr_seeds(s):
    for t in PIKCHR_SEEDS:
        s.add("pikchr", t)
    fenced_seeds(s, "pikchr")


def fenced_seeds(s, lang):
    """Every ```LANG block of the example blog, the test sites and the man page, for target LANG."""
    fence = re.compile(r"^([ \t>-]*)(```+|~~~+)[ \t]*" + lang + r"\b[^\n]*\n(.*?)^[ \t>-]*\2", re.M | re.S)
    files = []
    for top in ("examples/techblog/content", "tests/sites", "tests/markdown"):
        for root, dirs, names in os.walk(top):
            dirs.sort()
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith((".md", ".txt"))]
    for page in ("man/folio-site.5",):
        files.append(page)
    for f in files:
        text = read(f)
        if f.endswith(".5"):  # the man page's escapes, undone enough for pikchr
            text = text.replace("\\(ga", "`").replace("\\(dq", '"').replace("\\-", "-").replace("\\e", "\\")
        for m in fence.finditer(text):
            s.add(lang, m.group(3))


BIBTEX_SEEDS = [
    b"@article{vaswani2017,\n  title = {Attention Is {All} You Need},\n  author = {Vaswani, Ashish and Shazeer, Noam and others},\n"
    b"  year = 2017, month = jun, eprint = {1706.03762}, archivePrefix = {arXiv}\n}\n",
    b"@string{nips = {Advances in Neural Information Processing Systems}}\n@inproceedings(a, booktitle = \"Proc. \" # nips # {, } # 30)\n",
    b"@preamble{\"\\newcommand{\\noop}[1]{}\"}\n@comment{x}\n@comment junk\ntext @ outside\n@misc{k}\n",
    b"@book{g, author = {G{\\\"o}del, Kurt and Ludwig van Beethoven and Ford, Jr., Henry and {Barnes and Noble}},\n"
    b"  title = {\\emph{\\'{E}t\\`a} \\textbf{b {\\\"u}} \\ss \\aa \\o --- -- ~ \\& \\% $x^2$ \\c{c} \\v s \\H{o} \\.z \\={a}}}\n",
    b"@article{u, title = {unclosed\n",
    b"@article{q, title = \"unclosed\n",
    b"@article{d, title={x}}\n@article{d, title={y}}\n@article{, x = 1}\n@article{e title = 1}\n@article{f, x y}\n",
    b"@book{deep, title = " + b"{" * 5000 + b"x" + b"}" * 5000 + b"}\n",
    b"@book{deep2, title = {\\emph{" + b"{\\textbf{" * 300 + b"x" + b"}}" * 300 + b"}}}\n",
    b"@string{s0 = \"xxxxxxxxxxxxxxxx\"}\n" + b"".join(b"@string{s%d = s%d # s%d}\n" % (i, i - 1, i - 1) for i in range(1, 40))
    + b"@book{k, title = s39}\n",
    b"@book{big, title = {" + b"abcdefghij" * 100000 + b"}}\n",
    b"@book{k, month = juen, journal = undefined}\n",
    b"@article{a2020, author = {Alpha, Ann and Beta, Bob and Gamma, Gil}, title = {First}, year = 2020}\n"
    b"@article{b2020, author = {Alpha, Ann and Beta, Bob}, title = {\\emph{Second}}, year = 2020, doi = {10.1/x}}\n"
    b"@misc{c:d/e+f, title = {Odd key}, url = {https://arxiv.org/abs/1706.03762}}\n"
    b"@@@ md\nSee [@a2020; @b2020, p. 2] and @a2020, [see -@b2020, ch. 1], [@c:d/e+f].\n"
    b"`[@a2020]` [x @a2020](/u) \\@a2020 me@a2020.org @nobody [@eq:one] [@fig:a; @a2020] [@a202]\n\n"
    b"# Heading [@b2020]\n\n> quote @b2020\n\n- item [@a2020;\n  @b2020]\n\nNote[^1].\n\n[^1]: In a note [@c:d/e+f].\n",
]


def bibtex_seeds(s):
    for t in BIBTEX_SEEDS:
        s.add("bibtex", t)
    for top in ("examples", "tests/sites", "tests/cli"):
        for root, dirs, names in os.walk(top):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(".bib"):
                    s.add("bibtex", read(os.path.join(root, n)))


# Code of each language with symbols (md/symbol.c), for fuzz_symbol.c: a
# first line "LANG NAME", then the file.
SYMBOL_SEEDS = [
    "c add\n/* adds */\nstatic int add(int a, int b)\n{\n\treturn a + b;\n}\nstruct point { int x; };\n"
    "typedef struct { int w; } size2;\n#define SQ(x) ((x) * (x))\nint x; // t\nint g(void) { return 1; }\n",
    "cpp linalg::Matrix::at\nnamespace linalg {\ntemplate <typename T>\nstruct Matrix {\n  T at(int i) const { return 0; }\n"
    "  void mul();\n};\nvoid Matrix::mul() {}\nclass S { public: int run() { return 1; } };\n}\n",
    "cuda scale\n// one thread\n__global__ void scale(float *x, float a, int n)\n{\n  int i = threadIdx.x;\n"
    "  if (i < n) x[i] *= a;\n}\n",
    "python Adam.step\nclass Adam:\n    @staticmethod\n    def step(p, g):\n        return p - g\n\ndef loss(x):\n"
    "    def inner():\n        pass\n    return x\n",
    "rust Point::norm\n/// A point.\n#[derive(Debug)]\npub struct Point { x: f64 }\nimpl Point {\n"
    "    pub fn norm(&self) -> f64 { self.x }\n}\ntrait Shape { fn area(&self) -> f64; }\nmod m { fn f() {} }\n",
    "go Point.Dist\npackage geo\ntype Point struct{ X float64 }\n// Dist.\nfunc (p *Point) Dist() float64 {\n"
    "\treturn p.X\n}\nfunc Origin() Point { return Point{} }\ntype ( A int; B int )\n",
    "javascript Box.open\nexport function add(a, b) { return a + b; }\nclass Box { open() { return 1; } }\n"
    "const twice = (x) => x * 2;\nlet f = function () {}, g = 1;\n",
    "typescript Sq.area\ninterface Shape { area(): number }\ntype Id = string;\nenum E { A }\n"
    "export class Sq implements Shape { area(): number { return 1; } }\nabstract class Q {}\n",
    "tsx App\nfunction App() { return <div>{1}</div>; }\n",
    "java Main.main\npublic class Main {\n    /** Entry. */\n    @Override\n    public static void main(String[] a) {}\n"
    "    Main() {}\n    record R(int x) {}\n    interface I {}\n    enum E { A }\n}\n",
    "c f\n" + "struct a {\n" * 300 + "int f(void) { return 0; }\n" + "};\n" * 300,
    "python f\n" + "".join("    " * i + "class C%d:\n" % i for i in range(100)) + "    " * 100 + "def f(): pass\n",
    "c zzz\n" + "".join("int f%d(void) { return %d; }\n" % (i, i) for i in range(400)),
    "cpp a::b::c\n" + "namespace a { namespace b { int c() { return 0; } } }\n" + "(" * 2000 + "\n",
    "rust S::f\nimpl<T: Clone> S<T> { fn f(&self) {} }\n",
    "c \n",
    "go \n\x00\xff",
]


def symbol_seeds(s):
    for t in SYMBOL_SEEDS:
        s.add("symbol", t)
    exts = {".c": "c", ".h": "c", ".cu": "cuda", ".cpp": "cpp", ".py": "python", ".rs": "rust", ".go": "go",
            ".js": "javascript", ".ts": "typescript", ".java": "java"}
    for top in ("examples/techblog", "tests/sites"):
        for root, dirs, names in os.walk(top):
            dirs.sort()
            for n in sorted(names):
                lang = exts.get(os.path.splitext(n)[1])
                if lang and "/expected/" not in root + "/":
                    s.add("symbol", "%s main\n%s" % (lang, read(os.path.join(root, n))))


def glob(d, ext):
    if not os.path.isdir(d):
        return []
    return [os.path.join(d, n) for n in os.listdir(d) if n.endswith(ext) and os.path.isfile(os.path.join(d, n))]


def notebook_seeds(s):
    """The example notebooks, and pathological ones: deep nesting, a huge
    output, many cells, bad base64, ANSI junk, sources as one string and as
    lists, attachments, every output type, old and new nbformats."""
    import json as js
    for path in sorted(glob("examples/techblog/content/posts", ".ipynb")):
        s.add("notebook", read(path))
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNQTX79HwAElwJzVt2vfAAAAABJRU5ErkJggg=="
    meta = {"folio": {"title": "T", "date": "2026-01-01"}, "kernelspec": {"language": "python"}}

    def nb(cells, fmt=4, minor=5, m=meta):
        return js.dumps({"nbformat": fmt, "nbformat_minor": minor, "metadata": m, "cells": cells}, indent=1)

    def code(src, outs, n=1):
        return {"cell_type": "code", "execution_count": n, "metadata": {}, "source": src, "outputs": outs}

    md = {"cell_type": "markdown", "metadata": {}, "source": ["# Head\n", "$$\n", "x^2\n", "$$\n", "text `a`"]}
    outs = [
        {"output_type": "stream", "name": "stdout", "text": ["a\rb\n", "c"]},
        {"output_type": "stream", "name": "stderr", "text": "warn\n"},
        {"output_type": "error", "ename": "E", "evalue": "v",
         "traceback": ["\u001b[0;31mE\u001b[0m", "\u001b[38;5;28;01mdef\u001b[39;00m \u001b]0;t\u0007x\u001b["]},
        {"output_type": "display_data", "data": {"image/png": png, "text/plain": "alt [x]"}},
        {"output_type": "display_data", "data": {"image/svg+xml": ["<svg xmlns='http://www.w3.org/2000/svg'/>"]}},
        {"output_type": "execute_result", "data": {"text/html": ["<table>\n", "\n", "</table>"]}},
        {"output_type": "display_data", "data": {"text/latex": "$$\\frac{a}{b}\n\n$$"}},
        {"output_type": "display_data", "data": {"text/markdown": "**b** $x$"}},
        {"output_type": "execute_result", "data": {"text/plain": ["<pre></pre>"]}},
    ]
    s.add("notebook", nb([md, code("x = 1\nprint(x)", outs), code(["```\n", "````"], [])]))
    s.add("notebook", nb([{"cell_type": "markdown", "source": "![a](attachment:p.png) attachment:q",
                           "attachments": {"p.png": {"image/png": png}}}]))
    s.add("notebook", nb([code("", [{"output_type": "display_data", "data": {"image/png": "iVBO$$$="}}])]))
    s.add("notebook", nb([code("", [{"output_type": "display_data", "data": {"image/jpeg": "aGVsbG8="}}])]))
    s.add("notebook", nb([], fmt=3))
    s.add("notebook", nb([], fmt=5))
    s.add("notebook", nb([{"source": "x"}, {"cell_type": "heading", "source": ""}, 3, {"cell_type": "raw",
                           "metadata": {"raw_mimetype": "text/html"}, "source": "<b>\n\nx</b>"}]))
    s.add("notebook", nb([md] * 3000))
    s.add("notebook", nb([code("print(1)", [{"output_type": "stream", "name": "stdout",
                                             "text": "\u001b[31m" + "y" * 200000 + "\n"}])]))
    deep = {}
    for _ in range(80):
        deep = {"d": [deep]}
    s.add("notebook", nb([], m={"folio": deep}))
    s.add("notebook", nb([code("", [{"output_type": "stream", "text": "".join(
        "\u001b[%d;%dm%c" % (i % 110, (i * 7) % 110, 32 + i % 90) for i in range(2000))}])]))
    s.add("notebook", '{"nbformat": 4, "cells": [{"cell_type": "markdown", "source": "\\ud83d\\ude00 \\u00e9 $$"}]}')


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: seeds.py OUT")
    out = sys.argv[1]
    targets = {"yaml": yaml_seeds, "tmpl": tmpl_seeds, "markdown": markdown_seeds, "serve": serve_seeds,
               "image": image_seeds, "imgdecode": imgdecode_seeds, "mdcache": mdcache_seeds, "links": links_seeds, "toml": toml_seeds,
               "json": json_seeds, "import": import_seeds, "search": search_seeds, "related": related_seeds,
               "fmcache": fmcache_seeds, "searchpack": searchpack_seeds, "manifest": manifest_seeds,
               "srccache": srccache_seeds, "mathcache": mathcache_seeds, "mathjax": mathjax_seeds,
               "extcache": extcache_seeds,
               "pages": pages_seeds, "uptodate": uptodate_seeds, "pikchr": pikchr_seeds,
               "mermaid": mermaid_seeds, "bibtex": bibtex_seeds, "symbol": symbol_seeds,
               "notebook": notebook_seeds, "deployrecord": deployrecord_seeds, "udirdecl": udirdecl_seeds}
    s = Seeds(out)
    for t, fn in targets.items():
        shutil.rmtree(os.path.join(out, t), ignore_errors=True)
        fn(s)
    print("seeds: " + ", ".join("%s %d" % (t, s.count.get(t, 0)) for t in targets))


if __name__ == "__main__":
    main()

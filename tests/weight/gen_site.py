#!/usr/bin/env python3
"""gen_site.py: a deterministic technical blog of N posts for folio's page
weight test (tests/cli/test_weight.sh), where the benchmarks' corpus
generator is not at hand (a fresh CI machine).

Usage: gen_site.py --posts N --seed S --out DIR

Writes DIR/folio.yml (featured series, best of, start here), 40 series in
DIR/content/series/, N posts in DIR/content/posts/ (seven in ten in a
series; one to four tags; a category, a difficulty and a summary; bodies
of about 6 to 15 KB of Markdown: paragraphs with emphasis, code spans and
links, two to five headings, code blocks, lists, a table, a footnote, a
link to the post before) and two pages. The same N and seed give the same
bytes (random.Random only; no clock, no set ordering).
"""
import argparse
import os
import random

WORDS = {
    "noun": """allocator arena buffer cache kernel queue scheduler pipeline thread
        warp register tensor shard replica socket page inode parser compiler
        interpreter bytecode module layer batch epoch trace profile heap stack
        pool lock frame packet driver loader linker symbol index table tree
        graph iterator future channel mutex barrier fence vector matrix""".split(),
    "verb": """allocates evicts splits schedules fuses hides exposes doubles halves
        saturates dominates serializes caches maps unmaps touches limits
        replaces amortizes inlines reorders batches flushes drains""".split(),
    "adj": """hot cold shared private tiled fused naive explicit implicit lock-free
        concurrent incremental dense sparse aligned volatile fragile cheap
        expensive hidden subtle portable vectorized deterministic""".split(),
    "det": "the this every each our a".split(),
    "code": """`cudaMemcpyAsync` `mmap` `perf record` `git bisect` `-O2`
        `__syncthreads()` `tl.load` `malloc` `epoll_wait` `CMakeLists.txt`
        `kubectl apply` `-fsanitize=address`""".split("\n"),
}
WORDS["code"] = [w for line in WORDS["code"] for w in line.split("` `")]
TAGS = """cuda triton linux compilers llm mlops ebpf rust c cpp python go gpu
    performance profiling kernels memory concurrency networking databases
    storage distributed-systems kubernetes docker security fuzzing testing
    debugging llvm cmake simd quantization transformers pytorch inference
    training observability filesystems embedded wasm algorithms parsing
    interpreters async lock-free numerics benchmarking tooling""".split()
CATEGORIES = ["GPU", "Systems", "Compilers", "Machine Learning", "Linux", "Storage", "Tools", "Networking"]
TOPICS = """Warp Scheduling|Register Pressure|Memory Coalescing|Page Faults|Ring
    Buffers|Flaky Tests|Build Times|Static Linking|Tensor Cores|KV Caches|Lock
    Contention|Tail Latency|Branch Prediction|False Sharing|Huge Pages|Cache
    Misses|Dead Code|Inline Assembly|Error Handling|Backpressure""".replace("\n    ", " ").split("|")
SERIES_WORDS = """CUDA Triton Compiler Kernel Inference MLOps eBPF Rust GPU Storage
    Training CMake Lock-Free Profiling Networking SIMD Quantization Kubernetes
    Interpreter Allocator""".split()
LEVELS = ["beginner", "intermediate", "advanced"]
CODE = {
    "c": "static int sum(const int *v, size_t n)\n{\n\tint s = 0;\n\tfor (size_t i = 0; i < n; i++)\n"
         "\t\ts += v[i];\n\treturn s;\n}",
    "cuda": "__global__ void scale(float *x, float a, int n)\n{\n\tint i = blockIdx.x * blockDim.x + "
            "threadIdx.x;\n\tif (i < n)\n\t\tx[i] *= a;\n}",
    "python": "def chunks(xs, n):\n    for i in range(0, len(xs), n):\n        yield xs[i:i + n]",
    "bash": "perf record -g ./bench --size 4096\nperf report --stdio | head -40",
}


def slugify(s):
    out, dash = [], False
    for ch in s.lower():
        if ch.isalnum():
            out.append(ch)
            dash = False
        elif not dash and out:
            out.append("-")
            dash = True
    return "".join(out).strip("-")


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Text:
    def __init__(self, rng):
        self.r = rng

    def w(self, kind):
        return self.r.choice(WORDS[kind])

    def sentence(self):
        r = self.r
        noun = self.w("noun")
        if r.random() < 0.2:
            noun = "*%s*" % noun
        elif r.random() < 0.1:
            noun = "**%s**" % noun
        obj = self.w("noun") if r.random() < 0.8 else self.w("code")
        s = "%s %s %s %s %s %s" % (self.w("det"), self.w("adj"), noun, self.w("verb"), self.w("det"), obj)
        if r.random() < 0.4:
            s += " behind %s %s %s" % (self.w("det"), self.w("adj"), self.w("noun"))
        return s[0].upper() + s[1:] + "."

    def paragraph(self):
        return " ".join(self.sentence() for _ in range(self.r.randint(4, 8)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--posts", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    r = random.Random(a.seed)
    t = Text(r)
    os.makedirs(os.path.join(a.out, "content", "posts"))
    os.makedirs(os.path.join(a.out, "content", "series"))
    os.makedirs(os.path.join(a.out, "content", "pages"))
    series = []
    for i in range(40):
        title = "%s %s, Step by Step" % (SERIES_WORDS[i % len(SERIES_WORDS)], ["Basics", "in Depth"][i // 20])
        series.append({"title": title, "slug": slugify(title), "n": 0})
    posts = []
    seen = set()
    for i in range(a.posts):
        p = {"i": i}
        day = i * 1460 // max(a.posts, 1)  # four years, oldest first
        p["date"] = "%04d-%02d-%02dT%02d:%02d:00Z" % (2022 + day // 365, day % 365 // 31 % 12 + 1,
                                                      day % 31 % 28 + 1, r.randint(0, 23), r.randint(0, 59))
        topic = r.choice(TOPICS)
        if r.random() < 0.7:
            se = series[r.randrange(len(series))]
            se["n"] += 1
            p["series"], p["order"] = se["slug"], se["n"]
            title = "%s, Part %d: %s" % (se["title"], se["n"], topic)
        else:
            title = "Notes on %s and %s" % (topic, t.w("noun").title())
        slug = slugify(title)
        k = 2
        while slug in seen:
            slug = "%s-%d" % (slugify(title), k)
            k += 1
        seen.add(slug)
        p["title"], p["slug"] = title, slug
        p["tags"] = r.sample(TAGS, r.randint(1, 4))
        posts.append(p)
    for p in posts:
        prev = posts[p["i"] - 1]["slug"] if p["i"] else None
        lines = ["---", "title: " + q(p["title"]), "date: " + p["date"], "tags:"]
        lines += ["  - " + x for x in p["tags"]]
        lines.append("category: " + q(r.choice(CATEGORIES)))
        lines.append("difficulty: " + r.choice(LEVELS))
        if "series" in p:
            lines.append("series: " + q(p["series"]))
            lines.append("series_order: %d" % p["order"])
        lines.append("summary: " + q(t.sentence()))
        lines += ["---", ""]
        body = [t.paragraph()]
        if prev:
            body.append("Read [the post before](/posts/%s/) first." % prev)
        for h in range(r.randint(3, 6)):
            body.append("## %s %s" % (t.w("adj").title(), t.w("noun")))
            for _ in range(r.randint(2, 5)):
                body.append(t.paragraph())
            x = r.random()
            if x < 0.45:
                lang = r.choice(sorted(CODE))
                body.append("```%s\n%s\n```" % (lang, CODE[lang]))
            elif x < 0.65:
                body.append("\n".join("- " + t.sentence() for _ in range(r.randint(3, 5))))
            elif x < 0.75:
                body.append("| %s | %s |\n| --- | ---: |\n" % (t.w("noun"), "ms") +
                            "\n".join("| %s | %d |" % (t.w("noun"), r.randint(1, 999)) for _ in range(4)))
        body.append(t.paragraph() + "[^1]")
        body.append("[^1]: " + t.sentence())
        with open(os.path.join(a.out, "content", "posts", p["slug"] + ".md"), "w") as f:
            f.write("\n".join(lines) + "\n\n".join(body) + "\n")
    used = [s for s in series if s["n"]]
    for s in used:
        with open(os.path.join(a.out, "content", "series", s["slug"] + ".md"), "w") as f:
            f.write("---\ntitle: %s\ndescription: %s\ndifficulty: %s\nbest_for: %s\naudience: %s\n---\n\n%s\n" % (
                q(s["title"]), q(t.sentence()), r.choice(LEVELS), q("engineers new to " + t.w("noun") + "s"),
                q(t.sentence()), t.paragraph()))
    for name, title in (("about", "About"), ("start-here", "Start Here")):
        with open(os.path.join(a.out, "content", "pages", name + ".md"), "w") as f:
            f.write("---\ntitle: %s\n---\n\n%s\n\n%s\n" % (q(title), t.paragraph(), t.paragraph()))
    cfg = ["title: \"Weight Blog\"", "description: \"A generated technical blog.\"",
           "base_url: \"https://weight.example.org/\"", "language: en", "posts_per_page: 10",
           "start_here: start-here", "featured_series:"]
    cfg += ["  - " + s["slug"] for s in sorted(used, key=lambda s: -s["n"])[:6]]
    cfg.append("best_of:")
    for p in posts[:: max(len(posts) // 5, 1)][:5]:
        cfg += ["  - post: " + p["slug"], "    note: " + q(t.sentence())]
    with open(os.path.join(a.out, "folio.yml"), "w") as f:
        f.write("\n".join(cfg) + "\n")


if __name__ == "__main__":
    main()

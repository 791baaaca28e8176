/* math.h: TeX to MathML at build time: KaTeX run in QuickJS (one
 * interpreter per thread), with a cache in memory that the caller keeps
 * between builds as bytes (math_cache_save, math_cache_load). */
#ifndef FOLIO_MATH_H
#define FOLIO_MATH_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* The KaTeX folio embeds (build/gen/katex.c), e.g. "0.16.10". */
extern const char math_katex_version[];

/* Limits on one formula: past them math_render gives an error rather than
 * letting a pathological formula stall or sink the build.
 * MATH_MAX_LEN: bytes of TeX (KaTeX in QuickJS takes 10-20 us a byte).
 * MATH_TIME_LIMIT_S: CPU seconds per formula (against a macro expanding to
 * millions of tokens); real formulas take under 50 ms.
 * MATH_MEMORY_LIMIT: bytes per thread's interpreter (KaTeX loaded: ~5 MB;
 * the worst 16 KB formula found: under 48 MB).
 * MATH_MAX_STACK: bytes of C stack for JavaScript, and at most half of
 * what the calling thread has left. */
#define MATH_MAX_LEN      16384
#define MATH_TIME_LIMIT_S 1
/* MATH_MAX_GROWTH: a formula's MathML may be at most this many times its
 * TeX, plus MATH_GROWTH_SLACK bytes (real formulas: 10 to 50 times, the
 * short ones most, "x" is 210 bytes): "\def\a{x+x+...}\def\b{\a\a...}"
 * would make 1,000 times, 200 KB from 270 bytes, repeated all through a
 * page. MATH_DOC_TIME_LIMIT_S: CPU seconds for the formulas of one page
 * (md_options' typeset_seconds; math_doc_seconds scales it as the
 * per-formula limit is, for sanitizers and valgrind). */
#define MATH_MAX_GROWTH   64
#define MATH_GROWTH_SLACK 4096
#define MATH_DOC_TIME_LIMIT_S 3
#define MATH_MEMORY_LIMIT (128u << 20)
#define MATH_MAX_STACK    (4u << 20)

/* A macro of folio.yml's math.macros: name "\RR", expansion "\mathbb{R}". */
struct math_macro {
	struct str name, expansion;
};

/* math_macro_check: NULL if name can name a KaTeX macro (a control
 * sequence: '\' and letters, or '\' and one other character), else a
 * static message saying why not, e.g. "macro names start with '\', as in
 * '\RR'" (no position: the caller adds it). */
const char *math_macro_check(struct str name);

struct math_cache;

/* math_cache_open: a new cache, in memory, owned by the caller
 * (math_cache_close frees it). macros[0..nmacros) are given to KaTeX for
 * every formula (copied, in order; a name that fails math_macro_check is
 * passed on but never matches). Does not load KaTeX (each thread's first
 * typesetting does), so a site without math pays nothing. */
struct math_cache *math_cache_open(const struct math_macro *macros, size_t nmacros);

/* math_cache_key: what c's formulas depend on besides their TeX: this
 * folio, its KaTeX and c's macros (a hash). It names the file the caller
 * keeps c in between builds (cache/: .folio-cache/math/KEY.cache, KEY its
 * 16 hex digits), whose bytes only this module reads and makes. */
uint64_t math_cache_key(const struct math_cache *c);

/* math_cache_load: the formulas of text[0..len), bytes that
 * math_cache_save made for a cache of the same key in an earlier build,
 * into c; a stale or damaged text is ignored, never an error. */
void math_cache_load(struct math_cache *c, const char *text, size_t len);

/* math_cache_save: whether c's file should be written (something was
 * added, or an entry aged): then 1, and the file's bytes appended to out;
 * else 0 (and always after math_cache_read_only). The file holds the
 * formulas used in this run and the older ones unused for fewer than
 * MATH_CACHE_KEEP runs (so that formulas deleted from the site leave).
 * The caller writes it whole or not at all (a build running at the same
 * time reads the old file or the new one, never half of one), and may
 * delete the files of other keys. */
#define MATH_CACHE_KEEP 5
int math_cache_save(struct math_cache *c, struct buf *out);

/* math_cache_close: frees c (c may be NULL). */
void math_cache_close(struct math_cache *c);

/* math_cache_mathjax: c's formulas are in MathJax's dialect: each is
 * rewritten by mathjax_rewrite (md/mathjax.h) before KaTeX reads it, and
 * an error's position is the author's (folio.yml's math: {compat:
 * mathjax}). The cache holds the rewritten TeX, so that its key stays. */
void math_cache_mathjax(struct math_cache *c);

/* math_cache_read_only: math_cache_save never asks for c to be written
 * (folio check, which leaves the site's folder as it was). */
void math_cache_read_only(struct math_cache *c);

/* math_render: typesets tex[0..len) (UTF-8, without its $ delimiters) with
 * KaTeX as MathML, inline or (display != 0) as a block, and appends it to
 * out as KaTeX emits it (TeX and the annotation HTML-escaped):
 *   <span class="katex"><math xmlns="http://www.w3.org/1998/Math/MathML"
 *   [display="block"]><semantics>...<annotation encoding="application/x-tex">
 *   TeX</annotation></semantics></math></span>
 * From the cache when the same TeX was typeset before in the same mode.
 * Returns 0 (with *err_pos = -1), or -1 on an error: out untouched, err
 * (reset first) set to the message, and *err_pos to the byte offset in tex
 * of the token the error blames, or -1 when it blames none (the error is
 * about the whole formula, or lies in a macro's expansion). Messages are
 * KaTeX's own, its excerpt of the TeX underlined with U+0332:
 *   KaTeX parse error: Undefined control sequence: \foo at position 3: a+\̲f̲o̲o̲
 *   KaTeX parse error: \tag works only in display equations
 *   KaTeX parse error: Undefined control sequence: \foo in a macro expansion: \mathrm{x}\̲f̲o̲o̲
 * or folio's, for the limits above:
 *   formula too long (40000 bytes, at most 16384)
 *   formula nested too deeply
 *   formula takes longer than 1 s to typeset
 *   formula needs more than 128 MB to typeset
 *   formula makes 204800 bytes of MathML, more than 64 times its TeX
 *   (hint: a macro that expands many times)
 *   formula makes a character a page cannot hold (U+0000 or not UTF-8)
 * err and err_pos may be NULL.
 * Thread-safe: any number of threads may render with one cache. A thread
 * starts its own QuickJS runtime on its first formula not in the cache
 * (loading KaTeX: ~30-40 ms) and keeps it until math_thread_cleanup or the
 * thread's exit. */
int math_render(struct math_cache *c, const char *tex, size_t len, int display, struct buf *out,
                struct buf *err, int *err_pos);

/* math_doc_seconds: MATH_DOC_TIME_LIMIT_S, scaled for slow builds. */
double math_doc_seconds(void);

/* math_thread_cleanup: frees the calling thread's QuickJS runtime, if it
 * has one. Other threads' runtimes are freed when they exit; the main
 * thread (whose exit runs no destructors) must call this. Idempotent. */
void math_thread_cleanup(void);

/* What a cache did since math_cache_open. */
struct math_stats {
	size_t typeset;      /* formulas KaTeX typeset */
	size_t cached;       /* formulas found in the cache (memory or disk) */
	size_t errors;       /* math_render calls that returned -1 */
	size_t loads;        /* KaTeX loads (one per thread that typeset) */
	size_t disk_entries; /* formulas read from the disk cache at open */
	double typeset_s;    /* seconds in KaTeX, summed over threads */
	double load_s;       /* seconds loading KaTeX, summed over threads */
};

/* math_stats: copies c's counters into *s. */
void math_stats(struct math_cache *c, struct math_stats *s);

/* math_version: "QuickJS VERSION\nKaTeX VERSION", for folio --version. */
const char *math_version(void);

#endif

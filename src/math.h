/* math.h: TeX to MathML at build time: KaTeX run in QuickJS (one
 * interpreter per thread), with an in-memory and an on-disk cache. */
#ifndef FOLIO_MATH_H
#define FOLIO_MATH_H

#include <stddef.h>

#include "buf.h"

/* The KaTeX folio embeds (build/gen/katex.c), e.g. "0.16.10". */
extern const char math_katex_version[];

/* Limits on one formula. Past them math_render gives an error rather than
 * letting a pathological formula stall or sink the build. */
#define MATH_MAX_LEN      16384        /* bytes of TeX (KaTeX in QuickJS: ~10-20 us a byte) */
#define MATH_TIME_LIMIT_S 1            /* seconds of KaTeX work per formula (a macro
                                        * expanding to millions of tokens); real
                                        * formulas take well under 50 ms */
#define MATH_MEMORY_LIMIT (256u << 20) /* bytes per thread's interpreter */
#define MATH_MAX_STACK    (4u << 20)   /* bytes of C stack for JavaScript */

/* A macro of folio.yml's math.macros: name "\RR", expansion "\mathbb{R}". */
struct math_macro {
	struct str name, expansion;
};

/* math_macro_check: NULL if name can name a KaTeX macro (a control
 * sequence: '\' and letters, or '\' and one other character), else why
 * not, e.g. "macro name 'RR' must start with '\\' (write '\\RR')" (a static
 * string, no position; the caller adds it). */
const char *math_macro_check(struct str name);

struct math_cache;

/* math_cache_open: a new cache, owned by the caller (math_cache_close frees
 * it). macros[0..nmacros) are given to KaTeX for every formula (copied;
 * names should pass math_macro_check, others are passed on but can never
 * match). dir (or NULL: memory only) is the site's cache folder, e.g.
 * "SITE/.folio-cache": the entries of earlier builds with the same folio,
 * KaTeX and macros are read from dir/math/ now, if there are any; a
 * missing, stale or damaged file is an empty cache, never an error. Does
 * not load KaTeX (the first math_render on each thread does). */
struct math_cache *math_cache_open(const char *dir, const struct math_macro *macros,
				   size_t nmacros);

/* math_cache_close: writes the cache to dir/math/ if it changed (formulas
 * typeset in this run, plus earlier ones unused for fewer than
 * MATH_CACHE_KEEP runs; written to a temporary file then renamed, so two
 * builds at once never see half a file; other caches in dir/math/, made
 * with other macros or versions, are deleted), then frees c. c may be
 * NULL. Returns 0, or -1 with errno set if the cache could not be written
 * (c is freed anyway; the site is fine, the next build is slower). */
#define MATH_CACHE_KEEP 5
int math_cache_close(struct math_cache *c);

/* math_render: typesets tex[0..len) (UTF-8, without the $ delimiters) with
 * KaTeX as MathML, inline or (display != 0) as a block, and appends it to
 * out as KaTeX emits it:
 *   <span class="katex"><math xmlns="http://www.w3.org/1998/Math/MathML"
 *   [display="block"]><semantics>...<annotation encoding="application/x-tex">
 *   TeX</annotation></semantics></math></span>
 * From the cache if this TeX was typeset before with the same display mode.
 * Returns 0; or -1 on an error, with out untouched, err (reset first) set to
 * the message, e.g. "KaTeX parse error: Undefined control sequence: \foo at
 * position 3: a+\̲f̲o̲o̲" (KaTeX's own, its excerpt underlined with U+0332), or
 * "formula nested too deeply", "formula too long (40000 bytes, at most 16384)",
 * "formula takes longer than 1 s to typeset",
 * and *err_pos set to the byte offset in tex of the token KaTeX blames, or
 * -1 when there is none (the error is about the whole formula, or lies in
 * a macro's expansion). err and err_pos may be NULL.
 * Thread-safe: any number of threads may render with one cache. Each
 * thread gets its own QuickJS runtime on first use (loading KaTeX, ~40 ms),
 * kept until math_thread_cleanup or the thread's exit. */
int math_render(struct math_cache *c, const char *tex, size_t len, int display, struct buf *out,
		struct buf *err, int *err_pos);

/* math_thread_cleanup: frees the calling thread's QuickJS runtime, if it
 * has one. Other threads' runtimes are freed when they exit; the main
 * thread (whose exit runs no destructors) must call this. Idempotent. */
void math_thread_cleanup(void);

/* What a cache did since math_cache_open. */
struct math_stats {
	size_t typeset;        /* formulas KaTeX typeset */
	size_t cached;         /* formulas found in the cache (memory or disk) */
	size_t errors;         /* math_render calls that returned -1 */
	size_t loads;          /* KaTeX loads (threads that started an interpreter) */
	size_t disk_entries;   /* entries read from the disk cache at open */
	double typeset_s;      /* seconds in KaTeX, summed over threads */
	double load_s;         /* seconds loading KaTeX, summed over threads */
};

/* math_stats: copies c's counters into *s. */
void math_stats(struct math_cache *c, struct math_stats *s);

#endif

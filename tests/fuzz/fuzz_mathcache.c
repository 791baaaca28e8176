/* fuzz_mathcache.c: libFuzzer target for the typeset formulas a build
 * keeps in .folio-cache/math/KEY.cache (math_cache_load; the layout in
 * md/math.c: a "folio-math-cache 1 KEY" line, then per formula "D AGE
 * TEXLEN HTMLLEN\n", its TeX and MathML and "\n", then "end N XXH64\n").
 * An input is such a file. It is read as it is, and again with its key,
 * its count and its checksum made right (so that mutations reach the
 * formulas).
 *
 * The target reads the format itself as the loader should, and checks
 * the loader against it: a file is taken whole (each formula, the first
 * of each TeX and mode, is then given back by math_render from the cache,
 * its MathML as the file holds it, unless that MathML is one math_render
 * refuses) or not at all; what math_cache_save writes of it is exactly
 * the formulas that have not aged out, one older, in their order; and
 * that reads back as the same formulas. KaTeX itself never runs: only
 * formulas in the cache are asked for.
 *
 * With FUZZ_SHOW set in the environment, what each file gave is printed. */
#include "fuzz.h"

#include "base/buf.h"
#include "base/hash.h"
#include "base/slug.h"
#include "md/math.h"

#define MAGIC     "folio-math-cache 1 "
#define MAGIC_LEN 19
#define HEAD_LEN  36 /* the magic, 16 hex digits, "\n" */
#define MAX_SEEN  4096

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

struct formula {
	int display;
	size_t age;
	const char *tex, *html;
	size_t tex_len, html_len;
	int first; /* the first of its TeX and mode: the one the cache keeps */
};

/* num: a decimal number ending in stop, as the loader reads one. */
static int num(const char **p, const char *end, char stop, size_t *out)
{
	const char *s = *p;
	size_t n = 0;
	if (s >= end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (n > (SIZE_MAX - 9) / 10)
			return -1;
		n = n * 10 + (size_t)(*s - '0');
	}
	if (s >= end || *s != stop)
		return -1;
	*p = s + 1;
	*out = n;
	return 0;
}

/* parse: the formulas of text[0..len) (at most max kept in f, *n counted)
 * and where "end" starts (*body): 0, or -1 when they do not parse. The
 * header is not looked at. */
static int parse(const char *text, size_t len, struct formula *f, size_t max, size_t *n,
                 size_t *body)
{
	const char *p = text + HEAD_LEN, *end = text + len;
	*n = 0;
	if (len < HEAD_LEN)
		return -1;
	while (!(end - p >= 4 && memcmp(p, "end ", 4) == 0)) {
		struct formula x = {0};
		size_t d;
		if (num(&p, end, ' ', &d) || d > 1 || num(&p, end, ' ', &x.age) ||
		    num(&p, end, ' ', &x.tex_len) || num(&p, end, '\n', &x.html_len))
			return -1;
		if ((size_t)(end - p) < x.tex_len ||
		    (size_t)(end - p) - x.tex_len < x.html_len + 1 ||
		    p[x.tex_len + x.html_len] != '\n')
			return -1;
		x.display = (int)d;
		x.tex = p;
		x.html = p + x.tex_len;
		x.first = 1;
		for (size_t i = 0; i < *n && i < max; i++)
			if (f[i].display == x.display && f[i].tex_len == x.tex_len &&
			    memcmp(f[i].tex, x.tex, x.tex_len) == 0)
				x.first = 0;
		if (*n < max)
			f[*n] = x;
		(*n)++;
		p += x.tex_len + x.html_len + 1;
	}
	*body = (size_t)(p - text);
	return 0;
}

/* whole: whether text[0..len) is a file the loader must take: its header
 * the key's, its formulas parsed, its end line the count and checksum. */
static int whole(const char *text, size_t len, uint64_t key, size_t n, size_t body)
{
	char head[64], tail[64];
	snprintf(head, sizeof head, MAGIC "%016llx\n", (unsigned long long)key);
	int tl = snprintf(tail, sizeof tail, "end %zu %016llx\n", n,
	                  (unsigned long long)hash_bytes(text, body));
	return memcmp(text, head, HEAD_LEN) == 0 && len - body == (size_t)tl &&
	       memcmp(text + body, tail, (size_t)tl) == 0;
}

/* refused: whether math_render refuses the MathML of a formula found in
 * the cache (the cache file is not trusted). */
static int refused(const struct formula *x)
{
	return x->tex_len > MATH_MAX_LEN ||
	       x->html_len > MATH_MAX_GROWTH * x->tex_len + MATH_GROWTH_SLACK ||
	       memchr(x->html, '\0', x->html_len) ||
	       utf8_valid_prefix(x->html, x->html_len) != x->html_len;
}

/* ask: each formula of f[0..n) kept (its age below keep) is given back by
 * c as the file holds it. */
static void ask(struct math_cache *c, const struct formula *f, size_t n, size_t keep)
{
	struct buf out, err;
	buf_init(&out);
	buf_init(&err);
	for (size_t i = 0; i < n; i++) {
		const struct formula *x = &f[i];
		if (!x->first || x->age >= keep)
			continue;
		buf_reset(&out);
		int pos;
		int rc = math_render(c, x->tex, x->tex_len, x->display, &out, &err, &pos);
		if (rc == 0 &&
		    (refused(x) || out.len != x->html_len || memcmp(out.p, x->html, out.len) != 0))
			abort();
		if (rc != 0 && !refused(x))
			abort();
	}
	buf_fini(&out);
	buf_fini(&err);
}

/* expect: what math_cache_save writes of f[0..n) just read (each formula
 * unused: a run older; those reaching MATH_CACHE_KEEP left out), inline
 * then display, in the order read. */
static void expect(uint64_t key, const struct formula *f, size_t n, struct buf *out)
{
	size_t kept = 0;
	buf_printf(out, MAGIC "%016llx\n", (unsigned long long)key);
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < n; i++) {
			const struct formula *x = &f[i];
			size_t age = (x->age > MATH_CACHE_KEEP ? MATH_CACHE_KEEP : x->age) + 1;
			if (!x->first || x->display != k || age >= MATH_CACHE_KEEP)
				continue;
			buf_printf(out, "%d %zu %zu %zu\n", x->display, age, x->tex_len,
			           x->html_len);
			buf_append(out, x->tex, x->tex_len);
			buf_append(out, x->html, x->html_len);
			buf_putc(out, '\n');
			kept++;
		}
	buf_printf(out, "end %zu %016llx\n", kept,
	           (unsigned long long)hash_bytes(out->p, out->len));
}

static void one(const char *text, size_t len)
{
	static struct formula f[MAX_SEEN], g[MAX_SEEN];
	struct math_cache *c = math_cache_open(NULL, 0);
	uint64_t key = math_cache_key(c);
	size_t n = 0, body = 0;
	int ok = parse(text, len, f, MAX_SEEN, &n, &body) == 0 && n <= MAX_SEEN &&
	         whole(text, len, key, n, body);
	size_t distinct = 0;
	for (size_t i = 0; ok && i < n; i++)
		distinct += f[i].first;
	math_cache_load(c, text, len);
	struct math_stats st;
	math_stats(c, &st);
	if (getenv("FUZZ_SHOW"))
		fprintf(stderr, "--- %zu bytes: %s, %zu formulas read\n", len,
		        ok ? "whole" : "not whole", st.disk_entries);
	if (st.disk_entries != (ok ? distinct : 0))
		abort(); /* taken whole or not at all */

	struct buf saved, want;
	buf_init(&saved);
	buf_init(&want);
	int wrote = math_cache_save(c, &saved);
	if (wrote != (distinct > 0))
		abort(); /* rewritten when it holds formulas, all unused */
	if (wrote) {
		expect(key, f, n, &want);
		if (saved.len != want.len || memcmp(saved.p, want.p, saved.len) != 0)
			abort();
	}
	if (ok)
		ask(c, f, n, (size_t)-1);
	math_cache_close(c);

	if (wrote) {
		/* what folio writes, it reads: the formulas not aged out */
		size_t m = 0, mbody = 0;
		if (parse(saved.p, saved.len, g, MAX_SEEN, &m, &mbody) != 0 ||
		    !whole(saved.p, saved.len, key, m, mbody))
			abort();
		c = math_cache_open(NULL, 0);
		math_cache_load(c, saved.p, saved.len);
		math_stats(c, &st);
		if (st.disk_entries != m)
			abort();
		ask(c, g, m, (size_t)-1);
		math_cache_close(c);
	}
	buf_fini(&saved);
	buf_fini(&want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of just the input, so that ASan sees a read past it */
	char *text = malloc(size ? size : 1);
	memcpy(text, data, size);
	one(text, size);
	free(text);

	/* the key made right (the header put in front if it is not there),
	 * and the end line made the formulas' when they parse */
	struct math_cache *c = math_cache_open(NULL, 0);
	struct buf fixed;
	buf_init(&fixed);
	buf_printf(&fixed, MAGIC "%016llx\n", (unsigned long long)math_cache_key(c));
	math_cache_close(c);
	int has_head = size >= HEAD_LEN && memcmp(data, MAGIC, MAGIC_LEN) == 0;
	buf_append(&fixed, data + (has_head ? HEAD_LEN : 0), size - (has_head ? HEAD_LEN : 0));
	static struct formula f[MAX_SEEN];
	size_t n, body;
	if (parse(fixed.p, fixed.len, f, MAX_SEEN, &n, &body) == 0) {
		fixed.len = body;
		buf_printf(&fixed, "end %zu %016llx\n", n,
		           (unsigned long long)hash_bytes(fixed.p, body));
	}
	text = malloc(fixed.len);
	memcpy(text, fixed.p, fixed.len);
	one(text, fixed.len);
	free(text);
	buf_fini(&fixed);
	return 0;
}

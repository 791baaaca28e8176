/* include.c: code from a file of the site in a fenced code block (file=,
 * lines=, symbol=, link; folio-site(5), "Code from a file"): the file
 * looked up (the post's bundle folder, or the site folder), refused when
 * it leads outside the site, read through files/reader.h (bounded, text
 * only), cut to a range of lines or to a definition (symbol.h), and noted
 * as an input of the document (md_doc.deps). */
#include "internal.h"

#include "files/reader.h"
#include "files/sitefile.h"
#include "md/codeblock.h"
#include "md/highlight.h"
#include "md/symbol.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void report(struct md_ctx *c, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void report(struct md_ctx *c, int line, int col, const char *fmt, ...)
{
	struct diag_loc loc = diag_src_at(&c->in, line, col);
	if (line <= 0)
		loc.line = 0;
	if (c->d) {
		va_list ap;
		va_start(ap, fmt);
		diag_vreport(c->d, DIAG_ERROR, &loc, NULL, 0, fmt, ap);
		va_end(ap);
	}
	c->errors++;
}

/* The file of a block being included: as written, as opened, and the
 * folder it was looked up in (site-relative, for messages). */
struct inc {
	struct str file;
	int up;            /* its '..'s climb out of the site folder */
	char *path;        /* malloc'd */
	const char *where; /* "the post's folder content/posts/x" or "the site folder" */
	char *where_buf;   /* malloc'd, or NULL */
};

/* climbs: whether file, a path below the folder depth names under the
 * site folder, climbs out of it by its '..'s (whether or not it exists:
 * "../../../etc/passwd" is refused as outside, not as missing). */
static int climbs(int depth, struct str file)
{
	for (size_t i = 0; i < file.len;) {
		const char *slash = memchr(file.p + i, '/', file.len - i);
		size_t e = slash ? (size_t)(slash - file.p) : file.len, n = e - i;
		if (n == 2 && file.p[i] == '.' && file.p[i + 1] == '.') {
			if (--depth < 0)
				return 1;
		} else if (n && !(n == 1 && file.p[i] == '.')) {
			depth++;
		}
		i = e + 1;
	}
	return 0;
}

/* place: where the block's file is: path and where set; 0, or -1 when the
 * document has no site folder to look in (a test's md_render). */
static int place(struct md_ctx *c, struct inc *f)
{
	const char *site = md_site_real(c);
	if (!site)
		return -1;
	int abs = f->file.p[0] == '/';
	const char *base = !abs && c->o->asset_dir ? c->o->asset_dir : site;
	struct str rel = abs ? (struct str){f->file.p + 1, f->file.len - 1} : f->file;
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%s/%.*s", base, STR_FMT(rel));
	f->path = buf_detach(&b, NULL);
	f->where = "the site folder";
	int depth = 0;
	if (base != site) {
		const char *sd = c->o->static_dir; /* SITE/static: the bundle is SITE/content/... */
		size_t n = strlen(sd) - 6;
		const char *shown = strncmp(base, sd, n) ? base : base + n;
		for (const char *p = shown; *p; p++)
			depth += *p == '/' && p[1] && p[1] != '/';
		depth++;
		buf_init(&b);
		buf_printf(&b, "the post's folder %s", shown);
		f->where = f->where_buf = buf_detach(&b, NULL);
	}
	f->up = climbs(depth, rel);
	return 0;
}

/* missing: the error for a file that is not there, with the name in its
 * folder closest to it. */
static void missing(struct md_ctx *c, const struct inc *f, int line, int col)
{
	const char *slash = strrchr(f->path, '/');
	char *dir = xstrndup(f->path, (size_t)(slash - f->path));
	const char *name = slash + 1;
	size_t n;
	char **names = site_list(dir, &n);
	struct diag_guess g;
	diag_guess_init(&g, name, strlen(name));
	for (size_t i = 0; i < n; i++)
		diag_guess_try(&g, names[i], strlen(names[i]));
	size_t glen = 0;
	const char *guess = diag_guess_best(&g, &glen);
	const char *fslash = memrchr(f->file.p, '/', f->file.len);
	size_t keep = fslash ? (size_t)(fslash - f->file.p) + 1 : 0;
	if (guess)
		report(c, line, col, "code block: file '%.*s' not found (did you mean '%.*s%.*s'?)", STR_FMT(f->file),
		       (int)keep, f->file.p, (int)glen, guess);
	else
		report(c, line, col,
		       "code block: file '%.*s' not found in %s (hint: a path is looked up in the post's bundle "
		       "folder, or the site folder for a document that is no bundle; /path always in the site folder)",
		       STR_FMT(f->file), f->where);
	site_list_free(names, n);
	free(dir);
}

/* readable: the file's text (the arena's), or NULL after an error:
 * outside the site, missing, too big, not a file, binary. */
static char *readable(struct md_ctx *c, const struct inc *f, int line, int col, size_t *len, uint64_t *hash)
{
	char to[PATH_MAX];
	enum site_where w = f->up ? SITE_OUTSIDE : site_where(md_site_real(c), f->path, to, sizeof to);
	const char *why = w == SITE_OUTSIDE ? "is outside the site (hint: folio includes only files inside the site "
					      "folder: copy it into the site)"
			  : w == SITE_LOOP || w == SITE_DANGLING
			      ? "is a symlink that leads to no file (hint: restore what it points to, or remove the link)"
			      : NULL;
	if (why) { /* where a link leads is not said: it may be a file of the machine's */
		report(c, line, col, "code block: file '%.*s' %s", STR_FMT(f->file), why);
		return NULL;
	}
	if (w == SITE_MISSING && access(f->path, F_OK) != 0 && (errno == ENOENT || errno == ENOTDIR)) {
		missing(c, f, line, col);
		return NULL;
	}
	struct site_file sf = {f->path, f->path, MD_INCLUDE_MAX, NULL, SITE_READ_CHECKED};
	char *text = site_read(NULL, NULL, &sf, c->a, len, hash);
	if (!text) {
		if (errno == EFBIG)
			report(c, line, col,
			       "code block: file '%.*s' is larger than %zu KiB, the limit for code from a file (hint: "
			       "include a smaller file, or split this one)",
			       STR_FMT(f->file), MD_INCLUDE_MAX >> 10);
		else
			report(c, line, col, "code block: cannot read file '%.*s': %s", STR_FMT(f->file),
			       file_strerror(errno));
		return NULL;
	}
	if (memchr(text, 0, *len)) {
		report(c, line, col,
		       "code block: file '%.*s' is binary (it holds NUL bytes) (hint: only text files can be "
		       "included)",
		       STR_FMT(f->file));
		return NULL;
	}
	return text;
}

/* line_at: the offset in text[0..len) where line k (1-based) starts, len
 * past the last one. */
static size_t line_at(const char *text, size_t len, size_t k)
{
	size_t at = 0;
	for (size_t i = 1; i < k && at < len; i++) {
		const char *nl = memchr(text + at, '\n', len - at);
		at = nl ? (size_t)(nl - text) + 1 : len;
	}
	return at;
}

static size_t count_lines(const char *text, size_t len)
{
	size_t n = 0;
	for (const char *p = text, *e = text + len; (p = memchr(p, '\n', (size_t)(e - p))); p++)
		n++;
	return n + (len && text[len - 1] != '\n');
}

/* dedent: text[0..len) without the indentation all its lines with text
 * share (a method shown out of its class), into the arena. */
static struct str dedent(struct arena *a, const char *text, size_t len)
{
	size_t common = (size_t)-1;
	const char *first = NULL; /* a line with text: its indentation is the one compared */
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len, k = 0;
		while (at + k < end && (text[at + k] == ' ' || text[at + k] == '\t'))
			k++;
		if (at + k < end && text[at + k] != '\r') {
			if (!first) {
				first = text + at;
				common = k;
			}
			size_t m = 0;
			while (m < common && m < k && text[at + m] == first[m])
				m++;
			common = m;
		}
		at = end + 1;
	}
	if (!common || common == (size_t)-1)
		return (struct str){text, len};
	struct buf b;
	buf_init(&b);
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) + 1 : len, skip = 0;
		while (skip < common && at + skip < end && (text[at + skip] == ' ' || text[at + skip] == '\t'))
			skip++;
		buf_append(&b, text + at + skip, end - at - skip);
		at = end;
	}
	struct str r = {arena_strndup(a, b.p ? b.p : "", b.len), b.len};
	buf_fini(&b);
	return r;
}

/* range_text: "10-42", "10" or "10-" of o's lines, into b. */
static void range_text(struct buf *b, const struct code_opts *o)
{
	if (o->lines_hi == o->lines_lo)
		buf_printf(b, "%zu", o->lines_lo);
	else if (o->lines_hi == CODE_LINES_END)
		buf_printf(b, "%zu-", o->lines_lo);
	else
		buf_printf(b, "%zu-%zu", o->lines_lo, o->lines_hi);
}

/* pick: the lines of text the block shows (o's lines= or symbol=, else
 * all) in *lo, *hi; 0, or -1 after an error. */
static int pick(struct md_ctx *c, const struct inc *f, struct code_opts *o, const char *text, size_t len,
		int line, int col, size_t *lo, size_t *hi)
{
	size_t n = count_lines(text, len);
	*lo = 1;
	*hi = n;
	if (o->lines_lo) {
		size_t want = o->lines_hi == CODE_LINES_END ? o->lines_lo : o->lines_hi;
		if (want > n) {
			struct buf r;
			buf_init(&r);
			range_text(&r, o);
			report(c, line, col, "code block: file '%.*s': lines %s: the file has %zu line%s", STR_FMT(f->file),
			       r.p, n, n == 1 ? "" : "s");
			buf_fini(&r);
			return -1;
		}
		*lo = o->lines_lo;
		*hi = o->lines_hi == CODE_LINES_END ? n : o->lines_hi;
		return 0;
	}
	if (!o->symbol.len)
		return 0;
	const char *lang = o->lang.len ? hl_lookup(o->lang.p, o->lang.len) : NULL;
	if (!lang || !symbol_lang(lang)) {
		if (o->lang.len)
			report(c, line, col,
			       "code block: symbol= in a '%.*s' file: folio finds symbols in " SYMBOL_LANGS
			       " only (hint: use lines= to pick the lines)",
			       STR_FMT(o->lang));
		else
			report(c, line, col,
			       "code block: symbol= needs the file's language (hint: name it after the fence, as "
			       "```cuda {file=...}, or give the file an extension such as .cu)");
		return -1;
	}
	struct symbol_span sp;
	struct buf near;
	buf_init(&near);
	int guess;
	int rc = symbol_find(lang, text, len, o->symbol.p, o->symbol.len, &sp, &near, &guess);
	if (rc < 0)
		report(c, line, col, "code block: file '%.*s' could not be parsed in time to find '%.*s'",
		       STR_FMT(f->file), STR_FMT(o->symbol));
	else if (rc == 0 && guess)
		report(c, line, col, "code block: no symbol '%.*s' in '%.*s' (did you mean '%s'?)", STR_FMT(o->symbol),
		       STR_FMT(f->file), near.p);
	else if (rc == 0 && near.len)
		report(c, line, col, "code block: no symbol '%.*s' in '%.*s' (hint: it defines %s, ...)",
		       STR_FMT(o->symbol), STR_FMT(f->file), near.p);
	else if (rc == 0)
		report(c, line, col, "code block: no symbol '%.*s' in '%.*s' (hint: folio found no definitions in it)",
		       STR_FMT(o->symbol), STR_FMT(f->file));
	buf_fini(&near);
	if (rc <= 0)
		return -1;
	*lo = sp.lo;
	*hi = sp.hi;
	return 0;
}

/* lang_of: the language of the file's name, when the fence names none
 * (its extension, as an info string's word: .cu is cuda). */
static void lang_of(struct code_opts *o)
{
	if (o->lang.len)
		return;
	const char *slash = memrchr(o->file.p, '/', o->file.len);
	const char *name = slash ? slash + 1 : o->file.p;
	const char *dot = memrchr(name, '.', (size_t)(o->file.p + o->file.len - name));
	const char *lang = dot ? hl_lookup(dot + 1, (size_t)(o->file.p + o->file.len - dot - 1)) : NULL;
	if (lang)
		o->lang = str_from(lang);
}

/* published: the address of the file at path as the site publishes it
 * (static/x at /x; a file of the post's bundle beside the post, by a
 * relative address), in the arena; any other file of the site is
 * published at its place in the site (code/gemm.cu at /code/gemm.cu: the
 * build copies it, *copy set). NULL when it has no real path. */
/* url_of: rel (a path below the folder the URL is relative to, or after
 * its "/"), percent-encoded but for letters, digits, "-._~/", into the
 * arena: a file named "a b#1.c" is linked as a%20b%231.c. */
static const char *url_of(struct md_ctx *c, const char *rel)
{
	struct buf b;
	buf_init(&b);
	for (const unsigned char *p = (const unsigned char *)rel; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			buf_putc(&b, *p);
		else
			buf_printf(&b, "%%%02X", *p);
	}
	const char *u = arena_strndup(c->a, b.p ? b.p : "", b.len);
	buf_fini(&b);
	return u;
}

static const char *published(struct md_ctx *c, const char *path, int *copy)
{
	char real[PATH_MAX], dir[PATH_MAX];
	if (!realpath(path, real))
		return NULL;
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%s/static", md_site_real(c));
	size_t n = b.len;
	const char *url = NULL;
	if (!strncmp(real, b.p, n) && real[n] == '/')
		url = url_of(c, real + n);
	else if (c->o->asset_dir && realpath(c->o->asset_dir, dir) && !strncmp(real, dir, strlen(dir)) &&
		 real[strlen(dir)] == '/')
		url = url_of(c, real + strlen(dir) + 1);
	else if ((*copy = !strncmp(real, b.p, n - 7) && real[n - 7] == '/'))
		url = url_of(c, real + n - 7);
	buf_fini(&b);
	return url;
}

int md_include(struct md_ctx *c, struct code_opts *o, int line, int col, struct str *code, const char **url)
{
	*url = NULL;
	struct inc f = {o->file, 0, NULL, NULL, NULL};
	if (place(c, &f) < 0) {
		report(c, line, col, "code block: file= needs the site's folder, which this document has none of");
		return -1;
	}
	size_t len, lo, hi;
	uint64_t hash;
	char *text = readable(c, &f, line, col, &len, &hash);
	lang_of(o);
	int rc = -1;
	if (text && pick(c, &f, o, text, len, line, col, &lo, &hi) == 0) {
		size_t from = line_at(text, len, lo), to = line_at(text + from, len - from, hi - lo + 2) + from;
		*code = dedent(c->a, text + from, to - from);
		c->inc_code = xrealloc(c->inc_code, (c->ninc_code + 1) * sizeof *c->inc_code);
		c->inc_code[c->ninc_code++] = *code;
		if (!o->start_set && (o->lines_lo || o->symbol.len))
			o->start = (int)lo;
		if (!o->title.len)
			o->title = o->file;
		rc = 0;
	}
	int copy = 0;
	if (rc == 0 && o->link && !(*url = published(c, f.path, &copy))) {
		report(c, line, col, "code block: link: cannot find where file '%.*s' is", STR_FMT(o->file));
		rc = -1;
	}
	/* an input of the document, even when it failed (it is then not
	 * kept by the cache anyway) */
	if (text) {
		if (!c->deps)
			c->deps = xcalloc(1, sizeof *c->deps);
		buf_printf(c->deps, "%016llx%c%s\n", (unsigned long long)hash, copy ? '+' : ' ', f.path);
	}
	free(f.path);
	free(f.where_buf);
	return rc;
}

void md_includes_free(struct md_ctx *c)
{
	free(c->inc_code);
	c->inc_code = NULL;
	c->ninc_code = 0;
	if (!c->deps)
		return;
	c->out->deps = (struct str){arena_strndup(c->a, c->deps->p, c->deps->len), c->deps->len};
	buf_fini(c->deps);
	free(c->deps);
	c->deps = NULL;
}

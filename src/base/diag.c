/* diag.c: formatting, de-duplication and counting of diagnostics. */
#include "base/diag.h"

#include "base/arena.h"
#include "base/hash.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <utf8proc.h>

#define DIAG_STR_(x) #x
#define DIAG_STR(x) DIAG_STR_(x)

/* The line this thread's last excerpt found: messages about one file
 * mostly come in the order of its lines, and the walk to the next goes on
 * from there rather than from the top (2,000 warnings at the end of
 * 300,000 lines were quadratic). A file's text stays put while one
 * collector lives; each diag_init and diag_fini starts a new generation,
 * so that a later build's text at the same address is not taken for it. */
struct line_at {
	unsigned gen;
	const char *src;
	size_t len;
	int line;
	const char *p;
};
static _Thread_local struct line_at last_line;
static atomic_uint generation = 1;

void diag_init(struct diag *d, FILE *out)
{
	atomic_fetch_add(&generation, 1);
	memset(d, 0, sizeof *d);
	d->out = out;
	const char *nc = getenv("NO_COLOR");
	d->color = out && isatty(fileno(out)) && !(nc && *nc);
	pthread_mutex_init(&d->lock, NULL);
}

/* file_errors: the count of errors of path, made if need be (the map's
 * keys are copies, freed by diag_fini). Called with d->lock held. */
static uint64_t *file_errors(struct diag *d, const char *path)
{
	size_t n = strlen(path);
	int added;
	struct map_entry *e = map_put(&d->files, path, n, &added);
	if (added)
		e->key = xstrndup(path, n);
	return &e->val.u;
}

struct diag_pending {
	char *path;
	int line, col;
	size_t seq;
	char *plain, *colored;
};

void diag_line_col(const char *text, size_t off, size_t *line, size_t *line_start)
{
	size_t l = 0, ls = 0;
	for (size_t i = 0; i < off; i++)
		if (text[i] == '\n') {
			l++;
			ls = i + 1;
		}
	*line = l;
	*line_start = ls;
}

void diag_fini(struct diag *d)
{
	atomic_fetch_add(&generation, 1);
	diag_flush(d);
	free(d->pending);
	for (size_t i = 0; i < d->files.n; i++)
		free((char *)d->files.e[i].key);
	map_fini(&d->files);
	for (size_t i = 0; i < d->seen.n; i++)
		free((char *)d->seen.e[i].key);
	map_fini(&d->seen);
	pthread_mutex_destroy(&d->lock);
}

/* seen_insert: 1 if msg is new (and remembers it), 0 if already printed. */
static int seen_insert(struct diag *d, const char *msg, size_t n)
{
	int added;
	struct map_entry *e = map_put(&d->seen, msg, n, &added);
	if (added)
		e->key = xstrndup(msg, n); /* the message goes; its copy stays */
	return added;
}

/* find_line: the text of loc's line, without its end of line (or 0 if the
 * source is unknown or has no such line). */
static int find_line(const struct diag_loc *loc, const char **lp, size_t *ln)
{
	if (!loc || !loc->src || loc->line <= 0)
		return 0;
	const char *p = loc->src, *end = loc->src + loc->src_len;
	int l = 1;
	struct line_at *at = &last_line;
	unsigned g = atomic_load(&generation);
	if (at->gen == g && at->src == loc->src && at->len == loc->src_len && at->line <= loc->line) {
		p = at->p;
		l = at->line;
	}
	for (; l < loc->line && p < end; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return 0;
		p = nl + 1;
	}
	if (l < loc->line)
		return 0;
	*at = (struct line_at){g, loc->src, loc->src_len, l, p};
	const char *eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol)
		eol = end;
	size_t n = (size_t)(eol - p);
	if (n && p[n - 1] == '\r')
		n--;
	*lp = p;
	*ln = n;
	return 1;
}

/* chars: how many characters (UTF-8 code points: every byte but a
 * continuation byte starts one) the n bytes at p hold. */
static size_t chars(const char *p, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)p[i] & 0xC0) != 0x80;
	return c;
}

/* char_col: loc's column (bytes, 1-based) in characters of its line, as an
 * editor counts; a column past the end of the line counts the bytes past
 * it as characters. Without the source text, the byte column. */
static int char_col(const struct diag_loc *loc)
{
	const char *p;
	size_t n;
	if (!loc || loc->col <= 0 || !find_line(loc, &p, &n))
		return loc ? loc->col : 0;
	size_t b = (size_t)loc->col - 1;
	size_t c = b <= n ? chars(p, b) : chars(p, n) + (b - n);
	return c + 1 > (size_t)loc->col ? loc->col : (int)c + 1;
}

static void format_loc(struct buf *b, const struct diag_loc *loc, int col)
{
	buf_puts(b, loc && loc->path ? loc->path : "folio");
	if (loc && loc->line > 0) {
		buf_printf(b, ":%d", loc->line);
		if (col > 0)
			buf_printf(b, ":%d", col);
	}
}

void diag_format_loc(struct buf *b, const struct diag_loc *loc)
{
	format_loc(b, loc, char_col(loc));
}

/* A line longer than EXCERPT_LONG characters is shown as EXCERPT_WIDTH of
 * them around the column (a paragraph is often one line of thousands, a
 * minified file one line of millions), with "…" where it was cut:
 * EXCERPT_BEFORE of them before the column, unless the line ends sooner. */
#define EXCERPT_LONG 400
#define EXCERPT_WIDTH 100
#define EXCERPT_BEFORE 60

/* skip_chars: the byte offset k characters on from byte i of p[0..n). */
static size_t skip_chars(const char *p, size_t n, size_t i, size_t k)
{
	while (i < n && k) {
		i++;
		while (i < n && ((unsigned char)p[i] & 0xC0) == 0x80)
			i++;
		k--;
	}
	return i;
}

/* excerpt: the source line of loc and a caret under its column. Tabs are
 * kept in the caret line so the caret lines up whatever the tab width;
 * every other character takes the columns a terminal gives it (utf8proc's
 * width: 2 for CJK, 0 for a combining mark). */
static void excerpt(struct buf *b, const struct diag_loc *loc, int color)
{
	const char *p;
	size_t n;
	if (!find_line(loc, &p, &n))
		return;
	size_t col = loc->col > 0 ? (size_t)loc->col - 1 : 0; /* bytes */
	if (col > n)
		col = n;
	size_t from = 0, to = n, nchars = chars(p, n);
	if (nchars > EXCERPT_LONG) {
		size_t before = chars(p, col);
		size_t first = before > EXCERPT_BEFORE ? before - EXCERPT_BEFORE : 0;
		if (first + EXCERPT_WIDTH > nchars)
			first = nchars - EXCERPT_WIDTH;
		from = skip_chars(p, n, 0, first);
		to = skip_chars(p, n, from, EXCERPT_WIDTH);
	}
	const char *pre = from > 0 ? "\xE2\x80\xA6" : "", *post = to < n ? "\xE2\x80\xA6" : "";
	char num[16];
	int w = snprintf(num, sizeof num, "%d", loc->line);
	buf_printf(b, " %s | %s%.*s%s\n", num, pre, (int)(to - from), p + from, post);
	if (loc->col <= 0)
		return;
	buf_printf(b, " %*s | %s", w, "", *pre ? " " : "");
	for (size_t i = from; i < col && i < to;) {
		unsigned char c = (unsigned char)p[i];
		if (c == '\t') {
			buf_putc(b, '\t');
			i++;
			continue;
		}
		/* as many columns as a terminal gives the character: two for
		 * CJK and most emoji, none for a combining mark */
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)p + i, (utf8proc_ssize_t)(to - i), &cp);
		int cw = 1;
		if (k < 1)
			k = 1;
		else
			cw = utf8proc_charwidth(cp);
		for (; cw > 0; cw--)
			buf_putc(b, ' ');
		i += (size_t)k;
	}
	buf_puts(b, color ? "\033[1;32m^\033[0m\n" : "^\n");
}

static const char *level_name(enum diag_level level)
{
	switch (level) {
	case DIAG_ERROR: return "error";
	case DIAG_WARNING: return "warning";
	default: return "note";
	}
}

static const char *level_color(enum diag_level level)
{
	switch (level) {
	case DIAG_ERROR: return "\033[1;31m";
	case DIAG_WARNING: return "\033[1;35m";
	default: return "\033[1;36m";
	}
}

static void format_one(struct buf *b, enum diag_level level, const struct diag_loc *loc,
		       const char *msg, int color)
{
	if (color)
		buf_puts(b, "\033[1m");
	diag_format_loc(b, loc);
	buf_puts(b, ": ");
	if (color)
		buf_puts(b, level_color(level));
	buf_printf(b, "%s:", level_name(level));
	if (color)
		buf_puts(b, "\033[0m\033[1m");
	buf_printf(b, " %s", msg);
	if (color)
		buf_puts(b, "\033[0m");
	buf_putc(b, '\n');
	excerpt(b, loc, color);
}

static _Thread_local unsigned long thread_reports;

unsigned long diag_thread_reports(void)
{
	return thread_reports;
}

/* emit: prints or holds one new message (formatted as plain, with msg and
 * notes for the coloured form). Called with d->lock held. */
static void emit(struct diag *d, enum diag_level level, const struct diag_loc *loc,
		 const struct diag_note *notes, size_t nnotes, const char *msg, const struct buf *plain)
{
	struct buf colored;
	buf_init(&colored);
	if (d->color && msg) {
		format_one(&colored, level, loc, msg, 1);
		for (size_t i = 0; i < nnotes; i++)
			format_one(&colored, DIAG_NOTE, &notes[i].loc, notes[i].msg, 1);
	}
	if (d->defer) {
		if (d->npending == d->cap_pending) {
			d->cap_pending = d->cap_pending ? d->cap_pending * 2 : 32;
			d->pending = xrealloc(d->pending, d->cap_pending * sizeof *d->pending);
		}
		struct diag_pending *p = &d->pending[d->npending];
		const char *path = loc && loc->path ? loc->path : "";
		p->path = xstrndup(path, strlen(path));
		p->line = loc ? loc->line : 0;
		p->col = loc ? loc->col : 0;
		p->seq = d->npending++;
		p->plain = xstrndup(plain->p, plain->len);
		p->colored = d->color && msg ? xstrndup(colored.p, colored.len) : NULL;
	} else {
		if (d->capture)
			buf_append(d->capture, plain->p, plain->len);
		if (d->out) {
			if (d->color && msg)
				fwrite(colored.p, 1, colored.len, d->out);
			else
				fwrite(plain->p, 1, plain->len, d->out);
			fflush(d->out);
		}
	}
	buf_fini(&colored);
}

/* short_key: an error's place and text, without the excerpt that would
 * cost a scan of the file, apart from the printed messages (\001). */
static void short_key(struct buf *key, const struct diag_loc *loc, const char *msg)
{
	buf_putc(key, '\001');
	format_loc(key, loc, loc ? loc->col : 0); /* bytes: no scan of the line */
	buf_printf(key, ": %s", msg);
}

/* past_limit: 1 if loc's file has had DIAG_MAX_FILE_ERRORS errors already:
 * then this one is only counted (once, as any message: by its short key,
 * which the printed ones have too), and the first one past the limit
 * prints a note instead. Called with d->lock held. */
static int past_limit(struct diag *d, enum diag_level level, const struct diag_loc *loc, const char *msg)
{
	if (level != DIAG_ERROR || !loc || !loc->path)
		return 0;
	uint64_t *errors = file_errors(d, loc->path);
	if (*errors < DIAG_MAX_FILE_ERRORS)
		return 0;
	struct buf key;
	buf_init(&key);
	short_key(&key, loc, msg);
	if (seen_insert(d, key.p, key.len)) {
		d->errors++;
		if ((*errors)++ == DIAG_MAX_FILE_ERRORS) {
			struct diag_loc at = *loc;
			at.src = NULL; /* no excerpt */
			const char *note = "more than " DIAG_STR(DIAG_MAX_FILE_ERRORS)
					   " errors in this file: the others are not shown (fix these first)";
			struct buf plain;
			buf_init(&plain);
			format_one(&plain, DIAG_NOTE, &at, note, 0);
			emit(d, DIAG_NOTE, &at, NULL, 0, note, &plain);
			buf_fini(&plain);
		}
	}
	buf_fini(&key);
	return 1;
}

void diag_set_texts(struct diag *d, const char *(*fn)(void *ctx, struct diag *d, const char *path, size_t *len),
		    void *ctx)
{
	d->texts = fn;
	d->texts_ctx = ctx;
}

void diag_relay(struct diag *d, struct diag *to, void (*map)(void *ctx, struct diag_loc *loc, struct buf *prefix),
		void *ctx)
{
	d->relay_to = to;
	d->relay_map = map;
	d->relay_ctx = ctx;
}

/* relay: the message handed on by a relay, its places mapped. */
static void relay(struct diag *d, enum diag_level level, const struct diag_loc *loc, const struct diag_note *notes,
		  size_t nnotes, const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));
static void relay(struct diag *d, enum diag_level level, const struct diag_loc *loc, const struct diag_note *notes,
		  size_t nnotes, const char *fmt, va_list ap)
{
	struct buf msg, prefix, scratch;
	buf_init(&msg);
	buf_init(&prefix);
	buf_init(&scratch);
	buf_vprintf(&msg, fmt, ap);
	struct diag_loc at = loc ? *loc : (struct diag_loc){0};
	if (loc)
		d->relay_map(d->relay_ctx, &at, &prefix);
	struct diag_note *moved = nnotes ? xmalloc(nnotes * sizeof *moved) : NULL;
	for (size_t i = 0; i < nnotes; i++) {
		moved[i] = notes[i];
		d->relay_map(d->relay_ctx, &moved[i].loc, &scratch);
	}
	diag_report(d->relay_to, level, loc ? &at : NULL, moved, nnotes, "%s%s", prefix.p ? prefix.p : "", msg.p);
	free(moved);
	buf_fini(&msg);
	buf_fini(&prefix);
	buf_fini(&scratch);
}

/* text_of: loc, or *out: loc with the text of its file (diag_set_texts)
 * when it has a line but no text and the file's text can be had. */
static const struct diag_loc *text_of(struct diag *d, const struct diag_loc *loc, struct diag_loc *out)
{
	if (!loc || !loc->path || loc->src || loc->line <= 0 || !d->texts)
		return loc;
	size_t len = 0;
	const char *text = d->texts(d->texts_ctx, d, loc->path, &len);
	if (!text)
		return loc;
	*out = *loc;
	out->src = text;
	out->src_len = len;
	return out;
}

void diag_vreport(struct diag *d, enum diag_level level, const struct diag_loc *loc,
		  const struct diag_note *notes, size_t nnotes, const char *fmt, va_list ap)
{
	if (d && d->relay_to) {
		relay(d, level, loc, notes, nnotes, fmt, ap);
		return;
	}
	struct diag_loc with_text;
	loc = text_of(d, loc, &with_text);
	/* a note's place too (the post that has a slug first) */
	struct diag_note *filled = NULL;
	for (size_t i = 0; i < nnotes; i++) {
		struct diag_loc at;
		const struct diag_loc *l = text_of(d, &notes[i].loc, &at);
		if (l == &notes[i].loc)
			continue;
		if (!filled) {
			filled = xmalloc(nnotes * sizeof *filled);
			memcpy(filled, notes, nnotes * sizeof *filled);
		}
		filled[i].loc = at;
	}
	if (filled)
		notes = filled;
	thread_reports++;
	struct buf msg, plain;
	buf_init(&msg);
	buf_init(&plain);
	buf_vprintf(&msg, fmt, ap);

	pthread_mutex_lock(&d->lock);
	if (past_limit(d, level, loc, msg.p)) {
		pthread_mutex_unlock(&d->lock);
		buf_fini(&msg);
		free(filled);
		return;
	}
	pthread_mutex_unlock(&d->lock);

	/* formatted without the lock: an excerpt scans the file */
	format_one(&plain, level, loc, msg.p, 0);
	for (size_t i = 0; i < nnotes; i++)
		format_one(&plain, DIAG_NOTE, &notes[i].loc, notes[i].msg, 0);

	pthread_mutex_lock(&d->lock);
	if (seen_insert(d, plain.p, plain.len)) {
		if (level == DIAG_ERROR) {
			d->errors++;
			if (loc && loc->path) {
				(*file_errors(d, loc->path))++;
				struct buf key; /* for the same error again, past the limit */
				buf_init(&key);
				short_key(&key, loc, msg.p);
				seen_insert(d, key.p, key.len);
				buf_fini(&key);
			}
		} else if (level == DIAG_WARNING) {
			d->warnings++;
		}
		emit(d, level, loc, notes, nnotes, msg.p, &plain);
	}
	pthread_mutex_unlock(&d->lock);
	buf_fini(&msg);
	buf_fini(&plain);
	free(filled);
}

static int cmp_pending(const void *x, const void *y)
{
	const struct diag_pending *a = x, *b = y;
	int c = strcmp(a->path, b->path);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void diag_flush(struct diag *d)
{
	pthread_mutex_lock(&d->lock);
	if (d->npending) /* qsort's pointer must not be NULL, even for no items */
		qsort(d->pending, d->npending, sizeof *d->pending, cmp_pending);
	for (size_t i = 0; i < d->npending; i++) {
		struct diag_pending *p = &d->pending[i];
		if (d->capture)
			buf_puts(d->capture, p->plain);
		if (d->out)
			fputs(p->colored ? p->colored : p->plain, d->out);
		free(p->path);
		free(p->plain);
		free(p->colored);
	}
	if (d->out)
		fflush(d->out);
	d->npending = 0;
	pthread_mutex_unlock(&d->lock);
}

size_t diag_pending_count(struct diag *d)
{
	pthread_mutex_lock(&d->lock);
	size_t n = d->npending;
	pthread_mutex_unlock(&d->lock);
	return n;
}

int diag_pending_plain(struct diag *d, size_t from, struct buf *out)
{
	pthread_mutex_lock(&d->lock);
	int rc = -1;
	if (from < d->npending) {
		/* in the order diag_flush prints them (it sorts them all again:
		 * the same order) */
		qsort(d->pending + from, d->npending - from, sizeof *d->pending, cmp_pending);
		for (size_t i = from; i < d->npending; i++)
			buf_puts(out, d->pending[i].plain);
		rc = 0;
	}
	pthread_mutex_unlock(&d->lock);
	return rc;
}

void diag_replay(struct diag *d, const char *text, size_t len, unsigned warnings)
{
	struct buf plain = {(char *)text, len, len};
	pthread_mutex_lock(&d->lock);
	d->warnings += (int)warnings;
	emit(d, DIAG_WARNING, NULL, NULL, 0, NULL, &plain);
	pthread_mutex_unlock(&d->lock);
}

void diag_report(struct diag *d, enum diag_level level, const struct diag_loc *loc,
		 const struct diag_note *notes, size_t nnotes, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(d, level, loc, notes, nnotes, fmt, ap);
	va_end(ap);
}

void diag_error(struct diag *d, const struct diag_loc *loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(d, DIAG_ERROR, loc, NULL, 0, fmt, ap);
	va_end(ap);
}

int diag_too_big(struct diag *d, const char *path, const char *text, size_t len, size_t max, const char *hint)
{
	if (len <= max)
		return 0;
	int line = 1, col = 1;
	for (const char *p = text, *end = text + max; (p = memchr(p, '\n', (size_t)(end - p))); p++)
		line++;
	const char *nl = max ? memrchr(text, '\n', max) : NULL;
	size_t bol = nl ? (size_t)(nl - text) + 1 : 0;
	col = (int)chars(text + bol, max - bol) + 1; /* characters, as every printed column */
	if (col < 1) /* a line longer than INT_MAX characters cannot be, at 16 MiB */
		col = 1;
	struct diag_loc loc = {path, NULL, 0, line, col};
	char size[32];
	if (max && max % ((size_t)1 << 20) == 0)
		snprintf(size, sizeof size, "%zu MiB", max >> 20);
	else
		snprintf(size, sizeof size, "%zu bytes", max);
	diag_error(d, &loc, "file larger than %s: folio reads at most %zu bytes of a post, page, template or YAML file (hint: %s)",
		   size, max, hint);
	return 1;
}

void diag_warning(struct diag *d, const struct diag_loc *loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(d, DIAG_WARNING, loc, NULL, 0, fmt, ap);
	va_end(ap);
}

/* edit_distance: Levenshtein's distance of a and b, or some number above
 * max as soon as every cell of a row is above max (the rows' minimum never
 * falls). Strings over 64 bytes are (size_t)-1 away from anything. */
static size_t edit_distance(const char *a, size_t na, const char *b, size_t nb, size_t max)
{
	size_t row[65];
	if (nb > 64 || na > 64)
		return (size_t)-1;
	for (size_t j = 0; j <= nb; j++)
		row[j] = j;
	for (size_t i = 1; i <= na; i++) {
		size_t diag = row[0];
		row[0] = i;
		size_t low = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t up = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = diag + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			if (best < low)
				low = best;
			diag = up;
		}
		if (low > max)
			return low;
	}
	return row[nb];
}

/* guess_limit: the most edits that still make a likely typo of a word of
 * len bytes: a third of it, at least two ("titel" -> "title" is 2, "tag"
 * -> "tags" 1); a name of one or two letters is too short for a guess to
 * mean anything ("x" -> "y"). */
static size_t guess_limit(size_t len)
{
	return len < 3 ? 0 : len / 3 > 2 ? len / 3 : 2;
}

void diag_guess_init(struct diag_guess *g, const char *word, size_t len)
{
	g->word = word;
	g->len = len;
	g->best = NULL;
	g->best_len = 0;
	g->best_d = (size_t)-1;
}

void diag_guess_try(struct diag_guess *g, const char *cand, size_t n)
{
	/* Only a candidate closer than the best so far, and close enough
	 * to be a typo, counts: the search stops at that bound, and the
	 * distance is at least the difference in length. After an exact
	 * match there is nothing to suggest. */
	size_t bound = guess_limit(g->len);
	if (g->best_d <= bound) {
		if (g->best_d == 0)
			return;
		bound = g->best_d - 1;
	}
	size_t diff = n > g->len ? n - g->len : g->len - n;
	if (diff > bound)
		return;
	size_t d = edit_distance(g->word, g->len, cand, n, bound);
	if (d <= bound) {
		g->best_d = d;
		g->best = cand;
		g->best_len = n;
	}
}

const char *diag_guess_best(const struct diag_guess *g, size_t *n)
{
	if (!g->best || g->best_d == 0 || g->best_d > guess_limit(g->len))
		return NULL;
	*n = g->best_len;
	return g->best;
}

const char *diag_suggest(const char *word, size_t len, const char *const *candidates)
{
	struct diag_guess g;
	size_t n;
	diag_guess_init(&g, word, len);
	for (size_t i = 0; candidates[i]; i++)
		diag_guess_try(&g, candidates[i], strlen(candidates[i]));
	return diag_guess_best(&g, &n);
}

int diag_file_full(struct diag *d, const char *path)
{
	pthread_mutex_lock(&d->lock);
	int full = path && *file_errors(d, path) >= DIAG_MAX_FILE_ERRORS;
	pthread_mutex_unlock(&d->lock);
	return full;
}

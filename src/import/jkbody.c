/* jkbody.c: a Jekyll post body (Liquid, then kramdown) -> folio Markdown,
 * as a pure function of the text: two passes, as Jekyll itself runs
 * Liquid before the Markdown converter. Pass one rewrites Liquid
 * ({% highlight %}, {% raw %}, {% post_url %}, {% link %}, {{ site.url }},
 * other tags kept as HTML comments); pass two rewrites kramdown (attribute
 * lists, extensions, $$ math, MathJax script tags) and local URLs. Each
 * construct not converted as is becomes a finding of the report. Both
 * passes are linear: every search for a closing mark either succeeds and
 * consumes what it scanned, or fails once and is remembered. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import/import.h"
#include "md/markdown.h"

/* A tag longer than this is not a tag: "{%" without its "%}" nearby is
 * text, as in a C comment or a shell example. */
#define LQ_TAG_MAX 4096
/* At most this many findings of one kind per document: the report stays
 * readable for a post of 100,000 stray "{%" (the count says the rest). */
#define JK_MAX_FINDINGS 50

/* Findings per kind of one document: past JK_MAX_FINDINGS of a kind,
 * only counted, and one line says how many more there were. */
struct caps {
	const char *kind[32];
	int n[32];
	size_t nk;
	int math, math_line; /* $$ formulas inside paragraphs, the first one's line */
};

/* cap_take: whether a finding of kind is still listed (kinds are
 * literals: compared by address). */
static int cap_take(struct caps *c, const char *kind)
{
	size_t i = 0;
	while (i < c->nk && c->kind[i] != kind)
		i++;
	if (i == c->nk) {
		if (c->nk == 32)
			return 0;
		c->kind[c->nk] = kind;
		c->n[c->nk++] = 0;
	}
	return ++c->n[i] <= JK_MAX_FINDINGS;
}

/* The next position of each closing mark at or after a scan position
 * ((size_t)-1: not looked for yet; n: none). A scan moves forward, so an
 * answer stays good until the scan passes it: each search of the text
 * is made once, and a text of 100,000 unclosed marks stays linear. A
 * search ahead of the scan (for an end tag) keeps marks of its own. */
struct marks {
	size_t pct, br, gt, pct2, blank, star;
};

#define MARKS_NONE {(size_t)-1, (size_t)-1, (size_t)-1, (size_t)-1, (size_t)-1, (size_t)-1}

#define LQ_OPEN_MAX 16
struct lq {
	const struct jk_body *c;
	const char *in;
	size_t n;
	struct buf *out;
	int line;                /* input line (1-based) at the scan position */
	int *lmap;               /* output line k (0-based) -> input line */
	size_t nl, capl;
	struct marks mk;          /* the next closing marks of the scan */
	size_t no_close[3];       /* no {{< /highlight >}}, /katex, /math at or after this */
	size_t no_endhl;          /* no {% endhighlight %} at or after this position */
	size_t tail_run;          /* the longest fence from there on ((size_t)-1: not measured) */
	char fence_ch;            /* a Markdown fence of the input is open */
	size_t fence_len;
	int in_hl;                /* inside {% highlight %} */
	size_t hl_len;            /* the fence written for it */
	int html;                 /* the body is HTML (a Jekyll .html post) */
	struct caps *caps;
	/* the calls sc_directive opened that their closing shortcode ends:
	 * where it is, whether a block, an inline call's attributes */
	struct lq_open {
		size_t close_at;
		int block;
		const char *attrs;
	} open[LQ_OPEN_MAX];
	int nopen;
};

/* finding: a finding of kind at line of the body c converts; fmt has one
 * %.*s, for arg (at most 80 bytes of it). */
static void finding(const struct jk_body *c, const char *kind, int line, const char *fmt, const char *arg,
		    size_t arglen) __attribute__((format(printf, 4, 0)));
/* the format is one of this file's literals, with one %.*s */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void finding(const struct jk_body *c, const char *kind, int line, const char *fmt, const char *arg,
		    size_t arglen)
{
	if (arglen > 80)
		arglen = 80;
	imp_note(c->a, c->r, kind, c->path, line + c->line_offset, fmt, (int)arglen, arg);
}
#pragma GCC diagnostic pop

/* note: a finding of pass one at input line line, unless its kind has
 * had its share (cap_take). */
static void note(struct lq *s, const char *kind, int line, const char *fmt, const char *arg, size_t arglen)
	__attribute__((format(printf, 4, 0)));
static void note(struct lq *s, const char *kind, int line, const char *fmt, const char *arg, size_t arglen)
{
	if (cap_take(s->caps, kind))
		finding(s->c, kind, line, fmt, arg, arglen);
}

static void lmap_push(struct lq *s)
{
	if (s->nl == s->capl) {
		s->capl = s->capl ? s->capl * 2 : 64;
		s->lmap = xrealloc(s->lmap, s->capl * sizeof *s->lmap);
	}
	s->lmap[s->nl++] = s->line;
}

/* emit_in: copies in[from..to) and counts its lines. */
static void emit_in(struct lq *s, size_t from, size_t to)
{
	buf_append(s->out, s->in + from, to - from);
	for (const char *p = s->in + from, *e = s->in + to; (p = memchr(p, '\n', (size_t)(e - p))); p++) {
		s->line++;
		lmap_push(s);
	}
}

/* emit_gen: appends generated text; its line breaks belong to the
 * current input line. */
static void emit_gen(struct lq *s, const char *p, size_t n)
{
	if (!n)
		return; /* p may be NULL (an argument a shortcode does not have) */
	buf_append(s->out, p, n);
	for (const char *e = p + n; (p = memchr(p, '\n', (size_t)(e - p))); p++)
		lmap_push(s);
}

static void emit_cstr(struct lq *s, const char *p)
{
	emit_gen(s, p, strlen(p));
}

/* emit_comment: text as an HTML comment (no "--" inside, which would end
 * or break it). */
static void emit_comment(struct lq *s, const char *label, const char *p, size_t n)
{
	emit_cstr(s, "<!-- ");
	emit_cstr(s, label);
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '-' && ((i + 1 < n && p[i + 1] == '-') || i + 1 == n))
			emit_cstr(s, "- ");
		else
			emit_gen(s, p + i, 1);
	}
	emit_cstr(s, " -->");
}

/* comment_in: in[from..to) as an HTML comment (emit_comment), its lines
 * counted as input read. */
static void comment_in(struct lq *s, const char *label, size_t from, size_t to)
{
	emit_comment(s, label, s->in + from, to - from);
	for (const char *p = s->in + from; (p = memchr(p, '\n', (size_t)(s->in + to - p))); p++)
		s->line++;
}

/* find_from: the next position of the bytes m (ml of them) at or after
 * i, cached in *cache (valid while i does not pass it), n when none. */
static size_t find_from(const char *in, size_t n, size_t i, const char *m, size_t ml, size_t *cache)
{
	if (*cache != (size_t)-1 && *cache >= i)
		return *cache;
	const char *p = i < n ? memmem(in + i, n - i, m, ml) : NULL;
	*cache = p ? (size_t)(p - in) : n;
	return *cache;
}

/* at_line_start: whether in[i] begins a line. */
static int at_line_start(const char *in, size_t i)
{
	return i == 0 || in[i - 1] == '\n';
}

/* fence_open: whether the line at p (to e) opens a fenced code block:
 * sets *ch and *len. */
static int fence_open(const char *p, const char *e, char *ch, size_t *len)
{
	int ind = 0;
	while (p < e && *p == ' ' && ind < 4)
		p++, ind++;
	if (ind > 3 || p >= e || (*p != '`' && *p != '~'))
		return 0;
	char c = *p;
	size_t k = 0;
	while (p + k < e && p[k] == c)
		k++;
	if (k < 3)
		return 0;
	if (c == '`' && memchr(p + k, '`', (size_t)(e - p - (ptrdiff_t)k)))
		return 0;
	*ch = c;
	*len = k;
	return 1;
}

/* fence_close: whether the line at p (to e) closes a fence of ch, len. */
static int fence_close(const char *p, const char *e, char ch, size_t len)
{
	int ind = 0;
	while (p < e && *p == ' ' && ind < 4)
		p++, ind++;
	if (ind > 3)
		return 0;
	size_t k = 0;
	while (p + k < e && p[k] == ch)
		k++;
	if (k < len)
		return 0;
	for (p += k; p < e; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return 0;
	return 1;
}

static const char *line_end(const char *in, size_t n, size_t i)
{
	const char *e = memchr(in + i, '\n', n - i);
	return e ? e : in + n;
}

/* A parsed tag: name and arguments (trimmed), and where it ends. */
struct tag {
	const char *name, *args;
	size_t name_len, args_len;
	size_t start, end; /* in[start..end) is the whole tag */
};

/* parse_tag: the tag starting at in[i] = "{%"; 0 when it is not one
 * (no "%}" within LQ_TAG_MAX bytes, or a blank line before it). mk: the
 * marks of this scan. */
static int parse_tag(struct lq *s, size_t i, struct tag *t, struct marks *mk)
{
	size_t close = find_from(s->in, s->n, i + 2, "%}", 2, &mk->pct);
	if (close >= s->n || close - i > LQ_TAG_MAX || find_from(s->in, s->n, i, "\n\n", 2, &mk->blank) < close)
		return 0;
	size_t j = i + 2, e = close;
	if (j < e && s->in[j] == '-')
		j++;
	if (e > j && s->in[e - 1] == '-')
		e--;
	while (j < e && isspace((unsigned char)s->in[j]))
		j++;
	t->name = s->in + j;
	while (j < e && (isalnum((unsigned char)s->in[j]) || s->in[j] == '_'))
		j++;
	t->name_len = (size_t)(s->in + j - t->name);
	while (j < e && isspace((unsigned char)s->in[j]))
		j++;
	while (e > j && isspace((unsigned char)s->in[e - 1]))
		e--;
	t->args = s->in + j;
	t->args_len = e - j;
	t->start = i;
	t->end = close + 2;
	return t->name_len > 0;
}

static int tag_is(const struct tag *t, const char *name)
{
	return t->name_len == strlen(name) && !memcmp(t->name, name, t->name_len);
}

/* find_end_tag: the next tag named name after i ({% endraw %} and the
 * like, with any spacing and dashes): fills t, or 0 when there is none. */
static int find_end_tag(struct lq *s, size_t i, const char *name, struct tag *t)
{
	size_t nl = strlen(name);
	struct marks mk = MARKS_NONE;
	while (i < s->n) {
		const char *p = memmem(s->in + i, s->n - i, name, nl);
		if (!p)
			return 0;
		size_t at = (size_t)(p - s->in);
		size_t b = at;
		while (b > 0 && (s->in[b - 1] == ' ' || s->in[b - 1] == '\t' || s->in[b - 1] == '-'))
			b--;
		if (b >= 2 && s->in[b - 2] == '{' && s->in[b - 1] == '%' && parse_tag(s, b - 2, t, &mk) &&
		    tag_is(t, name))
			return 1;
		i = at + nl;
	}
	return 0;
}

/* alone: whether the tag in[a..b) is alone on its line in the input and
 * the output's current line is blank: its line can go when it writes
 * nothing. */
static int alone(struct lq *s, size_t a, size_t b)
{
	for (size_t k = a; k > 0 && s->in[k - 1] != '\n'; k--)
		if (s->in[k - 1] != ' ' && s->in[k - 1] != '\t')
			return 0;
	for (size_t k = b; k < s->n && s->in[k] != '\n'; k++)
		if (s->in[k] != ' ' && s->in[k] != '\t' && s->in[k] != '\r')
			return 0;
	return 1;
}

/* drop_line_rest: after a tag that wrote nothing, alone on its line: the
 * blanks before it (already in out) and after it, and the line break. */
static size_t drop_line_rest(struct lq *s, size_t b)
{
	while (s->out->len && (s->out->p[s->out->len - 1] == ' ' || s->out->p[s->out->len - 1] == '\t'))
		s->out->len--;
	while (b < s->n && s->in[b] != '\n')
		b++;
	if (b < s->n) {
		b++;
		s->line++;
	}
	return b;
}

/* backtick_run: the longest run of c at the start of a line of in[a..b). */
static size_t longest_fence_run(const char *in, size_t a, size_t b)
{
	size_t best = 0;
	for (size_t i = a; i < b; i++) {
		if (i != a && in[i - 1] != '\n')
			continue;
		size_t j = i;
		while (j < b && (in[j] == ' '))
			j++;
		size_t k = 0;
		while (j + k < b && (in[j + k] == '`' || in[j + k] == '~'))
			k++;
		if (k > best)
			best = k;
	}
	return best;
}

/* emit_fence: the fence of a highlighted block (hl_len backticks) on a
 * line of its own. */
static void emit_fence(struct lq *s)
{
	if (s->out->len && s->out->p[s->out->len - 1] != '\n')
		emit_cstr(s, "\n");
	for (size_t k = 0; k < s->hl_len; k++)
		emit_cstr(s, "`");
}

/* fence_begin: a highlighted block's opening fence, longer than run (the
 * longest fence inside it), at least 3. */
static void fence_begin(struct lq *s, size_t run)
{
	s->hl_len = run >= 3 ? run + 1 : 3;
	s->in_hl = 1;
	emit_fence(s);
}

/* fence_options: the end of an opening fence's line: folio's options o
 * in braces, when there are any; o freed. */
static void fence_options(struct lq *s, struct buf *o)
{
	if (o->len) {
		emit_cstr(s, " {");
		emit_gen(s, o->p, o->len);
		emit_cstr(s, "}");
	}
	buf_fini(o);
	emit_cstr(s, "\n");
}

/* highlight_open: {% highlight lang opts %} -> an opening fence. */
static void highlight_open(struct lq *s, const struct tag *t)
{
	size_t body_end = s->n;
	struct tag et;
	if (t->end < s->no_endhl && find_end_tag(s, t->end, "endhighlight", &et))
		body_end = et.start;
	else {
		s->no_endhl = t->end;
		note(s, "Liquid highlight without endhighlight", s->line,
		     "'{%% highlight %.*s %%}' has no {%% endhighlight %%}: the code block runs to the end", t->args,
		     t->args_len);
	}
	/* without an end, the fence must outrun every fence of the rest of
	 * the text: that is measured once */
	size_t run;
	if (body_end == s->n) {
		if (s->tail_run == (size_t)-1)
			s->tail_run = longest_fence_run(s->in, t->end, body_end);
		run = s->tail_run;
	} else
		run = longest_fence_run(s->in, t->end, body_end);
	fence_begin(s, run);
	/* the language, then the options folio knows */
	const char *a = t->args, *e = t->args + t->args_len;
	const char *w = a;
	while (w < e && !isspace((unsigned char)*w))
		w++;
	emit_gen(s, a, (size_t)(w - a));
	struct buf opts;
	buf_init(&opts);
	while (w < e) {
		while (w < e && isspace((unsigned char)*w))
			w++;
		const char *o = w;
		int q = 0;
		while (w < e && (q || !isspace((unsigned char)*w))) {
			if (*w == '"')
				q = !q;
			w++;
		}
		size_t ol = (size_t)(w - o);
		if (!ol)
			break;
		if ((ol >= 7 && !memcmp(o, "linenos", 7))) {
			buf_puts(&opts, opts.len ? " linenos" : "linenos");
		} else if ((ol > 9 && !memcmp(o, "hl_lines=", 9)) || (ol > 11 && !memcmp(o, "mark_lines=", 11))) {
			const char *v = (const char *)memchr(o, '=', ol) + 1;
			buf_puts(&opts, opts.len ? " hl=\"" : "hl=\"");
			int sp = 0;
			for (; v < w; v++) {
				if (*v == '"' || *v == '\'')
					continue;
				if (*v == ' ' || *v == ',') {
					sp = 1;
					continue;
				}
				if (sp && opts.p[opts.len - 1] != '"')
					buf_putc(&opts, ',');
				sp = 0;
				buf_putc(&opts, *v);
			}
			buf_putc(&opts, '"');
		} else {
			note(s, "Liquid highlight option", s->line, "highlight option '%.*s' dropped", o, ol);
		}
	}
	fence_options(s, &opts);
}

static void highlight_close(struct lq *s)
{
	emit_fence(s);
	/* in HTML, "{% endhighlight %}</p>": the fence's line ends here */
	if (s->html)
		emit_cstr(s, "\n");
	s->in_hl = 0;
}

/* first_word: the first word of args (a post name, a path), unquoted. */
static struct str first_word(const char *p, size_t n)
{
	size_t i = 0;
	while (i < n && isspace((unsigned char)p[i]))
		i++;
	char q = 0;
	if (i < n && (p[i] == '"' || p[i] == '\''))
		q = p[i++];
	size_t j = i;
	while (j < n && (q ? p[j] != q : !isspace((unsigned char)p[j])))
		j++;
	return (struct str){p + i, j - i};
}

/* default_post_url: /posts/SLUG/ for "2017-01-01-slug" or "dir/2017-01-01-slug.md". */
static const char *default_post_url(struct arena *a, struct str name)
{
	const char *p = name.p, *e = name.p + name.len;
	const char *sl = NULL;
	for (const char *q = p; q < e; q++)
		if (*q == '/')
			sl = q;
	if (sl)
		p = sl + 1;
	const char *dot = NULL;
	for (const char *q = p; q < e; q++)
		if (*q == '.')
			dot = q;
	if (dot && dot > p)
		e = dot;
	if (e - p > 11 && p[4] == '-' && p[7] == '-' && p[10] == '-')
		p += 11;
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "/posts/%.*s/", (int)(e - p), p);
	const char *r = arena_strndup(a, b.p, b.len);
	buf_fini(&b);
	return r;
}

/* root_url: the path name (with or without its leading '/') as a URL
 * from the site's root, in the arena. */
static const char *root_url(struct arena *a, const char *name)
{
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "/%s", name[0] == '/' ? name + 1 : name);
	const char *url = arena_strndup(a, b.p, b.len);
	buf_fini(&b);
	return url;
}

static size_t include_directive(struct lq *s, const struct tag *t, int line);

/* do_tag: one tag at in[t->start..t->end); returns where scanning goes on. */
static size_t do_tag(struct lq *s, struct tag *t)
{
	int code = s->fence_ch || s->in_hl;
	int line = s->line;
	char tmp[64];
	snprintf(tmp, sizeof tmp, "%.*s", (int)(t->name_len < 40 ? t->name_len : 40), t->name);
	if (tag_is(t, "raw")) {
		struct tag et;
		int al = alone(s, t->start, t->end);
		size_t b = al ? drop_line_rest(s, t->end) : t->end;
		if (!find_end_tag(s, t->end, "endraw", &et)) {
			note(s, "Liquid raw", line, "'{%% raw %%}' without {%% endraw %%}: the rest is kept as it is%.*s", "",
			     0);
			emit_in(s, b, s->n);
			return s->n;
		}
		emit_in(s, b, et.start);
		if (alone(s, et.start, et.end))
			return drop_line_rest(s, et.end);
		return et.end;
	}
	if (tag_is(t, "comment")) {
		struct tag et;
		size_t stop = s->n, after = s->n;
		if (find_end_tag(s, t->end, "endcomment", &et))
			stop = et.start, after = et.end;
		note(s, "Liquid comment", line, "'{%% comment %%}' kept as an HTML comment%.*s", "", 0);
		comment_in(s, "", t->end, stop);
		return after;
	}
	if (tag_is(t, "highlight") && !code) {
		size_t b = t->end;
		highlight_open(s, t);
		if (b < s->n && s->in[b] == '\n') {
			b++;
			s->line++;
		} else if (b + 1 < s->n && s->in[b] == '\r' && s->in[b + 1] == '\n') {
			b += 2;
			s->line++;
		}
		return b;
	}
	if (tag_is(t, "endhighlight")) {
		if (s->in_hl) {
			highlight_close(s);
			return t->end;
		}
		note(s, "Liquid tag", line, "'{%% endhighlight %%}' without highlight: dropped%.*s", "", 0);
		return alone(s, t->start, t->end) ? drop_line_rest(s, t->end) : t->end;
	}
	if (tag_is(t, "endraw") || tag_is(t, "endcomment")) {
		note(s, "Liquid tag", line, "'{%% %.*s %%}' without its opening tag: dropped", t->name, t->name_len);
		return alone(s, t->start, t->end) ? drop_line_rest(s, t->end) : t->end;
	}
	if (tag_is(t, "post_url") || tag_is(t, "link")) {
		struct str w = first_word(t->args, t->args_len);
		char *name = arena_strndup(s->c->a, w.p, w.len);
		const char *url = NULL;
		int post = tag_is(t, "post_url");
		if (post)
			url = s->c->post_url ? s->c->post_url(s->c->ctx, name, line + s->c->line_offset)
					     : default_post_url(s->c->a, w);
		else
			url = s->c->link ? s->c->link(s->c->ctx, name, line + s->c->line_offset) : NULL;
		if (!url && !s->c->link && !post)
			url = root_url(s->c->a, name);
		if (!url) {
			note(s, post ? "Liquid post_url to no post" : "Liquid link to no file", line,
			     "'%.*s' names nothing of the site: kept as an HTML comment", t->args, t->args_len);
			emit_comment(s, "liquid: ", s->in + t->start, t->end - t->start);
		} else {
			emit_cstr(s, url);
		}
		return t->end;
	}
	/* include, if, for, assign, capture, and every other tag */
	if (code) {
		note(s, "Liquid tag in code", line, "'%.*s' inside a code block: kept as text", s->in + t->start,
		     t->end - t->start);
		emit_in(s, t->start, t->end);
	} else {
		size_t to = tag_is(t, "include") && s->c->directive && !s->html ? include_directive(s, t, line) : 0;
		if (to)
			return to;
		note(s, tag_is(t, "include") ? "Liquid include" : "Liquid tag", line,
		     "'%.*s' kept as an HTML comment", s->in + t->start, t->end - t->start);
		comment_in(s, "liquid: ", t->start, t->end);
	}
	return t->end;
}

/* is_site_url: whether expr is site.url, site.baseurl or site.github.url. */
static int is_site_var(const char *p, size_t n)
{
	return (n == 8 && !memcmp(p, "site.url", 8)) || (n == 12 && !memcmp(p, "site.baseurl", 12)) ||
	       (n == 15 && !memcmp(p, "site.github.url", 15));
}

/* do_output: {{ expr }} at in[i], its "}}" at close. */
static size_t do_output(struct lq *s, size_t i, size_t close)
{
	const char *p = s->in + i + 2, *e = s->in + close;
	imp_action_trim(&p, &e);
	if (is_site_var(p, (size_t)(e - p))) {
		/* the start of a URL ("{{ site.url }}/x", "{{ site.url }}{{ site.baseurl }}"):
		 * the site's root, which folio's links start from; anywhere else
		 * the old address goes, reported */
		size_t nx = close + 2;
		while (nx < s->n && (s->in[nx] == ' ' || s->in[nx] == '\t'))
			nx++;
		if (nx >= s->n || (s->in[nx] != '/' && s->in[nx] != '{'))
			note(s, "Liquid output", s->line, "'%.*s' not at the start of a URL: dropped", s->in + i,
			     close + 2 - i);
		return close + 2;
	}
	/* "/path" | relative_url (absolute_url, prepend: site.baseurl) */
	if (p < e && (*p == '"' || *p == '\'')) {
		const char *q = memchr(p + 1, *p, (size_t)(e - p - 1));
		if (q) {
			const char *f = q + 1;
			while (f < e && (isspace((unsigned char)*f) || *f == '|'))
				f++;
			size_t fl = (size_t)(e - f);
			if ((fl == 12 && !memcmp(f, "relative_url", 12)) || (fl == 12 && !memcmp(f, "absolute_url", 12)) ||
			    (fl >= 8 && !memcmp(f, "prepend:", 8) && memmem(f, fl, "site.baseurl", 12))) {
				emit_gen(s, p + 1, (size_t)(q - p - 1));
				return close + 2;
			}
		}
	}
	if (s->fence_ch || s->in_hl) {
		note(s, "Liquid output in code", s->line, "'%.*s' inside a code block: kept as text", s->in + i,
		     close + 2 - i);
		emit_in(s, i, close + 2);
	} else {
		note(s, "Liquid output", s->line, "'%.*s' kept as an HTML comment", s->in + i, close + 2 - i);
		comment_in(s, "liquid: ", i, close + 2);
	}
	return close + 2;
}

/* scan_line: for a first pass at in[i]: the fences of the input followed
 * at a line's start, and the end of i's line, kept in *cached while the
 * scan is on it (a line of 100,000 tags is one search). */
static const char *scan_line(struct lq *s, size_t i, const char **cached)
{
	if (at_line_start(s->in, i) && !s->in_hl) {
		const char *e = line_end(s->in, s->n, i);
		char ch;
		size_t len;
		if (s->fence_ch) {
			if (fence_close(s->in + i, e, s->fence_ch, s->fence_len))
				s->fence_ch = 0;
		} else if (fence_open(s->in + i, e, &ch, &len)) {
			s->fence_ch = ch;
			s->fence_len = len;
		}
	}
	if (!*cached || s->in + i > *cached)
		*cached = line_end(s->in, s->n, i);
	return *cached;
}

/* liquid: pass one, in -> out. */
static void liquid(struct lq *s)
{
	size_t i = 0;
	int unclosed = 0;
	const char *cached_le = NULL;
	lmap_push(s);
	while (i < s->n) {
		/* the next "{" of this line, or the line's end */
		const char *e = scan_line(s, i, &cached_le);
		const char *b = memchr(s->in + i, '{', (size_t)(e - (s->in + i)));
		size_t stop = b ? (size_t)(b - s->in) : (size_t)(e - s->in);
		if (!b) {
			emit_in(s, i, stop < s->n ? stop + 1 : stop);
			i = stop < s->n ? stop + 1 : stop;
			continue;
		}
		emit_in(s, i, stop);
		i = stop;
		char nx = i + 1 < s->n ? s->in[i + 1] : 0;
		if (nx == '%') {
			struct tag t;
			if (parse_tag(s, i, &t, &s->mk)) {
				i = do_tag(s, &t);
				continue;
			}
			if (!unclosed++)
				note(s, "Liquid unclosed tag", s->line, "'{%%' without '%%}': kept as text%.*s", "", 0);
			emit_in(s, i, i + 2);
			i += 2;
			continue;
		}
		if (nx == '{') {
			size_t close = find_from(s->in, s->n, i + 2, "}}", 2, &s->mk.br);
			/* an output never holds a blank line: "{{" then a blank
			 * line is text (Liquid would stop with an error) */
			if (close < s->n && close - i <= LQ_TAG_MAX &&
			    find_from(s->in, s->n, i, "\n\n", 2, &s->mk.blank) >= close) {
				i = do_output(s, i, close);
				continue;
			}
			emit_in(s, i, i + 2);
			i += 2;
			continue;
		}
		emit_in(s, i, i + 1);
		i++;
	}
	if (s->in_hl)
		highlight_close(s);
}

/* ---- pass two: kramdown, math, URLs ---- */

struct kd {
	const struct jk_body *c;
	const struct lq *l; /* its line map */
	const char *in;
	size_t n;
	struct buf *out;
	struct caps *caps;
	size_t para_end;      /* the end of the paragraph at the scan position (cached) */
	size_t no_script_end; /* no </script> at or after this position */
	size_t bare_end; /* the end of the bare address last counted */
	int quiet;       /* inside a <script> or <style> of an HTML post: nothing counted */
	size_t no_cmt_end;    /* no "-->" at or after this position */
	int in_tag;           /* an HTML tag runs on from the line before */
	size_t selfclose;     /* the '/' of "<a ... />" being copied ((size_t)-1: none) */
	int in_a;             /* the tag being copied is an <a> (its href is a link) */
	size_t hmath_end;     /* past the last Goldmark formula counted */
	struct str selfname;  /* that tag's name */
	size_t paren;         /* the next ")" (cached, as struct marks) */
	size_t at, at_line;   /* the line (0-based) of in[at], counted on from the last call */
};

/* kd_line: the input line of pass two's in[i]; calls go forward, so the
 * count goes on from the last one (from the start when i goes back). */
static int kd_line(struct kd *k, size_t i)
{
	if (i < k->at)
		k->at = k->at_line = 0;
	for (const char *p = k->in + k->at, *e = k->in + i; (p = memchr(p, '\n', (size_t)(e - p))); p++)
		k->at_line++;
	k->at = i;
	size_t line = k->at_line;
	return line < k->l->nl ? k->l->lmap[line] : (k->l->nl ? k->l->lmap[k->l->nl - 1] : 1);
}

/* tally: one construct of kind at in[at], for the parity check (the
 * source's Markdown reads it so). */
static void tally(struct kd *k, enum imp_kind_count kind, size_t at)
{
	struct imp_counts *c = k->quiet ? NULL : k->c->counts;
	if (c && !c->n[kind]++)
		c->line[kind] = kd_line(k, at) + k->c->line_offset;
}

/* tally_tag: an HTML start tag at in[i] (name[0..n)), counted as what it
 * shows: an image, code, a table, a heading. */
static void tally_tag(struct kd *k, const char *name, size_t n, size_t i)
{
	if (n == 3 && !strncasecmp(name, "img", 3))
		tally(k, IMP_IMAGES, i);
	else if (n == 3 && !strncasecmp(name, "pre", 3))
		tally(k, IMP_CODE, i);
	else if (n == 5 && !strncasecmp(name, "table", 5))
		tally(k, IMP_TABLES, i);
	else if (n == 2 && (name[0] == 'h' || name[0] == 'H') && name[1] >= '1' && name[1] <= '6')
		tally(k, IMP_HEADINGS, i);
	else if (n == 1 && (name[0] == 'a' || name[0] == 'A'))
		k->in_a = 1;
}

/* kd_note: a finding of pass two at in[at], as note (the line counted
 * only for one that is listed). */
static void kd_note(struct kd *k, const char *kind, size_t at, const char *fmt, const char *arg, size_t arglen)
	__attribute__((format(printf, 4, 0)));
static void kd_note(struct kd *k, const char *kind, size_t at, const char *fmt, const char *arg, size_t arglen)
{
	if (cap_take(k->caps, kind))
		finding(k->c, kind, kd_line(k, at), fmt, arg, arglen);
}

static struct str trimmed(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return (struct str){p, (size_t)(e - p)};
}

/* is_ial_line: a line that is only a kramdown attribute list or
 * extension: {: .class}, {:#id}, {::options ... /}, {:toc}. */
static int is_ial_line(struct str t)
{
	return t.len >= 3 && t.p[0] == '{' && t.p[1] == ':' && t.p[t.len - 1] == '}' &&
	       !memchr(t.p + 1, '{', t.len - 1);
}

static int is_list_item(struct str t)
{
	if (t.len >= 2 && (t.p[0] == '*' || t.p[0] == '-' || t.p[0] == '+') && t.p[1] == ' ')
		return 1;
	size_t i = 0;
	while (i < t.len && isdigit((unsigned char)t.p[i]))
		i++;
	return i > 0 && i < 10 && i + 1 < t.len && (t.p[i] == '.' || t.p[i] == ')') && t.p[i + 1] == ' ';
}

/* item_col: the column of a list item's text (t, a list item, indented
 * ind): where its lines' blocks start, a fence among them */
static size_t item_col(struct str t, size_t ind)
{
	size_t m = 0;
	while (m < t.len && isdigit((unsigned char)t.p[m]))
		m++;
	m++; /* the bullet, or the '.' or ')' after the digits */
	size_t sp = 0;
	while (m + sp < t.len && t.p[m + sp] == ' ')
		sp++;
	return ind + m + (sp >= 1 && sp <= 4 ? sp : 1);
}

/* url_rewrite: hands url to the callback; writes what replaces it. */
static void put_url(struct kd *k, const char *u, size_t n, int image, size_t at, int *missing)
{
	*missing = 0;
	const char *r = NULL;
	/* blanks around an attribute's URL are not part of it, for browsers
	 * (jalammar's '<image src="/images/x.png "/>') */
	size_t a = 0, b = n;
	while (a < b && (u[a] == ' ' || (u[a] >= '\t' && u[a] <= '\r')))
		a++;
	while (b > a && (u[b - 1] == ' ' || (u[b - 1] >= '\t' && u[b - 1] <= '\r')))
		b--;
	if (k->c->url && b > a && n < 2048) {
		char *z = arena_strndup(k->c->a, u + a, b - a);
		r = k->c->url(k->c->ctx, z, image, kd_line(k, at) + k->c->line_offset, missing);
	}
	if (r)
		buf_puts(k->out, r);
	else
		buf_append(k->out, u, n);
}

/* title_end: past the ")" that ends a link after its destination (at
 * in[j]: an optional title first, on the line), or 0. */
static size_t title_end(const char *in, size_t n, size_t j)
{
	size_t m = j;
	while (m < n && in[m] != ')' && in[m] != '\n' && m - j < 1024)
		m++;
	return m < n && in[m] == ')' ? m + 1 : 0;
}

/* link_dest: at in[i] just after "](": the destination's bounds, and the
 * end of the whole "(...)" (after ")"), or 0 when it is not a link;
 * *angle: the destination must be written in <...> (see below). */

static int link_dest(const char *in, size_t n, size_t i, size_t *ua, size_t *ub, size_t *end, int *angle)
{
	*angle = 0;
	size_t j = i;
	while (j < n && (in[j] == ' ' || in[j] == '\t'))
		j++;
	if (j < n && in[j] == '<') {
		size_t a = j + 1;
		while (j < n && in[j] != '>' && in[j] != '\n')
			j++;
		if (j >= n || in[j] != '>')
			return 0;
		*ua = a;
		*ub = j;
		j++;
	} else {
		size_t a = j, last_close = 0;
		int depth = 0;
		/* a destination longer than LQ_TAG_MAX is not one (and the
		 * scan of "](](](..." stays linear) */
		size_t lim = n - a > LQ_TAG_MAX ? a + LQ_TAG_MAX : n;
		while (j < lim && !isspace((unsigned char)in[j]) && (in[j] != ')' || depth)) {
			if (in[j] == '(')
				depth++;
			else if (in[j] == ')')
				depth--, last_close = j;
			j++;
		}
		if (j == lim && lim < n)
			return 0;
		if (last_close && (j >= n || in[j] != ')') && !title_end(in, n, j)) {
			/* "(http://w/JAD_(x%29)": a "(" never closed; kramdown
			 * ends the link at the last ")", and CommonMark takes
			 * such an address only in <...> */
			*ua = a;
			*ub = last_close;
			*end = last_close + 1;
			*angle = 1;
			return 1;
		}
		*ua = a;
		*ub = j;
		size_t tb = j;
		while (tb < lim && (in[tb] == ' ' || in[tb] == '\t'))
			tb++;
		if (tb > j && tb < lim && !strchr("\"'()\n", in[tb])) {
			/* "(You and Your Research)": kramdown takes blanks in an
			 * address; CommonMark only in <...> */
			size_t c = j;
			while (c < lim && in[c] != ')' && in[c] != '\n' && !strchr("\"'()<>", in[c]))
				c++;
			if (c < lim && in[c] == ')') {
				size_t b = c;
				while (b > a && (in[b - 1] == ' ' || in[b - 1] == '\t'))
					b--;
				*ub = b;
				*end = c + 1;
				*angle = 2;
				return 1;
			}
		}
	}
	*end = title_end(in, n, j);
	return *end != 0;
}

/* image_start: for a "](" at out's end: where its "![" starts in out, or
 * (size_t)-1 when the "[" it closes is a link's. */
static size_t image_start(const struct buf *o)
{
	int depth = 0;
	size_t stop = o->len > LQ_TAG_MAX ? o->len - LQ_TAG_MAX : 0;
	for (size_t j = o->len; j > stop; j--) {
		char ch = o->p[j - 1];
		if (ch == '\n')
			return (size_t)-1;
		if (ch == ']')
			depth++;
		else if (ch == '[') {
			if (depth == 0)
				return j >= 2 && o->p[j - 2] == '!' ? j - 2 : (size_t)-1;
			depth--;
		}
	}
	return (size_t)-1;
}

static void put_attr_text(struct buf *b, const char *p, size_t n)
{
	buf_put_html(b, p, n);
}

/* para_end: where the paragraph holding in[i] ends: the next blank line
 * (or the end). Cached: the scan moves forward. */
static size_t para_end(struct kd *k, size_t i)
{
	if (k->para_end != (size_t)-1 && k->para_end > i) {
		/* still valid when no blank line lies between */
		return k->para_end;
	}
	size_t j = i;
	while (j < k->n) {
		const char *nl = memchr(k->in + j, '\n', k->n - j);
		if (!nl) {
			j = k->n;
			break;
		}
		j = (size_t)(nl - k->in) + 1;
		size_t q = j;
		while (q < k->n && (k->in[q] == ' ' || k->in[q] == '\t' || k->in[q] == '\r'))
			q++;
		if (q >= k->n || k->in[q] == '\n')
			break;
	}
	k->para_end = j;
	return j;
}

/* code_span: the code span opening with the backticks at in[i] (to e,
 * the line's end), as it is: where it ends (past its run alone when it
 * is not closed on the line). */
static size_t code_span(struct kd *k, size_t i, size_t e)
{
	size_t r = 0;
	while (i + r < e && k->in[i + r] == '`')
		r++;
	/* the closing run of the same length on this line */
	size_t j = i + r, close = 0;
	while (j < e) {
		if (k->in[j] == '`') {
			size_t q = 0;
			while (j + q < e && k->in[j + q] == '`')
				q++;
			if (q == r) {
				close = j + q;
				break;
			}
			j += q;
		} else
			j++;
	}
	size_t to = close ? close : i + r;
	buf_append(k->out, k->in + i, to - i);
	return to;
}

/* html_comment: the HTML comment at in[i] (a Liquid tag kept as one), as
 * it is: where it ends (e, the line's end, when it is not closed). */
static size_t html_comment(struct kd *k, size_t i, size_t e)
{
	const char *c = i < k->no_cmt_end ? memmem(k->in + i + 4, k->n - i - 4, "-->", 3) : NULL;
	if (!c)
		k->no_cmt_end = i;
	size_t to = c ? (size_t)(c - k->in) + 3 : e;
	buf_append(k->out, k->in + i, to - i);
	return to;
}

/* dollar_math: kramdown's $$ at in[i]: inline math, which may run over
 * lines up to the paragraph's end, written $...$; else the two dollars
 * as they are. Where the scan goes on. */
static size_t dollar_math(struct kd *k, size_t i)
{
	size_t pe = para_end(k, i);
	const char *c2 = i + 2 < pe ? memmem(k->in + i + 2, pe - i - 2, "$$", 2) : NULL;
	if (c2) {
		struct str m = trimmed(k->in + i + 2, c2);
		while (m.len && (m.p[0] == '\n' || m.p[0] == ' '))
			m.p++, m.len--;
		while (m.len && (m.p[m.len - 1] == '\n' || m.p[m.len - 1] == ' ' || m.p[m.len - 1] == '\r'))
			m.len--;
		if (m.len) {
			/* on one line: a line of the formula that starts with "+ "
			 * or "1. " would start a list in CommonMark (TeX reads a
			 * line break as a space) */
			buf_putc(k->out, '$');
			for (size_t q = 0; q < m.len; q++)
				buf_putc(k->out, m.p[q] == '\n' || m.p[q] == '\r' ? ' ' : m.p[q]);
			buf_putc(k->out, '$');
			if (!k->caps->math++)
				k->caps->math_line = kd_line(k, i);
			tally(k, IMP_INLINE, i);
			return (size_t)(c2 - k->in) + 2;
		}
	}
	buf_append(k->out, "$$", 2);
	return i + 2;
}

/* mathjax: <script type="math/tex"> at in[i] (to e, the line's end) with
 * its </script> (anywhere after): its formula as $...$, or $$ display
 * math for mode=display; where the scan goes on, or 0 when it is not
 * one. */
static size_t mathjax(struct kd *k, size_t i, size_t e)
{
	const char *gt = memchr(k->in + i, '>', e - i);
	const char *end = NULL;
	if (gt && i < k->no_script_end)
		end = memmem(gt, k->n - (size_t)(gt - k->in), "</script>", 9);
	if (gt && !end)
		k->no_script_end = i;
	if (!gt || !end)
		return 0;
	int display = memmem(k->in + i, (size_t)(gt - (k->in + i)), "mode=display", 12) != NULL;
	tally(k, display ? IMP_DISPLAY : IMP_INLINE, i);
	struct str m = trimmed(gt + 1, end);
	while (m.len && (m.p[0] == '\n' || m.p[0] == '\r'))
		m.p++, m.len--;
	while (m.len && (m.p[m.len - 1] == '\n' || m.p[m.len - 1] == '\r'))
		m.len--;
	buf_puts(k->out, display ? "\n$$\n" : "$");
	buf_put_str(k->out, m);
	buf_puts(k->out, display ? "\n$$\n" : "$");
	kd_note(k, "MathJax script", i, "'<script type=\"math/tex\">' written as %.*s",
		display ? "$$ display math" : "$ inline math", display ? 15 : 13);
	return (size_t)(end - k->in) + 9;
}

/* has_nocase: whether p[0..n) holds the lower-case needle, in any case */
static int has_nocase(const char *p, size_t n, const char *needle, size_t nl)
{
	for (size_t i = 0; i + nl <= n; i++)
		if (!strncasecmp(p + i, needle, nl))
			return 1;
	return 0;
}

/* md_block_tag: kramdown's markdown="1" (or "block") on a line of one
 * HTML start tag (t, at in[i]): its content is Markdown to kramdown, raw
 * HTML to CommonMark, whose HTML block runs to the next blank line. The
 * tag is written without the attribute and followed by a blank line, and
 * the element's end tag, alone on a later line, gets one before it
 * (*open counts the elements open). Whether the line was one of them. */
static int md_block_tag(struct kd *k, struct str t, size_t i, int *open)
{
	if (*open && t.len > 3 && t.p[0] == '<' && t.p[1] == '/' && t.p[t.len - 1] == '>' &&
	    !memchr(t.p + 1, '<', t.len - 1)) {
		(*open)--;
		if (k->out->len >= 2 && k->out->p[k->out->len - 2] != '\n')
			buf_putc(k->out, '\n');
		buf_append(k->out, t.p, t.len);
		buf_puts(k->out, "\n\n");
		return 1;
	}
	if (t.len < 4 || t.p[0] != '<' || !isalpha((unsigned char)t.p[1]) || t.p[t.len - 1] != '>' ||
	    memchr(t.p + 1, '<', t.len - 1))
		return 0;
	static const char *const attrs[] = {" markdown=\"1\"", " markdown='1'", " markdown=\"block\"", " markdown=1"};
	for (size_t a = 0; a < sizeof attrs / sizeof *attrs; a++) {
		const char *m = memmem(t.p, t.len, attrs[a], strlen(attrs[a]));
		if (!m)
			continue;
		buf_append(k->out, t.p, (size_t)(m - t.p));
		buf_append(k->out, m + strlen(attrs[a]), (size_t)(t.p + t.len - (m + strlen(attrs[a]))));
		buf_puts(k->out, "\n\n");
		kd_note(k, "kramdown HTML line", i,
			"'%.*s': its content is Markdown, as kramdown reads it (blank lines around it)", t.p,
			t.len > 60 ? 60 : t.len);
		(*open)++;
		return 1;
	}
	return 0;
}

/* lone_raw_open: whether the line at ls (to le) starts, indented less
 * than 4, a <script> or <style> element that it does not end: *end gets
 * its end tag (else NULL). A MathJax script is not one (mathjax_loader
 * leaves it out), nor one of type math/tex (mathjax writes it as math). */
static int lone_raw_open(const char *ls, const char *le, const char **end)
{
	*end = NULL;
	const char *p = ls;
	while (p < le && *p == ' ' && p - ls < 4)
		p++;
	size_t n = (size_t)(le - p);
	const char *tag = n > 7 && !strncasecmp(p, "<script", 7) && (p[7] == '>' || p[7] == ' ') ? "</script>"
			  : n > 6 && !strncasecmp(p, "<style", 6) && (p[6] == '>' || p[6] == ' ') ? "</style>" : NULL;
	if (!tag || has_nocase(p, n, tag, strlen(tag)))
		return 0;
	const char *gt = memchr(p, '>', n);
	if (!gt || has_nocase(p, (size_t)(gt - p), "mathjax", 7) || has_nocase(p, (size_t)(gt - p), "math/tex", 8))
		return 0;
	*end = tag;
	return 1;
}

/* mathjax_loader: a <script> at in[i] (to e, the line's end) whose tag
 * names MathJax (its src, or type="text/x-mathjax-config"), with its
 * </script>: dropped, as folio typesets the math when the site is built
 * and the page needs no script (MathJax would typeset folio's MathML
 * again, and any $ of the text); the line's end after it goes too.
 * Where the scan goes on, or 0 when it is not one. */
static size_t mathjax_loader(struct kd *k, size_t i, size_t e)
{
	const char *gt = memchr(k->in + i, '>', e - i);
	if (!gt || !has_nocase(k->in + i, (size_t)(gt - (k->in + i)), "mathjax", 7))
		return 0;
	const char *end = NULL;
	if (i < k->no_script_end)
		end = memmem(gt, k->n - (size_t)(gt - k->in), "</script>", 9);
	if (!end) {
		k->no_script_end = i;
		return 0;
	}
	kd_note(k, "MathJax script", i, "'%.*s' left out: folio typesets the math when the site is built",
		k->in + i, (size_t)(gt + 1 - (k->in + i)) > 60 ? 60 : (size_t)(gt + 1 - (k->in + i)));
	size_t to = (size_t)(end - k->in) + 9;
	if (to < k->n && k->in[to] == '\r')
		to++;
	if (to < k->n && k->in[to] == '\n')
		to++;
	return to;
}

/* md_link: the "](" at in[i] of a link or an image (its destination on
 * the line, before e), its URL resolved; an image whose file is nowhere
 * written as raw HTML <img>. Where the scan goes on, or 0 when it is no
 * link. */
static size_t md_link(struct kd *k, size_t i, size_t e)
{
	size_t ua, ub, end;
	int angle;
	/* no ")" left on the line: no link (and no scan of it) */
	size_t close = find_from(k->in, k->n, i + 2, ")", 1, &k->paren);
	if (close >= e && k->c->counts && e < k->n && i + 2 < e && !isspace((unsigned char)k->in[i + 2])) {
		/* "[text](url" with its ")" at the next line's start: a link to
		 * both Markdowns, written as it is (counted, not rewritten) */
		size_t q = i + 2;
		while (q < e && !isspace((unsigned char)k->in[q]) && k->in[q] != '(' && k->in[q] != ')')
			q++;
		size_t r = e + 1;
		while (r < k->n && (k->in[r] == ' ' || k->in[r] == '\t'))
			r++;
		if (q == e && r < k->n && k->in[r] == ')' && image_start(k->out) == (size_t)-1)
			tally(k, IMP_LINKS, i);
		return 0;
	}
	if (close >= e || close - i > LQ_TAG_MAX + 2048 || !link_dest(k->in, e, i + 2, &ua, &ub, &end, &angle))
		return 0;
	size_t img = image_start(k->out);
	int missing = 0;
	size_t mark = k->out->len;
	if (img != (size_t)-1)
		tally(k, IMP_IMAGES, i);
	else if (ub == ua || k->in[ua] != '#') /* "[this]()" is a link too, to the page */
		tally(k, IMP_LINKS, i);
	buf_append(k->out, k->in + i, ua - i);
	if (angle) {
		buf_putc(k->out, '<');
		kd_note(k, "kramdown link", ua,
			angle == 1 ? "the address '%.*s' opens a parenthesis it does not close: written in <...>"
				   : "the address '%.*s' holds blanks, which kramdown takes: written in <...>",
			k->in + ua, ub - ua);
	}
	put_url(k, k->in + ua, ub - ua, img != (size_t)-1, ua, &missing);
	if (angle)
		buf_putc(k->out, '>');
	if (missing && img != (size_t)-1) {
		/* ![alt](url): the alt text is out[img+2..mark) */
		struct buf tmp;
		buf_init(&tmp);
		buf_puts(&tmp, "<img src=\"");
		put_attr_text(&tmp, k->in + ua, ub - ua);
		buf_puts(&tmp, "\" alt=\"");
		put_attr_text(&tmp, k->out->p + img + 2, mark - img - 2);
		buf_puts(&tmp, "\">");
		/* at the start of a line, a tag alone would open an HTML block
		 * that swallows the Markdown of the lines below (a caption):
		 * an empty comment after it keeps the paragraph one */
		if (!img || k->out->p[img - 1] == '\n')
			buf_puts(&tmp, "<!-- -->");
		k->out->len = img;
		buf_append(k->out, tmp.p, tmp.len);
		buf_fini(&tmp);
		return end;
	}
	buf_append(k->out, k->in + ub, end - ub);
	return end;
}

/* The attributes of an HTML tag that name a file or a page: kind 0 a
 * link, 2 a file (an image, a video, its poster), 3 a list of files
 * with their widths or densities (srcset). */
static const struct url_attr {
	const char *name;
	int kind;
} url_attrs[] = {{"href=", 0}, {"src=", 2}, {"poster=", 2}, {"data-src=", 2}, {"srcset=", 3}, {"data-srcset=", 3}};

/* put_srcset: a srcset's value (in[a..b)): each "URL descriptor" entry's
 * URL resolved, the commas and descriptors kept. */
static void put_srcset(struct kd *k, size_t a, size_t b)
{
	size_t i = a;
	while (i < b) {
		size_t u = i;
		while (u < b && (isspace((unsigned char)k->in[u]) || k->in[u] == ','))
			u++;
		buf_append(k->out, k->in + i, u - i);
		size_t ue = u;
		while (ue < b && !isspace((unsigned char)k->in[ue]) && !(k->in[ue] == ',' && (ue + 1 >= b ||
		       isspace((unsigned char)k->in[ue + 1]))))
			ue++;
		if (ue > u) {
			int missing;
			put_url(k, k->in + u, ue - u, 2, u, &missing);
		}
		size_t d = ue;
		while (d < b && k->in[d] != ',')
			d++;
		buf_append(k->out, k->in + ue, d - ue);
		i = d;
		if (i == ue && u == ue && i < b) /* nothing taken: one byte on */
			buf_putc(k->out, k->in[i++]);
	}
}

/* attr_url: an attribute of url_attrs at in[i] of an HTML tag, its quoted
 * URL (before e) resolved; where the scan goes on, or 0 when it is not
 * one. */
static size_t attr_url(struct kd *k, size_t i, size_t e)
{
	const struct url_attr *at = NULL;
	for (size_t n = 0; n < sizeof url_attrs / sizeof *url_attrs && !at; n++)
		if (e - i > strlen(url_attrs[n].name) + 1 &&
		    !strncasecmp(k->in + i, url_attrs[n].name, strlen(url_attrs[n].name)))
			at = &url_attrs[n];
	if (!at)
		return 0;
	size_t kl = strlen(at->name);
	if (k->in[i + kl] != '"' && k->in[i + kl] != '\'')
		return 0;
	char q = k->in[i + kl];
	const char *qe = memchr(k->in + i + kl + 1, q, e - i - kl - 1);
	if (!qe)
		return 0;
	int missing = 0;
	buf_append(k->out, k->in + i, kl + 1);
	size_t ua = i + kl + 1, ub = (size_t)(qe - k->in);
	if (at->kind == 0 && k->in_a && ub > ua && k->in[ua] != '#')
		tally(k, IMP_LINKS, i);
	if (at->kind == 3)
		put_srcset(k, ua, ub);
	else
		put_url(k, k->in + ua, ub - ua, at->kind, ua, &missing);
	buf_putc(k->out, q);
	return ub + 1;
}

/* is_void: whether name[0..n) is an HTML element without content (whose
 * "<br/>" is complete). */
static int is_void(const char *name, size_t n)
{
	static const char *const v[] = {"area", "base", "br",   "col",   "embed", "hr",    "img",
					"input", "link", "meta", "param", "source", "track", "wbr"};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (strlen(v[i]) == n && !strncasecmp(name, v[i], n))
			return 1;
	return 0;
}

/* is_html_container: whether name[0..n) is an HTML element with content,
 * whose "<a ... />" an HTML parser leaves open (SVG's and MathML's
 * elements, inline in a post, close themselves: left alone). */
static int is_html_container(const char *name, size_t n)
{
	static const char *const v[] = {
	    "a",      "abbr",    "article", "aside",  "audio",  "b",      "blockquote", "button", "canvas", "center",
	    "cite",   "code",    "dd",      "del",    "details", "div",   "dl",         "dt",     "em",     "figcaption",
	    "figure", "font",    "footer",  "h1",     "h2",     "h3",     "h4",         "h5",     "h6",     "header",
	    "i",      "iframe",  "ins",     "label",  "li",     "main",   "mark",       "nav",    "object", "ol",
	    "p",      "pre",     "q",       "s",      "section", "small", "span",       "strong", "sub",    "summary",
	    "sup",    "table",   "td",      "th",     "tr",     "u",      "ul",         "video"};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (strlen(v[i]) == n && !strncasecmp(name, v[i], n))
			return 1;
	return 0;
}

/* tag_at: the HTML start tag at in[i] ('<' and a letter) within the line
 * (to e): its name, and in *close where its '>' is, quotes respected
 * (0: it does not end on the line); *self: it ends with "/>". */
static struct str tag_at(const char *in, size_t i, size_t e, size_t *close, int *self)
{
	struct str name = {in + i + 1, 0};
	size_t j = i + 1;
	while (j < e && (isalnum((unsigned char)in[j]) || in[j] == '-'))
		j++;
	name.len = j - i - 1;
	*close = 0;
	*self = 0;
	char q = 0;
	for (; j < e; j++) {
		if (q) {
			if (in[j] == q)
				q = 0;
		} else if (in[j] == '"' || in[j] == '\'') {
			q = in[j];
		} else if (in[j] == '>') {
			*close = j;
			*self = in[j - 1] == '/';
			break;
		} else if (in[j] == '<') {
			break;
		}
	}
	return name;
}

/* lone_block_tag: whether t is one start tag (closing 0) or end tag
 * (closing 1) alone of a block that may hold a formula: div, p, center,
 * section, figure, span. */
static int lone_block_tag(struct str t, int closing)
{
	static const char *const names[] = {"div", "p", "center", "section", "figure", "span", "blockquote"};
	size_t o = closing ? 2 : 1;
	if (t.len < o + 2 || t.p[0] != '<' || (closing && t.p[1] != '/') || t.p[t.len - 1] != '>')
		return 0;
	size_t e = o;
	while (e < t.len && isalpha((unsigned char)t.p[e]))
		e++;
	if (e == o || (t.p[e] != '>' && (closing || t.p[e] != ' ')) || memchr(t.p + e, '<', t.len - e))
		return 0;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strlen(names[i]) == e - o && !strncasecmp(t.p + o, names[i], e - o))
			return 1;
	return 0;
}

/* lone_empty_tag: whether t is one tag alone, of an empty element: a
 * void one or one closed by "/>". */
static int lone_empty_tag(struct str t)
{
	if (t.len < 3 || t.p[0] != '<' || !isalpha((unsigned char)t.p[1]))
		return 0;
	size_t close;
	int self;
	struct str name = tag_at(t.p, 0, t.len, &close, &self);
	return close == t.len - 1 && (self || is_void(name.p, name.len));
}

/* quoted_code_tally: a fence opened inside a block quote on the line
 * ls..le (at in[i]), counted once for the parity check; *qch and *qlen
 * keep the open one (its lines are copied as they are elsewhere). */
static void quoted_code_tally(struct kd *k, const char *ls, const char *le, size_t i, char *qch, size_t *qlen)
{
	const char *q = ls;
	int quoted = 0;
	while (q < le && (*q == ' ' || *q == '>'))
		quoted |= *q++ == '>';
	char c;
	size_t n;
	if (!quoted)
		return;
	if (*qch && fence_close(q, le, *qch, *qlen))
		*qch = 0;
	else if (!*qch && fence_open(q, le, &c, &n)) {
		tally(k, IMP_CODE, i);
		*qch = c;
		*qlen = n;
	}
}

/* delimiter_row: whether t is a table's delimiter row (|---|:--:|). */
static int delimiter_row(struct str t)
{
	int dash = 0;
	for (size_t q = 0; q < t.len; q++) {
		if (t.p[q] == '-')
			dash = 1;
		else if (t.p[q] != '|' && t.p[q] != ':' && t.p[q] != ' ' && t.p[q] != '\t' && t.p[q] != '\r')
			return 0;
	}
	return dash;
}

/* row_cells: the cells of a table row t (between unescaped '|', an
 * outer one at either end not counted) */
static size_t row_cells(struct str t)
{
	size_t a = 0, b = t.len, n = 1;
	if (a < b && t.p[a] == '|')
		a++;
	if (b > a && t.p[b - 1] == '|' && (b < 2 || t.p[b - 2] != '\\'))
		b--;
	for (size_t q = a; q < b; q++)
		if (t.p[q] == '|' && (q == 0 || t.p[q - 1] != '\\'))
			n++;
	return n;
}

/* table_head: a kramdown table whose first line (t, the next line at
 * in[next]) has no delimiter row below it: kramdown makes every row a
 * body row, and CommonMark no table at all. An empty header row and a
 * delimiter row, written before it, make it a table of the same rows. */
static void table_head(struct kd *k, struct str t, size_t next)
{
	struct str nt = next < k->n ? trimmed(k->in + next, line_end(k->in, k->n, next)) : (struct str){"", 0};
	if (delimiter_row(nt) || delimiter_row(t))
		return;
	size_t cols = 0;
	for (size_t q = 1; q < t.len; q++)
		if (t.p[q] == '|' && t.p[q - 1] != '\\')
			cols++;
	if (t.len > 1 && t.p[t.len - 1] != '|')
		cols++;
	if (!cols || cols > 64)
		return;
	for (int row = 0; row < 2; row++) {
		buf_putc(k->out, '|');
		for (size_t c = 0; c < cols; c++)
			buf_puts(k->out, row ? "---|" : " |");
		buf_putc(k->out, '\n');
	}
	kd_note(k, "kramdown table", (size_t)(t.p - k->in),
		"a table without a delimiter row: an empty header row written above it, as CommonMark needs one%.*s", "",
		0);
}

/* escaped_paren_math: kramdown's \\( ... \\) (or \\[ ... \\]) at in[i],
 * on one line (to e): kramdown writes \( ... \), which MathJax typesets
 * in the page; folio's math is $...$ (or $$...$$). Where the scan goes on,
 * or 0 when it is not one. */
static size_t escaped_paren_math(struct kd *k, size_t i, size_t e)
{
	const char *p = k->in + i;
	if (i + 4 > e || p[1] != '\\' || (p[2] != '(' && p[2] != '['))
		return 0;
	const char *close = memmem(p + 3, e - i - 3, p[2] == '(' ? "\\\\)" : "\\\\]", 3);
	if (!close)
		return 0;
	struct str m = trimmed(p + 3, close);
	if (!m.len)
		return 0;
	int display = p[2] == '[';
	buf_puts(k->out, display ? "$$" : "$");
	buf_put_str(k->out, m);
	buf_puts(k->out, display ? "$$" : "$");
	tally(k, display ? IMP_DISPLAY : IMP_INLINE, i);
	if (cap_take(k->caps, "kramdown escaped math"))
		kd_note(k, "kramdown escaped math", i,
			"'\\\\(...\\\\)' (MathJax's math once kramdown unescapes it) written as $...$%.*s", "", 0);
	return (size_t)(close - k->in) + 3;
}

/* hugo_math_tally: an inline formula of Goldmark's passthrough (or of
 * MathJax's, configured with $ as a delimiter) at in[i]
 * (\( ... \), or $ ... $ between non-blanks), counted for the parity
 * check (the text is copied as it is). */
static void hugo_math_tally(struct kd *k, size_t i, size_t e)
{
	const char *p = k->in + i, *c = NULL;
	if (i < k->hmath_end || i + 2 >= e)
		return;
	if (p[0] == '\\' && p[1] == '(')
		c = memmem(p + 2, e - i - 2, "\\)", 2);
	else if (p[0] == '$' && p[1] != '$' && p[1] != ' ' && (i == 0 || (p[-1] != '$' && p[-1] != '\\'))) {
		c = memchr(p + 1, '$', e - i - 1);
		if (c && (c[-1] == ' ' || c[-1] == '\\' || (c + 1 < k->in + e && c[1] == '$')))
			c = NULL;
	}
	if (c && !k->c->hugo && !k->c->dollar) {
		/* kramdown's text, a formula to folio: counted apart (the
		 * parity check's "pairs"), and said */
		if (p[0] != '$' || (c + 1 < k->in + e && isdigit((unsigned char)c[1])))
			return; /* \( is kramdown's escape; "$5 and $6" is text to folio too */
		k->c->counts->pairs++;
		k->hmath_end = (size_t)(c - k->in) + 1;
		kd_note(k, "dollar pair", i,
			"'%.*s' is text to kramdown and a formula to folio: write \\$ to keep it text", p,
			(size_t)(c + 1 - p) > 60 ? 60 : (size_t)(c + 1 - p));
		return;
	}
	if (c) {
		tally(k, IMP_INLINE, i);
		k->hmath_end = (size_t)(c - k->in) + 1;
	}
}

/* bare_url: a bare address at in[i] (to e, the line's end) as GitHub's
 * Markdown, which folio's is, links it (http://, https:// or www. and a
 * letter or digit; www. at the line's start or after a blank, *, _, ~ or
 * "(", a scheme after anything but the "(" of a link's address): counted
 * once for the parity check,
 * as a link where the old Markdown links it too (Goldmark's linkify, on
 * by default in Hugo), else as a link only folio's page has (kramdown). */
static void bare_url(struct kd *k, size_t i, size_t e)
{
	const char *p = k->in + i;
	if (i < k->bare_end || (i > 1 && p[-1] == '(' && p[-2] == ']') || (i > 0 && (p[-1] == '<' || p[-1] == '/')))
		return;
	size_t sl = e - i > 8 && !strncmp(p, "https://", 8) ? 8 : e - i > 7 && !strncmp(p, "http://", 7) ? 7
		    : e - i > 4 && !strncmp(p, "www.", 4) ? 4 : 0;
	/* www. only after a blank, *, _, ~ or (; a scheme after anything */
	if (!sl || !isalnum((unsigned char)p[sl]) || (sl == 4 && i > 0 && !strchr(" \t*_~(", p[-1])))
		return;
	size_t end = i + sl;
	while (end < e && !isspace((unsigned char)k->in[end]) && k->in[end] != '<')
		end++;
	k->bare_end = end;
	if (k->c->hugo)
		tally(k, IMP_LINKS, i);
	else
		k->c->counts->bare++;
}

/* bare_email: the '@' at in[i] (to e) of a bare e-mail address, which
 * GitHub's Markdown links ("x.y@example.org": a name of letters, digits
 * and ._+-, a domain with a dot): counted as bare_url counts. */
static void bare_email(struct kd *k, size_t i, size_t e)
{
	size_t a = i;
	while (a > 0 && (isalnum((unsigned char)k->in[a - 1]) || strchr("._+-", k->in[a - 1])))
		a--;
	if (a == i || a < k->bare_end)
		return;
	size_t z = i + 1, dot = 0;
	while (z < e && (isalnum((unsigned char)k->in[z]) || k->in[z] == '-' || k->in[z] == '_' ||
			 (k->in[z] == '.' && z + 1 < e && isalnum((unsigned char)k->in[z + 1]))))
		dot |= k->in[z++] == '.';
	if (!dot || z == i + 1)
		return;
	k->bare_end = z;
	if (k->c->hugo)
		tally(k, IMP_LINKS, a);
	else
		k->c->counts->bare++;
}

/* html_step: the byte at in[i] (of a line ending at e) as HTML: a tag's
 * start (counted, and with fix_empty a self-closing "<a ... />" noted for
 * its end tag), its end, an attribute whose URL is resolved, or a byte
 * copied; *in_tag says whether a tag is open. Returns where the scan goes
 * on. */
static size_t html_step(struct kd *k, size_t i, size_t e, int *in_tag, int fix_empty)
{
	char ch = k->in[i];
	size_t to;
	if (ch == '<' && i + 1 < e && isalpha((unsigned char)k->in[i + 1])) {
		size_t close;
		int self;
		struct str name = tag_at(k->in, i, e, &close, &self);
		k->in_a = 0;
		tally_tag(k, name.p, name.len, i);
		if (fix_empty && self && is_html_container(name.p, name.len)) {
			k->selfclose = close - 1;
			k->selfname = name;
		}
		*in_tag = 1;
	} else if (ch == '>') {
		*in_tag = 0;
	} else if (*in_tag && strchr("shpdSHPD", ch) && i > 0 && isspace((unsigned char)k->in[i - 1]) &&
		   (to = attr_url(k, i, e))) {
		return to;
	}
	buf_putc(k->out, ch);
	return i + 1;
}

/* inline_line: one line (outside code) of in[i..e), with math, attribute
 * lists, MathJax scripts and URLs; returns where the scan goes on (past
 * a comment, a formula or a script that spans lines). */
static size_t inline_line(struct kd *k, size_t i, size_t e)
{
	/* inside an HTML tag (its attributes may name files) */
	int in_tag = k->in_tag;
	/* a line that starts with a tag: raw HTML, where no Markdown links
	 * a bare address */
	size_t f = i;
	while (f < e && (k->in[f] == ' ' || k->in[f] == '\t'))
		f++;
	int raw = f < e && k->in[f] == '<' && f + 1 < e && (isalpha((unsigned char)k->in[f + 1]) || k->in[f + 1] == '/');
	while (i < e) {
		char ch = k->in[i];
		size_t to = 0;
		if (i == k->selfclose) {
			/* "<a name=x />": kramdown's empty element, HTML's open one */
			while (k->out->len && k->out->p[k->out->len - 1] == ' ')
				k->out->len--;
			buf_printf(k->out, "></%.*s>", (int)k->selfname.len, k->selfname.p);
			kd_note(k, "kramdown empty element", i, "'<%.*s ... />' written with its end tag, as kramdown reads it",
				k->selfname.p, k->selfname.len);
			k->selfclose = (size_t)-1;
			in_tag = 0;
			i += 2;
			continue;
		}
		if (ch == '`') {
			i = code_span(k, i, e);
			continue;
		}
		if (k->c->counts && !in_tag && (k->c->hugo || k->c->dollar || ch == '$'))
			hugo_math_tally(k, i, e);
		if (!in_tag && !raw && k->c->counts && (ch == 'h' || ch == 'w'))
			bare_url(k, i, e);
		if (!in_tag && !raw && k->c->counts && ch == '@')
			bare_email(k, i, e);
		if (!in_tag && k->c->counts && ch == '<' && e - i > 8 &&
		    (!strncmp(k->in + i + 1, "http://", 7) || !strncmp(k->in + i + 1, "https://", 8))) {
			/* <http://...>: a link to both Markdowns */
			size_t q = i + 1;
			while (q < e && k->in[q] != '>' && k->in[q] != ' ' && k->in[q] != '<')
				q++;
			if (q < e && k->in[q] == '>') {
				tally(k, IMP_LINKS, i);
				k->bare_end = q;
			}
		}
		if (ch == '<' && i + 3 < e && !memcmp(k->in + i, "<!--", 4))
			to = html_comment(k, i, e);
		else if (ch == '\\' && k->c->mathjax && !k->c->hugo && (to = escaped_paren_math(k, i, e)))
			;
		else if (ch == '\\' && i + 1 < e)
			buf_append(k->out, k->in + i, 2), to = i + 2;
		else if (ch == '$' && i + 1 < e && k->in[i + 1] == '$' && !k->c->hugo)
			to = dollar_math(k, i);
		if (to) {
			if (to > e)
				return to;
			i = to;
			continue;
		}
		if (ch == '{' && i + 1 < e && k->in[i + 1] == ':' && !k->c->hugo) {
			const char *c = memchr(k->in + i, '}', e - i);
			if (c) {
				kd_note(k, "kramdown attribute list", i, "'%.*s' dropped", k->in + i,
					(size_t)(c + 1 - (k->in + i)));
				/* the blank before it goes too */
				while (k->out->len && k->out->p[k->out->len - 1] == ' ' &&
				       (size_t)(c + 1 - k->in) >= e)
					k->out->len--;
				i = (size_t)(c - k->in) + 1;
				continue;
			}
		}
		if (ch == '<' && e - i > 20 && !strncasecmp(k->in + i, "<script type=\"math/tex", 22) &&
		    (to = mathjax(k, i, e)))
			return to;
		if (ch == '<' && e - i > 8 && !strncasecmp(k->in + i, "<script", 7) && (to = mathjax_loader(k, i, e)))
			return to;
		if (ch == ']' && i + 1 < e && k->in[i + 1] == '(' && (to = md_link(k, i, e))) {
			i = to;
			continue;
		}
		i = html_step(k, i, e, &in_tag, 1);
	}
	k->in_tag = in_tag;
	return e;
}

/* hugo_fence_attrs: a fence line of Goldmark with attributes,
 * ```go {linenos=table,hl_lines=[2,"4-5"],linenostart=10}, as folio's
 * options: linenos, hl="2,4-5", start=10; the others are dropped and
 * reported. ls..br is the fence and language, br..le the braces. */
static void hugo_fence_attrs(struct kd *k, const char *ls, const char *br, const char *le, size_t at)
{
	buf_append(k->out, ls, (size_t)(br - ls));
	struct buf o;
	buf_init(&o);
	const char *p = br + 1, *e = le - 1;
	while (p < e) {
		while (p < e && (*p == ',' || *p == ' '))
			p++;
		const char *k0 = p;
		while (p < e && *p != '=' && *p != ',' && *p != ' ')
			p++;
		struct str key = {k0, (size_t)(p - k0)}, val = {p, 0};
		if (p < e && *p == '=') {
			p++;
			const char *v0 = p;
			int depth = 0;
			char q = 0;
			while (p < e && (depth || q || (*p != ',' && *p != ' '))) {
				if (q) {
					if (*p == q)
						q = 0;
				} else if (*p == '"' || *p == '\'')
					q = *p;
				else if (*p == '[')
					depth++;
				else if (*p == ']')
					depth--;
				p++;
			}
			val = (struct str){v0, (size_t)(p - v0)};
		}
		if (!key.len)
			continue;
		if (str_eq_cstr(key, "linenos")) {
			if (!str_eq_cstr(val, "false"))
				buf_puts(&o, o.len ? " linenos" : "linenos");
		} else if (str_eq_cstr(key, "hl_lines")) {
			buf_puts(&o, o.len ? " hl=\"" : "hl=\"");
			int sep = 0;
			for (size_t i = 0; i < val.len; i++) {
				char c = val.p[i];
				if (isdigit((unsigned char)c) || c == '-') {
					if (sep && o.p[o.len - 1] != '"')
						buf_putc(&o, ',');
					sep = 0;
					buf_putc(&o, c);
				} else
					sep = 1;
			}
			buf_putc(&o, '"');
		} else if (str_eq_cstr(key, "hl") || str_eq_cstr(key, "start")) {
			/* folio's own (a highlight shortcode's, written by pass one) */
			buf_printf(&o, "%s%.*s=%.*s", o.len ? " " : "", (int)key.len, key.p, (int)val.len, val.p);
		} else if (str_eq_cstr(key, "file") || str_eq_cstr(key, "title")) {
			/* a render hook's file name: folio's caption */
			buf_printf(&o, "%stitle=%.*s", o.len ? " " : "", (int)val.len, val.p);
		} else if (str_eq_cstr(key, "linenostart")) {
			buf_printf(&o, "%sstart=%.*s", o.len ? " " : "", (int)val.len, val.p);
		} else
			kd_note(k, "Hugo code block option", at, "'%.*s' dropped", key.p, key.len);
	}
	if (o.len) {
		buf_putc(k->out, '{');
		buf_append(k->out, o.p, o.len);
		buf_putc(k->out, '}');
	} else
		while (k->out->len && k->out->p[k->out->len - 1] == ' ')
			k->out->len--;
	buf_fini(&o);
}

/* kcomment_line: a line ls..le (next: the next line's start) inside
 * {::comment}: the comment's text, with no "--"; 1 when {:/comment} ends
 * it on this line. */
static int kcomment_line(struct kd *k, const char *ls, const char *le, size_t next)
{
	const char *c = memmem(ls, (size_t)(le - ls), "{:/comment}", 11);
	if (c) {
		buf_append(k->out, ls, (size_t)(c - ls));
		buf_puts(k->out, "-->");
		buf_append(k->out, c + 11, next - (size_t)(c + 11 - k->in));
		return 1;
	}
	for (const char *p = ls; p < k->in + next; p++)
		if (*p == '-' && p + 1 < le && p[1] == '-')
			buf_puts(k->out, "- ");
		else
			buf_putc(k->out, *p);
	return 0;
}

/* quoted_fence: Hugo's fence with attributes in a block quote or a list
 * (line ls..le, at i; next: the next line's start): its attributes made
 * folio's (the fence itself is left to Markdown). 1 when the line is
 * one. */
static int quoted_fence(struct kd *k, const char *ls, const char *le, size_t i, size_t next)
{
	const char *q = ls;
	char ch;
	size_t len;
	while (q < le && (*q == ' ' || *q == '>' || *q == '\t'))
		q++;
	const char *br = q > ls ? memchr(q, '{', (size_t)(le - q)) : NULL;
	if (!br || le[-1] != '}' || !memchr(ls, '>', (size_t)(q - ls)) || !fence_open(q, le, &ch, &len))
		return 0;
	hugo_fence_attrs(k, ls, br, le, i);
	buf_append(k->out, le, next - (size_t)(le - k->in));
	return 1;
}

/* kd_extension: a line t (at i) that is one of kramdown's own: the start
 * of {::comment} (*in_comment set), {::nomarkdown}, an attribute list or
 * {:toc} (a list item "TOC" just before it, the line of out at prev_out,
 * goes with it; line_out: where this line's output starts). 1 when it
 * is one (written or dropped). */
static int kd_extension(struct kd *k, struct str t, size_t i, size_t prev_out, size_t line_out, int *in_comment)
{
	if (t.len == 11 && !memcmp(t.p, "{::comment}", 11)) {
		buf_puts(k->out, "<!--\n");
		*in_comment = 1;
		kd_note(k, "kramdown extension", i, "'%.*s' kept as an HTML comment", t.p, t.len);
		return 1;
	}
	if ((t.len == 14 && !memcmp(t.p, "{::nomarkdown}", 14)) || (t.len == 14 && !memcmp(t.p, "{:/nomarkdown}", 14))) {
		kd_note(k, "kramdown extension", i, "'%.*s' dropped (its HTML is kept)", t.p, t.len);
		return 1;
	}
	if (!is_ial_line(t))
		return 0;
	int toc = t.len == 6 && !memcmp(t.p, "{:toc}", 6);
	if (toc && prev_out < line_out) {
		const char *pe = k->out->p + line_out;
		while (pe > k->out->p + prev_out && (pe[-1] == '\n' || pe[-1] == '\r'))
			pe--;
		struct str pt = trimmed(k->out->p + prev_out, pe);
		if (pt.len >= 5 && !memcmp(pt.p + pt.len - 3, "TOC", 3) && is_list_item(pt))
			k->out->len = prev_out;
		kd_note(k, "kramdown table of contents", i, "'%.*s' dropped: folio makes a table of contents itself",
			t.p, t.len);
	} else
		kd_note(k, "kramdown attribute list", i, "'%.*s' dropped", t.p, t.len);
	return 1;
}

/* link_ref_def: a link reference definition, [id]: URL "title", in
 * line ls (trimmed t; next: the next line's start), its URL resolved.
 * 1 when the line is one. */
static int link_ref_def(struct kd *k, const char *ls, struct str t, size_t next)
{
	const char *rb = memchr(t.p, ']', t.len);
	if (!rb || rb + 2 >= t.p + t.len || rb[1] != ':' || (rb[2] != ' ' && rb[2] != '\t'))
		return 0;
	const char *u = rb + 2;
	while (u < t.p + t.len && (*u == ' ' || *u == '\t'))
		u++;
	const char *ue = u;
	while (ue < t.p + t.len && !isspace((unsigned char)*ue))
		ue++;
	if (ue > u && *u == '<' && ue[-1] == '>')
		u++, ue--;
	int missing = 0;
	buf_append(k->out, ls, (size_t)(u - ls));
	put_url(k, u, (size_t)(ue - u), 0, (size_t)(u - k->in), &missing);
	buf_append(k->out, ue, next - (size_t)(ue - k->in));
	return 1;
}

/* kramdown: pass two, in -> out, line by line. A single state machine
 * over the block a line is in (a fence, {::comment}, $$ display math,
 * indented code, a list, a paragraph): the state is these few flags, and
 * each line either moves it or is written through inline_line. */
static void kramdown(struct kd *k)
{
	size_t i = 0;
	char fch = 0;
	size_t flen = 0;
	int blank_before = 1;  /* the previous line was blank (a paragraph may start) */
	int in_display = 0;    /* inside a $$ display block */
	size_t display_indent = 0; /* its list item's content column (0: none) */
	int prev_table = 0;        /* the line before was a table's */
	char qfch = 0;             /* a fence open inside a block quote */
	size_t qflen = 0;
	int in_kcomment = 0;   /* inside {::comment} */
	int prev_code = 0;     /* the previous line was indented code */
	int in_list = 0;       /* a list item came since the last unindented paragraph */
	size_t list_col = 0;   /* the text column of the last list item */
	size_t fbase = 0;      /* the open fence's list item column (0: none) */
	const char *raw_end = NULL; /* inside <script> or <style>: its end tag */
	const char *raw_next = NULL; /* this line opens one: its end tag */
	int md_open = 0; /* elements open with kramdown's markdown="1" */
	int hugo_dd = 0; /* inside a $$ block of a Hugo page (counted) */
	int prev_text = 0; /* the line before was a paragraph's text */
	size_t prev_line_out = 0; /* where the previous output line starts */
	while (i < k->n) {
		const char *ls = k->in + i, *le = line_end(k->in, k->n, i);
		size_t next = (size_t)(le - k->in) + (le < k->in + k->n);
		size_t line_out = k->out->len;
		int was_text = prev_text; /* set again below for a line of text */
		prev_text = 0;
		struct str t = trimmed(ls, le);
		char ch;
		size_t len;
		if (fch) {
			size_t sp = 0;
			while (sp < fbase && ls + sp < le && ls[sp] == ' ')
				sp++;
			if (fence_close(ls + sp, le, fch, flen))
				fch = 0;
			buf_append(k->out, ls, next - i);
			i = next;
			blank_before = 0;
			prev_line_out = line_out;
			continue;
		}
		if (in_kcomment) {
			if (kcomment_line(k, ls, le, next))
				in_kcomment = 0;
			i = next;
			continue;
		}
		/* a <script> or <style> element over several lines: raw text to
		 * both Markdowns, whatever its blank lines and indents */
		if (raw_next) {
			raw_end = raw_next;
			raw_next = NULL;
		}
		if (raw_end) {
			if (has_nocase(ls, (size_t)(le - ls), raw_end, strlen(raw_end)))
				raw_end = NULL;
			buf_append(k->out, ls, next - i);
			i = next;
			blank_before = 0;
			prev_code = 0;
			prev_line_out = line_out;
			continue;
		}
		/* the line itself goes on as any other; after a line of HTML it
		 * would be inside that HTML block, which its first blank line
		 * ends (kramdown reads the element whole): a blank line first */
		if (lone_raw_open(ls, le, &raw_next) && k->out->len && k->out->p[k->out->len - 1] == '\n' &&
		    !(k->out->len >= 2 && k->out->p[k->out->len - 2] == '\n') && !blank_before) {
			buf_putc(k->out, '\n');
			kd_note(k, "kramdown HTML line", i,
				"a blank line added before '%.*s', so that the element is read whole, as kramdown reads it",
				raw_next[2] == 's' && raw_next[3] == 'c' ? "<script>" : "<style>",
				raw_next[2] == 's' && raw_next[3] == 'c' ? 8 : 7);
		}
		if (k->c->counts)
			quoted_code_tally(k, ls, le, i, &qfch, &qflen);
		if (in_display) {
			if (memmem(ls, (size_t)(le - ls), "$$", 2)) {
				in_display = 0;
				struct str nt = next < k->n ? trimmed(k->in + next, line_end(k->in, k->n, next))
							    : (struct str){"", 0};
				if (lone_block_tag(nt, 1)) {
					/* </div> right below: its own block, after a blank */
					buf_append(k->out, ls, next - i);
					buf_putc(k->out, '\n');
					i = next;
					continue;
				}
			}
			/* a formula opened in a list item: kramdown reads its lines
			 * as the item's whatever their indent; CommonMark needs
			 * them at the item's content column */
			size_t sp = 0;
			while (ls + sp < le && ls[sp] == ' ')
				sp++;
			if (ls + sp < le && sp < display_indent) {
				for (size_t q = sp; q < display_indent; q++)
					buf_putc(k->out, ' ');
				if (cap_take(k->caps, "kramdown math in a list item"))
					kd_note(k, "kramdown math in a list item", i,
						"a line of the formula is indented to its list item's text, as kramdown reads it%.*s",
						"", 0);
			}
			buf_append(k->out, ls, next - i);
			i = next;
			continue;
		}
		if (k->c->hugo && quoted_fence(k, ls, le, i, next)) {
			i = next;
			continue;
		}
		size_t lsp = 0;
		while (ls + lsp < le && ls[lsp] == ' ')
			lsp++;
		if (in_list && lsp >= 4 && lsp >= list_col && lsp - list_col < 4 &&
		    fence_open(ls + list_col, le, &ch, &len)) {
			/* a fence in a list item's text, indented 4 or more */
			tally(k, IMP_CODE, i);
			fch = ch;
			flen = len;
			fbase = list_col;
			prev_code = 0;
			buf_append(k->out, ls, next - i);
			i = next;
			prev_line_out = line_out;
			continue;
		}
		if (fence_open(ls, le, &ch, &len)) {
			tally(k, IMP_CODE, i);
			fch = ch;
			flen = len;
			fbase = 0;
			prev_code = 0; /* indented code after the fence is a new block */
			if (in_list && lsp < list_col)
				in_list = 0; /* left of the item's text: the list has ended */
			const char *br = k->c->hugo ? memchr(ls, '{', (size_t)(le - ls)) : NULL;
			if (br && le[-1] == '}') {
				hugo_fence_attrs(k, ls, br, le, i);
				buf_append(k->out, le, next - (size_t)(le - k->in));
			} else
				buf_append(k->out, ls, next - i);
			i = next;
			prev_line_out = line_out;
			continue;
		}
		if (!t.len) {
			buf_append(k->out, ls, next - i);
			i = next;
			blank_before = 1;
			prev_table = 0;
			continue;
		}
		size_t ind = 0; /* in columns: a tab goes to the next multiple of 4 */
		for (const char *q = ls; q < t.p; q++)
			ind = *q == '\t' ? (ind + 4) / 4 * 4 : ind + 1;
		/* indented code: 4 columns past the text of the list item it is
		 * in, if any */
		if (ind >= (in_list ? list_col + 4 : 4) && (blank_before || prev_code)) {
			if (!prev_code)
				tally(k, IMP_CODE, i);
			buf_append(k->out, ls, next - i);
			i = next;
			prev_code = 1;
			blank_before = 0;
			continue;
		}
		prev_code = 0;
		if (ind == 0 && !is_list_item(t) && blank_before)
			in_list = 0;
		if (is_list_item(t) && (ind < 4 || (in_list && ind < list_col + 4))) {
			in_list = 1; /* and a list in its item */
			list_col = item_col(t, ind);
		}
		if (!k->c->hugo && kd_extension(k, t, i, prev_line_out, line_out, &in_kcomment)) {
			i = next;
			continue;
		}
		if (!k->c->hugo && ind < 4 && md_block_tag(k, t, i, &md_open)) {
			i = next;
			blank_before = 1;
			continue;
		}
		struct str mt = t;
		int item = is_list_item(t);
		if (item) {
			/* a list item's paragraph may be a formula too */
			while (mt.len && mt.p[0] != ' ')
				mt.p++, mt.len--;
			while (mt.len && mt.p[0] == ' ')
				mt.p++, mt.len--;
		}
		t = mt;
		if ((blank_before || item) && t.len >= 2 && t.p[0] == '$' && t.p[1] == '$') {
			/* a paragraph that opens with $$: display math when the
			 * formula is the whole paragraph, as kramdown decides */
			const char *c2 = memmem(t.p + 2, t.len - 2, "$$", 2);
			if (!c2 || c2 + 2 == t.p + t.len) {
				tally(k, IMP_DISPLAY, i);
				in_display = !c2;
				display_indent = item ? (size_t)(t.p - ls) : 0;
				buf_append(k->out, ls, next - i);
				i = next;
				blank_before = 0;
				continue;
			}
		}
		struct str nl;
		/* a table's row indented 4 spaces or more: a row to kramdown and
		 * Goldmark, indented code to CommonMark once the table ends */
		int deep_row = prev_table && ind >= 4 && memchr(t.p, '|', t.len);
		/* headings and tables, as the source's Markdown reads them: an
		 * ATX heading; a table's first line of cells (kramdown needs no
		 * delimiter row, CommonMark does) */
		if (ind < 4 && t.p[0] == '#') {
			size_t h = 0;
			while (h < t.len && t.p[h] == '#')
				h++;
			if (h <= 6 && (h == t.len || t.p[h] == ' ' || t.p[h] == '\t'))
				tally(k, IMP_HEADINGS, i);
		}
		/* a setext heading: a line of = or - under a line of text */
		int text_line = ind < 4 && !item && t.p[0] != '#' && t.p[0] != '<' && t.p[0] != '|' &&
				!strspn(t.p, "=-*_");
		if (ind < 4 && was_text && (t.p[0] == '=' || t.p[0] == '-') && strspn(t.p, t.p[0] == '=' ? "=" : "-") == t.len)
			tally(k, IMP_HEADINGS, i);
		prev_text = text_line;
		if (k->c->hugo && ind < 4 && t.len >= 2 && t.p[0] == '\\' && t.p[1] == '[')
			tally(k, IMP_DISPLAY, i);
		/* $$ on a line of its own, for a Hugo site whose pages typeset
		 * it in the browser (KaTeX's auto-render, MathJax) */
		if (k->c->hugo && k->c->mathjax && ind < 4 && t.len >= 2 && t.p[0] == '$' && t.p[1] == '$') {
			if (!hugo_dd)
				tally(k, IMP_DISPLAY, i);
			if (t.len == 2 || !memmem(t.p + 2, t.len - 2, "$$", 2))
				hugo_dd = !hugo_dd;
		}
		/* Goldmark, as GitHub's Markdown: a table is a header row, then a
		 * delimiter row of as many cells; kramdown needs neither */
		nl = next < k->n ? trimmed(k->in + next, line_end(k->in, k->n, next)) : (struct str){"", 0};
		int gfm_head = delimiter_row(nl) && memchr(nl.p, '|', nl.len) && row_cells(t) == row_cells(nl);
		if (ind < 4 && t.p[0] == '|' && !prev_table && (!k->c->hugo || gfm_head)) {
			tally(k, IMP_TABLES, i);
			if (!k->c->hugo)
				table_head(k, t, next);
		} else if (ind < 4 && !prev_table && memchr(t.p, '|', t.len) && next < k->n && gfm_head) {
			/* a table whose rows do not start with '|': its header row,
			 * then its delimiter row */
			tally(k, IMP_TABLES, i);
			prev_table = 1;
		}
		prev_table = (ind < 4 && t.p[0] == '|') || (prev_table && memchr(t.p, '|', t.len));
		/* a line of one empty element (<br/>, <a name=x />) opens an HTML
		 * block in CommonMark, which swallows the Markdown below it to the
		 * next blank line; kramdown reads on */
		int empty_tag = blank_before && !item && ind < 4 && lone_empty_tag(t);
		/* <div> alone, then $$ math: MathJax typesets the TeX in the HTML,
		 * folio only outside it */
		int math_tag = blank_before && !item && ind < 4 && lone_block_tag(t, 0);
		/* </div> alone, then Markdown: kramdown ends the element there,
		 * CommonMark's HTML block runs on to the next blank line */
		int end_tag = !item && ind < 4 && lone_block_tag(t, 1);
		/* <br/> right below a list item's text: to kramdown, part of its
		 * paragraph; to CommonMark, a lazy line no more (an HTML block
		 * ends the list there): written at the item's text column */
		if (in_list && !blank_before && ind < list_col && lone_empty_tag(t) && prev_line_out < line_out) {
			for (size_t q = ind; q < list_col; q++)
				buf_putc(k->out, ' ');
			if (cap_take(k->caps, "kramdown HTML line"))
				kd_note(k, "kramdown HTML line", i,
					"'%.*s' below a list item's text is indented to it, as kramdown reads it in the item",
					t.p, t.len);
		}
		blank_before = 0;
		prev_line_out = line_out;
		if (ind < 4 && t.p[0] == '[' && t.p[1] != '^' && link_ref_def(k, ls, t, next)) {
			if (k->c->counts)
				k->c->counts->ref_defs++;
			i = next;
			continue;
		}
		if (deep_row && cap_take(k->caps, "table row indented"))
			kd_note(k, "table row indented", i,
				"a table row indented 4 spaces or more, written without its indent, as a row%.*s", "", 0);
		i = inline_line(k, deep_row ? (size_t)(t.p - k->in) : i, (size_t)(le - k->in));
		if (i > (size_t)(le - k->in)) {
			/* a comment or a script ran over lines: the blanks left of
			 * its last line end that line (no blank line of its own) */
			size_t q = i;
			while (q < k->n && (k->in[q] == ' ' || k->in[q] == '\t' || k->in[q] == '\r'))
				q++;
			if (q == k->n || k->in[q] == '\n') {
				q += q < k->n;
				buf_append(k->out, k->in + i, q - i);
				i = q;
			}
		}
		if (i == (size_t)(le - k->in) && le < k->in + k->n) {
			buf_putc(k->out, '\n');
			i++;
			struct str nt = i < k->n ? trimmed(k->in + i, line_end(k->in, k->n, i)) : (struct str){"", 0};
			int math_next = nt.len >= 2 && ((nt.p[0] == '$' && nt.p[1] == '$') || (nt.p[0] == '\\' && nt.p[1] == '['));
			if (((empty_tag || end_tag) && nt.len && nt.p[0] != '<') || (math_tag && math_next)) {
				buf_putc(k->out, '\n');
				blank_before = 1;
				kd_note(k, "kramdown HTML line", (size_t)(t.p - k->in),
					"a blank line added after '%.*s', so that the Markdown below it is read, as kramdown "
					"reads it",
					t.p, t.len);
			}
		}
	}
}

/* ---- Hugo: shortcodes ---- */

/* A shortcode {{< name args >}} or {{% name args %}}: its name, its
 * arguments (positional and key=value, quotes removed) and its end. */
struct sc {
	struct str name;
	struct str pos[8];
	struct str key[8], val[8];
	int npos, nkv;
	int closing; /* {{< /name >}} */
	int self;    /* {{< name />}} */
	size_t start, end;
};

static struct str sc_arg(const struct sc *c, const char *key, int pos)
{
	size_t kl = strlen(key);
	for (int i = 0; i < c->nkv; i++)
		if (c->key[i].len == kl && !memcmp(c->key[i].p, key, kl))
			return c->val[i];
	if (pos >= 0 && pos < c->npos)
		return c->pos[pos];
	return (struct str){NULL, 0};
}

/* parse_sc: the shortcode at in[i] ("{{<" or "{{%"); 0 when it is not one
 * (no closing mark within LQ_TAG_MAX bytes, or a blank line before it). */
static int parse_sc(struct lq *s, size_t i, struct sc *c, struct marks *mk)
{
	int gt = s->in[i + 2] == '<';
	size_t at = find_from(s->in, s->n, i + 3, gt ? ">}}" : "%}}", 3, gt ? &mk->gt : &mk->pct2);
	if (at >= s->n || at - i > LQ_TAG_MAX || find_from(s->in, s->n, i, "\n\n", 2, &mk->blank) < at)
		return 0;
	const char *e = s->in + at;
	memset(c, 0, sizeof *c);
	c->start = i;
	c->end = (size_t)(e - s->in) + 3;
	const char *p = s->in + i + 3, *q = e;
	while (p < q && isspace((unsigned char)*p))
		p++;
	while (q > p && isspace((unsigned char)q[-1]))
		q--;
	if (q > p && q[-1] == '/') {
		c->self = 1;
		q--;
	}
	if (p < q && *p == '/') {
		c->closing = 1;
		p++;
		while (p < q && isspace((unsigned char)*p))
			p++;
	}
	const char *n0 = p;
	while (p < q && !isspace((unsigned char)*p))
		p++;
	c->name = (struct str){n0, (size_t)(p - n0)};
	while (p < q) {
		while (p < q && isspace((unsigned char)*p))
			p++;
		if (p >= q)
			break;
		const char *k0 = p, *k1 = NULL;
		while (p < q && !isspace((unsigned char)*p) && *p != '=' && *p != '"' && *p != '`')
			p++;
		if (p < q && *p == '=') {
			k1 = p;
			p++;
		} else
			p = k0;
		struct str v;
		if (p < q && (*p == '"' || *p == '`')) {
			char qc = *p++;
			const char *v0 = p;
			while (p < q && *p != qc)
				p += *p == '\\' && qc == '"' && p + 1 < q ? 2 : 1;
			v = (struct str){v0, (size_t)(p - v0)};
			if (p < q)
				p++;
		} else {
			const char *v0 = p;
			while (p < q && !isspace((unsigned char)*p))
				p++;
			v = (struct str){v0, (size_t)(p - v0)};
		}
		if (k1 && c->nkv < 8) {
			c->key[c->nkv] = (struct str){k0, (size_t)(k1 - k0)};
			c->val[c->nkv++] = v;
		} else if (!k1 && c->npos < 8)
			c->pos[c->npos++] = v;
	}
	return c->name.len > 0;
}

static int sc_is(const struct sc *c, const char *name)
{
	return c->name.len == strlen(name) && !memcmp(c->name.p, name, c->name.len);
}

/* find_sc_close: the {{< /name >}} after i: fills c, or 0. */
static int find_sc_close(struct lq *s, size_t i, struct str name, struct sc *c)
{
	/* one search per paired name that has no close: remembered */
	static const char *const paired[] = {"highlight", "katex", "math"};
	int slot = -1;
	for (int k = 0; k < 3; k++)
		if (str_eq_cstr(name, paired[k]))
			slot = k;
	if (slot >= 0 && s->no_close[slot] != (size_t)-1 && i >= s->no_close[slot])
		return 0;
	struct marks mk = MARKS_NONE;
	size_t from = i;
	while (i < s->n) {
		const char *p = memmem(s->in + i, s->n - i, "{{", 2);
		if (!p)
			break;
		size_t at = (size_t)(p - s->in);
		if (at + 3 < s->n && (p[2] == '<' || p[2] == '%') && parse_sc(s, at, c, &mk) && c->closing &&
		    str_eq(c->name, name))
			return 1;
		i = at + 2;
	}
	if (slot >= 0)
		s->no_close[slot] = from;
	return 0;
}

static void emit_str(struct lq *s, struct str v)
{
	emit_gen(s, v.p, v.len);
}

/* sc_highlight: {{< highlight lang "opts" >}} -> an opening fence with
 * folio's options ("linenos=table,hl_lines=8 15-17"). */
static size_t sc_highlight(struct lq *s, const struct sc *c, int line)
{
	struct str lang = sc_arg(c, "lang", 0), opts = sc_arg(c, "options", 1);
	struct sc end;
	size_t body_end = find_sc_close(s, c->end, c->name, &end) ? end.start : s->n;
	fence_begin(s, longest_fence_run(s->in, c->end, body_end));
	emit_str(s, lang);
	struct buf o;
	buf_init(&o);
	const char *p = opts.p, *e = opts.p ? opts.p + opts.len : NULL;
	while (p && p < e) {
		const char *q = memchr(p, ',', (size_t)(e - p));
		if (!q)
			q = e;
		if ((size_t)(q - p) >= 7 && !memcmp(p, "linenos", 7) && memcmp(p, "linenos=false", 13))
			buf_puts(&o, o.len ? " linenos" : "linenos");
		else if ((size_t)(q - p) > 9 && !memcmp(p, "hl_lines=", 9)) {
			buf_puts(&o, o.len ? " hl=\"" : "hl=\"");
			for (const char *v = p + 9; v < q; v++)
				if (*v == ' ') {
					if (o.p[o.len - 1] != '"' && o.p[o.len - 1] != ',')
						buf_putc(&o, ',');
				} else if (*v != '"' && *v != '[' && *v != ']')
					buf_putc(&o, *v);
			buf_putc(&o, '"');
		} else if ((size_t)(q - p) > 0)
			note(s, "Hugo highlight option", line, "highlight option '%.*s' dropped", p, (size_t)(q - p));
		p = q + 1;
	}
	fence_options(s, &o);
	size_t b = c->end;
	if (b < s->n && s->in[b] == '\n') {
		b++;
		s->line++;
	}
	return b;
}

/* sc_code_toggle: {{< code-toggle >}} (a documentation theme's: one
 * configuration shown in TOML, YAML and JSON tabs) -> a fenced code block
 * in the language it is written in; 0 when it has no closing shortcode. */
static size_t sc_code_toggle(struct lq *s, const struct sc *c, int line)
{
	struct sc end;
	if (c->self || !find_sc_close(s, c->end, c->name, &end)) /* {{< x />}}: no content */
		return 0;
	struct str body = trimmed(s->in + c->end, s->in + end.start);
	while (body.len && (body.p[0] == '\n' || body.p[0] == ' ' || body.p[0] == '\t'))
		body.p++, body.len--;
	const char *lang = body.len && body.p[0] == '{' ? "json"
			   : body.len && (body.p[0] == '[' || memmem(body.p, body.len, " = ", 3)) ? "toml"
												  : "yaml";
	fence_begin(s, longest_fence_run(s->in, c->end, end.start));
	emit_cstr(s, lang);
	struct buf o;
	buf_init(&o);
	fence_options(s, &o);
	note(s, "Hugo shortcode", line, "'%.*s' written as a code block", s->in + c->start, c->end - c->start);
	size_t b = c->end;
	if (b < s->n && s->in[b] == '\n') {
		b++;
		s->line++;
	}
	return b;
}

/* sc_math: {{< katex >}}...{{< /katex >}} (or math) -> $...$, or $$
 * display math; 0 when it has no closing shortcode. */
static size_t sc_math(struct lq *s, const struct sc *c)
{
	struct sc end;
	if (!find_sc_close(s, c->end, c->name, &end))
		return 0;
	struct str m = trimmed(s->in + c->end, s->in + end.start);
	while (m.len && (m.p[0] == '\n'))
		m.p++, m.len--;
	while (m.len && (m.p[m.len - 1] == '\n'))
		m.len--;
	int display = sc_arg(c, "display", 0).len || memchr(m.p, '\n', m.len) ||
		      (c->end < s->n && s->in[c->end] == '\n') || (m.len >= 2 && m.p[0] == '$' && m.p[1] == '$');
	while (m.len && m.p[0] == '$')
		m.p++, m.len--;
	while (m.len && m.p[m.len - 1] == '$')
		m.len--;
	emit_cstr(s, display ? "\n$$\n" : "$");
	emit_str(s, m);
	emit_cstr(s, display ? "\n$$\n" : "$");
	for (const char *p = s->in + c->end; (p = memchr(p, '\n', (size_t)(s->in + end.end - p))); p++)
		s->line++;
	return end.end;
}

/* sc_inline: an inline shortcode ({{< x.inline >}}...{{< /x.inline >}}),
 * whose content Hugo runs as a Go template: left out when it holds a
 * template action (a KaTeX loader for a page with math: folio typesets at
 * build); else its content as it is, a <p> line and a </p> line around it
 * dropped (a paragraph still, whose math folio can then typeset). 0 when
 * it has no closing shortcode. */
static size_t sc_inline(struct lq *s, const struct sc *c, int line)
{
	struct sc end;
	if (c->self || !find_sc_close(s, c->end, c->name, &end))
		return 0;
	size_t a = c->end, b = end.start;
	if (memmem(s->in + a, b - a, "{{", 2)) {
		note(s, "Hugo inline shortcode", line, "'%.*s' runs a Go template: left out, with its content",
		     s->in + c->start, c->end - c->start);
		for (const char *p = s->in + c->end; (p = memchr(p, '\n', (size_t)(s->in + end.end - p))); p++)
			s->line++;
		return end.end;
	}
	note(s, "Hugo inline shortcode", line, "'%.*s' holds no template action: its content kept as it is",
	     s->in + c->start, c->end - c->start);
	struct str t = trimmed(s->in + a, s->in + b);
	while (t.len && (t.p[0] == '\n' || t.p[0] == '\r'))
		t.p++, t.len--;
	while (t.len && (t.p[t.len - 1] == '\n' || t.p[t.len - 1] == '\r'))
		t.len--;
	if (t.len > 9 && !strncasecmp(t.p, "<p>\n", 4) && !strncasecmp(t.p + t.len - 5, "\n</p>", 5)) {
		size_t at = (size_t)(t.p - s->in);
		emit_in(s, a, at); /* the blank lines before it */
		s->line++;         /* the <p> line, left out */
		emit_in(s, at + 4, at + t.len - 4); /* the text, with its last line's end */
		for (const char *p = t.p + t.len - 4; (p = memchr(p, '\n', (size_t)(s->in + end.end - p))); p++)
			s->line++; /* the </p> line and the closing shortcode, left out */
		return end.end;
	}
	emit_in(s, a, b);
	return end.end;
}

/* emit_quoted: v for inside a Markdown title "...": each " made '. */
static void emit_quoted(struct lq *s, struct str v)
{
	for (size_t k = 0; k < v.len; k++)
		emit_gen(s, v.p[k] == '"' ? "'" : v.p + k, 1);
}

/* sc_figure: {{< figure src= alt= title= caption= link= >}} -> an image
 * (in a link); 0 when it has no src. */
static size_t sc_figure(struct lq *s, const struct sc *c)
{
	struct str src = sc_arg(c, "src", -1), alt = sc_arg(c, "alt", -1), title = sc_arg(c, "title", -1);
	struct str cap = sc_arg(c, "caption", -1), link = sc_arg(c, "link", -1);
	/* Hugo's figcaption holds the title, then the caption: folio's
	 * holds the image's title, so both go there, joined */
	struct str sep = {"", 0};
	if (!title.len)
		title = cap, cap.len = 0;
	else if (cap.len)
		sep = strchr(".!?:", title.p[title.len - 1]) ? (struct str){" ", 1} : (struct str){". ", 2};
	if (!alt.len)
		alt = title;
	if (!src.len)
		return 0;
	if (link.len)
		emit_cstr(s, "[");
	emit_cstr(s, "![");
	for (size_t k = 0; k < alt.len; k++)
		emit_gen(s, alt.p[k] == '[' || alt.p[k] == ']' ? "" : alt.p + k, alt.p[k] == '[' || alt.p[k] == ']' ? 0 : 1);
	emit_cstr(s, "](");
	emit_str(s, src);
	if (title.len) {
		emit_cstr(s, " \"");
		emit_quoted(s, title);
		emit_str(s, sep);
		emit_quoted(s, cap);
		emit_cstr(s, "\"");
	}
	emit_cstr(s, ")");
	if (link.len) {
		emit_cstr(s, "](");
		emit_str(s, link);
		emit_cstr(s, ")");
	}
	return c->end;
}

/* sc_embed: {{< gist user id >}}, tweet, x, instagram -> a link to the
 * post. */
static size_t sc_embed(struct lq *s, const struct sc *c, int line)
{
	struct buf b;
	buf_init(&b);
	if (sc_is(c, "instagram")) {
		struct str id = sc_arg(c, "id", 0);
		buf_printf(&b, "[Post on Instagram](https://www.instagram.com/p/%.*s/)", (int)id.len, id.p ? id.p : "");
	} else if (sc_is(c, "gist")) {
		struct str u = sc_arg(c, "user", 0), id = sc_arg(c, "id", 1);
		buf_printf(&b, "[Gist](https://gist.github.com/%.*s/%.*s)", (int)u.len, u.p ? u.p : "", (int)id.len,
			   id.p ? id.p : "");
	} else {
		struct str u = sc_arg(c, "user", -1), id = sc_arg(c, "id", 0);
		if (u.len)
			buf_printf(&b, "[Post on X](https://x.com/%.*s/status/%.*s)", (int)u.len, u.p, (int)id.len,
				   id.p ? id.p : "");
		else
			buf_printf(&b, "[Post on X](https://x.com/i/status/%.*s)", (int)id.len, id.p ? id.p : "");
	}
	emit_gen(s, b.p, b.len);
	buf_fini(&b);
	note(s, "Hugo embed", line, "'%.*s' written as a link", s->in + c->start, c->end - c->start);
	return c->end;
}

/* dir_name: a shortcode's name as a directive's (folio-site(5)): a
 * letter, then letters, digits and '-' ('_', '/' and '.' become '-');
 * "sc-" before one that does not begin with a letter or that folio has
 * already (note, video, ...) */
static const char *dir_name(struct arena *a, struct str n)
{
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < n.len; i++)
		buf_putc(&b, isalnum((unsigned char)n.p[i]) ? n.p[i] : '-');
	const char *r = arena_strndup(a, b.p ? b.p : "", b.len);
	buf_fini(&b);
	if (!n.len || !isalpha((unsigned char)n.p[0]) || md_is_builtin_directive(r))
		r = imp_fmt(a, "sc-%s", r);
	return r;
}

/* dir_attrs: a shortcode's arguments as a directive's attributes,
 * "{arg0="..." key="..."}" ("" when it has none); their names in keys
 * (at most 16) */
static const char *dir_attrs(struct arena *a, const struct sc *c, const char **keys, size_t *nkeys)
{
	struct buf b;
	buf_init(&b);
	*nkeys = 0;
	for (int i = 0; i < c->npos + c->nkv; i++) {
		struct str k = i < c->npos ? (struct str){NULL, 0} : c->key[i - c->npos];
		struct str v = i < c->npos ? c->pos[i] : c->val[i - c->npos];
		int later = 0; /* a key given twice: the last one, as Hugo reads it */
		for (int j = i - c->npos + 1; i >= c->npos && j < c->nkv && !later; j++)
			later = str_eq(c->key[j], k);
		if (later)
			continue;
		struct buf name;
		buf_init(&name);
		if (i < c->npos)
			buf_printf(&name, "arg%d", i);
		else
			for (size_t j = 0; j < k.len; j++)
				buf_putc(&name, j == 0 && !isalpha((unsigned char)k.p[j]) && k.p[j] != '_' ? 'k'
						: isalnum((unsigned char)k.p[j]) || k.p[j] == '_' ? k.p[j] : '-');
		if (!name.len)
			buf_putc(&name, 'k'); /* "=value": a key of no name */
		buf_puts(&b, b.len ? " " : "{");
		buf_append(&b, name.p, name.len);
		buf_puts(&b, "=\"");
		/* a "..." value keeps its escapes (\" and \\, as a directive's);
		 * others are escaped */
		int quoted = v.p && v.p > c->name.p && v.p[-1] == '"';
		for (size_t j = 0; j < v.len; j++) {
			char ch = v.p[j] == '\n' || v.p[j] == '\r' ? ' ' : v.p[j];
			if (!quoted && (ch == '"' || ch == '\\'))
				buf_putc(&b, '\\');
			buf_putc(&b, ch);
		}
		buf_putc(&b, '"');
		if (*nkeys < 16)
			keys[(*nkeys)++] = arena_strndup(a, name.p, name.len);
		buf_fini(&name);
	}
	if (b.len)
		buf_putc(&b, '}');
	const char *r = arena_strndup(a, b.p ? b.p : "", b.len);
	buf_fini(&b);
	return r;
}

/* line_start: a line break written first, unless the output is at the
 * start of a line */
static void line_start(struct lq *s)
{
	if (s->out->len && s->out->p[s->out->len - 1] != '\n')
		emit_cstr(s, "\n");
}

/* sc_directive: a shortcode folio has no counterpart for (or an include:
 * what names which in the report; orig as the source names it), as a
 * call of a directive of the new site's own (the caller writes its
 * template): a block ":::name{...}" ... ":::" for a pair alone on their
 * lines, an inline ":name[...]{...}" for a pair within a line, a leaf
 * "::name{...}" for one alone on its line, else ":name[]{...}"; its
 * closing shortcode ends the call. */
static size_t sc_directive(struct lq *s, struct sc *c, struct str orig, int line, const char *what)
{
	struct arena *a = s->c->a;
	const char *keys[16];
	size_t nkeys;
	const char *name = dir_name(a, c->name), *attrs = dir_attrs(a, c, keys, &nkeys);
	struct sc close;
	int paired = !c->self && find_sc_close(s, c->end, c->name, &close);
	int block = paired && alone(s, c->start, c->end) && alone(s, close.start, close.end);
	if (s->nopen < LQ_OPEN_MAX && paired) {
		s->open[s->nopen] = (struct lq_open){close.start, block, attrs};
		s->nopen++;
	}
	if (block) {
		line_start(s);
		emit_cstr(s, imp_fmt(a, ":::%s%s", name, attrs));
	} else if (paired) {
		emit_cstr(s, imp_fmt(a, ":%s[", name));
	} else if (alone(s, c->start, c->end)) {
		emit_cstr(s, imp_fmt(a, "::%s%s", name, attrs));
	} else {
		emit_cstr(s, imp_fmt(a, ":%s[]%s", name, attrs));
	}
	int inl = !block && (paired || !alone(s, c->start, c->end));
	s->c->directive(s->c->ctx, orig, name, keys, nkeys, inl, line + s->c->line_offset);
	if (block)
		note(s, what, line, "'%.*s' written as a block directive of the site's own (templates/directives/)",
		     s->in + c->start, c->end - c->start);
	else if (inl)
		note(s, what, line, "'%.*s' written as an inline directive of the site's own (templates/directives/)",
		     s->in + c->start, c->end - c->start);
	else
		note(s, what, line, "'%.*s' written as a leaf directive of the site's own (templates/directives/)",
		     s->in + c->start, c->end - c->start);
	return c->end;
}

/* include_directive: {% include FILE k="v" ... %} (t) as a call of a
 * directive of the new site's own, named after FILE without its
 * extension; 0 (nothing written) for one it cannot be: a file named by a
 * variable, a value that is one (page.title: known only as Jekyll
 * renders), more than 8 parameters. */
static size_t include_directive(struct lq *s, const struct tag *t, int line)
{
	const char *p = t->args, *e = t->args + t->args_len;
	struct sc c;
	memset(&c, 0, sizeof c);
	const char *f = p;
	while (p < e && !isspace((unsigned char)*p))
		p++;
	struct str file = {f, (size_t)(p - f)};
	if (!file.len || memchr(file.p, '{', file.len) || memchr(file.p, '"', file.len) || memchr(file.p, '\'', file.len))
		return 0;
	const char *dot = memrchr(file.p, '.', file.len), *slash = memrchr(file.p, '/', file.len);
	c.name = (struct str){file.p, dot && dot > file.p && (!slash || dot > slash) ? (size_t)(dot - file.p) : file.len};
	while (p < e) {
		while (p < e && isspace((unsigned char)*p))
			p++;
		if (p == e)
			break;
		const char *k = p;
		while (p < e && (isalnum((unsigned char)*p) || *p == '_' || *p == '-'))
			p++;
		if (p == k || p == e || *p != '=' || p + 1 == e || (p[1] != '"' && p[1] != '\'') || c.nkv == 8)
			return 0;
		struct str key = {k, (size_t)(p - k)};
		char q = p[1];
		const char *v = p + 2, *ve = memchr(v, q, (size_t)(e - v));
		if (!ve)
			return 0;
		c.key[c.nkv] = key;
		c.val[c.nkv++] = (struct str){v, (size_t)(ve - v)};
		p = ve + 1;
	}
	c.self = 1;
	c.start = t->start;
	c.end = t->end;
	return sc_directive(s, &c, file, line, "Liquid include");
}

/* sc_directive_close: the closing shortcode at c of a call sc_directive
 * opened (1), or 0 */
static int sc_directive_close(struct lq *s, const struct sc *c)
{
	if (!s->nopen || s->open[s->nopen - 1].close_at != c->start)
		return 0;
	const struct lq_open *o = &s->open[--s->nopen];
	if (o->block) {
		line_start(s);
		emit_cstr(s, ":::");
	} else {
		emit_cstr(s, "]");
		emit_cstr(s, o->attrs);
	}
	return 1;
}

/* do_sc: one shortcode; returns where the scan goes on. A shortcode
 * folio has no counterpart for is kept as an HTML comment (as text in
 * code). */
static size_t do_sc(struct lq *s, struct sc *c)
{
	int code = s->fence_ch || s->in_hl;
	int line = s->line;
	size_t to;
	if (c->closing) {
		if (s->in_hl && (sc_is(c, "highlight") || sc_is(c, "code-toggle"))) {
			highlight_close(s);
			return c->end;
		}
		if (!code && sc_directive_close(s, c))
			return c->end;
		note(s, "Hugo shortcode", line, "'%.*s' kept as an HTML comment", s->in + c->start, c->end - c->start);
		emit_comment(s, "hugo: ", s->in + c->start, c->end - c->start);
		return c->end;
	}
	if (sc_is(c, "highlight") && !code)
		return sc_highlight(s, c, line);
	if (sc_is(c, "code-toggle") && !code && (to = sc_code_toggle(s, c, line)))
		return to;
	if ((sc_is(c, "katex") || sc_is(c, "math")) && !code && (to = sc_math(s, c)))
		return to;
	if (sc_is(c, "figure") && !code && (to = sc_figure(s, c)))
		return to;
	if (c->name.len > 7 && !memcmp(c->name.p + c->name.len - 7, ".inline", 7) && !code && (to = sc_inline(s, c, line)))
		return to;
	if ((sc_is(c, "ref") || sc_is(c, "relref")) && !code) {
		struct str w = sc_arg(c, "path", 0);
		char *name = arena_strndup(s->c->a, w.p ? w.p : "", w.len);
		const char *url = s->c->post_url ? s->c->post_url(s->c->ctx, name, line + s->c->line_offset) : NULL;
		emit_cstr(s, url ? url : root_url(s->c->a, name));
		return c->end;
	}
	const char *site = sc_is(c, "youtube") ? "https://www.youtube.com/watch?v="
			   : sc_is(c, "vimeo")   ? "https://vimeo.com/"
						 : NULL;
	struct str id = sc_arg(c, "id", 0);
	if (site && !code && id.len) {
		emit_cstr(s, sc_is(c, "youtube") ? "[Video on YouTube](" : "[Video on Vimeo](");
		emit_cstr(s, site);
		emit_str(s, id);
		emit_cstr(s, ")");
		note(s, "Hugo video", line, "'%.*s' written as a link to the video", s->in + c->start, c->end - c->start);
		return c->end;
	}
	if ((sc_is(c, "gist") || sc_is(c, "tweet") || sc_is(c, "x") || sc_is(c, "instagram")) && !code)
		return sc_embed(s, c, line);
	if (code) {
		note(s, "Hugo shortcode in code", line, "'%.*s' inside a code block: kept as text", s->in + c->start,
		     c->end - c->start);
		emit_in(s, c->start, c->end);
		return c->end;
	}
	if (s->c->directive && !s->html)
		return sc_directive(s, c, c->name, line, "Hugo shortcode");
	note(s, "Hugo shortcode", line, "'%.*s' kept as an HTML comment", s->in + c->start, c->end - c->start);
	comment_in(s, "hugo: ", c->start, c->end);
	return c->end;
}

/* shortcodes: Hugo's pass one, in -> out. */
static void shortcodes(struct lq *s)
{
	size_t i = 0;
	const char *cached_le = NULL;
	lmap_push(s);
	while (i < s->n) {
		const char *e = scan_line(s, i, &cached_le);
		const char *b = memmem(s->in + i, (size_t)(e - (s->in + i)), "{{", 2);
		if (!b) {
			size_t stop = (size_t)(e - s->in);
			emit_in(s, i, stop < s->n ? stop + 1 : stop);
			i = stop < s->n ? stop + 1 : stop;
			continue;
		}
		size_t at = (size_t)(b - s->in);
		emit_in(s, i, at);
		i = at;
		struct sc c;
		if (at + 3 < s->n && (s->in[at + 2] == '<' || s->in[at + 2] == '%')) {
			/* {{</&#42; x &#42;/>}}, Hugo's escape: a shortcode shown as text */
			if (at + 4 < s->n && s->in[at + 3] == '/' && s->in[at + 4] == '*') {
				const char mk[3] = {s->in[at + 2] == '<' ? '>' : '%', '}', '}'};
				size_t cs = find_from(s->in, s->n, at + 5, "*/", 2, &s->mk.star);
				const char *ce = cs < s->n && cs - at <= LQ_TAG_MAX ? s->in + cs : NULL;
				if (ce && (size_t)(ce - s->in) + 5 <= s->n && !memcmp(ce + 2, mk, 3)) {
					emit_gen(s, s->in + at, 3);
					emit_in(s, at + 5, (size_t)(ce - s->in));
					emit_gen(s, mk, 3);
					i = (size_t)(ce - s->in) + 5;
					continue;
				}
			}
			if (parse_sc(s, at, &c, &s->mk)) {
				i = do_sc(s, &c);
				continue;
			}
		}
		emit_in(s, i, i + 2);
		i += 2;
	}
	if (s->in_hl)
		highlight_close(s);
}

/* convert: a body through its first pass (Liquid, or Hugo's shortcodes)
 * into a buffer, then through kramdown() into out; the counts of findings
 * past JK_MAX_FINDINGS noted, and with note_math (Jekyll) kramdown's
 * inline $$ formulas. */
/* ---- pass two for HTML: a Jekyll .html post ---- */

/* html_line: one line of HTML in[i..e) (outside code), its attributes'
 * URLs resolved; the rest as it is. */
static void html_line(struct kd *k, size_t i, size_t e)
{
	int in_tag = k->in_tag;
	while (i < e)
		i = html_step(k, i, e, &in_tag, 0);
	k->in_tag = in_tag;
}

/* The wrapper of an HTML post's HTML: one CommonMark HTML block, which
 * runs to a blank line; the body has none (see html_doc). */
#define HTML_OPEN "<div class=\"imported-html\">\n"
#define HTML_CLOSE "</div>\n\n"

/* html_doc: a Jekyll .html post after Liquid, as folio Markdown that gives
 * the same HTML: the HTML inside one raw HTML block, its blank lines
 * written as an empty comment (so that the block, and a <pre>, runs on)
 * and a line that Markdown's block extensions would read first ($$, \[,
 * :::) behind one; a highlight block (a fence since pass one) between two
 * such blocks, highlighted as code. Attributes' URLs resolved. */
static void html_doc(struct kd *k)
{
	const char *raw_end = NULL; /* inside a <script> or <style>: its end tag */
	size_t i = 0;
	char fch = 0;
	size_t flen = 0;
	int open = 0;
	while (i < k->n) {
		const char *ls = k->in + i, *le = line_end(k->in, k->n, i);
		size_t next = (size_t)(le - k->in) + (le < k->in + k->n);
		char ch;
		size_t len;
		if (fch) {
			if (fence_close(ls, le, fch, flen))
				fch = 0;
			buf_append(k->out, ls, next - i);
			if (!fch && (next == k->n || k->in[next - 1] != '\n'))
				buf_putc(k->out, '\n');
			i = next;
			continue;
		}
		if (fence_open(ls, le, &ch, &len)) {
			tally(k, IMP_CODE, i);
			if (open)
				buf_puts(k->out, HTML_CLOSE);
			else if (k->out->len)
				buf_putc(k->out, '\n');
			open = 0;
			fch = ch;
			flen = len;
			buf_append(k->out, ls, next - i);
			i = next;
			continue;
		}
		struct str t = trimmed(ls, le);
		if (!open) {
			if (!t.len) { /* the blank line after a fence */
				i = next;
				continue;
			}
			if (k->out->len)
				buf_putc(k->out, '\n');
			buf_puts(k->out, HTML_OPEN);
			open = 1;
		}
		if (!t.len) {
			buf_puts(k->out, "<!-- -->\n");
			i = next;
			continue;
		}
		if ((t.len >= 2 && ((t.p[0] == '$' && t.p[1] == '$') || (t.p[0] == '\\' && t.p[1] == '['))) ||
		    (t.len >= 3 && !memcmp(t.p, ":::", 3)))
			buf_puts(k->out, "<!-- -->");
		/* a script's or a style's text shows nothing: not counted */
		const char *raw_open = NULL;
		if (!raw_end && lone_raw_open(ls, le, &raw_open))
			raw_end = raw_open;
		else if (raw_end && has_nocase(ls, (size_t)(le - ls), raw_end, strlen(raw_end)))
			raw_end = NULL;
		k->quiet = raw_end != NULL && !raw_open;
		html_line(k, i, (size_t)(le - k->in));
		k->quiet = 0;
		buf_putc(k->out, '\n');
		i = next;
	}
	if (open)
		buf_puts(k->out, "</div>\n");
}

static void convert(const struct jk_body *c, const char *in, size_t n, struct buf *out, void (*first)(struct lq *),
		    int note_math)
{
	struct lq s;
	memset(&s, 0, sizeof s);
	s.c = c;
	s.in = in;
	s.n = n;
	s.line = 1;
	s.mk = (struct marks)MARKS_NONE;
	s.no_close[0] = s.no_close[1] = s.no_close[2] = (size_t)-1;
	s.no_endhl = s.tail_run = (size_t)-1;
	size_t pl = c->path ? strlen(c->path) : 0;
	s.html = !c->hugo && pl > 5 && !strcasecmp(c->path + pl - 5, ".html");
	struct buf mid;
	buf_init(&mid);
	s.out = &mid;
	struct caps caps;
	memset(&caps, 0, sizeof caps);
	s.caps = &caps;
	first(&s);
	struct kd k;
	memset(&k, 0, sizeof k);
	k.c = c;
	k.l = &s;
	k.in = mid.p ? mid.p : "";
	k.n = mid.len;
	k.out = out;
	k.no_script_end = k.no_cmt_end = k.para_end = k.paren = k.selfclose = (size_t)-1;
	k.caps = &caps;
	if (s.html)
		html_doc(&k);
	else
		kramdown(&k);
	if (note_math && caps.math)
		imp_note(c->a, c->r, "kramdown inline math", c->path, caps.math_line + c->line_offset,
			 "%d formula%s $$...$$ inside paragraphs written $...$ (this is the first)", caps.math,
			 caps.math == 1 ? "" : "s");
	for (size_t i = 0; i < caps.nk; i++)
		if (caps.n[i] > JK_MAX_FINDINGS)
			imp_note(c->a, c->r, caps.kind[i], c->path, 0, "%d more of these, not listed",
				 caps.n[i] - JK_MAX_FINDINGS);
	buf_fini(&mid);
	free(s.lmap);
}

void hugo_body(const struct jk_body *c, const char *in, size_t n, struct buf *out)
{
	convert(c, in, n, out, shortcodes, 0);
}

void jekyll_body(const struct jk_body *c, const char *in, size_t n, struct buf *out)
{
	convert(c, in, n, out, liquid, 1);
}

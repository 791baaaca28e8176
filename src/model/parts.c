/* parts.c: the numbers of a series' parts, the errors of the front
 * matter's part, and the warning for a title that gives itself another
 * number (parts.h says the rule). */
#include "model/parts.h"

#include "base/arena.h"
#include "base/map.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* report: a message at node n of post p's front matter (its first line
 * without n). */
static void report(struct diag *d, enum diag_level level, const struct post *p, const struct ynode *n,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void report(struct diag *d, enum diag_level level, const struct post *p, const struct ynode *n,
		   const char *fmt, ...)
{
	/* a file that was not read (source.lazy): the collector asks the
	 * content for its text (diag_set_texts) */
	const char *text = p->s.lazy ? NULL : p->s.src;
	struct diag_loc loc = {p->s.path, text, text ? p->s.len : 0, n ? n->line : 1, n ? n->col : 1};
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(d, level, &loc, NULL, 0, fmt, ap);
	va_end(ap);
}

static int is_alnum(unsigned char c)
{
	/* a byte of a UTF-8 sequence counts as a letter: "Xpart 3" is no part */
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* after_part: the number written after the word "part" that starts at
 * t[i], or -1. */
static int after_part(struct str t, size_t i)
{
	static const char word[] = "part";
	if (i + 4 > t.len || (i > 0 && is_alnum((unsigned char)t.p[i - 1])))
		return -1;
	for (size_t k = 0; k < 4; k++)
		if ((t.p[i + k] | 0x20) != word[k])
			return -1;
	size_t j = i + 4, spaces = j;
	while (j < t.len && (t.p[j] == ' ' || t.p[j] == '\t'))
		j++;
	if (j == spaces)
		return -1;
	int v = 0;
	size_t digits = 0;
	for (; j < t.len && is_digit(t.p[j]) && digits < 7; j++, digits++)
		v = v * 10 + (t.p[j] - '0');
	if (!digits || digits > 6)
		return -1;
	/* "Part 3b", "Part 1.5": not a part's number */
	if (j < t.len && (is_alnum((unsigned char)t.p[j]) || (t.p[j] == '.' && j + 1 < t.len && is_digit(t.p[j + 1]))))
		return -1;
	return v;
}

/* head_end: where the title's head ends (its first separator), or t.len
 * when it has none. */
static size_t head_end(struct str t)
{
	static const char *const seps[] = {" - ", " \xe2\x80\x93 ", " \xe2\x80\x94 ", " | ", ": "};
	size_t best = t.len;
	for (size_t k = 0; k < sizeof seps / sizeof *seps; k++) {
		size_t n = strlen(seps[k]);
		for (size_t i = 0; i + n <= best && i + n <= t.len; i++)
			if (!memcmp(t.p + i, seps[k], n)) {
				best = i;
				break;
			}
	}
	return best;
}

int parts_title_number(struct str t, struct str *prefix, int *head)
{
	*prefix = (struct str){t.p, 0};
	*head = 0;
	for (size_t i = 0; i < t.len; i++) {
		int v = after_part(t, i);
		if (v >= 0)
			return v;
	}
	size_t end = head_end(t);
	if (end == t.len)
		return -1;
	size_t to = end;
	while (to > 0 && t.p[to - 1] == ' ')
		to--;
	size_t from = to;
	while (from > 0 && is_digit(t.p[from - 1]))
		from--;
	if (from == to || to - from > 3 || (from > 0 && t.p[from - 1] != ' '))
		return -1;
	int v = 0;
	for (size_t i = from; i < to; i++)
		v = v * 10 + (t.p[i] - '0');
	*prefix = str_trim((struct str){t.p, from});
	*head = 1;
	return v;
}

/* number_before: the post among numbered[0..k) whose part is n, or NULL;
 * their parts grow, so a binary search finds it. */
static const struct post *number_before(struct post *const *numbered, size_t k, int n)
{
	size_t lo = 0, hi = k;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (numbered[mid]->part < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < k && numbered[lo]->part == n ? numbered[lo] : NULL;
}

/* title_warnings: the warning of each part whose title says another
 * number. A number that ends a title's head counts only when another part
 * shares its prefix, so that "Python 3: what changed" alone is no part
 * number. */
static void title_warnings(struct diag *d, const struct series *se, struct post *const *m, size_t n)
{
	struct map prefixes = MAP_INIT;
	for (size_t k = 0; k < n; k++) {
		struct str pre;
		int head;
		if (parts_title_number(m[k]->title, &pre, &head) >= 0 && head)
			map_put(&prefixes, pre.p, pre.len, NULL)->val.u++;
	}
	for (size_t k = 0; k < n; k++) {
		const struct post *p = m[k];
		struct str pre;
		int head, v = parts_title_number(p->title, &pre, &head);
		if (v < 0 || v == p->part)
			continue;
		if (head && map_find(&prefixes, pre.p, pre.len)->val.u < 2)
			continue;
		report(d, DIAG_WARNING, p, p->title_node,
		       "the title says part %d, but this is part %d of series '%.*s' (hint: give 'part: %d' if the title "
		       "is right; see SERIES in folio-site(5))",
		       v, p->part, STR_FMT(se->slug), v);
	}
	map_fini(&prefixes);
}

int parts_number(struct diag *d, struct series *se, struct post *const *m, size_t n)
{
	/* the parts numbered without an error, in order: their numbers grow */
	struct post **numbered = xcalloc(n + 1, sizeof *numbered);
	size_t nn = 0;
	int errors = 0, prev = se->numbering - 1;
	for (size_t k = 0; k < n; k++) {
		struct post *p = m[k];
		if (p->fm_part >= 0 && nn > 0 && p->fm_part <= prev) {
			/* the post keeps the number it gives; those after it count
			 * on from the part before it */
			p->part = p->fm_part;
			const struct post *q = number_before(numbered, nn, p->fm_part);
			if (q)
				report(d, DIAG_ERROR, p, p->part_node,
				       "part %d of series '%.*s' is also taken by %s (two posts cannot share a number)", p->fm_part,
				       STR_FMT(se->slug), q->s.path);
			else
				report(d, DIAG_ERROR, p, p->part_node,
				       "part %d of series '%.*s' comes after part %d, %s (the numbers must grow in the "
				       "series' order)",
				       p->fm_part, STR_FMT(se->slug), prev, numbered[nn - 1]->s.path);
			errors++;
			continue;
		}
		p->part = p->fm_part >= 0 ? p->fm_part : prev + 1;
		prev = p->part;
		numbered[nn++] = p;
	}
	free(numbered);
	se->last_part = n ? prev : 0;
	if (!errors) /* else the numbers after the error are not the ones meant */
		title_warnings(d, se, m, n);
	return errors;
}

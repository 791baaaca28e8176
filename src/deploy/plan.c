/* plan.c: what a deploy does, as pure functions: the record of the last
 * deploy (its format), the plan (the site's files against that record),
 * the record after the plan, the Cache-Control rule, and the words of
 * the report. No I/O. */
#include "deploy/internal.h"

#include "base/arena.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the record ----
 * "folio-deploy 1\n", "target KIND DEST\n", then a line per file:
 * "HASH SIZE PATH\n", HASH the XXH3 of the bytes uploaded (16 hex digits;
 * 0: tried, not confirmed), sorted by path. */
#define RECORD_MAGIC "folio-deploy 1\n"

static int file_cmp(const void *x, const void *y)
{
	return strcmp(((const struct deploy_file *)x)->rel, ((const struct deploy_file *)y)->rel);
}

static void record_add(struct deploy_record *r, const char *rel, size_t len, uint64_t hash, uint64_t size)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->v = xrealloc(r->v, r->cap * sizeof *r->v);
	}
	r->v[r->n++] = (struct deploy_file){xstrndup(rel, len), hash, size};
}

void deploy_record_fini(struct deploy_record *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].rel);
	free(r->v);
	free(r->target);
	memset(r, 0, sizeof *r);
}

/* parse_line: one "HASH SIZE PATH" line (line[0..len), no line break) */
static int parse_line(const char *line, size_t len, struct deploy_record *r)
{
	if (len < 20 || line[16] != ' ')
		return -1;
	char hex[17], *end;
	memcpy(hex, line, 16);
	hex[16] = '\0';
	if (strspn(hex, "0123456789abcdef") != 16)
		return -1;
	uint64_t hash = strtoull(hex, NULL, 16);
	if (line[17] < '0' || line[17] > '9')
		return -1;
	errno = 0;
	unsigned long long size = strtoull(line + 17, &end, 10);
	if (errno || end >= line + len || *end != ' ' || end + 1 == line + len)
		return -1;
	const char *rel = end + 1;
	size_t rl = (size_t)(line + len - rel);
	if (memchr(rel, '\0', rl))
		return -1;
	record_add(r, rel, rl, hash, size);
	return 0;
}

int deploy_record_parse(const char *text, size_t len, struct deploy_record *r)
{
	memset(r, 0, sizeof *r);
	size_t ml = strlen(RECORD_MAGIC);
	if (len < ml || memcmp(text, RECORD_MAGIC, ml))
		return -1;
	const char *p = text + ml, *end = text + len;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl || (size_t)(nl - p) < 8 || memcmp(p, "target ", 7) || memchr(p, '\0', (size_t)(nl - p)))
		return -1;
	r->target = xstrndup(p + 7, (size_t)(nl - p - 7));
	for (p = nl + 1; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl || parse_line(p, (size_t)(nl - p), r) != 0) {
			deploy_record_fini(r);
			return -1;
		}
	}
	if (r->n) /* qsort(NULL, 0) is undefined */
		qsort(r->v, r->n, sizeof *r->v, file_cmp);
	for (size_t i = 1; i < r->n; i++)
		if (!strcmp(r->v[i - 1].rel, r->v[i].rel)) {
			deploy_record_fini(r);
			return -1;
		}
	return 0;
}

void deploy_record_format(const struct deploy_record *r, struct buf *b)
{
	buf_puts(b, RECORD_MAGIC);
	buf_printf(b, "target %s\n", r->target ? r->target : "");
	for (size_t i = 0; i < r->n; i++)
		if (!strchr(r->v[i].rel, '\n') && r->v[i].rel[0])
			buf_printf(b, "%016llx %llu %s\n", (unsigned long long)r->v[i].hash,
				   (unsigned long long)r->v[i].size, r->v[i].rel);
}

struct deploy_file *deploy_record_find(const struct deploy_record *r, const char *rel)
{
	struct deploy_file key = {(char *)rel, 0, 0};
	return r->n ? bsearch(&key, r->v, r->n, sizeof *r->v, file_cmp) : NULL;
}

/* ---- the plan ---- */

static int is_html(const char *rel)
{
	size_t n = strlen(rel);
	return (n >= 5 && !strcmp(rel + n - 5, ".html")) || (n >= 4 && !strcmp(rel + n - 4, ".htm"));
}

/* upload_cmp: every file but the pages first, then the pages; each by path */
static int upload_cmp(const void *x, const void *y)
{
	const struct deploy_action *a = x, *b = y;
	int ha = is_html(a->rel), hb = is_html(b->rel);
	return ha != hb ? ha - hb : strcmp(a->rel, b->rel);
}

void deploy_plan_make(const struct output_entry *site, size_t n, const struct deploy_record *last, int all,
		      struct deploy_plan *p)
{
	memset(p, 0, sizeof *p);
	p->v = xmalloc((n + last->n + 1) * sizeof *p->v);
	size_t i = 0, j = 0;
	/* both sorted by path: one merge */
	while (i < n || j < last->n) {
		int c = i == n ? 1 : j == last->n ? -1 : strcmp(site[i].rel, last->v[j].rel);
		if (c > 0) {
			const struct deploy_file *f = &last->v[j++];
			p->v[p->n++] = (struct deploy_action){DEPLOY_DELETE, f->rel, f->hash, f->size, DEPLOY_TODO};
			continue;
		}
		const struct output_entry *e = &site[i++];
		const struct deploy_file *f = c == 0 ? &last->v[j++] : NULL;
		if (!all && f && f->hash && f->hash == e->hash && f->size == e->size) {
			p->unchanged++;
			continue;
		}
		p->v[p->n++] = (struct deploy_action){DEPLOY_UPLOAD, e->rel, e->hash, e->size, DEPLOY_TODO};
	}
	/* the uploads before the deletions, in their order */
	size_t up = 0;
	for (size_t k = 0; k < p->n; k++)
		if (p->v[k].op == DEPLOY_UPLOAD) {
			struct deploy_action t = p->v[k];
			memmove(p->v + up + 1, p->v + up, (k - up) * sizeof *p->v);
			p->v[up++] = t;
		}
	qsort(p->v, up, sizeof *p->v, upload_cmp);
	p->uploads = up;
	p->deletes = p->n - up;
}

void deploy_plan_fini(struct deploy_plan *p)
{
	free(p->v);
	memset(p, 0, sizeof *p);
}

void deploy_plan_counts(const struct deploy_plan *p, size_t *uploaded, size_t *deleted)
{
	*uploaded = *deleted = 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].state == DEPLOY_DONE)
			++*(p->v[i].op == DEPLOY_UPLOAD ? uploaded : deleted);
}

void deploy_record_update(struct deploy_record *r, const struct deploy_plan *p)
{
	/* the entries added at the end are not searched (each path is in the
	 * plan once): the search sees the sorted ones only */
	size_t sorted = r->n;
	for (size_t i = 0; i < p->n; i++) {
		const struct deploy_action *a = &p->v[i];
		if (a->state == DEPLOY_TODO || (a->op == DEPLOY_DELETE && a->state == DEPLOY_TRIED))
			continue; /* the target holds what it held */
		struct deploy_file key = {(char *)a->rel, 0, 0};
		struct deploy_file *f = sorted ? bsearch(&key, r->v, sorted, sizeof *r->v, file_cmp) : NULL;
		if (a->op == DEPLOY_DELETE) {
			if (f)
				f->hash = f->size = UINT64_MAX; /* dropped below */
			continue;
		}
		uint64_t hash = a->state == DEPLOY_DONE ? a->hash : 0, size = a->state == DEPLOY_DONE ? a->size : 0;
		if (f) {
			f->hash = hash;
			f->size = size;
		} else {
			record_add(r, a->rel, strlen(a->rel), hash, size);
		}
	}
	size_t keep = 0;
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].hash == UINT64_MAX && r->v[i].size == UINT64_MAX) {
			free(r->v[i].rel);
			continue;
		}
		r->v[keep++] = r->v[i];
	}
	r->n = keep;
	qsort(r->v, r->n, sizeof *r->v, file_cmp);
}

/* ---- Cache-Control ---- */

int deploy_fingerprinted(const char *rel)
{
	const char *base = strrchr(rel, '/');
	base = base ? base + 1 : rel;
	const char *ext = strrchr(base, '.');
	if (!ext || ext - base < 18)
		return 0;
	const char *h = ext - 16;
	if (h[-1] != '.' || h - 1 == base)
		return 0;
	for (int i = 0; i < 16; i++)
		if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f')))
			return 0;
	return ext[1] != '\0';
}

const char *deploy_cache_control(const char *rel)
{
	return deploy_fingerprinted(rel) ? DEPLOY_CACHE_LONG : DEPLOY_CACHE_SHORT;
}

/* ---- words ---- */

void deploy_count(char *out, size_t size, size_t n)
{
	char digits[32];
	int len = snprintf(digits, sizeof digits, "%zu", n);
	char tmp[48];
	size_t k = 0;
	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			tmp[k++] = ',';
		tmp[k++] = digits[i];
	}
	tmp[k] = '\0';
	snprintf(out, size, "%s", tmp);
}

void deploy_scrub(char *text)
{
	for (char *p = text; (p = strstr(p, "://"));) {
		char *host = p + 3;
		size_t span = strcspn(host, "/ \t\n'\"");
		char *at = memchr(host, '@', span);
		char *colon = at ? memchr(host, ':', (size_t)(at - host)) : NULL;
		if (colon && at - colon - 1 >= 3) {
			/* USER:SECRET@ -> USER:***@ (never longer: in place) */
			memcpy(colon + 1, "***", 3);
			memmove(colon + 4, at, strlen(at) + 1);
			p = colon + 4;
		} else if (colon) {
			memset(colon + 1, '*', (size_t)(at - colon - 1));
			p = at;
		} else {
			p = host;
		}
	}
}

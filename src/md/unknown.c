/* unknown.c: the unknown languages of a build's code blocks, each told
 * once. A blog that writes ```text-like names folio has no grammar for
 * (```mermaid, ```vhdl) in forty posts got forty warnings on every build;
 * now one per language, at its first block, naming the files. */
#include "md/markdown.h"

#include "base/arena.h"
#include "base/buf.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct unknown_block {
	char *lang, *path;
	const char *src; /* the file's text, alive until md_unknown_report (a build
	                  * keeps the source of a document that noted one) */
	size_t src_len;
	int line, col;
	size_t seq;
};

struct md_unknown {
	pthread_mutex_t lock;
	struct unknown_block *v;
	size_t n, cap;
};

/* Blocks this thread ever noted: a counter of the thread's (as
 * diag_thread_reports is), which a caller reads before and after
 * md_render to know whether that document noted one; no document's state
 * is kept in it. */
static _Thread_local unsigned long recorded;

struct md_unknown *md_unknown_new(void)
{
	struct md_unknown *u = xcalloc(1, sizeof *u);
	pthread_mutex_init(&u->lock, NULL);
	return u;
}

void md_unknown_free(struct md_unknown *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++) {
		free(u->v[i].lang);
		free(u->v[i].path);
	}
	free(u->v);
	pthread_mutex_destroy(&u->lock);
	free(u);
}

void md_unknown_add(struct md_unknown *u, const char *lang, size_t lang_len, const struct diag_loc *loc)
{
	pthread_mutex_lock(&u->lock);
	if (u->n == u->cap) {
		u->cap = u->cap ? u->cap * 2 : 16;
		u->v = xrealloc(u->v, u->cap * sizeof *u->v);
	}
	const char *path = loc->path ? loc->path : "";
	u->v[u->n] = (struct unknown_block){
		.lang = xstrndup(lang, lang_len),
		.path = xstrndup(path, strlen(path)),
		.src = loc->src,
		.src_len = loc->src_len,
		.line = loc->line,
		.col = loc->col,
		.seq = u->n,
	};
	u->n++;
	pthread_mutex_unlock(&u->lock);
	recorded++;
}

unsigned long md_unknown_thread_count(void)
{
	return recorded;
}

static int cmp_block(const void *pa, const void *pb)
{
	const struct unknown_block *a = pa, *b = pb;
	int c = strcmp(a->lang, b->lang);
	if (!c)
		c = strcmp(a->path, b->path);
	if (!c && a->line != b->line)
		c = a->line < b->line ? -1 : 1;
	if (!c && a->col != b->col)
		c = a->col < b->col ? -1 : 1;
	if (!c)
		c = a->seq < b->seq ? -1 : a->seq > b->seq;
	return c;
}

/* SHOWN_FILES: the most files a warning names; the rest are counted. */
#define SHOWN_FILES 3

void md_unknown_report(struct md_unknown *u, struct diag *d)
{
	if (!u || !u->n)
		return;
	qsort(u->v, u->n, sizeof *u->v, cmp_block);
	struct buf files;
	buf_init(&files);
	for (size_t i = 0; i < u->n;) {
		size_t j = i, nfiles = 0;
		buf_reset(&files);
		for (; j < u->n && !strcmp(u->v[j].lang, u->v[i].lang); j++) {
			if (j > i && !strcmp(u->v[j].path, u->v[j - 1].path))
				continue; /* one file, several blocks */
			if (nfiles < SHOWN_FILES)
				buf_printf(&files, "%s%s", nfiles ? ", " : "", u->v[j].path);
			nfiles++;
		}
		const struct unknown_block *b = &u->v[i];
		struct diag_loc loc = {b->path, b->src, b->src_len, b->line, b->col};
		if (nfiles == 1 && j - i == 1)
			diag_report(d, DIAG_WARNING, &loc, NULL, 0,
				    "unknown language '%s' in a code block: shown as plain text (see folio-site(5) for the "
				    "languages; highlight: {warn_unknown: false} silences this)",
				    b->lang);
		else
			diag_report(d, DIAG_WARNING, &loc, NULL, 0,
				    "unknown language '%s' in %zu code blocks of %zu file%s (%s%s): shown as plain text "
				    "(see folio-site(5) for the languages; highlight: {warn_unknown: false} silences this)",
				    b->lang, j - i, nfiles, nfiles == 1 ? "" : "s", files.p,
				    nfiles > SHOWN_FILES ? ", ..." : "");
		i = j;
	}
	buf_fini(&files);
}

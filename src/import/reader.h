/* reader.h: what the readers of other generators' sites (jekyll.c,
 * hugo.c) share: the documents read from SRC before their bodies are
 * converted, the walk of SRC's folders, the front matter keys with no
 * folio equivalent, links resolved to the documents' new URLs, permalink
 * patterns, and the last steps of a reader (slugs made final, bodies
 * converted, the keys reported). Internal to src/import/. */
#ifndef FOLIO_IMPORT_READER_H
#define FOLIO_IMPORT_READER_H

#include "import/import.h"

/* A document read from SRC, before its body is converted. The strings
 * are the import's arena's but text, which is malloc'd and freed once
 * the body is converted. */
struct imp_src {
	struct imp_doc *doc;
	const char *rel;     /* SRC-relative path */
	const char *name;    /* Jekyll: the file's name without extension ("2017-01-01-x") */
	const char *crel;    /* Hugo: the path below the content folder ("posts/x.md") */
	const char *old_url; /* its URL in the old site */
	char *text;          /* the whole file */
	size_t len;
	const char *body;
	size_t body_len;
	int body_line;
};

/* One reader's documents and its front matter keys not imported (key,
 * the first file and line that has it, how many files do). */
struct imp_reader {
	struct imp_site *s;
	struct imp_src *v;
	size_t n, cap;
	struct imp_src *cur; /* the document whose body is converted */
	struct imp_list fm_keys, fm_first;
	size_t *fm_count;
	int *fm_line;
};

/* imp_src_new: a new document, zeroed, at the end of r->v; r->v may move
 * (a pointer into it is good until the next call). */
struct imp_src *imp_src_new(struct imp_reader *r);

/* imp_src_drop: takes back the last document (a file not imported), its
 * text freed. */
void imp_src_drop(struct imp_reader *r);

/* imp_src_read: x->text and x->len: SRC's file rel, read whole as UTF-8
 * (imp_utf8), its CRLF line ends made LF (the lines counted the same).
 * 0, or -1 when it cannot be read (imp_read_src: x->text NULL). */
int imp_src_read(struct imp_reader *r, struct imp_src *x, const char *rel);

/* imp_fm_unused: front matter key (in path, at line) that has no folio
 * equivalent: counted, reported once at the end by imp_reader_finish. */
void imp_fm_unused(struct imp_reader *r, const char *key, const char *path, int line);

/* imp_walk: the regular files under SRC/dir (sorted, recursively, at
 * most 16 folders deep: a loop of links is cut there too), as
 * SRC-relative paths added to out; names starting with '.' are left out.
 * A link that leaves SRC, loops or leads nowhere is reported and not
 * followed. skip, when not NULL, leaves out, unreported, a file or folder
 * (rel, its name; top: it is at SRC's top, dir being ""). */
void imp_walk(struct imp_site *s, const char *dir, int depth,
	      int (*skip)(void *ctx, const char *rel, const char *name, int top), void *ctx, struct imp_list *out);

/* imp_find_mathjax: whether the templates under SRC's folders dirs
 * (NULL-terminated) load MathJax, its name in any case in a template (a
 * .html, .htm or .liquid file), or a document under the folders content
 * does (a <script> tag in it names MathJax: a post that loads it itself):
 * then
 * s->math_mathjax is set (folio.yml's math: {compat: mathjax}, so that
 * the TeX written for MathJax typesets) and the report says where. */
void imp_find_mathjax(struct imp_site *s, const char *const *dirs, const char *const *content);

/* imp_doc_url: d's URL in the new site (/posts/SLUG/ or /SLUG/), in a. */
const char *imp_doc_url(struct arena *a, const struct imp_doc *d);

/* imp_url_path: a link's url split for resolving: its path decoded
 * (%XX; malloc'd) and in *suffix its query or fragment (a part of url);
 * NULL when url cannot name a file of the site: one with a scheme or a
 * //host, a fragment or a query alone, or empty. */
char *imp_url_path(const char *url, const char **suffix);

/* imp_url_rel: the SRC-relative path (into rel[0..cap)) that dec, a
 * link's decoded path, names: from the site's root without the old base
 * path base ("/blog" or ""), or relative to old_url (the page's old URL;
 * NULL: "/"), as a browser reads it. *root: whether dec is from the root.
 * 1 when rel is a path of the site (".." resolved, not empty), else 0. */
int imp_url_rel(const char *dec, const char *base, const char *old_url, char *rel, size_t cap, int *root);

/* imp_url_file: the new URL of a link of the document converted (url,
 * its source line) to the file rel of static/: its static URL followed
 * by suffix when found; else NULL, and for a file (image 1, a Markdown
 * image: *missing set; 2, an HTML attribute's) it is reported missing. */
const char *imp_url_file(struct imp_reader *r, int found, const char *rel, const char *suffix, const char *url,
			 int image, int line, int *missing);

/* imp_url_end: a link's new URL: res, or for a url from the root
 * (root) under the old base path base, url without it (folio adds its
 * own), or NULL (the link kept); dec (imp_url_path's) freed. */
const char *imp_url_end(struct arena *a, const char *res, int root, const char *url, const char *base, char *dec);

/* imp_src_by_old_url: the document whose old URL is /rel, or /rel/ (a
 * folder), or NULL. */
struct imp_src *imp_src_by_old_url(const struct imp_reader *r, const char *rel);

/* imp_expand: a permalink pattern pat appended to b, each placeholder in
 * it (':' and a word of letters, digits and '_') replaced by what put
 * appends for its name (key, at most 39 bytes), or kept as it is where
 * put returns 0. */
void imp_expand(struct buf *b, const char *pat, int (*put)(void *ctx, const char *key, struct buf *b), void *ctx);

/* imp_add_aliases: the old URLs of front matter value v (a list or a
 * string), each made an alias by alias (dropped where it gives NULL),
 * added to to. */
void imp_add_aliases(struct arena *a, const struct ynode *v, struct imp_list *to,
		     const char *(*alias)(struct arena *a, const char *url));

/* imp_join_series: d put into the series named name (its slug), the
 * series made (and counted) when it is the first post of it (src_path
 * rel). A name without a letter or digit is no series. */
void imp_join_series(struct imp_site *s, struct imp_doc *d, const char *rel, const char *name);

/* imp_title_from_file: the title of a document (rel) that has none, from
 * its slug (reported); in the arena. */
const char *imp_title_from_file(struct imp_site *s, const char *rel, const char *slug);

/* imp_cap_tags: d's tags cut to the 32 folio keeps (reported). */
void imp_cap_tags(struct imp_site *s, struct imp_doc *d, const char *rel);

/* imp_not_converted: the document rel whose front matter cannot be read
 * (the error reported): counted, and listed under kind ("post not
 * converted", a literal). */
void imp_not_converted(struct imp_site *s, const char *rel, const char *kind);

/* imp_reader_finish: a reader's last steps: a document without a slug is
 * skipped, the slugs are made final (imp_fix_slugs), then each body is
 * converted by convert with c (its path and line_offset set for each
 * document; r->cur is it while it is converted) and its text freed; the
 * front matter keys not imported are reported, one line each; r->v is
 * freed. */
void imp_reader_finish(struct imp_reader *r, void (*convert)(const struct jk_body *c, const char *in, size_t n,
							     struct buf *out),
		       struct jk_body c);

#endif

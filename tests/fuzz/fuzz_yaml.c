/* fuzz_yaml.c: libFuzzer target for the YAML stages: folio.yml through
 * config_load, and posts, series, pages and data files through
 * content_load (front matter split, YAML, schema checks, dates), each
 * reported with excerpts as a build reports them.
 *
 * An input is a folio.yml, optionally followed by files, each after a line
 * "@@@ KIND" (KIND: post, bundle, series, page or data):
 *
 *   title: Blog
 *   timezone: Europe/Berlin
 *   @@@ post
 *   ---
 *   title: Hello
 *   date: 2024-01-02 10:00
 *   ---
 *   Body.
 *
 * The files are written to a scratch site folder, so that the real loaders
 * read them. Every part is also given to yaml_parse in memory, and the tree
 * to the typed views and to tval_from_yaml (data files become template
 * values). The content is then loaded twice more through a content cache,
 * as folio serve's rebuilds do: the second load, from the cache, must give
 * the same files and the same number of errors. */
#include "fuzz.h"

#include "read/config.h"
#include "read/content.h"
#include "formats/schema.h"
#include "tmpl/tmpl.h"
#include "formats/yaml.h"
#include "base/hash.h"

#define MAX_PARTS 9

static const char *site;
/* the files of the last input, deleted before the next one */
static char written[MAX_PARTS][64];
static size_t nwritten;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	site = fuzz_tmpdir();
	fuzz_mkdirs(site, "content/posts");
	fuzz_mkdirs(site, "content/series");
	fuzz_mkdirs(site, "content/pages");
	fuzz_mkdirs(site, "data");
	return 0;
}

/* walk: the typed views of every scalar of n. */
static void walk(const struct ynode *n, int depth)
{
	if (!n || depth > YAML_MAX_DEPTH + 1)
		abort(); /* yaml_parse promises at most YAML_MAX_DEPTH levels */
	(void)yaml_kind_name(n);
	(void)kind_a(n);
	if (n->kind == YNODE_SCALAR) {
		int b;
		int64_t i;
		double f;
		if (n->str.p[n->str.len] != '\0')
			abort(); /* scalars are NUL-terminated in the arena */
		(void)yaml_is_null(n);
		(void)yaml_as_bool(n, &b);
		(void)yaml_as_int(n, &i);
		(void)yaml_as_float(n, &f);
		return;
	}
	for (size_t k = 0; k < n->len; k++) {
		if (n->kind == YNODE_MAP) {
			walk(n->keys[k], depth + 1);
			/* a key of the map is found in it (keys are unique) */
			const struct str key = n->keys[k]->str;
			if (strlen(key.p) == key.len && yaml_map_get(n, key.p) == NULL)
				abort();
		}
		walk(n->items[k], depth + 1);
	}
}

/* in_memory: yaml_parse of one part, and what the later stages do with a
 * tree: typed views, template values, JSON. */
static void in_memory(struct arena *a, struct diag *d, const struct fuzz_part *p, struct buf *json)
{
	struct ynode *root = yaml_parse(a, d, "fuzz.yml", p->text, p->len, p->text, p->len, 1);
	if (!root)
		return;
	walk(root, 0);
	struct tval v = tval_from_yaml(a, root);
	buf_reset(json);
	(void)tval_to_json(json, &v, a, 1, 1u << 24);
	buf_reset(json);
	(void)tval_to_text(json, &v, a, 1u << 24);
	/* the first line as a date, as front matter dates are read */
	const char *nl = memchr(p->text, '\n', p->len);
	struct str line = {p->text, nl ? (size_t)(nl - p->text) : p->len};
	struct fdate date;
	const char *why;
	(void)parse_date_text(a, line, "America/New_York", &date, &why);
}

/* loaded: what a load gave, for comparing loads. */
struct loaded {
	size_t nposts, nseries, npages, ndata, nfailed;
	int errors;
	uint64_t titles; /* a hash of the posts' slugs and titles, in order */
};

static struct loaded load(struct arena *a, const struct config *cfg, struct content_cache *cc)
{
	struct diag d;
	diag_init(&d, NULL);
	struct content c;
	struct loaded l = {0};
	l.errors = content_load_cached(a, &d, site, cfg, &c, cc, NULL, NULL, 1);
	l.nposts = c.nposts;
	l.nseries = c.nseries;
	l.npages = c.npages;
	l.ndata = c.ndata;
	l.nfailed = c.nfailed;
	for (size_t i = 0; i < c.nposts; i++)
		l.titles = l.titles * 31 + hash_bytes(c.posts[i]->slug.p, c.posts[i]->slug.len) * 7 +
			   hash_bytes(c.posts[i]->title.p, c.posts[i]->title.len);
	diag_fini(&d);
	return l;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < nwritten; i++)
		fuzz_unlink(site, written[i]);
	nwritten = 0;
	for (size_t i = 1; i < MAX_PARTS; i++) { /* bundles' folders */
		char dir[64];
		snprintf(dir, sizeof dir, "content/posts/b%zu", i);
		fuzz_unlink(site, dir);
	}

	struct fuzz_part parts[MAX_PARTS];
	size_t n = fuzz_split((const char *)data, size, "@@@ ", parts, MAX_PARTS);
	fuzz_write(site, "folio.yml", parts[0].text, parts[0].len);
	for (size_t i = 1; i < n; i++) {
		const struct fuzz_part *p = &parts[i];
		char *rel = written[nwritten];
		if (fuzz_name_is(p, "post"))
			snprintf(rel, sizeof written[0], "content/posts/p%zu.md", i);
		else if (fuzz_name_is(p, "bundle")) {
			snprintf(rel, sizeof written[0], "content/posts/b%zu", i);
			fuzz_mkdirs(site, rel);
			snprintf(rel, sizeof written[0], "content/posts/b%zu/index.md", i);
		} else if (fuzz_name_is(p, "series"))
			snprintf(rel, sizeof written[0], "content/series/s%zu.md", i);
		else if (fuzz_name_is(p, "page"))
			snprintf(rel, sizeof written[0], "content/pages/g%zu.md", i);
		else if (fuzz_name_is(p, "data"))
			snprintf(rel, sizeof written[0], "data/d%zu.yml", i);
		else
			continue;
		fuzz_write(site, rel, p->text, p->len);
		nwritten++;
	}

	struct arena *a = arena_new();
	struct diag d;
	struct buf cap, json;
	buf_init(&cap);
	buf_init(&json);
	diag_init(&d, NULL);
	d.capture = &cap;

	for (size_t i = 0; i < n; i++)
		in_memory(a, &d, &parts[i], &json);

	/* as a build runs them (build.c, stages_run) */
	int before;
	struct config cfg;
	config_load(a, &d, site, NULL, &cfg);
	if (!cfg.root || cfg.root->kind != YNODE_MAP) {
		/* the build stops here; the content is still worth reading */
		memset(&cfg, 0, sizeof cfg);
		cfg.timezone = STR_LIT("UTC");
	}
	before = d.errors;
	struct content c;
	content_load(a, &d, site, &cfg, &c);

	/* as folio serve loads it: the second time from the cache */
	struct content_cache *cc = content_cache_new();
	struct loaded first = load(a, &cfg, cc), again = load(a, &cfg, cc);
	if (first.nposts != again.nposts || first.nseries != again.nseries || first.npages != again.npages ||
	    first.ndata != again.ndata || first.nfailed != again.nfailed || first.errors != again.errors ||
	    first.titles != again.titles || first.nposts != c.nposts || first.errors != d.errors - before) {
		fprintf(stderr, "a load through the content cache differs\n");
		abort();
	}
	content_cache_free(cc);

	diag_fini(&d);
	buf_fini(&cap);
	buf_fini(&json);
	arena_free(a);
	return 0;
}

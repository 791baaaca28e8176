/* test_search.c: the search index (src/search/): words (NFKC, case
 * folding, what of a body's HTML is left out), Snowball stems, varints,
 * shards by prefix, impacts (ranking) and the files' names and bytes. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "search/search.h"
#include "tmpl/tmpl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* ---- words ---- */

struct got {
	struct buf b; /* "word/B word/H ..." */
};

static void note(void *ctx, const char *w, size_t n, enum search_field f)
{
	struct got *g = ctx;
	if (g->b.len)
		buf_putc(&g->b, ' ');
	buf_append(&g->b, w, n);
	buf_puts(&g->b, f == SEARCH_HEADING ? "/H" : "");
}

static const char *words(const char *text, size_t n)
{
	static char out[1024];
	struct got g;
	buf_init(&g.b);
	search_words(text, n, SEARCH_BODY, note, &g);
	snprintf(out, sizeof out, "%s", g.b.p ? g.b.p : "");
	buf_fini(&g.b);
	return out;
}

static const char *html_words(const char *html)
{
	static char out[1024];
	struct got g;
	buf_init(&g.b);
	search_html_words(html, strlen(html), note, &g);
	snprintf(out, sizeof out, "%s", g.b.p ? g.b.p : "");
	buf_fini(&g.b);
	return out;
}

#define W(s) words(s, sizeof(s) - 1)

static void test_words(void)
{
	STR_EQ(W("Hello, World! foo_bar 42x"), "hello world foo bar 42x");
	STR_EQ(W(""), "");
	STR_EQ(W("  ...  "), "");
	/* case folding and NFKC */
	STR_EQ(W("\xc3\x89" "COLE \xc3\x9c" "ber"), "\xc3\xa9" "cole \xc3\xbc" "ber");
	STR_EQ(W("Stra\xc3\x9f" "e"), "strasse");
	STR_EQ(W("\xef\xac\x81" "le"), "file");                      /* the ligature fi */
	STR_EQ(W("\xef\xbc\xa1\xef\xbc\xa2\xef\xbc\xa3"), "abc");  /* fullwidth ABC */
	STR_EQ(W("e\xcc\x81t\xc3\xa9"), "\xc3\xa9t\xc3\xa9");     /* e + combining acute: composed */
	/* what NFKC makes of a character may be no word: split again */
	STR_EQ(W("x\xe2\x91\xb4y \xe2\x91\xa0"), "x 1 y 1");           /* parenthesized one: (1); circled one: 1 */
	STR_EQ(W("a\xc2\xbd"), "a1 2");                                 /* one half: 1/2 */
	/* ideographs and kana: a word each */
	STR_EQ(W("\xe6\x97\xa5\xe6\x9c\xac GPU\xe3\x81\xae"), "\xe6\x97\xa5 \xe6\x9c\xac gpu \xe3\x81\xae");
	/* invalid UTF-8 and punctuation separate words */
	STR_EQ(W("ab\xff" "cd\xe2\x80\x94" "ef"), "ab cd ef");
	STR_EQ(W("ab\xe2\x82"), "ab");
	/* a word longer than SEARCH_WORD_MAX is dropped, not cut */
	char longw[SEARCH_WORD_MAX + 8];
	memset(longw, 'x', sizeof longw);
	STR_EQ(words(longw, sizeof longw), "");
	memcpy(longw + SEARCH_WORD_MAX + 1, " ok", 3);
	STR_EQ(words(longw, SEARCH_WORD_MAX + 4), "ok");
	STR_EQ(words(longw, SEARCH_WORD_MAX), "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
}

static void test_html(void)
{
	/* code blocks, math, comments, scripts: left out; inline code and
	 * headings: in */
	STR_EQ(html_words("<p>Intro <code>cudaMemcpy</code></p><pre><code>int x;</code></pre>"
			  "<h2 id=\"warp\">Warp <em>shuffle</em><a class=\"anchor\" href=\"#warp\">#</a></h2>"
			  "<p><span class=\"math inline\"><span class=\"katex\"><span>xyz</span></span></span> tail"
			  " &amp; end<!-- hidden --><script>var s = '</p>';</script> last</p>"),
	       "intro cudamemcpy warp/H shuffle/H tail end last");
	STR_EQ(html_words("<span class=\"math display\">a<span>b</span>c</span>after"), "after");
	STR_EQ(html_words("<span class=\"math-error\" title=\"x\">bad</span>ok"), "ok");
	STR_EQ(html_words("<span class=\"note\">kept</span>"), "kept");
	/* a sidenote: its words are its footnote's, indexed at the end */
	STR_EQ(html_words("<p>ref<sup>1</sup><span class=\"sidenote\"><span class=\"sidenote-number\" "
			  "aria-hidden=\"true\">1</span> note</span> on</p><li class=\"sidenoted\">note</li>"),
	       "ref 1 on note");
	STR_EQ(html_words("<H3>Upper</H3>body"), "upper/H body");
	STR_EQ(html_words("<svg viewBox=\"0 0 1 1\"><text>label</text></svg>after"), "after");
	STR_EQ(html_words("<svg/>after"), "after");
	STR_EQ(html_words("a<img alt=\"x > y\" src=\"z\">b"), "a b");
	/* cut short anywhere: no word past the end, no crash */
	STR_EQ(html_words("one <pre>two"), "one");
	STR_EQ(html_words("one <span class=\"math"), "one");
	STR_EQ(html_words("one <!-- two"), "one");
	STR_EQ(html_words("one &amp"), "one amp");
	STR_EQ(html_words("x<"), "x");
}

/* ---- stems ---- */

static const char *stem(struct search_stemmer *st, const char *w)
{
	static char out[128];
	size_t n;
	const char *s = search_stem(st, w, strlen(w), &n);
	snprintf(out, sizeof out, "%.*s", (int)n, s);
	return out;
}

static void test_stems(void)
{
	struct search_stemmer *en = search_stemmer_new("en-US", 5);
	OK(en != NULL);
	if (en) {
		STR_EQ(stem(en, "running"), "run");
		STR_EQ(stem(en, "coalescing"), "coalesc");
		STR_EQ(stem(en, "coalesced"), "coalesc");
		STR_EQ(stem(en, "generators"), "generat");
		STR_EQ(stem(en, "spilled"), "spill");
		STR_EQ(stem(en, "warp"), "warp");
	}
	search_stemmer_free(en);
	struct search_stemmer *de = search_stemmer_new("de", 2);
	OK(de != NULL);
	if (de)
		STR_EQ(stem(de, "h\xc3\xa4user"), "haus");
	search_stemmer_free(de);
	struct search_stemmer *fr = search_stemmer_new("French", 6);
	OK(fr != NULL);
	if (fr)
		STR_EQ(stem(fr, "continuellement"), "continuel");
	search_stemmer_free(fr);
	/* no stemmer for a language libstemmer lacks: words stay as they are */
	OK(search_stemmer_new("xx", 2) == NULL);
	OK(search_stemmer_new("", 0) == NULL);
	OK(search_stemmer_new("zh-Hans", 7) == NULL);
	STR_EQ(stem(NULL, "running"), "running");
	search_stemmer_free(NULL);
}

/* ---- the index, read back ---- */

static const unsigned char *rv(const unsigned char *p, const unsigned char *end, uint64_t *v)
{
	*v = 0;
	for (int s = 0; p < end; s += 7) {
		unsigned c = *p++;
		*v |= (uint64_t)(c & 0x7f) << s;
		if (!(c & 0x80))
			return p;
	}
	return NULL;
}

/* One word of a shard: its text, whether it is only a stem, its stem's
 * postings. */
struct rword {
	char w[SEARCH_WORD_MAX + 1];
	int only;
	size_t df;
	uint32_t doc[64];
	uint8_t q[64];
};

/* read_shard: the words of a shard file into v (at most max); -1 if its
 * bytes are not as folio-site(5) says. */
static int read_shard(const struct search_file *f, struct rword *v, size_t max, size_t *n)
{
	const unsigned char *p = (const unsigned char *)f->data, *end = p + f->len;
	uint64_t ns, nw;
	if (!(p = rv(p, end, &ns)) || ns > 4096)
		return -1;
	size_t *df = calloc(ns + 1, sizeof *df);
	uint32_t(*docs)[64] = calloc(ns + 1, sizeof *docs);
	uint8_t(*qs)[64] = calloc(ns + 1, sizeof *qs);
	int rc = -1;
	for (size_t k = 0; k < ns; k++) {
		uint64_t d, x, doc = 0;
		if (!(p = rv(p, end, &d)))
			goto out;
		df[k] = d;
		for (size_t j = 0; j < d; j++) {
			if (!(p = rv(p, end, &x)))
				goto out;
			doc += x;
			if (j < 64)
				docs[k][j] = (uint32_t)doc;
		}
		if ((size_t)(end - p) < d)
			goto out;
		memcpy(qs[k], p, d < 64 ? d : 64);
		p += d;
	}
	if (!(p = rv(p, end, &nw)))
		goto out;
	char last[SEARCH_WORD_MAX + 1] = "";
	*n = 0;
	for (size_t i = 0; i < nw; i++) {
		uint64_t c, m, s;
		if (!(p = rv(p, end, &c)) || !(p = rv(p, end, &m)) || c > strlen(last) || c + m > SEARCH_WORD_MAX ||
		    (size_t)(end - p) < m)
			goto out;
		memcpy(last + c, p, m);
		last[c + m] = 0;
		p += m;
		if (!(p = rv(p, end, &s)) || (s >> 1) >= ns)
			goto out;
		if (*n < max) {
			struct rword *r = &v[(*n)++];
			snprintf(r->w, sizeof r->w, "%s", last);
			r->only = (int)(s & 1);
			r->df = df[s >> 1];
			memcpy(r->doc, docs[s >> 1], sizeof r->doc);
			memcpy(r->q, qs[s >> 1], sizeof r->q);
		}
	}
	rc = p == end ? 0 : -1;
out:
	free(df);
	free(docs);
	free(qs);
	return rc;
}

/* find: word w of the index (in the shard of the longest key it begins
 * with, as the client looks it up), or NULL. */
static struct rword found;
static const struct rword *find(const struct search_index *ix, const char *w)
{
	static struct rword v[4096];
	const struct search_file *meta = &ix->files[ix->nfiles - 1];
	/* the key: the longest "key":"hash" pair of index.json that w begins with */
	const char *best = NULL;
	size_t bestlen = 0;
	const char *p = strstr(meta->data, "\"shards\":{");
	const char *end = p ? strchr(p, '}') : NULL;
	for (p = p ? p + 10 : NULL; p && p < end && *p == '"';) {
		const char *q = strchr(p + 1, '"');
		size_t kl = (size_t)(q - p - 1);
		if (kl <= strlen(w) && !memcmp(w, p + 1, kl) && (!best || kl > bestlen)) {
			best = q + 3;
			bestlen = kl;
		}
		p = strchr(q + 3, '"') + 1;
		if (*p == ',')
			p++;
	}
	if (!best)
		return NULL;
	char rel[64];
	snprintf(rel, sizeof rel, "search/t/%.12s.bin", best);
	for (size_t i = 0; i < ix->nfiles; i++) {
		if (strcmp(ix->files[i].rel, rel))
			continue;
		size_t n;
		if (read_shard(&ix->files[i], v, 4096, &n))
			return NULL;
		for (size_t k = 0; k < n; k++)
			if (!strcmp(v[k].w, w)) {
				found = v[k];
				return &found;
			}
	}
	return NULL;
}

static uint8_t impact(const struct rword *r, uint32_t doc)
{
	for (size_t j = 0; r && j < r->df && j < 64; j++)
		if (r->doc[j] == doc)
			return r->q[j];
	return 0;
}

static void test_varint(void)
{
	struct buf b;
	buf_init(&b);
	search_varint(&b, 0);
	search_varint(&b, 127);
	search_varint(&b, 128);
	search_varint(&b, 300);
	INT_EQ(b.len, 6);
	OK(b.len == 6 && !memcmp(b.p, "\x00\x7f\x80\x01\xac\x02", 6));
	buf_fini(&b);
	INT_EQ(search_prefix_len("\xc3\xa9" "ab", 4, 1), 2);
	INT_EQ(search_prefix_len("\xc3\xa9" "ab", 4, 2), 3);
	INT_EQ(search_prefix_len("ab", 2, 5), 2);
	INT_EQ(search_prefix_len("\xe6\x97\xa5", 3, 1), 3);
}

static struct search_doc doc(const char *title, const char *body)
{
	struct search_doc d;
	memset(&d, 0, sizeof d);
	d.url = str_from(title);
	d.title = str_from(title);
	d.body_html = str_from(body);
	d.excerpt = str_from(body);
	return d;
}

static const struct search_options EN = {1, 1, 1, {"en", 2}, 1, NULL};

static void test_ranking(void)
{
	struct arena *a = arena_new();
	static const struct str warp_tag = {"warp", 4};
	struct search_doc d[6];
	d[0] = doc("Warp shuffle", "<p>Lanes exchange registers.</p>");
	d[1] = doc("Reductions explained", "<p>A warp, a warp, a warp, another warp and a warp.</p>");
	d[2] = doc("Tagged post", "<p>Nothing about it here.</p>");
	d[2].tags = &warp_tag;
	d[2].ntags = 1;
	d[3] = doc("Short post", "<p>One warp.</p>");
	d[4] = doc("Long post", "<p>One warp among many other words that make this body much longer than the short one, "
			   "and longer still, with yet more words, and more.</p>");
	d[5] = doc("Heading post", "<h2>Warp</h2><p>Text.</p>");
	struct search_index ix;
	search_index_docs(a, &EN, d, 6, NULL, 0, NULL, 0, &ix);
	INT_EQ(ix.ndocs, 6);
	const struct rword *w = find(&ix, "warp");
	OK(w != NULL);
	if (w) {
		INT_EQ(w->df, 6);
		struct rword r = *w;
		/* a title word outranks a word repeated in the body */
		OK(impact(&r, 0) > impact(&r, 1));
		/* a tag outranks one word in a body */
		OK(impact(&r, 2) > impact(&r, 3));
		/* one word in a short body outranks one in a long body */
		OK(impact(&r, 3) > impact(&r, 4));
		/* in a heading, more than in the text */
		OK(impact(&r, 5) > impact(&r, 3));
		/* repeated, more than once */
		OK(impact(&r, 1) > impact(&r, 3));
		/* the flags: in the title (0) both, in a tag (2) or a heading (5)
		 * the strong one alone, in the body (1, 3, 4) neither */
		INT_EQ(impact(&r, 0) & 0xc0, 0xc0);
		INT_EQ(impact(&r, 2) & 0xc0, 0x80);
		INT_EQ(impact(&r, 5) & 0xc0, 0x80);
		INT_EQ(impact(&r, 1) & 0xc0, 0);
		INT_EQ(impact(&r, 3) & 0xc0, 0);
		INT_EQ(impact(&r, 4) & 0xc0, 0);
	}
	/* stems: "reductions" and "reduction" share one; the stem is a word
	 * of the shards too (only a stem: no page has it) */
	const struct rword *s = find(&ix, "reduct");
	OK(s != NULL && s->only && s->df == 1 && s->doc[0] == 1);
	const struct rword *t = find(&ix, "reductions");
	OK(t != NULL && !t->only && t->df == 1);
	OK(find(&ix, "among") != NULL);
	OK(find(&ix, "nonesuch") == NULL);
	arena_free(a);

	/* without stemming, without the body */
	a = arena_new();
	struct search_options o = {0, 1, 0, {"en", 2}, 1, NULL};
	search_index_docs(a, &o, d, 6, NULL, 0, NULL, 0, &ix);
	OK(find(&ix, "reduct") == NULL);
	OK(find(&ix, "reductions") != NULL);
	OK(find(&ix, "lanes") == NULL);
	w = find(&ix, "warp"); /* titles, tags and headings still */
	OK(w != NULL && w->df == 3);
	arena_free(a);
}

/* a heading's words side by side are a word of their own, found as the
 * page finds them: the pair, not stemmed, flagged as a heading's; no pair
 * across a heading's end, or of a title's or the body's words */
static void test_pairs(void)
{
	struct arena *a = arena_new();
	struct search_doc d[2];
	d[0] = doc("Warp basics", "<h2>Warp Shuffles Explained</h2><p>Lanes exchange registers.</p>"
				  "<h3>Costs</h3><p>Cheap.</p>");
	d[1] = doc("Other", "<p>Warp shuffles explained in prose.</p>");
	struct search_index ix;
	search_index_docs(a, &EN, d, 2, NULL, 0, NULL, 0, &ix);
	const struct rword *w = find(&ix, "warp shuffles");
	OK(w != NULL && w->df == 1 && w->doc[0] == 0 && (w->q[0] & 0x80));
	w = find(&ix, "shuffles explained");
	OK(w != NULL && w->df == 1);
	OK(find(&ix, "warp shuffl") == NULL);     /* not stemmed */
	OK(find(&ix, "explained lanes") == NULL); /* the heading ended */
	OK(find(&ix, "explained costs") == NULL); /* a paragraph between */
	OK(find(&ix, "warp basics") == NULL);     /* a title's */
	OK(find(&ix, "exchange registers") == NULL);
	arena_free(a);
}

static void test_sharding(void)
{
	struct arena *a = arena_new();
	/* 2,000 documents, each with words of its own under one prefix: the
	 * shards of "a" must be split */
	size_t n = 2000;
	struct search_doc *d = calloc(n, sizeof *d);
	char *bodies = calloc(n, 96);
	for (size_t i = 0; i < n; i++) {
		char *b = bodies + i * 96;
		snprintf(b, 96, "<p>aa%zu ab%zu a%zuz common</p>", i * 7919 % 100000, i, i % 13);
		d[i] = doc("Doc", b);
	}
	struct search_filter tag = {{"t", 1}, (const uint32_t[]){1, 5, 9}, 3};
	struct search_index ix, ix2;
	search_index_docs(a, &EN, d, n, NULL, 0, &tag, 1, &ix);
	search_index_docs(a, &EN, d, n, NULL, 0, &tag, 1, &ix2);
	OK(ix.nshards > 3);
	/* the same documents, the same files, byte for byte */
	INT_EQ(ix.nfiles, ix2.nfiles);
	int same = ix.nfiles == ix2.nfiles, named = 1, small = 1, readable = 1;
	size_t words = 0;
	static struct rword v[4096];
	for (size_t i = 0; same && i < ix.nfiles; i++) {
		const struct search_file *f = &ix.files[i], *g = &ix2.files[i];
		same = same && !strcmp(f->rel, g->rel) && f->len == g->len && !memcmp(f->data, g->data, f->len);
		if (!strcmp(f->rel, "search/index.json"))
			continue;
		/* each named by the hash of its bytes */
		char want[17];
		snprintf(want, sizeof want, "%016llx", (unsigned long long)XXH3_64bits(f->data, f->len));
		const char *slash = strrchr(f->rel, '/');
		named = named && slash && !strncmp(slash + 1, want, 12);
		if (strncmp(f->rel, "search/t/", 9))
			continue;
		size_t k;
		if (read_shard(f, v, 4096, &k)) {
			readable = 0;
			continue;
		}
		words += k;
		/* a shard over the bound has one word, or words that are
		 * all one prefix */
		if (f->len > 16384 && k > 1 && strcmp(v[0].w, "common"))
			small = 0;
	}
	OK(same);
	OK(named);
	OK(readable);
	OK(small);
	INT_EQ(words, ix.nwords);
	/* every word is found where the client looks for it */
	OK(find(&ix, "common") != NULL && found.df == n);
	char w[32];
	int all = 1;
	for (size_t i = 0; i < n; i += 97) {
		snprintf(w, sizeof w, "ab%zu", i);
		const struct rword *r = find(&ix, w);
		all = all && r && r->df == 1 && r->doc[0] == i;
	}
	OK(all);
	/* the entry point is last, and lists the filters */
	const struct search_file *meta = &ix.files[ix.nfiles - 1];
	STR_EQ(meta->rel, "search/index.json");
	OK(strstr(meta->data, "\"tags\":[[\"t\",\"") != NULL);
	OK(strstr(meta->data, "\"docs\":2000,") != NULL);
	free(d);
	free(bodies);
	arena_free(a);

	/* no documents: an index all the same */
	a = arena_new();
	search_index_docs(a, &EN, NULL, 0, NULL, 0, NULL, 0, &ix);
	INT_EQ(ix.nfiles, 1);
	STR_EQ(ix.files[0].rel, "search/index.json");
	arena_free(a);
}

/* Made on two and three threads, the same index as on one, byte for byte:
 * documents that share words and stems and have words of their own,
 * headings (word pairs), titles, tags, series and summaries, over batches
 * whose edges fall inside the set, with enough postings for pass 2 to be
 * split (each part's postings of a stem after those of the parts before
 * it); with and without stemming. */
static void test_threads(void)
{
	struct arena *a = arena_new();
	size_t n = 1500;
	struct search_doc *d = calloc(n, sizeof *d);
	char *bodies = calloc(n, 1024);
	static const char *const verbs[] = {"spilling", "spilled", "spills", "coalesced", "coalescing", "reduces",
					    "reduction", "warps", "warp", "scheduling"};
	static const struct str tags[] = {{"cuda", 4}, {"GPU", 3}, {"triton", 6}};
	for (size_t i = 0; i < n; i++) {
		char *b = bodies + i * 1024;
		size_t at = (size_t)snprintf(b, 1024, "<h2>%s %s w%zu</h2><p>%s registers x%zu %s <strong>bank</strong> c%zu ",
					     verbs[i % 10], verbs[(i * 7) % 10], i % 97, verbs[(i / 3) % 10], i,
					     verbs[(i + 4) % 10], i % 31);
		/* and 70 words of a vocabulary of 3,000, some in many documents,
		 * some in few, some repeated: enough postings for pass 2 to be
		 * split over the threads */
		for (size_t k = 0; k < 70; k++)
			at += (size_t)snprintf(b + at, 1024 - at, "v%zu ", (i * 31 + k * k * 7) % (k < 20 ? 50 : 3000));
		snprintf(b + at, 1024 - at, "</p>");
		d[i] = doc(i % 5 ? "Tiling kernels" : "Warp level reduction", b);
		d[i].tags = &tags[i % 2];
		d[i].ntags = 1 + i % 2;
		d[i].series = i % 4 ? (struct str){"GPU Systems", 11} : (struct str){"", 0};
		d[i].summary = i % 6 ? (struct str){"", 0} : (struct str){"Registers spill under pressure", 30};
	}
	for (int stem = 0; stem < 2; stem++) {
		struct search_options one = {1, 1, stem, {"en", 2}, 1, NULL};
		struct search_index x1;
		search_index_docs(a, &one, d, n, NULL, 0, NULL, 0, &x1);
		OK(x1.nwords > 4500);
		const struct rword *w = find(&x1, "v7");
		OK(w != NULL && w->df > 64);
		for (int jobs = 2; jobs <= 3; jobs++) {
			struct search_options more = one;
			more.jobs = jobs;
			struct search_index xj;
			search_index_docs(a, &more, d, n, NULL, 0, NULL, 0, &xj);
			int same = x1.nfiles == xj.nfiles && x1.nwords == xj.nwords && x1.nstems == xj.nstems;
			for (size_t i = 0; same && i < x1.nfiles; i++)
				same = !strcmp(x1.files[i].rel, xj.files[i].rel) && x1.files[i].len == xj.files[i].len &&
				       !memcmp(x1.files[i].data, xj.files[i].data, x1.files[i].len);
			OK(same);
		}
	}
	free(d);
	free(bodies);
	arena_free(a);
}

/* The records' JSON: each text as tval_to_json writes it, HTML-safe,
 * whatever bytes it holds. */
static void test_records(void)
{
	struct arena *a = arena_new();
	static const char title[] = "A \"quoted\" \\ path <b>&amp; it's\n\t\r\x01\x1f\x7f "
				    "caf\xc3\xa9 \xe2\x80\xa8 \xe6\x97\xa5 \xff end";
	struct search_doc d[2];
	d[0] = doc("posts/a/", "<p>Body.</p>");
	d[0].title = (struct str){title, sizeof title - 1};
	d[0].excerpt = (struct str){"'<>&\"", 5};
	d[0].date = STR_LIT("2024-01-02");
	d[1] = doc("posts/b/", "");
	d[1].excerpt = (struct str){"", 0};
	struct search_index ix;
	search_index_docs(a, &EN, d, 2, NULL, 0, NULL, 0, &ix);
	struct buf want;
	buf_init(&want);
	buf_puts(&want, "[");
	for (int i = 0; i < 2; i++) {
		buf_puts(&want, i ? ",[" : "[");
		const struct str fields[] = {d[i].url, d[i].title, d[i].date, d[i].series, d[i].excerpt};
		for (size_t k = 0; k < 5; k++) {
			struct tval v = tv_str(fields[k]);
			buf_puts(&want, k ? "," : "");
			tval_to_json(&want, &v, a, 1, (size_t)-1);
		}
		buf_puts(&want, "]");
	}
	buf_puts(&want, "]\n");
	const struct search_file *rec = NULL;
	for (size_t i = 0; i < ix.nfiles; i++)
		if (!strncmp(ix.files[i].rel, "search/d/", 9))
			rec = &ix.files[i];
	OK(rec != NULL);
	if (rec) {
		INT_EQ(rec->len, want.len);
		OK(rec->len == want.len && !memcmp(rec->data, want.p, want.len));
	}
	buf_fini(&want);
	arena_free(a);
}

void test_search(void)
{
	test_words();
	test_html();
	test_stems();
	test_varint();
	test_ranking();
	test_pairs();
	test_sharding();
	test_threads();
	test_records();
}

/* fuzz_pages.c: libFuzzer target for what each page of an output read,
 * which a build keeps in .folio-cache/pages-HASH (rebuild_load_block; the
 * layout in incremental/rebuild.c: "folio-pages 4\n" padded to 16 bytes,
 * the stamp, the config's fingerprint, the link check's memo, the ids of
 * keys, the fingerprints, the records of pages). An input is such a file.
 * It is read as it is, and again with its stamp made right (the format
 * has no checksum: every other byte reaches the reader as it is).
 *
 * Besides crashes, the target checks that a state refused leaves nothing
 * and gives its bytes back once, and uses a state read as a build does:
 * the ids of its keys and of new keys lie below rebuild_nids (a build's
 * fingerprints are an array of that size), each record is found by its
 * path, the pages that read a changed id are records, the records' links
 * go through the link check, and the records kept by a commit are saved.
 * What is saved reads back and saves again as the same bytes.
 *
 * With FUZZ_SHOW set in the environment, what each state gave is printed. */
#include "fuzz.h"

#include "base/buf.h"
#include "base/diag.h"
#include "check/links.h"
#include "incremental/rebuild.h"

#define STAMP    0x0123456789abcdefULL
#define HEAD     16
#define MAX_RECS 4096
#define MAX_KEYS 4096

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* ---- the saved bytes, read here again (they are folio's own) ---- */

struct rd {
	const char *p, *end;
};

static const char *take(struct rd *r, uint64_t n)
{
	if ((uint64_t)(r->end - r->p) < n)
		abort(); /* what rebuild_save wrote is whole */
	const char *at = r->p;
	r->p += n;
	return at;
}

static uint64_t u64(struct rd *r)
{
	uint64_t v;
	memcpy(&v, take(r, 8), 8);
	return v;
}

static uint32_t u32(struct rd *r)
{
	uint32_t v;
	memcpy(&v, take(r, 4), 4);
	return v;
}

struct key {
	const char *k;
	uint32_t len, id, n;
};

struct rec {
	char *out;
	uint64_t vars_fp;
	const uint32_t *ids; /* unaligned in the bytes: read with memcpy */
	uint32_t nids;
};

struct state {
	uint64_t cfg_fp;
	const char *memo;
	uint64_t memo_len;
	uint32_t next_id;
	struct key keys[MAX_KEYS];
	size_t nkeys;
	uint64_t nfp;
	struct rec recs[MAX_RECS];
	size_t nrecs;
};

/* parse_saved: s from bytes rebuild_save wrote (its stamp STAMP); 0, or
 * -1 when it holds more keys or records than s does. */
static int parse_saved(const char *p, size_t len, struct state *s)
{
	struct rd r = {p, p + len};
	const char *head = take(&r, HEAD);
	if (memcmp(head, "folio-pages 4\n", 14) != 0 || u64(&r) != STAMP)
		abort();
	s->cfg_fp = u64(&r);
	s->memo_len = u64(&r);
	s->memo = take(&r, s->memo_len);
	s->next_id = u32(&r);
	uint64_t nkeys = u64(&r);
	if (nkeys > MAX_KEYS)
		return -1;
	s->nkeys = (size_t)nkeys;
	for (size_t i = 0; i < s->nkeys; i++) {
		struct key *k = &s->keys[i];
		k->id = u32(&r);
		k->n = u32(&r);
		k->len = u32(&r);
		k->k = take(&r, k->len);
	}
	s->nfp = u64(&r);
	take(&r, s->nfp * 8);
	uint64_t nrecs = u64(&r);
	if (nrecs > MAX_RECS)
		return -1;
	s->nrecs = (size_t)nrecs;
	for (size_t i = 0; i < s->nrecs; i++) {
		struct rec *x = &s->recs[i];
		x->vars_fp = u64(&r);
		x->nids = u32(&r);
		uint32_t ol = u32(&r);
		const char *out = take(&r, ol);
		x->out = memchr(out, '\0', ol) ? NULL : xstrndup(out, ol);
		x->ids = (const uint32_t *)(const void *)take(&r, (uint64_t)x->nids * 4);
		take(&r, u64(&r));
	}
	if (r.p != r.end)
		abort(); /* nothing after the records */
	return 0;
}

static void free_saved(struct state *s)
{
	for (size_t i = 0; i < s->nrecs; i++)
		free(s->recs[i].out);
}

/* ---- reading ---- */

static int released;

static void release(void *p, size_t len)
{
	(void)len;
	released++;
	free(p);
}

/* load: a new state from p[0..len) (a copy the reader takes); NULL when
 * it is refused (then the copy was given back, and nothing is kept). */
static struct rebuild *load(const char *p, size_t len)
{
	char *copy = malloc(len ? len : 1);
	memcpy(copy, p, len);
	struct rebuild *rb = rebuild_new();
	released = 0;
	if (rebuild_load_block(rb, STAMP, copy, len, release) != 0) {
		size_t memo_len;
		if (released != 1 || rebuild_built(rb) || rebuild_nids(rb) != 1 ||
		    rebuild_links_memo(rb, &memo_len) || memo_len)
			abort();
		rebuild_free(rb);
		return NULL;
	}
	if (released != 0 || !rebuild_built(rb))
		abort();
	return rb;
}

static void save(const struct rebuild *rb, struct buf *out)
{
	if (rebuild_save(rb, STAMP, out, NULL, NULL) != 0)
		abort();
}

/* ---- a build's use of a state read ---- */

/* block: the ids [id, id + n) of a key, as a build fills them. */
static void block(struct rebuild *rb, uint64_t *fp, size_t nfp, uint32_t id, uint32_t n)
{
	if (id == 0 || (uint64_t)id + n > rebuild_nids(rb) || (uint64_t)id + n > nfp)
		abort(); /* a build's fingerprints are rebuild_nids of them */
	for (uint32_t k = 0; k < n; k++)
		fp[id + k] = 1;
}

static void ids(struct rebuild *rb, const struct state *s)
{
	/* a new key, and each key of the state asked as a build asks it
	 * (those of posts with a block as big, or bigger) */
	uint32_t nid = rebuild_id(rb, "fuzz:a key no state holds", 25, 9);
	uint32_t got[MAX_KEYS];
	for (size_t i = 0; i < s->nkeys; i++) {
		uint32_t n = s->keys[i].n + (uint32_t)(i % 2);
		got[i] = rebuild_id(rb, s->keys[i].k, s->keys[i].len, n);
		if (!(i % 2) && got[i] != s->keys[i].id)
			abort(); /* a block big enough is kept */
	}
	size_t nfp = rebuild_nids(rb);
	uint64_t *fp = calloc(nfp, sizeof *fp);
	block(rb, fp, nfp, nid, 9);
	for (size_t i = 0; i < s->nkeys; i++)
		block(rb, fp, nfp, got[i], s->keys[i].n + (uint32_t)(i % 2));
	free(fp);
}

static void records(struct rebuild *rb, const struct state *s)
{
	for (size_t i = 0; i < s->nrecs; i++) {
		const struct rec *x = &s->recs[i];
		if (x->out && !rebuild_last(rb, x->out))
			abort(); /* each record is found by its path */
	}
	size_t nfp;
	uint64_t *fp = rebuild_last_inputs(rb, &nfp);
	if (nfp != rebuild_nids(rb))
		abort();
	for (size_t i = 0; i < s->nrecs; i++)
		if (s->recs[i].out)
			(void)rebuild_dirty(rb, s->recs[i].out, s->recs[i].vars_fp, fp, nfp,
			                    s->cfg_fp);
	for (size_t i = 1; i < nfp; i += 3)
		fp[i] ^= 1; /* a third of the ids changed */
	const char **outs;
	size_t n = rebuild_readers(rb, fp, nfp, &outs);
	for (size_t i = 0; i < n; i++)
		if (!rebuild_last(rb, outs[i]))
			abort(); /* a reader is a record */
	free(outs);
	free(fp);
}

static void on_external(void *ctx, const char *url, const char *path, int line, int col)
{
	(void)ctx;
	(void)line;
	(void)col;
	if (strncmp(url, "http", 4) || !path)
		abort();
}

/* links: the records' links checked as a build checks the pages it did
 * not render again, and the state's memo asked. */
static void links(const struct rebuild *rb, const struct state *s)
{
	struct links_check *lc = links_check_new("/", LINKS_ERROR);
	for (size_t i = 0; i < s->nrecs; i++)
		if (s->recs[i].out)
			links_check_file(lc, s->recs[i].out);
	for (size_t i = 0; i < s->nrecs; i++) {
		const struct rebuild_page *p =
		    s->recs[i].out ? rebuild_last(rb, s->recs[i].out) : NULL;
		if (!p)
			continue;
		if (!links_record_same_ids(p->links, p->links_len, p->links, p->links_len))
			abort();
		links_check_page(lc, p->out, p->links, p->links_len, NULL, NULL, 0, NULL, 0);
	}
	size_t memo_len;
	const char *memo = rebuild_links_memo(rb, &memo_len);
	(void)links_check_memo_holds(lc, links_memo_key(memo, memo_len), memo, memo_len);
	struct diag d;
	struct buf cap;
	buf_init(&cap);
	diag_init(&d, NULL);
	d.capture = &cap;
	(void)links_check_run(lc, &d);
	links_check_external(lc, "https://example.org/", on_external, NULL);
	diag_fini(&d);
	buf_fini(&cap);
	links_check_free(lc);
}

/* commit: the records kept by a build that rendered nothing again. */
static void commit(struct rebuild *rb, const struct state *s)
{
	const char **outs = calloc(s->nrecs + 1, sizeof *outs);
	struct rebuild_page **fresh = calloc(s->nrecs + 1, sizeof *fresh);
	size_t n = 0;
	for (size_t i = 0; i < s->nrecs; i++)
		if (s->recs[i].out)
			outs[n++] = s->recs[i].out;
	size_t nfp;
	uint64_t *fp = rebuild_last_inputs(rb, &nfp);
	rebuild_commit(rb, fresh, outs, NULL, n, fp, nfp, s->cfg_fp);
	for (size_t i = 0; i < n; i++)
		if (!rebuild_last(rb, outs[i]))
			abort();
	free(fresh);
	free(outs);
}

/* again: bytes folio saved read back, saved again the same. */
static void again(const struct buf *saved)
{
	struct rebuild *rb = load(saved->p, saved->len);
	if (!rb)
		abort(); /* what folio writes, it must read */
	struct buf b;
	buf_init(&b);
	save(rb, &b);
	if (b.len != saved->len || memcmp(b.p, saved->p, b.len) != 0)
		abort();
	buf_fini(&b);
	rebuild_free(rb);
}

static void one(const char *p, size_t len)
{
	struct rebuild *rb = load(p, len);
	if (getenv("FUZZ_SHOW"))
		fprintf(stderr, "--- %zu bytes: %s (%zu ids)\n", len, rb ? "read" : "refused",
		        rb ? rebuild_nids(rb) : 0);
	if (!rb)
		return;
	struct buf saved;
	buf_init(&saved);
	save(rb, &saved);
	again(&saved);
	static struct state s;
	if (parse_saved(saved.p, saved.len, &s) == 0) {
		if (rebuild_nids(rb) != s.next_id)
			abort();
		size_t memo_len;
		const char *memo = rebuild_links_memo(rb, &memo_len);
		if (memo_len != s.memo_len || (memo_len && memcmp(memo, s.memo, memo_len)))
			abort();
		links(rb, &s);
		records(rb, &s);
		commit(rb, &s);
		struct buf b;
		buf_init(&b);
		save(rb, &b);
		again(&b);
		buf_fini(&b);
		ids(rb, &s);
		free_saved(&s);
	}
	buf_fini(&saved);
	rebuild_free(rb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one((const char *)data, size);
	if (size >= HEAD + 8) {
		char *copy = malloc(size);
		memcpy(copy, data, size);
		uint64_t stamp = STAMP;
		memcpy(copy + HEAD, &stamp, 8);
		one(copy, size);
		free(copy);
	}
	return 0;
}

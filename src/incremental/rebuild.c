/* rebuild.c: what a session of builds renders again (see rebuild.h). */
#include "incremental/rebuild.h"

#include "base/arena.h"
#include "cache/mdcache.h"
#include "base/index.h"
#include "base/pool.h"
#include "tmpl/tmpl.h"
#include "base/hash.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


struct rebuild {
	/* ids: "post:slug" -> its block of ids, for the life of the session */
	char **keys;
	uint32_t *key_id, *key_n; /* first id, and how many */
	size_t nkeys, cap_keys;
	uint32_t next_id;
	struct index key_index; /* position + 1, by key */
	/* fingerprints, by id, of what the output in place was made from */
	uint64_t *fp;
	size_t nfp;
	uint64_t cfg_fp;
	/* the link check of the output in place: its memo
	 * (links.h: links_check_memo), malloc'd; NULL: not known */
	char *links_memo;
	size_t links_memo_len;
	/* by output path */
	struct rebuild_page **recs;
	size_t nrecs;
	struct index rec_index; /* position + 1, by output path */
	char *block; /* the state read (rebuild_load_block): records' links in it */
	size_t block_len;
	void (*release)(void *, size_t); /* how block goes; NULL: free */
	int built;
	/* the readers of each id (rebuild_readers), made at its first call
	 * after a commit: by id, the records that read it (rd_start: where
	 * each id's begin in rd_rec, rd_nids + 1 of them); a record replaced
	 * or added since (rebuild_commit_some) is stale there, and looked at
	 * on its own (rd_extra) */
	uint32_t *rd_start, *rd_rec;
	size_t rd_nids;
	uint8_t *rd_stale;
	uint32_t *rd_extra;
	size_t rd_nextra, rd_extra_cap, rd_stale_cap;
	int rd_made;
	/* a patch's (rebuild_patch_begin): fp is changed in place; the values
	 * it had (id, value) until the patch is committed or undone; fp's
	 * room */
	struct undo {
		uint32_t id;
		uint64_t was;
	} *undo;
	size_t nundo, undo_cap, fp_cap;
	/* texts whose hash is known (rebuild_known), for this build */
	struct known {
		const char *p;
		size_t len;
		uint64_t h;
	} *known;
	size_t nknown, cap_known;
	struct index known_index;
};

static uint64_t ptr_hash(const void *p)
{
	uintptr_t v = (uintptr_t)p;
	return hash_bytes(&v, sizeof v);
}

static uint64_t known_hash(const void *ctx, uint32_t v)
{
	return ptr_hash(((const struct rebuild *)ctx)->known[v - 1].p);
}

static int known_eq(const void *ctx, uint32_t v, const void *key)
{
	return ((const struct rebuild *)ctx)->known[v - 1].p == key;
}

uint64_t rebuild_text_hash(const char *p, size_t len)
{
	return md_cache_html_hash(p, len); /* what the Markdown cache keeps of a document's HTML */
}

void rebuild_known(struct rebuild *rb, const char *p, size_t len, uint64_t h)
{
	if (!p || index_get(&rb->known_index, ptr_hash(p), known_eq, rb, p))
		return;
	if (rb->nknown == rb->cap_known) {
		rb->cap_known = rb->cap_known ? rb->cap_known * 2 : 1024;
		rb->known = xrealloc(rb->known, rb->cap_known * sizeof *rb->known);
	}
	rb->known[rb->nknown++] = (struct known){p, len, h};
	index_add(&rb->known_index, ptr_hash(p), (uint32_t)rb->nknown, 1024, known_hash, rb);
}

void rebuild_known_clear(struct rebuild *rb)
{
	free(rb->known);
	rb->known = NULL;
	rb->nknown = rb->cap_known = 0;
	index_fini(&rb->known_index);
}

/* text_hash: rebuild_text_hash of s, known or made. */
static uint64_t text_hash(const struct rebuild *rb, struct str s)
{
	if (rb && rb->nknown && s.len >= 256) {
		uint32_t v = index_get(&rb->known_index, ptr_hash(s.p), known_eq, rb, s.p);
		if (v && rb->known[v - 1].len == s.len)
			return rb->known[v - 1].h;
	}
	return rebuild_text_hash(s.p, s.len);
}

static uint64_t key_hash(const void *ctx, uint32_t v)
{
	const char *k = ((const struct rebuild *)ctx)->keys[v - 1];
	return hash_bytes(k, strlen(k));
}

static int key_eq(const void *ctx, uint32_t v, const void *key)
{
	const char *k = ((const struct rebuild *)ctx)->keys[v - 1];
	const struct str *want = key;
	return strlen(k) == want->len && !memcmp(k, want->p, want->len);
}

static const char *rec_out(const void *ctx, uint32_t v)
{
	return ((const struct rebuild *)ctx)->recs[v - 1]->out;
}

struct rebuild *rebuild_new(void)
{
	struct rebuild *rb = xcalloc(1, sizeof *rb);
	rb->next_id = 1;
	return rb;
}

void rebuild_page_free(struct rebuild_page *p)
{
	if (!p)
		return;
	free(p->out);
	free(p->deps);
	if (!p->links_borrowed)
		free(p->links);
	free(p);
}

static void drop_block(char *p, size_t len, void (*release)(void *, size_t))
{
	if (release)
		release(p, len);
	else
		free(p);
}

/* forget: rb as new, its memory freed (not rb itself). */
/* readers_drop: the readers' index of no more use (the records changed) */
static void readers_drop(struct rebuild *rb)
{
	free(rb->rd_start);
	free(rb->rd_rec);
	free(rb->rd_stale);
	free(rb->rd_extra);
	rb->rd_start = rb->rd_rec = rb->rd_extra = NULL;
	rb->rd_stale = NULL;
	rb->rd_nids = rb->rd_nextra = rb->rd_extra_cap = rb->rd_stale_cap = 0;
	rb->rd_made = 0;
}

static void forget(struct rebuild *rb)
{
	readers_drop(rb);
	for (size_t i = 0; i < rb->nkeys; i++)
		free(rb->keys[i]);
	free(rb->keys);
	free(rb->key_id);
	free(rb->key_n);
	index_fini(&rb->key_index);
	free(rb->fp);
	free(rb->undo);
	for (size_t i = 0; i < rb->nrecs; i++)
		rebuild_page_free(rb->recs[i]);
	free(rb->recs);
	drop_block(rb->block, rb->block_len, rb->release);
	free(rb->links_memo);
	index_fini(&rb->rec_index);
	rebuild_known_clear(rb);
	memset(rb, 0, sizeof *rb);
	rb->next_id = 1;
}

void rebuild_free(struct rebuild *rb)
{
	if (!rb)
		return;
	forget(rb);
	free(rb);
}

uint32_t rebuild_id(void *ctx, const char *key, size_t len, size_t n)
{
	struct rebuild *rb = ctx;
	struct str want = {key, len};
	uint64_t h = hash_bytes(key, len);
	uint32_t v = index_get(&rb->key_index, h, key_eq, rb, &want);
	if (v) {
		size_t k = v - 1;
		if (rb->key_n[k] >= n)
			return rb->key_id[k];
		rb->key_id[k] = rb->next_id; /* the old ids are never given again */
		rb->key_n[k] = (uint32_t)n;
		rb->next_id += (uint32_t)n;
		return rb->key_id[k];
	}
	if (rb->nkeys == rb->cap_keys) {
		rb->cap_keys = rb->cap_keys ? rb->cap_keys * 2 : 1024;
		rb->keys = xrealloc(rb->keys, rb->cap_keys * sizeof *rb->keys);
		rb->key_id = xrealloc(rb->key_id, rb->cap_keys * sizeof *rb->key_id);
		rb->key_n = xrealloc(rb->key_n, rb->cap_keys * sizeof *rb->key_n);
	}
	rb->keys[rb->nkeys] = xstrndup(key, len);
	rb->key_id[rb->nkeys] = rb->next_id;
	rb->key_n[rb->nkeys] = (uint32_t)n;
	rb->next_id += (uint32_t)n;
	rb->nkeys++;
	index_add(&rb->key_index, h, (uint32_t)rb->nkeys, 1024, key_hash, rb);
	return rb->key_id[rb->nkeys - 1];
}

size_t rebuild_nids(const struct rebuild *rb)
{
	return rb->next_id;
}

/* ---- fingerprints ---- */

uint64_t rebuild_mix(uint64_t h, uint64_t x)
{
	/* a 64-bit multiply-xorshift step; strings are hashed with xxHash */
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 33);
}

/* hash_val: a value's fingerprint. A map with an id counts by its id alone
 * (what it holds has its own fingerprint), except at the top. */
static uint64_t hash_val(const struct rebuild *rb, const struct tval *v, int top)
{
	uint64_t h = rebuild_mix((uint64_t)v->kind << 8 | v->safe, 0);
	switch (v->kind) {
	case TV_BOOL: return rebuild_mix(h, (uint64_t)v->u.b);
	case TV_INT: return rebuild_mix(h, (uint64_t)v->u.i);
	case TV_FLOAT: {
		uint64_t bits;
		memcpy(&bits, &v->u.f, sizeof bits);
		return rebuild_mix(h, bits);
	}
	case TV_UNDEF:
	case TV_STR: return rebuild_mix(h, text_hash(rb, v->u.s));
	case TV_LIST:
		h = rebuild_mix(h, v->u.list->len);
		for (size_t i = 0; i < v->u.list->len; i++)
			h = rebuild_mix(h, hash_val(rb, &v->u.list->items[i], 0));
		return h;
	case TV_MAP: {
		const struct tmap *m = v->u.map;
		if (m->dep && !top)
			return rebuild_mix(h, 0x100000000ULL | m->dep);
		h = rebuild_mix(h, m->len);
		for (size_t i = 0; i < m->len; i++) {
			h = rebuild_mix(h, hash_bytes(m->keys[i].p, m->keys[i].len));
			h = rebuild_mix(h, hash_val(rb, &m->vals[i], 0));
		}
		return h;
	}
	default: /* objects and functions are not part of the model */
		return h;
	}
}

uint64_t rebuild_fingerprint(const struct rebuild *rb, const struct tval *v, const char *extra)
{
	uint64_t r = hash_val(rb, v, 1);
	if (extra)
		r = rebuild_mix(r, hash_bytes(extra, strlen(extra)));
	return r ? r : 1; /* 0 means "absent" */
}

void rebuild_fingerprint_dep(const struct rebuild *rb, uint64_t *fp, const struct render_dep_val *dv)
{
	/* a global's by its value (a map with an id in it by identity: its
	 * keys are read through their own ids); a map's, for each key, and
	 * for the whole */
	if (!dv->is_map) {
		uint64_t r = hash_val(rb, &dv->v, 0);
		fp[dv->id] = r ? r : 1;
		return;
	}
	const struct tmap *m = dv->v.u.map;
	uint64_t whole = rebuild_mix(0, m->len);
	for (size_t i = 0; i < m->len; i++) {
		uint64_t f = rebuild_mix(hash_bytes(m->keys[i].p, m->keys[i].len), hash_val(rb, &m->vals[i], 0));
		if (i < TMPL_DEP_FIELDS)
			fp[dv->id + 1 + i] = f ? f : 1;
		whole = rebuild_mix(whole, f);
	}
	fp[dv->id] = whole ? whole : 1;
}

/* ---- records ---- */

const struct rebuild_page *rebuild_last(const struct rebuild *rb, const char *out)
{
	uint32_t v = index_get_str(&rb->rec_index, out, rec_out, rb);
	return v ? rb->recs[v - 1] : NULL;
}

static void rec_reindex(struct rebuild *rb)
{
	index_rebuild_str(&rb->rec_index, rb->nrecs, 1024, rec_out, rb);
}

int rebuild_dirty(const struct rebuild *rb, const char *out, uint64_t vars_fp, const uint64_t *fp, size_t nfp,
                  uint64_t cfg_fp)
{
	if (!rb->built || cfg_fp != rb->cfg_fp)
		return 1;
	const struct rebuild_page *old = rebuild_last(rb, out);
	if (!old || old->vars_fp != vars_fp)
		return 1;
	for (size_t k = 0; k < old->ndeps; k++) {
		uint32_t id = old->deps[k];
		uint64_t was = id < rb->nfp ? rb->fp[id] : 0, now = id < nfp ? fp[id] : 0;
		if (was != now)
			return 1;
	}
	return 0;
}

/* sort_ids: a record's ids in ascending order (rebuild_readers searches
 * them). A page reads hundreds to thousands of ids, mostly in order: an
 * insertion sort for a few, else a radix sort by bytes (the passes whose
 * byte is the same in every id skipped), not qsort's call per compare. */
static void sort_ids(uint32_t *ids, size_t n)
{
	size_t i = 1;
	while (i < n && ids[i - 1] <= ids[i])
		i++;
	if (i >= n)
		return;
	if (n <= 48) {
		for (; i < n; i++) {
			uint32_t v = ids[i];
			size_t j = i;
			for (; j && ids[j - 1] > v; j--)
				ids[j] = ids[j - 1];
			ids[j] = v;
		}
		return;
	}
	uint32_t *tmp = xmalloc(n * sizeof *tmp), *from = ids, *to = tmp;
	uint32_t all_or = 0, all_and = UINT32_MAX;
	for (size_t k = 0; k < n; k++) {
		all_or |= ids[k];
		all_and &= ids[k];
	}
	for (unsigned shift = 0; shift < 32; shift += 8) {
		if (!(((all_or ^ all_and) >> shift) & 0xff))
			continue; /* this byte is the same in every id */
		size_t count[257] = {0};
		for (size_t k = 0; k < n; k++)
			count[((from[k] >> shift) & 0xff) + 1]++;
		for (size_t b = 1; b < 257; b++)
			count[b] += count[b - 1];
		for (size_t k = 0; k < n; k++)
			to[count[(from[k] >> shift) & 0xff]++] = from[k];
		uint32_t *t = from;
		from = to;
		to = t;
	}
	if (from != ids)
		memcpy(ids, from, n * sizeof *ids);
	free(tmp);
}

/* has_id: whether the sorted ids[0..n) hold id. */
static int has_id(const uint32_t *ids, size_t n, uint32_t id)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ids[lo] == id;
}

struct rebuild_page *rebuild_record(const char *out, uint64_t vars_fp, const uint32_t *ids, size_t n)
{
	struct rebuild_page *rec = xcalloc(1, sizeof *rec);
	rec->out = xstrndup(out, strlen(out));
	rec->vars_fp = vars_fp;
	rec->ndeps = n;
	rec->deps = xmalloc((n + 1) * sizeof *rec->deps);
	if (n)
		memcpy(rec->deps, ids, n * sizeof *rec->deps);
	sort_ids(rec->deps, n);
	return rec;
}

void rebuild_commit(struct rebuild *rb, struct rebuild_page **fresh, const char *const *outs,
                    const unsigned char *want, size_t n, uint64_t *fp, size_t nfp, uint64_t cfg_fp)
{
	for (size_t i = 0; i < rb->nrecs; i++)
		rb->recs[i]->kept = 0;
	struct rebuild_page **recs = xcalloc(n + 1, sizeof *recs);
	size_t nrecs = 0;
	for (size_t i = 0; i < n; i++) {
		struct rebuild_page *rec = fresh[i]          ? fresh[i]
		                           : want && want[i] ? NULL
		                                             : (struct rebuild_page *)rebuild_last(rb, outs[i]);
		if (rec && !rec->kept) {
			rec->kept = 1;
			recs[nrecs++] = rec;
		}
	}
	for (size_t i = 0; i < rb->nrecs; i++)
		if (!rb->recs[i]->kept)
			rebuild_page_free(rb->recs[i]);
	free(rb->recs);
	rb->recs = recs;
	rb->nrecs = nrecs;
	readers_drop(rb);
	rec_reindex(rb);
	free(rb->fp);
	rb->fp = fp;
	rb->nfp = rb->fp_cap = nfp;
	rb->nundo = 0;
	rb->cfg_fp = cfg_fp;
	rb->built = 1;
}

int rebuild_built(const struct rebuild *rb)
{
	return rb->built;
}

/* readers_make: the readers' index of the records as they are */
static void readers_make(struct rebuild *rb)
{
	size_t nids = rb->next_id;
	rb->rd_start = xcalloc(nids + 2, sizeof *rb->rd_start);
	for (size_t i = 0; i < rb->nrecs; i++)
		for (size_t k = 0; k < rb->recs[i]->ndeps; k++)
			if (rb->recs[i]->deps[k] < nids)
				rb->rd_start[rb->recs[i]->deps[k] + 1]++;
	for (size_t id = 0; id < nids; id++)
		rb->rd_start[id + 1] += rb->rd_start[id];
	uint32_t *fill = xmalloc((nids + 1) * sizeof *fill);
	memcpy(fill, rb->rd_start, (nids + 1) * sizeof *fill);
	rb->rd_rec = xmalloc((rb->rd_start[nids] + 1) * sizeof *rb->rd_rec);
	for (size_t i = 0; i < rb->nrecs; i++)
		for (size_t k = 0; k < rb->recs[i]->ndeps; k++)
			if (rb->recs[i]->deps[k] < nids)
				rb->rd_rec[fill[rb->recs[i]->deps[k]]++] = (uint32_t)i;
	free(fill);
	rb->rd_nids = nids;
	rb->rd_stale_cap = rb->nrecs + 1;
	rb->rd_stale = xcalloc(rb->rd_stale_cap, 1);
	rb->rd_made = 1;
}

/* readers_stale: record i replaced or added since the index was made */
static void readers_stale(struct rebuild *rb, size_t i)
{
	if (!rb->rd_made)
		return;
	if (i >= rb->rd_stale_cap) {
		size_t cap = 2 * i + 64;
		rb->rd_stale = xrealloc(rb->rd_stale, cap);
		memset(rb->rd_stale + rb->rd_stale_cap, 0, cap - rb->rd_stale_cap);
		rb->rd_stale_cap = cap;
	}
	if (rb->rd_stale[i])
		return;
	rb->rd_stale[i] = 1;
	if (rb->rd_nextra == rb->rd_extra_cap) {
		rb->rd_extra_cap = rb->rd_extra_cap ? 2 * rb->rd_extra_cap : 64;
		rb->rd_extra = xrealloc(rb->rd_extra, rb->rd_extra_cap * sizeof *rb->rd_extra);
	}
	rb->rd_extra[rb->rd_nextra++] = (uint32_t)i;
}

void rebuild_readers_prepare(struct rebuild *rb)
{
	if (!rb->rd_made && rb->built)
		readers_make(rb);
}

/* readers_of: the pages that read an id of changed[0..nchanged)
 * (ascending), as rebuild_readers says */
static size_t readers_of(struct rebuild *rb, const uint32_t *changed, size_t nchanged, const char ***outs)
{
	*outs = NULL;
	size_t k = 0;
	if (nchanged) {
		if (!rb->rd_made)
			readers_make(rb);
		*outs = xcalloc(rb->nrecs + 1, sizeof **outs);
		uint8_t *seen = xcalloc(rb->nrecs + 1, 1);
		/* the records as the index has them, then those replaced since */
		for (size_t c = 0; c < nchanged && changed[c] < rb->rd_nids; c++)
			for (uint32_t r = rb->rd_start[changed[c]]; r < rb->rd_start[changed[c] + 1]; r++) {
				uint32_t i = rb->rd_rec[r];
				if (!rb->rd_stale[i] && !seen[i]) {
					seen[i] = 1;
					(*outs)[k++] = rb->recs[i]->out;
				}
			}
		for (size_t e = 0; e < rb->rd_nextra; e++) {
			const struct rebuild_page *p = rb->recs[rb->rd_extra[e]];
			for (size_t c = 0; c < nchanged; c++)
				if (has_id(p->deps, p->ndeps, changed[c])) {
					(*outs)[k++] = p->out;
					break;
				}
		}
		free(seen);
	}
	return k;
}

static void add_id(uint32_t **v, size_t *n, size_t *cap, uint32_t id)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[(*n)++] = id;
}

size_t rebuild_readers(struct rebuild *rb, const uint64_t *fp, size_t nfp, const char ***outs)
{
	/* the ids that changed, ascending (a patch changes a few); an id the
	 * last build did not have counts as changed */
	size_t n = nfp < rb->nfp ? nfp : rb->nfp, nchanged = 0, cap = 0;
	uint32_t *changed = NULL;
	for (size_t id = 1; id < nfp; id++)
		if (id >= n || fp[id] != rb->fp[id])
			add_id(&changed, &nchanged, &cap, (uint32_t)id);
	size_t k = readers_of(rb, changed, nchanged, outs);
	free(changed);
	return k;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

size_t rebuild_patch_readers(struct rebuild *rb, const char ***outs)
{
	/* the ids whose value the patch changed, ascending, each once (an id
	 * saved twice is changed when either value it had is not its value
	 * now: at worst a page rendered again for nothing) */
	size_t nchanged = 0, cap = 0;
	uint32_t *changed = NULL;
	for (size_t i = 0; i < rb->nundo; i++)
		if (rb->undo[i].id && rb->fp[rb->undo[i].id] != rb->undo[i].was)
			add_id(&changed, &nchanged, &cap, rb->undo[i].id);
	if (nchanged)
		qsort(changed, nchanged, sizeof *changed, cmp_u32);
	size_t m = 0;
	for (size_t i = 0; i < nchanged; i++)
		if (!m || changed[m - 1] != changed[i])
			changed[m++] = changed[i];
	size_t k = readers_of(rb, changed, m, outs);
	free(changed);
	return k;
}

void rebuild_commit_some(struct rebuild *rb, struct rebuild_page **fresh, size_t n, uint64_t *fp, size_t nfp)
{
	for (size_t i = 0; i < n; i++) {
		if (!fresh[i])
			continue;
		uint32_t v = index_get_str(&rb->rec_index, fresh[i]->out, rec_out, rb);
		if (v) {
			/* the same path: its place in the index stays */
			rebuild_page_free(rb->recs[v - 1]);
			rb->recs[v - 1] = fresh[i];
			readers_stale(rb, v - 1);
		} else {
			rb->recs = xrealloc(rb->recs, (rb->nrecs + 1) * sizeof *rb->recs);
			rb->recs[rb->nrecs++] = fresh[i];
			readers_stale(rb, rb->nrecs - 1);
			index_add_str(&rb->rec_index, fresh[i]->out, (uint32_t)rb->nrecs, 1024, rec_out, rb);
		}
		fresh[i] = NULL;
	}
	if (fp != rb->fp) {
		free(rb->fp);
		rb->fp = fp;
		rb->fp_cap = nfp;
	}
	rb->nfp = nfp;
	rb->nundo = 0; /* (a patch's changes are in place) */
}

uint64_t *rebuild_patch_begin(struct rebuild *rb, size_t *nfp)
{
	size_t n = rb->next_id;
	if (n + 1 > rb->fp_cap) {
		size_t cap = n + n / 8 + 64;
		rb->fp = xrealloc(rb->fp, cap * sizeof *rb->fp);
		rb->fp_cap = cap;
	}
	if (n > rb->nfp) /* ids made since: none of the last build's pages read them */
		memset(rb->fp + rb->nfp, 0, (n - rb->nfp) * sizeof *rb->fp);
	rb->nundo = 0;
	*nfp = n;
	return rb->fp;
}

void rebuild_patch_dep(struct rebuild *rb, const struct render_dep_val *dv)
{
	size_t span = dv->is_map ? TMPL_DEP_FIELDS + 1 : 1;
	if (rb->nundo + span > rb->undo_cap) {
		rb->undo_cap = 2 * (rb->nundo + span) + 64;
		rb->undo = xrealloc(rb->undo, rb->undo_cap * sizeof *rb->undo);
	}
	for (size_t i = 0; i < span && dv->id + i < rb->next_id; i++)
		rb->undo[rb->nundo++] = (struct undo){(uint32_t)(dv->id + i), rb->fp[dv->id + i]};
	rebuild_fingerprint_dep(rb, rb->fp, dv);
}

void rebuild_patch_undo(struct rebuild *rb)
{
	/* latest first: a value saved twice ends as it was first */
	while (rb->nundo) {
		rb->nundo--;
		rb->fp[rb->undo[rb->nundo].id] = rb->undo[rb->nundo].was;
	}
}

uint64_t *rebuild_last_inputs(const struct rebuild *rb, size_t *nfp)
{
	size_t n = rb->next_id;
	uint64_t *fp = xcalloc(n + 1, sizeof *fp);
	if (rb->fp)
		memcpy(fp, rb->fp, (rb->nfp < n ? rb->nfp : n) * sizeof *fp);
	*nfp = n;
	return fp;
}

/* ---- the state as bytes: "folio-pages 2\n" padded to 16 bytes, the
 * stamp, the config's fingerprint, next_id, then the keys (id, count,
 * length, bytes), the fingerprints (count, values) and the records (vars
 * fingerprint, number of ids, length of the path, the path, the ids,
 * length of the links, the links). ---- */

#define STATE_MAGIC "folio-pages 4\n"

static void put32(struct buf *b, uint32_t v)
{
	buf_append(b, &v, sizeof v);
}

static void put64(struct buf *b, uint64_t v)
{
	buf_append(b, &v, sizeof v);
}

int rebuild_save(const struct rebuild *rb, uint64_t stamp, struct buf *b, int (*flush)(void *ctx, struct buf *b),
		 void *ctx)
{
	if (!flush) {
		/* its size first: one allocation of tens of MB, not a doubling */
		size_t size = 16 + 8 + 8 + 8 + rb->links_memo_len + 4 + 8 + 8 + rb->nfp * sizeof *rb->fp + 8;
		for (size_t i = 0; i < rb->nkeys; i++)
			size += 12 + strlen(rb->keys[i]);
		for (size_t i = 0; i < rb->nrecs; i++)
			size += 8 + 4 + 4 + strlen(rb->recs[i]->out) + rb->recs[i]->ndeps * sizeof(uint32_t) + 8 +
				rb->recs[i]->links_len;
		buf_reserve(b, size);
	}
	char head[16] = {0};
	memcpy(head, STATE_MAGIC, strlen(STATE_MAGIC));
	buf_append(b, head, sizeof head);
	put64(b, stamp);
	put64(b, rb->cfg_fp);
	put64(b, rb->links_memo_len);
	buf_append(b, rb->links_memo, rb->links_memo_len);
	put32(b, rb->next_id);
	put64(b, rb->nkeys);
	for (size_t i = 0; i < rb->nkeys; i++) {
		uint32_t n = (uint32_t)strlen(rb->keys[i]);
		put32(b, rb->key_id[i]);
		put32(b, rb->key_n[i]);
		put32(b, n);
		buf_append(b, rb->keys[i], n);
	}
	put64(b, rb->nfp);
	buf_append(b, rb->fp, rb->nfp * sizeof *rb->fp);
	put64(b, rb->nrecs);
	for (size_t i = 0; i < rb->nrecs; i++) {
		const struct rebuild_page *r = rb->recs[i];
		uint32_t n = (uint32_t)strlen(r->out);
		put64(b, r->vars_fp);
		put32(b, (uint32_t)r->ndeps);
		put32(b, n);
		buf_append(b, r->out, n);
		buf_append(b, r->deps, r->ndeps * sizeof *r->deps);
		put64(b, r->links_len);
		if (r->links_len)
			buf_append(b, r->links, r->links_len);
		/* a MB at a time: the same small buffer, not one as big as the
		 * file (32 MB at 10,000 posts) */
		if (flush && b->len >= ((size_t)1 << 20) && flush(ctx, b) != 0)
			return -1;
	}
	return 0;
}

struct reader {
	const char *p, *end;
	int bad;
};

static const void *take(struct reader *r, size_t n)
{
	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = 1;
		return NULL;
	}
	const void *at = r->p;
	r->p += n;
	return at;
}

static uint64_t get_u64(struct reader *r)
{
	const void *p = take(r, 8);
	uint64_t v = 0;
	if (p)
		memcpy(&v, p, 8);
	return v;
}

static uint32_t get_u32(struct reader *r)
{
	const void *p = take(r, 4);
	uint32_t v = 0;
	if (p)
		memcpy(&v, p, 4);
	return v;
}

int rebuild_load(struct rebuild *rb, uint64_t stamp, const char *p, size_t len)
{
	char *copy = xmalloc(len + 1);
	memcpy(copy, p, len);
	return rebuild_load_block(rb, stamp, copy, len, NULL);
}

int rebuild_load_block(struct rebuild *rb, uint64_t stamp, char *p, size_t len, void (*release)(void *, size_t))
{
	struct reader r = {p, p + len, 0};
	const char *head = take(&r, 16);
	if (!head || memcmp(head, STATE_MAGIC, strlen(STATE_MAGIC)) != 0 || get_u64(&r) != stamp) {
		drop_block(p, len, release);
		return -1;
	}
	forget(rb);
	uint64_t cfg_fp = get_u64(&r);
	uint64_t memo_len = get_u64(&r);
	const char *memo = memo_len <= (uint64_t)(r.end - r.p) ? take(&r, (size_t)memo_len) : NULL;
	if (memo_len && !memo)
		r.bad = 1;
	uint32_t next_id = get_u32(&r);
	if (!next_id)
		r.bad = 1; /* ids start at 1 (0: none) */
	uint64_t nkeys = get_u64(&r);
	for (uint64_t i = 0; i < nkeys && !r.bad; i++) {
		uint32_t id = get_u32(&r), n = get_u32(&r), kl = get_u32(&r);
		const char *k = take(&r, kl);
		/* (a key is a C string: one holding a NUL would be saved cut) */
		if (!k || !n || id == 0 || (uint64_t)id + n > next_id || memchr(k, '\0', kl)) {
			r.bad = 1;
			break;
		}
		/* interned as new, then given its old block */
		size_t before = rb->nkeys;
		rebuild_id(rb, k, kl, n);
		if (rb->nkeys != before + 1) {
			r.bad = 1; /* a key twice */
			break;
		}
		rb->key_id[rb->nkeys - 1] = id;
		rb->key_n[rb->nkeys - 1] = n;
	}
	uint64_t nfp = r.bad ? 0 : get_u64(&r);
	const void *fps = !r.bad && nfp <= (uint64_t)next_id + 1 ? take(&r, nfp * sizeof(uint64_t)) : NULL;
	/* the state saved holds a fingerprint for each id given: ids beyond
	 * them are no state folio wrote, and a build would make an array of
	 * next_id fingerprints (billions: out of memory; near 2^32: ids that
	 * wrap around past the array) */
	if (!fps || next_id > nfp + 1)
		r.bad = 1;
	uint64_t nrecs = r.bad ? 0 : get_u64(&r);
	if (!r.bad && nrecs > (uint64_t)(r.end - r.p) / 24)
		r.bad = 1; /* each record takes 24 bytes at least */
	struct rebuild_page **recs = r.bad ? NULL : xcalloc(nrecs + 1, sizeof *recs);
	uint64_t got = 0;
	for (; !r.bad && got < nrecs; got++) {
		uint64_t vfp = get_u64(&r);
		uint32_t nd = get_u32(&r), ol = get_u32(&r);
		const char *out = take(&r, ol);
		const void *ids = take(&r, (size_t)nd * sizeof(uint32_t));
		uint64_t ll = get_u64(&r);
		const char *lk = ll && ll <= (uint64_t)(r.end - r.p) ? take(&r, (size_t)ll) : NULL;
		if (ll && (!lk || lk[ll - 1] != '\0'))
			r.bad = 1; /* records end with a NUL */
		if (out && memchr(out, '\0', ol))
			r.bad = 1; /* a path is a C string */
		if (r.bad)
			break;
		struct rebuild_page *rec = xcalloc(1, sizeof *rec);
		rec->out = xstrndup(out, ol);
		rec->vars_fp = vfp;
		rec->ndeps = nd;
		rec->deps = xmalloc(((size_t)nd + 1) * sizeof *rec->deps);
		memcpy(rec->deps, ids, (size_t)nd * sizeof *rec->deps);
		sort_ids(rec->deps, nd);
		if (ll) {
			rec->links = (char *)lk; /* in the block, which rb keeps */
			rec->links_borrowed = 1;
			rec->links_len = (size_t)ll;
		}
		recs[got] = rec;
	}
	if (r.bad) {
		for (uint64_t i = 0; i < got; i++)
			rebuild_page_free(recs[i]);
		free(recs);
		forget(rb);
		drop_block(p, len, release);
		return -1;
	}
	/* all of it read */
	rb->block = p;
	rb->block_len = len;
	rb->release = release;
	rb->next_id = next_id;
	rb->fp = xmalloc((nfp + 1) * sizeof *rb->fp);
	memcpy(rb->fp, fps, nfp * sizeof *rb->fp);
	rb->nfp = nfp;
	rb->fp_cap = nfp + 1;
	rb->cfg_fp = cfg_fp;
	rebuild_set_links_memo(rb, memo, (size_t)memo_len);
	readers_drop(rb);
	rb->recs = recs;
	rb->nrecs = nrecs;
	rec_reindex(rb);
	rb->built = 1;
	return 0;
}

const char *rebuild_links_memo(const struct rebuild *rb, size_t *len)
{
	*len = rb->links_memo_len;
	return rb->links_memo;
}

void rebuild_set_links_memo(struct rebuild *rb, const char *memo, size_t len)
{
	free(rb->links_memo);
	rb->links_memo = len ? xmalloc(len) : NULL;
	if (len)
		memcpy(rb->links_memo, memo, len);
	rb->links_memo_len = len;
}

/* ---- a folio build with nothing to do ---- */

#define UPTODATE_MAGIC "folio-uptodate-2"

int rebuild_uptodate(const struct rebuild_uptodate *last, uint64_t key, int64_t now, int future)
{
	return key && last->key == key && rebuild_uptodate_clock(last, now, future);
}

int rebuild_uptodate_clock(const struct rebuild_uptodate *last, int64_t now, int future)
{
	return future || !last->next_future || now < last->next_future;
}

long rebuild_uptodate_touched(const struct rebuild_uptodate *last, uint64_t opts, const struct stamp_list *now,
			      size_t **which)
{
	*which = NULL;
	const struct stamp_list *was = &last->inputs;
	if (!last->key || !opts || last->opts != opts || was->n != now->n)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < now->n; i++) {
		const struct stamp_entry *a = &was->e[i], *b = &now->e[i];
		if (strcmp(a->path, b->path))
			goto other;
		if (!memcmp(a->sig, b->sig, sizeof a->sig))
			continue;
		/* a regular file still one, whose bytes were known: its bytes
		 * may be the same */
		if (a->sig[6] || b->sig[6] || !S_ISREG((mode_t)a->sig[0]) || a->sig[0] != b->sig[0] || !a->content)
			goto other;
		if (!*which)
			*which = xmalloc(now->n * sizeof **which);
		(*which)[n++] = i;
	}
	return (long)n;
other:
	free(*which);
	*which = NULL;
	return -1;
}

void rebuild_uptodate_fini(struct rebuild_uptodate *u)
{
	free(u->said);
	stamp_list_free(&u->inputs);
	memset(u, 0, sizeof *u);
}

void rebuild_uptodate_save(const struct rebuild_uptodate *u, struct buf *out)
{
	buf_printf(out, "%s %016llx %lld %llu %llu %llu %016llx %u %zu %zu\n", UPTODATE_MAGIC,
		   (unsigned long long)u->key, (long long)u->next_future, (unsigned long long)u->pages,
		   (unsigned long long)u->posts, (unsigned long long)u->files, (unsigned long long)u->opts,
		   u->said_warnings, u->said_len, u->inputs.n);
	buf_append(out, u->said, u->said_len);
	buf_puts(out, "\n");
	for (size_t i = 0; i < u->inputs.n; i++) {
		const struct stamp_entry *e = &u->inputs.e[i];
		buf_printf(out, "%016llx", (unsigned long long)e->content);
		for (int k = 0; k < 7; k++)
			buf_printf(out, " %lld", (long long)e->sig[k]);
		buf_printf(out, " %zu %s\n", strlen(e->path), e->path);
	}
	buf_puts(out, "end\n");
}

/* next_num: the unsigned or signed number at *p (before end), then one
 * space or newline as sep; 0, or -1. */
static int next_num(const char **p, const char *end, int hex, int sign, char sep, unsigned long long *v)
{
	const char *q = *p;
	int neg = 0;
	if (sign && q < end && *q == '-') {
		neg = 1;
		q++;
	}
	unsigned long long x = 0;
	const char *start = q;
	while (q < end && (hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q))) {
		unsigned d = isdigit((unsigned char)*q) ? (unsigned)(*q - '0') : (unsigned)(tolower((unsigned char)*q) - 'a' + 10);
		if (x > (~0ULL - d) / (hex ? 16 : 10))
			return -1;
		x = x * (hex ? 16 : 10) + d;
		q++;
	}
	if (q == start || q - start > 20 || q >= end || *q != sep)
		return -1;
	/* negated unsigned: -(long long)x would overflow for the least
	 * int64_t, which rebuild_uptodate_save may write */
	*v = neg ? 0 - x : x;
	*p = q + 1;
	return 0;
}

int rebuild_uptodate_load(struct rebuild_uptodate *u, const char *p, size_t len)
{
	memset(u, 0, sizeof *u);
	const char *end = p + len, *q = p;
	size_t ml = strlen(UPTODATE_MAGIC);
	unsigned long long key, next, pages, posts, files, opts, warn, said, n;
	if (len < ml + 1 || memcmp(p, UPTODATE_MAGIC " ", ml + 1))
		return -1;
	q += ml + 1;
	if (next_num(&q, end, 1, 0, ' ', &key) || next_num(&q, end, 0, 1, ' ', &next) ||
	    next_num(&q, end, 0, 0, ' ', &pages) || next_num(&q, end, 0, 0, ' ', &posts) ||
	    next_num(&q, end, 0, 0, ' ', &files) || next_num(&q, end, 1, 0, ' ', &opts) ||
	    next_num(&q, end, 0, 0, ' ', &warn) ||
	    next_num(&q, end, 0, 0, ' ', &said) || next_num(&q, end, 0, 0, '\n', &n) || warn > 1000000000ULL ||
	    said >= (size_t)(end - q) || q[said] != '\n' || n > (size_t)(end - q) / 20)
		return -1;
	u->key = key;
	u->next_future = (int64_t)next;
	u->pages = pages;
	u->posts = posts;
	u->files = files;
	u->opts = opts;
	u->said_warnings = (unsigned)warn;
	u->said_len = said;
	u->said = xstrndup(q, said);
	q += said + 1;
	if (n) {
		u->inputs.e = xcalloc(n, sizeof *u->inputs.e);
		u->inputs.cap = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct stamp_entry *e = &u->inputs.e[i];
		unsigned long long v, plen;
		if (next_num(&q, end, 1, 0, ' ', &v))
			goto bad;
		e->content = v;
		for (int k = 0; k < 7; k++) {
			if (next_num(&q, end, 0, 1, ' ', &v))
				goto bad;
			e->sig[k] = (int64_t)v;
		}
		if (next_num(&q, end, 0, 0, ' ', &plen) || plen == 0 || plen >= (size_t)(end - q) || q[plen] != '\n' ||
		    memchr(q, '\0', plen))
			goto bad;
		e->path = xstrndup(q, plen);
		u->inputs.n++;
		q += plen + 1;
	}
	if ((size_t)(end - q) != 4 || memcmp(q, "end\n", 4))
		goto bad;
	return 0;
bad:
	rebuild_uptodate_fini(u);
	return -1;
}

/* ---- the inputs of a build ---- */

struct fp_maker {
	const struct rebuild *rb;
	const struct render_plan *plan;
	uint64_t *fp;
	struct pool_queue *q;
};

static void *make_fps(void *arg)
{
	struct fp_maker *k = arg;
	size_t b, e;
	while (pool_take(k->q, &b, &e))
		for (size_t i = b; i < e; i++)
			rebuild_fingerprint_dep(k->rb, k->fp, &k->plan->vals[i]);
	return NULL;
}

uint64_t *rebuild_inputs(struct rebuild *rb, const struct render_plan *plan, struct tmpl_env *env, int jobs,
			 size_t *nfp_out)
{
	/* the templates' ids (given to env), then every fingerprint */
	size_t ntmpl = tmpl_env_count(env);
	uint32_t *tmpl_ids = xcalloc(ntmpl + 1, sizeof *tmpl_ids);
	for (size_t i = 0; i < ntmpl; i++) {
		char key[600];
		int n = snprintf(key, sizeof key, "template:%s", tmpl_env_name(env, i));
		tmpl_ids[i] = rebuild_id(rb, key, (size_t)n < sizeof key ? (size_t)n : sizeof key - 1, 1);
		tmpl_env_set_template_dep(env, tmpl_env_name(env, i), tmpl_ids[i]);
	}
	/* a page that looked for a missing template depends on the set's
	 * names: one added later is found */
	uint32_t names_id = rebuild_id(rb, "templates:names", 15, 1);
	tmpl_env_set_missing_dep(env, names_id);
	size_t nfp = rebuild_nids(rb);
	uint64_t *fp = xcalloc(nfp, sizeof *fp);
	/* each value writes its own ids' fingerprints, and reads rb alone:
	 * on the build's threads (10,000 posts' maps) */
	struct pool_queue q;
	pool_queue_init(&q, plan->nvals, 64);
	struct fp_maker k = {rb, plan, fp, &q};
	int t = jobs > 1 && plan->nvals >= 512 ? jobs : 1;
	pool_run(t, make_fps, &k, 0, 0);
	pool_queue_fini(&q);
	uint64_t names = 1;
	for (size_t i = 0; i < ntmpl; i++) {
		struct str src = tmpl_env_source(env, i);
		uint64_t f = hash_bytes(src.p, src.len);
		fp[tmpl_ids[i]] = f ? f : 1;
		const char *name = tmpl_env_name(env, i);
		names = rebuild_mix(names, hash_bytes(name, strlen(name)));
	}
	fp[names_id] = names ? names : 1;
	free(tmpl_ids);
	*nfp_out = nfp;
	return fp;
}

/* fuzz_manifest.c: libFuzzer target for the manifest of an output folder
 * (.folio-cache/output-HASH) and of its spare (spare-HASH): manifest_load
 * of a damaged file, as the next build reads it (the format is in
 * src/output/manifest.c; seeds.py writes valid ones).
 *
 * Besides crashes, the target checks that every file loaded has a path
 * without a line break that the index finds (the first of its name), and
 * that what is loaded, saved and loaded again is the same manifest: the
 * same files, sizes, times and inodes, the same tree line and spare
 * folder. */
#include "fuzz.h"

#include "output/internal.h"

static char path[4096], again[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *dir = fuzz_tmpdir();
	snprintf(path, sizeof path, "%s/output-0123456789abcdef", dir);
	snprintf(again, sizeof again, "%s/spare-0123456789abcdef", dir);
	return 0;
}

static void same(const struct manifest *a, const struct manifest *b)
{
	if (a->n != b->n || a->dev != b->dev || a->ino != b->ino || a->done_ns != b->done_ns ||
	    !a->where != !b->where || (a->where && strcmp(a->where, b->where)))
		abort();
	for (size_t i = 0; i < a->n; i++) {
		const struct mfile *x = &a->v[i], *y = &b->v[i];
		if (strcmp(x->rel, y->rel) || x->hash != y->hash || x->size != y->size || x->mtime_ns != y->mtime_ns ||
		    x->ino != y->ino)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		fuzz_die(path);
	struct manifest m, r;
	memset(&m, 0, sizeof m);
	memset(&r, 0, sizeof r);
	manifest_load(&m, path);
	for (size_t i = 0; i < m.n; i++) {
		const struct mfile *found = manifest_find(&m, m.v[i].rel);
		if (!m.v[i].rel[0] || strchr(m.v[i].rel, '\n') || !found || strcmp(found->rel, m.v[i].rel) ||
		    found > &m.v[i])
			abort();
	}
	if (m.where && strchr(m.where, '\n'))
		abort();
	if (manifest_save(&m, again) != 0)
		fuzz_die(again);
	manifest_load(&r, again);
	same(&m, &r);
	manifest_fini(&m);
	manifest_fini(&r);
	return 0;
}

/* fuzz.h: what folio's libFuzzer targets share: a scratch folder for the
 * stages that read a site from disk, and the splitting of one input into
 * named parts. Header-only: every target is one file linked with folio's
 * objects (see the fuzz block of the Makefile). */
#ifndef FOLIO_FUZZ_H
#define FOLIO_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* fuzz_die: a harness defect (not a finding): the fuzzer stops. */
static inline void fuzz_die(const char *what)
{
	perror(what);
	abort();
}

/* fuzz_tmpdir: a new empty folder under $TMPDIR (or P_tmpdir), kept for the
 * process (one per target process; the run script deletes its parent).
 * Static storage. */
static inline const char *fuzz_tmpdir(void)
{
	static char dir[4096];
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/folio-fuzz-XXXXXX", t && *t ? t : P_tmpdir);
	if (!mkdtemp(dir))
		fuzz_die("mkdtemp");
	return dir;
}

/* fuzz_mkdirs: makes dir/rel's folders (rel names a folder). */
static inline void fuzz_mkdirs(const char *dir, const char *rel)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	for (char *s = p + strlen(dir) + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0700);
			*s = '/';
		}
	}
	mkdir(p, 0700);
}

/* fuzz_write: writes data[0..len) as dir/rel (its folder must exist). */
static inline void fuzz_write(const char *dir, const char *rel, const void *data, size_t len)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	FILE *f = fopen(p, "wb");
	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0)
		fuzz_die(p);
}

/* fuzz_unlink: removes the file or empty folder dir/rel if it is there. */
static inline void fuzz_unlink(const char *dir, const char *rel)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	remove(p);
}

/* One part of an input: a name (may be empty) and its text, both pointing
 * into the input. */
struct fuzz_part {
	const char *name, *text;
	size_t name_len, len;
};

/* fuzz_split: splits data[0..size) at lines that start with marker (e.g.
 * "@@@ "): the text before the first such line is part 0, with an empty
 * name; each marker line starts a part named by the rest of that line.
 * At most max parts (later markers stay in the last part's text). Returns
 * the number of parts (at least 1). */
static inline size_t fuzz_split(const char *data, size_t size, const char *marker, struct fuzz_part *parts,
				size_t max)
{
	size_t ml = strlen(marker), n = 0, p = 0;
	parts[0] = (struct fuzz_part){"", data, 0, size};
	while (p < size) {
		const char *nl = memchr(data + p, '\n', size - p);
		size_t next = nl ? (size_t)(nl - data) + 1 : size;
		if (n + 1 < max && size - p >= ml && memcmp(data + p, marker, ml) == 0) {
			parts[n].len = (size_t)(data + p - parts[n].text);
			if (parts[n].len && parts[n].text[parts[n].len - 1] == '\n')
				parts[n].len--; /* the newline before a marker is the marker's */
			n++;
			size_t name_end = nl ? (size_t)(nl - data) : size;
			parts[n] = (struct fuzz_part){data + p + ml, data + next, name_end - p - ml, size - next};
		}
		p = next;
	}
	return n + 1;
}

/* fuzz_name_is: whether part's name is name. */
static inline int fuzz_name_is(const struct fuzz_part *part, const char *name)
{
	return part->name_len == strlen(name) && memcmp(part->name, name, part->name_len) == 0;
}

/* fuzz_count: how many times needle occurs in s[0..n) (overlaps counted). */
static inline size_t fuzz_count(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), c = 0;
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, needle, k) == 0)
			c++;
	return c;
}

/* fuzz_fail: a finding: target's broken promise what, and up to 2000
 * bytes of p[0..n) (may be NULL) to see it by; the fuzzer stops. */
static inline void fuzz_fail(const char *target, const char *what, const char *p, size_t n)
{
	fprintf(stderr, "%s: %s\n%.*s\n", target, what, (int)(n > 2000 ? 2000 : n), p ? p : "");
	abort();
}

#endif

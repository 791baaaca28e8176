/* fuzz_uptodate.c: libFuzzer target for the state of the up-to-date check
 * a build keeps in .folio-cache/uptodate-HASH (rebuild_uptodate_load; the
 * layout in incremental/rebuild.c: a "folio-uptodate-2" line of numbers
 * ending in the length of the warnings said and the number of inputs,
 * those warnings, a line per input, "end"). An input is such a file; the
 * format has no key or checksum to make right.
 *
 * Besides crashes, the target checks that a text refused leaves the
 * state empty, and uses a state read as a build does: asks whether it is
 * up to date, compares its inputs with themselves and with stamps that
 * changed, and says its warnings again. What is saved reads back as the
 * same state and saves again as the same bytes.
 *
 * With FUZZ_SHOW set in the environment, what each state held is printed. */
#include "fuzz.h"

#include "base/buf.h"
#include "base/diag.h"
#include "incremental/rebuild.h"

#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int same(const struct rebuild_uptodate *a, const struct rebuild_uptodate *b)
{
	if (a->key != b->key || a->next_future != b->next_future || a->pages != b->pages ||
	    a->posts != b->posts || a->files != b->files || a->opts != b->opts ||
	    a->said_warnings != b->said_warnings || a->said_len != b->said_len ||
	    (a->said_len && memcmp(a->said, b->said, a->said_len)) || a->inputs.n != b->inputs.n)
		return 0;
	for (size_t i = 0; i < a->inputs.n; i++) {
		const struct stamp_entry *x = &a->inputs.e[i], *y = &b->inputs.e[i];
		if (x->content != y->content || memcmp(x->sig, y->sig, sizeof x->sig) ||
		    strcmp(x->path, y->path))
			return 0;
	}
	return 1;
}

static int empty(const struct rebuild_uptodate *u)
{
	return !u->key && !u->next_future && !u->pages && !u->posts && !u->files && !u->opts &&
	       !u->said && !u->said_len && !u->said_warnings && !u->inputs.e && !u->inputs.n;
}

/* use: u asked as a build asks it. */
static void use(const struct rebuild_uptodate *u)
{
	int64_t now = 1800000000;
	(void)rebuild_uptodate(u, u->key, now, 0);
	if (u->key && !rebuild_uptodate(u, u->key, now, 1))
		abort(); /* with --future, the clock does not matter */
	if (rebuild_uptodate(u, 0, now, 1))
		abort(); /* a key of 0 is not known */

	size_t *which;
	long n = rebuild_uptodate_touched(u, u->opts, &u->inputs, &which);
	if ((u->key && u->opts && n != 0) || (!(u->key && u->opts) && n != -1) || which)
		abort(); /* the same inputs: none touched */

	/* every input touched (its modification time changed) */
	struct stamp_list now_l = {0};
	now_l.n = now_l.cap = u->inputs.n;
	now_l.e = calloc(u->inputs.n + 1, sizeof *now_l.e);
	for (size_t i = 0; i < u->inputs.n; i++) {
		now_l.e[i] = u->inputs.e[i];
		now_l.e[i].sig[2] ^= 1;
	}
	n = rebuild_uptodate_touched(u, u->opts, &now_l, &which);
	if (n > (long)u->inputs.n || (n > 0) != (which != NULL))
		abort();
	for (long i = 0; i < n; i++)
		if (which[i] >= u->inputs.n || (i && which[i] <= which[i - 1]))
			abort();
	free(which);
	free(now_l.e); /* the paths are u's */

	struct diag d;
	struct buf cap;
	buf_init(&cap);
	diag_init(&d, NULL);
	d.capture = &cap;
	if (u->said_warnings)
		diag_replay(&d, u->said, u->said_len, u->said_warnings);
	if (d.warnings != (int)u->said_warnings || d.errors)
		abort();
	diag_fini(&d);
	buf_fini(&cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of just the input, so that ASan sees a read past it */
	char *text = malloc(size ? size : 1);
	memcpy(text, data, size);
	struct rebuild_uptodate u;
	memset(&u, 0xa5, sizeof u); /* load sets every field */
	if (rebuild_uptodate_load(&u, text, size) != 0) {
		if (!empty(&u))
			abort(); /* refused: nothing kept */
		free(text);
		return 0;
	}
	free(text); /* nothing of the text is kept */
	if (getenv("FUZZ_SHOW"))
		fprintf(stderr, "--- read: %zu inputs, %u warnings said\n", u.inputs.n,
		        u.said_warnings);
	use(&u);

	struct buf saved, again;
	buf_init(&saved);
	buf_init(&again);
	rebuild_uptodate_save(&u, &saved);
	struct rebuild_uptodate v;
	if (rebuild_uptodate_load(&v, saved.p, saved.len) != 0 || !same(&u, &v))
		abort(); /* what folio writes, it must read */
	rebuild_uptodate_save(&v, &again);
	if (again.len != saved.len || memcmp(again.p, saved.p, saved.len))
		abort();
	rebuild_uptodate_fini(&v);
	rebuild_uptodate_fini(&u);
	buf_fini(&saved);
	buf_fini(&again);
	return 0;
}

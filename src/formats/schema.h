/* schema.h: typed reading of YAML maps (folio.yml, front matter) with
 * precise diagnostics: unknown keys with a suggestion, wrong types, bad
 * dates. Shared by config.c and content.c. */
#ifndef FOLIO_SCHEMA_H
#define FOLIO_SCHEMA_H

#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "formats/yaml.h"

/* Where the map being read comes from, and the error count so far. */
struct schema {
	struct arena *a;
	struct diag *d;
	const char *path;
	const char *src;
	size_t src_len;
	int errors;
	int map_line, map_col; /* where "missing key" errors point (0: the map's first key) */
};

/* A point in time: utc is seconds since the epoch; offset is the local
 * offset east of UTC in minutes; iso is the local time with its offset,
 * "2026-10-10T09:30:00+09:00" (arena). */
struct fdate {
	int64_t utc;
	int offset;
	struct str iso;
	int year, month, day;
};

void schema_error(struct schema *s, const struct ynode *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* schema_check_keys: an error for every key of map m not in allowed (NULL
 * ended), with a "did you mean" hint. what names the map ("front matter",
 * "folio.yml"). Returns the number of unknown keys. */
int schema_check_keys(struct schema *s, const struct ynode *m, const char *const *allowed, const char *what);

/* Each reader looks key up in map m. Missing: returns 0 and leaves *out
 * alone, or reports "missing required key" when required. Present with the
 * wrong type: reports it and returns -1. Present and right: 1. */
int schema_str(struct schema *s, const struct ynode *m, const char *key, int required, struct str *out);
int schema_int(struct schema *s, const struct ynode *m, const char *key, int64_t min, int64_t max, int64_t *out);
int schema_bool(struct schema *s, const struct ynode *m, const char *key, int *out);
/* schema_str_list: a list of scalars; out is an arena array of *n strings. */
int schema_str_list(struct schema *s, const struct ynode *m, const char *key, struct str **out, size_t *n);
/* schema_date: YYYY-MM-DD, YYYY-MM-DD HH:MM[:SS] (also with T), or RFC 3339
 * with an offset. A time without an offset is in timezone tz (IANA name). */
int schema_date(struct schema *s, const struct ynode *m, const char *key, int required, const char *tz,
		struct fdate *out);
/* Texts that folio repeats on many pages have a bound, so that the size of
 * a site stays in proportion to its sources: a 100 KB site title in 2000
 * pages was 1.6 GB. SCHEMA_TEXT_MAX is for a name or a line (a title, a
 * menu label, a URL), SCHEMA_DESCRIPTION_MAX for the site's description.
 * (A tag is not one: each card that shows it is a post that spells it.) */
#define SCHEMA_TEXT_MAX 1024
#define SCHEMA_DESCRIPTION_MAX 4096
/* schema_check_len: 0 if n (a scalar, or NULL) has at most max bytes; else
 * an error at n naming what it is and where it is repeated (`where`, "every
 * page"), and -1. */
int schema_check_len(struct schema *s, const struct ynode *n, const char *what, size_t max, const char *where);

/* schema_node: the value node of key (NULL if absent). */
const struct ynode *schema_node(const struct ynode *m, const char *key);

/* parse_date_text: the date grammar of schema_date on a string; 0 if it is
 * not a date (*why says what is wrong). */
int parse_date_text(struct arena *a, struct str text, const char *tz, struct fdate *out, const char **why);

/* kind_a: "a string", "an integer", "a list", ... for "found X" messages. */
const char *kind_a(const struct ynode *n);

/* tz_valid: whether name is a known IANA time zone (UTC always is). */
int tz_valid(const char *name);

#endif

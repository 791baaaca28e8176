/* schema.c: typed reading of YAML maps with diagnostics. */
#include "formats/schema.h"
#include "base/civil.h"

#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

void schema_error(struct schema *s, const struct ynode *at, const char *fmt, ...)
{
	struct diag_loc loc = {s->path, s->src, s->src_len, at ? at->line : 0, at ? at->col : 0};
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(s->d, DIAG_ERROR, &loc, NULL, 0, fmt, ap);
	va_end(ap);
	s->errors++;
}

const struct ynode *schema_node(const struct ynode *m, const char *key)
{
	return yaml_map_get(m, key);
}

int schema_check_keys(struct schema *s, const struct ynode *m, const char *const *allowed, const char *what)
{
	int bad = 0;
	if (!m || m->kind != YNODE_MAP)
		return 0;
	for (size_t i = 0; i < m->len; i++) {
		const struct ynode *k = m->keys[i];
		int ok = 0;
		for (size_t j = 0; allowed[j] && !ok; j++)
			ok = str_eq_cstr(k->str, allowed[j]);
		if (ok)
			continue;
		const char *sug = diag_suggest(k->str.p, k->str.len, allowed);
		/* two edits of four letters, the first among them, is another
		 * word: 'date' is not a typo of 'math' */
		if (sug && k->str.len <= 4 && k->str.len && sug[0] != k->str.p[0])
			sug = NULL;
		if (sug)
			schema_error(s, k, "unknown %s key '%.*s' (did you mean '%s'?)", what, STR_FMT(k->str), sug);
		else
			schema_error(s, k, "unknown %s key '%.*s' (see folio-site(5) for the keys)", what, STR_FMT(k->str));
		bad++;
	}
	return bad;
}

const char *kind_a(const struct ynode *n)
{
	const char *k = yaml_kind_name(n);
	if (!strcmp(k, "integer"))
		return "an integer";
	if (!strcmp(k, "null"))
		return "nothing";
	if (!strcmp(k, "string"))
		return "a string";
	if (!strcmp(k, "float"))
		return "a number";
	if (!strcmp(k, "boolean"))
		return "a boolean";
	if (!strcmp(k, "list"))
		return "a list";
	return "a map";
}

static const char *found(const struct ynode *n)
{
	return kind_a(n);
}

static int missing(struct schema *s, const struct ynode *m, const char *key, int required)
{
	if (required) {
		/* point where the map starts: the front matter's opening line */
		struct ynode at = {0};
		at.line = s->map_line;
		at.col = s->map_col;
		if (!at.line && m && m->kind == YNODE_MAP && m->len) {
			at.line = m->keys[0]->line;
			at.col = m->keys[0]->col;
		}
		schema_error(s, &at, "missing required key '%s'", key);
	}
	return 0;
}

int schema_str(struct schema *s, const struct ynode *m, const char *key, int required, struct str *out)
{
	const struct ynode *n = yaml_map_get(m, key);
	if (!n || yaml_is_null(n)) {
		if (n && required) {
			schema_error(s, n, "'%s' must not be empty", key);
			return -1;
		}
		return missing(s, m, key, required);
	}
	if (n->kind != YNODE_SCALAR) {
		schema_error(s, n, "'%s' must be a string, found %s", key, found(n));
		return -1;
	}
	if (required && str_trim(n->str).len == 0) {
		schema_error(s, n, "'%s' must not be empty", key);
		return -1;
	}
	*out = n->str;
	return 1;
}

int schema_check_len(struct schema *s, const struct ynode *n, const char *what, size_t max, const char *where)
{
	if (!n || n->kind != YNODE_SCALAR || n->str.len <= max)
		return 0;
	schema_error(s, n, "%s is %zu bytes long, more than %zu: it is repeated on %s (see LIMITS in folio-site(5))",
		     what, n->str.len, max, where);
	return -1;
}

int schema_int(struct schema *s, const struct ynode *m, const char *key, int64_t min, int64_t max, int64_t *out)
{
	const struct ynode *n = yaml_map_get(m, key);
	int64_t v;
	if (!n || yaml_is_null(n))
		return 0;
	if (!yaml_as_int(n, &v)) {
		if (n->kind == YNODE_SCALAR)
			schema_error(s, n, "'%s' must be an integer, found '%.*s'", key, STR_FMT(n->str));
		else
			schema_error(s, n, "'%s' must be an integer, found %s", key, found(n));
		return -1;
	}
	if (v < min || v > max) {
		schema_error(s, n, "'%s' must be between %lld and %lld, found %lld", key, (long long)min, (long long)max,
			     (long long)v);
		return -1;
	}
	*out = v;
	return 1;
}

int schema_bool(struct schema *s, const struct ynode *m, const char *key, int *out)
{
	const struct ynode *n = yaml_map_get(m, key);
	if (!n || yaml_is_null(n))
		return 0;
	if (!yaml_as_bool(n, out)) {
		if (n->kind == YNODE_SCALAR)
			schema_error(s, n, "'%s' must be true or false, found '%.*s'", key, STR_FMT(n->str));
		else
			schema_error(s, n, "'%s' must be true or false, found %s", key, found(n));
		return -1;
	}
	return 1;
}

int schema_str_list(struct schema *s, const struct ynode *m, const char *key, struct str **out, size_t *n_out)
{
	const struct ynode *n = yaml_map_get(m, key);
	if (!n || yaml_is_null(n))
		return 0;
	if (n->kind != YNODE_SEQ) {
		schema_error(s, n, "'%s' must be a list, found %s (write %s: [a, b])", key, found(n), key);
		return -1;
	}
	struct str *v = arena_alloc(s->a, (n->len + 1) * sizeof *v);
	int bad = 0;
	for (size_t i = 0; i < n->len; i++) {
		const struct ynode *it = n->items[i];
		if (it->kind != YNODE_SCALAR || yaml_is_null(it) || str_trim(it->str).len == 0) {
			schema_error(s, it, "'%s' items must be non-empty strings, found %s", key,
				     it->kind == YNODE_SCALAR ? "an empty one" : found(it));
			bad = 1;
			continue;
		}
		v[i] = str_trim(it->str);
	}
	if (bad)
		return -1;
	*out = v;
	*n_out = n->len;
	return 1;
}

int tz_valid(const char *name)
{
	if (!strcmp(name, "UTC") || !strcmp(name, "Etc/UTC"))
		return 1;
	if (!*name || name[0] == '/' || strstr(name, ".."))
		return 0;
	char path[512];
	snprintf(path, sizeof path, "/usr/share/zoneinfo/%s", name);
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}


/* tz_lock: TZ is the process's; files are read on several threads. */
static pthread_mutex_t tz_lock = PTHREAD_MUTEX_INITIALIZER;

/* tz_offset: the offset (minutes east of UTC) of local time `local` (as if
 * UTC seconds) in zone tz. Uses the C library's zone database through TZ,
 * switched under tz_lock. */
static int tz_offset(const char *tz, int64_t local)
{
	if (!strcmp(tz, "UTC") || !strcmp(tz, "Etc/UTC"))
		return 0;
	pthread_mutex_lock(&tz_lock);
	const char *old = getenv("TZ");
	char *saved = old ? strdup(old) : NULL;
	setenv("TZ", tz, 1);
	tzset();
	/* the offset at the UTC instant equal to the local wall time, then
	 * corrected once: right except within an hour of a DST change */
	time_t t = (time_t)local;
	struct tm tm;
	localtime_r(&t, &tm);
	long off = tm.tm_gmtoff;
	t = (time_t)(local - off);
	localtime_r(&t, &tm);
	off = tm.tm_gmtoff;
	if (saved) {
		setenv("TZ", saved, 1);
		free(saved);
	} else {
		unsetenv("TZ");
	}
	tzset();
	pthread_mutex_unlock(&tz_lock);
	return (int)(off / 60);
}

static int num(const char *p, size_t n, size_t at, int count, int *out)
{
	if (at + (size_t)count > n)
		return 0;
	int v = 0;
	for (int i = 0; i < count; i++) {
		char c = p[at + (size_t)i];
		if (c < '0' || c > '9')
			return 0;
		v = v * 10 + (c - '0');
	}
	*out = v;
	return 1;
}

int parse_date_text(struct arena *a, struct str text, const char *tz, struct fdate *out, const char **why)
{
	const char *p = text.p;
	size_t n = text.len;
	int y, mo, d, h = 0, mi = 0, sec = 0;
	*why = "expected YYYY-MM-DD, YYYY-MM-DD HH:MM[:SS], or RFC 3339 with an offset";
	if (n < 10 || !num(p, n, 0, 4, &y) || p[4] != '-' || !num(p, n, 5, 2, &mo) || p[7] != '-' ||
	    !num(p, n, 8, 2, &d))
		return 0;
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (mo < 1 || mo > 12) {
		*why = "the month must be 01 to 12";
		return 0;
	}
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (d < 1 || d > mdays[mo - 1] + (mo == 2 && leap)) {
		*why = "no such day in that month";
		return 0;
	}
	size_t i = 10;
	int has_offset = 0, offset = 0;
	if (i < n) {
		if (p[i] != 'T' && p[i] != ' ' && p[i] != 't')
			return 0;
		i++;
		if (!num(p, n, i, 2, &h) || i + 2 >= n || p[i + 2] != ':' || !num(p, n, i + 3, 2, &mi))
			return 0;
		i += 5;
		if (i < n && p[i] == ':') {
			if (!num(p, n, i + 1, 2, &sec))
				return 0;
			i += 3;
			if (i < n && p[i] == '.') { /* fractions of a second are dropped */
				i++;
				while (i < n && p[i] >= '0' && p[i] <= '9')
					i++;
			}
		}
		if (h > 23 || mi > 59 || sec > 59) {
			*why = "the time must be 00:00:00 to 23:59:59";
			return 0;
		}
		if (i < n) {
			if (p[i] == 'Z' || p[i] == 'z') {
				has_offset = 1;
				i++;
			} else if (p[i] == '+' || p[i] == '-') {
				int oh, om;
				if (!num(p, n, i + 1, 2, &oh) || i + 3 >= n || p[i + 3] != ':' || !num(p, n, i + 4, 2, &om) ||
				    oh > 23 || om > 59)
					return 0;
				offset = (oh * 60 + om) * (p[i] == '-' ? -1 : 1);
				has_offset = 1;
				i += 6;
			}
			if (i != n)
				return 0;
		}
	}
	int64_t local = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	if (!has_offset)
		offset = tz_offset(tz ? tz : "UTC", local);
	out->utc = local - (int64_t)offset * 60;
	out->offset = offset;
	out->year = y;
	out->month = mo;
	out->day = d;
	char buf[80];
	int ao = offset < 0 ? -offset : offset;
	snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", y, mo, d, h, mi, sec,
		 offset < 0 ? '-' : '+', ao / 60, ao % 60);
	out->iso.len = strlen(buf);
	out->iso.p = arena_strndup(a, buf, out->iso.len);
	return 1;
}

int schema_date(struct schema *s, const struct ynode *m, const char *key, int required, const char *tz,
		struct fdate *out)
{
	const struct ynode *n = yaml_map_get(m, key);
	if (!n || yaml_is_null(n))
		return missing(s, m, key, required);
	if (n->kind != YNODE_SCALAR) {
		schema_error(s, n, "'%s' must be a date, found %s", key, found(n));
		return -1;
	}
	const char *why;
	if (!parse_date_text(s->a, str_trim(n->str), tz, out, &why)) {
		schema_error(s, n, "malformed date '%.*s' in '%s': %s", STR_FMT(n->str), key, why);
		return -1;
	}
	return 1;
}

/* test_schema.c: typed reading of YAML maps, and the date grammar: every
 * accepted form, offsets, time zones, and the reason for each bad date. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "formats/schema.h"
#include "formats/yaml.h"

#include <stdlib.h>
#include <string.h>

static struct arena *arena;
static struct buf cap;

/* The last date parsed by date_ok / date_bad. */
static struct fdate fd;
static const char *why;

static int parse(const char *text, const char *tz)
{
	memset(&fd, 0, sizeof fd);
	why = NULL;
	return parse_date_text(arena, str_from(text), tz, &fd, &why);
}

static const char *iso(void)
{
	return arena_strndup(arena, fd.iso.p ? fd.iso.p : "", fd.iso.len);
}

/* bad: the reason text is not a date (or "(accepted)"). */
static const char *bad(const char *text)
{
	return parse(text, "UTC") ? "(accepted)" : why;
}

static const char *const GENERIC = "expected YYYY-MM-DD, YYYY-MM-DD HH:MM[:SS], or RFC 3339 with an offset";

static void test_date_forms(void)
{
	OK(parse("2026-10-10", NULL));
	INT_EQ(fd.utc, 1791590400);
	INT_EQ(fd.offset, 0);
	INT_EQ(fd.year, 2026);
	INT_EQ(fd.month, 10);
	INT_EQ(fd.day, 10);
	STR_EQ(iso(), "2026-10-10T00:00:00+00:00");

	OK(parse("2026-10-10 09:30", "UTC"));
	INT_EQ(fd.utc, 1791624600);
	STR_EQ(iso(), "2026-10-10T09:30:00+00:00");
	OK(parse("2026-10-10T09:30", "UTC"));
	INT_EQ(fd.utc, 1791624600);
	OK(parse("2026-10-10t09:30", "UTC"));
	INT_EQ(fd.utc, 1791624600);
	OK(parse("2026-10-10 09:30:15", "UTC"));
	INT_EQ(fd.utc, 1791624615);
	STR_EQ(iso(), "2026-10-10T09:30:15+00:00");
	OK(parse("2026-10-10T09:30:15", "UTC"));
	INT_EQ(fd.utc, 1791624615);

	/* RFC 3339 with an offset: the offset wins over the site's zone */
	OK(parse("2026-10-10T09:30:15Z", "Asia/Seoul"));
	INT_EQ(fd.utc, 1791624615);
	INT_EQ(fd.offset, 0);
	STR_EQ(iso(), "2026-10-10T09:30:15+00:00");
	OK(parse("2026-10-10T09:30:15z", "UTC"));
	INT_EQ(fd.utc, 1791624615);
	OK(parse("2026-10-10T09:30:15.250Z", "UTC")); /* fractions are dropped */
	INT_EQ(fd.utc, 1791624615);
	STR_EQ(iso(), "2026-10-10T09:30:15+00:00");
	OK(parse("2026-10-10T09:30:00+09:00", "UTC"));
	INT_EQ(fd.utc, 1791592200);
	INT_EQ(fd.offset, 540);
	STR_EQ(iso(), "2026-10-10T09:30:00+09:00");
	OK(parse("2026-10-10T15:00:00+05:30", "UTC"));
	INT_EQ(fd.utc, 1791624600);
	INT_EQ(fd.offset, 330);
	OK(parse("2026-10-10T09:30:00-05:00", "Asia/Seoul"));
	INT_EQ(fd.utc, 1791624600 + 5 * 3600);
	INT_EQ(fd.offset, -300);
	STR_EQ(iso(), "2026-10-10T09:30:00-05:00");
	OK(parse("2026-10-10 09:30+09:00", "UTC")); /* a space and no seconds */
	INT_EQ(fd.utc, 1791592200);
	OK(parse("2026-10-10T09:30:00.5+09:00", "UTC"));
	INT_EQ(fd.utc, 1791592200);

	/* edges of the calendar */
	OK(parse("1970-01-01", "UTC"));
	INT_EQ(fd.utc, 0);
	OK(parse("1969-12-31T23:59:59", "UTC"));
	INT_EQ(fd.utc, -1);
	OK(parse("2024-02-29", "UTC"));
	INT_EQ(fd.utc, 1709164800);
	OK(parse("2000-02-29T12:00:00Z", "UTC"));
	INT_EQ(fd.utc, 951825600);
	OK(parse("2026-12-31T23:59:59Z", "UTC"));
	INT_EQ(fd.year, 2026);
	INT_EQ(fd.month, 12);
	INT_EQ(fd.day, 31);
}

static void test_date_zones(void)
{
	/* a time without an offset is in the site's zone */
	OK(parse("2026-10-10 09:30", "Asia/Seoul"));
	INT_EQ(fd.utc, 1791592200); /* 00:30 UTC */
	INT_EQ(fd.offset, 540);
	STR_EQ(iso(), "2026-10-10T09:30:00+09:00");
	INT_EQ(fd.day, 10); /* the local date, not the UTC one */
	OK(parse("2026-10-10", "Asia/Seoul"));
	INT_EQ(fd.utc, 1791558000); /* midnight in Seoul is 15:00 the day before in UTC */
	STR_EQ(iso(), "2026-10-10T00:00:00+09:00");
	OK(parse("2026-10-10 05:30", "Asia/Kolkata"));
	INT_EQ(fd.offset, 330);
	INT_EQ(fd.utc, 1791590400);
	/* daylight saving time: Berlin is +02:00 in July, +01:00 in January */
	OK(parse("2026-07-01 12:00", "Europe/Berlin"));
	INT_EQ(fd.offset, 120);
	INT_EQ(fd.utc, 1782900000);
	STR_EQ(iso(), "2026-07-01T12:00:00+02:00");
	OK(parse("2026-01-15 12:00", "Europe/Berlin"));
	INT_EQ(fd.offset, 60);
	INT_EQ(fd.utc, 1768474800);
	OK(parse("2026-01-15 06:00", "America/New_York"));
	INT_EQ(fd.offset, -300);
	INT_EQ(fd.utc, 1768474800);
	STR_EQ(iso(), "2026-01-15T06:00:00-05:00");
	OK(parse("2026-10-10 09:30", "Etc/UTC"));
	INT_EQ(fd.utc, 1791624600);

	/* the process's TZ is left as it was */
	setenv("TZ", "America/Chicago", 1);
	OK(parse("2026-10-10 09:30", "Asia/Seoul"));
	STR_EQ(getenv("TZ"), "America/Chicago");
	unsetenv("TZ");
	OK(parse("2026-10-10 09:30", "Asia/Seoul"));
	OK(getenv("TZ") == NULL);
}

static void test_date_errors(void)
{
	STR_EQ(bad("2026-13-01"), "the month must be 01 to 12");
	STR_EQ(bad("2026-00-10"), "the month must be 01 to 12");
	STR_EQ(bad("2026-04-31"), "no such day in that month");
	STR_EQ(bad("2026-10-00"), "no such day in that month");
	STR_EQ(bad("2026-10-32"), "no such day in that month");
	STR_EQ(bad("2023-02-29"), "no such day in that month");
	STR_EQ(bad("1900-02-29"), "no such day in that month");
	STR_EQ(bad("2026-10-10 24:00"), "the time must be 00:00:00 to 23:59:59");
	STR_EQ(bad("2026-10-10 23:60"), "the time must be 00:00:00 to 23:59:59");
	STR_EQ(bad("2026-10-10 23:59:60"), "the time must be 00:00:00 to 23:59:59");
	STR_EQ(bad(""), GENERIC);
	STR_EQ(bad("yesterday"), GENERIC);
	STR_EQ(bad("2026/10/10"), GENERIC);
	STR_EQ(bad("10-10-2026"), GENERIC);
	STR_EQ(bad("2026-1-5"), GENERIC);
	STR_EQ(bad("2026-10-1"), GENERIC);
	STR_EQ(bad("2026-10-10x"), GENERIC);
	STR_EQ(bad("2026-10-10Z"), GENERIC);
	STR_EQ(bad("2026-10-10 9:30"), GENERIC);
	STR_EQ(bad("2026-10-10 09"), GENERIC);
	STR_EQ(bad("2026-10-10 09:3"), GENERIC);
	STR_EQ(bad("2026-10-10T09:30:1"), GENERIC);
	STR_EQ(bad("2026-10-10T09:30:00+0900"), GENERIC);
	STR_EQ(bad("2026-10-10T09:30:00 +09:00"), GENERIC);
	STR_EQ(bad("2026-10-10T09:30:00+24:00"), GENERIC);
	STR_EQ(bad("2026-10-10T09:30:00+09:60"), GENERIC);
	STR_EQ(bad("2026-10-10T09:30:00Zjunk"), GENERIC);
	STR_EQ(bad("2026-10-10T09:30:00+09:00junk"), GENERIC);
	STR_EQ(bad("2026-10-10T"), GENERIC);
	STR_EQ(bad("2026-10-10T09:30:00PST"), GENERIC);
}

/* map: parses yml as a front matter map in file "t.md". */
static struct ynode *map(const char *yml)
{
	struct diag d;
	diag_init(&d, NULL);
	struct ynode *m = yaml_parse(arena, &d, "t.md", yml, strlen(yml), yml, strlen(yml), 0);
	diag_fini(&d);
	OK(m != NULL);
	return m;
}

/* The schema being read, its diagnostics going to cap. */
static struct diag sd;
static struct schema sch;

static void begin(const char *src)
{
	diag_init(&sd, NULL);
	buf_reset(&cap);
	sd.capture = &cap;
	memset(&sch, 0, sizeof sch);
	sch.a = arena;
	sch.d = &sd;
	sch.path = "t.md";
	sch.src = src;
	sch.src_len = strlen(src);
}

static const char *end(void)
{
	diag_fini(&sd);
	return t_msgs(&cap);
}

static void test_schema_date(void)
{
	const char *y = "title: T\ndate: 2026-13-01\nupdated: [1]\nok: 2026-02-03 04:05\nq: '2026-02-03'\n";
	struct ynode *m = map(y);
	struct fdate out;
	begin(y);
	INT_EQ(schema_date(&sch, m, "date", 1, "UTC", &out), -1);
	INT_EQ(schema_date(&sch, m, "updated", 0, "UTC", &out), -1);
	INT_EQ(schema_date(&sch, m, "missing", 0, "UTC", &out), 0);
	INT_EQ(schema_date(&sch, m, "required", 1, "UTC", &out), 0);
	INT_EQ(sch.errors, 3);
	STR_EQ(end(), "t.md:2:7: error: malformed date '2026-13-01' in 'date': the month must be 01 to 12\n"
		      "t.md:3:10: error: 'updated' must be a date, found a list\n"
		      "t.md:1:1: error: missing required key 'required'");
	begin(y);
	INT_EQ(schema_date(&sch, m, "ok", 1, "Asia/Seoul", &out), 1);
	INT_EQ(out.offset, 540);
	STR_EQ(arena_strndup(arena, out.iso.p, out.iso.len), "2026-02-03T04:05:00+09:00");
	/* a quoted date is still a date: front matter is text */
	INT_EQ(schema_date(&sch, m, "q", 1, "UTC", &out), 1);
	INT_EQ(out.day, 3);
	STR_EQ(end(), "");

	/* the excerpt and caret under the bad value */
	begin(y);
	schema_date(&sch, m, "date", 1, "UTC", &out);
	diag_fini(&sd);
	STR_EQ(cap.p, "t.md:2:7: error: malformed date '2026-13-01' in 'date': the month must be 01 to 12\n"
		      " 2 | date: 2026-13-01\n"
		      "   |       ^\n");
}

static void test_readers(void)
{
	const char *y = "s: hello\n"
			"n: 42\n"
			"neg: -7\n"
			"big: 99999999999\n"
			"f: 1.5\n"
			"b: true\n"
			"bq: \"false\"\n"
			"l: [a, ' b ', c]\n"
			"lbad: [a, [x], '']\n"
			"m: {k: v}\n"
			"empty:\n"
			"blank: ''\n";
	struct ynode *m = map(y);
	struct str s;
	int64_t v;
	int b = -1;
	struct str *list = NULL;
	size_t n = 0;
	begin(y);
	INT_EQ(schema_str(&sch, m, "s", 1, &s), 1);
	OK(str_eq_cstr(s, "hello"));
	INT_EQ(schema_str(&sch, m, "n", 0, &s), 1); /* a number is text too */
	OK(str_eq_cstr(s, "42"));
	INT_EQ(schema_str(&sch, m, "nope", 0, &s), 0);
	INT_EQ(schema_str(&sch, m, "empty", 0, &s), 0);
	INT_EQ(schema_int(&sch, m, "n", 0, 100, &v), 1);
	INT_EQ(v, 42);
	INT_EQ(schema_int(&sch, m, "neg", -10, 10, &v), 1);
	INT_EQ(v, -7);
	INT_EQ(schema_int(&sch, m, "nope", 0, 1, &v), 0);
	INT_EQ(schema_bool(&sch, m, "b", &b), 1);
	INT_EQ(b, 1);
	INT_EQ(schema_bool(&sch, m, "nope", &b), 0);
	INT_EQ(b, 1);
	INT_EQ(schema_str_list(&sch, m, "l", &list, &n), 1);
	INT_EQ(n, 3);
	if (n == 3) {
		OK(str_eq_cstr(list[0], "a"));
		OK(str_eq_cstr(list[1], "b")); /* trimmed */
	}
	INT_EQ(schema_str_list(&sch, m, "nope", &list, &n), 0);
	OK(schema_node(m, "m") != NULL);
	OK(schema_node(m, "nope") == NULL);
	STR_EQ(end(), "");

	begin(y);
	INT_EQ(schema_str(&sch, m, "m", 0, &s), -1);
	INT_EQ(schema_str(&sch, m, "blank", 1, &s), -1);
	INT_EQ(schema_str(&sch, m, "empty", 1, &s), -1);
	INT_EQ(schema_int(&sch, m, "f", 0, 10, &v), -1);
	INT_EQ(schema_int(&sch, m, "big", 0, 100000, &v), -1);
	INT_EQ(schema_int(&sch, m, "l", 0, 1, &v), -1);
	INT_EQ(schema_bool(&sch, m, "bq", &b), -1);
	INT_EQ(schema_bool(&sch, m, "n", &b), -1);
	INT_EQ(schema_bool(&sch, m, "m", &b), -1);
	INT_EQ(schema_str_list(&sch, m, "s", &list, &n), -1);
	INT_EQ(schema_str_list(&sch, m, "lbad", &list, &n), -1);
	INT_EQ(sch.errors, 12);
	STR_EQ(end(), "t.md:10:4: error: 'm' must be a string, found a map\n"
		      "t.md:12:8: error: 'blank' must not be empty\n"
		      "t.md:11:7: error: 'empty' must not be empty\n"
		      "t.md:5:4: error: 'f' must be an integer, found '1.5'\n"
		      "t.md:4:6: error: 'big' must be between 0 and 100000, found 99999999999\n"
		      "t.md:8:4: error: 'l' must be an integer, found a list\n"
		      "t.md:7:5: error: 'bq' must be true or false, found 'false'\n"
		      "t.md:2:4: error: 'n' must be true or false, found '42'\n"
		      "t.md:10:4: error: 'm' must be true or false, found a map\n"
		      "t.md:1:4: error: 's' must be a list, found a string (write s: [a, b])\n"
		      "t.md:9:11: error: 'lbad' items must be non-empty strings, found a list\n"
		      "t.md:9:16: error: 'lbad' items must be non-empty strings, found an empty one");
}

static void test_check_keys(void)
{
	static const char *const keys[] = {"title", "date", "tags", "series_order", NULL};
	const char *y = "title: T\ntitel: x\ndte: 2026-01-01\nseries_ordr: 1\nwhatever: 1\n";
	struct ynode *m = map(y);
	begin(y);
	INT_EQ(schema_check_keys(&sch, m, keys, "front matter"), 4);
	STR_EQ(end(), "t.md:2:1: error: unknown front matter key 'titel' (did you mean 'title'?)\n"
		      "t.md:3:1: error: unknown front matter key 'dte' (did you mean 'date'?)\n"
		      "t.md:4:1: error: unknown front matter key 'series_ordr' (did you mean 'series_order'?)\n"
		      "t.md:5:1: error: unknown front matter key 'whatever' (see folio-site(5) for the keys)");
	begin(y);
	INT_EQ(schema_check_keys(&sch, NULL, keys, "x"), 0);
	STR_EQ(end(), "");
}

static void test_kinds(void)
{
	struct ynode *m = map("i: 3\nn: null\ns: x\nf: 2.5\nb: false\nl: []\nm: {}\nq: '3'\n");
	STR_EQ(kind_a(yaml_map_get(m, "i")), "an integer");
	STR_EQ(kind_a(yaml_map_get(m, "n")), "nothing");
	STR_EQ(kind_a(yaml_map_get(m, "s")), "a string");
	STR_EQ(kind_a(yaml_map_get(m, "f")), "a number");
	STR_EQ(kind_a(yaml_map_get(m, "b")), "a boolean");
	STR_EQ(kind_a(yaml_map_get(m, "l")), "a list");
	STR_EQ(kind_a(yaml_map_get(m, "m")), "a map");
	STR_EQ(kind_a(yaml_map_get(m, "q")), "a string");
}

static void test_tz_valid(void)
{
	OK(tz_valid("UTC"));
	OK(tz_valid("Etc/UTC"));
	OK(tz_valid("Asia/Seoul"));
	OK(tz_valid("Europe/Berlin"));
	OK(tz_valid("America/Argentina/Buenos_Aires"));
	OK(!tz_valid(""));
	OK(!tz_valid("Nowhere/City"));
	OK(!tz_valid("Asia"));
	OK(!tz_valid("/etc/passwd"));
	OK(!tz_valid("../../../etc/passwd"));
	OK(!tz_valid("Asia/../Europe/Berlin"));
}

void test_schema(void)
{
	t_current = "schema";
	arena = arena_new();
	buf_init(&cap);
	test_date_forms();
	test_date_zones();
	test_date_errors();
	test_schema_date();
	test_readers();
	test_check_keys();
	test_kinds();
	test_tz_valid();
	buf_fini(&cap);
	arena_free(arena);
	arena = NULL;
}

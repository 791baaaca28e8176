/* test_json.c: JSON through cJSON into the YAML tree: values, escapes,
 * key order, positions, duplicates, diagnostics and limits. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/sanitize.h"
#include "formats/json.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TREE_PARSE json_parse
#define TREE_PATH "t.json"
#include "treeparse.h"

static void test_values(void)
{
	STR_EQ(dump_of("{\"title\": \"Hello\", \"n\": 3, \"f\": 3.0, \"e\": -1.5e3, \"E\": 2E-2, "
	               "\"big\": 12345678901234567890,"
	               " \"t\": true, \"no\": false, \"nil\": null, \"arr\": [1, \"2\", [], {}], "
	               "\"obj\": {\"z\": 1, \"a\": 2}}"),
	       "{\"title\": \"Hello\", \"n\": 3, \"f\": 3.0, \"e\": -1.5e3, \"E\": 2E-2, \"big\": "
	       "12345678901234567890, "
	       "\"t\": true, \"no\": false, \"nil\": null, \"arr\": [1, \"2\", [], {}], \"obj\": "
	       "{\"z\": 1, \"a\": 2}}");
	struct ynode *r = parse("{\"n\": 3, \"s\": \"3\", \"f\": 3.0, \"neg\": -0, \"t\": true, "
	                        "\"nil\": null, \"big\": 1e400}");
	int64_t i = 0;
	double f = 0;
	int b = 0;
	OK(yaml_as_int(yaml_map_get(r, "n"), &i) && i == 3);
	OK(!yaml_as_int(yaml_map_get(r, "s"), &i));
	STR_EQ(yaml_kind_name(yaml_map_get(r, "s")), "string");
	OK(!yaml_as_int(yaml_map_get(r, "f"), &i) && yaml_as_float(yaml_map_get(r, "f"), &f) &&
	   f == 3.0);
	OK(yaml_as_int(yaml_map_get(r, "neg"), &i) && i == 0);
	OK(yaml_as_bool(yaml_map_get(r, "t"), &b) && b == 1);
	OK(yaml_is_null(yaml_map_get(r, "nil")));
	OK(yaml_as_float(yaml_map_get(r, "big"), &f) && isinf(f));
	/* any value may be the document, as in YAML */
	STR_EQ(dump_of("[1, 2]"), "[1, 2]");
	STR_EQ(dump_of("  \"text\"  \n"), "\"text\"");
	STR_EQ(dump_of("42"), "42");
	/* white space alone is an empty map */
	static const char *const empties[] = {"", " \n\t\r\n", "\xEF\xBB\xBF"};
	for (size_t k = 0; k < sizeof empties / sizeof *empties; k++) {
		r = parse(empties[k]);
		OK(r && r->kind == YNODE_MAP && r->len == 0);
		STR_EQ(diags(), "");
	}
	r = parse_in("", 0, 0, 4);
	OK(r && r->kind == YNODE_MAP && r->line == 5 && r->col == 1);
}

static void test_escapes(void)
{
	STR_EQ(dump_of("[\"a\\tb\\nc\", \"q\\\"q\", \"back\\\\slash\", \"sl\\/ash\", \"\\b\\f\\r\","
	               " \"\\u00e9\\u4e2d\", \"\\ud83d\\ude00\", \"caf\xc3\xa9 \xe4\xb8\xad\"]"),
	       "[\"a\tb\nc\", \"q\"q\", \"back\\slash\", \"sl/ash\", \"\b\f\r\", "
	       "\"\xc3\xa9\xe4\xb8\xad\", "
	       "\"\xf0\x9f\x98\x80\", \"caf\xc3\xa9 \xe4\xb8\xad\"]");
	/* keys are unescaped too, and quoted */
	struct ynode *r = parse("{\"k\\u00e9y\": 1}");
	OK(r && r->keys[0]->quoted);
	STR_EQ(r ? r->keys[0]->str.p : "", "k\xc3\xa9y");
}

static void test_positions(void)
{
	struct ynode *r = parse("{\n"
	                        "  \"title\": \"x\",\n"
	                        "  \"tags\" : [ \"a\",\"b\" ],\n"
	                        "  \"caf\xc3\xa9\": {\"k\": -1.5},\n"
	                        "  \"s\": \"\\\"q\\\"\", \"n\": null\n"
	                        "}\n");
	STR_EQ(diags(), "");
	if (!r)
		return;
	STR_EQ(pos(r), "1:1");
	STR_EQ(pos(r->keys[0]), "2:3");
	STR_EQ(pos(r->items[0]), "2:12");
	STR_EQ(pos(r->keys[1]), "3:3");
	STR_EQ(pos(r->items[1]), "3:12");
	STR_EQ(pos(r->items[1]->items[0]), "3:14");
	STR_EQ(pos(r->items[1]->items[1]), "3:18");
	STR_EQ(pos(r->keys[2]), "4:3");
	STR_EQ(pos(r->items[2]), "4:12");
	STR_EQ(pos(r->items[2]->keys[0]), "4:13");
	STR_EQ(pos(r->items[2]->items[0]), "4:18");
	STR_EQ(pos(r->keys[4]), "5:17");
	STR_EQ(pos(r->items[4]), "5:22");
	/* front matter inside a file, a BOM */
	const char *f = "---\n{\"a\": 1}\n---\n";
	r = parse_in(f, 12, 4, 1);
	STR_EQ(pos(r ? r->items[0] : NULL), "2:7");
	r = parse("\xEF\xBB\xBF{\"a\": 1}");
	STR_EQ(pos(r ? r->keys[0] : NULL), "1:5");
}

static void test_errors(void)
{
	STR_EQ(msgs_of("{\"a\": 1, \"b\": 2, \"a\": 3}"),
	       "t.json:1:18: error: duplicate key 'a' (first defined on line 1)");
	/* the key just before, and the last of more */
	STR_EQ(msgs_of("{\"a\": 1, \"a\": 2}"), "t.json:1:10: error: duplicate key 'a' (first defined on line 1)");
	STR_EQ(msgs_of("{\"a\": 1, \"b\": 2, \"c\": 3, \"c\": 4}"),
	       "t.json:1:26: error: duplicate key 'c' (first defined on line 1)");
	STR_EQ(msgs_of("{\n\"a\": 1,\n\"b\": 2,\n}"),
	       "t.json:4:1: error: JSON: syntax error at '}' (hint: remove the comma before it)");
	STR_EQ(msgs_of("{\"a\": 1 \"b\": 2}"),
	       "t.json:1:9: error: JSON: syntax error at '\"' (hint: a ',' is missing before it)");
	STR_EQ(msgs_of("{title: 1}"), "t.json:1:2: error: JSON: syntax error at 't' (hint: write "
	                              "keys in double quotes: {\"key\": value})");
	STR_EQ(msgs_of("{'a': 1}"), "t.json:1:2: error: JSON: syntax error at ''' (hint: JSON "
	                            "strings and keys take double quotes)");
	STR_EQ(msgs_of("{\"a\": 1, // note\n}"),
	       "t.json:1:10: error: JSON: syntax error at '/' (hint: JSON has no comments)");
	STR_EQ(msgs_of("{\"a\": [1, 2}"), "t.json:1:12: error: JSON: syntax error at '}' (hint: "
	                                  "the '[' on line 1 is not closed)");
	STR_EQ(msgs_of("{\"a\": \"unclosed}"), "t.json:1:7: error: JSON: this string is not closed "
	                                       "(hint: a '\"' is missing at its end)");
	/* cJSON lets control characters into strings (JSON does not) */
	STR_EQ(dump_of("{\"a\": \"line\n\", \"b\": 1}"), "{\"a\": \"line\n\", \"b\": 1}");
	STR_EQ(msgs_of("{\"a\": 1"), "t.json:1:8: error: JSON: unexpected end of text (hint: the "
	                             "'{' on line 1 is not closed)");
	STR_EQ(msgs_of("{\"a\": {\"b\": [1,\n2]}\n"),
	       "t.json:2:4: error: JSON: unexpected end of text (hint: the '{' on line 1 is not "
	       "closed)");
	STR_EQ(msgs_of("{\"a\": \"C:\\dir\"}"),
	       "t.json:1:10: error: JSON: syntax error at '\\' (hint: in a string write \\\\ \\\" "
	       "\\n \\t or "
	       "\\uXXXX, not other escapes or control characters)");
	STR_EQ(msgs_of("{\"a\": 1x}"),
	       "t.json:1:8: error: JSON: syntax error at 'x' "
	       "(hint: write numbers as 12, -3.5 or 1e6, or text in double quotes)");
	STR_EQ(msgs_of("{\"a\": 1} {\"b\": 2}"),
	       "t.json:1:10: error: JSON: text after the value (hint: a JSON file holds one value; "
	       "put the items "
	       "in one object or array)");
	/* a NUL after the value is no white space */
	OK(parse_in("{\"a\": 1}\0", 9, 0, 0) == NULL);
	STR_EQ(t_msgs(&cap),
	       "t.json:1:9: error: JSON: text after the value (hint: a JSON file holds one value; "
	       "put the items "
	       "in one object or array)");
	STR_EQ(msgs_of("{\"a\": \"caf\xe9\"}"),
	       "t.json:1:11: error: JSON: invalid UTF-8 (hint: save the file as UTF-8)");
	/* with the excerpt */
	OK(parse("{\n  \"title\": \"x\",\n  \"draft\": yes\n}\n") == NULL);
	INT_EQ(last_errors, 1);
	STR_EQ(diags(), "t.json:3:12: error: JSON: syntax error at 'y' (hint: write text in double "
	                "quotes; true, "
	                "false and null are lower case)\n"
	                " 3 |   \"draft\": yes\n"
	                "   |            ^\n");
}

static void test_hugo(void)
{
	const char *config =
	    "{\n"
	    "  \"baseURL\": \"https://example.org/\",\n"
	    "  \"title\": \"My Site\",\n"
	    "  \"paginate\": 5,\n"
	    "  \"params\": {\"description\": \"A blog\", \"math\": true},\n"
	    "  \"menus\": {\"main\": [{\"name\": \"Home\", \"pageRef\": \"/\", \"weight\": 10}]},\n"
	    "  \"taxonomies\": {\"tag\": \"tags\"}\n"
	    "}\n";
	STR_EQ(dump_of(config),
	       "{\"baseURL\": \"https://example.org/\", \"title\": \"My Site\", \"paginate\": 5, "
	       "\"params\": {\"description\": \"A blog\", \"math\": true}, \"menus\": {\"main\": "
	       "[{\"name\": \"Home\", \"pageRef\": \"/\", \"weight\": 10}]}, \"taxonomies\": "
	       "{\"tag\": "
	       "\"tags\"}}");
	const char *fm = "{\n  \"title\": \"Hello\",\n  \"date\": \"2024-01-02T10:00:00Z\",\n  "
	                 "\"tags\": [\"c\"]\n}\nBody\n";
	struct ynode *r = json_parse(arena, NULL, "content/posts/hello.md", fm, strlen(fm), fm,
	                             strlen(fm) - 5, 0);
	STR_EQ(dump(r),
	       "{\"title\": \"Hello\", \"date\": \"2024-01-02T10:00:00Z\", \"tags\": [\"c\"]}");
	STR_EQ(pos(yaml_map_get(r, "date")), "3:11");
}

/* cpu_seconds: the process's CPU time, for the bound of the pathological
 * inputs below: 10 s, 3 times that under ASan, 30 times under valgrind
 * (they take a fraction of a second in the release build). */
static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#ifdef FOLIO_ASAN
#define SLOW_SCALE 3
#else
#define SLOW_SCALE 1
#endif
#define CPU_BOUND (10.0 * SLOW_SCALE * (RUNNING_ON_VALGRIND ? 30 : 1))

static void test_limits(void)
{
	struct buf b;
	buf_init(&b);
	/* 64 levels are fine, 65 are not */
	for (int k = 0; k < 64; k++)
		buf_puts(&b, "[");
	for (int k = 0; k < 64; k++)
		buf_puts(&b, "]");
	OK(parse(b.p) != NULL);
	buf_reset(&b);
	for (int k = 0; k < 65; k++)
		buf_puts(&b, "{\"k\":");
	buf_puts(&b, "1");
	for (int k = 0; k < 65; k++)
		buf_puts(&b, "}");
	OK(parse(b.p) == NULL);
	STR_EQ(t_msgs(&cap), "t.json:1:321: error: JSON nested deeper than 64 levels");

	double t0 = cpu_seconds();
	/* 100,000 levels: cJSON stops at its own 1,000; the message says 64 */
	buf_reset(&b);
	for (int k = 0; k < 100000; k++)
		buf_puts(&b, "[");
	OK(parse(b.p) == NULL);
	INT_EQ(last_errors, 1);
	STR_EQ(t_msgs(&cap), "t.json:1:65: error: JSON nested deeper than 64 levels");
	/* 100,000 keys, in order, duplicates found with a hash */
	buf_reset(&b);
	buf_puts(&b, "{");
	for (int k = 0; k < 100000; k++)
		buf_printf(&b, "%s\n\"key%d\": %d", k ? "," : "", k, k);
	buf_puts(&b, "}");
	struct ynode *r = parse(b.p);
	OK(r && r->len == 100000);
	STR_EQ(r ? r->keys[12345]->str.p : "", "key12345");
	STR_EQ(pos(r ? r->items[99999] : NULL), "100001:13");
	b.len--;
	buf_puts(&b, ",\n\"key7\": 1}");
	OK(parse(b.p) == NULL);
	STR_EQ(t_msgs(&cap),
	       "t.json:100002:1: error: duplicate key 'key7' (first defined on line 9)");
	/* a 1 MB string */
	buf_reset(&b);
	buf_puts(&b, "[\"");
	for (int k = 0; k < (1 << 20); k++)
		buf_putc(&b, "ab\xc3\xa9"[k % 4]);
	buf_puts(&b, "\", 1]");
	r = parse(b.p);
	OK(r && r->items[0]->str.len == (1 << 20));
	/* 100,000 items on one line */
	buf_reset(&b);
	buf_puts(&b, "[");
	for (int k = 0; k < 100000; k++)
		buf_printf(&b, "%s{\"k\": %d}", k ? "," : "", k);
	buf_puts(&b, "]");
	r = parse(b.p);
	OK(r && r->len == 100000);
	OK(cpu_seconds() - t0 < CPU_BOUND);
	buf_fini(&b);
}

void test_json(void)
{
	t_current = "json";
	arena = arena_new();
	buf_init(&cap);
	test_values();
	test_escapes();
	test_positions();
	test_errors();
	test_hugo();
	test_limits();
	buf_fini(&cap);
	arena_free(arena);
	arena = NULL;
}

/* test_yaml.c: the YAML tree, its positions, typed views and diagnostics. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "formats/yaml.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct arena *arena;
static struct buf cap;  /* the diagnostics of the last parse */
static int last_errors; /* and how many there were */

/* parse_in: parses src[at..] as front matter whose first line is line
 * 1 + line_offset of src, as content.c does. */
static struct ynode *parse_in(const char *src, size_t src_len, size_t at, int line_offset)
{
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	struct ynode *n =
	    yaml_parse(arena, &d, "t.yml", src, src_len, src + at, src_len - at, line_offset);
	last_errors = d.errors;
	diag_fini(&d);
	return n;
}

static struct ynode *parse(const char *text)
{
	return parse_in(text, strlen(text), 0, 0);
}

static const char *diags(void)
{
	return cap.p ? cap.p : "";
}

/* errors_of: the diagnostics for text, which must fail to parse. */
static const char *errors_of(const char *text)
{
	OK(parse(text) == NULL);
	return diags();
}

static const char *str_of(const struct ynode *n)
{
	return n && n->kind == YNODE_SCALAR ? n->str.p : "(not a scalar)";
}

/* scalar: a plain or quoted scalar node, to test the typed views alone. */
static struct ynode *scalar(const char *s, int quoted)
{
	struct ynode *n = arena_alloc(arena, sizeof *n);
	n->kind = YNODE_SCALAR;
	n->str.p = arena_strndup(arena, s, strlen(s));
	n->str.len = strlen(s);
	n->quoted = quoted;
	return n;
}

static void test_scalars(void)
{
	struct ynode *r = parse("title: Hello, world\n"
	                        "dq: \"a\\tb \\u00e9\"\n"
	                        "sq: 'it''s'\n"
	                        "lit: |\n"
	                        "  line 1\n"
	                        "  line 2\n"
	                        "fold: >-\n"
	                        "  folded\n"
	                        "  text\n"
	                        "plain: true\n"
	                        "multi word: x\n");
	OK(r != NULL);
	STR_EQ(diags(), "");
	INT_EQ(r->kind, YNODE_MAP);
	INT_EQ(r->len, 7);
	STR_EQ(str_of(r->keys[0]), "title");
	STR_EQ(str_of(yaml_map_get(r, "title")), "Hello, world");
	INT_EQ(yaml_map_get(r, "title")->quoted, 0);
	STR_EQ(str_of(yaml_map_get(r, "dq")), "a\tb \xc3\xa9");
	INT_EQ(yaml_map_get(r, "dq")->quoted, 1);
	STR_EQ(str_of(yaml_map_get(r, "sq")), "it's");
	INT_EQ(yaml_map_get(r, "sq")->quoted, 1);
	STR_EQ(str_of(yaml_map_get(r, "lit")), "line 1\nline 2\n");
	INT_EQ(yaml_map_get(r, "lit")->quoted, 1);
	STR_EQ(str_of(yaml_map_get(r, "fold")), "folded text");
	INT_EQ(yaml_map_get(r, "fold")->quoted, 1);
	INT_EQ(yaml_map_get(r, "plain")->quoted, 0);
	STR_EQ(str_of(yaml_map_get(r, "multi word")), "x");
	INT_EQ(yaml_map_get(r, "fold")->str.len, 11);

	/* "\0" in double quotes: the length counts, the text is not cut. */
	r = parse("k: \"a\\0b\"\n");
	OK(r && yaml_map_get(r, "k")->str.len == 3);
	OK(r && memcmp(yaml_map_get(r, "k")->str.p, "a\0b", 4) == 0);

	/* !!str and the non-specific "!" force a string: typed as quoted. */
	r = parse("a: !!str 12\nb: ! true\n");
	OK(r && yaml_map_get(r, "a")->quoted && yaml_map_get(r, "b")->quoted);
	STR_EQ(yaml_kind_name(yaml_map_get(r, "a")), "string");

	/* A document may be a lone scalar or a list. */
	r = parse("just text\n");
	OK(r && r->kind == YNODE_SCALAR);
	STR_EQ(str_of(r), "just text");
	r = parse("- a\n- b\n");
	OK(r && r->kind == YNODE_SEQ && r->len == 2);
	STR_EQ(str_of(r->items[1]), "b");
	r = parse("~\n");
	OK(r && r->kind == YNODE_SCALAR && yaml_is_null(r));
}

static void test_empty(void)
{
	static const char *const empties[] = {"", "\n\n", "# only a comment\n", "---\n",
	                                      "--- # c\n...\n"};
	for (size_t i = 0; i < sizeof empties / sizeof *empties; i++) {
		struct ynode *r = parse(empties[i]);
		OK(r && r->kind == YNODE_MAP && r->len == 0);
		STR_EQ(diags(), "");
	}
	struct ynode *r = parse_in("", 0, 0, 4);
	OK(r && r->kind == YNODE_MAP && r->len == 0 && r->line == 5 && r->col == 1);
	OK(yaml_map_get(r, "x") == NULL);
}

static void test_nested(void)
{
	struct ynode *r = parse("series:\n"
	                        "  name: Parsers\n"
	                        "  parts:\n"
	                        "    - title: One\n"
	                        "      tags: [c, yaml]\n"
	                        "    - title: Two\n"
	                        "      meta: {draft: false, n: 2}\n"
	                        "empty_list: []\n"
	                        "empty_map: {}\n");
	OK(r != NULL);
	struct ynode *s = yaml_map_get(r, "series");
	OK(s && s->kind == YNODE_MAP && s->len == 2);
	struct ynode *parts = yaml_map_get(s, "parts");
	OK(parts && parts->kind == YNODE_SEQ && parts->len == 2);
	struct ynode *tags = yaml_map_get(parts->items[0], "tags");
	OK(tags && tags->kind == YNODE_SEQ && tags->len == 2);
	STR_EQ(str_of(tags->items[1]), "yaml");
	struct ynode *meta = yaml_map_get(parts->items[1], "meta");
	OK(meta && meta->kind == YNODE_MAP && meta->len == 2);
	STR_EQ(str_of(meta->keys[1]), "n");
	int b = 1;
	OK(yaml_as_bool(yaml_map_get(meta, "draft"), &b) && b == 0);
	OK(yaml_map_get(r, "empty_list")->kind == YNODE_SEQ);
	INT_EQ(yaml_map_get(r, "empty_list")->len, 0);
	OK(yaml_map_get(r, "empty_map")->kind == YNODE_MAP);
	INT_EQ(yaml_map_get(r, "empty_map")->len, 0);
	STR_EQ(yaml_kind_name(parts), "list");
	STR_EQ(yaml_kind_name(meta), "map");

	/* yaml_map_get: only on maps, and NULL is no map. */
	OK(yaml_map_get(parts, "title") == NULL);
	OK(yaml_map_get(NULL, "title") == NULL);
	OK(yaml_map_get(r, "Series") == NULL);

	/* Exactly 64 levels are allowed. */
	char deep[64 * 2 + 2];
	memset(deep, '[', 64);
	memset(deep + 64, ']', 64);
	strcpy(deep + 128, "\n");
	r = parse(deep);
	OK(r && r->kind == YNODE_SEQ && r->len == 1);
	STR_EQ(diags(), "");
}

static void test_positions(void)
{
	/* Front matter starting on line 2 of its file: line_offset 1. */
	const char *src = "---\n"
	                  "title: Hi\n"
	                  "tags:\n"
	                  "  - a\n"
	                  "  -   b\n"
	                  "when: {y: 2024}\n"
	                  "---\n";
	struct ynode *r = parse_in(src, strlen(src) - 4, 4, 1);
	OK(r != NULL);
	INT_EQ(r->line, 2);
	INT_EQ(r->col, 1);
	INT_EQ(r->keys[0]->line, 2);
	INT_EQ(r->keys[0]->col, 1);
	INT_EQ(r->items[0]->line, 2);
	INT_EQ(r->items[0]->col, 8);
	struct ynode *tags = yaml_map_get(r, "tags");
	INT_EQ(tags->line, 4);
	INT_EQ(tags->col, 3);
	INT_EQ(tags->items[1]->line, 5);
	INT_EQ(tags->items[1]->col, 7);
	struct ynode *when = yaml_map_get(r, "when");
	INT_EQ(when->line, 6);
	INT_EQ(when->col, 7);
	INT_EQ(when->keys[0]->col, 8);
	INT_EQ(when->items[0]->col, 11);

	/* Columns count bytes, as diagnostics do: "été" is 5 bytes. */
	r = parse("\xc3\xa9t\xc3\xa9: x\n");
	OK(r && r->items[0]->col == 8);

	/* CRLF line ends, and a UTF-8 BOM, which is not a column of its own
	 * to libyaml but is 3 bytes of the line. */
	r = parse("a: 1\r\nb: 2\r\n");
	OK(r && r->keys[1]->line == 2 && r->keys[1]->col == 1 && r->items[1]->col == 4);
	r = parse("\xef\xbb\xbf"
	          "a: 1\nb: 2\n");
	OK(r && r->len == 2);
	OK(r && r->keys[0]->line == 1 && r->keys[0]->col == 4);
	OK(r && r->keys[1]->line == 2 && r->keys[1]->col == 1);

	/* An empty value points just after its ':'. */
	r = parse("a:\nb: 1\n");
	OK(r && yaml_is_null(r->items[0]));
	OK(r && r->items[0]->line == 1 && r->items[0]->col == 3);
}

static void test_typed(void)
{
	int b;
	int64_t i;
	double f;

	static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
	for (size_t k = 0; k < sizeof nulls / sizeof *nulls; k++) {
		OK(yaml_is_null(scalar(nulls[k], 0)));
		OK(!yaml_is_null(scalar(nulls[k], 1)));
		STR_EQ(yaml_kind_name(scalar(nulls[k], 0)), "null");
	}
	OK(!yaml_is_null(scalar("nULL", 0)));
	OK(!yaml_is_null(NULL));

	OK(yaml_as_bool(scalar("true", 0), &b) && b == 1);
	OK(yaml_as_bool(scalar("True", 0), &b) && b == 1);
	OK(yaml_as_bool(scalar("TRUE", 0), &b) && b == 1);
	OK(yaml_as_bool(scalar("false", 0), &b) && b == 0);
	OK(yaml_as_bool(scalar("False", 0), &b) && b == 0);
	OK(yaml_as_bool(scalar("FALSE", 0), &b) && b == 0);
	static const char *const not_bools[] = {"yes", "no", "on", "off", "y", "NO", "tRUE", "1"};
	for (size_t k = 0; k < sizeof not_bools / sizeof *not_bools; k++)
		OK(!yaml_as_bool(scalar(not_bools[k], 0), &b));
	OK(!yaml_as_bool(scalar("true", 1), &b));
	STR_EQ(yaml_kind_name(scalar("no", 0)), "string");
	STR_EQ(yaml_kind_name(scalar("false", 0)), "boolean");

	OK(yaml_as_int(scalar("0", 0), &i) && i == 0);
	OK(yaml_as_int(scalar("42", 0), &i) && i == 42);
	OK(yaml_as_int(scalar("-17", 0), &i) && i == -17);
	OK(yaml_as_int(scalar("+5", 0), &i) && i == 5);
	OK(yaml_as_int(scalar("007", 0), &i) && i == 7);
	OK(yaml_as_int(scalar("0x1F", 0), &i) && i == 31);
	OK(yaml_as_int(scalar("0xff", 0), &i) && i == 255);
	OK(yaml_as_int(scalar("0o17", 0), &i) && i == 15);
	OK(yaml_as_int(scalar("9223372036854775807", 0), &i) && i == INT64_MAX);
	OK(yaml_as_int(scalar("-9223372036854775808", 0), &i) && i == INT64_MIN);
	OK(yaml_as_int(scalar("0x7fffffffffffffff", 0), &i) && i == INT64_MAX);
	static const char *const not_ints[] = {"9223372036854775808",
	                                       "-9223372036854775809",
	                                       "0x8000000000000000",
	                                       "99999999999999999999",
	                                       "",
	                                       "-",
	                                       "+",
	                                       "0x",
	                                       "0o",
	                                       "0o8",
	                                       "0xg",
	                                       "-0x1",
	                                       "1_000",
	                                       "12abc",
	                                       "1.0",
	                                       "1e3",
	                                       " 1",
	                                       "0b101"};
	for (size_t k = 0; k < sizeof not_ints / sizeof *not_ints; k++) {
		i = 12345;
		if (yaml_as_int(scalar(not_ints[k], 0), &i))
			t_fail(__FILE__, __LINE__, "'%s' parsed as the integer %lld", not_ints[k],
			       (long long)i);
		else
			t_passed++;
	}
	OK(!yaml_as_int(scalar("42", 1), &i));
	OK(!yaml_as_int(NULL, &i));
	STR_EQ(yaml_kind_name(scalar("-3", 0)), "integer");
	STR_EQ(yaml_kind_name(scalar("42", 1)), "string");

	OK(yaml_as_float(scalar("1.5", 0), &f) && f == 1.5);
	OK(yaml_as_float(scalar("-0.25", 0), &f) && f == -0.25);
	OK(yaml_as_float(scalar(".5", 0), &f) && f == 0.5);
	OK(yaml_as_float(scalar("+1.", 0), &f) && f == 1.0);
	OK(yaml_as_float(scalar("1e3", 0), &f) && f == 1000.0);
	OK(yaml_as_float(scalar("2.5E-1", 0), &f) && f == 0.25);
	OK(yaml_as_float(scalar("7", 0), &f) && f == 7.0); /* integers are floats too */
	OK(yaml_as_float(scalar(".inf", 0), &f) && isinf(f) && f > 0);
	OK(yaml_as_float(scalar("+.Inf", 0), &f) && isinf(f) && f > 0);
	OK(yaml_as_float(scalar("-.INF", 0), &f) && isinf(f) && f < 0);
	OK(yaml_as_float(scalar(".nan", 0), &f) && isnan(f));
	OK(yaml_as_float(scalar(".NaN", 0), &f) && isnan(f));
	static const char *const not_floats[] = {
	    "",    ".",        "-",     "e3",   "1e",  "1e+",  "1.5.2", "0x1p3", "inf",
	    "nan", "infinity", "-.nan", ".iNf", "1,5", "1.5 ", "--1",   "1e3.0"};
	for (size_t k = 0; k < sizeof not_floats / sizeof *not_floats; k++) {
		if (yaml_as_float(scalar(not_floats[k], 0), &f))
			t_fail(__FILE__, __LINE__, "'%s' parsed as the float %g", not_floats[k], f);
		else
			t_passed++;
	}
	OK(!yaml_as_float(scalar("1.5", 1), &f));
	STR_EQ(yaml_kind_name(scalar("1.5", 0)), "float");
	STR_EQ(yaml_kind_name(scalar(".inf", 0)), "float");
	STR_EQ(yaml_kind_name(scalar("1.5.2", 0)), "string");

	/* The typed views apply to the parsed tree the same way. */
	struct ynode *r = parse("n: 3\nq: \"3\"\ne:\n");
	OK(r && yaml_as_int(yaml_map_get(r, "n"), &i) && i == 3);
	OK(r && !yaml_as_int(yaml_map_get(r, "q"), &i));
	OK(r && yaml_is_null(yaml_map_get(r, "e")));
	OK(r && !yaml_as_bool(r, &b));
}

static void test_syntax_errors(void)
{
	STR_EQ(errors_of("title: x\n\tdate: 2024-01-01\n"),
	       "t.yml:2:1: error: YAML: found a tab character that violates indentation "
	       "(hint: YAML does not allow tabs for indentation)\n"
	       " 2 | \tdate: 2024-01-01\n"
	       "   | ^\n");
	STR_EQ(errors_of("tags:\n\t- c\n"),
	       "t.yml:2:1: error: YAML: found character that cannot start any token "
	       "(hint: YAML does not allow tabs for indentation)\n"
	       " 2 | \t- c\n"
	       "   | ^\n");
	STR_EQ(errors_of("date: 2024\ntitle: Parsing: a primer\n"),
	       "t.yml:2:15: error: YAML: mapping values are not allowed in this context "
	       "(hint: quote the value if it contains ': ')\n"
	       " 2 | title: Parsing: a primer\n"
	       "   |               ^\n");
	STR_EQ(errors_of("a: 1\n  b: 2\n"),
	       "t.yml:2:4: error: YAML: mapping values are not allowed in this context "
	       "(hint: check the indentation)\n"
	       " 2 |   b: 2\n"
	       "   |    ^\n");
	STR_EQ(errors_of("a: 1\nb:2\nc: 3\n"),
	       "t.yml:2:1: error: YAML: could not find expected ':' "
	       "(hint: write 'key: value', with a space after the ':')\n"
	       " 2 | b:2\n"
	       "   | ^\n");
	STR_EQ(errors_of("title: \"Unclosed\ndate: 2024\n"),
	       "t.yml:1:8: error: YAML: found unexpected end of stream "
	       "(hint: the quoted value is not closed)\n"
	       " 1 | title: \"Unclosed\n"
	       "   |        ^\n");
	STR_EQ(errors_of("path: \"C:\\dir\"\n"),
	       "t.yml:1:10: error: YAML: found unknown escape character "
	       "(hint: in double quotes write '\\\\' for a backslash, or use single quotes)\n"
	       " 1 | path: \"C:\\dir\"\n"
	       "   |          ^\n");
	STR_EQ(errors_of("user: @alice\n"),
	       "t.yml:1:7: error: YAML: found character that cannot start any token "
	       "(hint: quote the value)\n"
	       " 1 | user: @alice\n"
	       "   |       ^\n");
	STR_EQ(errors_of("tags: [a, b\n"),
	       "t.yml:1:7: error: YAML: did not find expected ',' or ']' "
	       "(hint: the text ends before this is closed)\n"
	       " 1 | tags: [a, b\n"
	       "   |       ^\n");
	/* a '[' or '{' left open before the next key: the error where libyaml
	 * finds out, and where it opened, as a note and in the hint */
	STR_EQ(errors_of("title: A\ntags: [a, b\ndate: 2026-01-05\n"),
	       "t.yml:3:5: error: YAML: did not find expected ',' or ']' "
	       "(hint: the '[' on line 2 is not closed: end the list with ']')\n"
	       " 3 | date: 2026-01-05\n"
	       "   |     ^\n"
	       "t.yml:2:7: note: the '[' opened here\n"
	       " 2 | tags: [a, b\n"
	       "   |       ^\n");
	INT_EQ(last_errors, 1);
	STR_EQ(errors_of("extra: {a: [1,\n  2], b: 3\nsummary: x\n"),
	       "t.yml:3:8: error: YAML: did not find expected ',' or '}' "
	       "(hint: the '{' on line 1 is not closed: end the map with '}')\n"
	       " 3 | summary: x\n"
	       "   |        ^\n"
	       "t.yml:1:8: note: the '{' opened here\n"
	       " 1 | extra: {a: [1,\n"
	       "   |        ^\n");
	STR_EQ(errors_of("tags: [a, [b, c]\nsummary: x\n"),
	       "t.yml:2:1: error: YAML: did not find expected ',' or ']' "
	       "(hint: the '[' on line 1 is not closed: end the list with ']')\n"
	       " 2 | summary: x\n"
	       "   | ^\n"
	       "t.yml:1:7: note: the '[' opened here\n"
	       " 1 | tags: [a, [b, c]\n"
	       "   |       ^\n");
	STR_EQ(errors_of("a: b\n- c\n"),
	       "t.yml:2:1: error: YAML: did not find expected key (hint: check the indentation)\n"
	       " 2 | - c\n"
	       "   | ^\n");
	INT_EQ(last_errors, 1);

	/* Lines count from line_offset, and the excerpt comes from src. */
	const char *src = "---\nok: 1\nbad: x: y\n---\nbody\n";
	OK(parse_in(src, 20, 4, 1) == NULL);
	STR_EQ(diags(), "t.yml:3:7: error: YAML: mapping values are not allowed in this context "
	                "(hint: quote the value if it contains ': ')\n"
	                " 3 | bad: x: y\n"
	                "   |       ^\n");
}

static void test_encoding_errors(void)
{
	/* Latin-1 "café": libyaml blames the byte after the 0xE9, the caret
	 * goes to the 0xE9 itself. */
	STR_EQ(errors_of("title: caf\xe9 au lait\n"),
	       "t.yml:1:11: error: YAML: invalid trailing UTF-8 octet "
	       "(hint: save the file as UTF-8)\n"
	       " 1 | title: caf\xe9 au lait\n"
	       "   |           ^\n");
	STR_EQ(errors_of("a: 1\nb: \xff\n"), "t.yml:2:4: error: YAML: invalid leading UTF-8 octet "
	                                     "(hint: save the file as UTF-8)\n"
	                                     " 2 | b: \xff\n"
	                                     "   |    ^\n");
	STR_EQ(errors_of("a: 1\nb: x\x01y\n"),
	       "t.yml:2:5: error: YAML: control characters are not allowed "
	       "(hint: remove the character U+0001)\n"
	       " 2 | b: x\x01y\n"
	       "   |     ^\n");
	/* A NUL byte inside the given length is text, not the end. */
	static const char nul[] = "a: 1\nb: \0\n";
	OK(parse_in(nul, sizeof nul - 1, 0, 0) == NULL);
	STR_EQ(diags(), "t.yml:2:4: error: YAML: control characters are not allowed "
	                "(hint: remove the character U+0000)\n"
	                " 2 | b: \n"
	                "   |    ^\n");
	/* UTF-16 is not decoded: its marks would not match the bytes. */
	static const char utf16[] = "\xff\xfe"
	                            "a\0:\0 \0001\0\n\0";
	OK(parse_in(utf16, sizeof utf16 - 1, 0, 0) == NULL);
	INT_EQ(last_errors, 1);
	OK(strstr(diags(), "t.yml:1:1: error: YAML: invalid leading UTF-8 octet") == diags());
	/* A truncated sequence at the very end. */
	STR_EQ(errors_of("a: \xc3"), "t.yml:1:4: error: YAML: incomplete UTF-8 octet sequence "
	                             "(hint: save the file as UTF-8)\n"
	                             " 1 | a: \xc3\n"
	                             "   |    ^\n");
}

static void test_semantic_errors(void)
{
	STR_EQ(errors_of("title: A\ndate: 2024\ntitle: B\n"),
	       "t.yml:3:1: error: duplicate key 'title' (first defined on line 1)\n"
	       " 3 | title: B\n"
	       "   | ^\n");
	/* Every duplicate is reported, in the order of the text, and a quoted
	 * key is the same key. */
	STR_EQ(errors_of("a: 1\n'a': 2\nm:\n  x: 1\n  \"x\": 2\n"),
	       "t.yml:2:1: error: duplicate key 'a' (first defined on line 1)\n"
	       " 2 | 'a': 2\n"
	       "   | ^\n"
	       "t.yml:5:3: error: duplicate key 'x' (first defined on line 4)\n"
	       " 5 |   \"x\": 2\n"
	       "   |   ^\n");
	INT_EQ(last_errors, 2);
	STR_EQ(errors_of("{a: 1, b: 2, a: 3}\n"),
	       "t.yml:1:14: error: duplicate key 'a' (first defined on line 1)\n"
	       " 1 | {a: 1, b: 2, a: 3}\n"
	       "   |              ^\n");

	STR_EQ(errors_of("[a, b]: 1\n? {c: d}\n: 2\n"),
	       "t.yml:1:1: error: a map key must be text, not a list\n"
	       " 1 | [a, b]: 1\n"
	       "   | ^\n"
	       "t.yml:2:3: error: a map key must be text, not a map\n"
	       " 2 | ? {c: d}\n"
	       "   |   ^\n");

	STR_EQ(errors_of("base: &b {x: 1}\nother: *b\n"),
	       "t.yml:1:7: error: YAML aliases and anchors are not supported\n"
	       " 1 | base: &b {x: 1}\n"
	       "   |       ^\n"
	       "t.yml:2:8: error: YAML aliases and anchors are not supported\n"
	       " 2 | other: *b\n"
	       "   |        ^\n");
	/* The classic alias bomb is refused without expanding anything. */
	OK(parse("a: &a [x, x, x, x, x, x, x, x, x]\n"
	         "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
	         "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
	         "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n") == NULL);
	INT_EQ(last_errors, 4 + 27);

	STR_EQ(errors_of("n: !!int 3\nx: !custom y\n"),
	       "t.yml:1:4: error: YAML tag '!!int' is not supported (hint: remove the tag)\n"
	       " 1 | n: !!int 3\n"
	       "   |    ^\n"
	       "t.yml:2:4: error: YAML tag '!custom' is not supported (hint: remove the tag)\n"
	       " 2 | x: !custom y\n"
	       "   |    ^\n");

	STR_EQ(errors_of("title: One\n---\ntitle: Two\n"),
	       "t.yml:2:1: error: only one YAML document is allowed "
	       "(hint: a '---' line starts a new one)\n"
	       " 2 | ---\n"
	       "   | ^\n");
}

static void test_limits(void)
{
	/* 65 levels: the error is at the 65th opening bracket. */
	char deep[65 * 2 + 2];
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	strcpy(deep + 130, "\n");
	OK(parse(deep) == NULL);
	STR_EQ(diags(), "t.yml:1:65: error: YAML nested deeper than 64 levels\n"
	                " 1 | [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	                "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n"
	                "   |                                                                 ^\n");

	/* 100,000 levels, flow and block: an error, quickly, with no deep
	 * recursion anywhere. */
	size_t n = 100000;
	char *s = xmalloc(2 * n + 2);
	memset(s, '[', n);
	s[n] = '\0';
	OK(parse(s) == NULL);
	INT_EQ(last_errors, 1);
	OK(strncmp(diags(), "t.yml:1:65: error: YAML nested deeper than 64 levels\n", 53) == 0);
	for (size_t k = 0; k < n; k++)
		memcpy(s + 2 * k, "- ", 2);
	strcpy(s + 2 * n, "x");
	OK(parse(s) == NULL);
	OK(strncmp(diags(), "t.yml:1:129: error: YAML nested deeper than 64 levels\n", 54) == 0);
	free(s);

	/* Block maps nested by indentation count the same way. */
	struct buf b;
	buf_init(&b);
	for (int k = 0; k < 70; k++)
		buf_printf(&b, "%*sk%d:\n", k, "", k);
	OK(parse(b.p) == NULL);
	OK(strncmp(diags(), "t.yml:65:65: error: YAML nested deeper than 64 levels\n", 54) == 0);

	/* A large map keeps its order and finds duplicates fast (a hash past a
	 * few keys). */
	buf_reset(&b);
	for (int k = 0; k < 20000; k++)
		buf_printf(&b, "key%d: %d\n", k, k);
	struct ynode *r = parse(b.p);
	OK(r && r->len == 20000);
	STR_EQ(str_of(r->keys[12345]), "key12345");
	int64_t v = 0;
	OK(yaml_as_int(yaml_map_get(r, "key19999"), &v) && v == 19999);
	buf_puts(&b, "key7: again\n");
	OK(parse(b.p) == NULL);
	STR_EQ(diags(), "t.yml:20001:1: error: duplicate key 'key7' (first defined on line 8)\n"
	                " 20001 | key7: again\n"
	                "       | ^\n");
	/* Nested maps reuse the same level's table: no stale keys leak from
	 * one map into the next. */
	buf_reset(&b);
	for (int m = 0; m < 3; m++) {
		buf_printf(&b, "m%d:\n", m);
		for (int k = 0; k < 20; k++)
			buf_printf(&b, "  k%d: 1\n", k);
	}
	r = parse(b.p);
	OK(r && r->len == 3 && r->items[2]->len == 20);
	STR_EQ(diags(), "");
	buf_fini(&b);
}

void test_yaml(void)
{
	t_current = "yaml";
	arena = arena_new();
	buf_init(&cap);
	test_scalars();
	test_empty();
	test_nested();
	test_positions();
	test_typed();
	test_syntax_errors();
	test_encoding_errors();
	test_semantic_errors();
	test_limits();
	buf_fini(&cap);
	arena_free(arena);
	arena = NULL;
}

/* toml.cpp: TOML -> folio's YAML tree: toml++ (header-only) parses, this
 * shim turns its tables into struct ynode trees with positions and reports
 * its errors as folio's diagnostics. The only C++ in folio; everything it
 * gives back is C data in the caller's arena. */

/* toml++ compiled into this file alone, with exceptions: its parse errors
 * are thrown, and so are its internal checks (TOML_ASSERT), which the
 * release build keeps: toml++ 3.4.0 has inputs that fail one (a date-time
 * whose 't' is followed by a letter, "1979-05-27twT07:00:00"), and an
 * assert() would end folio. Thrown, they unwind the parser as its own
 * errors do and are reported as errors of the text. TOML 1.0 only; no
 * printers (folio writes no TOML). */
#include <stdexcept>

namespace folio_toml
{
struct check_failed : std::logic_error {
	using std::logic_error::logic_error;
};
[[noreturn]] inline void fail_check(const char *expr)
{
	throw check_failed(expr);
}
} // namespace folio_toml

#define TOML_ASSERT(expr)               ((expr) ? static_cast<void>(0) : folio_toml::fail_check(#expr))
#define TOML_HEADER_ONLY                1
#define TOML_EXCEPTIONS                 1
#define TOML_ENABLE_FORMATTERS          0
#define TOML_ENABLE_UNRELEASED_FEATURES 0
/* Values within values (arrays, inline tables) nest at most as deep as
 * folio reads: toml++ stops deeper ones itself (see deep_key for why
 * depth matters before folio's own check). The value is YAML_MAX_DEPTH
 * (yaml.h is C; a static_assert below keeps them equal). */
#define TOML_MAX_NESTED_VALUES 64
#include <toml++/toml.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <utility>
#include <vector>

/* folio's headers are C; diag.h's one compound literal is C99, not C++. */
extern "C" {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#include "formats/toml.h"
#pragma GCC diagnostic pop
}

static_assert(TOML_MAX_NESTED_VALUES == YAML_MAX_DEPTH, "toml++'s nesting limit is folio's");

namespace
{

[[noreturn]] void oom()
{
	std::fputs("folio: out of memory\n", stderr);
	std::exit(1);
}

int clamp_int(size_t v)
{
	return v > 1000000000 ? 1000000000 : static_cast<int>(v);
}

/* A (line, column) of toml++ as one number that sorts in text order. */
uint64_t pos_key(const toml::source_position &p)
{
	return static_cast<uint64_t>(p.line) << 32 | p.column;
}

/* The shim's state for one document. */
struct conv {
	arena *a = nullptr;
	diag *d = nullptr;
	diag_src in = {};
	const char *text = nullptr;
	size_t len = 0;
	size_t bom = 0; /* bytes of a UTF-8 BOM, which toml++ skips without counting */
	std::vector<size_t> line_start; /* byte offset where each line starts */
	/* toml++ counts columns in code points, diagnostics in bytes: the last
	 * conversion, walked on from when the next is further along the same
	 * line. Nodes come in text order, so a 1 MB line of 100,000 keys is
	 * walked once, not once a key. */
	size_t cur_line = 0, cur_col = 0, cur_byte = 0;
	int errors = 0;
};

/* loc_of: where toml++'s position p is, as a diagnostic location (line 1,
 * column 1 when toml++ gives none). */
diag_loc loc_of(conv &c, const toml::source_position &p)
{
	size_t line = p.line, col = p.column;
	if (line == 0 || col == 0 || line > c.line_start.size()) {
		line = 1;
		col = 1;
	}
	size_t start = c.line_start[line - 1];
	if (line != c.cur_line || col < c.cur_col) {
		c.cur_line = line;
		c.cur_col = 1;
		c.cur_byte = start + (line == 1 ? c.bom : 0);
	}
	while (c.cur_col < col && c.cur_byte < c.len && c.text[c.cur_byte] != '\n') {
		unsigned char ch = static_cast<unsigned char>(c.text[c.cur_byte]);
		size_t w = ch < 0xC0 ? 1 : ch < 0xE0 ? 2 : ch < 0xF0 ? 3 : 4;
		c.cur_byte = w > c.len - c.cur_byte ? c.len : c.cur_byte + w;
		c.cur_col++;
	}
	return diag_src_at(&c.in, clamp_int(line), clamp_int(c.cur_byte - start) + 1);
}

ynode *new_node(conv &c, ynode_kind kind, const toml::source_position &p)
{
	return ynode_new(c.a, kind, loc_of(c, p));
}

ynode *new_scalar(conv &c, const toml::source_position &p, std::string_view s, int quoted)
{
	ynode *n = new_node(c, YNODE_SCALAR, p);
	n->str.p = arena_strndup(c.a, s.data(), s.size());
	n->str.len = s.size();
	n->quoted = quoted;
	return n;
}

/* float_text: v spelled so that yaml_as_float reads it back exactly and
 * yaml_as_int does not take it: the shortest round-trip digits, ".0" added
 * to a whole number ("3" would be an integer), .inf and .nan for those. */
std::string_view float_text(double v, char (&buf)[64])
{
	if (std::isnan(v))
		return ".nan";
	if (std::isinf(v))
		return v < 0 ? "-.inf" : ".inf";
	auto r = std::to_chars(buf, buf + sizeof buf - 3, v);
	size_t n = static_cast<size_t>(r.ptr - buf);
	if (!std::memchr(buf, '.', n) && !std::memchr(buf, 'e', n)) {
		buf[n++] = '.';
		buf[n++] = '0';
	}
	return std::string_view(buf, n);
}

/* The ISO 8601 spellings of TOML's dates and times, as folio's date
 * parser reads them (schema.c, parse_date_text). */
size_t date_text(const toml::date &d, char *buf, size_t cap)
{
	int n = std::snprintf(buf, cap, "%04u-%02u-%02u", unsigned(d.year), unsigned(d.month),
	                      unsigned(d.day));
	return n < 0 ? 0 : std::min(static_cast<size_t>(n), cap - 1);
}

size_t time_text(const toml::time &t, char *buf, size_t cap)
{
	int n = std::snprintf(buf, cap, "%02u:%02u:%02u", unsigned(t.hour), unsigned(t.minute),
	                      unsigned(t.second));
	if (n > 0 && t.nanosecond) {
		/* the fraction as written, up to nanoseconds, without its
		 * trailing zeros */
		char frac[16];
		std::snprintf(frac, sizeof frac, "%09u", unsigned(t.nanosecond));
		size_t k = std::strlen(frac);
		while (k > 1 && frac[k - 1] == '0')
			k--;
		n += std::snprintf(buf + n, cap - static_cast<size_t>(n), ".%.*s",
		                   static_cast<int>(k), frac);
	}
	return n < 0 ? 0 : std::min(static_cast<size_t>(n), cap - 1);
}

ynode *scalar_of(conv &c, const toml::node &v)
{
	const toml::source_position p = v.source().begin;
	char buf[64];
	switch (v.type()) {
	case toml::node_type::string: {
		const std::string &s = v.as_string()->get();
		return new_scalar(c, p, s, 1);
	}
	case toml::node_type::integer: {
		auto r = std::to_chars(buf, buf + sizeof buf, v.as_integer()->get());
		return new_scalar(c, p, std::string_view(buf, static_cast<size_t>(r.ptr - buf)), 0);
	}
	case toml::node_type::floating_point:
		return new_scalar(c, p, float_text(v.as_floating_point()->get(), buf), 0);
	case toml::node_type::boolean:
		return new_scalar(c, p, v.as_boolean()->get() ? "true" : "false", 0);
	case toml::node_type::date:
		return new_scalar(
		    c, p, std::string_view(buf, date_text(v.as_date()->get(), buf, sizeof buf)), 0);
	case toml::node_type::time:
		return new_scalar(
		    c, p, std::string_view(buf, time_text(v.as_time()->get(), buf, sizeof buf)), 0);
	case toml::node_type::date_time: {
		const toml::date_time &dt = v.as_date_time()->get();
		size_t n = date_text(dt.date, buf, sizeof buf);
		buf[n++] = 'T';
		n += time_text(dt.time, buf + n, sizeof buf - n);
		if (dt.offset) {
			int m = dt.offset->minutes;
			if (m == 0)
				buf[n++] = 'Z';
			else
				n += static_cast<size_t>(std::snprintf(
				    buf + n, sizeof buf - n, "%c%02d:%02d", m < 0 ? '-' : '+',
				    std::abs(m) / 60, std::abs(m) % 60));
		}
		return new_scalar(c, p, std::string_view(buf, std::min(n, sizeof buf - 1)), 0);
	}
	default: /* tables and arrays are walked; nothing else exists */
		return new_scalar(c, p, "", 1);
	}
}

/* walk: the tree of node v, which is inside depth collections; NULL after
 * reporting a collection nested deeper than YAML_MAX_DEPTH (the limit keeps
 * every recursive walk of the tree later shallow, as yaml_parse does). */
ynode *walk(conv &c, const toml::node &v, int depth)
{
	if (!v.is_table() && !v.is_array())
		return scalar_of(c, v);
	if (depth == YAML_MAX_DEPTH) {
		diag_loc loc = loc_of(c, v.source().begin);
		diag_error(c.d, &loc, "TOML nested deeper than %d levels", YAML_MAX_DEPTH);
		c.errors++;
		return nullptr;
	}
	if (const toml::array *arr = v.as_array()) {
		ynode *n = new_node(c, YNODE_SEQ, arr->source().begin);
		n->len = arr->size();
		n->items = static_cast<ynode **>(arena_alloc(c.a, n->len * sizeof *n->items));
		for (size_t i = 0; i < n->len; i++)
			if (!(n->items[i] = walk(c, (*arr)[i], depth + 1)))
				return nullptr;
		return n;
	}
	const toml::table &t = *v.as_table();
	/* toml++ keeps a table's keys sorted by name; folio keeps them in the
	 * order of the file, which is the order of their positions. */
	std::vector<std::pair<const toml::key *, const toml::node *>> kv;
	kv.reserve(t.size());
	for (auto &&[k, val] : t)
		kv.emplace_back(&k, &val);
	std::sort(kv.begin(), kv.end(), [](const auto &x, const auto &y) {
		return pos_key(x.first->source().begin) < pos_key(y.first->source().begin);
	});
	ynode *n = new_node(c, YNODE_MAP, t.source().begin);
	n->len = kv.size();
	n->keys = static_cast<ynode **>(arena_alloc(c.a, n->len * sizeof *n->keys));
	n->items = static_cast<ynode **>(arena_alloc(c.a, n->len * sizeof *n->items));
	for (size_t i = 0; i < n->len; i++) {
		const toml::key &k = *kv[i].first;
		ynode *kn = new_scalar(c, k.source().begin, k.str(), 0);
		/* a quoted key ("a b" = 1) is a quoted scalar, as in YAML;
		 * new_scalar left the cursor on the key's first byte */
		kn->quoted =
		    c.cur_byte < c.len && (c.text[c.cur_byte] == '"' || c.text[c.cur_byte] == '\'');
		n->keys[i] = kn;
		if (!(n->items[i] = walk(c, *kv[i].second, depth + 1)))
			return nullptr;
	}
	return n;
}

/* deep_key: where a dotted key or table header of more than YAML_MAX_DEPTH
 * parts has its (YAML_MAX_DEPTH + 1)th '.', or SIZE_MAX if none has.
 *
 * Each part of a key is a level of tables, and toml++ walks and frees its
 * tree recursively: "k.k.k...= 1" of 100,000 parts overflows the stack
 * before folio sees the tree. Such a key could only be refused as too deep
 * afterwards, so it is refused before. This is no parser: it only counts
 * the '.' between the bytes that end a key (= , [ ] { } # and line ends),
 * skipping strings (which may be key parts) as TOML writes them, so a
 * key's dots are counted whatever its spacing and quoting. In a valid
 * document only a key has more than one '.' in such a run, so nothing
 * folio would read is refused; with keys of at most 64 parts and values
 * nested at most TOML_MAX_NESTED_VALUES deep, a tree is a few thousand
 * levels deep at most, which toml++'s recursion takes. */
size_t deep_key(const char *t, size_t n)
{
	size_t dots = 0;
	for (size_t i = 0; i < n; i++) {
		char ch = t[i];
		if (ch == '"' || ch == '\'') {
			size_t j = i + 1;
			if (i + 2 < n && t[i + 1] == ch && t[i + 2] == ch) {
				/* a multi-line string: to the next run of three or
				 * more quotes (the last three close it) */
				for (j = i + 3; j < n; j++) {
					if (ch == '"' && t[j] == '\\')
						j++;
					else if (t[j] == ch && j + 2 < n && t[j + 1] == ch &&
					         t[j + 2] == ch)
						break;
				}
				while (j < n && t[j] == ch)
					j++;
				i = j - 1;
			} else {
				while (j < n && t[j] != ch && t[j] != '\n')
					j += ch == '"' && t[j] == '\\' ? 2 : 1;
				i = j < n && t[j] == '\n' ? j - 1 : j;
			}
			continue;
		}
		if (ch == '#') {
			while (i + 1 < n && t[i + 1] != '\n')
				i++;
		} else if (ch == '.') {
			if (++dots > YAML_MAX_DEPTH)
				return i;
		} else if (std::strchr("=,[]{}\n", ch)) {
			dots = 0;
		}
	}
	return SIZE_MAX;
}

/* hint_for: a hint for the mistakes people make most in TOML front matter
 * and config files, from toml++'s message; NULL if none fits. */
const char *hint_for(std::string_view msg, bool at_eol, bool non_ascii)
{
	auto has = [&](std::string_view s) { return msg.find(s) != std::string_view::npos; };
	if (has("cannot redefine existing"))
		return "each key and table may be defined only once";
	if (has("utf-8") || has("UTF-8"))
		return "save the file as UTF-8";
	if (has("expected value, saw") || has("could not determine value type")) {
		/* a bare word as a value: title = Hello */
		return "quote text values: key = \"value\"";
	}
	if (has("expected '='") && non_ascii)
		return "bare keys are ASCII letters, digits, '_' and '-': quote others "
		       "(\"caf\xc3\xa9\" = 1)";
	if (has("expected '=', saw") || has("expected '='"))
		return "write key = value";
	if (has("unknown escape sequence"))
		return "in double quotes write '\\\\' for a backslash, or use single quotes";
	if (has("end-of-file") && has("string"))
		return "the quoted value is not closed";
	if (has("end-of-file"))
		return "the text ends before this is closed";
	if (has("dangling comma"))
		return "remove the comma before the closing bracket";
	if (has("saw comma"))
		return "a value is missing before this comma";
	if (has("expected a comment or whitespace"))
		return "write one key = value on each line";
	if (has("expected ']'") || has("expected ']]'"))
		return "close the table header with ']' on its line";
	if (has("control character") && at_eol)
		return "the string is not closed on its line (\"\"\" or ''' start text of several "
		       "lines)";
	if (has("control character"))
		return "write control characters as escapes (\\t, \\u0001) in double quotes";
	return nullptr;
}

/* report: toml++'s syntax error, at its position, with its message (less
 * its "Error while parsing X: ", which becomes "in a X: ") and a hint. */
void report(conv &c, const toml::parse_error &e)
{
	std::string_view msg = e.description();
	constexpr std::string_view prefix = "Error while parsing ";
	std::string_view what;
	if (msg.substr(0, prefix.size()) == prefix) {
		size_t colon = msg.find(": ");
		if (colon != std::string_view::npos) {
			what = msg.substr(prefix.size(), colon - prefix.size());
			msg = msg.substr(colon + 2);
		}
	}
	diag_loc loc = loc_of(c, e.source().begin);
	if (msg.find("TOML_MAX_NESTED_VALUES") != std::string_view::npos) {
		diag_error(c.d, &loc, "TOML nested deeper than %d levels", YAML_MAX_DEPTH);
		return;
	}
	bool at_eol =
	    c.cur_byte >= c.len || c.text[c.cur_byte] == '\n' || c.text[c.cur_byte] == '\r';
	bool non_ascii =
	    c.cur_byte < c.len && static_cast<unsigned char>(c.text[c.cur_byte]) >= 0x80;
	const char *hint = hint_for(msg, at_eol, non_ascii);
	const char *in = what.empty() ? "" : std::strchr("aeiou", what[0]) ? "in an " : "in a ";
	diag_error(c.d, &loc, "TOML: %s%.*s%s%.*s%s%s%s", in, int(what.size()), what.data(),
	           what.empty() ? "" : ": ", int(msg.size()), msg.data(), hint ? " (hint: " : "",
	           hint ? hint : "", hint ? ")" : "");
}

struct ynode *parse(conv &c)
{
	size_t deep = deep_key(c.text, c.len);
	if (deep != SIZE_MAX) {
		/* the byte is known: its line, and the bytes before it there */
		size_t line = static_cast<size_t>(
		    std::upper_bound(c.line_start.begin(), c.line_start.end(), deep) -
		    c.line_start.begin());
		diag_loc loc = diag_src_at(&c.in, clamp_int(line),
		                           clamp_int(deep - c.line_start[line - 1]) + 1);
		diag_error(c.d, &loc,
		           "TOML nested deeper than %d levels (hint: a key of more than %d parts)",
		           YAML_MAX_DEPTH, YAML_MAX_DEPTH);
		return nullptr;
	}
	toml::table t;
	try {
		t = toml::parse(std::string_view(c.text, c.len));
	} catch (const toml::parse_error &e) {
		report(c, e);
		return nullptr;
	} catch (const folio_toml::check_failed &e) {
		/* where toml++ was is not known: the start of the text */
		diag_loc loc = loc_of(c, toml::source_position{1, 1});
		diag_error(c.d, &loc,
		           "TOML: toml++ cannot read this text (its check '%s' failed) "
		           "(hint: check the spelling of dates, times and numbers)",
		           e.what());
		return nullptr;
	}
	ynode *root = walk(c, t, 0);
	if (!root || c.errors)
		return nullptr;
	root->line = 1 + c.in.line_offset;
	root->col = 1;
	return root;
}

} // namespace

struct ynode *toml_parse(struct arena *a, struct diag *d, const char *path, const char *src,
                         size_t src_len, const char *text, size_t len, int line_offset)
{
	/* No exception may cross into folio's C: out of memory inside toml++
	 * or here ends folio as xmalloc does. */
	try {
		conv c;
		c.a = a;
		c.d = d;
		c.in = diag_src{path, src, src_len, line_offset};
		c.text = text ? text : "";
		c.len = text ? len : 0;
		if (c.len >= 3 && std::memcmp(c.text, "\xEF\xBB\xBF", 3) == 0)
			c.bom = 3;
		c.line_start.push_back(0);
		for (const char *p = c.text, *end = c.text + c.len;
		     (p = static_cast<const char *>(
		          std::memchr(p, '\n', static_cast<size_t>(end - p))));
		     p++)
			c.line_start.push_back(static_cast<size_t>(p + 1 - c.text));
		return parse(c);
	} catch (...) {
		oom();
	}
}

/* test_tmpl_spec.c: runs the spec-style template cases in tests/tmpl/ (*.txt),
 * and the examples of man/folio-template.5 (t_spec_dir and t_man_page: the
 * unit tests' arguments can name others).
 *
 * A case file holds cases like this (one trailing newline of each section is
 * dropped):
 *
 *   === what the case shows
 *   --- template            (or: --- template NAME; the first one is rendered)
 *   Hello {{ name }}
 *   --- data                (optional: YAML, the render's variables)
 *   name: world
 *   --- options             (optional: strict=false, base_url=URL, max_output=N, max_depth=N)
 *   --- output              (the expected page)
 *   Hello world
 *   --- error               (or: the expected diagnostics, exactly)
 */
#include "harness.h"

#include "tmpl/tmpl.h"
#include "formats/yaml.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

struct section {
	char kind[128];
	char name[128];
	struct str text;
};

struct spec_case {
	const char *file;
	int line;
	struct str title;
	struct section sec[16];
	int nsec;
};

static const struct section *find_sec(const struct spec_case *c, const char *kind)
{
	for (int i = 0; i < c->nsec; i++)
		if (!strcmp(c->sec[i].kind, kind))
			return &c->sec[i];
	return NULL;
}

static void apply_options(struct tmpl_env *env, struct str opts)
{
	size_t max_output = 64u << 20;
	int max_depth = 100;
	const char *p = opts.p, *end = opts.p + opts.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)n, p);
		char *eq = strchr(line, '=');
		if (eq) {
			*eq = '\0';
			const char *v = eq + 1;
			if (!strcmp(line, "strict"))
				tmpl_env_set_strict(env, strcmp(v, "false") != 0);
			else if (!strcmp(line, "base_url"))
				tmpl_env_set_base_url(env, v);
			else if (!strcmp(line, "max_output"))
				max_output = (size_t)strtoull(v, NULL, 10);
			else if (!strcmp(line, "max_depth"))
				max_depth = atoi(v);
		}
		p += n + 1;
	}
	tmpl_env_set_limits(env, max_output, max_depth);
}

/* run_case: renders the case; 1 if it passed. */
/* same_with_memo: renders name twice more with a memo of macro calls in
 * use (tmpl_memo: the second render takes the calls the first made), and
 * whether both gave the output and the errors of the render without it
 * (out, errs). */
static int same_with_memo(const struct tmpl_env *env, const char *name, const struct tval *vars,
			  const struct buf *out, const struct buf *errs)
{
	struct tmpl_memo *mm = tmpl_memo_new((size_t)1 << 20);
	tmpl_memo_use(mm);
	int same = 1;
	for (int round = 0; round < 2; round++) {
		struct arena *a = arena_new();
		struct buf e2, o2;
		buf_init(&e2);
		buf_init(&o2);
		struct diag d;
		diag_init(&d, NULL);
		d.capture = &e2;
		tmpl_render(env, name, vars, &o2, a, &d);
		diag_fini(&d);
		if (!str_eq(buf_str(&o2), buf_str(out)) || !str_eq(buf_str(&e2), buf_str(errs)))
			same = 0;
		buf_fini(&e2);
		buf_fini(&o2);
		arena_free(a);
	}
	tmpl_memo_use(NULL);
	tmpl_memo_free(mm);
	return same;
}

static int run_case(const struct spec_case *c)
{
	struct tmpl_env *env = tmpl_env_new();
	struct arena *a = arena_new();
	struct buf errs, out;
	buf_init(&errs);
	buf_init(&out);
	struct diag d;
	diag_init(&d, NULL);
	d.capture = &errs;
	const struct section *opts = find_sec(c, "options");
	if (opts)
		apply_options(env, opts->text);
	const char *first = NULL;
	int errors = 0;
	for (int i = 0; i < c->nsec; i++) {
		const struct section *s = &c->sec[i];
		if (strcmp(s->kind, "template"))
			continue;
		const char *name = s->name[0] ? s->name : "main.html";
		char path[160];
		snprintf(path, sizeof path, "templates/%s", name);
		if (!first)
			first = name;
		errors += tmpl_env_add(env, name, path, s->text.p, s->text.len, &d);
	}
	errors += tmpl_env_check(env, &d);
	struct tval vars = tv_map(tmap_new(a, 0));
	const struct section *data = find_sec(c, "data");
	if (data) {
		struct ynode *n = yaml_parse(a, &d, "data.yml", data->text.p, data->text.len, data->text.p,
					     data->text.len, 0);
		if (n)
			vars = tval_from_yaml(a, n);
	}
	if (!errors && first)
		tmpl_render(env, first, &vars, &out, a, &d);
	int memo_ok = !errors && first ? same_with_memo(env, first, &vars, &out, &errs) : 1;
	/* and with the data frozen, as the host's model is: its maps are then
	 * compared by identity */
	if (!errors && first) {
		tval_freeze(&vars);
		memo_ok &= same_with_memo(env, first, &vars, &out, &errs);
	}
	const struct section *want_out = find_sec(c, "output");
	const struct section *want_err = find_sec(c, "error");
	struct str got_out = buf_str(&out), got_err = buf_str(&errs);
	int ok = 1;
	if (got_err.len && got_err.p[got_err.len - 1] == '\n')
		got_err.len--; /* as a section's last newline is dropped */
	if (want_err) {
		ok = str_eq(got_err, want_err->text);
	} else {
		ok = got_err.len == 0;
	}
	if (want_out && !str_eq(got_out, want_out->text))
		ok = 0;
	if (!memo_ok) {
		ok = 0;
		fprintf(stderr, "(with a memo of macro calls, a render's output or errors differed)\n");
	}
	if (!ok) {
		t_failed++;
		fprintf(stderr, "FAIL %s:%d: %.*s\n", c->file, c->line, STR_FMT(c->title));
		if (want_out)
			fprintf(stderr, "--- want output\n%.*s\n--- got output\n%.*s\n", STR_FMT(want_out->text),
				STR_FMT(got_out));
		fprintf(stderr, "--- want error\n%.*s\n--- got error\n%.*s\n", want_err ? (int)want_err->text.len : 0,
			want_err ? want_err->text.p : "", STR_FMT(got_err));
	} else {
		t_passed++;
	}
	diag_fini(&d);
	buf_fini(&errs);
	buf_fini(&out);
	arena_free(a);
	tmpl_env_free(env);
	return ok;
}

static void finish_section(struct spec_case *c, const char *start, const char *end)
{
	if (c->nsec == 0)
		return;
	struct section *s = &c->sec[c->nsec - 1];
	if (end > start && end[-1] == '\n')
		end--;
	s->text.p = start;
	s->text.len = (size_t)(end - start);
}

/* tmpl_spec_run_text: parses and runs every case in text; returns the count. */
static int run_text(const char *file, const char *text, size_t len)
{
	struct spec_case c;
	int in_case = 0, count = 0, line = 1;
	const char *p = text, *end = text + len, *sec_start = NULL;
	memset(&c, 0, sizeof c);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;
		size_t n = (size_t)((nl ? nl : end) - p);
		if (n >= 4 && memcmp(p, "=== ", 4) == 0) {
			if (in_case) {
				finish_section(&c, sec_start, p);
				run_case(&c);
				count++;
			}
			memset(&c, 0, sizeof c);
			c.file = file;
			c.line = line;
			c.title.p = p + 4;
			c.title.len = n - 4;
			in_case = 1;
			sec_start = NULL;
		} else if (in_case && n >= 4 && memcmp(p, "--- ", 4) == 0 && c.nsec < 16) {
			finish_section(&c, sec_start, p);
			struct section *s = &c.sec[c.nsec++];
			char hdr[128];
			snprintf(hdr, sizeof hdr, "%.*s", (int)(n - 4 < 127 ? n - 4 : 127), p + 4);
			char *sp = strchr(hdr, ' ');
			if (sp) {
				*sp = '\0';
				snprintf(s->name, sizeof s->name, "%s", sp + 1);
			}
			snprintf(s->kind, sizeof s->kind, "%s", hdr);
			sec_start = next;
		}
		p = next;
		line++;
	}
	if (in_case) {
		finish_section(&c, sec_start, end);
		run_case(&c);
		count++;
	}
	return count;
}

/* roff_unescape: the text of an .EX block as the reader sees it. */
static void roff_unescape(struct buf *b, const char *p, size_t n)
{
	static const struct {
		const char *esc, *text;
	} map[] = {{"\\e", "\\"}, {"\\(aq", "'"}, {"\\(dq", "\""}, {"\\-", "-"}, {"\\&", ""},
		   {"\\(ti", "~"}, {"\\(ha", "^"}, {"\\(rs", "\\"}, {"\\(ga", "`"}, {NULL, NULL}};
	for (size_t i = 0; i < n;) {
		int hit = 0;
		for (int k = 0; map[k].esc; k++) {
			size_t l = strlen(map[k].esc);
			if (n - i >= l && memcmp(p + i, map[k].esc, l) == 0) {
				buf_puts(b, map[k].text);
				i += l;
				hit = 1;
				break;
			}
		}
		if (!hit)
			buf_putc(b, p[i++]);
	}
}

/* run_man: every example of the man page is a case. An example is
 * marked in the roff source:
 *   .\" example            the next .EX/.EE block is the template
 *   .\" data: {k: v}       optional, YAML on one line
 *   .\" output             the next .EX/.EE block is the expected output
 *   (or .\" error: the expected diagnostics) */
static void run_man(const char *path)
{
	size_t len;
	char *text = read_file(path, &len);
	if (!text) {
		t_fail(__FILE__, __LINE__, "cannot read %s", path);
		return;
	}
	t_current = path;
	struct buf spec;
	buf_init(&spec);
	int count = 0, state = 0; /* 0 outside, 1 want template, 2 want output */
	int in_ex = 0, line = 0, ex_line = 0;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		line++;
		if (n >= 11 && memcmp(p, ".\\\" example", 11) == 0) {
			buf_printf(&spec, "=== %s:%d example\n", path, line);
			state = 1;
			count++;
		} else if (state && n >= 9 && memcmp(p, ".\\\" data:", 9) == 0) {
			buf_puts(&spec, "--- data\n");
			roff_unescape(&spec, p + 9, n - 9);
			buf_putc(&spec, '\n');
		} else if (state && n >= 10 && memcmp(p, ".\\\" output", 10) == 0) {
			state = 2;
			buf_puts(&spec, "--- output\n");
		} else if (state && n >= 9 && memcmp(p, ".\\\" error", 9) == 0) {
			state = 2;
			buf_puts(&spec, "--- error\n");
		} else if (state && n == 3 && memcmp(p, ".EX", 3) == 0) {
			in_ex = 1;
			ex_line = line;
			if (state == 1)
				buf_puts(&spec, "--- template\n");
		} else if (in_ex && n == 3 && memcmp(p, ".EE", 3) == 0) {
			in_ex = 0;
			if (state == 2)
				state = 0;
		} else if (in_ex && state) {
			roff_unescape(&spec, p, n);
			buf_putc(&spec, '\n');
		}
		p = nl ? nl + 1 : end;
	}
	(void)ex_line;
	if (count == 0)
		t_fail(__FILE__, __LINE__, "%s has no examples", path);
	else
		run_text(path, spec.p, spec.len);
	fprintf(stderr, "man page examples: %d in %s\n", count, path);
	buf_fini(&spec);
	free(text);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_spec_dir(const char *dir)
{
	DIR *dh = opendir(dir);
	if (!dh) {
		t_fail(__FILE__, __LINE__, "cannot open %s", dir);
		return;
	}
	char *names[512];
	int n = 0;
	struct dirent *de;
	while ((de = readdir(dh)) && n < 512) {
		size_t l = strlen(de->d_name);
		if (l > 4 && !strcmp(de->d_name + l - 4, ".txt"))
			names[n++] = strdup(de->d_name);
	}
	closedir(dh);
	qsort(names, (size_t)n, sizeof *names, cmp_names);
	int total = 0;
	for (int i = 0; i < n; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		size_t len;
		char *text = read_file(path, &len);
		if (!text) {
			t_fail(__FILE__, __LINE__, "cannot read %s", path);
		} else {
			t_current = names[i];
			total += run_text(path, text, len);
			free(text);
		}
	}
	t_current = "tmpl_spec";
	for (int i = 0; i < n; i++)
		free(names[i]);
	fprintf(stderr, "template spec: %d cases in %d files\n", total, n);
}

void test_tmpl_spec(void)
{
	run_spec_dir(t_spec_dir);
	run_man(t_man_page);
}

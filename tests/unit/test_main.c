/* test_main.c: runs the unit test modules, every one (the template spec
 * cases and the template man page's examples among them) or those -m
 * names. The modules are build/gen/unit_list.h's, which the Makefile
 * writes from the tests/unit/test_*.c it builds. */
#include "harness.h"

#include "base/buf.h"
#include "base/diag.h"
#include "md/markdown.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int t_passed, t_failed;
const char *t_current = "";
const char *t_spec_dir = "tests/tmpl", *t_man_page = "man/folio-template.5";

void t_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	t_failed++;
	fprintf(stderr, "FAIL %s:%d: [%s] ", file, line, t_current);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

char *t_tmpdir(void)
{
	char tmpl[] = "/tmp/folio-unit-XXXXXX";
	if (!mkdtemp(tmpl)) {
		perror("mkdtemp");
		exit(1);
	}
	return strdup(tmpl);
}

void t_write(const char *dir, const char *rel, const char *text)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			perror(path);
		*p = '/';
	}
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fwrite(text, 1, strlen(text), f);
	fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

void t_rmtree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int t_exists(const char *dir, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	return access(path, F_OK) == 0;
}

static struct buf t_scratch;

const char *t_read(const char *dir, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	buf_reset(&t_scratch);
	size_t len;
	char *text = read_file(path, &len);
	if (text) {
		buf_append(&t_scratch, text, len);
		free(text);
	}
	return t_scratch.p ? t_scratch.p : "";
}

int t_has(const char *s, const char *needle)
{
	return s && strstr(s, needle) != NULL;
}

size_t t_count(const char *s, const char *needle)
{
	/* not strstr in a loop: ASan's strstr measures the rest of s at each
	 * call, which made a count over a 4 MB text take 100 s in make asan */
	size_t n = 0, k = strlen(needle);
	if (!s || k == 0)
		return 0;
	for (const char *p = s; *p;) {
		if (*p == *needle && strncmp(p, needle, k) == 0) {
			n++;
			p += k;
		} else {
			p++;
		}
	}
	return n;
}

const char *t_post(struct arena *a, const char *md, const struct md_options *opts, struct md_doc *doc,
                   struct buf *errs)
{
	struct diag d;
	diag_init(&d, NULL);
	d.capture = errs;
	struct md_options o = opts ? *opts : (struct md_options){0};
	o.unsafe = 1;
	static const char front[] = "---\ntitle: T\ndate: 2026-01-01\n---\n";
	struct buf src;
	buf_init(&src);
	buf_puts(&src, front);
	buf_puts(&src, md);
	md_render(a, &o, &d, "content/posts/p.md", src.p, src.len, src.p + sizeof front - 1, strlen(md), 4, doc);
	buf_fini(&src);
	diag_fini(&d);
	return doc->html.p;
}

const char *t_msgs(const struct buf *cap)
{
	buf_reset(&t_scratch);
	const char *p = cap->p ? cap->p : "", *end = p + cap->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		if (*p != ' ' && e > p) {
			if (t_scratch.len)
				buf_putc(&t_scratch, '\n');
			buf_append(&t_scratch, p, (size_t)(e - p));
		}
		p = nl ? nl + 1 : end;
	}
	return t_scratch.p ? t_scratch.p : "";
}

static const struct unit {
	const char *name;
	void (*run)(void);
} units[] = {
#define UNIT(name) {#name, test_##name},
#include "unit_list.h"
#undef UNIT
};
enum { NUNITS = sizeof units / sizeof units[0] };

static void usage(FILE *f)
{
	fprintf(f, "usage: unit_tests [-t] [-m MODULE[,MODULE...]]... [SPEC_DIR [MAN_PAGE]]\n"
	           "       unit_tests -l\n"
	           "Runs the unit test modules (every one without -m) and ends with\n"
	           "\"unit: N passed, N failed\". SPEC_DIR (tests/tmpl) and MAN_PAGE\n"
	           "(man/folio-template.5) are what the tmpl_spec module reads.\n"
	           "  -m MODULE  run this module (test_MODULE.c) only; repeat or list with commas\n"
	           "  -l         list the modules, one a line\n"
	           "  -t         print each module's time on stderr\n"
	           "modules:");
	for (int i = 0; i < NUNITS; i++)
		fprintf(f, " %s", units[i].name);
	fputc('\n', f);
}

/* find_unit: the index of the module a name means, -1 if none. Besides
 * the bare name, "test_NAME", "test_NAME.c" and "tests/unit/test_NAME.c"
 * are understood (a path completed in the shell). */
static int find_unit(const char *name, size_t len)
{
	const char *slash = memrchr(name, '/', len);
	if (slash) {
		len -= (size_t)(slash + 1 - name);
		name = slash + 1;
	}
	if (len > 5 && memcmp(name, "test_", 5) == 0)
		name += 5, len -= 5;
	if (len > 2 && memcmp(name + len - 2, ".c", 2) == 0)
		len -= 2;
	for (int i = 0; i < NUNITS; i++)
		if (strlen(units[i].name) == len && memcmp(units[i].name, name, len) == 0)
			return i;
	return -1;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	char chosen[NUNITS];
	int any = 0, timed = 0, opt;
	memset(chosen, 0, sizeof chosen);
	while ((opt = getopt(argc, argv, "m:lth")) != -1) {
		switch (opt) {
		case 'm':
			for (const char *p = optarg; *p;) {
				size_t n = strcspn(p, ", ");
				if (n) {
					int u = find_unit(p, n);
					if (u < 0) {
						fprintf(stderr, "unit_tests: no module '%.*s'\n",
						        (int)n, p);
						usage(stderr);
						return 2;
					}
					chosen[u] = 1;
					any = 1;
				}
				p += n;
				p += strspn(p, ", ");
			}
			break;
		case 'l':
			for (int i = 0; i < NUNITS; i++)
				printf("%s\n", units[i].name);
			return 0;
		case 't': timed = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (argc - optind > 2) {
		usage(stderr);
		return 2;
	}
	if (optind < argc)
		t_spec_dir = argv[optind];
	if (optind + 1 < argc)
		t_man_page = argv[optind + 1];
	for (int i = 0; i < NUNITS; i++) {
		if (any && !chosen[i])
			continue;
		t_current = units[i].name;
		double start = now();
		units[i].run();
		if (timed)
			fprintf(stderr, "time: %-12s %7.2f s\n", units[i].name, now() - start);
	}
	buf_fini(&t_scratch);
	printf("unit: %d passed, %d failed\n", t_passed, t_failed);
	return t_failed ? 1 : 0;
}

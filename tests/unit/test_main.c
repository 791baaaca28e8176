/* test_main.c: runs every unit test module and the template spec cases. */
#include "harness.h"

#include "buf.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int t_passed, t_failed;
const char *t_current = "";

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

int main(int argc, char **argv)
{
	const char *spec_dir = argc > 1 ? argv[1] : "tests/tmpl";
	test_arena();
	test_buf();
	test_index();
	test_pool();
	test_diag();
	test_yaml();
	test_tmpl();
	test_markdown();
	test_commonmark();
	test_config();
	test_schema();
	test_slug();
	test_content();
	test_site();
	test_output();
	test_imagesize();
	test_directive();
	test_codeblock();
	test_serve();
	test_mdcache();
	test_mdmem();
	test_live();
	test_deps();
	test_build();
	test_links();
	if (test_math)
		test_math();
	if (test_highlight)
		test_highlight();
	if (test_extcheck)
		test_extcheck();
	test_tmpl_spec(spec_dir);
	test_tmpl_man(argc > 2 ? argv[2] : "man/folio-template.5");
	buf_fini(&t_scratch);
	printf("unit: %d passed, %d failed\n", t_passed, t_failed);
	return t_failed ? 1 : 0;
}

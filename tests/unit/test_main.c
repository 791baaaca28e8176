/* test_main.c: runs every unit test module and the template spec cases. */
#include "harness.h"

#include <stdarg.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
	const char *spec_dir = argc > 1 ? argv[1] : "tests/tmpl";
	test_arena();
	test_buf();
	test_diag();
	test_yaml();
	test_tmpl();
	test_tmpl_spec(spec_dir);
	test_tmpl_man(argc > 2 ? argv[2] : "man/folio-template.5");
	printf("unit: %d passed, %d failed\n", t_passed, t_failed);
	return t_failed ? 1 : 0;
}

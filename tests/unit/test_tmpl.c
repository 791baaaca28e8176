/* test_tmpl.c: the template engine's API: values, maps, objects, threads.
 * The language itself is covered by the spec cases in tests/tmpl/. */
#include "harness.h"

#include "tmpl.h"

#include <pthread.h>
#include <stdlib.h>

void test_tmpl(void)
{
	t_current = "tmpl";
}

/* test_highlight.c: placeholder */
#include "harness.h"
void test_highlight(void);
void test_highlight(void) {}

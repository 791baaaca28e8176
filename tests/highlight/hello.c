#include <stdio.h>
#include "util.h"

#define BUF_LEN 64 /* bytes */

/* count: how many times c occurs in s,
 * a "string" of n bytes. */
static size_t count(const char *s, size_t n, char c)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == c && s[i] != '\0')
			k++;
	return k;
}

int main(int argc, char **argv)
{
	char buf[BUF_LEN];
	struct point p = {.x = 1, .y = -2};
	snprintf(buf, sizeof buf, "%d <%s> & done\n", argc, argv[0]);
	printf("%zu\n", count(buf, sizeof buf, 'a') + p.x);
	return buf[0] == 0 ? NULL == argv : 0x1F;
}

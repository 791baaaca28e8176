/* test_partnum.c: the number a post's title gives itself
 * (parts_title_number), which a part number that differs from it warns
 * of; the numbering itself is tested by the golden sites series-order and
 * errors-parts. */
#include "harness.h"

#include "model/parts.h"

#include <stdio.h>

/* number: "N" (the word Part), "N head PREFIX" (a number ending the
 * title's head) or "-1" for title; valid until the next call. */
static const char *number(const char *title)
{
	static char out[128];
	struct str prefix;
	int head = -1;
	int n = parts_title_number(str_from(title), &prefix, &head);
	if (n < 0)
		return "-1";
	if (!head)
		snprintf(out, sizeof out, "%d", n);
	else
		snprintf(out, sizeof out, "%d head %.*s", n, (int)prefix.len, prefix.p);
	return out;
}

void test_partnum(void)
{
	/* the word Part, in any case, anywhere */
	STR_EQ(number("Kernel Notes, Part 66: Tracing"), "66");
	STR_EQ(number("part 3: Setup"), "3");
	STR_EQ(number("The End (PART 12)"), "12");
	STR_EQ(number("Part\t7"), "7");
	STR_EQ(number("GPU Systems 02 - Part 4"), "4"); /* the word wins over the head */
	/* not a part's number */
	STR_EQ(number("Part 3b: Later"), "-1");
	STR_EQ(number("Part 1.5"), "-1");
	STR_EQ(number("Departure 5"), "-1");
	STR_EQ(number("Counterpart 5"), "-1");
	STR_EQ(number("Part three"), "-1");
	STR_EQ(number("Part"), "-1");
	STR_EQ(number("Part 1234567"), "-1");
	/* a number of 1 to 3 digits that ends the head, after a space */
	STR_EQ(number("GPU Systems 07 - Occupancy"), "7 head GPU Systems");
	STR_EQ(number("GPU Systems 07 \xe2\x80\x93 Occupancy"), "7 head GPU Systems");
	STR_EQ(number("GPU Systems 07 \xe2\x80\x94 Occupancy"), "7 head GPU Systems");
	STR_EQ(number("GPU Systems 07 | Occupancy"), "7 head GPU Systems");
	STR_EQ(number("Python 3: What Changed"), "3 head Python"); /* counts only when shared */
	STR_EQ(number("12 - Twelve"), "12 head ");
	STR_EQ(number("Notes 1 - a - b"), "1 head Notes"); /* the first separator */
	STR_EQ(number("Notes 100 - x"), "100 head Notes");
	/* no head, or no number at its end */
	STR_EQ(number("GPU Systems 07"), "-1");
	STR_EQ(number("Notes 1000 - x"), "-1");
	STR_EQ(number("Version v2 - x"), "-1");
	STR_EQ(number("Systems-07 - x"), "-1");
	STR_EQ(number("Occupancy - GPU Systems 07"), "-1");
	STR_EQ(number(""), "-1");
}

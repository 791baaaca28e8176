/* clock.c: the monotonic clock and the build's date (see clock.h). */
#include "base/clock.h"

#include <stdlib.h>
#include <time.h>

double clock_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int64_t clock_build_now(int64_t given)
{
	if (given)
		return given;
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	return sde && *sde ? strtoll(sde, NULL, 10) : (int64_t)time(NULL);
}

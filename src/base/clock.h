/* clock.h: folio's two clocks, each read in one place: seconds on a
 * monotonic clock (timings), and the date a build goes by (what is
 * future, what a feed says is new): the one given (--now in tests), else
 * SOURCE_DATE_EPOCH (reproducible builds), else the system's clock. */
#ifndef FOLIO_CLOCK_H
#define FOLIO_CLOCK_H

#include <stdint.h>

/* clock_seconds: seconds on a monotonic clock, for measuring. */
double clock_seconds(void);

/* clock_build_now: given if it is not 0, else SOURCE_DATE_EPOCH when it
 * is set and not empty, else the time now (seconds since the epoch). */
int64_t clock_build_now(int64_t given);

#endif

/* civil.h: calendar arithmetic shared by the date parsers. */
#ifndef FOLIO_CIVIL_H
#define FOLIO_CIVIL_H

#include <stdint.h>

/* days_from_civil: days since 1970-01-01 of the proleptic Gregorian date
 * y-m-d (Howard Hinnant's algorithm: exact for every year, no tables). */
static inline int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

#endif

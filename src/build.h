/* build.h: the whole build, config -> content -> site -> render -> output,
 * as `folio build` runs it. serve and check reuse it. */
#ifndef FOLIO_BUILD_H
#define FOLIO_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct build_request {
	const char *site_dir;
	const char *out_dir;  /* NULL: SITE/public */
	const char *base_url; /* NULL: folio.yml's */
	int drafts, future;
	int jobs;    /* 0: the number of processors */
	int64_t now; /* 0: the clock (or SOURCE_DATE_EPOCH) */
};

struct build_result {
	size_t pages;  /* pages rendered */
	size_t files;  /* files written, static ones included */
	size_t posts;
	double seconds;
};

/* build_site: builds the site. Nothing is written when any error is found.
 * Returns the number of errors (all reported to d). */
int build_site(const struct build_request *req, struct diag *d, struct build_result *res);

#endif

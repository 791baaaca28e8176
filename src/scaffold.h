/* scaffold.h: `folio new site` and `folio new post`. */
#ifndef FOLIO_SCAFFOLD_H
#define FOLIO_SCAFFOLD_H

#include <stddef.h>

#include "diag.h"

/* scaffold_site: creates dir (which must not exist, or be empty) with a
 * working example site. 0, or -1 after reporting to d. */
int scaffold_site(struct diag *d, const char *dir);

/* scaffold_post: creates content/posts/<slug>.md in site_dir for title,
 * dated now and marked as a draft; with series, as that series' next part.
 * The path written goes to path_out. 0, or -1 after reporting to d. */
int scaffold_post(struct diag *d, const char *site_dir, const char *title, const char *series, char *path_out,
		  size_t path_size);

#endif

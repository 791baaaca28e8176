/* variants.h: the resized copies of the site's JPEG and PNG images, made
 * while the static files are copied: for each image, the widths and
 * formats md/ writes into its srcset (md_picture_widths: one rule), made
 * on the pool's threads from the image's bytes (images/), kept in
 * .folio-cache/images/ by the hash of the bytes and the settings, so that
 * a build with nothing new encodes nothing.
 * uses: base, files, cache, md, images, output */
#ifndef FOLIO_VARIANTS_H
#define FOLIO_VARIANTS_H

#include <stddef.h>

#include "base/diag.h"
#include "md/markdown.h"
#include "output/output.h"

/* What the copies are made with: md's rule (the widths, WebP or not) and
 * each format's quality. */
struct variants_settings {
	const struct md_options *rule;
	int quality_webp, quality_jpeg, quality_avif;
	int keep_metadata; /* the copies keep the image's EXIF */
	int jobs; /* threads (at least 1) */
};

struct variants;

/* variants_new: a sink that hands every file to inner and notes each JPEG
 * or PNG (by its name) to make copies of; site_dir's cache is read and
 * written (read_only: only read, folio check). Errors go to d. */
struct variants *variants_new(struct diag *d, const char *site_dir, const struct variants_settings *set,
			      const struct output_sink *inner, int read_only);

/* variants_sink: the sink to copy the static files through. */
const struct output_sink *variants_sink(struct variants *v);

/* variants_finish: makes the copies of the images noted (from the cache
 * when there, else decoded, resized and encoded on set->jobs threads) and
 * hands them to inner, each as its image's name with -WIDTHw and the
 * format's extension (md_variant_name). Returns the number of errors (an
 * image that cannot be decoded: its copies are not made, and the pages'
 * srcset that names them are broken links). *made and *cached (may be
 * NULL) get how many copies were encoded and how many came from the
 * cache. */
int variants_finish(struct variants *v, size_t *made, size_t *cached);

/* variants_free: frees v (after variants_finish, or instead of it). */
void variants_free(struct variants *v);

#endif

/* key.h: the build key: what a build's output depends on besides the
 * content it renders, derived once per build: folio itself (its
 * executable's stamp), the options (--drafts, --future, --base-url), the
 * stamp of every input file, folio.yml's bytes and the language's labels.
 * Every salt and fingerprint the caches and the records use is one of its
 * projections below, each a hash of the part of the key it stands for:
 *
 *   options  folio and the options             the up-to-date check's
 *   inputs   options + every input's stamp     the up-to-date key
 *   md_salt  folio, folio.yml, highlighting,   every Markdown document's
 *            math, the labels                  (the Markdown cache's keys)
 *   files    the files documents read          the Markdown cache's stamp
 *            (static/, the bundles)
 *   config   folio.yml, the options, base_url  what every page reads
 *
 * No file system here but the stamps (stamp.h). */
#ifndef FOLIO_KEY_H
#define FOLIO_KEY_H

#include <stdint.h>

struct build_opts;
struct config;
struct content;
struct stamp_list;

struct build_key {
	uint64_t binary;      /* folio's executable (stamp_binary) */
	int drafts, future;   /* the options */
	const char *base_url; /* --base-url (borrowed), or NULL */
	/* the projections, 0 until known */
	uint64_t options, inputs, md_salt, files, config;
};

/* build_key_init: the key of a build with these options (base_url
 * borrowed): binary and options set, the others 0. */
void build_key_init(struct build_key *k, int drafts, int future, const char *base_url);

/* build_key_inputs: the inputs projection of k with the stamp of every
 * file below site_dir a build may read (out_dir, when inside, left out)
 * as they are now, which are put in now; 0 when they cannot be known. k
 * is not changed (a task may take it beside the build). */
uint64_t build_key_inputs(const struct build_key *k, const char *site_dir, const char *out_dir,
			  struct stamp_list *now);

/* build_key_site: the projections that need the site, once folio.yml is
 * read (cfg), the options of the Markdown known (opts: highlighting,
 * math, the labels) and the content loaded (c: its bundles): md_salt,
 * files and config. */
void build_key_site(struct build_key *k, const struct config *cfg, const struct build_opts *opts,
		    const struct content *c);

/* build_key_html: what a document's HTML was rendered under (md_salt and
 * files together). */
uint64_t build_key_html(const struct build_key *k);

#endif

/* key.c: the build key and its projections (see key.h). */
#include "incremental/key.h"

#include "base/hash.h"
#include "base/version.h"
#include "files/stamp.h"
#include "incremental/rebuild.h"
#include "model/site.h"
#include "read/config.h"
#include "read/content.h"

#include <string.h>

/* options_hash: folio and the options, into h */
static void options_hash(struct hasher *h, const struct build_key *k)
{
	hasher_begin(h, 0);
	int64_t head[5] = {(int64_t)k->binary, k->drafts, k->future, k->base_url != NULL, 0};
	hasher_add(h, head, sizeof head);
	if (k->base_url)
		hasher_add_cstr(h, k->base_url);
}

void build_key_init(struct build_key *k, int drafts, int future, const char *base_url)
{
	memset(k, 0, sizeof *k);
	k->binary = stamp_binary();
	k->drafts = drafts;
	k->future = future;
	k->base_url = base_url;
	struct hasher h;
	options_hash(&h, k);
	k->options = hasher_digest(&h);
	if (!k->options)
		k->options = 1;
}

uint64_t build_key_inputs(const struct build_key *k, const char *site_dir, const char *out_dir,
			  struct stamp_list *now)
{
	if (stamp_site(now, site_dir, out_dir))
		return 0;
	struct hasher h;
	options_hash(&h, k);
	stamp_hash_list(&h, now);
	uint64_t v = hasher_digest(&h);
	return v ? v : 1;
}

void build_key_site(struct build_key *k, const struct config *cfg, const struct build_opts *opts,
		    const struct content *c)
{
	struct hasher h;
	/* every document's rendering: folio, folio.yml, highlighting and
	 * math, the words of the language */
	hasher_begin(&h, 0);
	static const char tag[] = "folio-md " FOLIO_VERSION;
	hasher_add(&h, tag, sizeof tag);
	hasher_add_u64(&h, k->binary);
	hasher_add(&h, cfg->src ? cfg->src : "", cfg->src_len);
	int flags[3] = {opts->highlight != NULL, opts->typeset != NULL, 0};
	hasher_add(&h, flags, sizeof flags);
	for (size_t i = 0; i < MD_LABELS; i++)
		hasher_add_cstr(&h, opts->md_labels[i]);
	k->md_salt = hasher_digest(&h);
	/* the files documents may read: static/ and the bundles */
	hasher_begin(&h, 0);
	stamp_files(&h, opts->static_dir);
	for (size_t i = 0; i < c->nposts; i++)
		if (c->posts[i]->bundle_dir)
			stamp_files(&h, c->posts[i]->bundle_dir);
	k->files = hasher_digest(&h);
	/* what every page reads: folio.yml and the options, --base-url
	 * included (in cfg's base_url) */
	hasher_begin(&h, 0);
	hasher_add(&h, cfg->src ? cfg->src : "", cfg->src_len);
	int64_t page_flags[4] = {k->drafts, k->future, opts->highlight != NULL, opts->typeset != NULL};
	hasher_add(&h, page_flags, sizeof page_flags);
	hasher_add(&h, cfg->base_url.p ? cfg->base_url.p : "", cfg->base_url.len);
	k->config = hasher_digest(&h);
}

uint64_t build_key_html(const struct build_key *k)
{
	return rebuild_mix(k->md_salt, k->files);
}

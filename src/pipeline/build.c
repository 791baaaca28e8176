/* build.c: build_site, `folio build` and `folio check`: up to date
 * (nothing the last build into the same folder read has changed, and its
 * output is as it left it: uptodate.h), or a session of one round
 * (session.c) into a staging folder swapped in whole, or a scratch one
 * for folio check. */
#include "pipeline/driver.h"

#include "base/clock.h"
#include "incremental/key.h"
#include "incremental/uptodate.h"

#include <stdio.h>
#include <string.h>

/* kept: the output of the last build is kept as it is: res says what it
 * made */
static void kept(struct uptodate *u, struct diag *d, struct build_result *res)
{
	struct uptodate_counts c;
	uptodate_keep(u, d, &c);
	memset(res, 0, sizeof *res);
	res->pages = c.pages;
	res->posts = c.posts;
	res->files = c.files;
	res->unchanged = 1;
}

int build_site(const struct build_request *req, struct diag *d, struct build_result *res)
{
	double t0 = clock_seconds();
	/* the target, chosen once: folio check's output is thrown away */
	struct target *t = req->check ? target_scratch(req->site_dir, req->out_dir, d) : NULL;
	if (req->check && !t)
		return 1;
	char out_default[4096];
	struct build_request r = *req;
	if (t) {
		r.out_dir = t->out_dir;
	} else {
		if (!r.out_dir) {
			snprintf(out_default, sizeof out_default, "%s/public", req->site_dir);
			r.out_dir = out_default;
		}
		t = target_staging(r.site_dir, r.out_dir);
	}
	struct build_key key;
	build_key_init(&key, r.drafts, r.future, r.base_url);
	/* what the last build into the same folder read is kept in
	 * .folio-cache: with nothing changed its output is kept, else the
	 * pages whose inputs did not change are its files again */
	struct uptodate *u = t->ops->keeps & TARGET_KEEPS_STATE
				     ? uptodate_begin(&key, r.site_dir, r.out_dir, clock_build_now(r.now), r.future)
				     : NULL;
	if (u && uptodate_same(u) && t->ops->unchanged(t, r.out_checked) == 0) {
		kept(u, d, res);
		res->seconds = clock_seconds() - t0;
		uptodate_free(u);
		target_free(t);
		return 0;
	}
	const struct stamp_list *known = uptodate_build(u, d);
	struct build_session *s = session_new(&r, t, &key, u, known);
	int errors = build_session_run(s, d, res);
	struct uptodate_counts c = {session_next_future(s), res->pages, res->posts, res->files};
	uptodate_end(u, errors, &c, d);
	if (!errors && t->ops->prune)
		t->ops->prune(t); /* the states of outputs built into long ago */
	build_session_free(s);
	uptodate_free(u); /* after the session, which read its stamps (known) */
	return errors;
}

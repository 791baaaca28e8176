/* session.c: a session of builds (build.h): one round loop over an output
 * target (target.h) and an incremental state (incr.h). Each run is a
 * patch of the round the session kept (patch.c), or a whole round
 * (round.c). folio build's session is one round into a staging folder,
 * folio check's into a scratch one, folio serve's a round per change into
 * its live folder. */
#include "pipeline/driver.h"

#include "incremental/incr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct build_session *session_new(const struct build_request *req, struct target *t, const struct build_key *key,
				  struct uptodate *up, const struct stamp_list *known)
{
	struct build_session *s = xcalloc(1, sizeof *s);
	s->req = *req;
	s->req.site_dir = xstrndup(req->site_dir, strlen(req->site_dir));
	s->req.out_dir = xstrndup(req->out_dir, strlen(req->out_dir));
	s->req.base_url = req->base_url ? xstrndup(req->base_url, strlen(req->base_url)) : NULL;
	s->t = t;
	struct build_key k = *key;
	k.base_url = s->req.base_url; /* the session's copy */
	s->inc = incr_new(&k, up, known);
	caches_init(&s->c, t->ops->keeps);
	return s;
}

struct build_session *build_session_new(const struct build_request *req)
{
	struct build_key key;
	build_key_init(&key, req->drafts, req->future, req->base_url);
	return session_new(req, target_live(req->site_dir, req->out_dir), &key, NULL, NULL);
}

int64_t session_next_future(const struct build_session *s)
{
	return s->next_future;
}

const char *build_session_base_path(const struct build_session *s)
{
	return s->base_path ? s->base_path : "/";
}

static void changes_clear(struct build_session *s)
{
	for (size_t i = 0; i < s->nchanged; i++)
		free(s->changed[i]);
	free(s->changed);
	s->changed = NULL;
	s->nchanged = 0;
	s->changed_all = 0;
}

void build_session_free(struct build_session *s)
{
	if (!s)
		return;
	caches_md_join(&s->c);
	free(s->base_path);
	struct diag d;
	diag_init(&d, stderr);
	round_free(s->kept, &d);
	diag_fini(&d);
	changes_clear(s);
	stages_thread_cleanup();
	caches_fini(&s->c, s->req.site_dir, s->committed);
	target_free(s->t);
	incr_free(s->inc);
	free((char *)s->req.site_dir);
	free((char *)s->req.out_dir);
	free((char *)s->req.base_url);
	free(s);
}

void build_session_changed(struct build_session *s, const char *rel)
{
	if (!rel) {
		s->changed_all = 1;
		return;
	}
	for (size_t i = 0; i < s->nchanged; i++)
		if (!strcmp(s->changed[i], rel))
			return;
	if (s->nchanged >= 64) { /* more than an edit: the whole round */
		s->changed_all = 1;
		return;
	}
	s->changed = xrealloc(s->changed, (s->nchanged + 1) * sizeof *s->changed);
	s->changed[s->nchanged++] = xstrndup(rel, strlen(rel));
}

int build_session_finish(struct build_session *s, struct diag *d, int *done)
{
	int errors = patch_finish(s, d, done);
	/* the tab has reloaded: what the next patch needs, made now */
	if (s->kept)
		incr_prepare_patch(s->inc);
	return errors;
}

int build_session_run(struct build_session *s, struct diag *d, struct build_result *res)
{
	int patched = patch_run(s, d, res);
	changes_clear(s);
	if (patched)
		return 0;
	round_free(s->kept, d);
	s->kept = NULL;
	return round_run(s, d, res);
}

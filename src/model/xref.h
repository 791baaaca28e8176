/* xref.h: cross-references made final: the placeholders md_render leaves
 * in a document for the numbers of its labels and for its references
 * (md/markdown.h, md_xref_expand) filled in once every document is
 * rendered and every series numbered. A reference into another post needs
 * that post's labels, and a number in a series that numbers by part
 * ("Eq. (3.2)") the post's part: neither is known while one document is
 * rendered, nor kept right in the Markdown cache. */
#ifndef FOLIO_MODEL_XREF_H
#define FOLIO_MODEL_XREF_H

#include "model/site.h"

/* xref_resolve: the HTML, summary and table of contents of every post,
 * series guide and page of s that has labels or references, with their
 * placeholders filled in (in a): a label's number ("3", or "2.3" in a
 * series with number_by_part, 2 the post's part), a reference as a link
 * <a href="#eq:adam" class="xref">Eq. (3)</a>, one into another post as
 * <a href="/posts/slug/#fig:tree" class="xref">Figure 2 of
 * <em>Title</em></a> (the words are words[MD_LABEL_XREF_*], English when
 * NULL). by_slug: the posts by slug. Errors at the reference (its file,
 * line and column) to d: an unknown post ("did you mean"), an unknown
 * label of another post ("did you mean"), a .md link to no post. A
 * reference to a post this build leaves out (a draft, a post dated in
 * the future) links to where it will be, which the link check warns
 * about. Returns the number of errors. */
int xref_resolve(struct arena *a, struct diag *d, struct site *s, const struct map *by_slug,
		 const char *const words[MD_LABELS]);

/* xref_number: the number of label l of a document of post p (NULL: a
 * page or series guide), as readers see it, appended to out: "3", or
 * "PART.3" in a series with number_by_part. */
void xref_number(struct buf *out, const struct post *p, const struct md_label *l);

#endif

/* parts.h: the numbers of a series' parts (site.c's series_number asks).
 *
 * A part's number is its place among all the series' parts, drafts and
 * future posts included (a build that leaves them out numbers nothing
 * again, and publishing one renumbers nothing), counted from the series'
 * numbering (1, or 0); a post whose front matter gives `part: N` is
 * number N, and the parts after it count on from N. The numbers grow
 * along the series' order: a part: no higher than the number before it
 * is an error. A title that gives itself another number ("Part 66",
 * "GPU Systems 07 - ...") is a warning at the title.
 */
#ifndef FOLIO_PARTS_H
#define FOLIO_PARTS_H

#include "base/diag.h"
#include "read/content.h"

/* parts_number: sets part of each of the n posts of m (all of se's
 * members, drafts included, in the series' order) and se->last_part;
 * reports the errors of their part: keys and the warnings of their
 * titles to d. Returns the number of errors. */
int parts_number(struct diag *d, struct series *se, struct post *const *m, size_t n);

/* parts_title_number: the number a title gives itself, or -1: the number
 * after the word "Part" (any case: "Part 66", "part 3:"; *head = 0), else
 * one of 1 to 3 digits that ends the title's head (the text before its
 * first " - ", " – ", " — ", " | " or ": "), after a space or at its start
 * ("GPU Systems 07 - Occupancy"; *head = 1), with *prefix the head before
 * the number, trimmed: the series' name, which two of its parts must share
 * for such a number to count (parts_number). */
int parts_title_number(struct str title, struct str *prefix, int *head);

#endif

/* stem.c: the Snowball stemmer of the site's language (libstemmer,
 * linked statically). */
#include "search.h"

#include <libstemmer.h>
#include <stdlib.h>
#include <string.h>

struct search_stemmer {
	struct sb_stemmer *sb;
};

struct search_stemmer *search_stemmer_new(const char *language, size_t len)
{
	/* "de-AT" -> "de": libstemmer knows the ISO 639 codes and the names */
	char name[32];
	size_t n = 0;
	while (n < len && n + 1 < sizeof name && language[n] != '-' && language[n] != '_') {
		char c = language[n];
		name[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	name[n] = 0;
	if (!n)
		return NULL;
	struct sb_stemmer *sb = sb_stemmer_new(name, "UTF_8");
	if (!sb)
		return NULL;
	struct search_stemmer *st = xcalloc(1, sizeof *st);
	st->sb = sb;
	return st;
}

void search_stemmer_free(struct search_stemmer *st)
{
	if (!st)
		return;
	sb_stemmer_delete(st->sb);
	free(st);
}

const char *search_stem(struct search_stemmer *st, const char *w, size_t n, size_t *out_len)
{
	if (st) {
		const sb_symbol *r = sb_stemmer_stem(st->sb, (const sb_symbol *)w, (int)n);
		if (r) {
			*out_len = (size_t)sb_stemmer_length(st->sb);
			return (const char *)r;
		}
	}
	*out_len = n;
	return w;
}

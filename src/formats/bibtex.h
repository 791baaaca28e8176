/* bibtex.h: a BibTeX database read into entries (bibtex.c), its fields'
 * LaTeX made Unicode text or HTML, and its name lists split into parts
 * (bibname.c). What is read: @TYPE{KEY, field = value, ...} (or with
 * parentheses), values {braced}, "quoted", numbers and @string names
 * joined by #, @string definitions (and the month names jan..dec);
 * @preamble and @comment are skipped, and so is any text outside an
 * entry, as BibTeX does. Errors come back as text with positions in the
 * .bib; the caller reports them. */
#ifndef FOLIO_BIBTEX_H
#define FOLIO_BIBTEX_H

#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/map.h"

/* BIBTEX_VALUE_MAX: the longest value a field may have once @string names
 * are expanded and parts joined; BIBTEX_GROWTH: the bytes all joined
 * values may take together, per byte of the file (plus a MiB): a chain of
 * @string definitions that doubles at each step would otherwise ask for
 * 2^40 bytes out of a few hundred. */
#define BIBTEX_VALUE_MAX ((size_t)4 << 20)
#define BIBTEX_GROWTH 8

/* BIBTEX_MAX_ERRORS: a file stops being read after this many errors. */
#define BIBTEX_MAX_ERRORS 20

/* One field: its name in lower case and its value as the file gives it
 * once @string names are expanded and the parts joined: LaTeX, braces
 * kept (bibtex_latex makes it text). Both owned by the arena or pointing
 * into the file's text. */
struct bib_field {
	struct str name, value;
};

/* One entry: its type in lower case ("article"), its key as written,
 * where the key is (1-based line and byte column), and its fields in the
 * file's order (a field given twice: the first). */
struct bib_entry {
	struct str type, key;
	int line, col;
	struct bib_field *fields;
	size_t nfields;
};

/* An error: where in the file (1-based line and byte column) and what,
 * with a hint, as one line (the arena's). */
struct bib_error {
	int line, col;
	const char *msg;
};

/* A database: its entries in the file's order, each key once (the
 * first of a duplicate), and the errors met. */
struct bibtex {
	struct bib_entry *entries;
	size_t n;
	struct bib_error *errors;
	size_t nerrors;
	struct map keys; /* key -> entry (val.p) */
};

/* bibtex_parse: reads src[0..len) (the file's text, which must outlive
 * out: values point into it) into *out; everything else is owned by a,
 * but out->keys, which bibtex_fini frees. Returns the number of errors
 * (out->errors: unclosed braces and quotes, an entry without a key, a
 * duplicate key, a field that is not `name = value`, an unknown @string
 * name, a value past BIBTEX_VALUE_MAX); the entries read before and
 * between them are kept. */
size_t bibtex_parse(struct arena *a, const char *src, size_t len, struct bibtex *out);
void bibtex_fini(struct bibtex *b);

/* bibtex_find: the entry whose key is key, or NULL. */
const struct bib_entry *bibtex_find(const struct bibtex *b, struct str key);

/* bibtex_field: the value of e's field name (lower case), or an empty
 * str with p NULL when it has none. */
struct str bibtex_field(const struct bib_entry *e, const char *name);

/* bibtex_latex: appends the text of LaTeX raw to out: braces dropped,
 * accents and the usual commands made Unicode (\"o ö, \c{c} ç, \ss ß,
 * --- and -- dashes, ~ a no-break space, \& and the other escaped
 * specials the character), runs of spacing one space. With html, the
 * text is escaped for HTML and \emph/\textit become <em>, \textbf
 * <strong>, \texttt <code>; without, they are their text. A command it
 * does not know is dropped and its argument kept. Control characters are
 * dropped (a NUL becomes U+FFFD). Linear; any depth of braces. */
void bibtex_latex(struct buf *out, struct str raw, int html);

/* One name of a name list, in BibTeX's four parts, each LaTeX as
 * written (bibtex_latex makes it text): "Ludwig van Beethoven" and
 * "van Beethoven, Ludwig" both give first "Ludwig", von "van", last
 * "Beethoven". */
struct bib_name {
	struct str first, von, last, jr;
};

/* bibtex_names: the names of the list value (an author or editor field,
 * names joined by " and "), in *out (the arena's); returns how many.
 * *others is set when the list ends with "and others" (et al.), which is
 * not a name. */
size_t bibtex_names(struct arena *a, struct str value, struct bib_name **out, int *others);

#endif

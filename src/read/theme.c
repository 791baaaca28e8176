/* theme.c: the templates a build renders with: the embedded default
 * theme's, then the site's templates/ folder (read here, in the reading
 * stage: rendering reads no file), which replaces theme files of the same
 * name. */
#include "read/theme.h"

#include "files/reader.h"
#include "formats/yaml.h"
#include "files/sitefile.h"
#include "base/hash.h"

#include <assert.h>
#include <stdarg.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* add_site_templates: the templates below dir; links are followed inside
 * the site (root) only, and not to a folder that holds them (up). */
static void add_site_templates(struct tmpl_env *env, struct diag *d, const char *dir, const char *rel, int *errors,
			       const char *root, const struct held *up)
{
	size_t n;
	char **names = site_list(dir, &n);
	for (size_t i = 0; i < n; i++) {
		char path[4096], name[2048];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		snprintf(name, sizeof name, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
		char shown[2100];
		snprintf(shown, sizeof shown, "templates/%s", name);
		struct stat st;
		const struct held *h;
		int have = stat(path, &st) == 0;
		if (site_check_link(d, root, path, shown) != 0) {
			(*errors)++; /* outside the site, to nothing, or in a circle: never read */
		} else if (have && S_ISDIR(st.st_mode) && (h = held_find(up, &st, 1))) {
			site_report_cycle(d, shown, h->path);
			(*errors)++;
		} else if (have && S_ISDIR(st.st_mode)) {
			struct held here = {st.st_dev, st.st_ino, path, up, 0};
			add_site_templates(env, d, path, name, errors, root, &here);
		} else if (have) { /* a named pipe or a device: an error of site_read */
			struct site_file f = {path, shown, FOLIO_MAX_FILE, "split it into templates joined with include",
					      SITE_READ_CHECKED};
			size_t len;
			char *src = site_read(d, root, &f, NULL, &len, NULL);
			if (!src) {
				(*errors)++;
			} else {
				*errors += tmpl_env_add(env, name, shown, src, len, d);
				free(src);
			}
		}
	}
	site_list_free(names, n);
}

int theme_load_templates(struct tmpl_env *env, struct diag *d, const char *site_dir)
{
	int errors = 0;
	for (size_t i = 0; i < theme_nfiles; i++) {
		const struct theme_file *f = &theme_files[i];
		if (strncmp(f->name, "templates/", 10))
			continue;
		char shown[512];
		snprintf(shown, sizeof shown, "(theme) %s", f->name);
		errors += tmpl_env_add(env, f->name + 10, shown, f->data, f->len, d);
	}
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/templates", site_dir);
	char *root = site_root(site_dir);
	enum site_where w = site_where(root, dir, NULL, 0);
	struct held *top = w == SITE_INSIDE ? held_root(dir) : NULL;
	if (top)
		add_site_templates(env, d, dir, "", &errors, root, top);
	else if (w != SITE_MISSING)
		errors++; /* outside the site, or a link to nothing: content_load said why */
	held_free(top);
	free(root);
	if (!errors)
		errors += tmpl_env_check(env, d);
	return errors;
}


/* ---- the language: strings and date names ---- */

/* The keys of a language file that are not strings for templates but set
 * the date filter's names and the plural rule; with the strings, they are
 * all in t too. */
static const char *const list_keys[] = {"months", "months_short", "days", "days_short", NULL};
static const size_t list_lens[] = {12, 12, 7, 7};

/* lang_src: one language file, parsed (root NULL when absent or broken). */
struct lang_src {
	const char *shown; /* "(theme) i18n/fr.yml", "i18n/fr.yml" */
	const char *src;
	size_t len;
	struct ynode *root;
};

static const struct theme_file *theme_lang_file(struct str lang)
{
	char name[128];
	snprintf(name, sizeof name, "i18n/%.*s.yml", (int)(lang.len > 100 ? 100 : lang.len), lang.p);
	for (size_t i = 0; i < theme_nfiles; i++)
		if (!strcmp(theme_files[i].name, name))
			return &theme_files[i];
	return NULL;
}

/* lang_parse: the YAML of a language file; reports errors (and a root that
 * is not a map); returns the root or NULL. */
static struct ynode *lang_parse(struct arena *a, struct diag *d, const char *shown, const char *src, size_t len)
{
	struct ynode *root = yaml_parse(a, d, shown, src, len, src, len, 0);
	if (root && root->kind != YNODE_MAP) {
		struct diag_loc loc = {shown, src, len, root->line, root->col};
		diag_error(d, &loc, "a language file is a map of names to strings, not a %s", yaml_kind_name(root));
		return NULL;
	}
	return root;
}

/* same_shape: whether v is a value the key can take, as its English value
 * (base) is: a string; a map of plural forms (one, other, zero) of
 * strings; a list of as many strings. Reports why not. */
static int same_shape(struct diag *d, const struct lang_src *f, const struct ynode *key, const struct ynode *v,
		      const struct ynode *base)
{
	struct diag_loc loc = {f->shown, f->src, f->len, v->line, v->col};
	if (base->kind == YNODE_SCALAR && v->kind == YNODE_SCALAR)
		return 1;
	if (base->kind == YNODE_SEQ && v->kind == YNODE_SEQ) {
		if (v->len != base->len) {
			diag_error(d, &loc, "'%s' needs %zu names, not %zu", key->str.p, base->len, v->len);
			return 0;
		}
		for (size_t i = 0; i < v->len; i++)
			if (v->items[i]->kind != YNODE_SCALAR) {
				loc.line = v->items[i]->line;
				loc.col = v->items[i]->col;
				diag_error(d, &loc, "a name of '%s' must be a string", key->str.p);
				return 0;
			}
		return 1;
	}
	if (v->kind == YNODE_MAP && base->kind != YNODE_SEQ) {
		/* plural forms: allowed wherever a string is, as a language may
		 * need them where English does not */
		int other = 0;
		for (size_t i = 0; i < v->len; i++) {
			const char *k = v->keys[i]->str.p;
			struct diag_loc kl = {f->shown, f->src, f->len, v->keys[i]->line, v->keys[i]->col};
			if (strcmp(k, "one") && strcmp(k, "other") && strcmp(k, "zero")) {
				diag_error(d, &kl, "unknown plural form '%s' of '%s' (the forms are zero, one and other)", k,
					   key->str.p);
				return 0;
			}
			if (v->items[i]->kind != YNODE_SCALAR) {
				diag_error(d, &kl, "the form '%s' of '%s' must be a string", k, key->str.p);
				return 0;
			}
			other |= !strcmp(k, "other");
		}
		if (!other) {
			diag_error(d, &loc, "'%s' has plural forms but no 'other' form", key->str.p);
			return 0;
		}
		return 1;
	}
	if (v->kind == YNODE_SCALAR && base->kind == YNODE_MAP)
		return 1; /* one form for every count (Chinese, Japanese) */
	diag_error(d, &loc, "'%s' must be %s, not a %s", key->str.p,
		   base->kind == YNODE_SEQ ? "a list of names" : "a string or a map of plural forms", yaml_kind_name(v));
	return 0;
}

/* lang_overlay: the entries of f set over vals (a map of the English
 * keys' values); a key English lacks is an error with a suggestion.
 * set[i] marks the English keys f gives. Returns the number of errors. */
static int lang_overlay(struct diag *d, const struct lang_src *f, const struct ynode *en, const struct ynode **vals,
			unsigned char *set)
{
	int errors = 0;
	const char **names = xcalloc(en->len + 1, sizeof *names);
	for (size_t i = 0; i < en->len; i++)
		names[i] = en->keys[i]->str.p;
	for (size_t i = 0; i < f->root->len; i++) {
		const struct ynode *k = f->root->keys[i];
		size_t at = 0;
		while (at < en->len && strcmp(names[at], k->str.p))
			at++;
		if (at == en->len) {
			struct diag_loc loc = {f->shown, f->src, f->len, k->line, k->col};
			const char *near = diag_suggest(k->str.p, k->str.len, names);
			if (near)
				diag_error(d, &loc, "unknown string '%s' (did you mean '%s'?)", k->str.p, near);
			else
				diag_error(d, &loc, "unknown string '%s' (the theme's i18n/en.yml lists the names)", k->str.p);
			errors++;
			continue;
		}
		if (!same_shape(d, f, k, f->root->items[i], en->items[at])) {
			errors++;
			continue;
		}
		vals[at] = f->root->items[i];
		set[at] = 1;
	}
	free(names);
	return errors;
}

/* read_site_lang: the site's i18n/LANG.yml into f (root NULL when the
 * file is not there). Returns the number of errors. */
static int read_site_lang(struct arena *a, struct diag *d, const char *site_dir, struct str lang, struct lang_src *f)
{
	char path[4096], shown[256];
	snprintf(path, sizeof path, "%s/i18n/%.*s.yml", site_dir, STR_FMT(lang));
	snprintf(shown, sizeof shown, "i18n/%.*s.yml", (int)(lang.len > 100 ? 100 : lang.len), lang.p);
	memset(f, 0, sizeof *f);
	f->shown = arena_strndup(a, shown, strlen(shown));
	char *root = site_root(site_dir);
	int errors = 0;
	struct stat st;
	if (stat(path, &st) != 0 && lstat(path, &st) != 0) {
		free(root);
		return 0;
	}
	struct site_file sf = {path, f->shown, FOLIO_MAX_FILE, "a language file holds short strings", 0};
	size_t len;
	char *src = site_read(d, root, &sf, a, &len, NULL);
	free(root);
	if (!src)
		return 1;
	f->src = src;
	f->len = len;
	f->root = lang_parse(a, d, f->shown, f->src, f->len);
	if (!f->root)
		errors++;
	return errors;
}

/* known_languages: "de, en, es, ..." of the theme's files, in arena a. */
static const char *known_languages(struct arena *a)
{
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < theme_nfiles; i++) {
		const char *n = theme_files[i].name;
		if (strncmp(n, "i18n/", 5) || !ends_with(n, ".yml"))
			continue;
		buf_printf(&b, "%s%.*s", b.len ? ", " : "", (int)(strlen(n) - 9), n + 5);
	}
	const char *s = arena_strndup(a, b.p ? b.p : "", b.len);
	buf_fini(&b);
	return s;
}

static int lang_name_ok(struct str s)
{
	if (!s.len || s.len > 35)
		return 0;
	for (size_t i = 0; i < s.len; i++) {
		char ch = s.p[i];
		if (!(ch == '-' || ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9')))
			return 0;
	}
	return 1;
}

int theme_load_language(struct tmpl_env *env, struct arena *a, struct diag *d, const char *site_dir,
			const struct config *cfg)
{
	struct str lang = cfg->language.len ? cfg->language : STR_LIT("en");
	const struct ynode *lang_node = cfg->root ? yaml_map_get(cfg->root, "language") : NULL;
	struct diag_loc cfg_loc = {cfg->path ? cfg->path : "folio.yml", cfg->src, cfg->src_len,
				   lang_node ? lang_node->line : 0, lang_node ? lang_node->col : 0};
	if (!lang_name_ok(lang)) {
		diag_error(d, &cfg_loc, "'%.*s' is not a language name (such as en, fr or pt-BR)",
			   (int)(lang.len > 60 ? 60 : lang.len), lang.p);
		return 1;
	}
	int errors = 0;
	const struct theme_file *en_file = theme_lang_file(STR_LIT("en"));
	assert(en_file);
	struct lang_src en = {"(theme) i18n/en.yml", en_file->data, en_file->len, NULL};
	en.root = lang_parse(a, d, en.shown, en.src, en.len);
	if (!en.root)
		return 1;
	const struct theme_file *tf = theme_lang_file(lang);
	struct lang_src theme_lang = {0}, site_lang;
	errors += read_site_lang(a, d, site_dir, lang, &site_lang);
	if (!tf && !site_lang.root && !errors) {
		diag_error(d, &cfg_loc, "unknown language '%.*s' (the theme has %s; for another, write i18n/%.*s.yml)",
			   STR_FMT(lang), known_languages(a), STR_FMT(lang));
		return 1;
	}
	const struct ynode **vals = arena_alloc(a, (en.root->len + 1) * sizeof *vals);
	unsigned char *set = arena_alloc(a, en.root->len + 1);
	memset(set, 0, en.root->len + 1);
	for (size_t i = 0; i < en.root->len; i++)
		vals[i] = en.root->items[i];
	if (tf && strcmp(tf->name, "i18n/en.yml")) {
		char shown[160];
		snprintf(shown, sizeof shown, "(theme) %s", tf->name);
		theme_lang = (struct lang_src){arena_strndup(a, shown, strlen(shown)), tf->data, tf->len, NULL};
		theme_lang.root = lang_parse(a, d, theme_lang.shown, tf->data, tf->len);
		if (theme_lang.root)
			errors += lang_overlay(d, &theme_lang, en.root, vals, set);
		else
			errors++;
	}
	if (site_lang.root)
		errors += lang_overlay(d, &site_lang, en.root, vals, set);
	if (errors)
		return errors;
	/* a language the theme lacks, from the site's file alone: what it
	 * leaves out is English, said once */
	if (!tf && site_lang.root) {
		size_t missing = 0;
		struct buf b;
		buf_init(&b);
		for (size_t i = 0; i < en.root->len; i++)
			if (!set[i] && missing++ < 4)
				buf_printf(&b, "%s'%s'", b.len ? ", " : "", en.root->keys[i]->str.p);
		if (missing) {
			struct diag_loc loc = {site_lang.shown, site_lang.src, site_lang.len, 1, 1};
			diag_warning(d, &loc, "%zu of the theme's %zu strings are not translated: %.*s%s (English is used)",
				     missing, en.root->len, (int)b.len, b.p, missing > 4 ? ", ..." : "");
		}
		buf_fini(&b);
	}

	struct tmap *t = tmap_new(a, en.root->len);
	struct tmpl_locale loc;
	memset(&loc, 0, sizeof loc);
	for (size_t i = 0; i < en.root->len; i++) {
		const char *k = en.root->keys[i]->str.p;
		const struct ynode *v = vals[i];
		tmap_set(a, t, en.root->keys[i]->str, tval_from_yaml(a, v));
		for (size_t j = 0; list_keys[j]; j++) {
			if (strcmp(k, list_keys[j]))
				continue;
			const char **names = j == 0 ? loc.months : j == 1 ? loc.months_short : j == 2 ? loc.days : loc.days_short;
			for (size_t n = 0; n < list_lens[j] && n < v->len; n++)
				names[n] = v->items[n]->str.p;
		}
		if (!strcmp(k, "plural")) {
			const char *p = v->kind == YNODE_SCALAR ? v->str.p : "";
			if (!strcmp(p, "zero_one"))
				loc.plural = TMPL_PLURAL_ZERO_ONE;
			else if (!strcmp(p, "none"))
				loc.plural = TMPL_PLURAL_NONE;
			else if (!strcmp(p, "one"))
				loc.plural = TMPL_PLURAL_ONE;
			else {
				const struct lang_src *f = set[i] && site_lang.root && yaml_map_get(site_lang.root, "plural") == v
								   ? &site_lang
								   : &theme_lang;
				struct diag_loc l = {f->shown, f->src, f->len, v->line, v->col};
				diag_error(d, &l, "unknown plural rule '%s' (one, zero_one or none)", p);
				errors++;
			}
		}
	}
	tmpl_env_set_locale(env, &loc);
	tmpl_env_set_global(env, "t", tv_map(t));
	return errors;
}

void theme_md_labels(const struct tmpl_env *env, struct arena *a, const char *labels[MD_LABELS])
{
	static const char *const keys[MD_LABELS] = {"heading_link", "callout_note", "callout_tip", "callout_warning",
								   "diagram", "xref_eq", "xref_figure", "xref_table",
								   "xref_listing", "xref_in_post", "references", "cite_et_al",
								   "cite_and", "cite_no_date"};
	const struct tval *t = tmpl_env_global(env, "t");
	for (size_t i = 0; i < MD_LABELS; i++) {
		const struct tval *v = t && t->kind == TV_MAP ? tmap_get(t->u.map, (struct str){keys[i], strlen(keys[i])})
							      : NULL;
		labels[i] = v && v->kind == TV_STR ? arena_strndup(a, v->u.s.p, v->u.s.len) : NULL;
	}
}

/* css_without_comments: css[0..len) without its comments (a quoted string
 * is copied as it is: a slash and star in it open none) and the lines
 * they leave empty, malloc'd, its length in *out_len. The theme's
 * stylesheets explain themselves in comments, which every visitor would
 * otherwise download (a tenth of style.css). */
static char *css_without_comments(const char *css, size_t len, size_t *out_len)
{
	char *out = xmalloc(len + 1);
	size_t n = 0, line = 0; /* line: where the line being written starts in out */
	int kept = 0;           /* the line has something besides comments and blanks */
	for (size_t i = 0; i < len; i++) {
		char c = css[i];
		if (c == '/' && i + 1 < len && css[i + 1] == '*') {
			const char *end = memmem(css + i + 2, len - i - 2, "*/", 2);
			i = end ? (size_t)(end - css) + 1 : len;
			continue;
		}
		if (c == '"' || c == '\'') {
			size_t j = i + 1;
			while (j < len && css[j] != c && css[j] != '\n')
				j += css[j] == '\\' && j + 1 < len ? 2 : 1;
			j = j < len ? j + 1 : len;
			memcpy(out + n, css + i, j - i);
			n += j - i;
			i = j - 1;
			kept = 1;
			continue;
		}
		if (c == '\n') {
			if (!kept) { /* a line of comments or blanks: dropped */
				n = line;
				continue;
			}
			out[n++] = c;
			line = n;
			kept = 0;
			continue;
		}
		if (c != ' ' && c != '\t')
			kept = 1;
		out[n++] = c;
	}
	if (!kept)
		n = line;
	out[n] = '\0';
	*out_len = n;
	return out;
}

void theme_asset(const char *site_dir, const char *file, char name[THEME_ASSET_NAME_MAX], const char **data,
		 size_t *len, char **owned)
{
	*data = "";
	*len = 0;
	*owned = NULL;
	char path[4096];
	snprintf(path, sizeof path, "static/%s", file);
	for (size_t i = 0; i < theme_nfiles; i++)
		if (!strcmp(theme_files[i].name, path)) {
			*data = theme_files[i].data;
			*len = theme_files[i].len;
		}
	if (site_dir) {
		char to[4096];
		snprintf(path, sizeof path, "%s/static/%s", site_dir, file);
		char *root = site_root(site_dir);
		size_t n = 0;
		/* quietly: the build's copy of static files says what is wrong
		 * with a site's asset */
		struct site_file sf = {path, path, (size_t)-2, "", SITE_READ_QUIET};
		char *own = root && site_where(root, path, to, sizeof to) == SITE_INSIDE
				    ? site_read(NULL, NULL, &sf, NULL, &n, NULL)
				    : NULL;
		free(root);
		if (own) {
			*data = own;
			*len = n;
			*owned = own;
		}
	}
	const char *dot = strrchr(file, '.');
	/* the copy pages link to, whichever its source (a site that exported
	 * the theme builds the same bytes); the plain static/FILE stays as
	 * written */
	if (*len && dot && !strcmp(dot, ".css")) {
		char *was = *owned;
		*owned = css_without_comments(*data, *len, len);
		*data = *owned;
		free(was);
	}
	int stem = dot ? (int)(dot - file) : (int)strlen(file);
	snprintf(name, THEME_ASSET_NAME_MAX, "%.*s.%016llx%s", stem, file, (unsigned long long)hash_bytes(*data, *len),
		 dot ? dot : "");
}

void theme_asset_name(const char *site_dir, const char *file, char name[THEME_ASSET_NAME_MAX])
{
	const char *data;
	size_t len;
	char *owned;
	theme_asset(site_dir, file, name, &data, &len, &owned);
	free(owned);
}

/* ---- the site's directives: templates directives/NAME.html ---- */

static int udir_name_ok(const char *s, size_t n)
{
	if (!n || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '-'))
			return 0;
	return 1;
}

static int uarg_name_ok(struct str k)
{
	if (!k.len || !((k.p[0] >= 'a' && k.p[0] <= 'z') || (k.p[0] >= 'A' && k.p[0] <= 'Z') || k.p[0] == '_'))
		return 0;
	for (size_t i = 1; i < k.len; i++)
		if (!((k.p[i] >= 'a' && k.p[i] <= 'z') || (k.p[i] >= 'A' && k.p[i] <= 'Z') ||
		      (k.p[i] >= '0' && k.p[i] <= '9') || k.p[i] == '_' || k.p[i] == '-'))
			return 0;
	return 1;
}

static void decl_error(struct diag *d, const char *shown, struct str src, const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void decl_error(struct diag *d, const char *shown, struct str src, const struct ynode *n, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	struct diag_loc loc = {shown, src.p, src.len, n ? n->line : 1, n ? n->col : 1};
	diag_error(d, &loc, "%s", msg);
}

/* uarg_type: the type a declaration names, or -1 */
static int uarg_type(struct str s)
{
	for (int t = MD_UARG_STRING; t <= MD_UARG_BOOL; t++)
		if (str_eq_cstr(s, md_uarg_type_name(t)))
			return t;
	return -1;
}

/* one_arg: the declaration of argument k, v (a type name, or a map of
 * type, required, default) into *arg; the number of errors */
static int one_arg(struct arena *a, struct diag *d, const char *shown, struct str src, const struct ynode *k,
		   const struct ynode *v, struct md_uarg *arg)
{
	static const char *const types[] = {"string", "int", "number", "bool", NULL};
	static const char *const keys[] = {"type", "required", "default", NULL};
	arg->name = k->str.p;
	arg->type = MD_UARG_STRING;
	if (!uarg_name_ok(k->str) || str_eq_cstr(k->str, "content") || str_eq_cstr(k->str, "page") ||
	    str_eq_cstr(k->str, "site") || str_eq_cstr(k->str, "media")) {
		decl_error(d, shown, src, k,
			   "'%s' cannot name an argument (a letter or '_', then letters, digits, '_' and '-'; not "
			   "content, page, site or media, which the template has already)", k->str.p);
		return 1;
	}
	const struct ynode *type = v, *req = NULL, *def = NULL;
	int errors = 0;
	if (v->kind == YNODE_MAP) {
		type = NULL;
		for (size_t i = 0; i < v->len; i++) {
			struct str key = v->keys[i]->str;
			if (str_eq_cstr(key, "type"))
				type = v->items[i];
			else if (str_eq_cstr(key, "required"))
				req = v->items[i];
			else if (str_eq_cstr(key, "default"))
				def = v->items[i];
			else {
				const char *sug = diag_suggest(key.p, key.len, keys);
				decl_error(d, shown, src, v->keys[i], "argument %s: unknown key '%s'%s%s%s", arg->name, key.p,
					   sug ? " (did you mean '" : " (an argument has type, required and default)",
					   sug ? sug : "", sug ? "'?)" : "");
				errors++;
			}
		}
	} else if (v->kind != YNODE_SCALAR) {
		decl_error(d, shown, src, v, "argument %s: a type (string, int, number, bool) or a map of type, "
					     "required and default", arg->name);
		return 1;
	}
	if (type) {
		int t = type->kind == YNODE_SCALAR ? uarg_type(type->str) : -1;
		if (t < 0) {
			const char *sug = type->kind == YNODE_SCALAR ? diag_suggest(type->str.p, type->str.len, types) : NULL;
			decl_error(d, shown, src, type, "argument %s: unknown type '%s'%s%s%s", arg->name,
				   type->kind == YNODE_SCALAR ? type->str.p : "?", sug ? " (did you mean '" : " (string, int, number or bool)",
				   sug ? sug : "", sug ? "'?)" : "");
			return errors + 1;
		}
		arg->type = t;
	}
	if (req && !yaml_as_bool(req, &arg->required)) {
		decl_error(d, shown, src, req, "argument %s: required is true or false", arg->name);
		errors++;
	}
	if (def) {
		if (def->kind != YNODE_SCALAR || !md_uarg_valid(arg->type, def->str.p, def->str.len)) {
			decl_error(d, shown, src, def, "argument %s: its default must be %s", arg->name,
				   md_uarg_type_name(arg->type));
			errors++;
		} else if (arg->required) {
			decl_error(d, shown, src, def, "argument %s: a required argument has no default", arg->name);
			errors++;
		} else {
			arg->def = arena_strndup(a, def->str.p, def->str.len);
		}
	}
	return errors;
}

/* declaration: the arguments src declares (its top comment, "{# args:
 * ... #}"), into u; the number of errors */
static int declaration(struct arena *a, struct diag *d, const char *shown, struct str src, struct md_udir *u)
{
	if (src.len < 4 || memcmp(src.p, "{#", 2))
		return 0;
	const char *end = memmem(src.p + 2, src.len - 2, "#}", 2);
	size_t i = 2;
	while (end && src.p + i < end && (src.p[i] == ' ' || src.p[i] == '\t' || src.p[i] == '\n' || src.p[i] == '-'))
		i++;
	if (!end || (size_t)(end - src.p) - i < 5 || memcmp(src.p + i, "args:", 5))
		return 0; /* a comment, not a declaration */
	/* the YAML where it is in the file: the comment's marks made spaces,
	 * so that lines and columns are the template's */
	size_t n = (size_t)(end - src.p) + 2;
	char *text = arena_alloc(a, n + 1);
	memcpy(text, src.p, n);
	text[n] = '\0';
	memcpy(text, "  ", 2);
	memcpy(text + n - 2, "  ", 2);
	if (text[2] == '-')
		text[2] = ' ';
	if (text[n - 3] == '-')
		text[n - 3] = ' ';
	struct ynode *root = yaml_parse(a, d, shown, src.p, src.len, text, n, 0);
	if (!root)
		return 1;
	const struct ynode *args = yaml_map_get(root, "args");
	int errors = 0;
	for (size_t k = 0; root->kind == YNODE_MAP && k < root->len; k++)
		if (!str_eq_cstr(root->keys[k]->str, "args")) {
			decl_error(d, shown, src, root->keys[k], "unknown key '%s' in the declaration (it has args)",
				   root->keys[k]->str.p);
			errors++;
		}
	if (!args || yaml_is_null(args))
		return errors;
	if (args->kind != YNODE_MAP) {
		decl_error(d, shown, src, args, "args: a map of the arguments, each NAME: TYPE or NAME: {type: TYPE, "
						"required: true, default: VALUE}");
		return errors + 1;
	}
	struct md_uarg *v = arena_alloc(a, (args->len + 1) * sizeof *v);
	memset(v, 0, (args->len + 1) * sizeof *v);
	for (size_t k = 0; k < args->len; k++)
		errors += one_arg(a, d, shown, src, args->keys[k], args->items[k], &v[k]);
	u->args = v;
	u->nargs = args->len;
	return errors;
}

static int cmp_udir(const void *x, const void *y)
{
	return strcmp(((const struct md_udir *)x)->name, ((const struct md_udir *)y)->name);
}

int theme_directives(const struct tmpl_env *env, struct arena *a, struct diag *d, const char *site_dir,
		     struct md_udir **out, size_t *n)
{
	size_t count = tmpl_env_count(env), k = 0;
	struct md_udir *v = arena_alloc(a, (count + 1) * sizeof *v);
	int errors = 0;
	for (size_t i = 0; i < count; i++) {
		const char *name = tmpl_env_name(env, i);
		size_t len = strlen(name);
		if (strncmp(name, "directives/", 11) || len < 17 || strcmp(name + len - 5, ".html") ||
		    !udir_name_ok(name + 11, len - 16))
			continue;
		struct md_udir *u = &v[k];
		memset(u, 0, sizeof *u);
		u->name = arena_strndup(a, name + 11, len - 16);
		struct str src = tmpl_env_source(env, i);
		size_t pl = strlen(site_dir) + len + 12;
		char *path = arena_alloc(a, pl);
		snprintf(path, pl, "%s/templates/%s", site_dir, name);
		/* folio's own (note, video, ...) are drawn in md/; the theme's
		 * templates of them are there to be exported: only a site's
		 * copy replaces one */
		struct stat st;
		if (md_is_builtin_directive(u->name) && stat(path, &st) != 0)
			continue;
		char shown[2100];
		snprintf(shown, sizeof shown, "templates/%s", name);
		u->path = path;
		u->shown = arena_strndup(a, shown, strlen(shown));
		u->hash = hash_bytes(src.p, src.len);
		u->hash += !u->hash; /* as site_read hashes it: never 0 */
		int bad = declaration(a, d, u->shown, src, u);
		u->broken = bad != 0;
		errors += bad;
		k++;
	}
	qsort(v, k, sizeof *v, cmp_udir);
	*out = v;
	*n = k;
	return errors;
}

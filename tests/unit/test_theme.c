/* test_theme.c: the language of a site (theme.c's theme_load_language):
 * the theme's strings, the site's overrides, the errors; and what the
 * template engine does with a language (date names, plural forms). */
#include "harness.h"

#include "read/config.h"
#include "read/theme.h"
#include "tmpl/tmpl.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct buf cap;

/* load: folio.yml (yml) and the files given (rel, text pairs, NULL-ended)
 * in a new site; runs theme_load_language into env; returns its errors,
 * the messages in cap. */
static int load(struct tmpl_env *env, struct arena *a, const char *yml, const char *const *files)
{
	char *dir = t_tmpdir();
	t_write(dir, "folio.yml", yml);
	for (size_t i = 0; files && files[i]; i += 2)
		t_write(dir, files[i], files[i + 1]);
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	struct config cfg;
	int n = config_load(a, &d, dir, NULL, &cfg);
	OK(n == 0);
	n += theme_load_language(env, a, &d, dir, &cfg);
	diag_fini(&d);
	t_rmtree(dir);
	free(dir);
	return n;
}

/* show: renders src with env's globals; the output (static buffer). */
static const char *show(struct tmpl_env *env, const char *src)
{
	static char text[1024];
	struct diag d;
	diag_init(&d, NULL);
	struct buf errs;
	buf_init(&errs);
	d.capture = &errs;
	text[0] = '\0';
	if (tmpl_env_add(env, "x.html", "templates/x.html", src, strlen(src), &d) == 0) {
		struct buf out;
		buf_init(&out);
		struct arena *a = arena_new();
		int n = tmpl_render(env, "x.html", NULL, &out, a, &d);
		snprintf(text, sizeof text, "%.*s", n ? (int)errs.len : (int)out.len, n ? errs.p : out.p);
		arena_free(a);
		buf_fini(&out);
	} else {
		snprintf(text, sizeof text, "%.*s", (int)errs.len, errs.p);
	}
	buf_fini(&errs);
	diag_fini(&d);
	return text;
}

static void test_locale(void)
{
	struct tmpl_env *env = tmpl_env_new();
	STR_EQ(show(env, "{{ \"2026-12-03\" | date(\"%A %-d %B (%a %b)\") }}"), "Thursday 3 December (Thu Dec)");
	struct tmpl_locale fr = {
		{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
		 "novembre", "décembre"},
		{"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."},
		{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"},
		{NULL, NULL, NULL, NULL, "jeu.", NULL, NULL},
		TMPL_PLURAL_ZERO_ONE};
	tmpl_env_set_locale(env, &fr);
	STR_EQ(show(env, "{{ \"2026-12-03\" | date(\"%A %-d %B (%a %b)\") }}"), "jeudi 3 décembre (jeu. déc.)");
	/* a name the locale leaves out is English's */
	STR_EQ(show(env, "{{ \"2026-12-04\" | date(\"%a\") }}"), "Fri");
	/* the feeds' format stays English */
	STR_EQ(show(env, "{{ \"2026-12-03T10:00:00Z\" | date(\"rfc822\") }}"), "Thu, 03 Dec 2026 10:00:00 +0000");
	/* French: 0 and 1 take the singular */
	const char *posts = "{% set m = {\"one\": \"{n} article\", \"other\": \"{n} articles\"} %}"
			    "{{ m | fill(0) }}, {{ m | fill(1) }}, {{ m | fill(2) }}";
	STR_EQ(show(env, posts), "0 article, 1 article, 2 articles");
	fr.plural = TMPL_PLURAL_ONE;
	tmpl_env_set_locale(env, &fr);
	STR_EQ(show(env, posts), "0 articles, 1 article, 2 articles");
	fr.plural = TMPL_PLURAL_NONE;
	tmpl_env_set_locale(env, &fr);
	STR_EQ(show(env, posts), "0 articles, 1 articles, 2 articles");
	STR_EQ(show(env, "{% set m = {\"zero\": \"none\", \"other\": \"{n}\"} %}{{ m | fill(0) }} {{ m | fill(4) }}"),
	       "none 4");
	tmpl_env_set_locale(env, NULL);
	STR_EQ(show(env, "{{ \"2026-12-03\" | date(\"%B\") }}"), "December");
	/* placeholders: braces, non-names, HTML values, errors */
	STR_EQ(show(env, "{{ \"{{n}} is {n}; { x } {} {a-b}\" | fill(3) }}"), "{n} is 3; { x } {} {a-b}");
	STR_EQ(show(env, "{{ \"<{n}>\" | fill(3) }}"), "&lt;3&gt;");
	STR_EQ(show(env, "{% set l %}<i>x</i>{% endset %}{{ \"<{l}> & {t}\" | fill({\"l\": l, \"t\": \"<b>\"}) }}"),
	       "&lt;<i>x</i>&gt; &amp; &lt;b&gt;");
	OK(strstr(show(env, "{{ \"Part {n} of {total}\" | fill(2) }}"), "no value for {total}") != NULL);
	OK(strstr(show(env, "{{ {\"one\": \"x\"} | fill(2) }}"), "needs an 'other' form") != NULL);
	OK(strstr(show(env, "{{ {\"other\": \"x\"} | fill({\"m\": 1}) }}"), "needs an integer n") != NULL);
	tmpl_env_free(env);
}

static void test_language(void)
{
	struct arena *a = arena_new();
	struct tmpl_env *env = tmpl_env_new();
	/* English by default: the theme's strings as t, English dates */
	INT_EQ(load(env, a, "title: T\n", NULL), 0);
	STR_EQ(show(env, "{{ t.min_read | fill(5) }} · {{ t.posts_count | fill(1) }} · {{ \"2026-12-03\" | date(t.date_format) }}"),
	       "5 min read · 1 post · December 3, 2026");
	tmpl_env_free(env);

	/* each language of the theme */
	static const char *const langs[][2] = {
		{"fr", "3 décembre 2026 · 0 article · 5 min de lecture"},
		{"de", "3. Dezember 2026 · 0 Beiträge · 5 Min. Lesezeit"},
		{"es", "3 de diciembre de 2026 · 0 artículos · 5 min de lectura"},
		{"zh", "2026年12月3日 · 0 篇文章 · 阅读约 5 分钟"},
		{"ja", "2026年12月3日 · 0件の記事 · 5分で読めます"},
	};
	for (size_t i = 0; i < sizeof langs / sizeof *langs; i++) {
		char yml[64];
		snprintf(yml, sizeof yml, "title: T\nlanguage: %s\n", langs[i][0]);
		env = tmpl_env_new();
		INT_EQ(load(env, a, yml, NULL), 0);
		STR_EQ(show(env, "{{ \"2026-12-03\" | date(t.date_format) }} · {{ t.posts_count | fill(0) }} · "
				 "{{ t.min_read | fill(5) }}"),
		       langs[i][1]);
		tmpl_env_free(env);
	}

	/* the site overrides one string; the others stay the theme's */
	static const char *const over[] = {"i18n/fr.yml", "# mine\nmin_read: \"{n} minutes\"\n", NULL};
	env = tmpl_env_new();
	INT_EQ(load(env, a, "title: T\nlanguage: fr\n", over), 0);
	STR_EQ(show(env, "{{ t.min_read | fill(5) }} · {{ t.best_of }}"), "5 minutes · Le meilleur");
	tmpl_env_free(env);

	/* the Markdown's words (theme_md_labels): the language's, the site's
	 * over them */
	const char *labels[MD_LABELS];
	static const char *const note[] = {"i18n/de.yml", "callout_note: \"Merke\"\n", NULL};
	env = tmpl_env_new();
	INT_EQ(load(env, a, "title: T\nlanguage: de\n", note), 0);
	theme_md_labels(env, a, labels);
	STR_EQ(labels[MD_LABEL_HEADING_LINK], "Link zu diesem Abschnitt");
	STR_EQ(labels[MD_LABEL_NOTE], "Merke");
	STR_EQ(labels[MD_LABEL_TIP], "Tipp");
	STR_EQ(labels[MD_LABEL_WARNING], "Warnung");
	tmpl_env_free(env);
	env = tmpl_env_new();
	INT_EQ(load(env, a, "title: T\nlanguage: ja\n", NULL), 0);
	theme_md_labels(env, a, labels);
	STR_EQ(labels[MD_LABEL_WARNING], "警告");
	tmpl_env_free(env);

	/* a name the theme does not have */
	static const char *const typo[] = {"i18n/fr.yml", "min_read: x\nbest_off: y\nzzzzzzzz: z\n", NULL};
	env = tmpl_env_new();
	INT_EQ(load(env, a, "title: T\nlanguage: fr\n", typo), 2);
	STR_EQ(t_msgs(&cap), "i18n/fr.yml:2:1: error: unknown string 'best_off' (did you mean 'best_of'?)\n"
			     "i18n/fr.yml:3:1: error: unknown string 'zzzzzzzz' (the theme's i18n/en.yml lists the names)");
	tmpl_env_free(env);

	/* values of the wrong shape */
	static const char *const shape[] = {"i18n/fr.yml", "months: [a, b]\nposts_count: {one: x}\nbest_of: [x]\n", NULL};
	env = tmpl_env_new();
	INT_EQ(load(env, a, "title: T\nlanguage: fr\n", shape), 3);
	STR_EQ(t_msgs(&cap), "i18n/fr.yml:1:9: error: 'months' needs 12 names, not 2\n"
			     "i18n/fr.yml:2:14: error: 'posts_count' has plural forms but no 'other' form\n"
			     "i18n/fr.yml:3:10: error: 'best_of' must be a string or a map of plural forms, not a list");
	tmpl_env_free(env);

	/* a language nobody has */
	env = tmpl_env_new();
	INT_EQ(load(env, a, "title: T\nlanguage: xx\n", NULL), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:2:11: error: unknown language 'xx' (the theme has de, en, es, fr, ja, zh; "
			     "for another, write i18n/xx.yml)");
	tmpl_env_free(env);
	env = tmpl_env_new();
	INT_EQ(load(env, a, "title: T\nlanguage: ../x\n", NULL), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:2:11: error: '../x' is not a language name (such as en, fr or pt-BR)");
	tmpl_env_free(env);

	/* ... unless the site has it: what it leaves out is English, said once */
	static const char *const it[] = {"i18n/it.yml", "plural: one\nmin_read: \"{n} min di lettura\"\n", NULL};
	env = tmpl_env_new();
	INT_EQ(load(env, a, "title: T\nlanguage: it\n", it), 0);
	OK(strstr(t_msgs(&cap), "i18n/it.yml:1:1: warning: ") != NULL);
	OK(strstr(t_msgs(&cap), "strings are not translated: 'date_format', 'months', 'months_short', 'days', ... "
				"(English is used)") != NULL);
	STR_EQ(show(env, "{{ t.min_read | fill(5) }} · {{ t.best_of }}"), "5 min di lettura · Best of");
	tmpl_env_free(env);
	arena_free(a);
}

/* The fingerprinted names of the theme's files: of the theme's bytes, or
 * of the site's static/FILE when it has one inside the site. */
static void test_stylesheet(void)
{
	char name[THEME_ASSET_NAME_MAX], again[THEME_ASSET_NAME_MAX];
	const char *css;
	size_t len;
	char *owned;
	theme_asset(NULL, "style.css", name, &css, &len, &owned);
	/* the theme's stylesheet is written without its comments (a copy) */
	OK(owned != NULL && css == owned);
	OK(len > 1000 && strstr(css, ".hl-keyword") != NULL);
	OK(memmem(css, len, "/*", 2) == NULL && memmem(css, len, "\n\n", 2) == NULL);
	OK(css[len - 1] == '}' || css[len - 1] == '\n');
	free(owned);
	INT_EQ(strlen(name), strlen("style.0123456789abcdef.css"));
	OK(strncmp(name, "style.", 6) == 0 && strcmp(name + 22, ".css") == 0);
	OK(strspn(name + 6, "0123456789abcdef") == 16);

	char *site = t_tmpdir();
	theme_asset(site, "style.css", again, &css, &len, &owned);
	STR_EQ(again, name); /* no static/style.css: the theme's */
	free(owned);
	/* the site's own, without its comments too (a string keeps its
	 * slash and star) */
	t_write(site, "static/style.css", "/* mine */\nbody{color:red}\n");
	theme_asset(site, "style.css", again, &css, &len, &owned);
	OK(owned != NULL && len == 16 && memcmp(css, "body{color:red}\n", 16) == 0);
	free(owned);
	t_write(site, "static/style.css", "body{color:red}\n");
	theme_asset(site, "style.css", again, &css, &len, &owned);
	OK(owned != NULL && len == 16 && memcmp(css, "body{color:red}\n", 16) == 0);
	free(owned);
	t_write(site, "static/style.css", "a::after{content:\"/*x*/\"} /* c\n  d */\nb{}/**/");
	theme_asset(site, "style.css", again, &css, &len, &owned);
	OK(owned != NULL && len == 30 && memcmp(css, "a::after{content:\"/*x*/\"} \nb{}", 30) == 0);
	free(owned);
	t_write(site, "static/style.css", "body{color:red}\n");
	theme_asset(site, "style.css", again, &css, &len, &owned);
	OK(strcmp(again, name) != 0);
	free(owned);
	char first[THEME_ASSET_NAME_MAX];
	memcpy(first, again, sizeof first);
	t_write(site, "static/style.css", "body{color:blue}\n");
	theme_asset(site, "style.css", again, &css, &len, &owned);
	OK(strcmp(again, first) != 0); /* a new name with each change */
	free(owned);

	/* a link to a file outside the site is not read */
	char *outside = t_tmpdir();
	t_write(outside, "x.css", "secret{}");
	char from[4096], to[4096];
	snprintf(from, sizeof from, "%s/x.css", outside);
	snprintf(to, sizeof to, "%s/static/style.css", site);
	OK(unlink(to) == 0 && symlink(from, to) == 0);
	theme_asset(site, "style.css", again, &css, &len, &owned);
	STR_EQ(again, name);
	OK(memmem(css, len, "secret", 6) == NULL);
	free(owned);
	t_rmtree(outside);
	free(outside);
	/* a script keeps its extension */
	theme_asset(NULL, "enhance.js", again, &css, &len, &owned);
	OK(strncmp(again, "enhance.", 8) == 0 && strcmp(again + 24, ".js") == 0 && strlen(again) == 27);
	OK(len > 100 && len <= 1024);
	t_rmtree(site);
	free(site);
}

void test_theme(void)
{
	t_current = "theme";
	buf_init(&cap);
	test_locale();
	test_language();
	test_stylesheet();
	buf_fini(&cap);
}

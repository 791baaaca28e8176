/* main.c: the command line: argv, subcommands, exit status. */
#include <stdio.h>
#include <string.h>

#include <cmark-gfm.h>
#include <utf8proc.h>
#include <curl/curl.h>
#include <microhttpd.h>
#include <yaml.h>

#include "base/arena.h"
#include "base/buf.h"
#include "cache/cache.h"
#include "pipeline/build.h"
#include "base/diag.h"
#include "check/extcheck.h"
#include "deploy/deploy.h"
#include "images/images.h"
#include "md/diagram.h"
#include "md/highlight.h"
#include "import/import.h"
#include "md/math.h"
#include "md/mermaid.h"
#include "output/output.h"
#include "cli/scaffold.h"
#include "serve/serve.h"
#include "files/reader.h"
#include "files/sitefile.h"
#include "cli/themeexport.h"
#include "base/version.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_SITE = 1, EXIT_USAGE = 2 };

struct command {
	const char *name;
	const char *summary;
	const char *help;
};

static const struct command commands[] = {
	{"build", "build the site into a folder of static files",
	 "usage: folio build [DIR] [-o OUT] [--drafts] [--future] [--base-url URL] [-j N]\n"
	 "                   [--keep-going]\n"
	 "\n"
	 "Builds the site in DIR (default: the current folder) into OUT (default:\n"
	 "DIR/public). The site is written to a staging folder and swapped in with\n"
	 "one rename, so a failed build leaves the previous site as it was; folio\n"
	 "only replaces a folder that it made itself.\n"
	 "\n"
	 "  -o, --output OUT   where the site goes\n"
	 "  --drafts           include posts and pages marked draft: true\n"
	 "  --future           include posts dated in the future\n"
	 "  --base-url URL     use URL instead of folio.yml's base_url\n"
	 "  -j, --jobs N       worker threads (default: the number of processors)\n"
	 "  -k, --keep-going   write the site even when there are errors, for\n"
	 "                     previewing: every page that can be is written (a bad\n"
	 "                     formula shows as its TeX in a red box, a missing\n"
	 "                     image as its alt text); the errors are still printed\n"
	 "                     and the exit status is still 1\n"
	 "\n"
	 "Every error is reported as path:line:col: error: message (the column\n"
	 "in characters); nothing is written when there is one, unless\n"
	 "--keep-going. Exit status: 0 built, 1 errors in the site, 2 usage errors.\n"},
	{"serve", "build the site, serve it locally and rebuild on changes",
	 "usage: folio serve [DIR] [--port PORT] [--bind ADDR] [--drafts] [--future]\n"
	 "\n"
	 "Builds the site in DIR (default: the current folder) into a temporary\n"
	 "folder (never DIR/public) and serves it on http://127.0.0.1:PORT/. When a\n"
	 "file of the site changes, the site is rebuilt and open tabs reload,\n"
	 "keeping their scroll position; a build error is shown in every open tab\n"
	 "(and on stderr) until it is fixed, over the pages written all the same\n"
	 "(as folio build --keep-going writes them). Ctrl-C stops the server.\n"
	 "\n"
	 "  -p, --port PORT    the TCP port (default: 8080, or the next free one up\n"
	 "                     to 8089); 0: any free port, which is printed\n"
	 "  --bind ADDR        the numeric address to listen on (default: 127.0.0.1;\n"
	 "                     any other is announced with a warning)\n"
	 "  --drafts           include posts and pages marked draft: true\n"
	 "  --future           include posts dated in the future\n"
	 "\n"
	 "Exit status: 0 stopped by a signal, 1 the server could not start,\n"
	 "2 usage errors.\n"},
	{"check", "check the site's links and files without writing anything",
	 "usage: folio check [DIR] [--drafts] [--future] [--base-url URL] [-j N]\n"
	 "                   [--external] [--ignored]\n"
	 "\n"
	 "Runs everything a build checks on the site in DIR (default: the current\n"
	 "folder), every internal link, image and #fragment included, and writes\n"
	 "nothing: no output folder, no cache. With --external it also checks each\n"
	 "http(s) link of the site: concurrently (at most 2 at a time per host),\n"
	 "HEAD then GET where HEAD is refused, redirects followed (a permanent one\n"
	 "is a warning naming the new address); results are kept for a day in\n"
	 "DIR/" CACHE_DIR "/external-links.\n"
	 "\n"
	 "  --drafts           include posts and pages marked draft: true\n"
	 "  --future           include posts dated in the future\n"
	 "  --base-url URL     use URL instead of folio.yml's base_url\n"
	 "  -j, --jobs N       worker threads (default: the number of processors)\n"
	 "  --external         check http(s) links too (needs the network)\n"
	 "  --ignored          list the links that ignore_links leaves unchecked and\n"
	 "                     that lead nowhere, as notes\n"
	 "\n"
	 "Exit status: 0 no error, 1 errors in the site or a broken link,\n"
	 "2 usage errors.\n"},
	{"deploy", "publish the built site to folio.yml's deploy target",
	 "usage: folio deploy [DIR] [-o OUT] [--dry-run] [--all]\n"
	 "\n"
	 "Publishes the site that 'folio build' wrote into OUT (default: DIR/public)\n"
	 "to the target that DIR/folio.yml names under deploy: a folder\n"
	 "({folder: PATH}), rsync, over SSH to HOST:PATH ({rsync: \"[USER@]HOST:PATH\"}),\n"
	 "a branch of a git repository, committed and pushed ({git: {repo: URL,\n"
	 "branch: gh-pages}}), or an S3 bucket ({s3: {bucket: NAME, endpoint: URL,\n"
	 "region: REGION, prefix: blog/}}, with Content-Type and Cache-Control: a\n"
	 "year for fingerprinted files, revalidated for the others). Only what\n"
	 "changed since the last deploy to that target is uploaded (by each file's\n"
	 "hash, against a record kept in DIR/" CACHE_DIR "/deploy/); a file an\n"
	 "earlier deploy put there that the site no longer has is deleted there,\n"
	 "and nothing else ever is. Pages go up after the files they link to;\n"
	 "deletions come last. A failure stops the deploy: what was there stays,\n"
	 "and the next deploy does the rest.\n"
	 "\n"
	 "  -o, --output OUT   the folder 'folio build -o OUT' wrote\n"
	 "  -n, --dry-run      list each upload and deletion, do nothing\n"
	 "  --all              upload every file, whatever the record says\n"
	 "\n"
	 "No password goes in folio.yml: rsync and git use SSH keys, ~/.ssh/config\n"
	 "(or RSYNC_RSH) and git's credential helper; S3 AWS_ACCESS_KEY_ID and\n"
	 "AWS_SECRET_ACCESS_KEY (AWS_SESSION_TOKEN) or ~/.aws/credentials\n"
	 "(AWS_PROFILE). None is ever printed. Exit status: 0 deployed (or\n"
	 "nothing to do), 1 an error in folio.yml, no build, or a failed upload,\n"
	 "2 usage errors.\n"},
	{"new", "create a new site, post or series",
	 "usage: folio new site DIR [--ci github|gitlab]\n"
	 "       folio new post \"TITLE\" [--series SLUG] [--draft] [--bundle] [--dir SITE]\n"
	 "       folio new series SLUG --title \"TITLE\" [--description TEXT]\n"
	 "                        [--difficulty LEVEL] [--dir SITE]\n"
	 "\n"
	 "'new site' creates DIR with a working example: folio.yml, a series of\n"
	 "three posts, a standalone post and an about page. DIR must not exist or\n"
	 "be empty.\n"
	 "\n"
	 "  --ci github        also .github/workflows/folio.yml: on each push to main,\n"
	 "                     GitHub Actions builds the site with folio's release\n"
	 "                     binary and publishes it on GitHub Pages\n"
	 "  --ci gitlab        also .gitlab-ci.yml: the same on GitLab Pages\n"
	 "\n"
	 "'new post' creates content/posts/SLUG.md in the site (default: the\n"
	 "current folder), dated now and published (folio serve shows it at once).\n"
	 "\n"
	 "  --series SLUG      the next part of that series (added to the series'\n"
	 "                     posts: list when it has one)\n"
	 "  --draft            marked draft: true (shown by folio serve --drafts)\n"
	 "  --bundle           a page bundle: content/posts/SLUG/index.md, beside\n"
	 "                     which the post's images go\n"
	 "  --dir SITE         the site's folder\n"
	 "\n"
	 "'new series' creates content/series/SLUG.md with every key of a series\n"
	 "written out, the optional ones commented.\n"
	 "\n"
	 "  --title TITLE      the series' title (required)\n"
	 "  --description TEXT one or two sentences on what it covers\n"
	 "  --difficulty LEVEL beginner, intermediate or advanced\n"
	 "  --dir SITE         the site's folder\n"
	 "\n"
	 "Options take their value as --opt VALUE or --opt=VALUE.\n"},
	{"import", "make a folio site from a Jekyll or Hugo blog",
	 "usage: folio import jekyll SRC DST\n"
	 "       folio import hugo SRC DST\n"
	 "\n"
	 "Writes a new folio site in DST (which must not exist, or be empty) from\n"
	 "the Jekyll site in SRC, which is only read: _config.yml, _posts/,\n"
	 "_drafts/, pages, collections with output: true, and the files posts\n"
	 "refer to (copied to DST/static/). Liquid and kramdown in the posts become\n"
	 "folio Markdown. From a Hugo site: its config (TOML, YAML or JSON),\n"
	 "content/ (sections, page bundles, front matter in any of the three) and\n"
	 "the files of static/ and assets/ that pages refer to; shortcodes become\n"
	 "folio Markdown. Each post's old URL becomes an alias that redirects to\n"
	 "its new one. What could not be converted as written is listed, with\n"
	 "file:line, in a report printed at the end and written as DST/IMPORT.md.\n"
	 "Then DST is built (drafts and future posts included) into a scratch\n"
	 "folder that is removed: DST gets no public/.\n"
	 "\n"
	 "Exit status: 0 imported and the new site builds, 1 a post could not be\n"
	 "converted or the new site does not build, 2 usage errors.\n"},
	{"theme", "copy the default theme's files into the site, to edit them", theme_export_help},
	{"help", "show help for folio or one of its commands",
	 "usage: folio help [COMMAND]\n"
	 "\n"
	 "Shows the list of commands, or the help of one command.\n"},
	{"version", "print folio's version and the versions of its libraries",
	 "usage: folio version\n"
	 "       folio --version\n"
	 "\n"
	 "Prints folio's version, then the version of each library built into it.\n"},
	{NULL, NULL, NULL},
};

static void usage(FILE *out)
{
	fputs("usage: folio COMMAND [OPTIONS]\n"
	      "       folio --help | --version\n"
	      "\n"
	      "folio builds a static website for a long-form technical blog organised\n"
	      "in series, from Markdown and YAML.\n"
	      "\n"
	      "Commands:\n",
	      out);
	for (const struct command *c = commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fputs("\n"
	      "Run 'folio help COMMAND' for a command's options. Exit status: 0 success,\n"
	      "1 errors in the site, 2 usage errors. See folio(1), folio-site(5) and\n"
	      "folio-template(5).\n",
	      out);
}

static const struct command *find_command(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* MAX_NAMES: room for the names a "did you mean" searches: the commands,
 * or a command's options (each long and short spelling) and --help */
#define MAX_NAMES 32

/* unknown: the usage error of word (up to a '='), which names nothing of
 * names (NULL-terminated): "folio: unknown WHAT 'word'", the closest name
 * as "(did you mean ...?)", and where to read the usage, without the whole
 * of it (the message is what matters). EXIT_USAGE. */
static int unknown(const char *what, const char *word, const char *const *names)
{
	const char *sug = diag_suggest(word, strcspn(word, "="), names);
	fprintf(stderr, "folio: unknown %s '%s'%s%s%s\nRun 'folio help' for the commands and options.\n", what, word,
		sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "");
	return EXIT_USAGE;
}

/* unknown_command: the usage error of a command name that is none. */
static int unknown_command(const char *name)
{
	const char *names[MAX_NAMES];
	size_t n = 0;
	for (const struct command *c = commands; c->name && n + 1 < MAX_NAMES; c++)
		names[n++] = c->name;
	names[n] = NULL;
	return unknown("command", name, names);
}

static int cmd_version(void)
{
	printf("folio %s\n", FOLIO_VERSION);
	printf("cmark-gfm %s\n", cmark_version_string());
	printf("libyaml %s\n", yaml_get_version_string());
	printf("utf8proc %s\n", utf8proc_version());
	printf("libmicrohttpd %s\n", MHD_get_version());
	printf("libcurl %s\n", curl_version_info(CURLVERSION_NOW)->version);
	printf("%s\n", hl_version());
	printf("%s\n", math_version());
	printf("%s\n", diagram_version());
	printf("%s\n", mermaid_version());
	printf("%s\n", img_codecs());
	/* AVIF's library is the system's, if it has one (images.h) */
	if (img_avif_version())
		printf("%s, loaded at run time\n", img_avif_version());
	else
		printf("libavif: none on this system (AVIF copies cannot be made)\n");
	return EXIT_OK;
}

static int cmd_help(int argc, char **argv)
{
	if (argc < 1) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 1) {
		fprintf(stderr, "folio: help takes one command name\n");
		return EXIT_USAGE;
	}
	const struct command *c = find_command(argv[0]);
	if (!c)
		return unknown_command(argv[0]);
	fputs(c->help, stdout);
	return EXIT_OK;
}

static int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "folio %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nRun 'folio help %s' for its usage.\n", cmd);
	return EXIT_USAGE;
}

/* option_value: for "-o X", "--output X" and "--output=X": the value, or
 * NULL when argv[*i] is not this option. Advances *i past a separate value. */
static const char *option_value(int argc, char **argv, int *i, const char *shrt, const char *lng, int *missing)
{
	const char *a = argv[*i];
	size_t n = strlen(lng);
	if ((shrt && !strcmp(a, shrt)) || !strcmp(a, lng)) {
		if (*i + 1 >= argc) {
			*missing = 1;
			return NULL;
		}
		return argv[++*i];
	}
	if (!strncmp(a, lng, n) && a[n] == '=')
		return a + n + 1;
	if (shrt && shrt[1] && !shrt[2] && a[0] == '-' && a[1] == shrt[1] && a[2])
		return a + 2; /* -j4, -p8080, -oOUT */
	return NULL;
}

/* One option of a command: its spellings, and where it goes. */
enum opt_kind {
	OPT_FLAG,  /* no value: *(int *)to set to 1 */
	OPT_VALUE, /* a value: *(const char **)to */
	OPT_INT,   /* a number from min to max: *(int *)to; else the message bad, ", not 'VALUE'" */
};

struct opt {
	const char *shrt, *lng; /* "-o" (or NULL) and "--output"; the table ends with lng NULL */
	enum opt_kind kind;
	void *to;
	int min, max;
	const char *bad;
	int *given; /* set to 1 when the option is given (NULL: not kept) */
};

/* What a command's one positional argument is, for which arguments are
 * positional and the words of its usage errors. */
enum pos_kind {
	POS_SITE,  /* folio build, serve, check: the site's folder ("-" is one) */
	POS_TITLE, /* folio new post: the title ("-" is one, and every argument after "--") */
	POS_SLUG,  /* folio new series: the series' slug (nothing that starts with '-') */
};

/* A command's arguments: its options (in the order they are tried) and
 * its positional argument (*pos, NULL until given). */
struct args {
	const char *cmd; /* for usage_error: "build", "new" */
	const struct opt *opts;
	enum pos_kind pos_kind;
	const char **pos;
};

/* take_opt: argv[*i] as one of g's options (its value after it when it
 * is a separate one: *i moves past it). 1 when taken, 0 when it is none
 * of them, -1 after a usage error (a value missing or out of range). */
static int take_opt(const struct args *g, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	int missing = 0;
	for (const struct opt *o = g->opts; o->lng; o++) {
		const char *v = NULL;
		if (o->kind == OPT_FLAG) {
			if ((o->shrt && !strcmp(a, o->shrt)) || !strcmp(a, o->lng))
				*(int *)o->to = 1;
			else
				continue;
		} else if (!(v = option_value(argc, argv, i, o->shrt, o->lng, &missing))) {
			continue;
		} else if (o->kind == OPT_VALUE) {
			*(const char **)o->to = v;
		} else {
			char *end;
			long n = strtol(v, &end, 10);
			if (*end || !*v || n < o->min || n > o->max)
				return usage_error(g->cmd, "%s, not '%s'", o->bad, v), -1;
			*(int *)o->to = (int)n;
		}
		if (o->given)
			*o->given = 1;
		return 1;
	}
	if (missing)
		return usage_error(g->cmd, "%s needs a value", a), -1;
	return 0;
}

/* unknown_option: the usage error of a, which is none of g's options,
 * with the closest of their spellings (or --help). */
static int unknown_option(const struct args *g, const char *a)
{
	const char *names[MAX_NAMES];
	size_t n = 0;
	for (const struct opt *o = g->opts; o->lng && n + 3 < MAX_NAMES; o++) {
		names[n++] = o->lng;
		if (o->shrt)
			names[n++] = o->shrt;
	}
	names[n++] = "--help";
	names[n] = NULL;
	const char *sug = diag_suggest(a, strcspn(a, "="), names);
	const char *kind = g->pos_kind == POS_SITE ? NULL : g->pos_kind == POS_TITLE ? "post" : "series";
	return usage_error(g->cmd, "unknown option '%s'%s%s%s%s%s%s", a, kind ? " for 'new " : "", kind ? kind : "",
			   kind ? "'" : "", sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "");
}

/* parse_args: argv[0..argc), a command's arguments after its name, by
 * g. EXIT_OK, or EXIT_USAGE after the message (an
 * unknown option, a value missing or out of range, a second positional
 * argument). */
static int parse_args(const struct args *g, int argc, char **argv)
{
	int rest = 0; /* after "--" (folio new post): a title that starts with '-' */
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (rest || a[0] != '-' || (g->pos_kind != POS_SLUG && !strcmp(a, "-"))) {
			if (!*g->pos) {
				*g->pos = a;
				continue;
			}
			if (g->pos_kind == POS_SITE)
				return usage_error(g->cmd, "one site folder only (got a second: '%s')", a);
			if (g->pos_kind == POS_TITLE)
				return usage_error(g->cmd, "one title only (quote it: folio new post \"%s ...\")", *g->pos);
			return usage_error(g->cmd, "one series slug only (got a second: '%s'; quote a title: --title \"...\")",
					   a);
		}
		if (g->pos_kind == POS_TITLE && !strcmp(a, "--")) {
			rest = 1;
			continue;
		}
		int r = take_opt(g, argc, argv, &i);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		return unknown_option(g, a);
	}
	return EXIT_OK;
}

/* The rows of an options table: a flag, an option with a value, the
 * number of -j, --jobs, and the end. */
#define OPT_F(shrt, lng, to) {shrt, lng, OPT_FLAG, (to), 0, 0, NULL, NULL}
#define OPT_V(shrt, lng, to) {shrt, lng, OPT_VALUE, (to), 0, 0, NULL, NULL}
#define OPT_JOBS(to) {"-j", "--jobs", OPT_INT, (to), 1, 256, "-j needs a number of threads from 1 to 256", NULL}
#define OPT_END {NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, NULL}

/* site_dir_check: 0 if dir is a folder; else 1 after saying what it is. */
static int site_dir_check(struct diag *d, const char *dir)
{
	struct stat st;
	const char *why = NULL;
	char buf[256];
	if (stat(dir, &st) != 0) {
		if (errno == ENOENT)
			why = "no such folder (hint: 'folio new site DIR' makes a site)";
		else {
			snprintf(buf, sizeof buf, "cannot open the site folder: %s", strerror(errno));
			why = buf;
		}
	} else if (!S_ISDIR(st.st_mode))
		why = "not a folder (hint: give the site's folder, the one that holds folio.yml)";
	if (!why)
		return 0;
	diag_error(d, &(struct diag_loc){dir, NULL, 0, 0, 0}, "%s", why);
	return 1;
}

/* print_ignored: the end of the last line of a build or check: how many
 * links the documents' ignore_links leave unchecked, if any. */
static void print_ignored(size_t n)
{
	if (n)
		printf("; %zu link%s left unchecked by ignore_links ('folio check --ignored' lists %s)", n,
		       n == 1 ? "" : "s", n == 1 ? "it" : "them");
}

static int cmd_build(int argc, char **argv)
{
	struct build_request req;
	memset(&req, 0, sizeof req);
	req.site_dir = NULL;
	const struct opt opts[] = {
		OPT_F(NULL, "--drafts", &req.drafts),
		OPT_F(NULL, "--future", &req.future),
		OPT_F("-k", "--keep-going", &req.keep_going),
		OPT_V("-o", "--output", &req.out_dir),
		OPT_V(NULL, "--base-url", &req.base_url),
		OPT_JOBS(&req.jobs),
		OPT_END,
	};
	if (parse_args(&(struct args){"build", opts, POS_SITE, &req.site_dir}, argc, argv))
		return EXIT_USAGE;
	if (!req.site_dir)
		req.site_dir = ".";
	struct diag d;
	diag_init(&d, stderr);
	d.defer = 1; /* sorted by place: the same order on any number of threads */
	/* a folder that must not be replaced is refused before the site is
	 * read (the build checks it again when it begins writing); the site
	 * folder first, or a mistyped one reads as a problem with the output */
	char out_default[4096];
	int errors = site_dir_check(&d, req.site_dir);
	/* SITE/public, and "public" (not "./public") for the current folder,
	 * as messages show it */
	int here = !strcmp(req.site_dir, ".");
	if (!errors && (size_t)snprintf(out_default, sizeof out_default, "%s%spublic", here ? "" : req.site_dir,
					here ? "" : "/") >= sizeof out_default) {
		diag_error(&d, &(struct diag_loc){req.site_dir, NULL, 0, 0, 0},
			   "the path is too long for its output folder (hint: build from nearer, or give -o)");
		errors = 1;
	}
	if (!req.out_dir)
		req.out_dir = out_default;
	struct build_result res;
	memset(&res, 0, sizeof res);
	if (!errors)
		errors = output_check(&d, req.out_dir, req.site_dir) ? 1 : 0;
	req.out_checked = !errors;
	if (!errors)
		errors = build_site(&req, &d, &res);
	diag_flush(&d);
	if (errors) {
		fprintf(stderr, "folio: %d error%s%s; %s\n", d.errors ? d.errors : errors,
			(d.errors ? d.errors : errors) == 1 ? "" : "s",
			d.warnings ? (d.warnings == 1 ? " and 1 warning" : " and warnings") : "",
			res.committed ? "the site was written anyway (--keep-going), for previewing"
				      : "nothing was written");
		diag_fini(&d);
		return EXIT_SITE;
	}
	printf("folio: built %zu page%s (%zu post%s, %zu file%s) in %.0f ms%s%s", res.pages, res.pages == 1 ? "" : "s",
	       res.posts, res.posts == 1 ? "" : "s", res.files, res.files == 1 ? "" : "s", res.seconds * 1000,
	       d.warnings ? " with warnings" : "", res.unchanged ? "; nothing changed, the output was kept" : "");
	print_ignored(res.ignored);
	putchar('\n');
	diag_fini(&d);
	return EXIT_OK;
}

static int cmd_serve(int argc, char **argv)
{
	struct serve_options o;
	memset(&o, 0, sizeof o);
	o.port = 8080;
	const struct opt opts[] = {
		OPT_F(NULL, "--drafts", &o.drafts),
		OPT_F(NULL, "--future", &o.future),
		{"-p", "--port", OPT_INT, &o.port, 0, 65535, "--port needs a port number from 0 to 65535 (0: any free one)",
		 &o.port_given},
		OPT_V(NULL, "--bind", &o.bind),
		OPT_END,
	};
	if (parse_args(&(struct args){"serve", opts, POS_SITE, &o.site_dir}, argc, argv))
		return EXIT_USAGE;
	if (!o.site_dir)
		o.site_dir = ".";
	return serve_run(&o);
}

/* ---- folio check ---- */

/* The http(s) links a check build found, with their places, for
 * extcheck; the source texts are read once each, for the excerpts. */
struct extlinks {
	const char *site_dir;
	struct extlink *v;
	size_t n, cap;
	char **paths, **texts;
	size_t *lens;
	size_t npaths;
};

static void ext_add(void *ctx, const char *url, const char *path, int line, int col)
{
	struct extlinks *e = ctx;
	size_t k = 0;
	while (k < e->npaths && strcmp(e->paths[k], path))
		k++;
	if (k == e->npaths) {
		e->paths = xrealloc(e->paths, (k + 1) * sizeof *e->paths);
		e->texts = xrealloc(e->texts, (k + 1) * sizeof *e->texts);
		e->lens = xrealloc(e->lens, (k + 1) * sizeof *e->lens);
		e->paths[k] = xstrndup(path, strlen(path));
		char full[4200];
		snprintf(full, sizeof full, "%s/%s", e->site_dir, path);
		e->lens[k] = 0;
		struct site_file f = {full, path, (size_t)-2, "", SITE_READ_QUIET};
		e->texts[k] = line ? site_read(NULL, NULL, &f, NULL, &e->lens[k], NULL) : NULL;
		e->npaths++;
	}
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 64;
		e->v = xrealloc(e->v, e->cap * sizeof *e->v);
	}
	e->v[e->n++] = (struct extlink){
		.url = xstrndup(url, strlen(url)),
		.path = e->paths[k],
		.line = line,
		.col = col,
		.src = e->texts[k],
		.src_len = e->lens[k],
	};
}

static void ext_free(struct extlinks *e)
{
	for (size_t i = 0; i < e->n; i++)
		free((char *)e->v[i].url);
	for (size_t i = 0; i < e->npaths; i++) {
		free(e->paths[i]);
		free(e->texts[i]);
	}
	free(e->v);
	free(e->paths);
	free(e->texts);
	free(e->lens);
}

static int cmd_check(int argc, char **argv)
{
	struct build_request req;
	memset(&req, 0, sizeof req);
	int external = 0;
	const struct opt opts[] = {
		OPT_F(NULL, "--ignored", &req.list_ignored),
		OPT_F(NULL, "--drafts", &req.drafts),
		OPT_F(NULL, "--future", &req.future),
		OPT_F(NULL, "--external", &external),
		OPT_V(NULL, "--base-url", &req.base_url),
		OPT_JOBS(&req.jobs),
		OPT_END,
	};
	if (parse_args(&(struct args){"check", opts, POS_SITE, &req.site_dir}, argc, argv))
		return EXIT_USAGE;
	if (!req.site_dir)
		req.site_dir = ".";
	struct diag d;
	diag_init(&d, stderr);
	d.defer = 1;
	int errors = site_dir_check(&d, req.site_dir);
	/* the build writes into a scratch folder of its own (no out_dir),
	 * deleted after: the site's output and its cache are left as they are */
	req.check = 1;
	struct extlinks ext;
	memset(&ext, 0, sizeof ext);
	ext.site_dir = req.site_dir;
	if (external) {
		req.external = ext_add;
		req.external_ctx = &ext;
	}
	struct build_result res;
	memset(&res, 0, sizeof res);
	if (!errors)
		errors = build_site(&req, &d, &res);
	struct extcheck_stats st;
	memset(&st, 0, sizeof st);
	if (!errors && external && ext.n) {
		diag_flush(&d); /* the site's warnings before the network's */
		char *cache = cache_open_dir(req.site_dir, CACHE_ROOT) == 0 ? cache_path(req.site_dir, CACHE_EXTERNAL) : NULL;
		struct extcheck_opts o;
		memset(&o, 0, sizeof o); /* zero: the defaults */
		o.cache_path = cache;
		o.progress = isatty(2);
		errors = extcheck_run(ext.v, ext.n, &o, &d, &st) ? 1 : 0;
		free(cache);
	}
	diag_flush(&d);
	ext_free(&ext);
	if (errors) {
		int n = d.errors ? d.errors : errors;
		fprintf(stderr, "folio: %d error%s%s\n", n, n == 1 ? "" : "s",
			d.warnings ? (d.warnings == 1 ? " and 1 warning" : " and warnings") : "");
		diag_fini(&d);
		return EXIT_SITE;
	}
	printf("folio: checked %zu page%s (%zu post%s, %zu file%s), %zu internal link%s", res.pages,
	       res.pages == 1 ? "" : "s", res.posts, res.posts == 1 ? "" : "s", res.files, res.files == 1 ? "" : "s",
	       res.links, res.links == 1 ? "" : "s");
	if (external)
		printf(", %zu external address%s (%zu from the cache)", st.urls, st.urls == 1 ? "" : "es",
		       st.cached);
	printf("; no error%s", d.warnings ? ", with warnings" : "");
	if (!req.list_ignored)
		print_ignored(res.ignored);
	putchar('\n');
	diag_fini(&d);
	return EXIT_OK;
}

static int cmd_deploy(int argc, char **argv)
{
	struct deploy_options o;
	memset(&o, 0, sizeof o);
	const struct opt opts[] = {
		OPT_F("-n", "--dry-run", &o.dry_run),
		OPT_F(NULL, "--all", &o.all),
		OPT_V("-o", "--output", &o.out_dir),
		OPT_END,
	};
	if (parse_args(&(struct args){"deploy", opts, POS_SITE, &o.site_dir}, argc, argv))
		return EXIT_USAGE;
	if (!o.site_dir)
		o.site_dir = ".";
	struct diag d;
	diag_init(&d, stderr);
	int errors = site_dir_check(&d, o.site_dir);
	char out_default[4096];
	int here = !strcmp(o.site_dir, ".");
	if (!o.out_dir && (size_t)snprintf(out_default, sizeof out_default, "%s%spublic", here ? "" : o.site_dir,
					   here ? "" : "/") >= sizeof out_default) {
		diag_error(&d, &(struct diag_loc){o.site_dir, NULL, 0, 0, 0}, "the path is too long (hint: give -o)");
		errors = 1;
	}
	if (!o.out_dir)
		o.out_dir = out_default;
	if (!errors)
		errors = deploy_run(&d, &o);
	diag_fini(&d);
	return errors ? EXIT_SITE : EXIT_OK;
}

/* new_post: folio new post "TITLE" [options]. */
static int new_post(struct diag *d, int argc, char **argv)
{
	struct scaffold_post_opts o;
	memset(&o, 0, sizeof o);
	o.site_dir = ".";
	const struct opt opts[] = {
		OPT_F(NULL, "--draft", &o.draft),
		OPT_F(NULL, "--bundle", &o.bundle),
		OPT_V(NULL, "--series", &o.series),
		OPT_V(NULL, "--dir", &o.site_dir),
		OPT_END,
	};
	if (parse_args(&(struct args){"new", opts, POS_TITLE, &o.title}, argc, argv))
		return EXIT_USAGE;
	if (!o.title)
		return usage_error("new", "%s", "'new post' needs a title");
	struct scaffold_result r;
	if (scaffold_post(d, &o, &r))
		return EXIT_SITE;
	printf("folio: created %s\n", r.path);
	if (r.series_listed)
		printf("folio: added %s to the posts of %s\n", r.slug, r.series_path);
	if (o.draft)
		printf("  draft: true, so it is shown by 'folio serve --drafts' only; remove that line to publish it\n");
	printf("  see it:  folio serve%s%s, then open http://127.0.0.1:8080/posts/%s/\n",
	       strcmp(o.site_dir, ".") ? " " : "", strcmp(o.site_dir, ".") ? o.site_dir : "", r.slug);
	if (o.draft)
		printf("           (with --drafts)\n");
	return EXIT_OK;
}

/* new_series: folio new series SLUG --title "TITLE" [options]. */
static int new_series(struct diag *d, int argc, char **argv)
{
	struct scaffold_series_opts o;
	memset(&o, 0, sizeof o);
	o.site_dir = ".";
	const struct opt opts[] = {
		OPT_V(NULL, "--title", &o.title),
		OPT_V(NULL, "--description", &o.description),
		OPT_V(NULL, "--difficulty", &o.difficulty),
		OPT_V(NULL, "--dir", &o.site_dir),
		OPT_END,
	};
	if (parse_args(&(struct args){"new", opts, POS_SLUG, &o.slug}, argc, argv))
		return EXIT_USAGE;
	if (!o.slug)
		return usage_error("new", "%s", "'new series' needs a slug (folio new series gpu-basics --title \"GPU Basics\")");
	if (!o.title)
		return usage_error("new", "'new series' needs --title (folio new series %s --title \"...\")", o.slug);
	if (o.difficulty && strcmp(o.difficulty, "beginner") && strcmp(o.difficulty, "intermediate") &&
	    strcmp(o.difficulty, "advanced"))
		return usage_error("new", "--difficulty is beginner, intermediate or advanced, not '%s'", o.difficulty);
	char path[4096];
	if (scaffold_series(d, &o, path, sizeof path))
		return EXIT_SITE;
	printf("folio: created %s\n", path);
	printf("  add a post to it:  folio new post \"TITLE\" --series %s%s%s\n", o.slug,
	       strcmp(o.site_dir, ".") ? " --dir " : "", strcmp(o.site_dir, ".") ? o.site_dir : "");
	return EXIT_OK;
}

/* new_site: folio new site DIR [--ci github|gitlab] */
static int new_site(struct diag *d, int argc, char **argv)
{
	const char *dir = NULL, *ci = NULL;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--ci")) {
			if (i + 1 >= argc)
				return usage_error("new", "%s", "--ci needs a value: 'github' or 'gitlab'");
			ci = argv[++i];
			if (strcmp(ci, "github") && strcmp(ci, "gitlab"))
				return usage_error("new", "unknown --ci '%s' (use 'github' or 'gitlab')", ci);
		} else if (argv[i][0] == '-' || dir) {
			return usage_error("new", "%s", "'new site' takes one folder name (and --ci github|gitlab)");
		} else {
			dir = argv[i];
		}
	}
	if (!dir)
		return usage_error("new", "%s", "'new site' takes one folder name (and --ci github|gitlab)");
	if (scaffold_site(d, dir))
		return EXIT_SITE;
	char wf[4096];
	if (ci && scaffold_ci(d, dir, ci, wf, sizeof wf))
		return EXIT_SITE;
	printf("folio: created the site %s\n  see it:    folio serve %s\n  build it:  folio build %s\n", dir, dir, dir);
	if (ci)
		printf("  publish:   %s builds and publishes it on %s Pages (set FOLIO_RELEASE_URL: see its top)\n", wf,
		       !strcmp(ci, "github") ? "GitHub" : "GitLab");
	return EXIT_OK;
}

static int cmd_new(int argc, char **argv)
{
	if (argc < 1)
		return usage_error("new", "%s", "what to create: 'site', 'post' or 'series'");
	struct diag d;
	diag_init(&d, stderr);
	int rc;
	if (!strcmp(argv[0], "site")) {
		rc = new_site(&d, argc - 1, argv + 1);
	} else if (!strcmp(argv[0], "post")) {
		rc = new_post(&d, argc - 1, argv + 1);
	} else if (!strcmp(argv[0], "series")) {
		rc = new_series(&d, argc - 1, argv + 1);
	} else {
		diag_fini(&d);
		return usage_error("new", "unknown kind '%s' (use 'site', 'post' or 'series')", argv[0]);
	}
	diag_fini(&d);
	return rc;
}

/* asks_help: whether the arguments of a command ask for its help (-h or
 * --help before a "--"): then it prints it and does nothing else. */
static int asks_help(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

static int cmd_import(int argc, char **argv)
{
	const char *args[3];
	int n = 0;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(find_command("import")->help, stdout);
			return EXIT_OK;
		}
		if (argv[i][0] == '-' && argv[i][1])
			return usage_error("import", "unknown option '%s'", argv[i]);
		if (n == 3)
			return usage_error("import", "%s", "too many arguments: a generator, SRC and DST");
		args[n++] = argv[i];
	}
	if (n < 3)
		return usage_error("import", "%s", "needs a generator (jekyll or hugo), SRC and DST");
	if (strcmp(args[0], "jekyll") && strcmp(args[0], "hugo"))
		return usage_error("import", "unknown generator '%s' (use 'jekyll' or 'hugo')", args[0]);
	struct diag d;
	diag_init(&d, stderr);
	struct imp_site s;
	memset(&s, 0, sizeof s);
	s.a = arena_new();
	s.d = &d;
	s.src = args[1];
	s.dst = args[2];
	struct stat st;
	int rc = EXIT_OK;
	if (stat(s.src, &st) != 0 || !S_ISDIR(st.st_mode)) {
		diag_error(&d, &(struct diag_loc){s.src, NULL, 0, 0, 0}, "%s",
			   "no such folder (hint: SRC is the old site's folder, the one with its config)");
		rc = EXIT_SITE;
	} else if (imp_dst_check(&d, s.dst))
		rc = EXIT_SITE;
	if (rc == EXIT_OK) {
		s.src_root = site_root(s.src);
		/* SRC is never written: DST inside it would be read as part of it */
		char *dr = NULL;
		if (!stat(s.dst, &st))
			dr = site_root(s.dst);
		else {
			/* a new folder: where its parent is */
			char parent[4096];
			snprintf(parent, sizeof parent, "%s", s.dst);
			size_t pl = strlen(parent);
			while (pl > 1 && parent[pl - 1] == '/')
				parent[--pl] = '\0';
			char *sl = strrchr(parent, '/');
			if (sl)
				*(sl == parent ? sl + 1 : sl) = '\0';
			dr = site_root(sl ? parent : ".");
		}
		if (dr && site_inside(s.src_root, dr)) {
			diag_error(&d, &(struct diag_loc){s.dst, NULL, 0, 0, 0}, "%s",
				   "DST is inside SRC (hint: write the new site somewhere else)");
			rc = EXIT_SITE;
		}
		free(dr);
	}
	if (rc == EXIT_OK && (!strcmp(args[0], "hugo") ? hugo_import(&s) : jekyll_import(&s)))
		rc = EXIT_SITE;
	if (rc == EXIT_OK && imp_write(&s))
		rc = EXIT_SITE;
	if (rc == EXIT_OK) {
		int errors = imp_build(&s);
		struct buf b;
		buf_init(&b);
		imp_report_text(&s, errors, &b);
		if (imp_write_report(&s, &b))
			rc = EXIT_SITE;
		fwrite(b.p, 1, b.len, stdout);
		buf_fini(&b);
		if (s.rep.failed) {
			for (size_t i = 0; i < s.rep.n; i++)
				if (strstr(s.rep.v[i].kind, "not converted"))
					fprintf(stderr, "folio import: %s: could not be converted\n", s.rep.v[i].path);
			rc = EXIT_SITE;
		}
		if (errors) {
			fprintf(stderr, "folio import: the new site %s does not build: %d error%s (see above)\n", s.dst,
				errors, errors == 1 ? "" : "s");
			rc = EXIT_SITE;
		} else
			printf("\nfolio import: wrote %s; folio build %s passes\n", s.dst, s.dst);
	}
	imp_site_fini(&s);
	diag_fini(&d);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
		return cmd_help(argc - 2, argv + 2);
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V"))
		return argc == 2 ? cmd_version() : (fprintf(stderr, "folio: --version takes no arguments\n"), EXIT_USAGE);
	if (cmd[0] == '-')
		return unknown("option", cmd, (const char *const[]){"--help", "--version", "-h", "-V", NULL});
	const struct command *known = find_command(cmd);
	if (known && asks_help(argc - 2, argv + 2)) {
		fputs(known->help, stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "help"))
		return cmd_help(argc - 2, argv + 2);
	if (!strcmp(cmd, "version")) {
		if (argc > 2) {
			fprintf(stderr, "folio: version takes no arguments\n");
			return EXIT_USAGE;
		}
		return cmd_version();
	}
	if (!strcmp(cmd, "build"))
		return cmd_build(argc - 2, argv + 2);
	if (!strcmp(cmd, "serve"))
		return cmd_serve(argc - 2, argv + 2);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 2, argv + 2);
	if (!strcmp(cmd, "new"))
		return cmd_new(argc - 2, argv + 2);
	if (!strcmp(cmd, "deploy"))
		return cmd_deploy(argc - 2, argv + 2);
	if (!strcmp(cmd, "import"))
		return cmd_import(argc - 2, argv + 2);
	if (!strcmp(cmd, "theme"))
		return theme_command(argc - 2, argv + 2);
	return unknown_command(cmd);
}

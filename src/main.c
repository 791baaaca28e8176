/* main.c: the command line: argv, subcommands, exit status. */
#include <stdio.h>
#include <string.h>

#include <cmark-gfm.h>
#include <utf8proc.h>
#include <yaml.h>

#include "version.h"

enum { EXIT_OK = 0, EXIT_SITE = 1, EXIT_USAGE = 2 };

struct command {
	const char *name;
	const char *summary;
	const char *help;
};

static const struct command commands[] = {
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

static int cmd_version(void)
{
	printf("folio %s\n", FOLIO_VERSION);
	printf("cmark-gfm %s\n", cmark_version_string());
	printf("libyaml %s\n", yaml_get_version_string());
	printf("utf8proc %s\n", utf8proc_version());
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
	if (!c) {
		fprintf(stderr, "folio: unknown command '%s'\n\n", argv[0]);
		usage(stderr);
		return EXIT_USAGE;
	}
	fputs(c->help, stdout);
	return EXIT_OK;
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
	if (cmd[0] == '-') {
		fprintf(stderr, "folio: unknown option '%s'\n\n", cmd);
		usage(stderr);
		return EXIT_USAGE;
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
	fprintf(stderr, "folio: unknown command '%s'\n\n", cmd);
	usage(stderr);
	return EXIT_USAGE;
}

/* themeexport.h: `folio theme export`: the embedded theme's files, copied
 * into a site to be edited there. */
#ifndef FOLIO_THEMEEXPORT_H
#define FOLIO_THEMEEXPORT_H

/* The usage text of `folio theme` (folio help theme, folio theme -h). */
extern const char theme_export_help[];

/* theme_command: runs `folio theme ARGS` (argv after "theme"). Returns the
 * exit status: 0 written (or --help), 1 a problem with the site or its
 * files (nothing written), 2 a usage error. */
int theme_command(int argc, char **argv);

#endif

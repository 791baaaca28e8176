/* fuzz_udirdecl.c: libFuzzer target for the declaration of a site's own
 * directive (read/theme.c, theme_directives): the comment at the top of a
 * template directives/NAME.html, "{# args: ... #}", YAML of the arguments'
 * types, requirements and defaults.
 *
 * An input is the template. It is added to a set as directives/box.html
 * (a template with syntax errors is not added: nothing to declare), and
 * its declaration read. Then: at most one directive, named box; unless
 * its declaration had errors, each argument has a name, a known type, and
 * a default of its type (none for a required one), the names unique.
 *
 * With FUZZ_SHOW set in the environment, the arguments and the
 * diagnostics are printed. */
#include "fuzz.h"

#include "read/theme.h"
#include "tmpl/tmpl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tmpl_env *env = tmpl_env_new();
	struct arena *a = arena_new();
	struct diag d;
	struct buf cap;
	buf_init(&cap);
	diag_init(&d, NULL);
	d.capture = &cap;
	int bad = tmpl_env_add(env, "directives/box.html", "templates/directives/box.html", (const char *)data, size, &d);
	struct md_udir *v = NULL;
	size_t n = 0;
	int errors = bad ? 0 : theme_directives(env, a, &d, "site", &v, &n);
	if (getenv("FUZZ_SHOW")) {
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < v[i].nargs; k++)
				fprintf(stderr, "%s.%s %s%s %s\n", v[i].name, v[i].args[k].name,
					md_uarg_type_name(v[i].args[k].type), v[i].args[k].required ? " required" : "",
					v[i].args[k].def ? v[i].args[k].def : "-");
		fprintf(stderr, "--- diagnostics\n%s\n", cap.p ? cap.p : "");
	}
	if (n > 1 || (bad && n))
		abort();
	if (n == 1) {
		const struct md_udir *u = &v[0];
		if (strcmp(u->name, "box") || !u->path || !u->shown || !u->hash)
			abort();
		if (errors && !u->broken)
			abort();
		for (size_t k = 0; !u->broken && k < u->nargs; k++) {
			const struct md_uarg *g = &u->args[k];
			if (!g->name || !*g->name || g->type < MD_UARG_STRING || g->type > MD_UARG_BOOL)
				abort();
			if (g->def && (g->required || !md_uarg_valid(g->type, g->def, strlen(g->def))))
				abort();
			for (size_t j = 0; j < k; j++)
				if (!strcmp(u->args[j].name, g->name))
					abort(); /* YAML refuses a duplicate key */
		}
	}
	diag_fini(&d);
	buf_fini(&cap);
	arena_free(a);
	tmpl_env_free(env);
	return 0;
}

#!/bin/sh
# test_rules.sh: scripts/rules.py, the check of src/README's rules that
# make check runs: each rule broken on purpose in a small tree of folders
# fails with FILE:LINE: RULE: ..., a tree that keeps them passes, and
# comments and string literals are not code. Last, folio's own src/
# keeps every rule.
. "$(dirname "$0")/lib.sh"
RULES="python3 $(dirname "$0")/../../scripts/rules.py"

# tree NAME: a new tree of three folders: lo (uses nothing), mid (uses
# lo), hi (uses lo, mid), each with a main header that says so, a source
# file and a function; base/ has pool.c and file.c, which may start
# threads and write files.
tree() {
	t=$TMP/$1
	mkdir -p "$t/lo" "$t/mid" "$t/hi" "$t/base" "$t/cache" "$t/files"
	printf '/* lo.h: the lowest.\n *\n * uses: nothing.\n */\nint lo_one(void);\n' >"$t/lo/lo.h"
	printf '#include "lo/lo.h"\n\nint lo_one(void)\n{\n\treturn 1;\n}\n' >"$t/lo/lo.c"
	printf '/* mid.h: the middle.\n * uses: lo.\n */\nint mid_two(void);\n' >"$t/mid/mid.h"
	printf '#include "mid/mid.h"\n#include "lo/lo.h"\n\nint mid_two(void)\n{\n\treturn lo_one() + 1;\n}\n' >"$t/mid/mid.c"
	printf '/* hi.h: the top.\n * uses: lo, mid.\n */\nint hi_three(void);\n' >"$t/hi/hi.h"
	printf '#include "hi/hi.h"\n#include "mid/mid.h"\n\nint hi_three(void)\n{\n\treturn mid_two() + 1;\n}\n' >"$t/hi/hi.c"
	printf '/* pool.h: threads.\n * uses: nothing.\n */\n' >"$t/base/pool.h"
	printf '#include <pthread.h>\n\nint pool_go(pthread_t *t, void *(*fn)(void *))\n{\n\treturn pthread_create(t, 0, fn, 0);\n}\n' >"$t/base/pool.c"
	printf '#include <stdio.h>\n\nint file_new(const char *p)\n{\n\tFILE *f = fopen(p, "wx");\n\treturn f ? fclose(f) : -1;\n}\n' >"$t/base/file.c"
	printf '/* cache.h: the cache.\n * uses: nothing.\n */\n' >"$t/cache/cache.h"
	printf 'char *cache_path(const char *site, const char *name);\n\nchar *cache_path(const char *site, const char *name)\n{\n\treturn (void)site, (char *)name;\n}\n' >"$t/cache/cache.c"
	printf '/* files.h: the reader.\n * uses: nothing.\n */\n' >"$t/files/files.h"
}

# rules NAME: runs the check of tree NAME: $rc, $out.
rules() {
	$RULES --src "$TMP/$1" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	out=$(cat "$TMP/out")
	err=$(cat "$TMP/err")
}

# says TEXT: the check's output holds TEXT.
says() {
	printf '%s\n' "$out" | grep -qF -- "$1"
}

tree clean
rules clean
check "a tree that keeps the rules passes" test "$rc" -eq 0
check "and says nothing" test -z "$out"

# uses: an include of a folder not listed
tree inc
printf '#include "lo/lo.h"\n#include "hi/hi.h"\n' >"$TMP/inc/lo/up.c"
rules inc
check "uses: an include upward fails" test "$rc" -eq 1
check "uses: at its file and line" says "$TMP/inc/lo/up.c:2: uses: lo includes hi/hi.h: lo may not use hi (lo uses: nothing)"

# uses: a call without the include, into a folder not listed
tree call
printf 'int hi_three(void);\n\nint lo_up(void)\n{\n\treturn hi_three();\n}\n' >"$TMP/call/lo/up.c"
rules call
check "uses: a call upward fails" test "$rc" -eq 1
check "uses: the call's line" says "$TMP/call/lo/up.c:5: uses: lo calls hi_three() of hi/hi.c: lo may not use hi"

# a static function of the same name is the file's own, not a call out
tree own
printf 'static int hi_three(void)\n{\n\treturn 3;\n}\n\nint lo_own(void)\n{\n\treturn hi_three();\n}\n' >"$TMP/own/lo/own.c"
rules own
check "uses: a file's own static function is not a call out" test "$rc" -eq 0

# uses: the folders' own list with a loop, and a folder that says nothing
tree decl
printf '/* lo.h: the lowest.\n * uses: hi.\n */\n' >"$TMP/decl/lo/lo.h"
rules decl
check "uses: folders that use each other fail" test "$rc" -eq 1
check "uses: the loop is named" says "the folders use each other in a loop"
tree silent
printf '/* mid.h: the middle. */\nint mid_two(void);\n' >"$TMP/silent/mid/mid.h"
rules silent
check "uses: a folder that does not say what it uses fails" says "folder mid does not say which folders it may use"
tree nofolder
printf '/* mid.h: the middle.\n * uses: lo, nowhere.\n */\n' >"$TMP/nofolder/mid/mid.h"
rules nofolder
check "uses: a folder that is not there fails" says "folder mid uses 'nowhere', which is not a folder"

# loop: two files of different folders that call each other
tree loop
printf '#include "hi/hi.h"\n\nint mid_back(void)\n{\n\treturn hi_three();\n}\n' >"$TMP/loop/mid/back.c"
printf '#include "mid/mid.h"\nint mid_back(void);\n\nint hi_four(void)\n{\n\treturn mid_back();\n}\n' >>"$TMP/loop/hi/hi.c"
rules loop
check "loop: files that call each other across folders fail" test "$rc" -eq 1
check "loop: the files are named" says "loop: files of different folders call each other in a loop: hi/hi.c, mid/back.c"

# threads: pthread_create outside base/pool.c
tree threads
printf '#include <pthread.h>\n\nvoid mid_go(pthread_t *t, void *(*fn)(void *))\n{\n\t(void)pthread_create(t, 0, fn, 0);\n}\n' >"$TMP/threads/mid/go.c"
rules threads
check "threads: pthread_create outside the pool fails" test "$rc" -eq 1
check "threads: at its line" says "$TMP/threads/mid/go.c:5: threads: pthread_create outside base/pool.c"
check "threads: base/pool.c may" test "$(printf '%s\n' "$out" | grep -c "^$TMP/threads/base/")" -eq 0

# reads: a file opened outside the reader
tree reads
printf '#include <stdio.h>\n\nvoid *mid_open(const char *p)\n{\n\treturn fopen(p, "r");\n}\n' >"$TMP/reads/mid/open.c"
rules reads
check "reads: a file opened outside files/ fails" test "$rc" -eq 1
check "reads: at its line" says "$TMP/reads/mid/open.c:5: reads: fopen() opens a file outside the site's reader"
tree reads2
printf '#include <stdio.h>\n\nvoid *files_open(const char *p)\n{\n\treturn fopen(p, "r");\n}\n' >"$TMP/reads2/files/open.c"
rules reads2
check "reads: files/ may" test "$rc" -eq 0

# processes: a child started outside output/folder.c and deploy/run.c
tree procs
mkdir -p "$TMP/procs/deploy"
printf '/* deploy.h: publishing.\n * uses: lo.\n */\n' >"$TMP/procs/deploy/deploy.h"
printf '#include <spawn.h>\n\nint deploy_go(pid_t *p, char **argv, char **env)\n{\n\treturn posix_spawnp(p, argv[0], 0, 0, argv, env);\n}\n' >"$TMP/procs/deploy/run.c"
printf '#include <stdlib.h>\n\nint mid_sh(const char *c)\n{\n\treturn system(c);\n}\n' >"$TMP/procs/mid/sh.c"
rules procs
check "processes: system() outside deploy/run.c fails" test "$rc" -eq 1
check "processes: at its line" says "$TMP/procs/mid/sh.c:5: processes: system() starts a process outside output/folder.c and deploy/run.c"
check "processes: deploy/run.c may" test "$(printf '%s\n' "$out" | grep -c "^$TMP/procs/deploy/")" -eq 0

# writes: a file written outside output/, cache/ and base/file.c
tree writes
printf '#include <stdio.h>\n\nint mid_move(const char *a, const char *b)\n{\n\treturn rename(a, b);\n}\n' >"$TMP/writes/mid/move.c"
printf '#include <fcntl.h>\n\nint files_new(const char *p)\n{\n\treturn open(p, O_WRONLY | O_CREAT, 0644);\n}\n' >"$TMP/writes/files/new.c"
rules writes
check "writes: a rename outside output/ fails" says "$TMP/writes/mid/move.c:5: writes: rename() changes the file system"
check "writes: an open to write fails even in the reader" says "$TMP/writes/files/new.c:5: writes: open() opens a file to write"
check "writes: base/file.c may" test "$(printf '%s\n' "$out" | grep -c "^$TMP/writes/base/")" -eq 0

# cache: a cache file named outside cache/
tree cache
printf 'char *cache_path(const char *site, const char *name);\n\nchar *mid_pack(const char *s)\n{\n\treturn cache_path(s, "mid.pack");\n}\n\nconst char *mid_dir = "site/.folio-cache";\n' >"$TMP/cache/mid/pack.c"
rules cache
check "cache: a name given to a cache function fails" says "$TMP/cache/mid/pack.c:5: cache: cache_path() is given the cache file name \"mid.pack\""
check "cache: the cache folder named fails" says "$TMP/cache/mid/pack.c:8: cache: the cache folder named outside cache/"

# tables: a hash table probed by hand
tree tables
printf 'struct t {\n\tconst char **k;\n\tunsigned long cap;\n};\n\nunsigned long mid_slot(const struct t *t, unsigned long h)\n{\n\tunsigned long j = h & (t->cap - 1);\n\twhile (t->k[j])\n\t\tj = (j + 1) & (t->cap - 1);\n\treturn j;\n}\n' >"$TMP/tables/mid/table.c"
rules tables
check "tables: a probe loop outside base/ fails" says "$TMP/tables/mid/table.c:8: tables: a hash table probed by hand"

# length: a function over 120 lines, unless the comment above it says
# it is one state machine or dispatch switch
long_fn() {
	printf '%s\nint %s(int c)\n{\n\tint n = 0;\n' "$2" "$3" >>"$1"
	i=0
	while [ $i -lt 130 ]; do
		printf '\tn += c;\n' >>"$1"
		i=$((i + 1))
	done
	printf '\treturn n;\n}\n' >>"$1"
}
tree length
long_fn "$TMP/length/mid/long.c" "/* mid_long: adds c, a line at a time. */" mid_long
long_fn "$TMP/length/mid/long.c" "/* mid_machine: one state machine over the bytes (said here, and why). */" mid_machine
rules length
check "length: a function over 120 lines fails" says "$TMP/length/mid/long.c:2: length: mid_long() is 135 lines"
check "length: a state machine said above it may" test "$(printf '%s\n' "$out" | grep -c mid_machine)" -eq 0

# comments and strings are not code
tree quiet
printf '/* pthread_create(t, 0, fn, 0) and rename(a, b) are not called here */\nconst char *mid_doc = "fopen(p, \\"w\\") and hi_three()";\n' >"$TMP/quiet/mid/doc.c"
rules quiet
check "comments and strings are not code" test "$rc" -eq 0

# folio's own tree keeps every rule
$RULES --src "$(dirname "$0")/../../src" >"$TMP/out" 2>&1
rc=$?
out=$(cat "$TMP/out")
check "src/ keeps src/README's rules" test "$rc" -eq 0

finish

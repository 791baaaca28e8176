# test_kill.sh: a build killed with SIGKILL at any moment leaves the output
# folder holding the whole old site or the whole new one, and the next
# build succeeds with the whole new site and no staging folder left.
#
# Two ways to kill: FOLIO_KILL_AT=POINT:N (folio kills itself the Nth time
# it passes POINT: the staging folder made, files written, the swap, the
# old site's removal; see folio(1), ENVIRONMENT), and kill -9 after a
# random delay. Every kill is checked against reference copies of the two
# sites: two titles, so that every page differs.
. "$(dirname "$0")/lib.sh"

SITE=$TMP/site
OUT=$TMP/public
# under the sanitizers or valgrind a build is several times slower: a
# smaller site
case $FOLIO in *asan*) : "${KILL_POSTS:=80}" ;; esac
[ -n "${FOLIO_VALGRIND:-}" ] && : "${KILL_POSTS:=80}"
mkdir -p "$SITE/content/posts"
printf 'title: "Old Title"\nbase_url: "https://example.org/"\n' >"$SITE/folio.yml"
awk -v dir="$SITE/content/posts" -v n="${KILL_POSTS:-200}" 'BEGIN {
	for (i = 1; i <= n; i++) {
		f = sprintf("%s/post-%04d.md", dir, i)
		printf "---\ntitle: \"Post %d\"\ndate: 2025-%02d-%02d\ntags: [t%d, t%d]\n---\n", i, i % 12 + 1, i % 28 + 1, i % 20, i % 7 > f
		for (k = 0; k < 6; k++)
			printf "Paragraph %d of post %d, with some words to render.\n\n", k, i > f
		close(f)
	}
}'

# manifest DIR: one checksum of every file's path and bytes (the marker
# aside); "none" when DIR does not exist.
manifest() {
	[ -d "$1" ] || { echo none; return; }
	(cd "$1" && find . -type f ! -name .folio-output -print0 | sort -z | xargs -0 -r cksum) | cksum
}
set_title() { sed -i "s/^title: .*/title: \"$1\"/" "$SITE/folio.yml"; }
# leftovers: staging or set-aside folders beside OUT (the spare, the next
# build's staging folder, aside: spare_ok checks it)
leftovers() { find "$TMP" -maxdepth 1 -name '.public.folio-*' ! -name '*.folio-spare' | wc -l; }

set_title "New Title"
run build "$SITE" -o "$TMP/ref-new"
check "the new site builds" test "$rc" -eq 0
new=$(manifest "$TMP/ref-new")
# (the search index's files are named by their bytes, which a new title
# does not change: those are linked from the last build, not written)
files=$(find "$TMP/ref-new" -type f ! -name .folio-output ! -path '*/search/[dft]/*' | wc -l)
set_title "Old Title"
run build "$SITE" -o "$TMP/ref-old"
old=$(manifest "$TMP/ref-old")
check "the two titles give two different sites" test "$old" != "$new"
rm -rf "$TMP/ref-new" "$TMP/ref-old"

# OUT holds the site titled $cur; a build of the other title is killed.
run build "$SITE" -o "$OUT"
check "the old site builds into OUT" test "$(manifest "$OUT")" = "$old"
cur=Old
kills=0

# other: the title that is not $cur, and its reference manifest in $want_new;
# $want_old is $cur's.
flip() {
	if [ "$cur" = Old ]; then
		other=New want_old=$old want_new=$new
	else
		other=Old want_old=$new want_new=$old
	fi
}

# after_kill NAME: the next normal build of $other must succeed, give the
# whole site, and leave nothing beside OUT.
after_kill() {
	run build "$SITE" -o "$OUT"
	check "$1: the next build succeeds" test "$rc" -eq 0
	check "$1: the next build gives the whole new site" test "$(manifest "$OUT")" = "$want_new"
	check "$1: the next build leaves no staging folder" test "$(leftovers)" -eq 0
	check "$1: OUT carries the marker" test -f "$OUT/.folio-output"
	cur=$other
}

# kill_at POINT:N EXPECT [ENV]: a build of the other title killed at POINT:N;
# OUT must then be the old site (EXPECT old) or the new one (new).
kill_at() {
	flip
	set_title "$other Title"
	env ${3:-} FOLIO_KILL_AT="$1" "$FOLIO" build "$SITE" -o "$OUT" -j 2 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	out="" err=$(cat "$TMP/err")
	kills=$((kills + 1))
	what="killed at $1${3:+ ($3)}"
	check "$what: the build was killed there" test "$rc" -eq 137
	now=$(manifest "$OUT")
	if [ "$2" = old ]; then
		check "$what: OUT is the whole old site" test "$now" = "$want_old"
	else
		check "$what: OUT is the whole new site" test "$now" = "$want_new"
	fi
	after_kill "$what"
}

# Before the swap: the old site stays. (The first kill is of a build that
# makes its staging folder anew; from the second on, each build takes the
# spare, the site that the one before it swapped out: staging is then the
# spare renamed to the staging folder, marker the spare checked.)
kill_at staging:1 old
check "a build that swapped a site out keeps it as the spare" test -f "$TMP/.public.folio-spare/.folio-output"
kill_at staging:1 old
kill_at marker:1 old
kill_at write:1 old
kill_at write:$((files / 2)) old
kill_at write:"$files" old
kill_at link:1 old
kill_at link:3 old
kill_at recycle:1 old
kill_at commit:1 old
# After the swap (one rename(2) with RENAME_EXCHANGE): the new site.
kill_at swap:1 new
kill_at spare:1 new
kill_at removed:1 new
kill_at done:1 new
# without a spare, the old site is deleted
kill_at remove:1 new FOLIO_NO_SPARE=1
kill_at remove:$((files / 3)) new FOLIO_NO_SPARE=1

# Where the file system has no RENAME_EXCHANGE (forced here), the swap is
# two renames: the old site is moved aside, then the new one in. Killed
# before or after, OUT is one whole site.
kill_at commit:1 old FOLIO_NO_EXCHANGE=1
kill_at spare:1 new FOLIO_NO_EXCHANGE=1
kill_at remove:1 new "FOLIO_NO_EXCHANGE=1 FOLIO_NO_SPARE=1"
kill_at removed:1 new FOLIO_NO_EXCHANGE=1
# Killed between the two, there is no OUT for that moment, only the old
# site aside, whole; the next build puts it back before anything else.
flip
set_title "$other Title"
FOLIO_NO_EXCHANGE=1 FOLIO_KILL_AT=aside:1 "$FOLIO" build "$SITE" -o "$OUT" >"$TMP/out" 2>"$TMP/err"
rc=$?
kills=$((kills + 1))
check "killed between the two renames: the build was killed there" test "$rc" -eq 137
aside=$(find "$TMP" -maxdepth 1 -name '.public.folio-old-*' | head -1)
check "killed between the two renames: the old site is whole, aside" test -n "$aside" -a "$(manifest "$aside")" = "$want_old"
# the next build: the old site back first, then the new one in its place
run build "$SITE" -o "$OUT"
check "killed between the two renames: the next build says it put the old site back" contains "$err" \
	"$OUT: warning: a build was killed while it swapped the site in; the site it replaced is back"
after_kill "killed between the two renames"

# Killed at every step of the old site's removal (each file, each folder,
# then the marker, then the folder itself; FOLIO_NO_SPARE: deleted, not
# kept as the spare), with both ways to swap: OUT is the new site, and the
# next build deletes what is left of the old one. A small site of its own,
# so that every step is tried.
SMALL=$TMP/small
SOUT=$TMP/small-out
mkdir -p "$SMALL/content/posts"
printf 'title: "A"\nbase_url: "https://example.org/"\n' >"$SMALL/folio.yml"
for i in 1 2 3; do
	printf -- '---\ntitle: "Post %d"\ndate: 2025-01-0%d\ntags: [t%d]\n---\nText %d.\n' $i $i $i $i >"$SMALL/content/posts/p$i.md"
done
small_title() { sed -i "s/^title: .*/title: \"$1\"/" "$SMALL/folio.yml"; }
for t in A B; do
	small_title "$t"
	run build "$SMALL" -o "$TMP/small-$t"
	eval "small_$t=\$(manifest \"\$TMP/small-$t\")"
done
steps=$(find "$TMP/small-A" | wc -l)
rm -rf "$TMP/small-A" "$TMP/small-B"
run build "$SMALL" -o "$SOUT" # B
small_cur=B
stride=1
[ -n "${FOLIO_VALGRIND:-}" ] && stride=4
k=1
while [ "$k" -le "$steps" ]; do
	for extra in "" FOLIO_NO_EXCHANGE=1; do
		if [ "$small_cur" = A ]; then small_next=B; else small_next=A; fi
		small_title "$small_next"
		env FOLIO_NO_SPARE=1 $extra FOLIO_KILL_AT=remove:$k "$FOLIO" build "$SMALL" -o "$SOUT" >/dev/null 2>&1
		rc=$?
		kills=$((kills + 1))
		eval "want=\$small_$small_next"
		what="the old site's removal killed at step $k of $steps${extra:+ ($extra)}"
		check "$what: the build was killed there" test "$rc" -eq 137
		check "$what: OUT is the whole new site" test "$(manifest "$SOUT")" = "$want"
		small_cur=$small_next
		if [ "$small_cur" = A ]; then small_next=B; else small_next=A; fi
		small_title "$small_next"
		run build "$SMALL" -o "$SOUT"
		eval "want=\$small_$small_next"
		check "$what: the next build gives the whole new site" test "$rc" -eq 0 -a "$(manifest "$SOUT")" = "$want"
		check "$what: the next build leaves nothing of the old one" \
			test "$(find "$TMP" -maxdepth 1 -name '.small-out.folio-*' ! -name '*.folio-spare' | wc -l)" -eq 0
		small_cur=$small_next
	done
	k=$((k + stride))
done

# Killed while the spare is brought up to date: at each file of the spare
# that the new site does not have (a post gone), deleted. OUT is the old
# site; the next build gives the new one, without that post.
small_title A
printf -- '---\ntitle: "Post 4"\ndate: 2025-01-04\ntags: [t4]\n---\nText 4.\n' >"$SMALL/content/posts/p4.md"
run build "$SMALL" -o "$TMP/small-p4"
with_p4=$(manifest "$TMP/small-p4")
rm "$SMALL/content/posts/p4.md"
run build "$SMALL" -o "$TMP/small-ref"
without_p4=$(manifest "$TMP/small-ref")
# the files of the site with p4 that the one without it does not have
gone=$( (cd "$TMP/small-p4" && find . -type f | sort) >"$TMP/p4.list"
	(cd "$TMP/small-ref" && find . -type f | sort) | comm -23 "$TMP/p4.list" - | wc -l)
check "a post gone takes files with it" test "$gone" -ge 2
rm -rf "$TMP/small-p4" "$TMP/small-ref"
k=1
while [ "$k" -le "$gone" ]; do
	printf -- '---\ntitle: "Post 4"\ndate: 2025-01-04\ntags: [t4]\n---\nText 4.\n' >"$SMALL/content/posts/p4.md"
	small_title B
	run build "$SMALL" -o "$SOUT"
	small_title A
	run build "$SMALL" -o "$SOUT" # the spare: B's site, with p4
	check "tidy:$k: the spare is kept" test -d "$TMP/.small-out.folio-spare/posts/p4"
	rm "$SMALL/content/posts/p4.md"
	FOLIO_KILL_AT=tidy:$k "$FOLIO" build "$SMALL" -o "$SOUT" >/dev/null 2>&1
	rc=$?
	kills=$((kills + 1))
	check "killed at tidy:$k: the build was killed there" test "$rc" -eq 137
	check "killed at tidy:$k: OUT is the whole old site" test "$(manifest "$SOUT")" = "$with_p4"
	run build "$SMALL" -o "$SOUT"
	check "killed at tidy:$k: the next build gives the whole new site" test "$rc" -eq 0 -a "$(manifest "$SOUT")" = "$without_p4"
	check "killed at tidy:$k: no staging folder is left" \
		test "$(find "$TMP" -maxdepth 1 -name '.small-out.folio-*' ! -name '*.folio-spare' | wc -l)" -eq 0
	k=$((k + 1))
done

# The first build into a new folder, killed: no output, then a whole one.
rm -rf "$OUT"
flip
set_title "$other Title"
FOLIO_KILL_AT=write:5 "$FOLIO" build "$SITE" -o "$OUT" >/dev/null 2>&1
rc=$?
kills=$((kills + 1))
check "the first build killed: no OUT" test "$rc" -eq 137 -a ! -e "$OUT"
after_kill "the first build killed"

# Random moments: kill -9 after a delay between 0 and a build's time.
# KILL_SEED repeats a run; each run prints its seed.
t0=$(date +%s%N)
run build "$SITE" -o "$TMP/timed"
ms=$((($(date +%s%N) - t0) / 1000000))
rm -rf "$TMP/timed"
seed=${KILL_SEED:-$(date +%s)}
echo "note: random kills with KILL_SEED=$seed within ${ms} ms"
random_kills=0
for delay in $(awk -v s="$seed" -v ms="$ms" -v n="${KILL_RANDOM:-10}" 'BEGIN {
	srand(s); for (i = 0; i < n; i++) printf "%.3f\n", rand() * ms * 1.1 / 1000 }'); do
	flip
	set_title "$other Title"
	extra=
	[ $((random_kills % 4)) -eq 3 ] && extra=FOLIO_NO_EXCHANGE=1
	env $extra "$FOLIO" build "$SITE" -o "$OUT" -j 2 >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	kills=$((kills + 1))
	random_kills=$((random_kills + 1))
	now=$(manifest "$OUT")
	what="killed after $delay s${extra:+ ($extra)}"
	if [ "$now" = none ] && [ -n "$extra" ]; then
		# between the two renames: the old site is aside, whole
		aside=$(find "$TMP" -maxdepth 1 -name '.public.folio-old-*' | head -1)
		check "$what: the old site is whole, aside" test -n "$aside" -a "$(manifest "$aside")" = "$want_old"
	else
		check "$what: OUT is one whole site, old or new" test "$now" = "$want_old" -o "$now" = "$want_new"
	fi
	after_kill "$what"
done

echo "note: $kills builds killed"
finish

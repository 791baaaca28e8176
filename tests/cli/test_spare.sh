# test_spare.sh: the spare (the site a build swapped out, kept beside the
# output as .OUT.folio-spare and taken by the next build as its staging
# folder): after every build, OUT holds exactly the files of a build made
# from nothing, byte for byte, whatever was done by hand to what folio
# wrote in the output before; what it did not write there is never moved
# or deleted; folio check leaves nothing; FOLIO_NO_SPARE keeps none.
. "$(dirname "$0")/lib.sh"

SITE=$TMP/site
OUT=$TMP/public
SPARE=$TMP/.public.folio-spare
mkdir -p "$SITE/content/posts" "$SITE/static/img"
printf 'title: "Spare"\nbase_url: "https://example.org/"\n' >"$SITE/folio.yml"
post() {
	printf -- '---\ntitle: "Post %s"\ndate: 2025-01-%02d\ntags: [%s]\n---\n%s\n' "$1" "$2" "$3" "$4" \
		>"$SITE/content/posts/$1.md"
}
for i in 1 2 3 4 5 6; do post "p$i" "$i" "t$((i % 3))" "Text of post $i."; done
printf 'a picture\n' >"$SITE/static/img/a.png"

# same_as_cold NAME: OUT is, byte for byte, a build of the site from
# nothing (its own cache and output), and nothing but the spare is left
# beside it.
n=0
same_as_cold() {
	n=$((n + 1))
	rm -rf "$TMP/cold-site" "$TMP/cold"
	cp -r "$SITE" "$TMP/cold-site"
	rm -rf "$TMP/cold-site/.folio-cache"
	"$FOLIO" build "$TMP/cold-site" -o "$TMP/cold" >/dev/null 2>&1
	check "$1: the build succeeds" test "$rc" -eq 0
	out=$(diff -r "$OUT" "$TMP/cold" 2>&1 | head -5) # shown if it fails
	check "$1: OUT is a cold build, byte for byte" diff -r "$OUT" "$TMP/cold"
	check "$1: nothing but the spare beside OUT" \
		test "$(find "$TMP" -maxdepth 1 -name '.public.folio-*' ! -name '*.folio-spare' | wc -l)" -eq 0
}

run build "$SITE" -o "$OUT"
same_as_cold "the first build"
check "the first build: no spare (nothing was swapped out)" test ! -e "$SPARE"
post p1 1 t1 "Text of post 1, edited."
run build "$SITE" -o "$OUT"
same_as_cold "an edit"
check "an edit: the site swapped out is the spare" test -f "$SPARE/.folio-output" -a -f "$SPARE/posts/p1/index.html"
check "an edit: the spare has the old page" grep -q "Text of post 1\\.<" "$SPARE/posts/p1/index.html"
ino() { stat -c %i "$1"; }
check "an edit: an unchanged page is one file, linked" test "$(ino "$OUT/posts/p2/index.html")" = "$(ino "$SPARE/posts/p2/index.html")"

# builds that take the spare: edits, a post added, one removed, a tag
# gone, a static file replaced by a folder of the same name
post p1 1 t1 "Text of post 1, edited twice."
was=$(ino "$SPARE")
run build "$SITE" -o "$OUT"
same_as_cold "a second edit, through the spare"
check "a second edit: the spare is the new output" test "$(ino "$OUT")" = "$was"
post p7 7 t9 "A new post with a new tag."
run build "$SITE" -o "$OUT"
same_as_cold "a post added"
rm "$SITE/content/posts/p4.md" "$SITE/content/posts/p7.md"
run build "$SITE" -o "$OUT"
same_as_cold "two posts and a tag gone"
rm "$SITE/static/img/a.png"
printf 'now in a folder\n' >"$SITE/static/img/a.png.txt"
mkdir -p "$SITE/static/img/a.png"
printf 'inside\n' >"$SITE/static/img/a.png/b.txt"
run build "$SITE" -o "$OUT"
same_as_cold "a file become a folder"
rm -rf "$SITE/static/img/a.png"
printf 'a file again\n' >"$SITE/static/img/a.png"
run build "$SITE" -o "$OUT"
same_as_cold "a folder become a file"

# By hand in the output, between two builds, to what folio wrote: a page
# edited in place (the same file as the spare's: a hard link), a page
# deleted, a folder emptied. The next build swaps that output out, the one
# after takes it as its staging folder: none of it may reach a new output.
for round in 1 2; do
	printf 'added to a page\n' >>"$OUT/posts/p2/index.html"
	rm "$OUT/posts/p3/index.html"
	rm -f "$OUT/tags/t0/"*
	post p5 5 t2 "Text of post 5, round $round."
	run build "$SITE" -o "$OUT"
	same_as_cold "edited by hand, round $round: the next build"
	check "edited by hand, round $round: the output edited is the spare" grep -q "added to a page" "$SPARE/posts/p2/index.html"
	post p6 6 t0 "Text of post 6, round $round."
	was=$(ino "$SPARE")
	run build "$SITE" -o "$OUT"
	same_as_cold "edited by hand, round $round: the build that takes it"
	check "edited by hand, round $round: it was taken, cleaned, not made anew" test "$(ino "$OUT")" = "$was"
done

# What folio did not write, added by hand to the output (a file, one in a
# new folder, one beside a page, a link): each build is refused, across
# several builds and edits, and none of it is ever moved, changed or
# deleted, nor the spare; once removed by hand, the builds go on.
printf 'mine\n' >"$OUT/extra.txt"
mkdir -p "$OUT/mine/deep"
printf 'mine too\n' >"$OUT/mine/deep/file.txt"
printf 'beside a page\n' >"$OUT/posts/p2/notes.txt"
ln -s / "$OUT/posts/root"
# foreign: the added things, as they are (each file's inode and bytes)
foreign() {
	(cd "$OUT" && for f in extra.txt mine/deep/file.txt posts/p2/notes.txt; do
		printf '%s %s ' "$f" "$(stat -c %i "$f")"
		cat "$f"
	done && readlink posts/root)
}
mine=$(foreign)
spare_was=$(cd "$SPARE" && find . | sort | cksum)
for round in 1 2 3; do
	post p5 5 t2 "Text of post 5, foreign round $round."
	run build "$SITE" -o "$OUT"
	check "foreign, round $round: refused" test "$rc" -eq 1
	check "foreign, round $round: named" contains "$err" "$OUT: error: refusing to write the site here: it holds 3 files and 1 folder that folio did not write (extra.txt, mine/, posts/p2/notes.txt, posts/root)"
	check "foreign, round $round: untouched" test "$(foreign)" = "$mine"
	check "foreign, round $round: the spare as it was" test "$(cd "$SPARE" && find . | sort | cksum)" = "$spare_was"
	check "foreign, round $round: nothing but the spare beside OUT" \
		test "$(find "$TMP" -maxdepth 1 -name '.public.folio-*' ! -name '*.folio-spare' | wc -l)" -eq 0
done
FOLIO_NO_EXCHANGE=1 run build "$SITE" -o "$OUT"
check "foreign, swapping with two renames: refused, untouched" test "$rc" -eq 1 -a "$(foreign)" = "$mine"
rm -r "$OUT/extra.txt" "$OUT/mine" "$OUT/posts/p2/notes.txt" "$OUT/posts/root"
run build "$SITE" -o "$OUT"
same_as_cold "foreign things removed by hand"

# a spare edited by hand, and one whose folder is replaced
printf 'in the spare\n' >"$SPARE/extra.txt"
printf 'added\n' >>"$SPARE/index.html"
post p5 5 t2 "Text of post 5, once more."
run build "$SITE" -o "$OUT"
same_as_cold "the spare edited by hand"
# (another folder, which may have the inode number of the spare it
# replaced, where the file system gives freed numbers again)
for marker in 'x\n' 'This folder was written by folio; each build replaces it whole.\n'; do
	rm -rf "$SPARE"
	mkdir -p "$SPARE/posts" "$SPARE/tags/t1"
	printf "$marker" >"$SPARE/.folio-output"
	printf 'not the site\n' >"$SPARE/posts/index.html"
	printf 'not the site\n' >"$SPARE/tags/t1/index.html"
	post p5 5 t2 "Text of post 5, and again: $marker."
	run build "$SITE" -o "$OUT"
	same_as_cold "another folder as the spare ($marker)"
	check "another folder as the spare ($marker): it is not kept" test ! -e "$SPARE/posts/index.html"
done

# the state of the spare gone (a cache deleted): folio no longer knows
# what it wrote in OUT, and refuses it; OUT removed by hand, the spare is
# deleted
rm -rf "$SITE/.folio-cache"
post p5 5 t2 "Text of post 5, a cache gone."
run build "$SITE" -o "$OUT"
check "the cache deleted: OUT refused (no record)" test "$rc" -eq 1 -a -f "$OUT/posts/p1/index.html"
rm -rf "$OUT"
run build "$SITE" -o "$OUT"
same_as_cold "the cache deleted, OUT removed"
check "the cache deleted, OUT removed: the spare is not taken" test ! -e "$SPARE"

# two builds at once into OUT: one takes the spare, the other makes its
# staging folder anew; OUT is then one of the two sites, whole
post p5 5 t2 "Text of post 5, at once."
run build "$SITE" -o "$OUT"
"$FOLIO" build "$SITE" -o "$OUT" >/dev/null 2>&1 &
pid=$!
"$FOLIO" build "$SITE" -o "$OUT" --future >/dev/null 2>&1
rc2=$?
wait "$pid"
rc=$?
check "two builds at once: both succeed" test "$rc" -eq 0 -a "$rc2" -eq 0
run build "$SITE" -o "$OUT"
same_as_cold "after two builds at once"

# folio check: a scratch folder, nothing kept beside it
before=$(ls -a "$TMP" | tr '\n' ' ')
run check "$SITE"
check "folio check: nothing left beside the outputs" test "$(ls -a "$TMP" | tr '\n' ' ')" = "$before"

# FOLIO_NO_SPARE: none kept, none taken
rm -rf "$SPARE"
post p5 5 t2 "Text of post 5, no spare."
FOLIO_NO_SPARE=1 run build "$SITE" -o "$OUT"
same_as_cold "FOLIO_NO_SPARE"
check "FOLIO_NO_SPARE: no spare is kept" test ! -e "$SPARE"
finish

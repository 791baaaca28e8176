# test_uptodate.sh: a build that finds nothing changed keeps the output as
# it is, and any change a build could see makes it build again: a post
# edited, a file added or deleted, a static file, a template, folio.yml,
# the options, the output edited, added to or deleted from by hand, a
# future post come due. A file touched or saved again with the same bytes
# is no change; a build that warned says its warnings again when it keeps
# the output.
. "$(dirname "$0")/lib.sh"

# 2026-11-06, after the example blog's last post, so that no link of it
# leads to a post still to come (a warning, and a build that warned builds again)
export SOURCE_DATE_EPOCH=1794000000
site=$TMP/site
cp -r examples/techblog "$site"
rm -rf "$site/public" "$site/.folio-cache"
pub=$site/public
post=$site/content/posts/gpu-systems-05-coalescing-shared-memory-and-reduction-patterns.md
kept="nothing changed, the output was kept"

# fresh NAME: a full build into a folder of its own equals $pub
fresh() {
	rm -rf "$TMP/fresh" "$TMP/fresh-site"
	cp -r "$site" "$TMP/fresh-site"
	rm -rf "$TMP/fresh-site/public" "$TMP/fresh-site/.folio-cache"
	"$FOLIO" build "$TMP/fresh-site" -o "$TMP/fresh" $opts >/dev/null 2>&1
	d=$(diff -r -x .folio-output "$pub" "$TMP/fresh" 2>&1 | head -5)
	out=$d
	check "$1: the output is that of a full build" test -z "$d"
}

# counts: what the last build's closing line counted
counts() { echo "$out" | sed -n 's/^folio: \(built [0-9]* pages\? ([0-9]* posts\?, [0-9]* files\?)\).*/\1/p'; }

# builds NAME: a build that must do the work
builds() {
	run build "$site" $opts
	check "$1: the build succeeds" test "$rc" -eq 0
	check "$1: it is not taken as unchanged" test -n "$(echo "$out" | grep -v "$kept")"
	last=$(counts)
	fresh "$1"
}

# keeps NAME: a build that must find nothing to do
keeps() {
	before=$(find "$pub" -type f -exec stat -c '%n %i %Y' {} + | sort | cksum)
	run build "$site" $opts
	check "$1: the build succeeds" test "$rc" -eq 0
	check "$1: it says nothing changed" contains "$out" "; $kept"
	check "$1: the pages are counted as the last real build did" test "$(counts)" = "$last"
	after=$(find "$pub" -type f -exec stat -c '%n %i %Y' {} + | sort | cksum)
	check "$1: no file of the output was touched" test "$before" = "$after"
}

opts=
run build "$site"
last=$(counts)
check "the first build succeeds" test "$rc" -eq 0
check "the first build is a real one" test -z "$(echo "$out" | grep "$kept")"
check "it keeps the state beside the manifest" test -n "$(ls "$site/.folio-cache" | grep '^uptodate-')"
keeps "nothing changed"
keeps "nothing changed, again"

touch "$post"
keeps "a post touched (its bytes the same)"
keeps "after a post was touched"
cp -p "$post" "$TMP/saved" && rm "$post" && cp "$TMP/saved" "$post"
keeps "a post saved again with the same bytes (another inode)"
touch "$site/folio.yml" "$site/static/favicon.svg" 2>/dev/null || touch "$site/folio.yml"
keeps "folio.yml and a static file touched"

printf '\nOne more paragraph.\n' >>"$post"
builds "a post edited"
check "the edit is in the output" grep -q "One more paragraph." "$pub/posts/gpu-systems-05-coalescing-shared-memory-and-reduction-patterns/index.html"
keeps "after an edit"
cp "$TMP/saved" "$post"
builds "the edit taken back (the bytes of two builds ago)"
check "the edit is gone" sh -c "! grep -q 'One more paragraph.' '$pub/posts/gpu-systems-05-coalescing-shared-memory-and-reduction-patterns/index.html'"
printf '\nOne more paragraph.\n' >>"$post"
builds "a post edited again"
# the same size, the same time: a stamp that cannot tell is not trusted
# to be the same bytes unless they are read
sed -i 's/One more paragraph\./One more Paragraph./' "$post"
touch -r "$TMP/saved" "$post"
builds "an edit of the same size, its time set back"
check "that edit is in the output" grep -q "One more Paragraph." "$pub/posts/gpu-systems-05-coalescing-shared-memory-and-reduction-patterns/index.html"

printf -- '---\ntitle: "A new post"\ndate: 2024-01-01\n---\nNew.\n' >"$site/content/posts/a-copy.md"
builds "a post added"
check "the new post is in the output" test -d "$pub/posts/a-copy"
rm "$site/content/posts/a-copy.md"
builds "a post deleted"
check "the deleted post is gone" test ! -e "$pub/posts/a-copy"

mkdir -p "$site/static/extra"
echo "hello" >"$site/static/extra/hello.txt"
builds "a static file added"
check "the static file is in the output" test -f "$pub/extra/hello.txt"
echo "hello again" >"$site/static/extra/hello.txt"
builds "a static file edited"
keeps "after static files"

echo "editor state" >"$site/static/.hidden"
keeps "a dot file added (folio skips them)"
rm "$site/static/.hidden"

mkdir -p "$site/templates"
printf '{%% extends "base.html" %%}{%% block content %%}<p>about override</p>{%% endblock %%}\n' >"$site/templates/page.html"
builds "a template added"
rm "$site/templates/page.html"
builds "a template removed"

printf '\n# a comment\n' >>"$site/folio.yml"
builds "folio.yml edited"
keeps "after folio.yml"

opts=--drafts
builds "--drafts given"
opts=
builds "--drafts no longer given"
keeps "the same options again"

echo "by hand" >"$pub/index.html"
builds "an output file edited by hand"
# a file that folio did not write is never deleted: the build is refused
# (folio(1), THE OUTPUT FOLDER), and once it is removed nothing changed
echo "stray" >"$pub/stray.txt"
run build "$site" $opts
check "a file added to the output by hand: refused, not taken as unchanged" test "$rc" -eq 1
check "a file added to the output by hand: named" contains "$err" "public: error: refusing to write the site here: it holds 1 file that folio did not write (stray.txt)"
check "the stray file is kept" test "$(cat "$pub/stray.txt")" = stray
rm "$pub/stray.txt"
keeps "the stray file removed by hand"
# deep in the output: the check of a build with nothing to do reads only
# the folders changed since the build (their change times), so these
# must change one
deep=$(dirname "$(find "$pub/posts" -mindepth 2 -name index.html | sort | head -1)")
echo "stray" >"$deep/stray.txt"
run build "$site" $opts
check "a file added deep in the output: refused, not taken as unchanged" test "$rc" -eq 1
check "a file added deep in the output: named" contains "$err" "${deep#"$pub/"}/stray.txt"
rm "$deep/stray.txt"
keeps "the deep stray file removed by hand"
mkdir "$deep/empty"
run build "$site" $opts
check "an empty folder added deep in the output: refused" test "$rc" -eq 1
check "an empty folder added deep in the output: named" contains "$err" "${deep#"$pub/"}/empty/"
rmdir "$deep/empty"
keeps "the empty folder removed"
# the same bytes, size and time in another file (an editor's save by
# rename): its inode differs
cp -p "$deep/index.html" "$TMP/page" && mv "$TMP/page" "$deep/index.html"
builds "an output file replaced by another with the same bytes and time"
printf 'x' | dd of="$deep/index.html" bs=1 seek=0 conv=notrunc status=none
touch -r "$pub/index.html" "$deep/index.html"
builds "an output file written in place"
rm "$pub/about/index.html" 2>/dev/null || rm "$(find "$pub" -name index.html | tail -1)"
builds "an output file deleted by hand"
rm -rf "$pub"
builds "the output deleted"
keeps "after the output was made again"

# a post dated after the clock is left out until the clock reaches it
# (2026-11-07)
cat >"$site/content/posts/from-the-future.md" <<'MD'
---
title: "From the future"
date: 2026-11-07T00:00:00Z
---
Not yet.
MD
run build "$site"
check "a future post is left out" test ! -e "$pub/posts/from-the-future"
run build "$site"
check "while it is still future, nothing changed" contains "$out" "$kept"
SOURCE_DATE_EPOCH=1794006000
run build "$site"
check "an hour before it, still nothing changed" contains "$out" "$kept"
SOURCE_DATE_EPOCH=1794010000
run build "$site"
check "once the clock reaches it, the build is a real one" test -z "$(echo "$out" | grep "$kept")"
check "and the post is in" test -d "$pub/posts/from-the-future"
rm "$site/content/posts/from-the-future.md"
run build "$site"
last=$(counts)

# a build that warned warns again
mkdir -p "$site/content/posts/empty-bundle"
run build "$site"
check "a build with a warning succeeds" test "$rc" -eq 0
check "it warns" contains "$err" "without index.md"
first_err=$err
run build "$site"
check "the next build warns again" contains "$err" "without index.md"
check "with the same words" test "$err" = "$first_err"
check "and keeps the output" contains "$out" "with warnings; $kept"
touch "$site/folio.yml"
run build "$site"
check "touched, it still warns" test "$err" = "$first_err"
rmdir "$site/content/posts/empty-bundle"
run build "$site"
check "the cause gone: a real build" test -z "$(echo "$out" | grep "$kept")"
check "without the warning" test -z "$err"
last=$(counts)

# another output folder has its own state
run build "$site" -o "$TMP/other"
check "a build into another folder is a real one" test -z "$(echo "$out" | grep "$kept")"
run build "$site" -o "$TMP/other"
check "and then nothing changed there" contains "$out" "$kept"

# a damaged state is no state
for f in "$site"/.folio-cache/uptodate-*; do echo "garbage" >"$f"; done
run build "$site"
check "a damaged state: a real build" test "$rc" -eq 0
check "a damaged state is not trusted" test -z "$(echo "$out" | grep "$kept")"
keeps "after a damaged state"

# a file changed while a build runs: the build took the old bytes or the
# new, and says nothing of which; the next build is a real one, and its
# output is a full build's. FOLIO_PAUSE_AT holds the build just before
# its swap (the content long read) while the test edits another post,
# one the build did not even read (its bytes were the last build's).
other=$site/content/posts/gpu-systems-04-memory-hierarchy-registers-shared-global.md
[ -f "$other" ] || other=$(ls "$site"/content/posts/*.md | head -2 | tail -1)
printf '\nA line before the pause.\n' >>"$post"
pause=$TMP/pause
rm -f "$pause" "$pause.reached"
: >"$pause"
FOLIO_PAUSE_AT=commit FOLIO_PAUSE_FILE="$pause" "$FOLIO" build "$site" >"$TMP/paused.out" 2>&1 &
bpid=$!
i=0
while [ ! -f "$pause.reached" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
check "a paused build reaches its pause" test -f "$pause.reached"
printf '\nA sentence written while the build ran.\n' >>"$other"
rm -f "$pause"
wait $bpid
rc=$?
out=$(cat "$TMP/paused.out")
check "the paused build succeeds" test "$rc" -eq 0
builds "a post edited while a build ran"
check "... the edit is in the output" grep -rq "A sentence written while the build ran" "$pub"
keeps "after the build that saw it"

# the state of the 8 output folders built last is kept, no more
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$FOLIO" build "$site" -o "$TMP/many-$i" >/dev/null 2>&1
done
groups=$(ls "$site/.folio-cache" | sed -n 's/^\(output\|pages\|uptodate\)-//p' | sort -u | wc -l)
check "the cache keeps the state of 8 output folders" test "$groups" -eq 8
run build "$site" -o "$TMP/many-10"
check "the folder built last still finds nothing changed" contains "$out" "$kept"
run build "$site" -o "$TMP/many-1"
check "one built long ago builds again" test -z "$(echo "$out" | grep "$kept")"
cmp_out=$(diff -r "$TMP/many-1" "$TMP/many-10" 2>&1 | head -3)
out=$cmp_out
check "and gives the same site" test -z "$cmp_out"

finish

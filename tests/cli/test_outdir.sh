# test_outdir.sh: the folders `folio build -o` refuses to replace (the
# site, its sources, its cache, their parents, the home folder, /, a
# folder folio did not make), each refused with an explanation and exit 1
# before the site is even read, with nothing deleted or added; and the
# folders it takes (a new one, an empty one, its own); its own holding
# what folio did not write (added by hand, a nested output), refused,
# named, and left alone, before the build and during it.
. "$(dirname "$0")/lib.sh"

SITE=$TMP/site
cp -r tests/sites/bundle/site "$SITE"
mkdir -p "$SITE/templates" "$SITE/static/img" "$SITE/data"
echo "css" >"$SITE/static/style.css"
echo "x: 1" >"$SITE/data/x.yml"

# tree DIR: a checksum of every path (folders and links too) and every
# file's bytes below DIR, to tell that nothing changed (lib.sh's out and
# err files aside)
tree() {
	(cd "$1" && {
		find . ! -path ./out ! -path ./err -print | sort
		find . -type f ! -path ./out ! -path ./err -print0 | sort -z | xargs -0 -r cksum
	}) | cksum
}
# leftovers: staging folders anywhere in TMP (the spare, the next build's
# staging folder, aside)
leftovers() { find "$TMP" -name '.*.folio-*' ! -name '*.folio-spare' | wc -l; }

# refused WHY OUT [SITE]: the build into OUT is refused because WHY, and
# nothing in TMP changes
refused() {
	why=$1 o=$2 s=${3:-$SITE}
	before=$(tree "$TMP")
	run build "$s" -o "$o"
	check "-o $o: refused with exit 1" test "$rc" -eq 1
	check "-o $o: says why" contains "$err" "$o: error: refusing to write the site here: $why"
	check "-o $o: says nothing was written" contains "$err" "folio: 1 error; nothing was written"
	check "-o $o: nothing changed" test "$(tree "$TMP")" = "$before"
	check "-o $o: no staging folder" test "$(leftovers)" -eq 0
}
hint="; choose another folder with -o"

refused "it is the site folder or contains it$hint" "$SITE"
refused "it is the site folder or contains it$hint" "$SITE/."
refused "it is the site folder or contains it$hint" "$SITE/content/.."
refused "it is the site folder or contains it$hint" "$TMP"
refused "it is the root folder$hint" /
for d in content templates static data; do
	refused "it is inside the site's sources ($d/)$hint" "$SITE/$d"
done
refused "it is inside the site's sources (content/)$hint" "$SITE/content/posts"
refused "it is inside the site's sources (static/)$hint" "$SITE/static/img/out"
mkdir -p "$SITE/.folio-cache"
refused "it is inside the site's cache folder .folio-cache/$hint" "$SITE/.folio-cache"
# relative paths, from inside the site
FOLIO_ABS=$(cd "$(dirname "$FOLIO")" && pwd)/$(basename "$FOLIO")
(cd "$SITE" && "$FOLIO_ABS" build -o . >"$TMP/out" 2>"$TMP/err")
rc=$?
err=$(cat "$TMP/err")
check "-o . in the site: refused" test "$rc" -eq 1
check "-o . in the site: says why" contains "$err" ".: error: refusing to write the site here: it is the site folder or contains it$hint"
(cd "$SITE" && "$FOLIO_ABS" build -o content >"$TMP/out" 2>"$TMP/err")
rc=$?
err=$(cat "$TMP/err")
check "-o content in the site: refused" test "$rc" -eq 1 -a -n "$(echo "$err" | grep -F "content: error: refusing to write the site here: it is inside the site's sources (content/)")"

# a link to the site, and a site whose content/ is a link to another folder
ln -s "$SITE" "$TMP/link-to-site"
refused "it is the site folder or contains it$hint" "$TMP/link-to-site"
rm "$TMP/link-to-site"
mkdir -p "$TMP/shared"
mv "$SITE/content" "$TMP/shared/content"
ln -s "$TMP/shared/content" "$SITE/content"
refused "it is inside the site's sources (content/)$hint" "$TMP/shared/content/out"
refused "it contains the site's content/ folder ($TMP/shared/content)$hint" "$TMP/shared"
run build "$SITE" -o "$TMP/out-linked"
# a content/ elsewhere is outside the site (folio-site(5), FILES FROM OUTSIDE THE SITE)
check "a site whose content/ is linked from elsewhere is refused" test "$rc" -eq 1 -a ! -e "$TMP/out-linked"
check "and says where content/ leads" contains "$err" "content: error: symlink points outside the site (to $(cd "$TMP/shared/content" && pwd -P))"
rm -rf "$TMP/out-linked" "$SITE/content"
mv "$TMP/shared/content" "$SITE/content"
rmdir "$TMP/shared"

# the home folder and a parent of it, and folders like it: files that are
# not a folio output
mkdir -p "$TMP/home/user/Documents"
echo "years of work" >"$TMP/home/user/Documents/thesis.tex"
echo "export PATH" >"$TMP/home/user/.profile"
HOME=$TMP/home/user
export HOME
refused "it is your home folder$hint" "$TMP/home/user"
refused "it contains your home folder$hint" "$TMP/home"
unset HOME
not_folio="it is not empty and was not made by folio (no .folio-output file in it); choose another folder with -o, or empty it yourself"
refused "$not_folio" "$TMP/home/user"
refused "$not_folio" "$TMP/home/user/Documents"
mkdir -p "$TMP/dotfiles-only"
echo x >"$TMP/dotfiles-only/.git"
refused "$not_folio" "$TMP/dotfiles-only"
echo "a file" >"$TMP/a-file"
refused "it exists and is not a folder$hint" "$TMP/a-file"
rm -rf "$TMP/home" "$TMP/dotfiles-only" "$TMP/a-file"

# a .folio-output that is not the file folio writes (a folder, a link to
# folio's marker, a named pipe, which would also block a reader) does not
# make a folder folio's
for kind in folder link pipe; do
	mkdir -p "$TMP/impostor"
	echo "years of work" >"$TMP/impostor/thesis.tex"
	case $kind in
	folder) mkdir "$TMP/impostor/.folio-output" ;;
	link)
		echo "This folder was written by folio." >"$TMP/marker"
		ln -s "$TMP/marker" "$TMP/impostor/.folio-output"
		;;
	pipe) mkfifo "$TMP/impostor/.folio-output" ;;
	esac
	refused "$not_folio" "$TMP/impostor"
	rm -rf "$TMP/impostor" "$TMP/marker"
done

# refused before the site is read: a site with errors gets the refusal
cp -r "$SITE" "$TMP/broken"
echo "titel: x" >>"$TMP/broken/folio.yml"
refused "it is the site folder or contains it$hint" "$TMP/broken" "$TMP/broken"
check "a broken site: only the refusal is reported" test "$(echo "$err" | grep -c 'error:')" -eq 1
rm -rf "$TMP/broken"

# taken: a new folder, an empty one, and folio's own (again and again)
run build "$SITE" -o "$TMP/new"
check "a new folder is taken" test "$rc" -eq 0 -a -f "$TMP/new/.folio-output"
mkdir "$TMP/empty"
run build "$SITE" -o "$TMP/empty"
check "an empty folder is taken" test "$rc" -eq 0 -a -f "$TMP/empty/index.html"
run build "$SITE" -o "$TMP/empty"
check "folio's own folder is replaced" test "$rc" -eq 0
run build "$SITE" -o "$TMP/empty/"
check "and with a trailing slash" test "$rc" -eq 0
check "no staging folder is left" test "$(leftovers)" -eq 0
rm -rf "$TMP/new" "$TMP/empty"
run build "$SITE"
check "the default SITE/public is taken" test "$rc" -eq 0 -a -f "$SITE/public/index.html"

# the newcomer's case, with the default output SITE/public, built from
# inside the site as folio(1) shows it: a file added by hand to public/,
# then another site built into public/sub. Each build after is refused,
# naming them, and none of them is moved or deleted, whatever the number
# of builds (the spare beside public/ is not where they go)
echo "my notes" >"$SITE/public/notes.txt"
for round in 1 2 3; do
	(cd "$SITE" && "$FOLIO_ABS" build >"$TMP/out" 2>"$TMP/err")
	rc=$?
	err=$(cat "$TMP/err")
	check "public/ with a file added by hand, build $round: refused" test "$rc" -eq 1
	check "public/ with a file added by hand, build $round: the message of folio(1)" test "$err" = "public: error: refusing to write the site here: it holds 1 file that folio did not write (notes.txt); move it to the site's static/ folder to publish it with every build, build elsewhere with -o, or remove it
folio: 1 error; nothing was written"
	check "public/ with a file added by hand, build $round: the file is where it was" test "$(cat "$SITE/public/notes.txt")" = "my notes"
	check "public/ with a file added by hand, build $round: not in the spare" test ! -e "$SITE/.public.folio-spare/notes.txt"
done
mv "$SITE/public/notes.txt" "$SITE/static/notes.txt"
run build "$SITE"
check "the file moved to static/: built, and published" test "$rc" -eq 0 -a "$(cat "$SITE/public/notes.txt")" = "my notes"
rm "$SITE/static/notes.txt"
run build "$SITE" -o "$SITE/public/sub"
check "a build into public/sub, inside folio's public/: taken (a new folder)" test "$rc" -eq 0 -a -f "$SITE/public/sub/index.html"
for round in 1 2; do
	run build "$SITE"
	check "public/sub, build $round of public/: refused, naming it" contains "$err" "$SITE/public: error: refusing to write the site here: it holds 1 folder that folio did not write (sub/); move it to the site's static/ folder to publish it with every build, build elsewhere with -o, or remove it"
	check "public/sub, build $round of public/: left as it was" test "$rc" -eq 1 -a -f "$SITE/public/sub/index.html" -a -f "$SITE/public/sub/.folio-output"
done
rm -rf "$SITE/public/sub"
run build "$SITE"
check "public/sub removed by hand: public/ is taken again" test "$rc" -eq 0

# ---- folio's own folder, holding what folio did not write: refused ----
# folio knows what it wrote in OUT from its record in the site's
# .folio-cache; whatever else is there (a file or a folder added by hand,
# another build's output inside it) is named, at most five, and nothing in
# OUT or beside it changes (folio(1), THE OUTPUT FOLDER)
OUT=$TMP/own
run build "$SITE" -o "$OUT"
check "a first build into OUT" test "$rc" -eq 0
# owned WHAT NAMES [TAIL]: the next build into OUT is refused, naming NAMES
# (with TAIL: more than five), and OUT and what is beside it stay as they are
owned() {
	what=$1 names=$2 them=${3:-them}
	before=$(tree "$TMP")
	ino=$(stat -c %i "$OUT")
	run build "$SITE" -o "$OUT"
	check "$what: refused with exit 1" test "$rc" -eq 1
	check "$what: named" contains "$err" "$OUT: error: refusing to write the site here: it holds $names; move $them to the site's static/ folder to publish $them with every build, build elsewhere with -o, or remove $them"
	check "$what: one error, nothing written" contains "$err" "folio: 1 error; nothing was written"
	check "$what: nothing changed" test "$(tree "$TMP")" = "$before"
	check "$what: OUT is the same folder" test "$(stat -c %i "$OUT")" = "$ino"
	check "$what: nothing beside OUT" test "$(leftovers)" -eq 0
}
echo "my notes" >"$OUT/notes.txt"
owned "a file added by hand" "1 file that folio did not write (notes.txt)" it
mkdir -p "$OUT/drafts/old"
echo "a draft" >"$OUT/drafts/old/a.md"
echo "my page" >"$OUT/posts/mine.html"
owned "a folder added by hand" "2 files and 1 folder that folio did not write (drafts/, notes.txt, posts/mine.html)"
for i in 1 2 3 4 5 6 7; do echo "$i" >"$OUT/extra-$i.txt"; done
owned "ten things added" "9 files and 1 folder that folio did not write (drafts/, extra-1.txt, extra-2.txt, extra-3.txt, extra-4.txt and 5 more)"
ln -s / "$OUT/root"
rm "$OUT/notes.txt" "$OUT/posts/mine.html" "$OUT"/extra-*.txt
rm -rf "$OUT/drafts"
owned "a link" "1 file that folio did not write (root)" it
rm "$OUT/root"
run build "$SITE" -o "$OUT"
check "what was added, removed by hand: OUT is taken again" test "$rc" -eq 0
# a nested output: another site built into OUT/sub (twice, so that its
# spare is beside it, inside OUT), which the build into OUT must not take
run build "$SITE" -o "$OUT/sub"
run build "$SITE" -o "$OUT/sub" --drafts
check "a build into OUT/sub" test "$rc" -eq 0 -a -d "$OUT/.sub.folio-spare"
sub=$(cd "$OUT/sub" && find . -type f | sort | xargs cksum | cksum)
owned "a nested output" "2 folders that folio did not write (.sub.folio-spare/, sub/)"
run build "$SITE" -o "$OUT/sub" --drafts
check "the nested output still builds" test "$rc" -eq 0 -a "$(cd "$OUT/sub" && find . -type f | sort | xargs cksum | cksum)" = "$sub"
rm -rf "$OUT/sub" "$OUT/.sub.folio-spare"
run build "$SITE" -o "$OUT"
check "the nested output moved away: OUT is taken again" test "$rc" -eq 0
# a page folio wrote, edited or deleted by hand, is still folio's: the
# next build replaces it
echo "edited" >>"$OUT/index.html"
rm "$OUT/404.html"
run build "$SITE" -o "$OUT"
check "a page edited and one deleted by hand: built" test "$rc" -eq 0 -a -f "$OUT/404.html"
check "... the edit is gone" not_contains "$(cat "$OUT/index.html")" "edited"
# no record of what folio wrote (the cache deleted): refused as a whole,
# unless OUT holds nothing but its marker
mv "$SITE/.folio-cache" "$TMP/cache.saved"
before=$(tree "$TMP")
run build "$SITE" -o "$OUT"
check "no record: refused" test "$rc" -eq 1
check "no record: says why and what to do" contains "$err" "$OUT: error: refusing to write the site here: folio has no record of the files it wrote there (another site was built there, or this site's .folio-cache/ was deleted or keeps only the last 8 output folders), so it cannot tell them from files of yours; remove the folder yourself if nothing in it is yours, or build elsewhere with -o"
check "no record: nothing changed" test "$(tree "$TMP")" = "$before"
# another site's output: this site has no record of it either
cp -r "$SITE" "$TMP/other-site"
rm -rf "$TMP/other-site/.folio-cache" "$TMP/other-site/public"
was=$(tree "$OUT")
run build "$TMP/other-site" -o "$OUT"
check "another site's output: refused, no record" contains "$err" "$OUT: error: refusing to write the site here: folio has no record of the files it wrote there (another site was built there,"
check "another site's output: nothing changed" test "$rc" -eq 1 -a "$(tree "$OUT")" = "$was"
rm -rf "$TMP/other-site"
find "$OUT" -mindepth 1 ! -name .folio-output -delete
run build "$SITE" -o "$OUT"
check "no record, only the marker: taken" test "$rc" -eq 0 -a -f "$OUT/index.html"
rm -rf "$SITE/.folio-cache"
mv "$TMP/cache.saved" "$SITE/.folio-cache"

# added while a build runs (held just before its swap): the build swaps
# the old site out, finds it, and puts it back as it was
pause=$TMP/pause
: >"$pause"
FOLIO_PAUSE_AT=commit FOLIO_PAUSE_FILE="$pause" "$FOLIO" build "$SITE" -o "$OUT" >"$TMP/out" 2>"$TMP/err" &
bpid=$!
i=0
while [ ! -f "$pause.reached" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
check "a paused build reaches its pause" test -f "$pause.reached"
echo "written during the build" >"$OUT/during.txt"
ino=$(stat -c %i "$OUT")
rm -f "$pause"
wait $bpid
rc=$?
err=$(cat "$TMP/err")
check "added during the build: refused" test "$rc" -eq 1
check "added during the build: named" contains "$err" "$OUT: error: refusing to write the site here: it holds 1 file that folio did not write (during.txt)"
check "added during the build: the old site is back, as it was" test "$(stat -c %i "$OUT")" = "$ino" -a -f "$OUT/during.txt"
check "added during the build: nothing beside OUT" test "$(leftovers)" -eq 0
rm "$OUT/during.txt" "$pause.reached"
run build "$SITE" -o "$OUT"
check "and, once it is removed, the next build takes OUT" test "$rc" -eq 0
rm -rf "$OUT" "$TMP/.own.folio-spare"

finish

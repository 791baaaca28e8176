# test_outdir.sh: the folders `folio build -o` refuses to replace (the
# site, its sources, its cache, their parents, the home folder, /, a
# folder folio did not make), each refused with an explanation and exit 1
# before the site is even read, with nothing deleted or added; and the
# folders it takes (a new one, an empty one, its own).
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

finish

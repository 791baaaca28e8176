# test_symlinks.sh: every file folio reads or copies is inside the site
# folder, after links (folio-site(5), FILES FROM OUTSIDE THE SITE). A link
# out of the site (in static/, content/, templates/, data/, a bundle, a
# file an image or a directive names, folio.yml itself) is an error that
# names the link and its target, and what it points to is never copied nor
# printed; a circle of links or a link to nothing is an error too, never a
# hang; a link inside the site is followed. folio serve answers 404 for
# what leads out of its folder.
. "$(dirname "$0")/lib.sh"
ws=${WAIT_SCALE:-1}
export SOURCE_DATE_EPOCH=1794000000

cleanup() {
	stop_serve
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

SITE=$TMP/site
cp -r examples/techblog "$SITE"
rm -rf "$SITE/.folio-cache" "$SITE/public"
mkdir -p "$SITE/templates" "$SITE/data"
# the secret: outside the site, a first line that must never show
mkdir -p "$TMP/outside/dir"
printf 'SECRET-LINE-1 root:x:0:0\nSECRET-LINE-2\n' >"$TMP/outside/secret"
printf 'SECRET-LINE-1 in a folder\n' >"$TMP/outside/dir/file.txt"
SECRET=$(cd "$TMP/outside" && pwd -P)/secret
OUTDIR=$(cd "$TMP/outside/dir" && pwd -P)
OUT=$TMP/public
BUNDLE=$SITE/content/posts/gpu-systems-02-the-thread-warp-and-block-execution-model

# build_in SECONDS: folio build of SITE into OUT, stopped after SECONDS
# (exit 124: it hung)
build_in() {
	timeout "$1" "$FOLIO" build "$SITE" -o "$OUT" >"$TMP/build.out" 2>"$TMP/build.err"
	rc=$?
	out=$(cat "$TMP/build.out")
	err=$(cat "$TMP/build.err")
}

# refused NAME LINK TARGET: a build with the link LINK (site-relative) to
# TARGET fails: exit 1, the error names the link and where it leads, with
# a hint, nothing is written and the secret shows nowhere
refused() {
	case_=$1 link=$2 target=$3 # not name: check sets it
	rm -rf "$OUT"
	build_in $((10 * ws))
	check "$case_: exit 1" test "$rc" -eq 1
	check "$case_: the error names the link and its target" has_line "$err" "$link: error: symlink points outside the site (to $target)"
	check "$case_: with a hint" has_line "$err" "$link: note: hint: "
	check "$case_: nothing is written" test ! -e "$OUT"
	check "$case_: the secret is never printed" sh -c "! grep -q SECRET '$TMP/build.out' '$TMP/build.err'"
}

run build "$SITE" -o "$OUT"
check "the site builds as it is" test "$rc" -eq 0
rm -rf "$OUT"

# static/: a file, a folder
ln -s "$TMP/outside/secret" "$SITE/static/passwd"
refused "a static file linked out" "static/passwd" "$SECRET"
rm "$SITE/static/passwd"
ln -s "$TMP/outside/dir" "$SITE/static/etc"
refused "a static folder linked out" "static/etc" "$OUTDIR"
rm "$SITE/static/etc"
ln -s /etc "$SITE/static/etc"
build_in $((10 * ws))
check "static/etc -> /etc: refused, the disk not copied" test "$rc" -eq 1 -a ! -e "$OUT"
check "static/etc -> /etc: says so" has_line "$err" "static/etc: error: symlink points outside the site (to /etc)"
rm "$SITE/static/etc"

# content/: a post file, a post bundle's folder, its index.md
ln -s "$TMP/outside/secret" "$SITE/content/posts/leak.md"
refused "a post linked out" "content/posts/leak.md" "$SECRET"
rm "$SITE/content/posts/leak.md"
ln -s "$TMP/outside/dir" "$SITE/content/posts/leak"
refused "a post folder linked out" "content/posts/leak" "$OUTDIR"
rm "$SITE/content/posts/leak"
mkdir "$SITE/content/posts/leak"
ln -s "$TMP/outside/secret" "$SITE/content/posts/leak/index.md"
refused "a bundle's index.md linked out" "content/posts/leak/index.md" "$SECRET"
rm -r "$SITE/content/posts/leak"
ln -s "$TMP/outside/secret" "$SITE/content/pages/leak.md"
refused "a page linked out" "content/pages/leak.md" "$SECRET"
rm "$SITE/content/pages/leak.md"

# a bundle's file, copied beside the post
ln -s "$TMP/outside/secret" "$BUNDLE/leak.txt"
refused "a bundle's file linked out" "${BUNDLE#"$SITE/"}/leak.txt" "$SECRET"
rm "$BUNDLE/leak.txt"

# a file a directive names (:::model3d src=), and an image
mv "$BUNDLE/sm.glb" "$TMP/outside/sm.glb"
ln -s "$TMP/outside/sm.glb" "$BUNDLE/sm.glb"
rm -rf "$OUT"
build_in $((10 * ws))
check "a model's src linked out: exit 1" test "$rc" -eq 1 -a ! -e "$OUT"
check "a model's src linked out: said where the post names it" contains "$err" "index.md:16:12: error: :::model3d src 'sm.glb': symlink points outside the site (to $(cd "$TMP/outside" && pwd -P)/sm.glb)"
rm "$BUNDLE/sm.glb"
mv "$TMP/outside/sm.glb" "$BUNDLE/sm.glb"
cp "$BUNDLE/index.md" "$TMP/index.md"
printf '\n![a secret](/secret.png)\n' >>"$BUNDLE/index.md"
ln -s "$TMP/outside/secret" "$SITE/static/secret.png"
build_in $((10 * ws))
check "an image linked out: exit 1" test "$rc" -eq 1 -a ! -e "$OUT"
check "an image linked out: says so" contains "$err" "error: image '/secret.png': symlink points outside the site (to $SECRET)"
check "an image linked out: the secret is never printed" sh -c "! grep -q SECRET '$TMP/build.err'"
rm "$SITE/static/secret.png"
cp "$TMP/index.md" "$BUNDLE/index.md"

# templates/, and a folder of them
ln -s "$TMP/outside/secret" "$SITE/templates/post.html"
refused "a template linked out" "templates/post.html" "$SECRET"
rm "$SITE/templates/post.html"
ln -s "$TMP/outside/dir" "$SITE/templates/partials"
refused "a template folder linked out" "templates/partials" "$OUTDIR"
rm "$SITE/templates/partials"

# data/ files, and folio.yml itself
ln -s "$TMP/outside/secret" "$SITE/data/leak.yml"
refused "a data file linked out" "data/leak.yml" "$SECRET"
rm "$SITE/data/leak.yml"
mv "$SITE/folio.yml" "$TMP/outside/folio.yml"
ln -s "$TMP/outside/folio.yml" "$SITE/folio.yml"
refused "folio.yml linked out" "folio.yml" "$(cd "$TMP/outside" && pwd -P)/folio.yml"
rm "$SITE/folio.yml"
mv "$TMP/outside/folio.yml" "$SITE/folio.yml"

# a site folder linked out as a whole
mv "$SITE/data" "$TMP/outside/data"
ln -s "$TMP/outside/data" "$SITE/data"
refused "data/ linked out" "data" "$(cd "$TMP/outside" && pwd -P)/data"
rm "$SITE/data"
mv "$TMP/outside/data" "$SITE/data"

# circles of links and links to nothing: errors, quickly
ln -s loop-b "$SITE/static/loop-a"
ln -s loop-a "$SITE/static/loop-b"
rm -rf "$OUT"
build_in $((10 * ws))
check "a circle of links: the build ends" test "$rc" -ne 124
check "a circle of links: exit 1" test "$rc" -eq 1 -a ! -e "$OUT"
check "a circle of links: says so" has_line "$err" "static/loop-a: error: symlink in a circle of links, which leads to no file"
rm "$SITE/static/loop-a" "$SITE/static/loop-b"
ln -s .. "$SITE/static/parent"
build_in $((10 * ws))
check "a folder linked to its parent: the build ends" test "$rc" -ne 124
check "a folder linked to its parent: exit 1" test "$rc" -eq 1 -a ! -e "$OUT"
check "a folder linked to its parent: says so" has_line "$err" "static/parent: error: symlink to '$(cd "$SITE" && pwd -P)', a folder that holds it: following it would never end"
rm "$SITE/static/parent"
ln -s . "$SITE/templates/self"
build_in $((10 * ws))
check "a template folder linked to itself: the build ends" test "$rc" -ne 124
check "a template folder linked to itself: exit 1" test "$rc" -eq 1
check "a template folder linked to itself: says so" contains "$err" "templates/self: error: symlink to "
rm "$SITE/templates/self"
ln -s self.md "$SITE/content/posts/self.md"
build_in $((10 * ws))
check "a post in a circle of links: exit 1, quickly" test "$rc" -eq 1
check "a post in a circle of links: says so" contains "$err" "content/posts/self.md: error: symlink in a circle of links"
rm "$SITE/content/posts/self.md"
ln -s nowhere.css "$SITE/static/dangling.css"
build_in $((10 * ws))
check "a link to nothing: exit 1" test "$rc" -eq 1 -a ! -e "$OUT"
check "a link to nothing: says so" contains "$err" "static/dangling.css: error: symlink to 'nowhere.css', which does not exist"
rm "$SITE/static/dangling.css"
ln -s "$TMP/outside/gone.yml" "$SITE/data/gone.yml"
build_in $((10 * ws))
check "a data file linked to nothing: exit 1" test "$rc" -eq 1
check "a data file linked to nothing: says so" contains "$err" "data/gone.yml: error: symlink to '$TMP/outside/gone.yml', which does not exist"
rm "$SITE/data/gone.yml"

# links inside the site: followed, their content published
mkdir -p "$SITE/shared"
echo "inside-content" >"$SITE/shared/notice.txt"
ln -s ../shared/notice.txt "$SITE/static/notice.txt"
ln -s ../shared "$SITE/static/shared"
ln -s ../../../static/notice.txt "$BUNDLE/notice.txt"
# a post, a template and a directive's file, each a link to a file kept
# in another folder of the site
mkdir -p "$SITE/parts"
printf -- '---\ntitle: "Linked in"\ndate: 2026-01-06\n---\nPOST-FROM-PARTS\n' >"$SITE/parts/linked.md"
ln -s ../../parts/linked.md "$SITE/content/posts/linked-in.md"
printf '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>x</title></head><body>TEMPLATE-FROM-PARTS</body></html>\n' \
	>"$SITE/parts/404.html"
ln -s ../parts/404.html "$SITE/templates/404.html"
mv "$BUNDLE/sm.glb" "$SITE/parts/sm.glb"
ln -s ../../../parts/sm.glb "$BUNDLE/sm.glb"
rm -rf "$OUT"
build_in $((10 * ws))
check "links inside the site: the build succeeds" test "$rc" -eq 0
check "a linked post inside: published" grep -q POST-FROM-PARTS "$OUT/posts/linked-in/index.html"
check "a linked template inside: used" grep -q TEMPLATE-FROM-PARTS "$OUT/404.html"
check "a directive's linked file inside: published" cmp -s "$SITE/parts/sm.glb" "$OUT/posts/$(basename "$BUNDLE")/sm.glb"
check "a linked file inside: published" test "$(cat "$OUT/notice.txt" 2>/dev/null)" = inside-content
check "a linked folder inside: published" test "$(cat "$OUT/shared/notice.txt" 2>/dev/null)" = inside-content
check "a bundle's linked file inside: published" test "$(cat "$OUT/posts/$(basename "$BUNDLE")/notice.txt" 2>/dev/null)" = inside-content
check "the output holds files, no link" test "$(find "$OUT" -type l | wc -l)" -eq 0
rm "$SITE/content/posts/linked-in.md" "$SITE/templates/404.html" "$BUNDLE/sm.glb"
mv "$SITE/parts/sm.glb" "$BUNDLE/sm.glb"

# folio serve: the site's link out is refused by its build; a link out
# planted in the folder it serves is 404
if command -v curl >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	serve_start "$SITE"
	serve_wait
	check "serve: it starts and answers" test "$up" -eq 1
	r=$(curl -s -o /dev/null -w '%{http_code}' "$url/notice.txt")
	check "serve: a link inside the site is served ($r)" test "$r" = 200
	served=$(echo "$TMP"/folio-serve-*/site)
	ln -s "$TMP/outside/secret" "$served/planted.txt"
	ln -s "$TMP/outside/dir" "$served/planted"
	for t in /planted.txt /planted/file.txt /planted/; do
		r=$(curl -s --path-as-is -o "$TMP/body" --max-time 5 -w '%{http_code}' "$url$t")
		check "serve: $t, a link out of the served folder, is 404 ($r)" test "$r" = 404
		check "serve: $t leaks nothing" sh -c "! grep -q SECRET '$TMP/body'"
	done
	rm -f "$served/planted.txt" "$served/planted"
	ln -s "$TMP/outside/secret" "$SITE/static/passwd"
	r=""
	for _ in $(seq 1 $((100 * ws))); do
		grep -q "static/passwd: error: symlink points outside the site" "$TMP/serve.err" && break
		sleep 0.1
	done
	check "serve: a static link out is an error of the rebuild" contains "$(cat "$TMP/serve.err")" "static/passwd: error: symlink points outside the site (to $SECRET)"
	r=$(curl -s -o "$TMP/body" --max-time 5 -w '%{http_code}' "$url/passwd")
	check "serve: the linked file is 404 ($r)" test "$r" = 404
	check "serve: and leaks nothing" sh -c "! grep -q SECRET '$TMP/body' '$TMP/serve.err' '$TMP/serve.out'"
	stop_serve
	spid=""
	rm "$SITE/static/passwd"
fi

finish

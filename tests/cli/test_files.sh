# test_files.sh: what is not a plain file, wherever folio reads or copies
# one: named pipes (which never end, and whose open waits for a writer),
# sockets, devices, folders with a file's name, links to nothing, circles
# of links, and links to a folder that holds them (static/up -> ..), which
# would be copied without end. Each build must end within seconds: with an
# error where folio reads a file (folio.yml, content, data, templates, an
# image or a model it looks at), with a warning and the entry skipped where
# it copies a tree (static/, bundles) for what is not a file, with an
# error for a link that cannot be followed (test_symlinks.sh: links out of
# the site). folio's own cache files are read as missing. folio serve
# watches such a tree without following those links either.
. "$(dirname "$0")/lib.sh"
ws=${WAIT_SCALE:-1} # valgrind's runs wait longer

SITE=$TMP/site
cp -r tests/sites/bundle/site "$SITE"
rm -rf "$SITE/.folio-cache" "$SITE/public" # of other tests' builds
mkdir -p "$SITE/static" "$SITE/data" "$SITE/templates" "$SITE/content/pages" "$SITE/content/series"
echo "css" >"$SITE/static/extra.css"
NOT_FILE="not a regular file (a named pipe, a socket or a device: folio reads only files)"

# build_in SECONDS: folio build of SITE into TMP/public, stopped after SECONDS
# (exit 124: it hung)
build_in() {
	timeout "$1" "$FOLIO" build "$SITE" -o "$TMP/public" >"$TMP/build.out" 2>"$TMP/build.err"
	rc=$?
	out=$(cat "$TMP/build.out")
	err=$(cat "$TMP/build.err")
}

# socket PATH: a Unix socket bound at PATH, left behind by its process
socket() {
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$1"
}

run build "$SITE" -o "$TMP/public"
check "the site builds as it is" test "$rc" -eq 0

# refused PATH WHAT: with PATH made as WHAT (pipe, socket, zero, folder),
# the build ends at once with exit 1 and "REL: error: cannot read: ..."
refused() {
	p=$1 what=$2
	rel=${p#"$SITE"/}
	case $what in
	pipe) mkfifo "$p" ;;
	socket) socket "$p" ;;
	zero) ln -s /dev/zero "$p" ;;
	folder) mkdir "$p" ;;
	esac
	build_in $((20 * ws))
	check "$rel as a $what: the build ends (no hang)" test "$rc" -ne 124
	check "$rel as a $what: exit 1" test "$rc" -eq 1
	if [ "$what" = folder ]; then
		check "$rel as a $what: says why" contains "$err" "$rel: error: cannot read: Is a directory"
	elif [ "$what" = zero ]; then # a device outside the site: never opened
		check "$rel as a $what: says why" contains "$err" "$rel: error: symlink points outside the site (to /dev/zero)"
	else
		check "$rel as a $what: says why" contains "$err" "$rel: error: cannot read: $NOT_FILE"
	fi
	check "$rel as a $what: the last site stays" test -f "$TMP/public/index.html"
	rm -rf "$p"
}

refused "$SITE/content/posts/pipe.md" pipe
refused "$SITE/content/posts/socket.md" socket
refused "$SITE/content/posts/zero.md" zero
refused "$SITE/content/pages/pipe.md" pipe
refused "$SITE/content/pages/folder.md" folder
refused "$SITE/content/series/pipe.md" pipe
refused "$SITE/data/pipe.yml" pipe
refused "$SITE/templates/post.html" pipe
refused "$SITE/templates/zero.html" zero

# folio.yml: the message names the path it read
mv "$SITE/folio.yml" "$TMP/folio.yml"
mkfifo "$SITE/folio.yml"
build_in $((20 * ws))
check "folio.yml as a pipe: the build ends" test "$rc" -ne 124
check "folio.yml as a pipe: exit 1" test "$rc" -eq 1
check "folio.yml as a pipe: says why" contains "$err" "folio.yml: error: cannot read $SITE/folio.yml: $NOT_FILE"
rm "$SITE/folio.yml"
mv "$TMP/folio.yml" "$SITE/folio.yml"

# the site's folders: one that is missing is empty, but one that is there
# and cannot be read (a link to a drive not mounted, a file of that name,
# a circle of links) is an error, and the last site stays
folder_error() {
	rel=$1 what=$2 kind=$3 msg=$4
	mv "$SITE/$rel" "$TMP/moved" 2>/dev/null
	case $kind in
	dangling) ln -s "$TMP/not-mounted/$rel" "$SITE/$rel" ;;
	file) echo "not a folder" >"$SITE/$rel" ;;
	circle) ln -s "$(basename "$rel")" "$SITE/$rel" ;;
	esac
	build_in $((20 * ws))
	check "$rel as a $kind: exit 1" test "$rc" -eq 1
	check "$rel as a $kind: says why" contains "$err" "$rel: error: $msg: the build would leave out the site's $what"
	check "$rel as a $kind: the last site stays" test -f "$TMP/public/index.html" -a -f "$TMP/public/extra.css"
	rm -f "$SITE/$rel"
	mv "$TMP/moved" "$SITE/$rel" 2>/dev/null
}
for f in "content:posts, series and pages" "content/posts:posts" "content/series:series" "content/pages:pages" \
	"data:data files" "static:static files" "templates:templates"; do
	rel=${f%%:*} what=${f#*:}
	folder_error "$rel" "$what" dangling "a link to '$TMP/not-mounted/$rel', which does not exist"
	folder_error "$rel" "$what" file "not a folder"
done
folder_error static "static files" circle "a link in a circle of links"
check "content/ as a link to nothing, and static/: one error each, none for content's folders" test "$(
	mv "$SITE/content" "$TMP/moved"
	mv "$SITE/static" "$TMP/moved-static"
	ln -s "$TMP/nowhere" "$SITE/content"
	ln -s "$TMP/nowhere" "$SITE/static"
	"$FOLIO" build "$SITE" -o "$TMP/public" 2>&1 | grep -c 'error:'
	rm "$SITE/content" "$SITE/static"
	mv "$TMP/moved" "$SITE/content"
	mv "$TMP/moved-static" "$SITE/static"
)" -eq 2
run build "$SITE" -o "$TMP/public"
check "the site builds again" test "$rc" -eq 0

# images and a 3D model that are not files: errors at their place; a
# missing one is still "not found"
F=$SITE/content/posts/figures
mkdir -p "$F"
mkfifo "$F/pipe.png" "$F/pipe.glb" "$SITE/static/pipe.svg"
mkdir "$F/folder.png"
cat >"$F/index.md" <<'EOF'
---
title: "Figures"
date: 2026-02-11
---
![a pipe](pipe.png)

![a folder](folder.png)

![a pipe in static](/pipe.svg)

![gone](gone.png)

:::model3d{src="pipe.glb"}
:::
EOF
build_in $((20 * ws))
check "images that are not files: the build ends" test "$rc" -ne 124
check "images that are not files: exit 1" test "$rc" -eq 1
check "a pipe as an image: an error at the image" contains "$err" "content/posts/figures/index.md:5:11: error: image 'pipe.png' cannot be read: $NOT_FILE"
check "a folder as an image: an error at the image" contains "$err" "content/posts/figures/index.md:7:13: error: image 'folder.png' cannot be read: Is a directory"
check "a pipe in static/ as an image: an error at the image" contains "$err" "content/posts/figures/index.md:9:21: error: image '/pipe.svg' cannot be read: $NOT_FILE"
check "a missing image is not found" contains "$err" "content/posts/figures/index.md:11:9: error: image 'gone.png' not found (looked beside the post)"
check "a pipe as a model: an error at the directive" contains "$err" "content/posts/figures/index.md:13:12: error: :::model3d src 'pipe.glb' cannot be read: $NOT_FILE"
rm -rf "$F" "$SITE/static/pipe.svg"

# copied trees: a link that cannot be followed (to a folder that holds it,
# to nothing, in a circle, out of the site) is an error, and nothing is
# written; what is not a file is skipped with a warning; links to files
# and folders inside the site are followed
mkdir -p "$TMP/elsewhere/fonts" "$SITE/static/m" "$SITE/static/n" "$SITE/fonts"
echo "font" >"$TMP/elsewhere/fonts/a.woff2"
echo "font" >"$SITE/fonts/a.woff2"
echo "m" >"$SITE/static/m/m.txt"
echo "n" >"$SITE/static/n/n.txt"
ln -s .. "$SITE/static/up"
ln -s "$TMP" "$SITE/static/holder" # not /: a regression would copy the disk
ln -s . "$SITE/static/here"
ln -s self "$SITE/static/self"
ln -s nowhere "$SITE/static/dangling"
ln -s ../n "$SITE/static/m/to-n"
ln -s ../m "$SITE/static/n/to-m"
ln -s "$TMP/elsewhere/fonts" "$SITE/static/fonts"
ln -s extra.css "$SITE/static/same.css"
mkfifo "$SITE/static/pipe"
socket "$SITE/static/socket"
B=$SITE/content/posts/measuring-bandwidth
ln -s ../.. "$B/data/up" # in a bundle, to the posts
rm -rf "$TMP/public"
build_in $((20 * ws))
check "links in static/: the build ends" test "$rc" -ne 124
check "links in static/: the build fails" test "$rc" -eq 1
check "links in static/: nothing is written" test ! -e "$TMP/public"
holds="a folder that holds it: following it would never end"
check "a link to the site: an error" has_line "$err" "static/up: error: symlink to '$(cd "$SITE" && pwd -P)', $holds"
check "a link to a folder above the site: an error" has_line "$err" "static/holder: error: symlink points outside the site (to $(cd "$TMP" && pwd -P))"
check "a link to static/ itself: an error" has_line "$err" "static/here: error: symlink to 'static', $holds"
check "two folders linked to each other: an error" has_line "$err" "static/m/to-n/to-m: error: symlink to 'static/m', $holds"
check "a link to its bundle's posts: an error" has_line "$err" "content/posts/measuring-bandwidth/data/up: error: symlink to 'content/posts', $holds"
check "a circle of links: an error" has_line "$err" "static/self: error: symlink in a circle of links, which leads to no file"
check "a link to nothing: an error" has_line "$err" "static/dangling: error: symlink to 'nowhere', which does not exist"
check "a link out of the site: an error" has_line "$err" "static/fonts: error: symlink points outside the site (to $(cd "$TMP/elsewhere/fonts" && pwd -P))"
check "each error has its hint" test "$(printf '%s\n' "$err" | grep -c ': note: hint: ')" -eq "$(printf '%s\n' "$err" | grep -c ': error: ')"
check "a named pipe: a warning" has_line "$err" "static/pipe: warning: $NOT_FILE; not copied"
check "a socket: a warning" has_line "$err" "static/socket: warning: $NOT_FILE; not copied"
build_in $((20 * ws))
check "a second build, from the cache: the same errors" test "$rc" -eq 1 -a "$(printf '%s\n' "$err" | grep -c ': error: ')" -eq 9

rm "$SITE/static/up" "$SITE/static/holder" "$SITE/static/here" "$SITE/static/self" "$SITE/static/dangling" \
	"$SITE/static/n/to-m" "$SITE/static/fonts" "$B/data/up"
ln -s ../fonts "$SITE/static/fonts"
build_in $((20 * ws))
check "links inside the site: the build succeeds" test "$rc" -eq 0
check "only the pipe and the socket are warned of" test "$(printf '%s\n' "$err" | grep -c ': warning: ')" -eq 2
check "the build says it had warnings" contains "$out" "with warnings"
check "a linked file is copied" test "$(cat "$TMP/public/same.css" 2>/dev/null)" = css
check "a linked folder in the site is copied" test "$(cat "$TMP/public/fonts/a.woff2" 2>/dev/null)" = font
check "a linked sibling is copied" test "$(cat "$TMP/public/m/to-n/n.txt" 2>/dev/null)" = n
check "the bundle's files are still copied" test -f "$TMP/public/posts/measuring-bandwidth/data/runs.csv"
n=$(find "$TMP/public" | wc -l)
check "the output is the site, not the disk ($n entries)" test "$n" -lt 200
check "the output holds no link" test "$(find "$TMP/public" -type l | wc -l)" -eq 0

# a tree deeper than a path can name: the entry past the limit is skipped
# with a warning, never copied to a cut path
rm -rf "$TMP/public"
python3 -c '
import os, sys
os.chdir(sys.argv[1])
for i in range(250):
    os.mkdir("d%018d" % i)
    os.chdir("d%018d" % i)
open("leaf.txt", "w").write("leaf")
' "$SITE/static"
build_in $((20 * ws))
check "a deep tree: the build succeeds" test "$rc" -eq 0
check "a deep tree: one warning, at the entry past the limit" test "$(printf '%s\n' "$err" | grep -c "/d0*[0-9]*: warning: 'd0*[0-9]*' is not copied: its path would be longer than 4095 bytes$")" -eq 1
check "a deep tree: nothing at a cut path" test "$(find "$TMP/public" -name 'd*' | wc -l)" -le 204
rm -rf "$SITE/static/d000000000000000000"

# folio's own cache files as named pipes: read as missing, and replaced
n=0
for f in "$SITE"/.folio-cache/* "$SITE"/.folio-cache/math/*; do
	[ -f "$f" ] || continue
	rm "$f"
	mkfifo "$f"
	n=$((n + 1))
done
check "the cache has files ($n)" test "$n" -ge 3
# the record of what folio wrote in public/ is one of them: with no record,
# public/ is refused (folio(1), THE OUTPUT FOLDER) and must go first
build_in $((20 * ws))
check "a cache of named pipes: the output without its record is refused" contains "$err" "public: error: refusing to write the site here: folio has no record of the files it wrote there"
rm -rf "$TMP/public"
build_in $((20 * ws))
check "a cache of named pipes: the build ends" test "$rc" -ne 124
check "a cache of named pipes: the build succeeds" test "$rc" -eq 0
left=$(find "$SITE/.folio-cache" -type p | wc -l)
check "the cache files are files again ($left pipes left)" test "$left" -eq 0

# folio serve: it watches the site without following the links to the
# folders that hold it, and serves what the build copied
trap 'stop_serve; rm -rf "$TMP"' EXIT
serve_start "$SITE"
serve_wait
check "serve: it starts and answers" test "$up" -eq 1
r=$(curl -s "$url/fonts/a.woff2")
check "serve: the linked folder is served" test "$r" = font
watches=0
for f in /proc/"$spid"/fdinfo/*; do
	k=$(grep -c '^inotify' "$f" 2>/dev/null)
	[ "${k:-0}" -gt "$watches" ] && watches=$k
done
out=$watches
check "serve: it watches the site's folders, not the disk ($watches)" test "$watches" -gt 0 -a "$watches" -lt 40
echo "changed" >"$SITE/fonts/a.woff2"
got=""
for _ in $(seq 1 $((100 * ws))); do
	got=$(curl -s --max-time 1 "$url/fonts/a.woff2")
	[ "$got" = changed ] && break
	sleep 0.1
done
check "serve: a change in a linked folder is rebuilt" test "$got" = changed
stop_serve
spid=""

finish

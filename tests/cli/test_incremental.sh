# test_incremental.sh: folio serve rebuilds only what a change affects, and
# what it serves is then exactly what a full `folio build` writes. Each step
# edits the example blog the way a writer would (a post's text, its title,
# tags, date, draft flag; a new post, a deleted one; a series guide, a page,
# a data file, a static file, a template, folio.yml; an error and its fix),
# waits for the rebuild, and compares the server's folder with a fresh
# build, file by file.
. "$(dirname "$0")/lib.sh"
# WAIT_SCALE (tests/valgrind.sh sets it) multiplies the longest waits
ws=${WAIT_SCALE:-1}

spid=""
cleanup() {
	stop_serve
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

site=$TMP/site
cp -r examples/techblog "$site"
rm -rf "$site/public" "$site/.folio-cache"
mkdir "$TMP/tmp"
serve_start "$site" "$TMP/tmp"

# builds: how many builds the server has finished (good or bad)
builds() { grep -cE '^folio serve: (built|rebuilt) |error' "$TMP/serve.err"; }
# settle N: waits until more than N builds are done and no other follows
# within 300 ms (an edit is one burst; the debounce is 50 ms)
settle() {
	for _ in $(seq 1 $((200 * ws))); do
		[ "$(builds)" -gt "$1" ] && break
		sleep 0.05
	done
	for _ in $(seq 1 20); do
		n=$(builds)
		sleep 0.3
		[ "$(builds)" -eq "$n" ] && break
	done
}
settle 0
served=$(ls -d "$TMP"/tmp/folio-serve-*/site 2>/dev/null | head -n 1)
check "the server built the site" test -n "$served" -a -f "$served/index.html"

# rendered: "R of P" of the last rebuild
rendered() { grep -E '^folio serve: rebuilt' "$TMP/serve.err" | tail -n 1 | sed -E 's/.*: ([0-9]+) of ([0-9]+) pages.*/\1/'; }
total() { grep -E '^folio serve: (re)?built' "$TMP/serve.err" | tail -n 1 | sed -E 's/.*: ([0-9]+) of ([0-9]+) pages.*/\2/'; }

# same NAME: the served folder equals a full build of the site now
same() {
	rm -rf "$TMP/full"
	"$FOLIO" build "$site" -o "$TMP/full" >/dev/null 2>"$TMP/full.err"
	d=$(diff -r -q -x .folio-output "$served" "$TMP/full" 2>&1)
	out=$d
	err=$(cat "$TMP/full.err")
	check "$1: the served site is a full build's" test -z "$d"
}

# step NAME COMMAND...: runs the edit, waits for its rebuild, compares
step() {
	name=$1
	shift
	before=$(builds)
	"$@"
	settle "$before"
	same "$name"
}

post=$site/content/posts/gpu-systems-05-cuda-streams-and-concurrency.md
[ -f "$post" ] || post=$(ls "$site"/content/posts/gpu-systems-0*.md | head -n 5 | tail -n 1)
other=$(ls "$site"/content/posts/mlops-*.md | head -n 1)
edit() { python3 -c 'import sys; p, a, b = sys.argv[1:4]; t = open(p).read(); assert a in t, (p, a); open(p, "w").write(t.replace(a, b, 1))' "$@"; }

step "a post's text" sh -c "printf '\nA new closing paragraph about streams.\n' >> '$post'"
r=$(rendered)
t=$(total)
check "a text edit renders a few pages, not the site ($r of $t)" test "$r" -gt 0 -a "$r" -lt $((t / 4))
curl -s "http://127.0.0.1:$port/posts/$(basename "$post" .md)/" >"$TMP/page" 2>/dev/null
check "the new text is served" grep -q "A new closing paragraph about streams" "$TMP/page"

step "nothing changed (touch)" touch "$post"
check "a touch renders nothing" test "$(rendered)" -eq 0

step "a post's title" edit "$post" 'title: "' 'title: "Renamed: '
step "a new tag" edit "$other" 'tags: ["' 'tags: ["brand-new-tag", "'
check "the new tag's page exists" test -f "$served/tags/brand-new-tag/index.html"
step "the tag removed again" edit "$other" 'tags: ["brand-new-tag", "' 'tags: ["'
check "the tag's page is gone" test ! -e "$served/tags/brand-new-tag"
step "a post's date" edit "$other" "date: 20" "date: 19"
step "a post made a draft" edit "$other" "title: " "draft: true
title: "
check "the draft's page is gone" test ! -e "$served/posts/$(basename "$other" .md)/index.html"
step "a new post" sh -c "printf -- '---\ntitle: Fresh Post\ndate: 2024-06-01\ntags: [cuda]\n---\nHello **there**.\n' > '$site/content/posts/fresh-post.md'"
check "the new post is served" test -f "$served/posts/fresh-post/index.html"
step "the new post deleted" rm "$site/content/posts/fresh-post.md"
check "its page is gone" test ! -e "$served/posts/fresh-post"
guide=$(ls "$site"/content/series/*.md | head -n 1)
step "a series guide" sh -c "printf '\nMore about this series.\n' >> '$guide'"
page=$(ls "$site"/content/pages/*.md | head -n 1)
step "a page" sh -c "printf '\nAn added line.\n' >> '$page'"
step "a data file" sh -c "printf '\n# a comment\n' >> '$site/data/home.yml'"
step "a new static file" sh -c "printf 'hello\n' > '$site/static/hello.txt'"
check "the static file is served" test -f "$served/hello.txt"
mkdir -p "$site/templates"
sed 's|</article>|<p class="marker">edited template</p></article>|' theme/templates/post.html >"$TMP/post.html"
step "a template override" cp "$TMP/post.html" "$site/templates/post.html"
r=$(rendered)
t=$(total)
check "a post template change renders fewer pages than the site ($r of $t)" test "$r" -lt "$t"
check "the post pages show it" grep -q "edited template" "$served/posts/$(basename "$post" .md)/index.html"
step "a directive's template" edit "$site/templates/directives/kbd.html" '<kbd>' '<kbd class="key">'
check "a directive's template: only the page that calls it rendered" test "$(rendered)" -eq 1
check "... which shows it" grep -q '<kbd class="key">Ctrl+C</kbd>' "$served/posts/gpu-systems-00-what-you-should-know-before-starting-this-series/index.html"
step "the config" edit "$site/folio.yml" 'title: "' 'title: "Retitled '
check "a config change renders every page" test "$(rendered)" -eq "$(total)"

# an error: serve keeps going (the pages that can be made are written),
# and the page of the post it cannot read is still served as it was; the
# fix rebuilds it
cp -r "$served" "$TMP/good"
before=$(builds)
edit "$post" 'title: "' 'title: [unclosed "'
settle "$before"
slug=$(basename "$post" .md)
check "after an error the broken post's page is still served as it was" \
	cmp -s "$served/posts/$slug/index.html" "$TMP/good/posts/$slug/index.html"
check "... and serve says the rest was written" \
	grep -q "the pages that could be built were written anyway" "$TMP/serve.err"
step "the error fixed" edit "$post" 'title: [unclosed "' 'title: "'

kill -TERM "$spid"
wait "$spid"
rc=$?
spid=""
check "the server exits 0" test "$rc" -eq 0

# a site whose content/ is a link to another folder of the site is watched
# too (one outside the site is refused: test_symlinks.sh)
mkdir -p "$TMP/site2/linked" "$TMP/tmp2"
cp -r "$site/content" "$TMP/site2/linked/content"
cp "$site/folio.yml" "$TMP/site2.yml"
cp "$TMP/site2.yml" "$TMP/site2/folio.yml"
cp -r "$site/data" "$site/static" "$site/templates" "$TMP/site2/"
ln -s linked/content "$TMP/site2/content"
port2=$(free_port)
TMPDIR=$TMP/tmp2 "$FOLIO" serve "$TMP/site2" --port "$port2" >/dev/null 2>"$TMP/serve2.err" &
spid=$!
for _ in $(seq 1 $((200 * ws))); do
	grep -q 'serving' "$TMP/serve2.err" && break
	sleep 0.05
done
printf '\nWritten through the link.\n' >>"$TMP/site2/linked/content/posts/$(basename "$post")"
got=""
for _ in $(seq 1 $((100 * ws))); do
	got=$(curl -s "http://127.0.0.1:$port2/posts/$(basename "$post" .md)/" 2>/dev/null)
	case "$got" in *"Written through the link"*) break ;; esac
	sleep 0.1
done
out=""
err=$(cat "$TMP/serve2.err")
check "an edit in a linked content folder is served" contains "$got" "Written through the link"
kill -TERM "$spid"
wait "$spid"
spid=""
[ -n "${INCREMENTAL_LOG:-}" ] && cp "$TMP/serve.err" "$INCREMENTAL_LOG"
finish

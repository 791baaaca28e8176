# test_cache.sh: the rendered Markdown kept in .folio-cache/markdown.pack.
# A warm build (the cache present) writes exactly what a cold one does,
# whatever changed in between: a post's text, a bundle's image, folio.yml,
# a template; a damaged cache is an empty one; the cache is rewritten only
# when it changed, and not at all by a build with errors. Files whose
# bytes did not change are the last build's files (hard links).
. "$(dirname "$0")/lib.sh"

export SOURCE_DATE_EPOCH=1794000000 # 2026-11-06: no post of the example is still to come
site=$TMP/site
cp -r examples/techblog "$site"
rm -rf "$site/public" "$site/.folio-cache"
pack=$site/.folio-cache/markdown.pack

# warm_is_cold NAME: a build with the cache equals one without it. The
# warm build goes to a new folder too: the cache is what is warm, and it
# keeps the record of only the last 8 output folders (a folder it forgot
# is refused, as one another site wrote), a number this suite's many
# folders pass (on a loaded machine a fresh clone's CI run found it)
warm_is_cold() {
	rm -rf "$TMP/warm" "$TMP/.warm.folio-spare"
	run build "$site" -o "$TMP/warm"
	check "$1: the warm build succeeds" test "$rc" -eq 0
	mv "$site/.folio-cache" "$TMP/cache.saved"
	# from nothing: the cache set aside holds the record of what folio
	# wrote in the last cold output, which a build without it refuses
	rm -rf "$TMP/cold" "$TMP/.cold.folio-spare"
	run build "$site" -o "$TMP/cold"
	check "$1: the cold build succeeds" test "$rc" -eq 0
	rm -rf "$site/.folio-cache"
	mv "$TMP/cache.saved" "$site/.folio-cache"
	d=$(diff -r "$TMP/warm" "$TMP/cold" 2>&1)
	out=$d
	check "$1: warm and cold builds are byte-identical" test -z "$d"
}

# traced_build OUT: a build of the site into OUT under strace, the files
# it opened in $TMP/trace; false (nothing traced) without strace, or under
# valgrind's wrapper script
traced_build() {
	case $(head -c 2 "$FOLIO") in '#!') return 1 ;; esac
	command -v strace >/dev/null 2>&1 || return 1
	# (LeakSanitizer cannot run under ptrace: the leaks are the other
	# builds' to find)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=open,openat -o "$TMP/trace" "$FOLIO" build "$site" -o "$1" >/dev/null 2>&1
	check "a traced build succeeds" test $? -eq 0
}

run build "$site" -o "$TMP/first"
check "the first build succeeds" test "$rc" -eq 0
check "it leaves the rendered Markdown in .folio-cache" test -s "$pack"
warm_is_cold "nothing changed"
before=$(stat -c %Y.%s "$pack")
sleep 1
run build "$site" -o "$TMP/again"
check "an unchanged site does not rewrite the cache" test "$(stat -c %Y.%s "$pack")" = "$before"

# Another folio executable renders everything again: the cache is salted
# with the executable's build ID (here: a copy without one, which folio
# tells apart by hashing its file). Not under valgrind, whose FOLIO is a
# script.
if objcopy --remove-section .note.gnu.build-id "$FOLIO" "$TMP/folio-noid" 2>/dev/null; then
	sleep 1
	"$TMP/folio-noid" build "$site" -o "$TMP/noid" >/dev/null 2>&1
	check "another folio executable builds the site" test $? -eq 0
	check "another folio executable does not reuse the cache" test "$(stat -c %Y.%s "$pack")" != "$before"
	d=$(diff -r "$TMP/again" "$TMP/noid" 2>&1)
	check "another folio executable writes the same site" test -z "$d"
	before=$(stat -c %Y.%s "$pack")
	sleep 1
	"$TMP/folio-noid" build "$site" -o "$TMP/noid" >/dev/null 2>&1
	check "without a build ID, folio reuses its own cache" test "$(stat -c %Y.%s "$pack")" = "$before"
	run build "$site" -o "$TMP/again2"
	check "the first folio again: the cache is rewritten" test "$(stat -c %Y.%s "$pack")" != "$before"
	rm -rf "$TMP/noid" "$TMP/folio-noid" "$TMP/again2"
fi

post=$site/content/posts/gpu-systems-05-coalescing-shared-memory-and-reduction-patterns.md
printf '\nA closing paragraph with `code` and $x^2$.\n' >>"$post"
warm_is_cold "a post's text changed"
grep -q "A closing paragraph" "$TMP/warm/posts/gpu-systems-05-coalescing-shared-memory-and-reduction-patterns/index.html"
check "the changed text is in the page" test $? -eq 0

svg=$site/content/posts/gpu-systems-08-profiling-and-the-roofline-view/roofline.svg
sed -i 's/width="480" height="300"/width="600" height="375"/' "$svg"
warm_is_cold "a bundle's image changed size"
grep -q 'width="600"' "$TMP/warm/posts/gpu-systems-08-profiling-and-the-roofline-view/index.html"
check "the page has the image's new size" test $? -eq 0

sed -i "s/^smart_punctuation: .*/smart_punctuation: false/" "$site/folio.yml"
warm_is_cold "folio.yml changed"

mkdir -p "$site/templates"
sed 's|</article>|<p>edited</p></article>|' theme/templates/post.html >"$site/templates/post.html"
warm_is_cold "a template changed"

# a damaged cache: same output, no message, and rewritten
printf 'garbage' >"$pack"
run build "$site" -o "$TMP/damaged"
check "a damaged cache is no error" test "$rc" -eq 0 -a -z "$err"
d=$(diff -r "$TMP/damaged" "$TMP/warm" 2>&1)
out=$d
check "a damaged cache gives the same output" test -z "$d"
check "a damaged cache is rewritten" grep -q '^folio-md-pack' "$pack"
head -c 20000 "$pack" >"$TMP/cut" && cp "$TMP/cut" "$pack"
run build "$site" -o "$TMP/cut-out"
check "a truncated cache is no error" test "$rc" -eq 0 -a -z "$err"
d=$(diff -r "$TMP/cut-out" "$TMP/warm" 2>&1)
out=$d
check "a truncated cache gives the same output" test -z "$d"

# unchanged files are the last build's (hard links), changed ones new
rm -rf "$TMP/o"
run build "$site" -o "$TMP/o"
page=posts/gpu-systems-05-coalescing-shared-memory-and-reduction-patterns/index.html
home=$(stat -c %i "$TMP/o/index.html")
was=$(stat -c %i "$TMP/o/$page")
printf '\nOne more line.\n' >>"$post"
run build "$site" -o "$TMP/o"
check "an unchanged page is the last build's file" test "$(stat -c %i "$TMP/o/index.html")" = "$home"
check "a changed page is a new file" test "$(stat -c %i "$TMP/o/$page")" != "$was"
check "the changed page has the change" grep -q "One more line" "$TMP/o/$page"
printf 'tampered' >>"$TMP/o/index.html"
cp "$TMP/o/index.html" "$TMP/tampered"
run build "$site" -o "$TMP/o"
check "a page changed by hand in the output is written again" test -z "$(grep -l tampered "$TMP/o/index.html")"
run build "$site" -o "$TMP/o2"
d=$(diff -r "$TMP/o" "$TMP/o2" 2>&1)
out=$d
check "after links and rewrites the output is a fresh build's" test -z "$d"

# what each page read is kept per output folder: damaged, it is ignored
check "the pages' state is kept" test -n "$(ls "$site"/.folio-cache/pages-* 2>/dev/null)"
for f in "$site"/.folio-cache/pages-*; do printf 'garbage' >"$f"; done
printf '\nYet another line.\n' >>"$post"
run build "$site" -o "$TMP/o"
check "a damaged pages' state is no error" test "$rc" -eq 0 -a -z "$err"
run build "$site" -o "$TMP/o3"
d=$(diff -r "$TMP/o" "$TMP/o3" 2>&1)
out=$d
check "a damaged pages' state gives a fresh build's output" test -z "$d"
head -c 5000 "$(ls "$site"/.folio-cache/pages-* | head -n 1)" >"$TMP/cut"
for f in "$site"/.folio-cache/pages-*; do cp "$TMP/cut" "$f"; done
sed -i 's/Yet another line/Yet another line, changed/' "$post"
run build "$site" -o "$TMP/o"
rm -rf "$TMP/o3"
run build "$site" -o "$TMP/o3"
d=$(diff -r "$TMP/o" "$TMP/o3" 2>&1)
out=$d
check "a truncated pages' state gives a fresh build's output" test -z "$d"
grep -q "Yet another line, changed" "$TMP/o/$page"
check "and the change is in it" test $? -eq 0

# the related posts are kept in the cache, made anew when what they depend
# on (a post's tags, date, place in a series) changes, ignored if damaged
rel=$site/.folio-cache/related
check "the related posts are kept" grep -q '^folio-related' "$rel"
sum=$(md5sum <"$rel")
printf '\nA line that changes no tag.\n' >>"$post"
run build "$site" -o "$TMP/o"
check "a post's text changed: the related posts are not written again" test "$(md5sum <"$rel")" = "$sum"
sed -i '0,/^tags: .*/s//tags: [cuda, a-new-tag]/' "$post"
warm_is_cold "a post's tags changed"
check "a post's tags changed: the related posts are made anew" test "$(md5sum <"$rel")" != "$sum"
printf 'garbage' >"$rel"
run build "$site" -o "$TMP/o"
check "a damaged related file is no error" test "$rc" -eq 0 -a -z "$err"
d=$(diff -r "$TMP/o" "$TMP/warm" 2>&1)
out=$d
check "a damaged related file gives the same output" test -z "$d"
check "a damaged related file is written anew" grep -q '^folio-related' "$rel"
printf 'x' | dd of="$rel" bs=1 seek=100 conv=notrunc 2>/dev/null
warm_is_cold "a byte of the related file changed"

# the front matter trees are kept: a warm build parses only the front
# matter whose text changed, and reports the same errors as a cold one
fmc=$site/.folio-cache/frontmatter
check "the front matter trees are kept" grep -q '^folio-fm-pack' "$fmc"
sum=$(md5sum <"$fmc")
printf '\nA line of text only.\n' >>"$post"
run build "$site" -o "$TMP/o"
check "a post's text changed: the front matter trees are not written again" test "$(md5sum <"$fmc")" = "$sum"
sed -i '0,/^title: .*/s//title: "A title changed for the cache"/' "$post"
warm_is_cold "a post's front matter changed"
check "the new title is in the page" grep -q "A title changed for the cache" \
	"$TMP/warm/posts/gpu-systems-05-coalescing-shared-memory-and-reduction-patterns/index.html"
check "a front matter changed: its tree is kept" test "$(md5sum <"$fmc")" != "$sum"
printf 'garbage' >"$fmc"
run build "$site" -o "$TMP/o"
check "a damaged front matter file is no error" test "$rc" -eq 0 -a -z "$err"
d=$(diff -r "$TMP/o" "$TMP/warm" 2>&1)
out=$d
check "a damaged front matter file gives the same output" test -z "$d"
check "a damaged front matter file is written anew" grep -q '^folio-fm-pack' "$fmc"
# an error found in a front matter read from the cache is told where the
# file has it, as by a cold build: a post built (its tree kept), then
# another with the same slug
printf -- '---\ntitle: "Cache test"\ndate: 2025-01-01\nsummary: "For the cache test."\nslug: cache-slug\n---\nText.\n' \
	>"$site/content/posts/zz-cache-a.md"
run build "$site" -o "$TMP/o"
check "a post with a slug of its own builds" test "$rc" -eq 0
printf -- '---\ntitle: "Cache test two"\ndate: 2025-01-02\nsummary: "Also."\nslug: cache-slug\n---\nText.\n' \
	>"$site/content/posts/aa-cache-b.md"
run build "$site" -o "$TMP/o"
warm=$err
check "another with the same slug: an error" test "$rc" -eq 1
mv "$site/.folio-cache" "$TMP/cache.saved"
run build "$site" -o "$TMP/o-cold" # (without the record of $TMP/o, which is refused)
rm -rf "$site/.folio-cache"
mv "$TMP/cache.saved" "$site/.folio-cache"
out="$warm
---
$err"
check "the error from the kept tree is the cold build's, at the same line and column" \
	test -n "$err" -a "$err" = "$warm"
check "and it is told at the kept file's slug" grep -q "zz-cache-a.md:5:7: error: duplicate slug 'cache-slug'" "$TMP/err"
rm "$site/content/posts/zz-cache-a.md" "$site/content/posts/aa-cache-b.md"
run build "$site" -o "$TMP/o"
check "both removed, the site builds" test "$rc" -eq 0
printf -- '---\ntitle: [broken\n---\nx\n' >"$site/content/posts/broken-yaml.md"
run build "$site" -o "$TMP/o"
first=$err
run build "$site" -o "$TMP/o"
out="$first
---
$err"
check "a YAML error is told at every build" test "$rc" -eq 1 -a -n "$err" -a "$err" = "$first"
rm "$site/content/posts/broken-yaml.md"

# The content files whose bytes did not change since the last build are
# not read again (.folio-cache/sources: where each one's body starts, its
# front matter's key, its body's hashes); one that did, even to the same
# size, is. What needs the text of one not read (an error's excerpt, a
# Markdown cache miss) reads it then, and says what a cold build says.
src=$site/.folio-cache/sources
run build "$site" -o "$TMP/lz"
check "a build keeps the records of its content files" grep -q '^folio-sources' "$src"
cp "$post" "$TMP/post.saved"
printf '\nA line for the records.\n' >>"$post"
if traced_build "$TMP/lz"; then
	check "a warm build reads the post that changed" grep -q "$(basename "$post")" "$TMP/trace"
	check "and no other post" test "$(grep 'content/posts/.*\.md' "$TMP/trace" | grep -vc "$(basename "$post")")" -eq 0
	rm -f "$TMP/trace"
fi
warm_is_cold "posts not read again"
# the same size, other bytes: read again
sed -i '0,/^A line for the records\./s//A LINE FOR THE RECORDS./' "$post"
run build "$site" -o "$TMP/lz"
check "a post changed to bytes of the same size is read again" \
	grep -q "A LINE FOR THE RECORDS" "$TMP/lz/posts/gpu-systems-05-coalescing-shared-memory-and-reduction-patterns/index.html"
# an error at a post that was not read: the cold build's message, excerpt
# included (its series is gone)
mv "$site/content/series/linux-internals.md" "$TMP/series.saved"
run build "$site" -o "$TMP/lz"
warm=$err
check "a series removed: an error at the posts that name it" test "$rc" -eq 1
mv "$site/.folio-cache" "$TMP/cache.saved"
run build "$site" -o "$TMP/lz-cold" # (without the record of $TMP/lz, which is refused)
rm -rf "$site/.folio-cache"
mv "$TMP/cache.saved" "$site/.folio-cache"
out="$warm
---
$err"
check "the error at a post not read is the cold build's, excerpt and all" test -n "$err" -a "$err" = "$warm"
check "and shows the post's line" grep -q '^ *[0-9]* | series: "linux-internals"' "$TMP/err"
mv "$TMP/series.saved" "$site/content/series/linux-internals.md"
# the Markdown cache gone, the records kept: the bodies are read to be
# rendered
run build "$site" -o "$TMP/lz"
rm -f "$site/.folio-cache/markdown.pack"
printf '\nOne more line.\n' >>"$post"
warm_is_cold "the records without the Markdown cache"
# a damaged records file is none
run build "$site" -o "$TMP/lz"
printf 'x' | dd of="$src" bs=1 seek=200 conv=notrunc 2>/dev/null
printf '\nAnd one more.\n' >>"$post"
run build "$site" -o "$TMP/lz"
check "a damaged records file is no error" test "$rc" -eq 0 -a -z "$err"
check "it is written anew" grep -q '^folio-sources' "$src"
warm_is_cold "a damaged records file"
cp "$TMP/post.saved" "$post"
rm -rf "$TMP/lz"

# A static file whose stamp did not change since the last build is that
# build's file again, not read a second time (build_request.known); one
# changed, even to bytes of the same size, or one changed by hand in the
# output, is copied anew.
printf 'aaaa\n' >"$site/static/known.txt"
run build "$site" -o "$TMP/st"
check "a site with a static file builds" test "$rc" -eq 0
cp "$post" "$TMP/post.saved"
printf '\nA line for the static files.\n' >>"$post"
if traced_build "$TMP/st"; then
	check "a warm build does not read an unchanged static file again" sh -c "! grep -q 'static/known.txt' '$TMP/trace'"
	check "but reads the post that changed" grep -q "$(basename "$post")" "$TMP/trace"
	rm -f "$TMP/trace"
fi
check "the unchanged file is still in the output" test "$(cat "$TMP/st/known.txt")" = aaaa
printf 'bbbb\n' >"$site/static/known.txt"
run build "$site" -o "$TMP/st"
check "a static file changed to bytes of the same size is copied anew" test "$(cat "$TMP/st/known.txt")" = bbbb
printf 'cccc\n' >"$TMP/st/known.txt"
run build "$site" -o "$TMP/st"
check "one changed by hand in the output is copied again from the site" test "$(cat "$TMP/st/known.txt")" = bbbb
warm_is_cold "static files known unchanged"
rm -rf "$TMP/st" "$site/static/known.txt"
cp "$TMP/post.saved" "$post"

# a cache that cannot be saved is a warning, after a build that succeeds
# (its pages hold the HTML the cache would have kept)
rm -rf "$site/.folio-cache" "$TMP/nosave"
mkdir -p "$pack"
run build "$site" -o "$TMP/nosave"
check "a cache that cannot be saved: the build succeeds" test "$rc" -eq 0
check "and says so" grep -q "markdown.pack: warning: cannot save the rendered Markdown (Is a directory)" "$TMP/err"
d=$(diff -r "$TMP/nosave" "$TMP/o" 2>&1)
out=$d
check "and writes the site all the same" test -z "$d"
rm -rf "$TMP/nosave"

# a build with errors writes no cache
rm -rf "$site/.folio-cache"
printf -- '---\ntitle: [broken\n---\nx\n' >"$site/content/posts/broken.md"
run build "$site" -o "$TMP/broken"
check "a site with an error fails" test "$rc" -eq 1
check "a failed build writes no cache" test ! -e "$pack"
finish

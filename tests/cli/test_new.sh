# test_new.sh: folio new site and folio new post.
. "$(dirname "$0")/lib.sh"

S=$TMP/blog
# FOLIO as an absolute path, for the runs in other folders
case $FOLIO in
/*) FOLIO_ABS=$FOLIO ;;
*) FOLIO_ABS=$(cd "$(dirname "$FOLIO")" && pwd)/$(basename "$FOLIO") ;;
esac

# ---- new site ----

run new site "$S"
check "new site exits 0" test "$rc" -eq 0
check "new site says what it made" contains "$out" "folio: created the site $S"
check "new site says how to build it" contains "$out" "folio build $S"
check "new site writes folio.yml" test -f "$S/folio.yml"
check "new site writes a series" test -f "$S/content/series/first-steps.md"
check "new site writes three posts of the series" test -f "$S/content/posts/first-steps-3-publishing.md"
check "new site writes an about page" test -f "$S/content/pages/about.md"
check "new site writes a .gitignore for public/" grep -qx 'public/' "$S/.gitignore"

run build "$S"
check "the new site builds" test "$rc" -eq 0
check "the new site builds without warnings" test -z "$err"
check "the new site builds into SITE/public" test -f "$S/public/index.html"
home=$(cat "$S/public/index.html" 2>/dev/null)
check "the home page shows the series card" contains "$home" 'class="card series-card"'
check "the series card names the series" contains "$home" 'First Steps'
check "the series card counts its posts" contains "$home" '3 posts'
check "the series card links the recommended start" contains "$home" 'href="/posts/first-steps-1-the-plan/"'
check "the home page links start here" contains "$home" 'href="/about/"'
check "the series page exists" test -f "$S/public/series/first-steps/index.html"
check "the posts show their part" grep -q 'Part 2 of 3' "$S/public/posts/first-steps-2-the-details/index.html"

mkdir -p "$TMP/full"
echo "mine" >"$TMP/full/notes.txt"
run new site "$TMP/full"
check "new site into a non-empty folder exits 1" test "$rc" -eq 1
check "new site into a non-empty folder says why" contains "$err" \
	"$TMP/full: error: the folder exists and is not empty (choose a new folder name)"
check "new site into a non-empty folder writes nothing" test "$(ls -A "$TMP/full")" = "notes.txt"
mkdir "$TMP/empty"
run new site "$TMP/empty"
check "new site into an empty folder exits 0" test "$rc" -eq 0
run new site "$S"
check "new site over an existing site exits 1" test "$rc" -eq 1
run new site
check "new site without a folder is a usage error" test "$rc" -eq 2
run new site "$TMP/a" "$TMP/b"
check "new site with two folders is a usage error" test "$rc" -eq 2
run new
check "new without a kind is a usage error" test "$rc" -eq 2
run new page x
check "new page is a usage error" test "$rc" -eq 2
check "new page names the kinds" contains "$err" "unknown kind 'page' (use 'site', 'post' or 'series')"

# ---- new post ----

run new post "Title" --dir "$S"
check "new post exits 0" test "$rc" -eq 0
P=$S/content/posts/title.md
check "new post says what it made" contains "$out" "folio: created $P"
check "new post writes content/posts/title.md" test -f "$P"
post=$(cat "$P" 2>/dev/null)
check "new post is published (no draft line)" test -z "$(grep draft "$P")"
check "new post says how to see it" contains "$out" "http://127.0.0.1:8080/posts/title/"
check "new post has the title" contains "$post" 'title: "Title"'
check "new post is dated" grep -qE '^date: [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' "$P"
check "new post outside a series has no series_order" test -z "$(grep series "$P")"

run build "$S" -o "$TMP/out1"
check "the site with a new post builds" test "$rc" -eq 0
check "the new post is built without --drafts" test -f "$TMP/out1/posts/title/index.html"

run new post "Rough Idea" --draft --dir "$S"
check "new post --draft exits 0" test "$rc" -eq 0
check "new post --draft is a draft" grep -qx 'draft: true' "$S/content/posts/rough-idea.md"
check "new post --draft says how drafts are shown" contains "$out" "shown by 'folio serve --drafts'"
run build "$S" -o "$TMP/out1"
check "the draft is not built without --drafts" test ! -e "$TMP/out1/posts/rough-idea"
run build "$S" -o "$TMP/out2" --drafts
check "the draft is built with --drafts" test -f "$TMP/out2/posts/rough-idea/index.html"
check "... marked as a draft on its page" grep -q 'Rough Idea <span class="draft-badge">Draft</span></h1>' "$TMP/out2/posts/rough-idea/index.html"
check "... and on its card" grep -q 'Rough Idea</a> <span class="draft-badge">Draft</span>' "$TMP/out2/index.html"
check "a published post carries no mark" sh -c "! grep -q 'Title</a> <span class=\"draft-badge\"' '$TMP/out2/index.html'"

run new post "Title" --dir "$S"
check "new post never overwrites (exit 1)" test "$rc" -eq 1
check "new post says the post exists" contains "$err" "a post with the slug 'title' exists already; not overwritten"
check "the existing post is kept" test "$(cat "$P")" = "$post"

run new post "Quotes \"and\" Ünïcödé: C++ Tips" --dir "$S"
check "a title with quotes and Unicode exits 0" test "$rc" -eq 0
Q=$S/content/posts/quotes-and-ünïcödé-c-tips.md
check "its file name is the slug of the title" test -f "$Q"
check "its title is quoted YAML" grep -qF 'title: "Quotes \"and\" Ünïcödé: C++ Tips"' "$Q"
run build "$S" -o "$TMP/out3" --drafts
check "the site still builds with it" test "$rc" -eq 0
check "its title round-trips" grep -qF 'Quotes &quot;and&quot; Ünïcödé: C++ Tips' "$TMP/out3/posts/quotes-and-ünïcödé-c-tips/index.html"
# a backslash in a double-quoted YAML string begins an escape (\t, \n)
run new post 'Paths like C:\temp\new' --dir "$S"
B=$S/content/posts/paths-like-c-temp-new.md
check "a title with backslashes is written escaped" grep -qF 'title: "Paths like C:\\temp\\new"' "$B"
run build "$S" -o "$TMP/out3b" --drafts
check "its title round-trips, backslashes and all" grep -qF '>Paths like C:\temp\new</h1>' "$TMP/out3b/posts/paths-like-c-temp-new/index.html"
rm -f "$B"

run new post "Next Steps" --series first-steps --draft --dir "$S"
check "new post --series exits 0" test "$rc" -eq 0
N=$S/content/posts/next-steps.md
check "new post --series names the series" grep -qx 'series: first-steps' "$N"
check "new post --series takes the next position (4)" grep -qx 'series_order: 4' "$N"
run build "$S" -o "$TMP/out4" --drafts
check "the site builds with the new part" test "$rc" -eq 0
check "the new part is part 4 of 4" grep -q 'Part 4 of 4' "$TMP/out4/posts/next-steps/index.html"
run build "$S" -o "$TMP/out5"
check "without --drafts the third part is part 3 of 4: the draft keeps its number" grep -q 'Part 3 of 4' "$TMP/out5/posts/first-steps-3-publishing/index.html"
run new post "After Next" --series first-steps --draft --dir "$S"
check "a second new part takes position 5" grep -qx 'series_order: 5' "$S/content/posts/after-next.md"

run new post "Lost" --series no-such-series --dir "$S"
check "an unknown series exits 1" test "$rc" -eq 1
check "an unknown series is named" contains "$err" \
	"--series: error: no series 'no-such-series' (content/series/no-such-series.md does not exist); a series is content/series/SLUG.md with front matter: title and description (required)"
check "an unknown series writes nothing" test ! -e "$S/content/posts/lost.md"

mkdir "$TMP/elsewhere"
run new post "Stray" --dir "$TMP/elsewhere"
check "new post outside a site exits 1" test "$rc" -eq 1
check "new post outside a site says why" contains "$err" \
	"not a site folder (no folio.yml); run this in the site, or pass --dir SITE"
check "new post outside a site writes nothing" test -z "$(ls -A "$TMP/elsewhere")"
(cd "$TMP/elsewhere" && "$FOLIO_ABS" new post "Stray" >/dev/null 2>&1)
check "new post in a folder without folio.yml exits 1" test $? -eq 1
(cd "$S" && "$FOLIO_ABS" new post "From Inside" >/dev/null 2>&1)
check "new post in the site folder needs no --dir" test -f "$S/content/posts/from-inside.md"

run new post "+++" --dir "$S"
check "a title without letters or digits exits 1" test "$rc" -eq 1
check "a title without letters or digits is explained" contains "$err" "has no letter or digit"
run new post --dir "$S"
check "new post without a title is a usage error" test "$rc" -eq 2
run new post "A" "B" --dir "$S"
check "new post with two titles is a usage error" test "$rc" -eq 2
run new post "A" --series
check "--series without a value is a usage error" test "$rc" -eq 2
run new post "A" --frobnicate
check "an unknown option is a usage error" test "$rc" -eq 2

# ---- bundles ----
run new post "With Figures" --bundle --dir "$S"
check "new post --bundle exits 0" test "$rc" -eq 0
check "new post --bundle writes content/posts/SLUG/index.md" test -f "$S/content/posts/with-figures/index.md"
printf 'x' >"$S/content/posts/with-figures/data.txt"
echo '[the data](data.txt)' >>"$S/content/posts/with-figures/index.md"
run new post "With Figures" --dir "$S"
check "a flat post over a bundle of its slug is refused" test "$rc" -eq 1
check "... naming the bundle" contains "$err" "content/posts/with-figures/index.md: error: a post with the slug 'with-figures' exists already"
run build "$S" -o "$TMP/out6"
check "the site builds with the bundle" test "$rc" -eq 0
check "the bundle's file is beside its page" test -f "$TMP/out6/posts/with-figures/data.txt"

# ---- new series ----
run new series gpu-basics --title "GPU Basics" --difficulty intermediate --description "Warps and blocks." --dir "$S"
check "new series exits 0" test "$rc" -eq 0
G=$S/content/series/gpu-basics.md
check "new series writes content/series/SLUG.md" test -f "$G"
check "new series says what it made" contains "$out" "folio: created $G"
check "new series has the title" grep -qx 'title: "GPU Basics"' "$G"
check "new series has the difficulty" grep -q '^difficulty: intermediate' "$G"
check "new series comments the optional keys" grep -q '^# recommended_start:' "$G"
run new series gpu-basics --title "Again" --dir "$S"
check "new series never overwrites" test "$rc" -eq 1
run new series gpu-basics --dir "$S"
check "new series without --title is a usage error" test "$rc" -eq 2
check "... saying so" contains "$err" "'new series' needs --title"
run new series "GPU Basics" --title x --dir "$S"
check "a series slug with spaces exits 1" test "$rc" -eq 1
check "... with the slug it could be" contains "$err" "did you mean gpu-basics"
run new series other --title x --difficulty hard --dir "$S"
check "an unknown difficulty is a usage error" test "$rc" -eq 2
run new post "Warp Basics" --series=gpu-basics --dir="$S"
check "a post in the new series (--opt=value)" test "$rc" -eq 0
check "... is its first part" grep -qx 'series_order: 1' "$S/content/posts/warp-basics.md"
run build "$S" -o "$TMP/out7"
check "the site builds with the new series" test "$rc" -eq 0
check "the series page lists its post" grep -q 'warp-basics' "$TMP/out7/series/gpu-basics/index.html"

# a series with a posts: list gets the new slug at its end
L=$TMP/listed
run new site "$L"
cat >"$L/content/series/listed.md" <<'EOF2'
---
title: "Listed"
description: "A series with its order in a list."
posts:
    - first-steps-1-the-plan
    - first-steps-2-the-details # a comment stays
featured: false
---
Guide.
EOF2
sed -i 's/^series: first-steps$//; s/^series_order: .*$//' "$L"/content/posts/first-steps-[12]*.md
sed -i 's/^recommended_start: .*$//' "$L/content/series/first-steps.md"
run new post "Third One" --series listed --dir "$L"
check "new post into a listed series exits 0" test "$rc" -eq 0
check "... says it added the slug" contains "$out" "added third-one to the posts of"
check "... the slug ends the list, indented alike" grep -qx '    - third-one' "$L/content/series/listed.md"
check "... and the key after the list stays" grep -qx 'featured: false' "$L/content/series/listed.md"
check "... with no series_order" test -z "$(grep series_order "$L/content/posts/third-one.md")"
run build "$L" -o "$TMP/out8"
check "the listed series builds with it" test "$rc" -eq 0
check "... as part 3 of 3" grep -q 'Part 3 of 3' "$TMP/out8/posts/third-one/index.html"
printf -- '---\ntitle: "Flow"\ndescription: "d"\nposts: [first-steps-3-publishing]\n---\n' >"$L/content/series/flow.md"
run new post "Flowing" --series flow --dir "$L"
check "a flow posts: list is not edited (exit 1)" test "$rc" -eq 1
check "... and says what to do" contains "$err" "add 'flowing' to it yourself"
check "... writing no post" test ! -e "$L/content/posts/flowing.md"

# ---- the README's quick start, as written: its new post is served ----
trap 'stop_serve; rm -rf "$TMP"' EXIT
Q2=$TMP/readme
mkdir "$Q2"
sed -n '/^## Using folio/,/^## /p' README.md | sed -n 's/^\.\/folio \(new\|build\|serve\) \([^#]*\).*$/\1 \2/p' >"$TMP/readme-cmds"
check "the README's Using folio has new, build and serve commands" \
	test "$(grep -c '^new\|^build\|^serve' "$TMP/readme-cmds")" -ge 4
slug=""
while IFS= read -r args; do
	eval "set -- $args"
	if [ "$1" = serve ]; then
		# on a free port: the README's may be taken here
		shift
		dir=$1
		(cd "$Q2" && TMPDIR=$TMP exec "$FOLIO_ABS" serve "$dir" --port 0 >"$TMP/rs.out" 2>"$TMP/rs.err") &
		spid=$!
		rport=""
		for _ in $(seq 1 100); do
			rport=$(sed -n 's|.*serving .* on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$TMP/rs.err")
			[ -n "$rport" ] && break
			sleep 0.1
		done
		code=$(curl -s -o "$TMP/rs.html" -w '%{http_code}' "http://127.0.0.1:$rport/posts/$slug/")
		check "README: folio serve serves the new post ($slug)" test "$code" = 200
		check "... with its title" grep -q "My First Kernel" "$TMP/rs.html"
		code=$(curl -s -o "$TMP/rs2.html" -w '%{http_code}' "http://127.0.0.1:$rport/series/first-steps/")
		check "... and its series lists it" grep -q "/posts/$slug/" "$TMP/rs2.html"
		kill -TERM "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		spid=""
		continue
	fi
	(cd "$Q2" && "$FOLIO_ABS" "$@" >"$TMP/readme-out" 2>"$TMP/readme-err")
	check "README: folio $args" test $? -eq 0
	s=$(sed -n 's|.*http://127.0.0.1:8080/posts/\([^/]*\)/.*|\1|p' "$TMP/readme-out")
	[ -n "$s" ] && slug=$s
done <"$TMP/readme-cmds"

finish

#!/bin/sh
# test_tags.sh: tags and categories keep apart what readers tell apart (C,
# C++ and C# have a page each), spellings in case and spacing are one term
# shown one way with a warning, and two names at one URL stop the build.
. tests/cli/lib.sh

SITE=$TMP/langs
mkdir -p "$SITE/content/posts"
printf 'title: "T"\nbase_url: "https://example.org/"\n' >"$SITE/folio.yml"
# post NAME TITLE DATE FRONT-MATTER-LINES: content/posts/NAME.md in $SITE
post() {
	printf -- '---\ntitle: "%s"\ndate: %s\n%s---\nThe text of %s.\n' "$2" "$3" "$4" "$2" \
		>"$SITE/content/posts/$1.md"
}
post plain-c "Plain C" 2025-01-01 'tags: [C, cuda]
category: "Systems Programming"
'
post modern-cpp "Modern Cpp" 2025-01-02 'tags: ["C++", CUDA]
category: "systems  programming"
'
post async-cs "Async Csharp" 2025-01-03 'tags: ["C#", CUDA, ".NET"]
category: "Systems Programming"
'
run build "$SITE" -o "$TMP/langs-out"
O=$TMP/langs-out
check "C, C++, C#: the build succeeds" test "$rc" -eq 0
# page TAG: the tag page's title and the posts it lists, one line
page() {
	f=$O/tags/$1/index.html
	[ -f "$f" ] || { echo "(no page)"; return; }
	printf '%s |' "$(grep -o '<title>[^<]*</title>' "$f")"
	for t in "Plain C" "Modern Cpp" "Async Csharp"; do
		grep -q "$t" "$f" && printf ' %s' "$t"
	done
	echo
}
r=$(page c)
check "/tags/c/ is C's, with its post only ($r)" test "$r" = "<title>Posts tagged “C” · T</title> | Plain C"
r=$(page c-plus-plus)
check "/tags/c-plus-plus/ is C++'s ($r)" test "$r" = "<title>Posts tagged “C++” · T</title> | Modern Cpp"
r=$(page c-sharp)
check "/tags/c-sharp/ is C#'s ($r)" test "$r" = "<title>Posts tagged “C#” · T</title> | Async Csharp"
r=$(page dotnet)
check "/tags/dotnet/ is .NET's ($r)" test "$r" = "<title>Posts tagged “.NET” · T</title> | Async Csharp"
r=$(page cuda)
check "cuda and CUDA: one page, named as most posts write it ($r)" \
	test "$r" = "<title>Posts tagged “CUDA” · T</title> | Plain C Modern Cpp Async Csharp"
r=$(ls "$O/tags" | tr '\n' ' ')
check "no other tag pages ($r)" test "$r" = "c c-plus-plus c-sharp cuda dotnet index.html "
# every place a tag is shown uses the one spelling
# (a tag is shown "#CUDA", its "#" hidden from screen readers)
r=$(grep -o 'href="/tags/cuda/"><span aria-hidden="true">#</span>[^<]*<' "$O/posts/plain-c/index.html" | sort -u)
check "the post card of the post writing 'cuda' shows 'CUDA' ($r)" test "$r" = 'href="/tags/cuda/"><span aria-hidden="true">#</span>CUDA<'
r=$(cat "$O/feed.xml" "$O/feed.json" "$O/tags/index.html" "$O/tags/cuda/feed.xml" | sed 's|/tags/cuda/||g' |
	grep -oi 'cuda' | sort -u | tr '\n' ' ')
check "feeds and the tags index write 'CUDA' only ($r)" test "$r" = "CUDA "
r=$(grep -o '<title>[^<]*</title>' "$O/categories/systems-programming/index.html")
check "categories: the spelling two posts write ($r)" test "$r" = "<title>Systems Programming · T</title>"
check "categories: one page" test "$(ls "$O/categories" | tr '\n' ' ')" = "index.html systems-programming "
# the warnings, at the tag in the front matter
check "a warning for 'cuda', at the tag" contains "$err" \
	"content/posts/plain-c.md:4:11: warning: tag 'cuda' is also written 'CUDA' (content/posts/modern-cpp.md); all are shown as 'CUDA'"
check "a warning for the category's spellings" contains "$err" \
	"content/posts/modern-cpp.md:5:11: warning: category 'systems  programming' is also written 'Systems Programming' (content/posts/plain-c.md); all are shown as 'Systems Programming'"
check "no other warning" test "$(printf '%s\n' "$err" | grep -c 'warning:')" -eq 2

# two names, one URL: an error naming both and a post of each, exit 1
post plain-c "Plain C" 2025-01-01 'tags: [C, "a/b"]
'
post modern-cpp "Modern Cpp" 2025-01-02 'tags: ["C--", "a b"]
'
post async-cs "Async Csharp" 2025-01-03 'category: "R&D"
'
printf -- '---\ntitle: "More"\ndate: 2025-01-04\ncategory: "R and D"\n---\nMore.\n' >"$SITE/content/posts/more.md"
run build "$SITE" -o "$TMP/langs-out2"
check "a collision: exit 1" test "$rc" -eq 1
check "C-- and C share /tags/c/" contains "$err" \
	"content/posts/modern-cpp.md:4:8: error: tag 'C--' and tag 'C' (content/posts/plain-c.md) would share the URL /tags/c/"
check "a b and a/b share /tags/a-b/" contains "$err" \
	"content/posts/modern-cpp.md:4:15: error: tag 'a b' and tag 'a/b' (content/posts/plain-c.md) would share the URL /tags/a-b/"
check "R and D and R&D share /categories/r-and-d/" contains "$err" \
	"content/posts/more.md:4:11: error: category 'R and D' and category 'R&D' (content/posts/async-cs.md) would share the URL /categories/r-and-d/"
check "the hint points to the manual" contains "$err" "see POSTS in folio-site(5)"
check "no site is written" test ! -e "$TMP/langs-out2/index.html"

finish

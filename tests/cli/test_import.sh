#!/bin/sh
# test_import.sh: folio import. Each tests/import/CASE/ holds src/ (a site
# of another generator; the case's name starts with it: jekyll-..., hugo-...) and
# expected/ (the folio site folio import writes, IMPORT.md included). The
# import must give that tree byte for byte, exit 0, leave src/ as it was,
# and the new site must build with no error, each of its aliases written
# as a redirect with rel=canonical. IMPORT_UPDATE=1 re-blesses expected/
# (review the diff). Then a second import of two cases (the same tree),
# the usage errors, a DST that is not empty, symbolic links out of SRC (a
# file, a Hugo content folder), and a post that cannot be converted.
. tests/cli/lib.sh

# tree_sum DIR: one line per file of DIR, with its checksum
tree_sum() {
	(cd "$1" && find . -type f -o -type l | LC_ALL=C sort | while read -r f; do
		printf '%s %s\n' "$f" "$(cksum <"$f" 2>/dev/null)"
	done)
}

# aliases SITE: every alias of the site's posts and pages, one a line
aliases() {
	for f in "$1"/content/posts/*.md "$1"/content/pages/*.md; do
		[ -f "$f" ] || continue
		awk '/^---$/ { n++; next } n == 1 && /^[a-z_]+:/ { in_a = ($1 == "aliases:") ; next }
		     n == 1 && in_a && /^  - / { s = $0; sub(/^  - "/, "", s); sub(/"$/, "", s); print s }' "$f"
	done
}

for case_dir in tests/import/*/; do
	c=$(basename "$case_dir")
	[ -d "$case_dir/src" ] || continue
	gen=${c%%-*}
	dst=$TMP/$c
	before=$(tree_sum "$case_dir/src")
	run import "$gen" "$case_dir/src" "$dst"
	check "$c: folio import exits 0" test "$rc" -eq 0
	check "$c: the report is IMPORT.md" test "$out" = "$(cat "$dst/IMPORT.md" 2>/dev/null; printf '\nfolio import: wrote %s; folio build %s passes' "$dst" "$dst")"
	if [ -n "${IMPORT_UPDATE:-}" ]; then
		rm -rf "$case_dir/expected"
		cp -R "$dst" "$case_dir/expected"
	fi
	d=$(diff -r "$case_dir/expected" "$dst" 2>&1 | head -20)
	check "$c: the site is the expected one ($d)" test -z "$d"
	check "$c: src/ is left as it was" test "$before" = "$(tree_sum "$case_dir/src")"
	run build "$dst" -o "$TMP/$c-out" --drafts --future
	check "$c: folio build passes" test "$rc" -eq 0
	check "$c: folio build reports no error" sh -c "! grep -q 'error:' '$TMP/err'"
	n=0
	bad=""
	for a in $(aliases "$dst"); do
		n=$((n + 1))
		case $a in
		*/) f=$TMP/$c-out${a}index.html ;;
		*) f=$TMP/$c-out$a ;;
		esac
		grep -q 'rel="canonical"' "$f" 2>/dev/null || bad="$bad $a"
	done
	check "$c: each of its $n aliases is a redirect with rel=canonical ($bad)" test -z "$bad"
	check "$c: it has aliases to check" test "$n" -gt 0
done

# what the converted posts show once built, against what the old site
# showed: an HTML post's HTML as written (no emphasis, no math, a <pre>
# whole), its highlight block as code; kramdown's lines and links
H=$TMP/jekyll-html-out/posts/reading-input/index.html
check "jekyll-html: no emphasis in HTML text" grep -q '\*this\* is$' "$H"
check "jekyll-html: no math in HTML text" sh -c "! grep -q 'math inline' '$H'"
check "jekyll-html: the highlight block is code, <STDIN> escaped" grep -q 'data-lang="perl"><code class="language-perl">while (my \$line = &lt;STDIN&gt;)' "$H"
check "jekyll-html: a <pre> with a blank line is one" test "$(grep -c '<pre' "$H")" -eq 2
K=$TMP/jekyll-kramdown-out/posts/tools/index.html
check "jekyll-kramdown: the image after an anchor line is an image" grep -q '<img src="/assets/pic.png" alt="The bytecode view"' "$K"
check "jekyll-kramdown: the formula after <br/> is typeset" grep -q 'class="math display"' "$K"
check "jekyll-kramdown: the link with a parenthesis is a link" grep -q '<a href="http://en.wikipedia.org/wiki/JAD_(JAva_Decompiler%29">JAD</a>' "$K"
check "jekyll-kramdown: an empty anchor does not swallow the paragraph" grep -q '<p>The figure above<a name="note1"></a> shows the constant pool.</p>' "$K"
check "jekyll-kramdown: its old feeds are written at their paths" \
	test -f "$TMP/jekyll-kramdown-out/blog/index.rss" -a -f "$TMP/jekyll-kramdown-out/atom.xml"
check "jekyll-kramdown: a Go vanity page keeps its go-import line at its old address" \
	grep -q '<meta name="go-import" content="decompiled.example.org/jad git https://code.example.org/jad">' "$TMP/jekyll-kramdown-out/jad/index.html"
check "jekyll-kramdown: an old tag page is a redirect" grep -q 'url=/tags/' "$TMP/jekyll-kramdown-out/tag/cuda.html"
check "hugo-basic: its old feeds are written at their paths" \
	test -f "$TMP/hugo-basic-out/index.xml" -a -f "$TMP/hugo-basic-out/posts/index.xml"
check "hugo-basic: the site's old feed is folio's" cmp "$TMP/hugo-basic-out/index.xml" "$TMP/hugo-basic-out/feed.xml"
M=$TMP/jekyll-mathjax-out/posts/schedules/index.html
check "jekyll-mathjax: a formula in a list item, its lines indented less, is typeset" \
	test "$(grep -o 'class="math display"' "$TMP/jekyll-mathjax-out/posts/batching/index.html" | wc -l)" -eq 2
check "jekyll-mathjax: MathJax's TeX is typeset" test "$(grep -o 'class="math' "$M" | wc -l)" -eq 6

# idempotent: a second import of a source gives the same tree (the first
# was built above: its .folio-cache is not part of it)
for c in jekyll-pretty hugo-basic; do
	run import "${c%%-*}" "tests/import/$c/src" "$TMP/again-$c"
	d=$(diff -r -x .folio-cache "$TMP/$c" "$TMP/again-$c" 2>&1 | head -5)
	check "$c imported again: the same site ($d)" test "$rc" -eq 0 -a -z "$d"
done

# usage and refusals
run import
check "no arguments: exit 2" test "$rc" -eq 2
run import hexo tests/import/jekyll-basic/src "$TMP/u1"
check "an unknown generator: exit 2" test "$rc" -eq 2
check "an unknown generator: says so" sh -c "grep -q \"unknown generator 'hexo'\" '$TMP/err'"
run import --help
check "--help: exit 0" test "$rc" -eq 0
check "--help: the usage" sh -c "grep -q 'usage: folio import jekyll SRC DST' '$TMP/out'"
run import jekyll tests/import/jekyll-basic/src "$TMP/u1" extra
check "a fourth argument: exit 2" test "$rc" -eq 2
mkdir -p "$TMP/full" && echo keep >"$TMP/full/file"
run import jekyll tests/import/jekyll-basic/src "$TMP/full"
check "a DST that is not empty: exit 1" test "$rc" -eq 1
check "a DST that is not empty: says so" sh -c "grep -q 'not empty' '$TMP/err'"
check "a DST that is not empty: left alone" test "$(ls "$TMP/full")" = file
mkdir -p "$TMP/notjekyll"
run import jekyll "$TMP/notjekyll" "$TMP/u2"
check "SRC without _config.yml or _posts: exit 1" test "$rc" -eq 1
check "SRC without _config.yml or _posts: says so" sh -c "grep -q 'not a Jekyll site' '$TMP/err'"
run import jekyll "$TMP/missing" "$TMP/u3"
check "a missing SRC: exit 1" test "$rc" -eq 1
cp -R tests/import/jekyll-basic/src "$TMP/inside"
run import jekyll "$TMP/inside" "$TMP/inside/new"
check "DST inside SRC: exit 1" test "$rc" -eq 1

# a symbolic link out of SRC is not followed
S=$TMP/links
mkdir -p "$S/_posts" "$S/assets"
printf 'title: Links\n' >"$S/_config.yml"
ln -s /etc/passwd "$S/assets/leak.png"
printf -- '---\ntitle: Leak\n---\n![secret](/assets/leak.png)\n' >"$S/_posts/2020-01-01-leak.md"
run import jekyll "$S" "$TMP/links-out"
check "a link out of SRC: the import still succeeds" test "$rc" -eq 0
check "a link out of SRC: not copied" test ! -e "$TMP/links-out/static/assets/leak.png"
check "a link out of SRC: reported" sh -c "grep -q 'link out of SRC' '$TMP/links-out/IMPORT.md'"
check "a link out of SRC: its image kept as <img>, unchecked" \
	sh -c "grep -q '<img src=\"/assets/leak.png\" alt=\"secret\">' '$TMP/links-out/content/posts/leak.md'"
check "no line of /etc/passwd reaches DST" sh -c "! grep -rq 'root:' '$TMP/links-out'"

# a post whose front matter cannot be read: named, exit 1, the rest imported
S=$TMP/bad
mkdir -p "$S/_posts"
printf 'title: Bad\n' >"$S/_config.yml"
printf -- '---\ntitle: [unclosed\n---\nText.\n' >"$S/_posts/2020-01-01-broken.md"
printf -- '---\ntitle: Fine\n---\nText.\n' >"$S/_posts/2020-01-02-fine.md"
run import jekyll "$S" "$TMP/bad-out"
check "a post that cannot be converted: exit 1" test "$rc" -eq 1
check "a post that cannot be converted: named" \
	sh -c "grep -q '_posts/2020-01-01-broken.md: could not be converted' '$TMP/err'"
check "a post that cannot be converted: the others are imported" test -f "$TMP/bad-out/content/posts/fine.md"

# Hugo: a TOML front matter that does not parse: the post is named, the
# rest imported, exit 1
S=$TMP/hugotoml
mkdir -p "$S/content/posts"
printf 'title: T\n' >"$S/hugo.yaml"
printf -- '+++\ntitle = "Toml\ndate = 2020-01-01\n+++\nText.\n' >"$S/content/posts/toml.md"
printf -- '---\ntitle: Yaml\ndate: 2020-01-02\n---\nText.\n' >"$S/content/posts/yaml.md"
run import hugo "$S" "$TMP/hugotoml-out"
check "Hugo, a broken TOML front matter: exit 1" test "$rc" -eq 1
check "Hugo, a broken TOML front matter: named" \
	sh -c "grep -q 'content/posts/toml.md: could not be converted' '$TMP/err'"
check "Hugo, a broken TOML front matter: the error at its place" sh -c "grep -q '^content/posts/toml.md:2:' '$TMP/err'"
check "Hugo, a broken TOML front matter: the YAML post is imported" test -f "$TMP/hugotoml-out/content/posts/yaml.md"
# Hugo: a language's contentDir that is a link out of SRC is not followed
# (content/ is read), and a content/ that is one is no Hugo site
S=$TMP/hugolink
mkdir -p "$S/content/posts" "$TMP/elsewhere"
printf -- '---\ntitle: Secret\ndate: 2020-01-01\n---\nSecret.\n' >"$TMP/elsewhere/secret.md"
ln -s "$TMP/elsewhere" "$S/away"
printf 'title: T\ndefaultContentLanguage: en\nlanguages:\n  en:\n    contentDir: away\n' >"$S/hugo.yaml"
printf -- '---\ntitle: Here\ndate: 2020-01-02\n---\nText.\n' >"$S/content/posts/here.md"
run import hugo "$S" "$TMP/hugolink-out"
check "Hugo, a contentDir out of SRC: exit 0" test "$rc" -eq 0
check "Hugo, a contentDir out of SRC: reported" sh -c "grep -q 'away: the content folder is a symbolic link out of SRC' '$TMP/hugolink-out/IMPORT.md'"
check "Hugo, a contentDir out of SRC: content/ is read instead" test -f "$TMP/hugolink-out/content/posts/here.md"
check "Hugo, a contentDir out of SRC: nothing of it imported" sh -c "! grep -rq Secret '$TMP/hugolink-out'"
S=$TMP/hugolink2
mkdir -p "$S"
printf 'title: T\n' >"$S/hugo.yaml"
ln -s "$TMP/elsewhere" "$S/content"
run import hugo "$S" "$TMP/hugolink2-out"
check "Hugo, content/ a link out of SRC: exit 1" test "$rc" -eq 1
check "Hugo, content/ a link out of SRC: not a Hugo site" sh -c "grep -q 'no content/ folder inside it' '$TMP/err'"
mkdir -p "$TMP/nothugo"
run import hugo "$TMP/nothugo" "$TMP/u4"
check "SRC without content/: exit 1" test "$rc" -eq 1
check "SRC without content/: says so" sh -c "grep -q 'not a Hugo site' '$TMP/err'"

finish

# test_xref.sh: cross-references on whole sites: numbered equations,
# figures, tables and listings and the references to them, within a post
# and across posts, numbered by part in a series that asks; every error's
# exact message; an edit that renumbers a post's labels rebuilds the posts
# that cite it (the cache's build, and folio serve's, are what a build
# without a cache writes).
. "$(dirname "$0")/lib.sh"
ws=${WAIT_SCALE:-1}

export SOURCE_DATE_EPOCH=1790000000
site=$TMP/site
mkdir -p "$site/content/posts" "$site/content/series" "$site/static"
printf 'title: X\nbase_url: https://example.org/\n' >"$site/folio.yml"
python3 - "$site/static/t.png" <<'EOF'
import struct, sys, zlib
def ch(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
raw = b"".join(b"\x00" + b"\x10\x20\x30" * 4 for _ in range(4))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + ch(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0))
                              + ch(b"IDAT", zlib.compress(raw)) + ch(b"IEND", b""))
EOF
cat >"$site/content/series/opt.md" <<'EOF'
---
title: "Optimizers"
description: "Two parts."
number_by_part: true
---
The guide cites @opt-2#eq:adam.
EOF
a=$site/content/posts/opt-1.md
b=$site/content/posts/opt-2.md
c=$site/content/posts/other.md
cat >"$a" <<'EOF'
---
title: "SGD"
date: 2024-01-01
series: opt
---
Plain SGD is @eq:sgd; momentum is [@eq:mom; @fig:path]. @Eq:sgd is older.
Adam is @opt-2#eq:adam and its figure is [](opt-2.md#fig:adam).

$$ \theta \leftarrow \theta - \eta g $$ {#eq:sgd}

$$
v \leftarrow \beta v + g \label{eq:mom}
$$

![Path](/t.png "The path"){#fig:path}

| step | loss |
|------|------|
| 1    | 2.0  |

: Loss by step {#tbl:loss}

```c {#lst:step title="step.c"}
theta -= eta * g;
```

## Summary {#sec:sum}

See @tbl:loss, @lst:step and @sec:sum. Not ours: [@kingma2015], me@example.org, \@eq:sgd, @bob.
EOF
cat >"$b" <<'EOF'
---
title: "Adam"
date: 2024-01-02
series: opt
---
Adam improves on @opt-1#eq:mom.

$$ m \leftarrow \beta_1 m + (1 - \beta_1) g $$ {#eq:adam}

![Adam](/t.png "Adam's path"){#fig:adam}
EOF
cat >"$c" <<'EOF'
---
title: "Elsewhere"
date: 2024-01-03
---
Outside the series: $$ x $$ {#eq:x} is @eq:x, and @opt-2#fig:adam.
EOF

run build "$site" -o "$TMP/o"
check "a site with cross-references builds" test "$rc" -eq 0
pa=$(cat "$TMP/o/posts/opt-1/index.html")
pb=$(cat "$TMP/o/posts/opt-2/index.html")
pc=$(cat "$TMP/o/posts/other/index.html")
check "a reference: the equation's number by part" contains "$pa" '<p>Plain SGD is <a href="#eq:sgd" class="xref">Eq. (1.1)</a>;'
check "a bracket of two" contains "$pa" 'momentum is <a href="#eq:mom" class="xref">Eq. (1.2)</a>, <a href="#fig:path" class="xref">Figure 1.1</a>.'
check "capitalised" contains "$pa" '<a href="#eq:sgd" class="xref">Eq. (1.1)</a> is older.'
check "into another post" contains "$pa" 'Adam is <a href="/posts/opt-2/#eq:adam" class="xref">Eq. (2.1) of <em>Adam</em></a>'
check "through its file" contains "$pa" 'its figure is <a href="/posts/opt-2/#fig:adam" class="xref">Figure 2.1 of <em>Adam</em></a>.'
check "the other way" contains "$pb" 'Adam improves on <a href="/posts/opt-1/#eq:mom" class="xref">Eq. (1.2) of <em>SGD</em></a>.'
check "an equation's number" contains "$pa" '<span class="equation-number">(1.2)</span></div>'
check "its id" contains "$pa" '<div class="equation" id="eq:mom">'
check "a figure's caption" contains "$pa" '<figure id="fig:path">'
check "... its number" contains "$pa" '<figcaption><span class="xref-label">Figure 1.1:</span> The path</figcaption>'
check "a table's" contains "$pa" '<p><span class="xref-label">Table 1.1:</span> Loss by step</p>'
check "a listing's" contains "$pa" '<figure class="code listing" id="lst:step"><figcaption class="code-title"><span class="xref-label">Listing 1.1:</span> step.c</figcaption>'
check "table, listing and section references" contains "$pa" 'See <a href="#tbl:loss" class="xref">Table 1.1</a>, <a href="#lst:step" class="xref">Listing 1.1</a> and <a href="#sec:sum" class="xref">Summary</a>.'
check "what is not a cross-reference stays" contains "$pa" 'Not ours: [@kingma2015], <a href="mailto:me@example.org">me@example.org</a>, @eq:sgd, @bob.'
check "no placeholder is left" not_contains "$pa$pb$pc" "$(printf '\001')"
check "a post outside a series numbers plainly" contains "$pc" 'is <a href="#eq:x" class="xref">Eq. (1)</a>, and <a href="/posts/opt-2/#fig:adam" class="xref">Figure 2.1 of <em>Adam</em></a>.'
check "a series guide cites a part" contains "$(cat "$TMP/o/series/opt/index.html")" '<a href="/posts/opt-2/#eq:adam" class="xref">Eq. (2.1) of <em>Adam</em></a>'
backlinks_of() { # the "Referenced by" section of post $1 in output $2
	sed -n '/<section class="backlinks">/,/<\/section>/p' "$2/posts/$1/index.html"
}
check "a reference into a post is a link to it: Referenced by (Elsewhere only refers)" \
	test "$(backlinks_of opt-2 "$TMP/o")" = '  <section class="backlinks">
    <h2>Referenced by</h2>
    <ul>
      <li><a href="/posts/other/">Elsewhere</a></li>
      <li><a href="/posts/opt-1/">SGD</a></li>
    </ul>
  </section>'
check "a summary's text says the numbers" contains "$(cat "$TMP/o/index.html")" 'Plain SGD is Eq. (1.1); momentum is Eq. (1.2), Figure 1.1. Eq. (1.1) is older.'

# a build from the cache is the same site
cp -r "$TMP/o" "$TMP/first"
rm -rf "$TMP/o"
run build "$site" -o "$TMP/o"
check "a build from the cache writes the same site" diff -r -x .folio-output "$TMP/first" "$TMP/o"

# renumbered: a new figure before B's, then a build that has the cache
sed -i 's/^!\[Adam\]/![Before](\/t.png "Before"){#fig:before}\n\n![Adam]/' "$b"
run build "$site" -o "$TMP/o"
check "the renumbering builds" test "$rc" -eq 0
check "A shows B's new number" contains "$(cat "$TMP/o/posts/opt-1/index.html")" 'Figure 2.2 of <em>Adam</em>'
check "so does the post outside the series" contains "$(cat "$TMP/o/posts/other/index.html")" 'Figure 2.2 of <em>Adam</em>'
cp -r "$site" "$TMP/fresh"
rm -rf "$TMP/fresh/.folio-cache"
run build "$TMP/fresh" -o "$TMP/full"
check "the incremental build is the full build" diff -r -x .folio-output "$TMP/o" "$TMP/full"

# the errors, each where it is
bad=$TMP/bad
cp -r "$site" "$bad"
rm -rf "$bad/.folio-cache"
cat >"$bad/content/posts/bad.md" <<'EOF'
---
title: "Bad"
date: 2024-02-01
---
See @eq:adm and @fig:none.

$$ x $$ {#eq:adam}

$$ y $$ {#eq:adam}

$$ z $$ {#fig:eq}

Mixed [@eq:adam; @kingma2015]; @opt-3#eq:adam; @opt-2#fig:adm; [](missing.md#fig:a).

```c {#step}
x
```
EOF
run build "$bad" -o "$TMP/badout"
check "errors fail the build" test "$rc" -eq 1
check "an unknown label, with a guess" has_line "$err" "content/posts/bad.md:5:5: error: unknown label 'eq:adm' (did you mean 'eq:adam'?)"
check "an unknown label, no guess" has_line "$err" "content/posts/bad.md:5:17: error: unknown label 'fig:none' (hint: no fig: label in this post; another post's is @SLUG#fig:none)"
check "a duplicate label" has_line "$err" "content/posts/bad.md:9:1: error: duplicate label 'eq:adam' (first defined on line 7)"
check "a label of another kind" has_line "$err" "content/posts/bad.md:11:9: error: label 'fig:eq' on an equation (hint: its label starts with eq:)"
check "a bracket that mixes" has_line "$err" "content/posts/bad.md:13:7: error: '[@eq:adam; @kingma2015]' mixes cross-references and citations (hint: give each its own brackets: [@eq:a] [@smith2020])"
check "an unknown post" has_line "$err" "content/posts/bad.md:13:32: error: cross-reference to an unknown post 'opt-3' (did you mean 'opt-1'?)"
check "an unknown label of another post" has_line "$err" "content/posts/bad.md:13:48: error: unknown label 'fig:adm' in post 'opt-2' (did you mean 'fig:adam'?)"
check "a file that is no post" has_line "$err" "content/posts/bad.md:13:67: error: cross-reference to 'missing.md#fig:a': no post has that file"
check "a code block's id that is no listing's" has_line "$err" "content/posts/bad.md:15:1: error: code block: '#step' is no listing label (hint: a code block's label starts with lst:, as in {#lst:gemm})"
check "and nothing else" test "$(printf '%s\n' "$err" | grep -c ': error: ')" -eq 9
# a label whose prefix is not one of ours is text
cat >"$bad/content/posts/bad.md" <<'EOF'
---
title: "Bad"
date: 2024-02-01
---
![x](/t.png "T"){#photo}
EOF
run build "$bad" -o "$TMP/badout"
check "another id on a figure is text" contains "$(cat "$TMP/badout/posts/bad/index.html")" '{#photo}'
# a draft: left out of the build
cat >"$bad/content/posts/bad.md" <<'EOF'
---
title: "Bad"
date: 2024-02-01
draft: true
---
$$ x $$ {#eq:d}
EOF
printf '\nAnd @bad#eq:d.\n' >>"$bad/content/posts/other.md"
run build "$bad" -o "$TMP/badout"
check "a reference to a draft builds" test "$rc" -eq 0
check "it links where the draft will be" contains "$(cat "$TMP/badout/posts/other/index.html")" 'And <a href="/posts/bad/#eq:d" class="xref">Eq. (1) of <em>Bad</em></a>.'
check "the link check warns" contains "$err" "which this build leaves out (a draft): the link is dead until it is published"

# folio serve: an edit of B that renumbers its labels is a whole round,
# and the served site is what folio build writes
if command -v curl >/dev/null && [ -z "${XREF_NO_SERVE:-}" ]; then
	trap 'stop_serve' EXIT
	mkdir -p "$TMP/st"
	port=$(free_port)
	url=http://127.0.0.1:$port
	TMPDIR=$TMP/st "$FOLIO" serve "$site" --port "$port" >"$TMP/serve.out" 2>"$TMP/serve.err" &
	spid=$!
	serve_wait
	check "the server answers" test "$up" -eq 1
	python3 -c 'import sys; p = sys.argv[1]; d = open(p).read().replace("![Before]", "![Third](/t.png \"Third\"){#fig:third}\n\n![Before]"); open(p, "w").write(d)' "$b"
	for _ in $(seq 1 $((150 * ws))); do
		grep -q "rebuilt in" "$TMP/serve.err" && break
		sleep 0.1
	done
	check "the server rebuilt" grep -q "rebuilt in" "$TMP/serve.err"
	check "the served A shows the new number" contains "$(curl -s --max-time 5 "$url/posts/opt-1/")" 'Figure 2.3 of <em>Adam</em>'
	rm -rf "$TMP/full"
	"$FOLIO" build "$site" -o "$TMP/full" >/dev/null 2>&1
	live=$(ls -d "$TMP"/st/folio-serve-*/site)
	check "the served site is what folio build writes" diff -r -x .folio-output "$live" "$TMP/full"
	stop_serve
	spid=""
fi

finish

# test_cite.sh: citations from BibTeX (folio-site(5), Citations): whole
# sites in both styles, the References, every error message exact (an
# unknown key, a typo of one in the text, a bracket of both kinds, a
# missing .bib at the key that names it, a broken .bib at its own place,
# bad keys), a site without a bibliography unchanged, and a .bib edited:
# the next build (with its cache) and folio serve's rebuild equal a full
# build, and only the pages that cite it are rendered again.
. "$(dirname "$0")/lib.sh"

spid=""
cleanup() {
	stop_serve
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

site=$TMP/site
mkdir -p "$site/content/posts"
cat >"$site/folio.yml" <<'EOF'
title: Cite
base_url: https://example.com/
bibliography: refs.bib
EOF
cat >"$site/refs.bib" <<'EOF'
Text outside entries is ignored, as BibTeX does.
@string{neurips = {Advances in Neural Information Processing Systems}}
@inproceedings{vaswani2017,
  title = {Attention Is All You Need},
  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and others},
  booktitle = neurips # { 30},
  year = 2017,
  eprint = {1706.03762}, archivePrefix = {arXiv},
}
@article{kingma2014,
  title = "{Adam}: A Method for Stochastic Optimization",
  author = {Diederik P. Kingma and Jimmy Ba},
  year = 2014, month = dec,
  url = {https://arxiv.org/abs/1412.6980},
}
@inproceedings{dao2022,
  title = {{FlashAttention}: Fast and Memory-Efficient Exact Attention with {IO}-Awareness},
  author = {Dao, Tri and Fu, Daniel Y. and Ermon, Stefano and Rudra, Atri and R{\'e}, Christopher},
  booktitle = neurips,
  year = 2022,
  doi = {10.48550/arXiv.2205.14135},
}
@book{goedel1931,
  title = {{\"U}ber formal unentscheidbare S{\"a}tze},
  author = {G{\"o}del, Kurt},
  publisher = {Springer},
  year = 1931,
}
EOF
cat >"$site/content/posts/numeric.md" <<'EOF'
---
title: Numeric
date: 2024-01-01
---
Transformers [@vaswani2017] train with Adam [@kingma2014; @dao2022, p. 4].
As @vaswani2017 showed [see @dao2022, ch. 2], and [@vaswani2017; @kingma2014; @dao2022].
Write to a@b.com or @someone; \@vaswani2017 is escaped; [@eq:adam] is another's.

$$ m_t = \beta_1 m_{t-1} $$ {#eq:adam}
EOF
cat >"$site/content/posts/authoryear.md" <<'EOF'
---
title: Author-year
date: 2024-01-02
citation_style: author-year
---
Attention [@vaswani2017; @dao2022, p. 4] and [-@kingma2014]; @goedel1931 proved it.
EOF
cat >"$site/content/posts/plain.md" <<'EOF'
---
title: Plain
date: 2024-01-03
---
No citation here, only @someone.
EOF

run build "$site"
check "the site builds" test "$rc" -eq 0 -a -z "$err"
n=$(cat "$site/public/posts/numeric/index.html")
check "a bracket: its number, a link to its entry" contains "$n" 'Transformers [<a href="#ref-vaswani2017">1</a>] train'
check "two keys, a locator" contains "$n" 'Adam [<a href="#ref-kingma2014">2</a>; <a href="#ref-dao2022">3</a>, p. 4].'
check "a key in the text: the authors and the number" contains "$n" 'As <a href="#ref-vaswani2017">Vaswani et al. [1]</a> showed'
check "a prefix and a locator" contains "$n" '[see <a href="#ref-dao2022">3</a>, ch. 2]'
check "three in a row: a range" contains "$n" 'and [<a href="#ref-vaswani2017">1</a>–<a href="#ref-dao2022">3</a>].'
check "an e-mail, an @name, an escaped @ and a cross-reference stay" \
	contains "$n" '<a href="mailto:a@b.com">a@b.com</a> or @someone; @vaswani2017 is escaped; <a href="#eq:adam" class="xref">Eq. (1)</a> is another’s.'
check "the References: numbered, before the end" contains "$n" '<section class="references">
<h2>References</h2>
<ol>
<li id="ref-vaswani2017">Ashish Vaswani, Noam Shazeer, Niki Parmar et al. 2017. Attention Is All You Need. <em>Advances in Neural Information Processing Systems 30</em>. <a href="https://arxiv.org/abs/1706.03762">arXiv:1706.03762</a></li>
<li id="ref-kingma2014">Diederik P. Kingma and Jimmy Ba. 2014. Adam: A Method for Stochastic Optimization. <a href="https://arxiv.org/abs/1412.6980">arXiv:1412.6980</a></li>
<li id="ref-dao2022">Tri Dao, Daniel Y. Fu, Stefano Ermon, Atri Rudra and Christopher Ré. 2022. FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness. <em>Advances in Neural Information Processing Systems</em>. <a href="https://doi.org/10.48550/arXiv.2205.14135">doi:10.48550/arXiv.2205.14135</a></li>
</ol>
</section>'
check "only the works cited" not_contains "$n" 'ref-goedel1931'
a=$(cat "$site/public/posts/authoryear/index.html")
check "author-year: names and years, a locator" \
	contains "$a" 'Attention (<a href="#ref-vaswani2017">Vaswani et al., 2017</a>; <a href="#ref-dao2022">Dao et al., 2022</a>, p. 4)'
check "author-year: the author left out" contains "$a" 'and (<a href="#ref-kingma2014">2014</a>);'
check "author-year: a key in the text" contains "$a" '<a href="#ref-goedel1931">Gödel (1931)</a> proved it.'
check "author-year: the References by author, a book's title in italics" contains "$a" '<h2>References</h2>
<ul>
<li id="ref-dao2022">'
check "a book" contains "$a" '<li id="ref-goedel1931">Kurt Gödel. 1931. <em>Über formal unentscheidbare Sätze</em>. Springer.</li>'
check "a list page's summary has the citation's text, no link" \
	contains "$(cat "$site/public/index.html")" 'Attention (Vaswani et al., 2017; Dao et al., 2022, p. 4) and (2014); Gödel (1931) proved it.'
check "a post that cites nothing has no References" not_contains "$(cat "$site/public/posts/plain/index.html")" 'references'

# without a bibliography, [@word] and @word are text, as before
nobib=$TMP/nobib
mkdir -p "$nobib/content/posts"
printf 'title: T\nbase_url: https://example.com/\n' >"$nobib/folio.yml"
printf -- '---\ntitle: N\ndate: 2024-01-01\n---\nAsk [@someone] or @vaswani2017.\n' >"$nobib/content/posts/n.md"
run build "$nobib"
check "no bibliography: builds" test "$rc" -eq 0 -a -z "$err"
check "no bibliography: the text as written" contains "$(cat "$nobib/public/posts/n/index.html")" '<p>Ask [@someone] or @vaswani2017.</p>'

# nocite: listed without a citation, after those cited; "*": every entry
printf -- '---\ntitle: Reading\ndate: 2024-01-04\nnocite: [goedel1931]\n---\nSee [@dao2022].\n' >"$site/content/posts/nocite.md"
run build "$site"
r=$(cat "$site/public/posts/nocite/index.html")
check "nocite: the entry listed after the cited one" contains "$r" '<ol>
<li id="ref-dao2022">'
check "nocite: the entry listed" contains "$r" '<li id="ref-goedel1931">Kurt Gödel. 1931.'
printf -- '---\ntitle: Reading\ndate: 2024-01-04\nnocite: "*"\n---\nNo citation.\n' >"$site/content/posts/nocite.md"
run build "$site"
check "nocite \"*\": every entry, with no citation in the text" \
	test "$(grep -c '<li id="ref-' "$site/public/posts/nocite/index.html")" -eq 4
printf -- '---\ntitle: Reading\ndate: 2024-01-04\nnocite: [goedel1913]\n---\nText.\n' >"$site/content/posts/nocite.md"
run build "$site"
check "nocite: an unknown key at its place" has_line "$err" "content/posts/nocite.md:4:10: error: nocite: unknown citation key 'goedel1913' (did you mean 'goedel1931'?)"
printf -- '---\ntitle: Reading\ndate: 2024-01-04\nnocite: 3\n---\nText.\n' >"$site/content/posts/nocite.md"
run build "$site"
check "nocite: neither a list nor '*'" has_line "$err" "content/posts/nocite.md:4:9: error: 'nocite' must be a list of citation keys, or '*' for every entry, found an integer"
rm "$site/content/posts/nocite.md"

# errors, each exact
bad() { # bad NAME BODY: a post with BODY, built: rc 1, its messages
	printf -- '---\ntitle: Bad\ndate: 2024-02-01\n---\n%s\n' "$2" >"$site/content/posts/bad.md"
	run build "$site"
	rm -f "$site/content/posts/bad.md"
}
bad unknown 'See [@vaswani217] here.'
check "an unknown key: rc 1" test "$rc" -eq 1
check "an unknown key: did you mean" has_line "$err" "content/posts/bad.md:5:6: error: unknown citation key 'vaswani217' (did you mean 'vaswani2017'?)"
bad unknown2 'See [@smith1999; @dao2022] here.'
check "an unknown key, nothing near it" has_line "$err" "content/posts/bad.md:5:6: error: unknown citation key 'smith1999' (no entry of the post's bibliography has it)"
bad typo 'As @kingma2041 showed, and @username said.'
check "a typo of a key in the text" has_line "$err" "content/posts/bad.md:5:4: error: unknown citation key 'kingma2041' (did you mean 'kingma2014'?)"
check "an @name far from every key is text" test "$(printf '%s\n' "$err" | grep -c 'error:')" -eq 1
bad mixed 'Mixed [@eq:adam; @dao2022].'
check "a bracket of both kinds (xref.c's message, said once)" has_line "$err" "content/posts/bad.md:5:7: error: '[@eq:adam; @dao2022]' mixes cross-references and citations (hint: give each its own brackets: [@eq:a] [@smith2020])"

printf -- '---\ntitle: M\ndate: 2024-02-02\nbibliography: [refs.bib, more.bib]\n---\nSee [@x].\n' >"$site/content/posts/missing.md"
run build "$site"
check "a missing .bib: at the front matter's key" has_line "$err" "content/posts/missing.md:4:26: error: bibliography file 'more.bib' not found (paths are relative to the site's folder)"
check "a missing .bib: no error at each citation" not_contains "$err" "unknown citation key"
printf -- '---\ntitle: M\ndate: 2024-02-02\nbibliography: ../x.bib\n---\nSee [@x].\n' >"$site/content/posts/missing.md"
run build "$site"
check "a .bib outside the site" has_line "$err" "content/posts/missing.md:4:15: error: bibliography path '../x.bib' must be inside the site (relative to its folder, without '..')"
rm "$site/content/posts/missing.md"

cp "$site/folio.yml" "$TMP/folio.yml"
printf 'bibliography: [refs.bib, gone.bib]\ncitation_style: harvard\n' >"$TMP/tail.yml"
sed '/^bibliography/d' "$TMP/folio.yml" >"$site/folio.yml"
cat "$TMP/tail.yml" >>"$site/folio.yml"
run build "$site"
check "folio.yml: a missing .bib at its key" has_line "$err" "folio.yml:3:26: error: bibliography file 'gone.bib' not found (paths are relative to the site's folder)"
check "folio.yml: an unknown style" has_line "$err" "folio.yml:4:17: error: citation_style must be 'numeric' or 'author-year', found 'harvard'"
sed '/^bibliography/d' "$TMP/folio.yml" >"$site/folio.yml"
printf 'bibliography: 12x\ncitation_style: [numeric]\n' >>"$site/folio.yml"
run build "$site"
check "folio.yml: a style that is no string" has_line "$err" "folio.yml:4:17: error:"
cp "$TMP/folio.yml" "$site/folio.yml"

cp "$site/refs.bib" "$TMP/refs.bib"
printf '@article{broken,\n  title = {Open,\n  year = 2020\n}\n' >>"$site/refs.bib"
run build "$site"
check "a broken .bib: at its own place" has_line "$err" "refs.bib:29:9: error: unclosed '{': the entry 'broken' never ends (add '}' after its last field)"
check "a broken .bib: the posts' citations say nothing more" not_contains "$err" "unknown citation key"
cp "$TMP/refs.bib" "$site/refs.bib"
printf '@book{latin1, title = {G\366del}}\n' >>"$site/refs.bib"
run build "$site"
check "a .bib that is not UTF-8" has_line "$err" "refs.bib:29:25: error: byte 0xF6 is not UTF-8 (hint: save the file as UTF-8; from Latin-1: iconv -f LATIN1 -t UTF-8 refs.bib > new.bib)"
cp "$TMP/refs.bib" "$site/refs.bib"
printf '@book{dao2022, title = {Again}}\n@book{, title = {No key}}\n@book{k2, title {x}}\n' >>"$site/refs.bib"
run build "$site"
check "a duplicate key" has_line "$err" "refs.bib:29:7: error: duplicate key 'dao2022' (the first is at line 16; keys must be unique)"
check "an entry without a key" has_line "$err" "refs.bib:30:7: error: the @book entry has no key (write @book{KEY, ...}: the key is what posts cite)"
check "a field without '='" has_line "$err" "refs.bib:31:17: error: expected '=' after the field name 'title' in the entry 'k2'"
cp "$TMP/refs.bib" "$site/refs.bib"

# a .bib edited: a build with the cache equals a full build, and renders
# again the posts that cite it
rm -rf "$site/public"
run build "$site"
check "built again" test "$rc" -eq 0
sed -i 's/Attention Is All You Need/Attention Is All You Need, Revised/' "$site/refs.bib"
run build "$site"
check "the .bib edited: built" test "$rc" -eq 0
# full NAME: a build of the site as it is now, without its cache, in $TMP/full
full() {
	rm -rf "$TMP/fresh" "$TMP/full"
	cp -r "$site" "$TMP/fresh"
	rm -rf "$TMP/fresh/.folio-cache" "$TMP/fresh/public"
	"$FOLIO" build "$TMP/fresh" -o "$TMP/full" >/dev/null 2>&1
}
full
d=$(diff -r -q -x .folio-output "$site/public" "$TMP/full" 2>&1)
check "the .bib edited: the build with its cache is a full build's ($d)" test -z "$d"
check "the edit is shown" grep -q 'Attention Is All You Need, Revised' "$site/public/posts/numeric/index.html"

# folio serve: the .bib edited, the served site is a full build's
serve_start "$site" "$TMP"
serve_wait
check "the server answers" test "$up" -eq 1
serve_settle 0
before=$(serve_builds)
sed -i 's/Attention Is All You Need, Revised/Attention Is All You Need, Third/' "$site/refs.bib"
serve_settle "$before"
served=$(ls -d "$TMP"/folio-serve-*/site 2>/dev/null | head -n 1)
full
d=$(diff -r -q -x .folio-output "$served" "$TMP/full" 2>&1)
check "folio serve: the .bib edited, the served site is a full build's ($d)" test -n "$served" -a -z "$d"
check "folio serve: the edit is served" grep -q 'Attention Is All You Need, Third' "$served/posts/numeric/index.html"
r=$(grep -E '^folio serve: rebuilt' "$TMP/serve.err" | tail -n 1 | sed -E 's/.*: ([0-9]+) of ([0-9]+) pages.*/\1 \2/')
check "folio serve: the pages that cite it rendered, not the site ($r)" test -n "$r" -a "${r% *}" -gt 0 -a "${r% *}" -lt "${r#* }"
# a citing post's text edited: folio serve patches the post (its
# bibliography kept), and the served site is a full build's
before=$(serve_builds)
printf '\nOne more: [@goedel1931; @kingma2014] (sorted).\n' >>"$site/content/posts/numeric.md"
serve_settle "$before"
full
d=$(diff -r -q -x .folio-output "$served" "$TMP/full" 2>&1)
check "folio serve: a citing post edited, the served site is a full build's ($d)" test -z "$d"
check "folio serve: the new citation is served" \
	grep -q 'One more: \[<a href="#ref-kingma2014">2</a>, <a href="#ref-goedel1931">4</a>\] (sorted)' "$served/posts/numeric/index.html"
stop_serve
spid=""

finish

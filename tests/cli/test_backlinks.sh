# test_backlinks.sh: each post knows the posts whose bodies link to it
# (post.backlinks, the theme's "Referenced by"): a link counts in every
# form (x.md, @/posts/x.md, /posts/x/, ../x/, the site's absolute URL),
# once per linking post, never a post's link to itself, a page's or a
# draft's; under a sub-path base URL too. An edit that adds or removes a
# link re-renders the linked post's page: in an incremental build and in
# folio serve (whose patch leaves such an edit to a whole round), the
# output is byte for byte a full build's.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1790000000

site=$TMP/site
mkdir -p "$site/content/posts" "$site/content/pages"
cat >"$site/folio.yml" <<'EOF'
title: Backlinks
base_url: https://example.org/
EOF
post() { # post SLUG DATE BODY [EXTRA FRONT MATTER]
	printf -- '---\ntitle: "Post %s"\ndate: %s\n%s---\n\n%s\n' "$1" "$2" "${4:-}" "$3" >"$site/content/posts/$1.md"
}
post a 2026-01-01 'Post A links to nothing but [itself](/posts/a/#top).

## Top'
post b 2026-01-02 'B cites [A](a.md) and [A again](a.md#top).'
post c 2026-01-03 'C cites [A](../a/) and [B](/posts/b), and [C](/posts/c/).'
post d 2026-01-04 'D cites [A](@/posts/a.md) and [A](https://example.org/posts/a/index.html?x=1), not [elsewhere](https://other.org/posts/a/).'
post e 2026-01-05 'E, a draft, cites [A](a.md).' 'draft: true
'
printf -- '---\ntitle: About\n---\n\nThe about page cites [A](/posts/a/).\n' >"$site/content/pages/about.md"

section() { # the "Referenced by" section of post $1's page in output $2
	sed -n '/<section class="backlinks">/,/<\/section>/p' "$2/posts/$1/index.html"
}

run build "$site" -o "$TMP/o1"
check "the site builds" test "$rc" -eq 0
expect_a='  <section class="backlinks">
    <h2>Referenced by</h2>
    <ul>
      <li><a href="/posts/d/">Post d</a></li>
      <li><a href="/posts/c/">Post c</a></li>
      <li><a href="/posts/b/">Post b</a></li>
    </ul>
  </section>'
out=$(section a "$TMP/o1")
check "A is referenced by D, C and B, newest first, once each (no page, no draft, no other site)" \
	test "$out" = "$expect_a"
out=$(section b "$TMP/o1")
check "B is referenced by C (a link without its slash)" contains "$out" '<li><a href="/posts/c/">Post c</a></li>'
out=$(section c "$TMP/o1")
check "C links to itself only: no section" test -z "$out"
out=$(section d "$TMP/o1")
check "nothing links to D: no section" test -z "$out"

# a sub-path base URL: the links are rewritten under /blog/, and count
cat >"$site/folio.yml" <<'EOF'
title: Backlinks
base_url: https://example.org/blog/
EOF
post d 2026-01-04 'D cites [A](https://example.org/blog/posts/a/) and [B](/posts/b/).'
run build "$site" -o "$TMP/sub"
check "the site under /blog/ builds" test "$rc" -eq 0
out=$(section a "$TMP/sub")
check "under /blog/: A is referenced by D (its absolute URL), C and B" \
	test "$(printf '%s' "$out" | grep -c '<li>')" -eq 3
out=$(section b "$TMP/sub")
check "under /blog/: B is referenced by D (a root-relative link) and C" \
	contains "$out" '<li><a href="/blog/posts/d/">Post d</a></li>'
cat >"$site/folio.yml" <<'EOF'
title: Backlinks
base_url: https://example.org/
EOF

# the incremental build: the same output folder and cache, one edit at a
# time, compared with a full build from nothing
same_as_fresh() { # same_as_fresh DIR WHAT: DIR is what a build from nothing writes
	rm -rf "$TMP/fresh" "$TMP/fresh-site"
	cp -r "$site" "$TMP/fresh-site"
	rm -rf "$TMP/fresh-site/.folio-cache"
	"$FOLIO" build "$TMP/fresh-site" -o "$TMP/fresh" >/dev/null 2>&1
	d=$(diff -r -x .folio-output "$1" "$TMP/fresh" 2>&1 | head -20)
	out=$d
	check "$2" test -z "$d"
}
full() { # full NAME: the incremental build equals a fresh one
	run build "$site" -o "$TMP/inc"
	same_as_fresh "$TMP/inc" "$1: the incremental build is a full build's"
}
post d 2026-01-04 'D cites nothing.'
run build "$site" -o "$TMP/inc"
full "the first build"
post d 2026-01-04 'D cites [B](b.md) now.'
full "a link added to D"
check "B's page lists D" contains "$(section b "$TMP/inc")" '<a href="/posts/d/">Post d</a>'
post c 2026-01-03 'C cites [A](../a/) only.'
full "a link removed from C"
check "B's page no longer lists C" not_contains "$(section b "$TMP/inc")" 'Post c'
sed -i 's/^title: "Post b"/title: "Post B, renamed"/' "$site/content/posts/b.md"
full "the title of a linking post changed"
check "A's page shows B's new title" contains "$(section a "$TMP/inc")" 'Post B, renamed'

# folio serve: a body edit that changes a post's links is a whole round
# (the patch of one page would leave the linked post's page as it was)
need_curl
mkdir -p "$TMP/st"
export FOLIO_TIMINGS=1
serve_start "$site" "$TMP/st"
serve_wait
check "the server answers" test "$up" -eq 1
rounds() { serve_builds; }
settle() { serve_settle $(($1 - 1)) 0.3; } # settle N: N rounds are done, and no other follows
settle 1
served=$(ls -d "$TMP"/st/folio-serve-*/site 2>/dev/null | head -n 1)
same_as_served() { same_as_fresh "$served" "$1: the served site is a full build's"; }
patches() { grep -c "timings (ms): patch:" "$TMP/serve.err"; }
save() { # save FILE TEXT: written in place, as an editor saves
	python3 -c 'import sys; open(sys.argv[1], "w").write(sys.argv[2])' "$1" "$2"
}
n=$(patches)
save "$site/content/posts/d.md" "$(printf -- '---\ntitle: "Post d"\ndate: 2026-01-04\n---\n\nD cites [B](b.md) and [C](c.md) now.\n')"
settle 2
check "serve: a link added is a whole round, not a patch" test "$(patches)" -eq "$n"
check "serve: C's page lists D" contains "$(section c "$served")" '<a href="/posts/d/">Post d</a>'
same_as_served "serve: a link added"
save "$site/content/posts/d.md" "$(printf -- '---\ntitle: "Post d"\ndate: 2026-01-04\n---\n\nD cites [C](c.md) only.\n')"
settle 3
check "serve: B's page no longer lists D" not_contains "$(section b "$served")" 'Post d'
same_as_served "serve: a link removed"
save "$site/content/posts/d.md" "$(printf -- '---\ntitle: "Post d"\ndate: 2026-01-04\n---\n\nD, edited, cites [C](c.md) only.\n')"
settle 4
check "serve: an edit that keeps the links is patched" test "$(patches)" -eq $((n + 1))
same_as_served "serve: the same links"
stop_serve
finish

# test_udirs.sh: directives of a site's own (folio-site(5), Directives of
# your own): templates/directives/NAME.html with their declared arguments,
# called as a block (youtube, callout), a leaf and inline (kbd); the HTML
# exact; every bad call and bad declaration with its exact message; a
# template edited: the next build and folio serve's rebuild equal a full
# build, and only the pages that call it are rendered again.
. "$(dirname "$0")/lib.sh"

spid=""
cleanup() {
	stop_serve
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

site=$TMP/site
mkdir -p "$site/content/posts" "$site/templates/directives"
cat >"$site/folio.yml" <<'EOF'
title: Own directives
base_url: https://example.com/
EOF
cat >"$site/templates/directives/youtube.html" <<'EOF'
{# args:
     id: {type: string, required: true}
     start: {type: int, default: 0}
     title: string
#}
<figure class="youtube"><iframe src="https://www.youtube-nocookie.com/embed/{{ id }}?start={{ start }}" title="{{ title or 'A video' }}"></iframe>{% if content %}<figcaption>{{ content }}</figcaption>{% endif %}</figure>
EOF
cat >"$site/templates/directives/callout.html" <<'EOF'
{# args:
     kind: {type: string, default: info}
     open: bool
     ratio: number
#}
<aside class="callout callout-{{ kind }}"{% if open %} data-open{% endif %}{% if ratio %} data-ratio="{{ ratio }}"{% endif %}>{{ content }}</aside>
EOF
cat >"$site/templates/directives/kbd.html" <<'EOF'
<kbd>{{ content }}</kbd>
EOF
cat >"$site/content/posts/calls.md" <<'EOF'
---
title: Calls
date: 2024-03-01
---

:::youtube{id="dQw4w9WgXcQ" start=42 title="A <talk>"}
The **talk** itself.
:::

::youtube{id="abc"}

:::callout{kind=warning open ratio=1.5}
Outer *text*.

:::callout
Inner.
:::
:::

Press :kbd[Ctrl+**C**] to stop, or :kbd[Esc]; a time 12:30[1] and see:other[x] stay text.
In code `:kbd[x]` stays.
Nested: :kbd[Ctrl+:kbd[Shift]+*P*] and :kbd[:kbd[:kbd[z]]].
EOF
cat >"$site/content/posts/plain.md" <<'EOF'
---
title: Plain
date: 2024-03-02
---

No directive here.
EOF
cat >"$site/content/posts/first.md" <<'EOF'
---
title: First
date: 2024-03-03
---

Press :kbd[Esc] first: the summary holds the call.
EOF
run build "$site"
check "a site with its own directives builds" test "$rc" -eq 0
page=$site/public/posts/calls/index.html
body=$(sed -n '/<div class="post-body/,/^  <\/div>/p' "$page")
check "a block call: its template with the arguments, escaped, and the body's HTML" contains "$body" '<!----><figure class="youtube"><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42" title="A &lt;talk&gt;"></iframe><figcaption>
<p>The <strong>talk</strong> itself.</p>
<!----></figcaption></figure>'
check "a leaf call: the defaults, no content" contains "$body" '<figure class="youtube"><iframe src="https://www.youtube-nocookie.com/embed/abc?start=0" title="A video"></iframe></figure>'
check "nested calls: the inner inside the outer, a bare flag true, a number" contains "$body" '<!----><aside class="callout callout-warning" data-open data-ratio="1.5">
<p>Outer <em>text</em>.</p>
<!----><aside class="callout callout-info">
<p>Inner.</p>
<!----></aside>
<!----></aside>'
check "inline calls: on their line, their content's inlines rendered" contains "$body" '<p>Press <kbd>Ctrl+<strong>C</strong></kbd> to stop, or <kbd>Esc</kbd>; a time 12:30[1] and see:other[x] stay text.'
check "... but not in code" contains "$body" '<code>:kbd[x]</code>'
check "inline calls in an inline call's content" contains "$body" 'Nested: <kbd>Ctrl+<kbd>Shift</kbd>+<em>P</em></kbd> and <kbd><kbd><kbd>z</kbd></kbd></kbd>.'
check "no marker is left, in any file (summaries, feeds)" test -z "$(grep -rl folio-udir "$site/public")"
check "a call in a summary is rendered there (the JSON feed's summary HTML)" grep -q 'Press \\u003ckbd\\u003eEsc\\u003c/kbd\\u003e first' "$site/public/feed.json"
check "... and its text in the summary text" grep -q '"summary": "Press Esc first' "$site/public/feed.json"

# every bad call, with its exact message
bad=$TMP/bad
cp -r "$site" "$bad"
rm -rf "$bad/public" "$bad/.folio-cache"
cat >"$bad/content/posts/plain.md" <<'EOF'
---
title: Plain
date: 2024-03-02
---

:::youtub{id=x}
:::

:::youtube{idd="x"}
:::

::youtube{id="x" start=soon}

:::callout{open=maybe ratio=wide}
:::

Inline :kbd[x]{os=mac} too.
EOF
run build "$bad"
check "bad calls: exit 1" test "$rc" -eq 1
check "an unknown directive, with the nearest" has_line "$err" "content/posts/plain.md:6:1: error: unknown directive ':::youtub' (did you mean ':::youtube'?)"
check "a missing required argument" has_line "$err" 'content/posts/plain.md:9:1: error: :::youtube needs id="..." (string, required by templates/directives/youtube.html)'
check "an unknown argument, with the nearest" has_line "$err" "content/posts/plain.md:9:12: error: :::youtube has no argument 'idd' (did you mean 'id'? templates/directives/youtube.html declares its arguments)"
check "a wrong type (int)" has_line "$err" "content/posts/plain.md:12:18: error: ::youtube: start must be an int, not 'soon'"
check "a wrong type (bool)" has_line "$err" "content/posts/plain.md:14:12: error: :::callout: open must be a bool, not 'maybe'"
check "a wrong type (number)" has_line "$err" "content/posts/plain.md:14:23: error: :::callout: ratio must be a number, not 'wide'"
check "an inline call's argument: a template without a declaration takes none" has_line "$err" "content/posts/plain.md:17:16: error: :kbd has no argument 'os' (templates/directives/kbd.html declares its arguments)"
check "... and the count" contains "$err" "folio: 7 errors; nothing was written"
printf ':::callout\nnever closed\n' >>"$bad/content/posts/plain.md"
run build "$bad"
check "an unclosed block call" has_line "$err" "content/posts/plain.md:18:1: error: unclosed ':::callout' (hint: end it with a line ':::')"

# a template's own error, at the call
cp "$site/templates/directives/kbd.html" "$TMP/kbd.html"
printf '<kbd>{{ contnt }}</kbd>\n' >"$site/templates/directives/kbd.html"
run build "$site" -o "$TMP/out-err"
check "a template's error: exit 1" test "$rc" -eq 1
check "... at the call, naming the template's place" has_line "$err" "content/posts/calls.md:20:7: error: :kbd: templates/directives/kbd.html:1:9: undefined variable 'contnt' (did you mean 'content'?)"
cp "$TMP/kbd.html" "$site/templates/directives/kbd.html"

# bad declarations, at their place in the template
decl=$TMP/decl
cp -r "$site" "$decl"
rm -rf "$decl/public" "$decl/.folio-cache"
cat >"$decl/templates/directives/youtube.html" <<'EOF'
{# args:
     id: {type: strin, required: true, defualt: 3}
     content: string
     start: {type: int, default: soon}
     must: {type: string, required: true, default: x}
     bad: [1, 2]
#}
<p>{{ id }}</p>
EOF
run build "$decl"
check "bad declarations: exit 1" test "$rc" -eq 1
check "an unknown type, with the nearest" has_line "$err" "templates/directives/youtube.html:2:17: error: argument id: unknown type 'strin' (did you mean 'string'?)"
check "an unknown key, with the nearest" has_line "$err" "templates/directives/youtube.html:2:40: error: argument id: unknown key 'defualt' (did you mean 'default'?)"
check "a name the template has already" has_line "$err" "templates/directives/youtube.html:3:6: error: 'content' cannot name an argument"
check "a default of the wrong type" has_line "$err" "templates/directives/youtube.html:4:34: error: argument start: its default must be int"
check "a required argument with a default" has_line "$err" "templates/directives/youtube.html:5:52: error: argument must: a required argument has no default"
check "neither a type nor a map" has_line "$err" "templates/directives/youtube.html:6:11: error: argument bad: a type (string, int, number, bool) or a map of type, required and default"
check "... and no error from the calls of a broken declaration" not_contains "$err" "content/posts/calls.md"

# folio's callouts: the theme's templates of them, exported, draw the
# same bytes; edited, they
# replace folio's, arguments and all
ov=$TMP/ov
mkdir -p "$ov/content/posts"
printf 'title: Callouts\nbase_url: https://example.com/\nlanguage: fr\n' >"$ov/folio.yml"
printf -- '---\ntitle: N\ndate: 2024-01-01\n---\n\n:::note\nBody **x**.\n:::\n\n:::tip{title="Astuce du jour"}\nMore.\n:::\n\n:::warning\nCareful.\n:::\n' \
	>"$ov/content/posts/n.md"
body_of() { sed -n '/<div class="post-body/,/^  <\/div>/p' "$1"; }
"$FOLIO" build "$ov" -o "$TMP/ov-a" >/dev/null 2>&1
run theme export "$ov" directives/note.html directives/tip.html directives/warning.html
check "folio theme export exports the callouts' templates" test -f "$ov/templates/directives/note.html" -a -f "$ov/templates/directives/warning.html"
"$FOLIO" build "$ov" -o "$TMP/ov-b" >/dev/null 2>&1
check "... which draw the callouts as folio does (the site's language's words too)" test "$(body_of "$TMP/ov-a/posts/n/index.html")" = "$(body_of "$TMP/ov-b/posts/n/index.html")"
check "... in French" grep -q '<p class="callout-title">Remarque</p>' "$TMP/ov-b/posts/n/index.html"
cat >"$ov/templates/directives/note.html" <<'EOF'
{# args:
     icon: {type: string, default: "i"}
#}
<aside class="my-note"><span>{{ icon }}</span>{{ content }}</aside>
EOF
"$FOLIO" build "$ov" -o "$TMP/ov-c" >/dev/null 2>&1
check "a site's own note.html replaces folio's :::note" grep -q '<aside class="my-note"><span>i</span>' "$TMP/ov-c/posts/n/index.html"
check "... and only it" grep -q 'class="callout callout-tip"' "$TMP/ov-c/posts/n/index.html"
printf ':::note{title="x"}\nA.\n:::\n' >>"$ov/content/posts/n.md"
run build "$ov" -o "$TMP/ov-d"
check "... arguments and all: folio's title is not its" has_line "$err" "content/posts/n.md:17:9: error: :::note has no argument 'title' (templates/directives/note.html declares its arguments)"

# folio's media: the theme's templates of them, exported, draw the same
# bytes; a site's own sees media.element (folio's element, sized from the
# files), media.width, media.height; the files are still checked
md=$TMP/media
mkdir -p "$md/content/posts/m"
printf 'title: Media\nbase_url: https://example.com/\n' >"$md/folio.yml"
printf '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180"></svg>\n' >"$md/content/posts/m/still.svg"
printf 'not really a video\n' >"$md/content/posts/m/clip.mp4"
printf 'glTF\n' >"$md/content/posts/m/m.glb"
cat >"$md/content/posts/m/index.md" <<'EOF'
---
title: M
date: 2024-01-01
---

:::video{src="clip.mp4" poster="still.svg" caption="A <clip>"}
:::

::animation{src="clip.mp4" poster="still.svg"}

:::model3d{src="m.glb" poster="still.svg" alt="A model" auto-rotate}
:::
EOF
"$FOLIO" build "$md" -o "$TMP/md-a" >/dev/null 2>&1
run theme export "$md" directives/video.html directives/animation.html directives/model3d.html
check "folio theme export exports the media's templates" test -f "$md/templates/directives/video.html" -a -f "$md/templates/directives/model3d.html"
run build "$md" -o "$TMP/md-b"
check "... which build" test "$rc" -eq 0
check "... and draw the media as folio does" test "$(body_of "$TMP/md-a/posts/m/index.html")" = "$(body_of "$TMP/md-b/posts/m/index.html")"
check "... (folio's own: a video, an animation, a model)" grep -q '<figure class="model3d"><model-viewer src="m.glb"' "$TMP/md-b/posts/m/index.html"
cat >"$md/templates/directives/video.html" <<'EOF'
{# args:
     src: {type: string, required: true}
     poster: string
     caption: string
#}
<div class="my-video" data-w="{{ media.width }}" data-h="{{ media.height }}">{{ media.element }}<a href="{{ src }}" download>Download</a>{% if caption %}<p>{{ caption }}</p>{% endif %}</div>
EOF
run build "$md" -o "$TMP/md-c"
check "a site's own video.html: folio's element in its own HTML, sized from the poster" contains "$(cat "$TMP/md-c/posts/m/index.html")" \
	'<div class="my-video" data-w="320" data-h="180"><video controls preload="metadata" playsinline src="clip.mp4" poster="still.svg" width="320" height="180" aria-label="A &lt;clip&gt;"></video><a href="clip.mp4" download>Download</a><p>A &lt;clip&gt;</p></div>'
check "... the other media still folio's" grep -q '<video class="animation" autoplay loop muted playsinline src="clip.mp4"' "$TMP/md-c/posts/m/index.html"
sed -i 's/src="clip.mp4" poster="still.svg" caption/src="gone.mp4" poster="still.svg" caption/' "$md/content/posts/m/index.md"
run build "$md" -o "$TMP/md-d"
check "... its files are checked as folio's are" has_line "$err" "content/posts/m/index.md:6:10: error: :::video src 'gone.mp4' not found (looked beside the post)"
printf '{# args:\n     media: string\n#}\nx\n' >"$md/templates/directives/video.html"
run build "$md" -o "$TMP/md-e"
check "media is the template's own name, not an argument's" has_line "$err" "templates/directives/video.html:2:6: error: 'media' cannot name an argument (a letter or '_', then letters, digits, '_' and '-'; not content, page, site or media, which the template has already)"

# a template edited: the next build equals a full build, and only the
# page that calls it changes
full() {
	rm -rf "$TMP/full"
	cp -r "$site" "$TMP/fullsite"
	rm -rf "$TMP/fullsite/.folio-cache" "$TMP/fullsite/public"
	"$FOLIO" build "$TMP/fullsite" -o "$TMP/full" >/dev/null 2>&1
	rm -rf "$TMP/fullsite"
}
run build "$site"
plain_before=$(cat "$site/public/posts/plain/index.html")
sed -i 's/<kbd>/<kbd class="key">/' "$site/templates/directives/kbd.html"
run build "$site"
full
d=$(diff -r -q -x .folio-output "$site/public" "$TMP/full" 2>&1)
check "a template edited: the build with its cache is a full build's ($d)" test -z "$d"
check "... the calls show it" contains "$(cat "$page")" '<kbd class="key">Esc</kbd>'
check "... a page that does not call it is the same" test "$(cat "$site/public/posts/plain/index.html")" = "$plain_before"

# folio serve: the same, and only the calling page is rendered again
serve_start "$site" "$TMP"
serve_wait
check "the server answers" test "$up" -eq 1
serve_settle 0
before=$(serve_builds)
sed -i 's/callout-{{ kind }}/box-{{ kind }}/' "$site/templates/directives/callout.html"
serve_settle "$before"
served=$(ls -d "$TMP"/folio-serve-*/site 2>/dev/null | head -n 1)
full
d=$(diff -r -q -x .folio-output "$served" "$TMP/full" 2>&1)
check "folio serve: a template edited, the served site is a full build's ($d)" test -n "$served" -a -z "$d"
check "folio serve: the edit is served" grep -q 'box-warning' "$served/posts/calls/index.html"
r=$(grep -E '^folio serve: rebuilt' "$TMP/serve.err" | tail -n 1 | sed -E 's/.*: ([0-9]+) of ([0-9]+) pages.*/\1/')
check "folio serve: only the page that calls it rendered ($r)" test "$r" = 1
finish

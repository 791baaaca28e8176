# test_images.sh: resized copies of a site's JPEG and PNG images (folio.yml
# images:): which widths and formats are written, decodable and at their
# size, the <picture> a page gets, the first image fetched first, a warm
# build that encodes nothing, images: off, a bundle's image, an animated
# or tiny PNG, and a broken image.
. "$(dirname "$0")/lib.sh"

export SOURCE_DATE_EPOCH=1790000000
MK="python3 $(dirname "$0")/mkimages.py"

# site DIR: a post with a photograph (JPEG, 2000 x 1500) and a screenshot
# (PNG with alpha, 1200 x 800), a bundle with its own PNG (700 x 400).
site() {
	mkdir -p "$1/content/posts/bundled" "$1/static/img"
	printf 'title: Pictures\nbase_url: https://example.org/\n' >"$1/folio.yml"
	cat >"$1/content/posts/photos.md" <<'MD'
---
title: Photos
date: 2026-01-02
---
![A photograph](/img/photo.jpg)

Text between.

![A screenshot](/img/shot.png)
MD
	cat >"$1/content/posts/bundled/index.md" <<'MD'
---
title: Bundled
date: 2026-01-03
---
![Beside the post](diagram.png)
MD
	$MK ppm "$TMP/photo.ppm" 2000 1500 && cjpeg -quality 90 "$TMP/photo.ppm" >"$1/static/img/photo.jpg"
	$MK png "$1/static/img/shot.png" 1200 800 alpha
	$MK png "$1/content/posts/bundled/diagram.png" 700 400
}

# size FILE: "W H" of an image folio wrote (djpeg and dwebp tell)
size() {
	case $1 in
	*.webp) dwebp "$1" -pam -o - 2>/dev/null | sed -n 's/^WIDTH //p; s/^HEIGHT //p' | tr '\n' ' ' | sed 's/ $//' ;;
	*.jpg) djpeg -pnm "$1" 2>/dev/null | sed -n 2p ;;
	*.png) python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print(*struct.unpack(">II", d[16:24]))' "$1" ;;
	esac
}

S=$TMP/site
site "$S"
run build "$S" -o "$TMP/pub"
check "a site with images builds" test "$rc" -eq 0
check "... and says nothing" test -z "$err"
for w in 480 960 1600; do
	check "the photograph's JPEG copy at ${w}w" test -s "$TMP/pub/img/photo-${w}w.jpg"
	check "... and its WebP copy" test -s "$TMP/pub/img/photo-${w}w.webp"
done
check "a WebP copy of the whole photograph" test -s "$TMP/pub/img/photo-2000w.webp"
check "no copy wider than the image" test ! -e "$TMP/pub/img/photo-2000w.jpg"
check "the photograph itself is copied as it is" cmp -s "$S/static/img/photo.jpg" "$TMP/pub/img/photo.jpg"
check "the 960w JPEG copy is 960 x 720" test "$(size "$TMP/pub/img/photo-960w.jpg")" = "960 720"
check "the 480w WebP copy is 480 x 360" test "$(size "$TMP/pub/img/photo-480w.webp")" = "480 360"
check "the screenshot's PNG copies stop below its width" test -s "$TMP/pub/img/shot-960w.png"
check "... none at 1600" test ! -e "$TMP/pub/img/shot-1600w.png" -a ! -e "$TMP/pub/img/shot-1600w.webp"
check "... its WebP copy at its own width" test "$(size "$TMP/pub/img/shot-1200w.webp")" = "1200 800"
check "a bundle's image gets copies beside its post" test -s "$TMP/pub/posts/bundled/diagram-480w.png"
check "... and a WebP one" test -s "$TMP/pub/posts/bundled/diagram-700w.webp"
P=$TMP/pub/posts/photos/index.html
check "the page has a <picture> with the WebP copies" \
	grep -q '<picture><source type="image/webp" srcset="/img/photo-480w.webp 480w, /img/photo-960w.webp 960w, /img/photo-1600w.webp 1600w, /img/photo-2000w.webp 2000w" sizes="' "$P"
check "... and the <img> the JPEG copies and the image itself" \
	grep -q 'srcset="/img/photo-480w.jpg 480w, /img/photo-960w.jpg 960w, /img/photo-1600w.jpg 1600w, /img/photo.jpg 2000w"' "$P"
check "... with its size" grep -q 'width="2000" height="1500"' "$P"
check "the first image is fetched first" grep -q 'height="1500" fetchpriority="high" decoding="async">' "$P"
check "... the next one lazily" grep -q 'height="800" loading="lazy" decoding="async">' "$P"
check "a bundle's srcset is relative to its post" grep -q 'srcset="diagram-480w.webp 480w, diagram-700w.webp 700w"' \
	"$TMP/pub/posts/bundled/index.html"

# a warm build encodes nothing: the copies come from the cache as they were
touch -d '2020-01-01' "$S"/.folio-cache/images/*.img
sum1=$(cd "$TMP/pub" && find . -name '*w.*' -type f | sort | xargs md5sum)
run build "$S" -o "$TMP/out2"
check "a second build builds" test "$rc" -eq 0
check "... writes the same copies" test "$(cd "$TMP/out2" && find . -name '*w.*' -type f | sort | xargs md5sum)" = "$sum1"
check "... and encodes none (the cache is not written)" \
	test -z "$(find "$S/.folio-cache/images" -name '*.img' -newermt '2021-01-01')"

# images.quality.jpeg changed: the JPEG copies are made again at it, from
# the same cache; the WebP copies stay as they were
cp -r "$S" "$TMP/q"
printf 'images:\n  quality: {jpeg: 40}\n' >>"$TMP/q/folio.yml"
run build "$TMP/q" -o "$TMP/pub-q"
check "another JPEG quality: builds" test "$rc" -eq 0
check "... its JPEG copies are made again, smaller" \
	test "$(stat -c %s "$TMP/pub-q/img/photo-960w.jpg")" -lt "$(stat -c %s "$TMP/pub/img/photo-960w.jpg")"
check "... its WebP copies are the same" cmp -s "$TMP/pub-q/img/photo-960w.webp" "$TMP/pub/img/photo-960w.webp"

# a camera's file name: the extension in capitals
cp -r "$S" "$TMP/upper"
mv "$TMP/upper/static/img/photo.jpg" "$TMP/upper/static/img/IMG_0001.JPG"
sed -i 's|/img/photo.jpg|/img/IMG_0001.JPG|' "$TMP/upper/content/posts/photos.md"
run build "$TMP/upper" -o "$TMP/pub-upper"
check "an image named .JPG: builds" test "$rc" -eq 0
out=$(cd "$TMP/pub-upper/img" && ls IMG_0001* | tr '\n' ' ')
check "... gets its copies" test "$out" = "IMG_0001-1600w.JPG IMG_0001-1600w.webp IMG_0001-2000w.webp IMG_0001-480w.JPG IMG_0001-480w.webp IMG_0001-960w.JPG IMG_0001-960w.webp IMG_0001.JPG "
check "... and the page names them" grep -q 'srcset="/img/IMG_0001-480w.webp 480w' "$TMP/pub-upper/posts/photos/index.html"

# an image removed: its copies leave the cache with it
n_before=$(ls "$S/.folio-cache/images" | wc -l)
rm "$S/static/img/shot.png"
sed -i 's|!\[A screenshot\](/img/shot.png)||' "$S/content/posts/photos.md"
run build "$S" -o "$TMP/pub3"
check "an image removed: builds" test "$rc" -eq 0
check "... its copies leave the cache" test "$(ls "$S/.folio-cache/images" | wc -l)" -eq $((n_before - 5))

# images: false: images as they are
cp -r "$S" "$TMP/off"
printf 'images: false\n' >>"$TMP/off/folio.yml"
run build "$TMP/off" -o "$TMP/pub-off"
check "images: false builds" test "$rc" -eq 0
check "... writes no copy" test -z "$(find "$TMP/pub-off" -name '*w.webp')"
check "... and a plain <img>" grep -q '<img src="/img/photo.jpg" alt="A photograph" width="2000" height="1500"' \
	"$TMP/pub-off/posts/photos/index.html"

# images: {widths, formats}
cp -r "$S" "$TMP/narrow"
printf 'images:\n  widths: [800, 300]\n  formats: [original]\n' >>"$TMP/narrow/folio.yml"
run build "$TMP/narrow" -o "$TMP/pub-narrow"
check "widths and formats: builds" test "$rc" -eq 0
check "... the widths asked, sorted" test -s "$TMP/pub-narrow/img/photo-300w.jpg" -a -s "$TMP/pub-narrow/img/photo-800w.jpg"
check "... no WebP" test -z "$(find "$TMP/pub-narrow" -name '*.webp')"
printf 'images:\n  widths: [800, 800]\n' >"$TMP/narrow/folio.yml"
run build "$TMP/narrow" -o "$TMP/pub-bad"
check "a width twice is an error" contains "$err" "images.widths: 800 is there twice"
printf 'images:\n  formats: [jxl]\n' >"$TMP/narrow/folio.yml"
run build "$TMP/narrow" -o "$TMP/pub-bad"
check "an unknown format is an error" contains "$err" "images.formats: unknown format 'jxl' (known: webp, avif, and original"
check "... exit 1" test "$rc" -eq 1

# AVIF: copies through the system's libavif, loaded when asked for
V=$TMP/avif
site "$V"
printf 'images:\n  widths: [480]\n  formats: [avif, webp]\n  quality: {avif: 50}\n' >>"$V/folio.yml"
run build "$V" -o "$TMP/pub-avif"
check "AVIF copies: builds" test "$rc" -eq 0
check "... a copy at each width and at the image's own" test -s "$TMP/pub-avif/img/photo-480w.avif" -a -s "$TMP/pub-avif/img/photo-2000w.avif"
check "... an AVIF file" test "$(head -c 12 "$TMP/pub-avif/img/photo-480w.avif" | tail -c 4)" = avif
check "... offered before the WebP copies" \
	grep -q '<picture><source type="image/avif" srcset="/img/photo-480w.avif 480w, /img/photo-2000w.avif 2000w" sizes="[^"]*"><source type="image/webp" srcset="/img/photo-480w.webp 480w, /img/photo-2000w.webp 2000w"' \
	"$TMP/pub-avif/posts/photos/index.html"
touch -d '2020-01-01' "$V"/.folio-cache/images/*.img
run build "$V" -o "$TMP/pub-avif2"
check "... a second build encodes none" test -z "$(find "$V/.folio-cache/images" -name '*.img' -newermt '2021-01-01')"
check "... and writes the same bytes" cmp -s "$TMP/pub-avif/img/photo-480w.avif" "$TMP/pub-avif2/img/photo-480w.avif"
export FOLIO_LIBAVIF=/nonexistent/libavif.so.16
run build "$V" -o "$TMP/pub-avif3"
unset FOLIO_LIBAVIF
check "no libavif: an error at the word avif" contains "$err" "folio.yml:5:13: error: images.formats: avif: FOLIO_LIBAVIF names no library that loads"
check "... exit 1, nothing written" test "$rc" -eq 1 -a ! -e "$TMP/pub-avif3"
run --version
check "folio --version names the libavif it loads" contains "$out" "loaded at run time"

# keep_metadata: the copies keep a photograph's EXIF (camera, place), which
# they drop by default
M=$TMP/meta
site "$M"
python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
tiff = b"MM\x00*\x00\x00\x00\x08\x00\x01\x01\x0f\x00\x02\x00\x00\x00\x08\x00\x00\x00\x1a\x00\x00\x00\x00FolioCam\x00"
app1 = b"Exif\x00\x00" + tiff
sys.stdout.buffer.write(d[:2] + b"\xff\xe1" + (len(app1) + 2).to_bytes(2, "big") + app1 + d[2:])
' "$M/static/img/photo.jpg" >"$TMP/with-exif.jpg" && mv "$TMP/with-exif.jpg" "$M/static/img/photo.jpg"
run build "$M" -o "$TMP/pub-meta"
check "EXIF: dropped from the copies by default" sh -c '! grep -q FolioCam "$1"/img/photo-480w.jpg' _ "$TMP/pub-meta"
check "... but the image itself is as it was" grep -q FolioCam "$TMP/pub-meta/img/photo.jpg"
printf 'images:\n  keep_metadata: true\n' >>"$M/folio.yml"
run build "$M" -o "$TMP/pub-meta2"
check "keep_metadata: builds" test "$rc" -eq 0
check "... the JPEG copies keep the EXIF" grep -q FolioCam "$TMP/pub-meta2/img/photo-480w.jpg"
check "... and the WebP ones" grep -q FolioCam "$TMP/pub-meta2/img/photo-960w.webp"

# a dark variant: a.dark.png beside a.png, for a reader whose system is dark
D=$TMP/dark
site "$D"
$MK png "$D/static/img/shot.dark.png" 1200 800
run build "$D" -o "$TMP/pub-dark"
check "a dark variant: builds" test "$rc" -eq 0
check "... its copies are made too" test -s "$TMP/pub-dark/img/shot.dark-480w.webp"
check "... and the page offers them to a dark system first" \
	grep -q '<picture><source media="(prefers-color-scheme: dark)" type="image/webp" srcset="/img/shot.dark-480w.webp 480w, /img/shot.dark-960w.webp 960w, /img/shot.dark-1200w.webp 1200w" sizes="[^"]*"><source media="(prefers-color-scheme: dark)" srcset="/img/shot.dark-480w.png 480w, /img/shot.dark-960w.png 960w, /img/shot.dark.png 1200w" sizes="[^"]*"><source type="image/webp"' \
	"$TMP/pub-dark/posts/photos/index.html"

# raw HTML <img> tags and directives' stills get the same copies
R=$TMP/raw
site "$R"
cat >"$R/content/posts/raw.md" <<'MD'
---
title: Raw
date: 2026-01-04
---
<div class="wide"><img src="/img/shot.png" alt="A screenshot"></div>

Inline <IMG SRC='/img/photo.jpg' width=300 alt="small"/> and <img src="https://example.com/far.png" alt="far">.

<img src="/img/shot.png" alt="sized" width="600" height="400" loading="eager">

<picture><source srcset="/img/photo.jpg"><img src="/img/photo.jpg" alt="theirs"></picture>

An inline one: <picture><source srcset="/img/shot.png"><img src="/img/shot.png" alt="inline theirs"></picture>.

<img src="/img/photo.jpg" alt="own set" srcset="/img/photo.jpg 2000w">

<!-- <img src="/img/gone.png"> -->

:::model3d{src="/img/m.glb" poster="/img/shot.png" alt="A model"}
:::
MD
printf 'glTF' >"$R/static/img/m.glb"
run build "$R" -o "$TMP/pub-raw"
check "raw <img> tags: builds" test "$rc" -eq 0
P=$TMP/pub-raw/posts/raw/index.html
check "a block's <img> gets a <picture> of the copies, its size, and is fetched first" \
	grep -q '<div class="wide"><picture><source type="image/webp" srcset="/img/shot-480w.webp 480w, /img/shot-960w.webp 960w, /img/shot-1200w.webp 1200w" sizes="(min-width: 49rem) 46rem, calc(100vw - 2.5rem)"><img src="/img/shot.png" alt="A screenshot" srcset="/img/shot-480w.png 480w, /img/shot-960w.png 960w, /img/shot.png 1200w" sizes="[^"]*" width="1200" height="800" fetchpriority="high" decoding="async"></picture></div>' "$P"
check "an inline one with a width in pixels: sizes no wider, the height that keeps its shape" \
	grep -q "<img src=\"/img/photo.jpg\" width=300 alt=\"small\" srcset=\"[^\"]*\" sizes=\"(min-width: 49rem) min(300px, 46rem), min(300px, calc(100vw - 2.5rem))\" height=\"225\" loading=\"lazy\" decoding=\"async\"></picture>" "$P"
check "a far image is left as written" grep -q '<img src="https://example.com/far.png" alt="far">' "$P"
check "the author's size and loading are kept" \
	grep -q '<img src="/img/shot.png" alt="sized" width="600" height="400" loading="eager" srcset="[^"]*" sizes="[^"]*"></picture>' "$P"
check "an author's <picture> is theirs" grep -q '<picture><source srcset="/img/photo.jpg"><img src="/img/photo.jpg" alt="theirs"></picture>' "$P"
check "... inline too" grep -q '<picture><source srcset="/img/shot.png"><img src="/img/shot.png" alt="inline theirs"></picture>' "$P"
check "an author's srcset is theirs" grep -q '<img src="/img/photo.jpg" alt="own set" srcset="/img/photo.jpg 2000w">' "$P"
check "an image in a comment is left alone" grep -q '<!-- <img src="/img/gone.png"> -->' "$P"
check "a model's still gets its copies" \
	grep -q '<img slot="poster" src="/img/shot.png" alt="A model" srcset="/img/shot-480w.png 480w, /img/shot-960w.png 960w, /img/shot.png 1200w" sizes="[^"]*" width="1200" height="800"' "$P"
printf '\n![pixel art](/img/shot.png#original)\n' >>"$R/content/posts/raw.md"
run build "$R" -o "$TMP/pub-raw2"
check "#original: one image left as it is, sized" \
	grep -q '<img src="/img/shot.png#original" alt="pixel art" width="1200" height="800" loading="lazy" decoding="async">' \
	"$TMP/pub-raw2/posts/raw/index.html"
check "the page's card image is still the first <img>" grep -q '<meta property="og:image" content="https://example.org/img/shot.png">' "$P"

# an animation, a tiny image, a broken image
A=$TMP/anim
site "$A"
$MK apng "$A/static/img/shot.png" 600 400
$MK png "$A/static/img/tiny.png" 40 30
printf '\n![tiny](/img/tiny.png)\n' >>"$A/content/posts/photos.md"
run build "$A" -o "$TMP/pub-anim"
check "an animated PNG: builds" test "$rc" -eq 0
check "... and is not resized (its animation kept)" test -z "$(find "$TMP/pub-anim/img" -name 'shot-*')"
check "... its <img> has no srcset" grep -q '<img src="/img/shot.png" alt="A screenshot" width="600" height="400" loading' \
	"$TMP/pub-anim/posts/photos/index.html"
check "a tiny image gets only its WebP copy" test -s "$TMP/pub-anim/img/tiny-40w.webp" -a ! -e "$TMP/pub-anim/img/tiny-40w.png"
B=$TMP/broken
site "$B"
$MK corrupt "$B/static/img/shot.png" 1200 800
run build "$B" -o "$TMP/pub-broken"
check "a broken image stops the build" test "$rc" -eq 1
check "... saying which and why" contains "$err" "static/img/shot.png: error: image:"
check "... nothing written" test ! -e "$TMP/pub-broken"
H=$TMP/huge
site "$H"
$MK huge "$H/static/img/shot.png" 100000 100000
run build "$H" -o "$TMP/pub-huge"
check "a header of 100000 x 100000 pixels is refused before decoding" \
	contains "$err" "static/img/shot.png: error: image: the image is 100000 x 100000 pixels: more than the 64-megapixel limit"
check "... exit 1" test "$rc" -eq 1

finish

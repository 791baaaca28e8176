#!/bin/sh
# test_unread.sh: nothing of a site is left out in silence: files folio
# does not read are named in a warning, settings under another name, TOML
# front matter, UTF-16 and UTF-32 files and bytes that are not UTF-8 are
# errors that say what to do.
. tests/cli/lib.sh

S=$TMP/site
run new site "$S"
mkdir -p "$S/content/notes/deep" "$S/posts" "$S/scripts"
echo "a note" >"$S/content/notes/x.md"
echo "deeper" >"$S/content/notes/deep/y.md"
echo "top" >"$S/content/top.md"
echo "mine" >"$S/scripts/deploy.sh"
cp "$S/content/posts/why-this-blog.md" "$S/posts/misplaced.md"
run build "$S" -o "$TMP/o1"
check "files not used: the build still succeeds" test "$rc" -eq 0
check "a file in content/notes/ is named" contains "$err" \
	"content/notes/x.md: warning: not used (posts go in content/posts/, series in content/series/, pages in content/pages/)"
check "a file deeper in it too" contains "$err" "content/notes/deep/y.md: warning: not used"
check "a file at the top of content/" contains "$err" "content/top.md: warning: not used"
check "a posts/ folder beside content/" contains "$err" "posts/: warning: a folder folio does not read; not used (posts go in content/posts/)"
check "another folder of the owner's is left alone" not_contains "$err" "scripts/"
check "the output folder is left alone" not_contains "$err" "o1"
i=0
while [ $i -lt 14 ]; do echo n >"$S/content/notes/n$i.md"; i=$((i + 1)); done
run build "$S" -o "$TMP/o1"
check "at most ten are named" test "$(printf '%s\n' "$err" | grep -c 'warning: not used (posts')" -eq 10
check "the rest are counted" contains "$err" "content: warning: and 7 more files not used"
# data/ holds YAML: another file or a folder there is named too
mkdir -p "$S/data/more"
echo 'a = 1' >"$S/data/links.toml"
echo '{"a": 1}' >"$S/data/links.json"
echo 'a: 1' >"$S/data/ok.yaml"
# and a settings file beside folio.yml under another name
echo 'title: "Other"' >"$S/folio.yaml"
run build "$S" -o "$TMP/o1"
check "a TOML data file is named" contains "$err" \
	"data/links.toml: warning: not used (data files are data/NAME.yml, in YAML: convert it, or move it to static/ to publish it)"
check "a JSON data file too" contains "$err" "data/links.json: warning: not used"
check "a folder in data/ too" contains "$err" "data/more: warning: not used (data files are data/NAME.yml, in YAML: folders in data/ are not read)"
check "a .yaml data file is read, not named" not_contains "$err" "data/ok.yaml"
check "folio.yaml beside folio.yml is named" contains "$err" \
	"folio.yaml: warning: not used: folio reads its settings from folio.yml only"
rm -rf "$S/content/notes" "$S/content/top.md" "$S/posts" "$S/data/more" "$S/data/links.toml" "$S/data/links.json" \
	"$S/folio.yaml"
run build "$S" -o "$TMP/o1"
check "without them, no warning" test "$rc" -eq 0 -a -z "$err"

# settings under another name
for f in folio.yaml config.toml _config.yml; do
	N=$TMP/named-$f
	run new site "$N"
	mv "$N/folio.yml" "$N/$f"
	run build "$N"
	check "$f instead of folio.yml is an error" test "$rc" -eq 1
done
run build "$TMP/named-folio.yaml"
check "folio.yaml: did you mean folio.yml" contains "$err" "but a folio.yaml (did you mean folio.yml?"
run build "$TMP/named-config.toml"
check "config.toml: a Hugo site, and what converts it" contains "$err" "is this a Hugo site? (folio reads folio.yml; 'folio import hugo' converts such a site)"
run build "$TMP/named-_config.yml"
check "_config.yml: a Jekyll site" contains "$err" "is this a Jekyll site?"

# front matter and encodings
E=$TMP/enc
run new site "$E"
printf '+++\ntitle = "T"\n+++\nText.\n' >"$E/content/posts/toml.md"
run build "$E" -o "$TMP/o2"
check "TOML front matter is an error" test "$rc" -eq 1
check "... at its place, saying what to do" contains "$err" \
	"content/posts/toml.md:1:1: error: TOML front matter ('+++') is not read: folio's front matter is YAML between '---' lines"
rm "$E/content/posts/toml.md"
printf -- '---\ntitle: "U"\n---\nText.\n' | iconv -f UTF-8 -t UTF-16 >"$E/content/posts/u16.md"
printf -- '---\ntitle: "U"\n---\nText.\n' | iconv -f UTF-8 -t UTF-16BE >"$E/content/pages/u16be.md"
printf -- '---\ntitle: "U"\n---\nText.\n' | iconv -f UTF-8 -t UTF-32 >"$E/content/posts/u32.md"
run build "$E" -o "$TMP/o2"
check "UTF-16 is an error" test "$rc" -eq 1
check "... naming the encoding and the fix" contains "$err" \
	"content/posts/u16.md: error: the file is UTF-16LE text, and folio reads UTF-8 (hint: iconv -f UTF-16LE -t UTF-8"
check "UTF-16BE without a mark" contains "$err" "content/pages/u16be.md: error: the file is UTF-16BE text"
check "UTF-32" contains "$err" "content/posts/u32.md: error: the file is UTF-32LE text"
check "no 'no front matter' for them" not_contains "$err" "no front matter"
rm "$E/content/posts/u16.md" "$E/content/pages/u16be.md" "$E/content/posts/u32.md"
printf -- '---\ntitle: "L"\ndate: 2025-01-01\n---\nUn caf\351 cr\350me.\n' >"$E/content/posts/latin.md"
printf -- '---\ntitle: "S \351"\ndescription: "d"\n---\nG.\n' >"$E/content/series/latin.md"
run build "$E" -o "$TMP/o2"
check "a Latin-1 byte is an error" test "$rc" -eq 1
check "... at its line and column" contains "$err" \
	"content/posts/latin.md:5:7: error: byte 0xE9 is not UTF-8 (hint: save the file as UTF-8; from Latin-1: iconv -f LATIN1 -t UTF-8"
check "... in front matter too" contains "$err" "content/series/latin.md:2:11: error: byte 0xE9 is not UTF-8"
check "nothing was written" test ! -e "$TMP/o2"
iconv -f LATIN1 -t UTF-8 "$E/content/posts/latin.md" >"$TMP/l" && mv "$TMP/l" "$E/content/posts/latin.md"
rm "$E/content/series/latin.md"
run build "$E" -o "$TMP/o2"
check "converted as the hint says, it builds" test "$rc" -eq 0
check "... with the accents" grep -q "Un café crème" "$TMP/o2/posts/latin/index.html"

# a byte that is not UTF-8 in the settings, a data file or a template: an
# error at its line and column too
X=$TMP/bytes
run new site "$X"
sed -i 's/^tagline: .*/tagline: "caf\xe9"/' "$X/folio.yml"
mkdir -p "$X/data" "$X/templates"
printf 'a: caf\351\n' >"$X/data/d.yml"
printf '<p>caf\351</p>\n' >"$X/templates/extra.html"
run build "$X" -o "$TMP/o3"
check "folio.yml: a Latin-1 byte at its place" contains "$err" "folio.yml:3:14: error:"
check "... saying to save it as UTF-8" contains "$err" "(hint: save the file as UTF-8)"
LC_ALL=C sed -i 's/^tagline: .*/tagline: "ok"/' "$X/folio.yml"
run build "$X" -o "$TMP/o3"
check "a data file: a Latin-1 byte at its place" contains "$err" "data/d.yml:1:7: error:"
check "a template: a Latin-1 byte at its place" contains "$err" "templates/extra.html:1:7: error: not UTF-8: byte 0xE9 here"

finish

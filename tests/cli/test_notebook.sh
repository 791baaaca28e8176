# test_notebook.sh: Jupyter notebooks as posts. A notebook with every kind
# of output builds (its image a file beside the post, with resized copies;
# its words in the search index); front matter from the metadata or a
# sidecar NAME.yml; each bad notebook is an error with its exact message,
# naming the cell; .ipynb_checkpoints/ is passed over; an edited cell is
# built again, by folio build and by folio serve, into exactly what a full
# build writes.
. "$(dirname "$0")/lib.sh"
SOURCE_DATE_EPOCH=1790000000
export SOURCE_DATE_EPOCH

spid=""
cleanup() {
	stop_serve
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

site=$TMP/site
mkdir -p "$site/content/posts"
printf 'title: Notebooks\nimages:\n  widths: [100]\n' >"$site/folio.yml"
python3 scripts/example_notebook.py "$site/content/posts/nb.ipynb"

run build "$site" -o "$TMP/o"
check "a notebook post builds" test "$rc" -eq 0 -a -z "$err"
page=$(cat "$TMP/o/posts/nb/index.html" 2>/dev/null)
check "its title" contains "$page" "<h1 class=\"p-name\">Softmax Without Overflow, in a Notebook</h1>"
check "a code cell in the kernel's language" contains "$page" '<pre tabindex="0" data-lang="python"><code class="language-python"><span class="hl-keyword">import</span>'
check "its execution count" contains "$page" '<div class="nb-prompt">[1]:</div>'
check "a stream output" contains "$page" "<pre class=\"nb-output nb-stream nb-stdout\" tabindex=\"0\">[0.731, 0.269]
sum = 1.0</pre>"
check "an error's ANSI colours as classes" contains "$page" '<span class="ansi-red">OverflowError</span>: math range error</pre>'
check "no escape byte left" not_contains "$page" "$(printf '\033')"
check "LaTeX through KaTeX" contains "$page" '<div class="nb-output nb-latex">
<p><span class="math display"><span class="katex"><math'
check "HTML passed through" contains "$page" '<tr><td>3.0</td><td>0.634</td></tr>'
png=$(ls "$TMP/o/posts/nb/" | grep -E '^cell7-1-[0-9a-f]{8}\.png$')
check "the image output is a file beside the post" test -n "$png"
check "with a resized copy" test -f "$TMP/o/posts/nb/${png%.png}-100w.png"
check "in a <picture>" contains "$page" "<picture><source type=\"image/webp\" srcset=\"${png%.png}-100w.webp 100w, ${png%.png}-200w.webp 200w\""
check "never inline base64" not_contains "$page" "base64"
check "the image's alt text from text/plain" contains "$page" 'alt="Bar chart of the five probabilities; the largest logit, 3.0, takes most of the mass"'
check "its words are in the search index" sh -c "grep -rq 'overflows' '$TMP/o/search/'"

# a sidecar NAME.yml instead of the metadata
python3 - "$site/content/posts/nb.ipynb" "$site/content/posts/side.ipynb" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1]))
del nb["metadata"]["folio"]
json.dump(nb, open(sys.argv[2], "w"), indent=1)
PY
printf 'title: From a Sidecar\ndate: 2026-01-02\n' >"$site/content/posts/side.yml"
mkdir -p "$site/content/posts/.ipynb_checkpoints"
echo '{ broken' >"$site/content/posts/.ipynb_checkpoints/nb-checkpoint.ipynb"
run build "$site" -o "$TMP/o"
check "a sidecar's front matter, and no warning for it; checkpoints passed over" test "$rc" -eq 0 -a -z "$err"
check "the sidecar's title" grep -q "From a Sidecar" "$TMP/o/posts/side/index.html"
check "the checkpoint is no post" test ! -e "$TMP/o/posts/nb-checkpoint"

# bad: one notebook at a time beside the good ones
bad=$site/content/posts/bad.ipynb
# expect NAME MESSAGE: building with bad.ipynb as it is now fails with
# exactly MESSAGE as its first line
expect() {
	run build "$site" -o "$TMP/o"
	first=$(printf '%s\n' "$err" | head -n 1)
	check "$1 (exit 1)" test "$rc" -eq 1
	out=$first
	check "$1: $2" test "$first" = "$2"
}
meta='"metadata": {"folio": {"title": "Bad", "date": "2026-01-03"}}'
cat >"$bad" <<JSON
{"nbformat": 4, $meta,
 "cells": [
{"cell_type": "markdown", "source": ["x"]},
}
JSON
expect "invalid JSON" "content/posts/bad.ipynb:4:1: error: JSON: syntax error at '}' (hint: the '[' on line 2 is not closed)"
echo '{"nbformat": 3, "worksheets": []}' >"$bad"
expect "nbformat 3" "content/posts/bad.ipynb:1:14: error: nbformat 3 is not read: folio reads nbformat 4 (hint: convert it with 'jupyter nbconvert --to notebook --nbformat 4 --inplace bad.ipynb')"
echo "{\"nbformat\": 4, $meta}" >"$bad"
expect "no cells" "content/posts/bad.ipynb:1:1: error: no 'cells' list (hint: a notebook of nbformat 4 has its cells in a list 'cells')"
cat >"$bad" <<JSON
{"nbformat": 4, $meta,
 "cells": [
  {"cell_type": "markdown", "source": "a"},
  {"source": "b"}]}
JSON
expect "a cell without cell_type" "content/posts/bad.ipynb:4:3: error: cell 2: no 'cell_type' (hint: markdown, code or raw)"
cat >"$bad" <<JSON
{"nbformat": 4, $meta,
 "cells": [
  {"cell_type": "code", "outputs": []}]}
JSON
expect "a cell without source" "content/posts/bad.ipynb:3:3: error: cell 1 (code): no 'source' (hint: the cell's text, a string or a list of strings)"
cat >"$bad" <<JSON
{"nbformat": 4, $meta,
 "cells": [
  {"cell_type": "code", "source": "plot()", "outputs": [
   {"output_type": "display_data", "data": {"image/png": "iVBORw0K%%"}}]}]}
JSON
expect "bad base64" "content/posts/bad.ipynb:4:58: error: cell 1 (code): output 1: 'image/png' is not base64: byte 0x25 at offset 8"
cat >"$bad" <<JSON
{"nbformat": 4, $meta,
 "cells": [
  {"cell_type": "markdown", "source": ["ok\\n"]},
  {"cell_type": "markdown",
   "source": ["Intro\\n", "\\n", "\$\$\\n", "x^2\\n"]}]}
JSON
expect "a Markdown error names the cell and its line" "content/posts/bad.ipynb:5:33: error: cell 2 (markdown): display math: no closing \$\$ below this one"
echo '{"nbformat": 4, "metadata": {}, "cells": []}' >"$bad"
expect "no front matter" "content/posts/bad.ipynb: error: no front matter (hint: give the notebook's metadata a 'folio' map with 'title' and 'date', or write them in bad.yml beside it)"
printf 'title: Twice\ndate: 2026-01-04\n' >"$site/content/posts/bad.yml"
echo "{\"nbformat\": 4, $meta, \"cells\": []}" >"$bad"
expect "front matter twice" "content/posts/bad.yml:1:1: error: the front matter of bad.ipynb is both here and in its metadata's 'folio' map (hint: keep one of them)"
printf 'title: Sidecar\ndate: 2026-01-04\ntitel: x\n' >"$site/content/posts/bad.yml"
echo '{"nbformat": 4, "metadata": {}, "cells": []}' >"$bad"
expect "a sidecar's error is at its line" "content/posts/bad.yml:3:1: error: unknown front matter key 'titel' (did you mean 'title'?)"
rm -f "$site/content/posts/bad.yml"
echo '{"nbformat": 4, "metadata": {"folio": {"title": "Bad", "dat": "2026-01-03"}}, "cells": []}' >"$bad"
expect "a missing key is at the metadata's map" "content/posts/bad.ipynb:1:39: error: missing required key 'date'"
check "a metadata key's error is at its JSON line" contains "$err" "content/posts/bad.ipynb:1:56: error: unknown front matter key 'dat' (did you mean 'date'?)"
rm -f "$bad"

# same NAME DIR: DIR (built with a cache, or served) holds what a full
# build of the site as it is now writes
same() {
	rm -rf "$TMP/full" "$TMP/fullsite"
	cp -r "$site" "$TMP/fullsite"
	rm -rf "$TMP/fullsite/.folio-cache"
	"$FOLIO" build "$TMP/fullsite" -o "$TMP/full" >/dev/null 2>&1
	d=$(diff -r -q -x .folio-output "$2" "$TMP/full" 2>&1)
	out=$d
	check "$1: a full build's" test -z "$d"
}
# edit PYTHON: the example notebook changed by a statement on nb, its JSON
edit() {
	python3 -c 'import json, sys
nb = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(nb, open(sys.argv[1], "w"), indent=1)' "$site/content/posts/nb.ipynb" "$1"
}

# incremental: an edited cell, by folio build with its cache
run build "$site" -o "$TMP/inc"
edit 'nb["cells"][1]["outputs"][0]["text"] = ["EDITED-STREAM\n"]'
run build "$site" -o "$TMP/inc"
check "an edited cell is built again" grep -q "EDITED-STREAM" "$TMP/inc/posts/nb/index.html"
same "the incremental build" "$TMP/inc"

# folio serve: a cell's edit, then the sidecar's alone
mkdir "$TMP/tmp"
serve_start "$site" "$TMP/tmp"
serve_wait
check "the server is up" test "$up" -eq 1
serve_settle 0 0.4
served=$(ls -d "$TMP"/tmp/folio-serve-*/site 2>/dev/null | head -n 1)
b=$(serve_builds)
edit 'nb["cells"][0]["source"][0] = "A SERVED-EDIT of the first cell.\n"'
serve_settle "$b" 0.4
check "serve: a cell's edit is served" grep -q "SERVED-EDIT" "$served/posts/nb/index.html"
same "serve: a cell's edit" "$served"
b=$(serve_builds)
printf 'title: Sidecar Renamed\ndate: 2026-01-02\n' >"$site/content/posts/side.yml"
serve_settle "$b" 0.4
check "serve: a sidecar's edit is served" grep -q "Sidecar Renamed" "$served/posts/side/index.html"
same "serve: a sidecar's edit" "$served"
finish

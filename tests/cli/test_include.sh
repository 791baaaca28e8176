# test_include.sh: code from a file of the site in a fenced code block
# (file=, lines=, symbol=, link): what a page shows (the file's lines,
# highlighted in the language of its extension, numbered from the file's
# line, the title linking to the published file, which the link check
# sees), every error at the fence with its exact message, and the file as
# an input of the page: an edit of it is rendered again by folio build
# (the Markdown cache serves no stale page) and by folio serve, each
# equal to a whole build.
. "$(dirname "$0")/lib.sh"

trap 'stop_serve; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

export SOURCE_DATE_EPOCH=1790000000
site=$TMP/site
mkdir -p "$site/content/posts/bundle" "$site/code" "$site/static/src"
cat >"$site/folio.yml" <<'EOF'
title: Include
base_url: https://example.org/
EOF
cat >"$site/code/gemm.cu" <<'EOF'
#include <cuda_runtime.h>

// One thread per output element.
__global__ void gemm_kernel(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && j < n) {
        float s = 0;
        for (int k = 0; k < n; k++)
            s += a[i * n + k] * b[k * n + j];
        c[i * n + j] = s;
    }
}

struct Matrix {
    int n;
    float *data;
    float at(int i, int j) const
    {
        return data[i * n + j];
    }
};
EOF
cat >"$site/content/posts/bundle/adam.py" <<'EOF'
import math


class Adam:
    def step(self, p, g):
        return p - 0.001 * g
EOF
printf 'x = 1\n' >"$site/static/src/tiny.py"
cat >"$site/content/posts/bundle/index.md" <<'EOF'
---
title: Bundle
date: 2026-01-02
---

By symbol, from the site folder, numbered from the file's line:

```cuda {file="/code/gemm.cu" symbol="gemm_kernel" linenos}
```

A method, from the post's folder, its language from the extension, its
indentation gone:

```{file="adam.py" symbol="Adam.step" link}
```

```{file="/code/gemm.cu" symbol="Matrix::at" linenos start=1 title="at()"}
```

From static/, linked where static/ puts it:

```{file="/static/src/tiny.py" link}
```
EOF
cat >"$site/content/posts/plain.md" <<'EOF'
---
title: Plain
date: 2026-01-01
---

Lines 16 to the end, from the site folder (a post that is no bundle):

```cuda {file="code/gemm.cu" lines="16-" linenos link}
```

And [the file](/code/gemm.cu) it links to.
EOF

run build "$site"
check "a site with code from files builds" test "$rc" -eq 0
b=$(cat "$site/public/posts/bundle/index.html")
p=$(cat "$site/public/posts/plain/index.html")
check "the kernel is there, highlighted" \
	contains "$b" '<span class="hl-keyword">__global__</span> <span class="hl-type">void</span> <span class="hl-function">gemm_kernel</span>'
check "with the comment right above it, numbered from its line" \
	contains "$b" '<span class="line"><span class="ln" aria-hidden="true">3</span><span class="hl-comment">// One thread per output element.</span></span>'
check "but not the line before" not_contains "$b" 'cuda_runtime'
check "nor the struct after it" not_contains "$b" 'Matrix {'
check "the title is the file's path" contains "$b" '<figcaption class="code-title">/code/gemm.cu</figcaption><pre class="linenos" tabindex="0" data-lang="cuda">'
check "a method, without its class's indentation, python from .py" \
	contains "$b" '<pre tabindex="0" data-lang="python"><code class="language-python"><span class="hl-keyword">def</span> <span class="hl-function">step</span>'
check "its title links to the bundle's copy" contains "$b" '<figcaption class="code-title"><a href="adam.py">adam.py</a></figcaption>'
check "the bundle's copy is there" test -f "$site/public/posts/bundle/adam.py"
check "start= wins over the file's line" contains "$b" '<span class="ln" aria-hidden="true">1</span><span class="hl-type">float</span> <span class="hl-function">at</span>'
check "title= wins over the path" contains "$b" '<figcaption class="code-title">at()</figcaption>'
check "a file of static/ links to its place" contains "$b" '<a href="/src/tiny.py">/static/src/tiny.py</a>'
check "lines 16- run to the end" contains "$p" '<span class="ln" aria-hidden="true">16</span><span class="hl-keyword">struct</span> <span class="hl-type">Matrix</span> {'
check "and stop there" contains "$p" '<span class="ln" aria-hidden="true">23</span>};</span>'
check "a relative path of a plain post is the site folder's" contains "$p" '<a href="/code/gemm.cu">code/gemm.cu</a>'
check "link publishes the file at its place in the site" cmp "$site/code/gemm.cu" "$site/public/code/gemm.cu"
check "no link, no copy of a bundle's file outside it" test ! -e "$site/public/code/adam.py"

# the link check sees the copy: without link, the file is not published
nolink=$TMP/nolink
cp -r "$site" "$nolink"
rm -rf "$nolink/public" "$nolink/.folio-cache"
edit_in() { sed "$2" "$1" >"$TMP/edit.tmp" && cat "$TMP/edit.tmp" >"$1"; }
edit_in "$nolink/content/posts/plain.md" 's/ linenos link}/ linenos}/'
run build "$nolink"
check "without link, a link to the file is broken" has_line "$err" "content/posts/plain.md:11:16: error: broken link '/code/gemm.cu': the site has no page or file /code/gemm.cu"

# a file whose name is no URL as it is: linked percent-encoded, copied as named
odd=$TMP/odd
mkdir -p "$odd/content/posts" "$odd/code"
printf 'title: Odd\nbase_url: https://example.org/\n' >"$odd/folio.yml"
printf 'int f(void) { return 1; }\n' >"$odd/code/a b#1.c"
printf -- '---\ntitle: P\ndate: 2026-01-01\n---\n\n```c {file="/code/a b#1.c" link}\n```\n' >"$odd/content/posts/p.md"
run build "$odd"
check "a name with a space and a # builds (the link check finds the copy)" test "$rc" -eq 0
check "its link is percent-encoded" grep -q '<a href="/code/a%20b%231.c">/code/a b#1.c</a>' "$odd/public/posts/p/index.html"
check "its copy has its name" test -f "$odd/public/code/a b#1.c"

# ---- every error, at its fence ----
err_site=$TMP/errs
cp -r "$site" "$err_site"
rm -rf "$err_site/public" "$err_site/.folio-cache"
printf 'hello\0world\n' >"$err_site/code/blob.bin"
head -c 1100000 /dev/zero | tr '\0' 'a' >"$err_site/code/big.txt"
ln -s /etc/hostname "$err_site/code/out.txt"
printf 'a: 1\n' >"$err_site/code/conf.yml"
printf 'no extension\n' >"$err_site/code/README"
cat >"$err_site/content/posts/errors.md" <<'EOF'
---
title: Errors
date: 2026-01-03
---

```cuda {file="/code/gem.cu"}
```

```{file="/code/gemm.cu" lines="10-42"}
```

```{file="/code/gemm.cu" lines="42-10"}
```

```{file="/code/gemm.cu" symbol="gemm_kernl"}
```

```{file="/code/gemm.cu" symbol="Matrix::a"}
```

```{file="/code/conf.yml" symbol="a"}
```

```{file="/code/blob.bin"}
```

```{file="/code/big.txt"}
```

```{file="/code/out.txt"}
```

```{file="../../../etc/passwd"}
```

```{file="/code/gemm.cu"}
int x;
```

```{lines="1-2"}
```

```{file="/code/gemm.cu" symbol="f" lines="1"}
```

```{file="/nowhere/x.c"}
```

```{file="/code/README" symbol="f"}
```

```{file="/code/gemm.cu" symbol="zzzzzzzzzzzz"}
```

```{file="/code/gemm.cu" lines="31"}
```
EOF
run build "$err_site"
check "a site with wrong blocks fails" test "$rc" -eq 1
e=content/posts/errors.md
check "missing file: did you mean" has_line "$err" "$e:6:1: error: code block: file '/code/gem.cu' not found (did you mean '/code/gemm.cu'?)"
check "a range past the end" has_line "$err" "$e:9:1: error: code block: file '/code/gemm.cu': lines 10-42: the file has 23 lines"
check "a range backwards" has_line "$err" "$e:12:1: error: code block: bad range '42-10' in lines (hint: write the smaller number first: '10-42')"
check "an unknown symbol: did you mean" has_line "$err" "$e:15:1: error: code block: no symbol 'gemm_kernl' in '/code/gemm.cu' (did you mean 'gemm_kernel'?)"
check "an unknown method: did you mean" has_line "$err" "$e:18:1: error: code block: no symbol 'Matrix::a' in '/code/gemm.cu' (did you mean 'Matrix.at'?)"
check "a symbol in a language without definitions" has_line "$err" "$e:21:1: error: code block: symbol= in a 'yaml' file: folio finds symbols in C, C++, CUDA, Python, Rust, Go, JavaScript, TypeScript and Java only (hint: use lines= to pick the lines)"
check "a binary file" has_line "$err" "$e:24:1: error: code block: file '/code/blob.bin' is binary (it holds NUL bytes) (hint: only text files can be included)"
check "a file too big" has_line "$err" "$e:27:1: error: code block: file '/code/big.txt' is larger than 1024 KiB, the limit for code from a file (hint: include a smaller file, or split this one)"
check "a link out of the site" has_line "$err" "$e:30:1: error: code block: file '/code/out.txt' is outside the site (hint: folio includes only files inside the site folder: copy it into the site)"
check "a path out of the site" has_line "$err" "$e:33:1: error: code block: file '../../../etc/passwd' is outside the site (hint: folio includes only files inside the site folder: copy it into the site)"
check "a block with lines of its own" has_line "$err" "$e:36:1: error: code block: file= takes the code from the file, so the block's own lines must be empty (hint: remove them, or drop file=)"
check "lines= without file=" has_line "$err" "$e:40:1: error: code block: 'lines' needs file= (hint: file=\"code/gemm.cu\" names the file the code comes from)"
check "lines= and symbol=" has_line "$err" "$e:43:1: error: code block: lines= and symbol= together (hint: symbol= includes the whole definition; keep one of them)"
check "a missing file with nothing near" has_line "$err" "$e:46:1: error: code block: file '/nowhere/x.c' not found in the site folder (hint: a path is looked up in the post's bundle folder, or the site folder for a document that is no bundle; /path always in the site folder)"
check "a symbol without a language" has_line "$err" "$e:49:1: error: code block: symbol= needs the file's language (hint: name it after the fence, as \`\`\`cuda {file=...}, or give the file an extension such as .cu)"
check "an unknown symbol with nothing near" has_line "$err" "$e:52:1: error: code block: no symbol 'zzzzzzzzzzzz' in '/code/gemm.cu' (hint: it defines gemm_kernel, Matrix, Matrix.at, ...)"
check "a line past the end" has_line "$err" "$e:55:1: error: code block: file '/code/gemm.cu': lines 31: the file has 23 lines"
check "each error once" test "$(echo "$err" | grep -c ': error: ')" -eq 17
check "nothing of the machine's /etc in a message" not_contains "$err" "/etc/hostname"
check "nothing was written" test ! -e "$err_site/public"

# ---- the file is an input of the pages that include it ----
# same_as_cold NAME: the site as built equals a build from nothing
same_as_cold() {
	rm -rf "$TMP/cold" "$TMP/.cold.folio-spare"
	mv "$site/.folio-cache" "$TMP/cache.saved"
	"$FOLIO" build "$site" -o "$TMP/cold" >/dev/null 2>&1
	rm -rf "$site/.folio-cache"
	mv "$TMP/cache.saved" "$site/.folio-cache"
	check "$1: the same as a build from nothing" diff -r -x .folio-output "$site/public" "$TMP/cold"
}
not() { ! "$@"; }
edit() { # FILE SED-EXPR: an edit saved in place
	sed "$2" "$1" >"$TMP/edit.tmp" && cat "$TMP/edit.tmp" >"$1"
}

edit "$site/code/gemm.cu" 's/float s = 0;/float s = 0.0f; \/\/ INCLUDE-EDIT-1/'
run build "$site"
check "an edit of the included file rebuilds" test "$rc" -eq 0
check "the post shows the edit" grep -q "INCLUDE-EDIT-1" "$site/public/posts/bundle/index.html"
check "the published copy too" cmp "$site/code/gemm.cu" "$site/public/code/gemm.cu"
same_as_cold "an edit of a file in the site folder"

edit "$site/content/posts/bundle/adam.py" 's/0.001/INCLUDE_EDIT_2/'
run build "$site"
check "the post shows an edit of its bundle's file" grep -q "INCLUDE_EDIT_2" "$site/public/posts/bundle/index.html"
same_as_cold "an edit of a bundle's file"

# the cache: an unrelated change serves the page from the cache (its
# Markdown file is not even read); the included file changed renders it
traced() { # a build under strace; false without it
	command -v strace >/dev/null 2>&1 || return 1
	case $(head -c 2 "$FOLIO") in '#!') return 1 ;; esac
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=open,openat -o "$TMP/trace" "$FOLIO" build "$site" >/dev/null 2>&1
}
printf -- '---\ntitle: Other\ndate: 2026-01-04\n---\n\nOther.\n' >"$site/content/posts/other.md"
if traced; then
	check "an unrelated edit: the page comes from the cache" not grep -q "posts/bundle/index.md\"" "$TMP/trace"
	check "after its files were looked at" grep -q "code/gemm.cu\"" "$TMP/trace"
	edit "$site/code/gemm.cu" 's/INCLUDE-EDIT-1/INCLUDE-EDIT-3/'
	traced
	check "a changed file: the page is rendered again" grep -q "posts/bundle/index.md\"" "$TMP/trace"
	check "with the edit" grep -q "INCLUDE-EDIT-3" "$site/public/posts/bundle/index.html"
	same_as_cold "a traced edit"
fi
# a file that goes away: the error, then back
mv "$site/content/posts/bundle/adam.py" "$TMP/adam.py"
run build "$site"
check "a file that went away is an error" has_line "$err" "content/posts/bundle/index.md:14:1: error: code block: file 'adam.py' not found in the post's folder content/posts/bundle (hint: a path is looked up in the post's bundle folder, or the site folder for a document that is no bundle; /path always in the site folder)"
mv "$TMP/adam.py" "$site/content/posts/bundle/adam.py"
run build "$site"
check "and back" test "$rc" -eq 0
same_as_cold "a file back"

# ---- folio serve: an edit of the included file is served ----
if command -v curl >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	mkdir -p "$TMP/st"
	serve_start "$site" "$TMP/st"
	serve_wait
	check "the server answers" test "$up" -eq 1
	rebuilt() { grep -c "rebuilt in\|folio serve: [0-9]* error" "$TMP/serve.err"; }
	settle() { # N: until N rebuilds have ended
		for _ in $(seq 1 $((150 * ${WAIT_SCALE:-1}))); do
			[ "$(rebuilt)" -ge "$1" ] && return 0
			sleep 0.1
		done
		return 1
	}
	edit "$site/code/gemm.cu" 's/INCLUDE-EDIT-3/INCLUDE-SERVE-EDIT/'
	settle 1
	check "the served post shows the edit" \
		contains "$(curl -s --max-time 5 "$url/posts/bundle/")" "INCLUDE-SERVE-EDIT"
	check "and the copy" contains "$(curl -s --max-time 5 "$url/code/gemm.cu")" "INCLUDE-SERVE-EDIT"
	rm -rf "$TMP/full"
	"$FOLIO" build "$site" -o "$TMP/full" >/dev/null 2>&1
	live=$(ls -d "$TMP"/st/folio-serve-*/site)
	check "the served site is what folio build writes" diff -r -x .folio-output "$live" "$TMP/full"
	# a symbol renamed away: the error is told, the page then fixed
	edit "$site/code/gemm.cu" 's/gemm_kernel/gemm_tiled/'
	settle 2
	check "a symbol gone is told" grep -q "no symbol 'gemm_kernel' in '/code/gemm.cu' (hint: it defines gemm_tiled, Matrix, Matrix.at, ...)" "$TMP/serve.err"
	check "only the page that shows it is rendered again" grep -q "rebuilt in [0-9]* ms: 1 of" "$TMP/serve.err"
	edit "$site/code/gemm.cu" 's/gemm_tiled/gemm_kernel/'
	settle 3
	rm -rf "$TMP/full"
	"$FOLIO" build "$site" -o "$TMP/full" >/dev/null 2>&1
	check "fixed, the served site is what folio build writes" diff -r -x .folio-output "$live" "$TMP/full"
	# a post's text given a block that links a file not yet published: the
	# patch of the post alone would leave the link broken; the whole round
	# copies the file
	printf 'int other(void) { return 2; }\n' >"$site/code/other.c"
	settle 4
	n=$(rebuilt)
	printf '\n```{file="/code/other.c" link}\n```\n' >>"$site/content/posts/plain.md"
	settle $((n + 1))
	check "a new link's file is served" contains "$(curl -s --max-time 5 "$url/code/other.c")" "int other(void)"
	check "the post shows it" contains "$(curl -s --max-time 5 "$url/posts/plain/")" '<a href="/code/other.c">/code/other.c</a>'
	rm -rf "$TMP/full"
	"$FOLIO" build "$site" -o "$TMP/full" >/dev/null 2>&1
	check "a new link: the served site is what folio build writes" diff -r -x .folio-output "$live" "$TMP/full"
	stop_serve
	spid=""
fi

finish

#!/bin/sh
# run.sh: whether beautiful-mermaid (Mermaid diagrams to SVG in pure
# JavaScript, laid out by elkjs) can draw folio's ```mermaid blocks in the
# QuickJS folio links (deps/math), and how fast: fetches the three npm
# packages, pinned by version and sha256 (scripts/npm-pinned.sh), into
# build/bench-mermaid/, compiles measure.c against deps/math's
# libquickjs.a, writes one diagram of each kind it draws (a 50-node
# flowchart among them, the issue's figure) and prints measure's CPU
# figures. The SVGs are left in build/bench-mermaid/out/.
# Usage: sh bench/mermaid/run.sh [WARM_RUNS]. Needs npm (installed by
# npm_pinned when missing) and deps/math (make deps).
# The probe that ruled elkjs out; folio draws Mermaid with dagre in its
# place (src/md/mermaid.c), which bench/diagrams.py measures.
set -eu
cd "$(dirname "$0")/../.."
. scripts/npm-pinned.sh

bm=build/bench-mermaid
BM_VERSION="1.1.3"
BM_SHA256="4d436f27bb0102985940c3efe317153f4d1f53f20f029f226b60e1ab4b6b9ff0"
# elkjs ^0.11 and entities ^7.0.1, as beautiful-mermaid 1.1.3 asks
ELK_VERSION="0.11.1"
ELK_SHA256="83973e243b44842353717427ee8ea1880d688ebe79634d4017e3cc30f3214a4a"
ENT_VERSION="7.0.1"
ENT_SHA256="554b7e2a79fa9eda0439714011fa42d77c6829842faa91e022070015bfd483a0"

npm_pinned beautiful-mermaid beautiful-mermaid "$BM_VERSION" "$BM_SHA256" "$bm/beautiful-mermaid" \
	dist/index.js=beautiful-mermaid.js
npm_pinned elkjs elkjs "$ELK_VERSION" "$ELK_SHA256" "$bm/elkjs" lib/elk.bundled.js=elk.bundled.js
npm_pinned entities entities "$ENT_VERSION" "$ENT_SHA256" "$bm/entities" \
	package.json=package.json dist/esm=esm

# measure reads the three from one folder (bm, not dir: npm_pinned sets
# dir, a shell function's variables being global)
pkg=$bm/pkg
mkdir -p "$pkg" "$bm/in" "$bm/out"
cp "$bm/beautiful-mermaid/beautiful-mermaid.js" "$bm/elkjs/elk.bundled.js" "$pkg/"
rm -rf "$pkg/entities"
cp -R "$bm/entities/esm" "$pkg/entities"

multiarch=$(gcc -print-multiarch)
${CC:-cc} -O2 -isystem deps/math/usr/include -o "$bm/measure" bench/mermaid/measure.c \
	"deps/math/usr/lib/$multiarch/quickjs/libquickjs.a" -lm -pthread

# the issue's figure: a 50-node flowchart (a tree of labelled steps)
awk 'BEGIN { print "flowchart TD"; for (i = 1; i < 50; i++) { p = (i * 7919) % i; if (i > 3) p = int(i / 2) + (i % 3) - 1
	printf "  n%d[Step %d] --> n%d[Step %d]\n", p, p, i, i } }' >"$bm/in/flow50.mmd"
cat >"$bm/in/flow4.mmd" <<'END'
graph LR
  A[Start] --> B{Is it?}
  B -->|Yes| C[OK]
  B -->|No| D[End]
END
cat >"$bm/in/sequence.mmd" <<'END'
sequenceDiagram
  Alice->>Bob: Hello Bob
  Bob-->>Alice: Hi Alice
  Alice->>Bob: How are you?
END
cat >"$bm/in/class.mmd" <<'END'
classDiagram
  Animal <|-- Duck
  Animal <|-- Fish
  Animal : +int age
  Animal : +isMammal()
  class Duck{
    +String beakColor
    +swim()
  }
END
cat >"$bm/in/state.mmd" <<'END'
stateDiagram-v2
  [*] --> Still
  Still --> [*]
  Still --> Moving
  Moving --> Still
  Moving --> Crash
  Crash --> [*]
END
cat >"$bm/in/er.mmd" <<'END'
erDiagram
  CUSTOMER ||--o{ ORDER : places
  ORDER ||--|{ LINE-ITEM : contains
  CUSTOMER {
    string name
    int id PK
  }
END
cat >"$bm/in/xychart.mmd" <<'END'
xychart-beta
  title "Sales"
  x-axis [jan, feb, mar, apr]
  y-axis "Revenue" 0 --> 100
  bar [20, 45, 60, 80]
END

"$bm/measure" -n "${1:-3}" -o "$bm/out" "$pkg" "$bm"/in/flow50.mmd "$bm"/in/flow4.mmd \
	"$bm"/in/sequence.mmd "$bm"/in/class.mmd "$bm"/in/state.mmd "$bm"/in/er.mmd "$bm"/in/xychart.mmd

#!/usr/bin/env python3
"""diagrams_dot.py: how fast ```dot diagrams draw in folio's QuickJS.

Writes three DOT graphs (a 10-node digraph; 30 nodes in 3 labelled
clusters with edge labels; 50 nodes and ~70 edges), builds
bench/dot/diagrams_dot.c against deps/math's libquickjs.a, compiles viz.js's
full.render.js (deps/graphviz, bench/dot/deps.sh) between
bench/dot/pre.js and bench/dot/glue.js to bytecode, and prints its
figures: load, instantiation, first and best of REPEAT renders (CPU time),
and whether repeated renders give the same bytes. With Graphviz's own
`dot` on PATH, its figure (a whole process each) is printed beside them.

Usage: bench/dot/diagrams_dot.py [--repeat N] [--work DIR]
Run from the top of the repository, after scripts/deps-math.sh and
bench/dot/deps.sh.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import time


def graphs():
    """The three graphs, by name, as DOT text (fixed: seeded)."""
    rnd = random.Random(7)
    a = ['digraph a {']
    a += [f'  n{i} -> n{j};' for i, j in [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (4, 5), (4, 6),
                                          (5, 7), (6, 7), (7, 8), (8, 9), (2, 9)]]
    a.append('}')
    b = ['digraph b {', '  rankdir=LR; node [shape=box, fontname="Helvetica"];']
    for c in range(3):
        b.append(f'  subgraph cluster_{c} {{ label="Stage {c}"; style=rounded;')
        b += [f'    s{c}_{i} [label="step {c}.{i}\\nwork"];' for i in range(10)]
        b += [f'    s{c}_{i} -> s{c}_{i + 1} [label="e{i}"];' for i in range(9)]
        b.append('  }')
    for c in range(2):
        b += [f'  s{c}_{i} -> s{c + 1}_{(i + 2) % 10} [style=dashed, label="x"];' for i in range(0, 10, 3)]
    b.append('}')
    c = ['digraph c {'] + [f'  v{rnd.randrange(i)} -> v{i};' for i in range(1, 50)]
    for _ in range(25):
        x, y = rnd.randrange(50), rnd.randrange(50)
        if x < y:
            c.append(f'  v{x} -> v{y};')
    c.append('}')
    err = ['digraph e {', '  a -> b;', '  b -> -> c;', '}']
    return {'a10': a, 'b30_clusters': b, 'c50': c, 'syntax_error': err}


def dot_binary(path, repeat):
    """Best wall time of Graphviz's dot process on path, in ms."""
    best = None
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(['dot', '-Tsvg', path, '-o', os.devnull], check=True)
        d = (time.perf_counter() - t) * 1e3
        best = d if best is None or d < best else best
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--work', default='build/bench-dot')
    args = ap.parse_args()
    js = ['bench/dot/pre.js', 'deps/graphviz/full.render.js', 'bench/dot/glue.js']
    for f in js + ['deps/math/usr/include/quickjs/quickjs.h']:
        if not os.path.exists(f):
            sys.exit(f'diagrams_dot: {f} missing (run scripts/deps-math.sh and bench/dot/deps.sh)')
    os.makedirs(args.work, exist_ok=True)
    multiarch = subprocess.run(['gcc', '-print-multiarch'], capture_output=True, text=True).stdout.strip()
    runner = os.path.join(args.work, 'diagrams_dot')
    subprocess.run(['cc', '-O2', '-isystem', 'deps/math/usr/include', '-o', runner, 'bench/dot/diagrams_dot.c',
                    f'deps/math/usr/lib/{multiarch}/quickjs/libquickjs.a', '-lm', '-pthread'], check=True)
    paths = []
    for name, lines in graphs().items():
        p = os.path.join(args.work, name + '.dot')
        with open(p, 'w') as f:
            f.write('\n'.join(lines) + '\n')
        paths.append(p)
    bc = os.path.join(args.work, 'graphviz.bc')
    subprocess.run([runner, 'compile', bc] + js, check=True)
    subprocess.run([runner, 'run', bc, str(args.repeat)] + paths, check=True)
    if shutil.which('dot'):
        for p in paths[:-1]:
            print(f'{p}\tdot process (native Graphviz), best {dot_binary(p, args.repeat):.1f} ms wall')


if __name__ == '__main__':
    main()

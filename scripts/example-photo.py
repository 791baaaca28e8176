#!/usr/bin/env python3
"""example-photo.py: the example blog's photograph, made rather than taken:
a GPU package (eight compute dies on their I/O dies, eight HBM stacks,
capacitors, a substrate) on a table, lit from the top left, with a
camera's grain, written as a PPM for cjpeg. Two takes of the same scene:
on a light table (the picture) and on a dark cloth (its dark variant,
a.dark.jpg beside a.jpg, which a reader whose system is dark sees).

Usage: example-photo.py light|dark OUT.ppm [WIDTH HEIGHT]
Then: cjpeg -quality 84 -optimize -progressive OUT.ppm > OUT.jpg
Deterministic (random.Random(7)); pure Python, some seconds.
"""
import math
import random
import sys


def noise_grid(rnd, gw, gh):
    return [[rnd.random() for _ in range(gw + 1)] for _ in range(gh + 1)]


def value_noise(grid, gw, gh, u, v):
    """Smooth noise at u, v in [0, 1): bilinear over a gw x gh grid."""
    x, y = u * gw, v * gh
    i, j = int(x), int(y)
    fx, fy = x - i, y - j
    fx, fy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
    a = grid[j][i] + (grid[j][i + 1] - grid[j][i]) * fx
    b = grid[j + 1][i] + (grid[j + 1][i + 1] - grid[j + 1][i]) * fx
    return a + (b - a) * fy


def scene(w, h, dark):
    """The shapes, as (x0, y0, x1, y1, kind) in pixels, drawn in order."""
    cx, cy = w / 2, h / 2
    s = min(w, h) / 1000
    shapes = [(cx - 470 * s, cy - 420 * s, cx + 470 * s, cy + 420 * s, "substrate")]
    shapes.append((cx - 400 * s, cy - 280 * s, cx + 400 * s, cy + 280 * s, "interposer"))
    for k in range(8):  # eight compute dies, two rows of four
        col, row = k % 4, k // 4
        x0 = cx - 250 * s + col * 127 * s
        y0 = cy - 215 * s + row * 218 * s
        shapes.append((x0, y0, x0 + 118 * s, y0 + 208 * s, "die"))
    for k in range(4):  # HBM stacks on the interposer, four a side
        for side in (-1, 1):
            x0 = cx + side * 325 * s - 55 * s
            y0 = cy - 255 * s + k * 128 * s
            shapes.append((x0, y0, x0 + 110 * s, y0 + 118 * s, "hbm"))
    rnd = random.Random(3)
    for _ in range(60):  # capacitors along the edge of the substrate
        side = rnd.randrange(4)
        t = rnd.uniform(-380, 380) * s
        if side < 2:
            x0, y0 = cx + t, cy + (-400 if side == 0 else 380) * s
            shapes.append((x0, y0, x0 + 14 * s, y0 + 22 * s, "cap"))
        else:
            x0, y0 = cx + (-450 if side == 2 else 430) * s, cy + t * 0.9
            shapes.append((x0, y0, x0 + 22 * s, y0 + 14 * s, "cap"))
    return shapes


def colour(kind, u, v, n1, n2, dark):
    if kind == "table":  # a matte surface: a faint weave, no blotches
        base = (30, 30, 34) if dark else (224, 221, 214)
        k = 0.97 + 0.05 * n2 + 0.02 * math.sin(u * 900) * math.sin(v * 700)
        return tuple(c * k for c in base)
    if kind == "substrate":
        return (38 + 20 * n1, 86 + 25 * n1, 62 + 18 * n2)
    if kind == "interposer":
        return (120 + 30 * n2, 118 + 28 * n2, 110 + 25 * n2)
    if kind == "die":  # silicon's sheen, and the grid of its compute units
        t = 6.28 * (u * 0.8 + v * 0.5 + 0.3 * n1)
        grid = 0.82 if (int(u * 1000) % 9 == 0 or int(v * 1000) % 11 == 0) else 1.0
        return tuple(grid * c for c in (52 + 26 * math.sin(t), 54 + 24 * math.sin(t + 2.1), 72 + 30 * math.sin(t + 4.2)))
    if kind == "hbm":  # a polished stack, lighter at its top edge
        return (140 + 30 * n2, 142 + 30 * n2, 148 + 30 * n2)
    return (150 + 30 * n2, 96 + 20 * n2, 52 + 10 * n2)  # a capacitor


def render(w, h, dark):
    rnd = random.Random(7)
    g1, g2 = noise_grid(rnd, 24, 16), noise_grid(rnd, 160, 100)
    shapes = scene(w, h, dark)
    # the kind at each pixel, from the last shape that covers it
    kinds = [["table"] * w for _ in range(h)]
    for x0, y0, x1, y1, kind in shapes:
        for y in range(max(0, int(y0)), min(h, int(y1))):
            row = kinds[y]
            for x in range(max(0, int(x0)), min(w, int(x1))):
                row[x] = kind
    # a shadow down and to the right of the package
    sx0, sy0, sx1, sy1 = shapes[0][:4]
    off = 18 * min(w, h) / 1000
    out = bytearray()
    for y in range(h):
        v = y / h
        row = kinds[y]
        for x in range(w):
            u = x / w
            n1 = value_noise(g1, 24, 16, u, v)
            n2 = value_noise(g2, 160, 100, u, v)
            r, g, b = colour(row[x], u, v, n1, n2, dark)
            if row[x] == "table":  # the package's soft shadow, down and right
                dx = max(sx0 + off - x, 0, x - (sx1 + off))
                dy = max(sy0 + off - y, 0, y - (sy1 + off))
                k = 1 - 0.4 * max(0.0, 1 - math.hypot(dx, dy) / (2.2 * off))
                r, g, b = r * k, g * k, b * k
            # light from the top left, falling off; a camera's grain
            light = 1.12 - 0.35 * (u * 0.6 + v * 0.4)
            grain = rnd.gauss(0, 3.2)
            for c in (r, g, b):
                out.append(max(0, min(255, int(c * light + grain))))
    return out


def main():
    if len(sys.argv) not in (3, 5) or sys.argv[1] not in ("light", "dark"):
        sys.exit(__doc__)
    w, h = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) == 5 else (1600, 1000)
    px = render(w, h, sys.argv[1] == "dark")
    with open(sys.argv[2], "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (w, h))
        f.write(px)


if __name__ == "__main__":
    main()

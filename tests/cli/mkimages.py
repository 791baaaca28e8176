#!/usr/bin/env python3
"""mkimages.py: test images folio resizes, made without an image library.

  mkimages.py png OUT.png W H [alpha]   a PNG: a smooth gradient with a pattern
  mkimages.py ppm OUT.ppm W H           a PPM of the same picture (cjpeg makes
                                        a JPEG of it)
  mkimages.py photo OUT.ppm W H         a PPM with a photograph's grain: the
                                        picture with noise (cjpeg makes a JPEG)
  mkimages.py apng OUT.png W H          a PNG with an acTL chunk (an animation)
  mkimages.py corrupt OUT.png W H       a PNG whose pixel data is cut short
  mkimages.py huge OUT.png W H          a PNG header of W x H pixels over one
                                        tiny row of data (a decoding bomb)

The picture is deterministic: the same arguments give the same bytes.
"""
import struct
import sys
import zlib


def pixel(x, y, w, h):
    # a gradient with a diagonal pattern: smooth areas and edges, as in a
    # photograph or a screenshot
    r = (x * 255) // max(w - 1, 1)
    g = (y * 255) // max(h - 1, 1)
    b = 255 if ((x // 16) + (y // 16)) % 2 else 60
    return r, g, b


def rows(w, h, alpha):
    for y in range(h):
        line = bytearray([0])  # filter: none
        for x in range(w):
            r, g, b = pixel(x, y, w, h)
            line += bytes((r, g, b, (x * 255) // max(w - 1, 1))) if alpha else bytes((r, g, b))
        yield bytes(line)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(w, h, alpha=False, actl=False, cut=False):
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6 if alpha else 2, 0, 0, 0)
    data = zlib.compress(b"".join(rows(w, h, alpha)), 9)
    if cut:
        data = data[: len(data) // 2]
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    if actl:
        out += chunk(b"acTL", struct.pack(">II", 1, 0))
    return out + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def ppm(w, h, noise=False):
    body = bytearray()
    seed = 12345
    for y in range(h):
        for x in range(w):
            r, g, b = pixel(x, y, w, h)
            if noise:  # a linear congruential grain, the same every run
                seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                d = (seed >> 16) % 41 - 20
                r, g, b = (min(255, max(0, v + d)) for v in (r, g, b))
            body += bytes((r, g, b))
    return b"P6\n%d %d\n255\n" % (w, h) + bytes(body)


def main():
    kind, out, w, h = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    extra = sys.argv[5:]
    if kind == "png":
        data = png(w, h, alpha="alpha" in extra)
    elif kind == "apng":
        data = png(w, h, actl=True)
    elif kind == "corrupt":
        data = png(w, h, cut=True)
    elif kind == "huge":
        ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
        data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
                + chunk(b"IEND", b""))
    elif kind == "ppm":
        data = ppm(w, h)
    elif kind == "photo":
        data = ppm(w, h, noise=True)
    else:
        sys.exit("mkimages.py: unknown kind " + kind)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()

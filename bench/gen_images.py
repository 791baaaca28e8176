#!/usr/bin/env python3
"""gen_images.py: the image corpus of `make bench`'s image row: a small
folio site whose posts are page bundles of photographs and screenshots.

Usage: gen_images.py [--images 40] [--photos 30] [--seed 1] OUT

Writes OUT/folio.yml and OUT/content/posts/<slug>/index.md, each post a
bundle of four images it shows with ![alt](file); bench/hugo-images/ is the
Hugo twin that reads the same content folder (--contentDir OUT/content).

- Photographs (JPEG, quality 90, 4:2:0; 2400 x 1600 and 1600 x 1067, the
  usual widths of a blog's camera pictures after an export): a sky or
  backdrop gradient, value noise at several scales (hills, foliage,
  clouds), shapes with soft and hard edges, and a fine grain as a sensor
  makes. Flat colour would compress to nothing and flatter any encoder;
  these come out at 0.5 to 1.5 MB, like real photographs.
- Screenshots (PNG, 1440 x 900 to 2560 x 1440): flat panels, a title bar,
  a sidebar, lines of text (Pillow's bitmap font), a coloured code panel,
  buttons, and now and then a photograph in a card: what a technical post
  pastes.

Needs Pillow (Debian: python3-pil). Deterministic: every random number
comes from random.Random(seed), so the same (images, photos, seed) and
the same Pillow (its libjpeg and zlib) give the same bytes.
"""
import argparse
import os
import random
import sys

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

PHOTO_SIZES = [(2400, 1600), (1600, 1067)]
SHOT_SIZES = [(1440, 900), (1920, 1080), (2560, 1440), (1680, 1050)]
WORDS = """kernel latency cache thread buffer tensor warp scheduler profile trace
request batch memory allocator compile linker build deploy metrics cluster node
queue socket packet index shard replica commit branch merge review test bench
config server client render layout image resize encode decode stream file""".split()


def noise_layer(rng, w, h, cell, mode="L"):
    """Value noise: random values on a grid of cell pixels, smoothly
    interpolated (bicubic) up to w x h."""
    gw, gh = max(2, w // cell + 2), max(2, h // cell + 2)
    bands = 3 if mode == "RGB" else 1
    small = Image.frombytes(mode, (gw, gh), rng.randbytes(gw * gh * bands))
    big = small.resize((gw * cell, gh * cell), Image.BICUBIC)
    ox, oy = rng.randrange(cell), rng.randrange(cell)
    return big.crop((ox, oy, ox + w, oy + h))


def gradient(w, h, top, bottom):
    """A vertical gradient from colour top to colour bottom."""
    col = Image.new("RGB", (1, 256))
    col.putdata([tuple(int(top[c] + (bottom[c] - top[c]) * y / 255) for c in range(3)) for y in range(256)])
    return col.resize((w, h), Image.BILINEAR)


def rand_colour(rng, lo=0, hi=255):
    return tuple(rng.randint(lo, hi) for _ in range(3))


def shapes(rng, w, h, n, blur):
    """n shapes (ellipses, polygons) in their colours on a transparent
    layer, its edges blurred by blur pixels (0: sharp)."""
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    for _ in range(n):
        x, y = rng.randrange(w), rng.randrange(h)
        r = rng.randint(h // 40, h // 6)
        fill = rand_colour(rng, 20, 235) + (255,)
        if rng.random() < 0.5:
            d.ellipse((x - r, y - int(r * rng.uniform(0.4, 1.2)), x + r, y + r), fill=fill)
        else:
            d.polygon([(x + rng.randint(-r, r), y + rng.randint(-r, r)) for _ in range(rng.randint(3, 6))],
                      fill=fill)
    return layer.filter(ImageFilter.GaussianBlur(blur)) if blur else layer


def photo(rng, w, h):
    """A natural-looking photograph: a sky over textured ground, objects in
    and out of focus, light and shade at several scales, a sensor's grain,
    a lens's vignette."""
    img = gradient(w, h, rand_colour(rng, 110, 230), rand_colour(rng, 60, 190))
    # broad tints (chroma varies slowly in a photograph)
    img = Image.blend(img, noise_layer(rng, w, h, max(2, w // 4), "RGB"), 0.25)
    # the ground, below a rolling horizon
    ground = gradient(w, h, rand_colour(rng, 40, 150), rand_colour(rng, 15, 90))
    ground = Image.blend(ground, noise_layer(rng, w, h, max(2, w // 16), "RGB"), 0.2)
    ridge = noise_layer(rng, w, 1, max(2, w // 6))
    horizon = int(h * rng.uniform(0.4, 0.7))
    mask = Image.new("L", (w, h), 0)
    pts = [(0, h)] + [(x, horizon + (ridge.getpixel((min(x, w - 1), 0)) - 128) * h // 700)
                      for x in range(0, w + 20, 20)] + [(w, h)]
    ImageDraw.Draw(mask).polygon(pts, fill=255)
    img = Image.composite(ground, img, mask.filter(ImageFilter.GaussianBlur(1.5)))
    # objects: far ones out of focus, near ones sharp
    for n, blur in ((rng.randint(3, 8), rng.uniform(4, 12)), (rng.randint(3, 8), rng.uniform(0, 1.2))):
        layer = shapes(rng, w, h, n, blur)
        img.paste(layer, (0, 0), layer)
    # light and shade on everything: luminance noise from hills to leaves
    tex = Image.new("L", (w, h), 128)
    for cell, weight in ((w // 5, 0.5), (w // 20, 0.35), (40, 0.3), (10, 0.25), (3, 0.2)):
        tex = Image.blend(tex, noise_layer(rng, w, h, max(2, cell)), weight)
    img = ImageChops.overlay(img, tex.convert("RGB"))
    # a sensor's grain: mostly luminance, a little colour
    grain = Image.frombytes("L", (w, h), rng.randbytes(w * h)).convert("RGB")
    img = Image.blend(img, grain, 0.035)
    img = Image.blend(img, Image.frombytes("RGB", (w, h), rng.randbytes(w * h * 3)), 0.015)
    vig = Image.radial_gradient("L").resize((w, h), Image.BILINEAR)
    return Image.composite(Image.new("RGB", (w, h), (0, 0, 0)), img, vig.point(lambda v: max(0, v - 150)))


def text_line(d, rng, font, x, y, max_w, colour):
    """Words in the bitmap font from x, until max_w."""
    line = []
    while True:
        word = rng.choice(WORDS)
        trial = " ".join(line + [word])
        if d.textlength(trial, font=font) > max_w:
            break
        line.append(word)
    d.text((x, y), " ".join(line), fill=colour, font=font)


def screenshot(rng, w, h, photos):
    """A screenshot of an application: title bar, sidebar, panels, text,
    a code panel, buttons, maybe a photograph in a card."""
    dark = rng.random() < 0.4
    bg = (30, 32, 38) if dark else (246, 247, 249)
    fg = (220, 222, 228) if dark else (40, 42, 48)
    panel = (42, 45, 52) if dark else (255, 255, 255)
    line = (60, 64, 72) if dark else (222, 225, 230)
    accent = rand_colour(rng, 30, 220)
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    # title bar with its three buttons, a toolbar
    d.rectangle((0, 0, w, 36), fill=line)
    for i, c in enumerate(((237, 106, 94), (245, 191, 79), (98, 197, 84))):
        d.ellipse((14 + 22 * i, 11, 28 + 22 * i, 25), fill=c)
    text_line(d, rng, font, w // 2 - 120, 12, 240, fg)
    d.rectangle((0, 36, w, 84), fill=panel, outline=line)
    for i in range(rng.randint(4, 9)):
        d.rounded_rectangle((16 + 110 * i, 46, 112 + 110 * i, 74), 6, fill=bg, outline=line)
        text_line(d, rng, font, 26 + 110 * i, 55, 80, fg)
    # sidebar of entries
    side = rng.randint(220, 320)
    d.rectangle((0, 84, side, h), fill=panel, outline=line)
    y = 100
    while y < h - 24:
        if rng.random() < 0.1:
            d.rectangle((0, y - 4, side, y + 18), fill=accent)
        text_line(d, rng, font, 20 + 12 * rng.randint(0, 2), y, side - 60, fg)
        y += 26
    # main area: cards of text, a code panel, maybe a picture
    x0, y0 = side + 24, 108
    cols = 2 if w >= 1900 else 1
    cw = (w - x0 - 24 * cols) // cols
    for c in range(cols):
        y = y0
        x = x0 + c * (cw + 24)
        while y < h - 120:
            kind = rng.random()
            ch = rng.randint(120, 320)
            ch = min(ch, h - 24 - y)
            d.rounded_rectangle((x, y, x + cw, y + ch), 8, fill=panel, outline=line)
            if kind < 0.25:
                code_bg = (22, 24, 29) if dark else (40, 44, 52)
                d.rectangle((x + 12, y + 12, x + cw - 12, y + ch - 12), fill=code_bg)
                for ly in range(y + 20, y + ch - 24, 16):
                    cx = x + 24 + 16 * rng.randint(0, 3)
                    while cx < x + cw - 120 and rng.random() < 0.85:
                        word = rng.choice(WORDS)
                        col = rng.choice([(198, 120, 221), (97, 175, 239), (152, 195, 121), (229, 192, 123),
                                          (171, 178, 191)])
                        d.text((cx, ly), word, fill=col, font=font)
                        cx += int(d.textlength(word + " ", font=font))
            elif kind < 0.4 and photos:
                p = rng.choice(photos)
                ph = ch - 24
                pw = min(cw - 24, int(ph * p.width / p.height))
                img.paste(p.resize((pw, ph), Image.BILINEAR), (x + 12, y + 12))
            else:
                d.text((x + 16, y + 14), rng.choice(WORDS).upper(), fill=accent, font=font)
                for ly in range(y + 36, y + ch - 40, 15):
                    text_line(d, rng, font, x + 16, ly, cw - 32 - rng.randint(0, cw // 3), fg)
                d.rounded_rectangle((x + cw - 110, y + ch - 36, x + cw - 16, y + ch - 12), 5, fill=accent)
            y += ch + 16
    return img


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--images", type=int, default=40)
    ap.add_argument("--photos", type=int, default=None, help="how many are photographs (default: 3/4)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-post", type=int, default=4)
    ap.add_argument("out")
    args = ap.parse_args(argv)
    nphotos = args.photos if args.photos is not None else (args.images * 3 + 3) // 4
    nphotos = min(nphotos, args.images)
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "folio.yml"), "w") as f:
        f.write("# gen_images.py: the image row of make bench (images: the defaults)\n"
                "title: Image Bench\nbase_url: https://bench.example.org\nauthor: Bench\n")
    kinds = ["photo"] * nphotos + ["shot"] * (args.images - nphotos)
    rng.shuffle(kinds)
    thumbs, total = [], 0
    posts = (args.images + args.per_post - 1) // args.per_post
    for p in range(posts):
        slug = f"pictures-{p + 1:02d}"
        folder = os.path.join(args.out, "content", "posts", slug)
        os.makedirs(folder, exist_ok=True)
        body = []
        for i in range(p * args.per_post, min(args.images, (p + 1) * args.per_post)):
            if kinds[i] == "photo":
                w, h = PHOTO_SIZES[rng.randrange(len(PHOTO_SIZES))]
                im = photo(rng, w, h)
                name = f"photo-{i + 1:03d}.jpg"
                im.save(os.path.join(folder, name), "JPEG", quality=90, subsampling=2)
                if len(thumbs) < 4:
                    thumbs.append(im.resize((w // 4, h // 4), Image.BILINEAR))
                alt = f"Photograph {i + 1}"
            else:
                w, h = SHOT_SIZES[rng.randrange(len(SHOT_SIZES))]
                im = screenshot(rng, w, h, thumbs)
                name = f"screen-{i + 1:03d}.png"
                im.save(os.path.join(folder, name), "PNG", optimize=False, compress_level=6)
                alt = f"Screenshot {i + 1}"
            total += os.path.getsize(os.path.join(folder, name))
            body.append(f"Paragraph before picture {i + 1}: what it shows and why it matters.\n\n"
                        f"![{alt}]({name})\n")
        with open(os.path.join(folder, "index.md"), "w") as f:
            f.write(f"---\ntitle: \"Pictures {p + 1}\"\ndate: 2024-01-{p % 28 + 1:02d}\ntags: [pictures]\n---\n\n")
            f.write("\n".join(body))
    print(f"gen_images: {args.images} images ({nphotos} photographs, {args.images - nphotos} screenshots), "
          f"{total / 1e6:.1f} MB, in {posts} posts, into {args.out}")


if __name__ == "__main__":
    sys.exit(main())

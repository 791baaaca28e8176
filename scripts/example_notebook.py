#!/usr/bin/env python3
"""example_notebook.py: writes the example blog's notebook post
(examples/techblog/content/posts/softmax-in-a-notebook.ipynb): a Python
cell with a stream output, an error with ANSI colours, a small PNG chart
(its bytes made here with zlib, no imaging library), a LaTeX output and an
HTML table. Run it again after changing it; the output is deterministic."""
import base64
import json
import math
import os
import struct
import sys
import zlib


def png(width, height, pixel):
    """An RGBA PNG of width x height, pixel(x, y) -> (r, g, b, a)."""
    rows = b"".join(b"\0" + bytes(c for x in range(width) for c in pixel(x, y)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    head = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def softmax(xs):
    m = max(xs)
    e = [math.exp(x - m) for x in xs]
    s = sum(e)
    return [v / s for v in e]


LOGITS = [2.0, 1.0, 0.1, -1.0, 3.0]
PROBS = softmax(LOGITS)


def chart(x, y, w=200, h=100):
    """Bars of PROBS on a transparent background, a base line under them."""
    if y >= h - 3:
        return (120, 120, 120, 255)
    slot = w // len(PROBS)
    i, off = divmod(x, slot)
    if i < len(PROBS) and 6 <= off < slot - 6:
        top = (h - 4) - int(PROBS[i] * (h - 10) / max(PROBS))
        if y >= top:
            return (37, 99, 235, 255) if i != PROBS.index(max(PROBS)) else (234, 88, 12, 255)
    return (0, 0, 0, 0)


ESC = "\u001b"
traceback = [
    f"{ESC}[0;31m---------------------------------------------------------------------------{ESC}[0m",
    f"{ESC}[0;31mOverflowError{ESC}[0m                             Traceback (most recent call last)",
    f"Cell {ESC}[0;32mIn[2], line 4{ESC}[0m\n"
    f"{ESC}[1;32m      1{ESC}[0m {ESC}[38;5;28;01mdef{ESC}[39;00m {ESC}[38;5;21mnaive_softmax{ESC}[39m(xs):\n"
    f"{ESC}[1;32m      2{ESC}[0m     e {ESC}[38;5;241m={ESC}[39m [math{ESC}[38;5;241m.{ESC}[39mexp(x) {ESC}[38;5;28;01mfor{ESC}[39;00m x {ESC}[38;5;129;01min{ESC}[39;00m xs]\n"
    f"{ESC}[0;32m----> 4{ESC}[0m naive_softmax([{ESC}[38;5;241m1000.0{ESC}[39m, {ESC}[38;5;241m1.0{ESC}[39m])",
    f"{ESC}[0;31mOverflowError{ESC}[0m: math range error",
]

table = (
    "<table>\n<thead>\n<tr><th>logit</th><th>probability</th></tr>\n</thead>\n<tbody>\n"
    + "".join(f"<tr><td>{x:.1f}</td><td>{p:.3f}</td></tr>\n" for x, p in zip(LOGITS, PROBS))
    + "</tbody>\n</table>"
)


def lines(text):
    """nbformat's multiline string: a list of lines, each with its newline."""
    out = text.splitlines(keepends=True)
    return out


cells = [
    {"cell_type": "markdown", "metadata": {}, "source": lines(
        "A softmax turns logits into probabilities:\n"
        "$\\mathrm{softmax}(x)_i = e^{x_i} / \\sum_j e^{x_j}$. Written naively it overflows as soon as one\n"
        "logit is large; subtracting the largest first gives the same result and never does.\n"
        "This post is a Jupyter notebook: folio renders its cells and their saved outputs.\n"
        "\n"
        "## The naive version\n")},
    {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [
        {"output_type": "stream", "name": "stdout", "text": lines("[0.731, 0.269]\nsum = 1.0\n")}],
     "source": lines("import math\n\ndef naive_softmax(xs):\n    e = [math.exp(x) for x in xs]\n"
                     "    s = sum(e)\n    return [v / s for v in e]\n\n"
                     "p = naive_softmax([1.0, 0.0])\nprint([round(v, 3) for v in p])\nprint('sum =', sum(p))")},
    {"cell_type": "code", "execution_count": 2, "metadata": {}, "outputs": [
        {"output_type": "error", "ename": "OverflowError", "evalue": "math range error", "traceback": traceback}],
     "source": lines("naive_softmax([1000.0, 1.0])")},
    {"cell_type": "markdown", "metadata": {}, "source": lines(
        "## The stable version\n\nShifting every logit by the largest, $m = \\max_j x_j$, changes nothing:\n"
        "the factor $e^{-m}$ cancels.\n")},
    {"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": [
        {"output_type": "display_data", "metadata": {},
         "data": {"text/latex": ["$$\\mathrm{softmax}(x)_i = \\frac{e^{x_i - m}}{\\sum_j e^{x_j - m}}$$"],
                  "text/plain": ["<IPython.core.display.Latex object>"]}}],
     "source": lines("from IPython.display import Latex\n"
                     "Latex(r'$$\\mathrm{softmax}(x)_i = \\frac{e^{x_i - m}}{\\sum_j e^{x_j - m}}$$')")},
    {"cell_type": "code", "execution_count": 4, "metadata": {}, "outputs": [
        {"output_type": "execute_result", "execution_count": 4, "metadata": {},
         "data": {"text/html": lines(table), "text/plain": ["   logit  probability\n", "0    2.0        0.237"]}}],
     "source": lines("def softmax(xs):\n    m = max(xs)\n    e = [math.exp(x - m) for x in xs]\n"
                     "    s = sum(e)\n    return [v / s for v in e]\n\n"
                     f"logits = {LOGITS!r}\n"
                     "import pandas as pd\npd.DataFrame({'logit': logits, 'probability': softmax(logits)})")},
    {"cell_type": "code", "execution_count": 5, "metadata": {}, "outputs": [
        {"output_type": "display_data", "metadata": {},
         "data": {"image/png": base64.encodebytes(png(200, 100, chart)).decode("ascii"),
                  "text/plain": ["Bar chart of the five probabilities; the largest logit, 3.0, takes most of the mass"]}}],
     "source": lines("import matplotlib.pyplot as plt\nplt.bar(range(5), softmax(logits))\nplt.show()")},
    {"cell_type": "markdown", "metadata": {}, "source": lines(
        "The largest logit takes most of the mass, and no exponential ever sees a number above zero.\n")},
]

nb = {
    "cells": cells,
    "metadata": {
        "folio": {
            "title": "Softmax Without Overflow, in a Notebook",
            "date": "2026-09-10",
            "tags": ["python", "numerics"],
            "summary": "A Jupyter notebook as a post: a naive softmax overflows, a shifted one does not.",
        },
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python", "version": "3.12.0"},
    },
    "nbformat": 4,
    "nbformat_minor": 5,
}

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), "..", "examples", "techblog", "content", "posts", "softmax-in-a-notebook.ipynb")
with open(out, "w", encoding="utf-8") as f:
    json.dump(nb, f, indent=1, ensure_ascii=False)
    f.write("\n")

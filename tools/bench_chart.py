#!/usr/bin/env python3
"""Draw docs/attacks.svg from criterion's results (target/criterion).

Run after `cargo bench -p hashmate --bench attacks`. Plain SVG, no
plotting library needed: one group of bars per backend, ns per lookup for
rook, bishop and queen, on random occupancies and on real positions.
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..")
CRIT = os.path.join(ROOT, "target", "criterion")
BACKENDS = ["fl-fast", "fl-compact", "magic", "pext", "kindergarten", "hyperbola", "loop"]
PIECES = ["rook", "bishop", "queen"]
COLORS = {"rook": "#4e79a7", "bishop": "#f28e2b", "queen": "#59a14f"}


def ns(group, piece, backend):
    path = os.path.join(CRIT, group, piece, backend, "new", "estimates.json")
    try:
        with open(path) as f:
            return json.load(f)["median"]["point_estimate"] / 1024
    except OSError:
        return None


def panel(x0, y0, w, h, group, title, vmax):
    out = [f'<text x="{x0 + w / 2}" y="{y0 - 8}" text-anchor="middle" font-size="14">{title}</text>']
    out.append(f'<line x1="{x0}" y1="{y0 + h}" x2="{x0 + w}" y2="{y0 + h}" stroke="black"/>')
    for t in range(0, int(vmax) + 1, 5):
        y = y0 + h - h * t / vmax
        out.append(f'<line x1="{x0}" y1="{y}" x2="{x0 + w}" y2="{y}" stroke="#ddd"/>')
        out.append(f'<text x="{x0 - 4}" y="{y + 4}" text-anchor="end" font-size="10">{t}</text>')
    gw = w / len(BACKENDS)
    bw = gw / 4
    for i, b in enumerate(BACKENDS):
        for j, p in enumerate(PIECES):
            v = ns(group, p, b)
            if v is None:
                continue
            bh = h * min(v, vmax) / vmax
            x = x0 + i * gw + (j + 0.5) * bw
            out.append(f'<rect x="{x:.1f}" y="{y0 + h - bh:.1f}" width="{bw:.1f}" height="{bh:.1f}" fill="{COLORS[p]}"/>')
            out.append(f'<text x="{x + bw / 2:.1f}" y="{y0 + h - bh - 2:.1f}" text-anchor="middle" font-size="7">{v:.1f}</text>')
        out.append(f'<text x="{x0 + i * gw + gw / 2:.1f}" y="{y0 + h + 14}" text-anchor="middle" font-size="10">{b}</text>')
    return out


def main():
    vmax = 20.0
    w, h = 560, 220
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="1260" height="330" font-family="sans-serif">',
             '<rect width="100%" height="100%" fill="white"/>',
             '<text x="630" y="20" text-anchor="middle" font-size="16">Slider attack lookup, ns per lookup (lower is better)</text>']
    parts += panel(50, 50, w, h, "lookup_random", "random occupancies", vmax)
    parts += panel(680, 50, w, h, "lookup_positions", "perft-suite positions", vmax)
    for j, p in enumerate(PIECES):
        parts.append(f'<rect x="{480 + j * 110}" y="305" width="12" height="12" fill="{COLORS[p]}"/>')
        parts.append(f'<text x="{496 + j * 110}" y="316" font-size="12">{p}</text>')
    parts.append("</svg>")
    out = os.path.join(ROOT, "docs", "attacks.svg")
    with open(out, "w") as f:
        f.write("\n".join(parts) + "\n")
    print("wrote", out, file=sys.stderr)


main()

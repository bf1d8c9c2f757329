#!/usr/bin/env python3
"""Draw docs/tt_study.svg from the Markdown table `hashmate tt-study` prints.

Usage: hashmate tt-study > docs/tt-study.md && python3 tools/study_chart.py
Bars: false hits per 10^9 probes (log scale) per strategy and stored key
bits; a missing bar means no false hit was seen.
"""
import math
import os

ROOT = os.path.join(os.path.dirname(__file__), "..")
rows = []
with open(os.path.join(ROOT, "docs", "tt-study.md")) as f:
    for line in f:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 9 and cells[1].isdigit():
            rows.append((cells[0], int(cells[1]), float(cells[5]), cells[7]))

strategies = list(dict.fromkeys(r[0] for r in rows))
colors = {16: "#e15759", 32: "#f28e2b", 48: "#4e79a7", 64: "#59a14f"}
w, h, x0, y0 = 640, 240, 70, 50
top = 9  # up to 10^9 per 10^9 probes
parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="760" height="340" font-family="sans-serif">',
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="380" y="22" text-anchor="middle" font-size="15">False hits per 10^9 probes (log scale; no bar = none seen)</text>']
for e in range(0, top + 1):
    y = y0 + h - h * e / top
    parts.append(f'<line x1="{x0}" y1="{y}" x2="{x0 + w}" y2="{y}" stroke="#ddd"/>')
    parts.append(f'<text x="{x0 - 6}" y="{y + 4}" text-anchor="end" font-size="10">1e{e}</text>')
gw = w / max(len(strategies), 1)
for i, st in enumerate(strategies):
    for j, bits in enumerate([16, 32, 48, 64]):
        r = [x for x in rows if x[0] == st and x[1] == bits]
        if not r:
            continue
        v, exact = r[0][2], r[0][3]
        x = x0 + i * gw + (j + 0.5) * gw / 5
        if v > 0:
            bh = h * min(math.log10(v), top) / top
            parts.append(f'<rect x="{x:.1f}" y="{y0 + h - bh:.1f}" width="{gw / 5:.1f}" height="{bh:.1f}" fill="{colors[bits]}"/>')
            parts.append(f'<text x="{x + gw / 10:.1f}" y="{y0 + h - bh - 3:.1f}" text-anchor="middle" font-size="9">{v:.0f}</text>')
        if "no" in exact:
            parts.append(f'<text x="{x + gw / 10:.1f}" y="{y0 + h + 26}" text-anchor="middle" font-size="9" fill="#e15759">wrong</text>')
    parts.append(f'<text x="{x0 + i * gw + gw / 2:.1f}" y="{y0 + h + 14}" text-anchor="middle" font-size="11">{st}</text>')
for j, bits in enumerate([16, 32, 48, 64]):
    parts.append(f'<rect x="{200 + j * 100}" y="320" width="12" height="12" fill="{colors[bits]}"/>')
    parts.append(f'<text x="{216 + j * 100}" y="331" font-size="12">{bits} bits</text>')
parts.append("</svg>")
with open(os.path.join(ROOT, "docs", "tt_study.svg"), "w") as f:
    f.write("\n".join(parts) + "\n")

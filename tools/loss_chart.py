#!/usr/bin/env python3
"""Draw docs/nnue_loss.svg: the validation loss per epoch of each training
run of the network, from the trainer's `loss.csv` files kept in
docs/nnue-loss/ (one per run, copied from the run's output directory).

Usage: python3 tools/loss_chart.py
Three panels: runs 1-3 fit with lambda = 0.5 (half game result, half
search score), runs 4 on with lambda = 0.2, and the two losses are not on
one scale; the lambda = 0.2 runs are split at run 11, where the loop
turned to the network's own games of sets 7 on (harder positions, a
higher loss). Each run is scored on its own validation blocks (runs 6, 7
and 7m share theirs).
"""
import csv
import os

from svg_axes import frame

ROOT = os.path.join(os.path.dirname(__file__), "..")
DATA = os.path.join(ROOT, "docs", "nnue-loss")
LAMBDA_05 = ["run1", "run2", "run3"]


def run_order(name):
    """run7 < run7m < run8 < run10: by number, then by suffix."""
    digits = "".join(c for c in name[3:] if c.isdigit())
    return (int(digits), name[3 + len(digits):])


# Every run's loss.csv in docs/nnue-loss/ is drawn: a new run needs only its file.
LAMBDA_02 = sorted((f[:-4] for f in os.listdir(DATA) if f.endswith(".csv") and f[:-4] not in LAMBDA_05),
                   key=run_order)
EARLY = [r for r in LAMBDA_02 if run_order(r)[0] < 11]
LATE = [r for r in LAMBDA_02 if run_order(r)[0] >= 11]
PANELS = [
    ("lambda = 0.5 (runs 1-3)", LAMBDA_05),
    ("lambda = 0.2 (runs 4-10)", EARLY),
    (f"lambda = 0.2, own games (runs 11-{run_order(LATE[-1])[0]})", LATE),
]
PALETTE = ["#bab0ac", "#9c755f", "#76b7b2", "#edc948", "#f28e2b", "#59a14f", "#4e79a7",
           "#e15759", "#b07aa1", "#ff9da7", "#000000", "#8cd17d", "#499894", "#d37295"]
# Colours are picked per panel, so no two runs in one panel share one.
COLORS = {run: PALETTE[i % len(PALETTE)] for runs in (LAMBDA_05, EARLY, LATE) for i, run in enumerate(runs)}


def read(run):
    with open(os.path.join(DATA, run + ".csv")) as f:
        return [(int(r["epoch"]), float(r["validation_loss"])) for r in csv.DictReader(f)]


def panel(title, runs, x0, y0, w, h):
    series = {r: read(r) for r in runs}
    # The scale leaves out each run's first epoch where later ones exist: a
    # run from random weights starts several times higher, and would press
    # every other curve flat against the floor. Its first segment is clipped.
    values = [v for s in series.values() for e, v in s if e > 1 or len(s) == 1]
    lo, hi = min(values), max(values)
    pad = (hi - lo) * 0.05
    lo, hi = lo - pad, hi + pad
    epochs = max(e for s in series.values() for e, _ in s)
    sx = lambda e: x0 + w * (e - 1) / max(epochs - 1, 1)
    sy = lambda v: y0 + h - h * (v - lo) / (hi - lo)
    out = frame(title, x0, y0, w, h, [lo + (hi - lo) * k / 5 for k in range(6)], sy, lambda v: f"{v:.4f}",
                range(1, epochs + 1, max(1, epochs // 10)), sx, "epoch")
    clip = f"clip{x0}"
    out.append(f'<clipPath id="{clip}"><rect x="{x0}" y="{y0}" width="{w}" height="{h}"/></clipPath>')
    for i, (run, s) in enumerate(series.items()):
        pts = " ".join(f"{sx(e):.1f},{sy(v):.1f}" for e, v in s)
        out.append(f'<polyline points="{pts}" fill="none" stroke="{COLORS[run]}" stroke-width="2" clip-path="url(#{clip})"/>')
        # The legend stands below the panel, in two columns, so that a
        # panel of many runs never covers its own curves.
        lx = x0 + (w // 2) * (i % 2)
        ly = legend_top(y0, h) + LEGEND_ROW * (i // 2)
        out.append(f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 20}" y2="{ly - 4}" stroke="{COLORS[run]}" stroke-width="2"/>')
        out.append(f'<text x="{lx + 25}" y="{ly}" font-size="11">{run} ({s[-1][1]:.6f})</text>')
    return out


LEGEND_ROW = 15


def legend_top(y0, h):
    """The first legend row's baseline: below the x axis's name."""
    return y0 + h + 52


PLOT_TOP, PLOT_HEIGHT = 60, 240
rows = max((len(runs) + 1) // 2 for _, runs in PANELS)
height = legend_top(PLOT_TOP, PLOT_HEIGHT) + LEGEND_ROW * (rows - 1) + 12
parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="{height}" font-family="sans-serif">',
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="600" y="20" text-anchor="middle" font-size="15">Validation loss per epoch of each training run (last value in brackets)</text>']
parts += panel(*PANELS[0], 70, PLOT_TOP, 300, PLOT_HEIGHT)
parts += panel(*PANELS[1], 450, PLOT_TOP, 330, PLOT_HEIGHT)
parts += panel(*PANELS[2], 850, PLOT_TOP, 330, PLOT_HEIGHT)
parts.append("</svg>")
with open(os.path.join(ROOT, "docs", "nnue_loss.svg"), "w") as f:
    f.write("\n".join(parts) + "\n")

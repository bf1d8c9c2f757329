#!/usr/bin/env python3
"""Draw the trajectories of an SPSA run as SVG, from the logs that
`../shared/tools/spsa.py` prints (one line per iteration:
`iteration K/N: plus W../D../L..; NAME=VALUE, NAME=VALUE, ...`).

Usage: python3 tools/spsa_chart.py --out docs/spsa_s27.svg docs/spsa/s27-groupA.log ...

One panel per log. Each parameter is drawn as its distance from its
starting value in units of its final perturbation C_END (read from the
params file given with `--params`, one per log, in OpenBench's SPSA
input format), so that parameters of different scales share an axis: a
curve that stays within +-1 moved less than the step SPSA tries.
"""
import argparse
import re

from svg_axes import frame

# (Newer logs add ", identical pairs I/P (all: ...)" before the semicolon.)
LINE = re.compile(r"iteration (\d+)/(\d+): plus W(\d+)/D(\d+)/L(\d+)(?:, identical pairs [^;]*)?; (.*)$")
PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1", "#9c755f", "#76b7b2", "#edc948"]


def read_log(path):
    """[(iteration, {name: value})] from an spsa.py log."""
    rows = []
    with open(path) as f:
        for line in f:
            m = LINE.match(line.strip())
            if m:
                vals = dict((k, float(v)) for k, v in (kv.split("=") for kv in m.group(6).split(", ")))
                rows.append((int(m.group(1)), vals))
    if not rows:
        raise SystemExit(f"{path}: no iteration lines")
    return rows


def read_params(path):
    """{name: (start, c_end)} from an OpenBench SPSA input file."""
    out = {}
    with open(path) as f:
        for line in f:
            fields = [x.strip() for x in line.split(",")]
            if len(fields) == 7:
                out[fields[0]] = (float(fields[2]), float(fields[5]))
    return out


def panel(title, rows, params, x0, y0, w, h):
    names = list(rows[0][1])
    series = {n: [(k, (v[n] - params[n][0]) / params[n][1]) for k, v in rows] for n in names}
    span = max(2.0, max(abs(y) for s in series.values() for _, y in s) * 1.1)
    last = rows[-1][0]
    sx = lambda k: x0 + w * k / max(last, 1)
    sy = lambda v: y0 + h / 2 - (h / 2) * v / span
    out = frame(title, x0, y0, w, h, (-span, -1, 0, 1, span), sy, lambda v: f"{v:+.1f}",
                range(0, last + 1, max(1, last // 5)), sx, "iteration (one game pair each)",
                grid=lambda v: "#ccc" if v == 0 else "#eee")
    for i, (n, s) in enumerate(series.items()):
        colour = PALETTE[i % len(PALETTE)]
        pts = " ".join(f"{sx(k):.1f},{sy(v):.2f}" for k, v in s)
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        ly = y0 + 14 + 14 * i
        start = params[n][0]
        out.append(f'<line x1="{x0 + 8}" y1="{ly - 4}" x2="{x0 + 26}" y2="{ly - 4}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{x0 + 30}" y="{ly}" font-size="10">{n} {start:g} → {rows[-1][1][n]:g}</text>')
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--params", action="append", required=True, help="the run's params file, one per log")
    ap.add_argument("--title", default="SPSA: each parameter's distance from its start, in units of C_END")
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()
    if len(a.params) != len(a.logs):
        raise SystemExit("give one --params file per log")
    pw, ph, gap = 380, 240, 80
    width = 70 + len(a.logs) * (pw + gap)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="360" font-family="sans-serif">',
             '<rect width="100%" height="100%" fill="white"/>',
             f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="15">{a.title}</text>']
    for i, (log, params) in enumerate(zip(a.logs, a.params)):
        rows = read_log(log)
        parts += panel(log.rsplit("/", 1)[-1], rows, read_params(params), 70 + i * (pw + gap), 60, pw, ph)
    parts.append("</svg>")
    with open(a.out, "w") as f:
        f.write("\n".join(parts) + "\n")


if __name__ == "__main__":
    main()

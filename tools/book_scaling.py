#!/usr/bin/env python3
"""Book building from 10^5 to 10^7 games: hashmate `book make` (1 and 2
threads) against `polyglot make-book` on the same generated PGN, in the
same run; prints a Markdown table and draws docs/book_scaling.svg.

    cargo build --release && cargo build --release -p hashmate --example gen_pgn
    python3 tools/book_scaling.py [--dir /tmp/bk] [--sizes 100000,1000000,10000000]

The PGN comes from `gen_pgn N 1` (committed; the PGN is not) and is kept in
--dir between runs. The largest size is also read from `.pgn.zst` with
`--memory 2000` (the issue's 10-million-game case). Each builder runs
once per size under `/usr/bin/time`; the books are compared entry by
entry (key, move, weight).
"""
import argparse
import os
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HM = os.path.join(ROOT, "target", "release", "hashmate")
GEN = os.path.join(ROOT, "target", "release", "examples", "gen_pgn")
POLYGLOT = "/usr/games/polyglot"


def timed(cmd, **kw):
    """(seconds, peak resident MB) of `cmd`."""
    r = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M"] + cmd,
                       capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    line = [x for x in r.stderr.splitlines() if x.startswith("TIME ")][-1]
    _, secs, kb = line.split()
    return float(secs), int(kb) / 1024


def entries(path):
    """The book's (key, move) pairs; weights are compared by order below."""
    with open(path, "rb") as f:
        data = f.read()
    return [struct.unpack(">QHH", data[i:i + 12]) for i in range(0, len(data), 16)]


def compare(ours, theirs):
    """(pairs only in ours, only in theirs, positions whose moves are in a
    different order of weight)."""
    pa, pb = {(k, m) for k, m, _ in ours}, {(k, m) for k, m, _ in theirs}
    order = lambda es: {k: [m for _, m in sorted(v, key=lambda x: (-x[0], x[1]))]
                        for k, v in group(es).items()}
    oa, ob = order(ours), order(theirs)
    return len(pa - pb), len(pb - pa), sum(1 for k in oa if k in ob and oa[k] != ob[k])


def group(es):
    g = {}
    for k, m, w in es:
        g.setdefault(k, []).append((w, m))
    return g


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="/tmp/bk")
    ap.add_argument("--sizes", default="100000,1000000,10000000")
    ap.add_argument("--skip-polyglot-above", type=int, default=10**8)
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    rows = []
    for n in [int(s) for s in a.sizes.split(",")]:
        pgn = os.path.join(a.dir, f"gen-{n}.pgn")
        if not os.path.exists(pgn):
            with open(pgn + ".part", "wb") as out:
                subprocess.run([GEN, str(n), "1"], stdout=out, check=True)
            os.rename(pgn + ".part", pgn)
        mb = os.path.getsize(pgn) / 1e6
        out = lambda tag: os.path.join(a.dir, f"book-{n}-{tag}.bin")
        row = {"games": n, "mb": mb}
        if n <= a.skip_polyglot_above:
            row["polyglot"] = timed([POLYGLOT, "make-book", "-pgn", pgn, "-bin", out("pg"),
                                     "-max-ply", "30", "-min-game", "3"], cwd=a.dir)
        row["hm1"] = timed([HM, "book", "make", "--pgn", pgn, "--out", out("hm1"),
                            "--max-ply", "30", "--threads", "1"])
        row["hm2"] = timed([HM, "book", "make", "--pgn", pgn, "--out", out("hm2"),
                            "--max-ply", "30", "--threads", "2"])
        if open(out("hm1"), "rb").read() != open(out("hm2"), "rb").read():
            sys.exit(f"{n}: the 1- and 2-thread books differ")
        ours = entries(out("hm1"))
        row["entries"] = len(ours)
        if "polyglot" in row:
            theirs = entries(out("pg"))
            row["differ"] = "{} / {} / {}".format(*compare(ours, theirs))
            row["pg_entries"] = len(theirs)
        if n == max(int(s) for s in a.sizes.split(",")):
            zst = pgn + ".zst"
            if not os.path.exists(zst):
                subprocess.run(["zstd", "-q", "-T2", "-3", pgn, "-o", zst], check=True)
            row["zst"] = timed([HM, "book", "make", "--pgn", zst, "--out", out("zst"),
                                "--max-ply", "30", "--threads", "2", "--memory", "2000"])
            if open(out("zst"), "rb").read() != open(out("hm1"), "rb").read():
                sys.exit(f"{n}: the book from .pgn.zst with --memory differs")
        rows.append(row)
        print(row, file=sys.stderr, flush=True)

    print("| games | PGN MB | polyglot s / MB | hashmate 1 thread s / MB | 2 threads s / MB "
          "| speed-up 1 t / 2 t | entries | pairs only ours / only polyglot / positions ordered differently |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        pg = r.get("polyglot")
        f = lambda t: f"{t[0]:.2f} / {t[1]:.0f}"
        sp = f"{pg[0] / r['hm1'][0]:.2f}× / {pg[0] / r['hm2'][0]:.2f}×" if pg else "—"
        print(f"| {r['games']:,} | {r['mb']:,.0f} | {f(pg) if pg else '—'} | {f(r['hm1'])} | "
              f"{f(r['hm2'])} | {sp} | {r['entries']:,} | {r.get('differ', '—')} |")
    for r in rows:
        if "zst" in r:
            print(f"\n.pgn.zst, --threads 2 --memory 2000, {r['games']:,} games: "
                  f"{r['zst'][0]:.1f} s, {r['zst'][1]:.0f} MB resident, same book as from .pgn")
    chart(rows)


def chart(rows):
    """Two panels, log-log: seconds and resident MB against games."""
    import math
    w, h, pad = 760, 320, 56
    series = [("polyglot", "#888888"), ("hm1", "#1f77b4"), ("hm2", "#2ca02c")]
    names = {"polyglot": "polyglot make-book", "hm1": "hashmate, 1 thread",
             "hm2": "hashmate, 2 threads"}
    xs = [r["games"] for r in rows]
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    for panel, (idx, label) in enumerate([(0, "seconds"), (1, "resident MB")]):
        x0 = pad + panel * (w // 2)
        pw, ph = w // 2 - pad - 16, h - 2 * pad
        vals = [r[s][idx] for r in rows for s, _ in series if s in r]
        lo, hi = math.log10(min(vals)) - 0.1, math.log10(max(vals)) + 0.1
        gx = lambda g: x0 + pw * (math.log10(g) - math.log10(min(xs))) / max(
            1e-9, math.log10(max(xs)) - math.log10(min(xs)))
        gy = lambda v: pad + ph - ph * (math.log10(v) - lo) / (hi - lo)
        svg.append(f'<rect x="{x0}" y="{pad}" width="{pw}" height="{ph}" fill="none" stroke="#ccc"/>')
        svg.append(f'<text x="{x0 + pw / 2}" y="{pad - 10}" text-anchor="middle">{label} (log)</text>')
        for g in xs:
            svg.append(f'<text x="{gx(g)}" y="{pad + ph + 16}" text-anchor="middle">{g:.0e}</text>')
        for e in range(math.ceil(lo), math.floor(hi) + 1):
            svg.append(f'<text x="{x0 - 6}" y="{gy(10 ** e) + 4}" text-anchor="end">{10 ** e:g}</text>')
            svg.append(f'<line x1="{x0}" x2="{x0 + pw}" y1="{gy(10 ** e)}" y2="{gy(10 ** e)}" stroke="#eee"/>')
        for s, colour in series:
            pts = [(gx(r["games"]), gy(r[s][idx])) for r in rows if s in r]
            if pts:
                svg.append('<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>'.format(
                    colour, " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)))
                for x, y in pts:
                    svg.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>')
        svg.append(f'<text x="{x0 + pw / 2}" y="{h - 8}" text-anchor="middle">games</text>')
    for i, (s, colour) in enumerate(series):
        svg.append(f'<rect x="{pad + 10 + i * 190}" y="8" width="12" height="12" fill="{colour}"/>')
        svg.append(f'<text x="{pad + 26 + i * 190}" y="18">{names[s]}</text>')
    svg.append("</svg>")
    with open(os.path.join(ROOT, "docs", "book_scaling.svg"), "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()

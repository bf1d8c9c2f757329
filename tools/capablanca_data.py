#!/usr/bin/env python3
"""Make crates/hashmate-capablanca/tests/data/perft.epd: perft counts of
10x8 positions computed by Fairy-Stockfish (`go perft N`).

Positions: the Capablanca and Gothic start positions (depths 1-5), and
positions of seeded random games (printed by the crate's `playouts`
example) chosen so that every kind appears: castling rights held, an
en-passant square set, a pawn one step from promotion, the side to move
in check (depths 1-3).

Usage: tools/capablanca_data.py > crates/hashmate-capablanca/tests/data/perft.epd
Needs: fairy-stockfish (Debian package), a release build of the example:
  cargo build --release -p hashmate-capablanca --example playouts
"""
import subprocess
import sys

FS = "/usr/games/fairy-stockfish"
PLAYOUTS = "target/release/examples/playouts"
START = {
    "capablanca": "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    "gothic": "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1",
}


def kinds(fen):
    board, side, castling, ep = fen.split()[:4]
    ranks = board.split("/")
    out = set()
    if castling != "-":
        out.add("castling")
    if ep != "-":
        out.add("ep")
    if ("P" in ranks[1] and side == "w") or ("p" in ranks[6] and side == "b"):
        out.add("promotion")
    return out


def main():
    fs = subprocess.Popen([FS], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def perft(variant, fen, depth):
        fs.stdin.write(f"setoption name UCI_Variant value {variant}\nposition fen {fen}\ngo perft {depth}\n")
        fs.stdin.flush()
        while True:
            line = fs.stdout.readline()
            if line.startswith("Nodes searched"):
                return int(line.split(":")[1])

    print("# Perft counts by Fairy-Stockfish 11.1 (Debian), see tools/capablanca_data.py.")
    for variant, fen in START.items():
        counts = " ".join(f";D{d} {perft(variant, fen, d)}" for d in range(1, 6))
        print(f"{variant} {fen} {counts}")
    for variant in START:
        fens = subprocess.run([PLAYOUTS, variant, "6000", "2026"], capture_output=True, text=True, check=True).stdout.split("\n")
        want = {"castling": 12, "ep": 12, "promotion": 12, "other": 24}
        for fen in filter(None, fens):
            k = kinds(fen) or {"other"}
            hit = [x for x in k if want.get(x, 0) > 0]
            if not hit:
                continue
            for x in hit:
                want[x] -= 1
            counts = " ".join(f";D{d} {perft(variant, fen, d)}" for d in range(1, 4))
            print(f"{variant} {fen} {counts}")
        if any(want.values()):
            sys.exit(f"{variant}: not enough positions of some kind: {want}")
    fs.stdin.write("quit\n")
    fs.stdin.flush()


main()

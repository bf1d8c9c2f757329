#!/usr/bin/env python3
"""Check hashmate-capablanca's notation and game ends against pyffish.

Reads the cases `tests/variants.rs` writes, a line a position of a game:
the game's number, the variant, the FEN, our legal moves (UCI, sorted,
space-separated), how the game stands (`-` while play goes on, else
`checkmate`, `Stalemate`, `InsufficientMaterial` or `FiftyMoves`), our
insufficient-material verdict, then the move played (UCI), our SAN of it
and our FEN after it (`-` at a game's end).

A call into pyffish costs about 3 ms, so the SAN of a whole game is
asked in one call, and the legal moves and the FEN after the move at
every fifth position and at the last. Prints each disagreement on
standard error, a summary on standard output; exits 1 on any
disagreement.
"""
import itertools
import sys

import pyffish as sf


def same_but_ep(ours, theirs):
    """FENs that differ only where we name the en-passant square after a
    double step that no pawn can take: the PGN standard's rule (and
    hashmate's on 8×8); Fairy-Stockfish, as Stockfish, names it only when
    the capture is legal."""
    a, b = ours.split(" "), theirs.split(" ")
    return len(a) == len(b) == 6 and a[3] != "-" and b[3] == "-" \
        and a[:3] + a[4:] == b[:3] + b[4:]


def check_game(rows, bad, counts):
    variant, start = rows[0][1], rows[0][2]
    played = [r[6] for r in rows if r[6] != "-"]
    ours = [r[7] for r in rows if r[6] != "-"]
    theirs = sf.get_san_moves(variant, start, played)
    for k, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            bad.append(f"{variant} {rows[k][2]}: {played[k]}: our SAN {a}, pyffish {b}")
    counts["moves"] += len(played)
    counts["checks"] += sum(s.endswith(("+", "#")) for s in ours)
    counts["castles"] += sum(s.startswith("O-O") for s in ours)
    counts["promotions"] += sum("=" in s for s in ours)
    counts["captures"] += sum("x" in s for s in ours)
    for k, (_, _, fen, legal, end, insufficient, mv, _, after) in enumerate(rows):
        counts["positions"] += 1
        where = f"{variant} {fen}"
        last = k == len(rows) - 1
        if k % 5 == 0 or last:
            theirs = sorted(sf.legal_moves(variant, fen, []))
            if theirs != sorted(legal.split()):
                mine = set(legal.split())
                bad.append(f"{where}: legal moves: ours only {sorted(mine - set(theirs))}, "
                           f"pyffish only {sorted(set(theirs) - mine)}")
            if mv != "-":
                their_fen = sf.get_fen(variant, fen, [mv])
                if their_fen != after and not same_but_ep(after, their_fen):
                    bad.append(f"{where}: after {mv}: ours {after}, pyffish {their_fen}")
        if sum(c.isalpha() for c in fen.split()[0]) <= 6 or end != "-":
            w, b = sf.has_insufficient_material(variant, fen, [])
            if (insufficient == "true") != (w and b):
                bad.append(f"{where}: insufficient material: ours {insufficient}, "
                           f"pyffish white {w} black {b}")
        if end == "-":
            continue
        counts[end] += 1
        if end in ("checkmate", "Stalemate"):
            result = sf.game_result(variant, fen, [])
            want = -sf.VALUE_MATE if end == "checkmate" else sf.VALUE_DRAW
            if legal or result != want:
                bad.append(f"{where}: we say {end}, pyffish's result is {result}")
        elif end == "FiftyMoves":
            ended, result = sf.is_optional_game_end(variant, fen, [])
            if not ended or result != sf.VALUE_DRAW:
                bad.append(f"{where}: we say the fifty-move rule, pyffish {ended, result}")
        if not last:
            bad.append(f"{where}: the game went on after {end}")


def main(path):
    bad = []
    counts = dict(positions=0, moves=0, checkmate=0, Stalemate=0,
                  InsufficientMaterial=0, FiftyMoves=0, checks=0,
                  castles=0, promotions=0, captures=0)
    rows = (line.rstrip("\n").split("\t") for line in open(path, encoding="utf-8"))
    for _, game in itertools.groupby(rows, key=lambda r: r[0]):
        check_game(list(game), bad, counts)
    for line in bad[:40]:
        print(line, file=sys.stderr)
    summary = " ".join(f"{k} {v}" for k, v in counts.items())
    print(summary)
    print(f"disagreements {len(bad)}")
    if bad:
        print(f"{summary}; {len(bad)} disagreements", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

#!/usr/bin/env python3
"""Check hashmate-capablanca's notation and game ends against pyffish.

Reads the cases `tests/variants.rs` writes, a line a position of a game:
the game's number, the variant, the FEN, our legal moves (UCI, sorted,
space-separated), how the game stands (`-` while play goes on, else
`checkmate`, `Stalemate`, `InsufficientMaterial` or `FiftyMoves`), our
insufficient-material verdict for each side (`true/false`: White can
never mate, Black can), then the move played (UCI), our SAN of it,
our FEN after it, and that FEN with the en-passant square only where the
capture is legal (`EnPassantMode::Legal`, Fairy-Stockfish's rule; `-` at
a game's end).

A call into pyffish costs about 3 ms, so the SAN of a whole game is
asked in one call, and the legal moves and the FEN after the move at
every fifth position, at the last, and wherever an en-passant capture
follows. Prints each disagreement on
standard error, a summary on standard output; exits 1 on any
disagreement.
"""
import itertools
import re
import sys

import pyffish as sf


def count_material(fen, verdict, counts):
    """Count the endings the per-side material check is for: the sides'
    verdicts differ; two or more bishops, all on one colour, and nothing
    else but the kings; a lone knight against a queen."""
    men = {}  # piece letter -> squares' colours (0 dark, 1 light)
    for r, rank in enumerate(reversed(fen.split()[0].split("/"))):
        f = 0
        for token in re.findall(r"\d+|\D", rank):
            if token.isdigit():
                f += int(token)
                continue
            men.setdefault(token, []).append((f + r) % 2)
            f += 1
    counts["insufficient_one_side"] += verdict[0] != verdict[1]
    others = set(men) - {"K", "k"}
    colours = set(men.get("B", []) + men.get("b", []))
    if others and others <= {"B", "b"} and len(colours) == 1 \
            and len(men.get("B", []) + men.get("b", [])) >= 2:
        counts["bishops_one_colour"] += 1
    for knight, queen in (("N", "q"), ("n", "Q")):
        own = {m for m in others if m.isupper() == knight.isupper()}
        if own == {knight} and len(men[knight]) == 1 and queen in men:
            counts["knight_against_queen"] += 1


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
    for k, (_, _, fen, legal, end, insufficient, mv, _, _, after) in enumerate(rows):
        counts["positions"] += 1
        where = f"{variant} {fen}"
        last = k == len(rows) - 1
        ep_after = mv != "-" and after.split(" ")[3] != "-"
        if k % 5 == 0 or last or ep_after:
            theirs = sorted(sf.legal_moves(variant, fen, []))
            if theirs != sorted(legal.split()):
                mine = set(legal.split())
                bad.append(f"{where}: legal moves: ours only {sorted(mine - set(theirs))}, "
                           f"pyffish only {sorted(set(theirs) - mine)}")
            if mv != "-":
                their_fen = sf.get_fen(variant, fen, [mv])
                counts["en_passant"] += after.split(" ")[3] != "-"
                if their_fen != after:
                    bad.append(f"{where}: after {mv}: ours {after}, pyffish {their_fen}")
        if sum(c.isalpha() for c in fen.split()[0]) <= 6 or end != "-":
            theirs = sf.has_insufficient_material(variant, fen, [])
            ours = tuple(v == "true" for v in insufficient.split("/"))
            if ours != theirs:
                bad.append(f"{where}: insufficient material (white, black): ours {ours}, "
                           f"pyffish {theirs}")
            count_material(fen, theirs, counts)
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
                  castles=0, promotions=0, captures=0, en_passant=0,
                  insufficient_one_side=0, bishops_one_colour=0,
                  knight_against_queen=0)
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

#!/usr/bin/env python3
"""Endgame start positions from the engine's own games, for matches that
test endgame play (tablebases on against off, say).

Reads `hashmate datagen` records (32 bytes each, crates/hashmate-data/
src/record.rs), keeps positions with a chosen number of pieces (kings
included), no castling rights, a search score within --max-score of
level, the side to move not in check, and at most one position per game;
writes one FEN a line, in file order, up to --count.

    python3 tools/endgame_openings.py --data set10.bin --pieces 6-8 \
        --max-score 150 --count 200 > endgames.epd
"""
import argparse
import struct
import sys

import chess

ROLES = "pnbrqk"


def decode(rec):
    occ, = struct.unpack_from("<Q", rec, 0)
    nibbles = rec[8:24]
    board = chess.Board(None)
    i = 0
    for sq in range(64):
        if occ >> sq & 1:
            nib = nibbles[i // 2] >> (4 * (i % 2)) & 15
            i += 1
            color, role = nib >> 3, nib & 7
            if role > 5:
                return None
            board.set_piece_at(sq, chess.Piece(role + 1, color == 0))
    flags = rec[24]
    board.turn = not (flags & 1)
    if flags & 0b11110:
        return None  # castling rights: not an endgame start
    ep = rec[25]
    board.ep_square = ep if ep < 64 else None
    board.halfmove_clock = 0
    score, = struct.unpack_from("<h", rec, 28)
    return board, score, bool(flags & 0x80)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--pieces", default="6-8")
    ap.add_argument("--max-score", type=int, default=150)
    ap.add_argument("--count", type=int, default=200)
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.pieces.split("-"))
    out, taken_game, game = 0, -1, 0
    with open(args.data, "rb") as f:
        while out < args.count:
            rec = f.read(32)
            if len(rec) < 32:
                break
            d = decode(rec)
            if d is None:
                continue
            board, score, first = d
            game += first
            n = len(board.piece_map())
            if game == taken_game or not lo <= n <= hi or abs(score) > args.max_score:
                continue
            if not board.is_valid() or board.is_check() or board.is_game_over():
                continue
            print(board.fen())
            taken_game = game
            out += 1
    return 0 if out == args.count else 1


if __name__ == "__main__":
    sys.exit(main())

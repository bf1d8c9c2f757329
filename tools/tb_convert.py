#!/usr/bin/env python3
"""Does the engine convert won tablebase endgames against a defender?

Draws random positions of the given materials that the Syzygy tables call
won for the side to move within the fifty-move rule (WDL 2), lets hashmate
play that side and the defender (Stockfish, with the same tables) the
other, at a clock, and checks every move of hashmate's against the
tables: a move after which the position is no longer won is a spoiled
win, whatever happens later.

    python3 tools/tb_convert.py --engine target/release/hashmate \
        --defender /usr/games/stockfish --tables ../shared/data/syzygy \
        --positions 100 --tc 5+0.05

With --engine-without-tables hashmate finds its own way (the defender
and the checks still use the tables): does the search convert a won
ending, a lone king against a rook for one, by itself?

Prints one line per game and a summary: converted, spoiled, other (a
draw by repetition or the fifty-move rule with the win still in hand
at every move, or a game cut at 400 plies). A game ends as an arbiter
would end it: by the rules, or by a draw the defender may claim.
"""
import argparse
import random
import sys
import time

import chess
import chess.engine
import chess.syzygy


def random_won(tb, material, rng):
    """A random legal position of `material` (e.g. KRPvKR), won for the side
    to move by the tables."""
    white, black = material.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        ok = True
        for sym, sq in zip(list(white) + [c.lower() for c in black], squares):
            if sym in "Pp" and chess.square_rank(sq) in (0, 7):
                ok = False
                break
            board.set_piece_at(sq, chess.Piece.from_symbol(sym))
        if not ok:
            continue
        board.turn = rng.random() < 0.5
        if not board.is_valid() or board.is_game_over():
            continue
        if tb.probe_wdl(board) == 2 and abs(tb.probe_dtz(board)) >= 5:
            return board


def over(board, side):
    """Whether an arbiter ends the game here: by the rules, or by a draw
    the defender may claim. The winning side never claims a draw, so a
    repetition it merely could bring about on its move does not end the
    game (match.py's `is_game_over(claim_draw=True)` would end it)."""
    if board.turn != side:
        return board.is_game_over(claim_draw=True)
    return board.is_game_over() or board.is_repetition(3) or board.can_claim_fifty_moves()


def play(board, engine, defender, tc, tb, side):
    base, inc = (float(x) for x in tc.split("+"))
    clock = {chess.WHITE: base, chess.BLACK: base}
    spoiled = None
    while not over(board, side) and board.ply() < 400:
        mover = engine if board.turn == side else defender
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        t = time.time()
        move = mover.play(board, limit).move
        clock[board.turn] += inc - (time.time() - t)
        if clock[board.turn] < 0:
            return ("time", spoiled)
        board.push(move)
        if board.turn != side and spoiled is None and not board.is_game_over():
            # After hashmate's move: the defender must be lost.
            if len(board.piece_map()) <= 5 and tb.probe_wdl(board) != -2:
                spoiled = f"{board.peek().uci()} at ply {board.ply()}"
    if board.is_checkmate():
        return (board.result(), spoiled)
    return ("1/2-1/2" if over(board, side) else "*", spoiled)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--defender", default="/usr/games/stockfish")
    ap.add_argument("--tables", required=True)
    ap.add_argument("--materials", default="KRPvKR,KQRvKR,KRBvKR,KRNvKR,KRRvKR")
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", type=int, default=0,
                    help="play only the position of this number (1-based), --repeat times")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--engine-without-tables", action="store_true",
                    help="hashmate plays without SyzygyPath (the defender and the checks keep the tables)")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    tb = chess.syzygy.open_tablebase(args.tables)
    materials = args.materials.split(",")
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    if not args.engine_without_tables:
        engine.configure({"SyzygyPath": args.tables})
    defender = chess.engine.SimpleEngine.popen_uci(args.defender)
    defender.configure({"SyzygyPath": args.tables})
    converted = spoiled_n = other = 0
    try:
        starts = [random_won(tb, materials[i % len(materials)], rng) for i in range(args.positions)]
        games = [(i, starts[i]) for i in range(args.positions)]
        if args.only:
            games = [(args.only - 1, starts[args.only - 1])] * args.repeat
        for i, start in games:
            board = start.copy()
            fen = board.fen()
            side = board.turn
            engine.protocol.send_line("ucinewgame")
            result, spoiled = play(board, engine, defender, args.tc, tb, side)
            won = result == ("1-0" if side == chess.WHITE else "0-1")
            if spoiled:
                spoiled_n += 1
            elif won:
                converted += 1
            else:
                other += 1
            print(f"{i + 1:3} {fen:45} {result:7} {board.ply():3} plies"
                  f"{'  SPOILED ' + spoiled if spoiled else ''}", flush=True)
            if not won:
                outcome = board.outcome(claim_draw=True)
                why = outcome.termination.name if outcome else result
                print(f"    {why}: {' '.join(m.uci() for m in board.move_stack)}", flush=True)
    finally:
        engine.quit()
        defender.quit()
    print(f"converted {converted}, spoiled {spoiled_n}, other {other} of {len(games)}")
    return 0 if spoiled_n == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

"""Oracle for tests/python_chess.rs: how games end, by python-chess.

Plays games to the end python-chess's `outcome()` sees (checkmate,
stalemate, insufficient material, the seventy-five-move rule, fivefold
repetition) and prints one line per game, tab-separated: the start FEN
(Shredder-FEN for Chess960), the moves in UCI (castling as king takes rook
in Chess960), and for every position from the start to the end a
four-character word:
  1. `outcome()`'s termination: M checkmate, S stalemate, I insufficient
     material, 7 seventy-five moves, 5 fivefold repetition, - none;
  2. `has_insufficient_material(WHITE)`: 1 or 0;
  3. `has_insufficient_material(BLACK)`: 1 or 0;
  4. `is_repetition(3)`: 1 or 0.
Random moves mostly; some games prefer moving a piece back where it came
from, so that repetitions happen, and some prefer quiet moves, so that the
move rules do. The crafted games come first, then COUNT random ones.
Usage: pychess_games.py COUNT SEED
"""
import random
import sys

import chess

TERMINATION = {
    chess.Termination.CHECKMATE: "M",
    chess.Termination.STALEMATE: "S",
    chess.Termination.INSUFFICIENT_MATERIAL: "I",
    chess.Termination.SEVENTYFIVE_MOVES: "7",
    chess.Termination.FIVEFOLD_REPETITION: "5",
}

# Games where a Polyglot key and FIDE's rule part: after ...d5 the e5 pawn
# may not take en passant (its capture would open the fifth rank to the
# rook), so the position is the same as the later ones without the right;
# and the same with a capture that is legal, where it is not.
CRAFTED = [
    ("7k/3p4/8/K3P2r/8/8/8/8 b - - 0 1", "d7d5" + " a5a4 h8g8 a4a5 g8h8" * 4),
    ("7k/3p4/8/4P3/8/8/8/K7 b - - 0 1", "d7d5" + " a1a2 h8g8 a2a1 g8h8" * 4),
    # Stalemate, and a stalemate where neither side could mate anyway.
    ("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "f1f7"),
    ("7k/5K2/8/8/4B3/8/8/8 w - - 0 1", "e4g6"),
]


def word(board):
    outcome = board.outcome()
    return "".join(
        (
            TERMINATION[outcome.termination] if outcome else "-",
            "1" if board.has_insufficient_material(chess.WHITE) else "0",
            "1" if board.has_insufficient_material(chess.BLACK) else "0",
            "1" if board.is_repetition(3) else "0",
        )
    )


def emit(board, chess960):
    """Print the game `board` holds, replaying it from its start."""
    moves = list(board.move_stack)
    replay = board.root()
    start = replay.shredder_fen() if chess960 else replay.fen()
    words, ucis = [word(replay)], []
    for mv in moves:
        ucis.append(replay.uci(mv, chess960=chess960))
        replay.push(mv)
        words.append(word(replay))
    ucis = " ".join(ucis)
    print(f"{start}\t{ucis}\t{' '.join(words)}")


def pick(board, rng, style):
    moves = list(board.legal_moves)
    if style == "back" and len(board.move_stack) >= 2 and rng.random() < 0.6:
        last = board.move_stack[-2]
        back = [m for m in moves if m.from_square == last.to_square and m.to_square == last.from_square]
        if back:
            return back[0]
    if style == "quiet" and rng.random() < 0.8:
        quiet = [
            m
            for m in moves
            if not board.is_capture(m) and board.piece_type_at(m.from_square) != chess.PAWN
        ]
        if quiet:
            return rng.choice(quiet)
    return rng.choice(moves)


def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for fen, ucis in CRAFTED:
        board = chess.Board(fen)
        for uci in ucis.split():
            board.push_uci(uci)
        emit(board, False)
    for i in range(count):
        chess960 = rng.random() < 0.25
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        board.chess960 = chess960
        style = ("random", "back", "quiet")[i % 3]
        while board.outcome() is None:
            board.push(pick(board, rng, style))
        emit(board, chess960)


main()

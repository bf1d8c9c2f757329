"""Oracle for tests/python_chess.rs: random legal playouts in python-chess.

Prints one line per position, tab-separated: FEN, Polyglot key (hex),
perft(1..3), "mate"/"stalemate"/"-", the legal moves that give check
(UCI, castling as king takes rook), then the FEN with each of
python-chess's en-passant modes, "fen", "xfen" and "legal" (Shredder-FEN
for Chess960), all as computed by python-chess.
Four crafted positions come first, then COUNT from the playouts.
Usage: pychess_oracle.py COUNT SEED
"""
import random
import sys

import chess
import chess.polyglot


def perft(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for mv in list(board.legal_moves):
        board.push(mv)
        n += perft(board, depth - 1)
        board.pop()
    return n


# En passant where the modes part: a capture a pawn could make but may
# not (the capturing pawn pinned along its rank or file, or its king in a
# check the capture does not answer), and one that answers the check the
# double step gave.
CRAFTED = [
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
    "4r2k/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "7k/8/8/3pP3/8/6n1/8/7K w - d6 0 2",
    "7k/8/8/2Pp4/4K3/8/8/8 w - d6 0 2",
]


def emit(board, chess960):
    write = board.shredder_fen if chess960 else board.fen
    fen = write(en_passant="fen")
    key = chess.polyglot.zobrist_hash(board)
    counts = " ".join(str(perft(board, d)) for d in (1, 2, 3))
    status = "mate" if board.is_checkmate() else "stalemate" if board.is_stalemate() else "-"
    checks = " ".join(
        board.uci(m, chess960=True) for m in board.legal_moves if board.gives_check(m)
    )
    modes = "\t".join(write(en_passant=m) for m in ("fen", "xfen", "legal"))
    print(f"{fen}\t{key:016x}\t{counts}\t{status}\t{checks}\t{modes}")


def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for fen in CRAFTED:
        emit(chess.Board(fen), False)
    done = 0
    while done < count:
        chess960 = rng.random() < 0.25
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for _ in range(rng.randrange(0, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            # Positions in check, with en passant or promotions are the
            # interesting ones; print some along the way.
            if (
                rng.random() < 0.08
                or board.ep_square is not None
                or board.is_check()
                or board.is_game_over()
            ):
                emit(board, chess960)
                done += 1
                if done >= count:
                    break


main()

"""Oracle for tests/python_chess.rs: random legal playouts in python-chess.

Prints one line per position, tab-separated: FEN, Polyglot key (hex),
perft(1..3), "mate"/"stalemate"/"-", and the legal moves that give check
(UCI, castling as king takes rook), all as computed by python-chess.
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


def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
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
                fen = board.shredder_fen() if chess960 else board.fen(en_passant="fen")
                key = chess.polyglot.zobrist_hash(board)
                counts = " ".join(str(perft(board, d)) for d in (1, 2, 3))
                status = "mate" if board.is_checkmate() else "stalemate" if board.is_stalemate() else "-"
                checks = " ".join(
                    board.uci(m, chess960=True) for m in board.legal_moves if board.gives_check(m)
                )
                print(f"{fen}\t{key:016x}\t{counts}\t{status}\t{checks}")
                done += 1
                if done >= count:
                    break


main()

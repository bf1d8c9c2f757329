"""Oracle for tests/epd.rs: python-chess writes and reads EPD.

  epd_oracle.py write N SEED  N random positions with operations (bm, am,
                              id, c0, ce, pv, hmvc, fmvn) as python-chess
                              writes them, each line followed by a line of
                              what it means (see `describe`)
  epd_oracle.py read FILE     each line of FILE as python-chess reads it,
                              described the same way
"""
import random
import sys

import chess


def describe(board, ops):
    """Tab-separated: the four FEN fields, bm, am, pv (UCI, space-separated),
    id, c0, ce, hmvc, fmvn."""
    def moves(key):
        v = ops.get(key)
        if v is None:
            return "-"
        if isinstance(v, chess.Move):
            v = [v]
        uci = [m.uci() for m in v]
        # bm and am are sets (written in SAN order); pv is a sequence.
        return " ".join(uci if key == "pv" else sorted(uci))
    fen4 = " ".join(board.fen().split(" ")[:4])
    return "\t".join([fen4, moves("bm"), moves("am"), moves("pv"),
                      str(ops.get("id", "-")), str(ops.get("c0", "-")),
                      str(ops.get("ce", "-")), str(ops.get("hmvc", "-")), str(ops.get("fmvn", "-"))])


def write(n, seed):
    rng = random.Random(seed)
    for i in range(n):
        board = chess.Board()
        for _ in range(rng.randrange(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        board = chess.Board(board.fen())  # forget the move stack
        legal = list(board.legal_moves)
        ops = {"id": f"rand.{i:03}", "c0": f"position {i}; random"}
        if legal:
            ops["bm"] = rng.sample(legal, min(len(legal), rng.randrange(1, 3)))
            ops["am"] = [rng.choice(legal)]
            pv, b = [], board.copy()
            for _ in range(rng.randrange(1, 6)):
                ml = list(b.legal_moves)
                if not ml:
                    break
                m = rng.choice(ml)
                pv.append(m)
                b.push(m)
            ops["pv"] = pv
        ops["ce"] = rng.randrange(-500, 500)
        if rng.random() < 0.5:
            ops["hmvc"] = board.halfmove_clock
            ops["fmvn"] = board.fullmove_number
        line = board.epd(**ops)
        print(line)
        print(describe(board, ops))


def read(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            board, ops = chess.Board.from_epd(line)
            print(describe(board, ops))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(int(sys.argv[2]), int(sys.argv[3]))
    else:
        read(sys.argv[2])

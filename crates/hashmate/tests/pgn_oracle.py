"""Oracle for tests/pgn.rs: python-chess reads and writes PGN.

  pgn_oracle.py read FILE   print each game as `describe` does: headers,
                            main-line moves (UCI), and per main-line ply its
                            comment, NAGs and the first moves of its
                            variations
  pgn_oracle.py write N SEED
                            print N random annotated games as python-chess
                            exports them, then a line "%%", then each game
                            as `read` prints it
"""
import io
import random
import sys

import chess
import chess.pgn


def describe(game):
    """One game as lines: `G`; `H name<TAB>value` per header in order;
    `C comment` (before the first move); per main-line ply
    `P uci<TAB>comment<TAB>nags<TAB>alternatives` (space-separated)."""
    out = ["G"]
    for k, v in game.headers.items():
        out.append(f"H {k}\t{v}")
    out.append("C " + " ".join(game.comment.split()))
    node = game
    while node.variations:
        main = node.variations[0]
        out.append("P " + "\t".join([
            main.move.uci(),
            " ".join(main.comment.split()),
            " ".join(str(n) for n in sorted(main.nags)),
            " ".join(v.move.uci() for v in node.variations[1:]),
        ]))
        node = main
    return "\n".join(out)


def read(path):
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            if game.errors:
                print("E " + "; ".join(str(e) for e in game.errors))
                continue
            print(describe(game))


def write(n, seed):
    rng = random.Random(seed)
    games = []
    for g in range(n):
        game = chess.pgn.Game()
        # python-chess writes tag values unescaped: no quote or backslash here.
        game.headers["Event"] = f"Oracle {g}"
        game.headers["White"] = "Ana"
        game.headers["Black"] = "Bo"
        game.headers["Annotator"] = "python-chess"
        if rng.random() < 0.3:
            board = chess.Board()
            for _ in range(rng.randrange(1, 8)):
                board.push(rng.choice(list(board.legal_moves)))
            game.setup(board)
        if rng.random() < 0.5:
            game.comment = "opening words"
        node = game
        for ply in range(rng.randrange(1, 120)):
            board = node.board()
            moves = list(board.legal_moves)
            if not moves:
                break
            mv = rng.choice(moves)
            nxt = node.add_main_variation(mv)
            if rng.random() < 0.15:
                nxt.comment = f"note {ply} with several words to wrap around the line"
            if rng.random() < 0.1:
                nxt.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 10, 14]))
            if rng.random() < 0.08 and len(moves) > 1:
                alt = rng.choice([m for m in moves if m != mv])
                var = node.add_variation(alt)
                b2 = var.board()
                follow = list(b2.legal_moves)
                if follow:
                    var.add_main_variation(rng.choice(follow))
            node = nxt
        b = node.board()
        game.headers["Result"] = b.result(claim_draw=False) if b.is_game_over() else "*"
        games.append(game)
    for game in games:
        print(game.accept(chess.pgn.StringExporter(headers=True, variations=True, comments=True)))
        print()
    print("%%")
    for game in games:
        print(describe(game))


if __name__ == "__main__":
    if sys.argv[1] == "read":
        read(sys.argv[2])
    else:
        write(int(sys.argv[2]), int(sys.argv[3]))

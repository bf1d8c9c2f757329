"""Driver of tests/match.rs: the engine plays clocked games against an
xboard engine (Debian's phalanx) as a GUI would run them, and every fault
is counted: a crash, a move after the flag fell, an illegal or unreadable
move. Prints one line per game and ends with
`faults: crashes C, time losses T, illegal moves I`.

Usage: clock_games.py ENGINE OPPONENT GAMES BASE_SECONDS INCREMENT_SECONDS
"""
import sys
import time

import chess
import chess.engine

# Pipe latency tolerated beyond the clock before a move counts as late.
MARGIN = 0.25


def main():
    ours_cmd, theirs_cmd = sys.argv[1], sys.argv[2]
    games, base, inc = int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
    faults = {"crashes": 0, "time losses": 0, "illegal moves": 0}
    for g in range(games):
        ours = chess.engine.SimpleEngine.popen_uci([ours_cmd])
        theirs = chess.engine.SimpleEngine.popen_xboard([theirs_cmd])
        we_are_white = g % 2 == 0
        board = chess.Board()
        clock = {chess.WHITE: base, chess.BLACK: base}
        result, why = "*", ""
        try:
            while not board.is_game_over(claim_draw=True):
                mover = board.turn
                ours_to_move = (mover == chess.WHITE) == we_are_white
                engine = ours if ours_to_move else theirs
                limit = chess.engine.Limit(
                    white_clock=clock[chess.WHITE],
                    black_clock=clock[chess.BLACK],
                    white_inc=inc,
                    black_inc=inc,
                )
                start = time.monotonic()
                try:
                    played = engine.play(board, limit)
                except chess.engine.EngineTerminatedError:
                    if ours_to_move:
                        faults["crashes"] += 1
                    result, why = ("0-1" if mover == chess.WHITE else "1-0"), "crash"
                    break
                except chess.engine.EngineError:
                    if ours_to_move:
                        faults["illegal moves"] += 1
                    result, why = ("0-1" if mover == chess.WHITE else "1-0"), "bad move"
                    break
                clock[mover] -= time.monotonic() - start
                if clock[mover] < -MARGIN:
                    if ours_to_move:
                        faults["time losses"] += 1
                    result, why = ("0-1" if mover == chess.WHITE else "1-0"), "time"
                    break
                clock[mover] += inc
                if played.move is None or played.move not in board.legal_moves:
                    if ours_to_move:
                        faults["illegal moves"] += 1
                    result, why = ("0-1" if mover == chess.WHITE else "1-0"), "illegal"
                    break
                board.push(played.move)
            else:
                result, why = board.result(claim_draw=True), "rules"
        finally:
            for e in (ours, theirs):
                try:
                    e.quit()
                except Exception:
                    pass
        side = "white" if we_are_white else "black"
        print(f"game {g + 1}: hashmate {side}, {result} ({why}) after {board.ply()} plies", flush=True)
    print(
        f"faults: crashes {faults['crashes']}, time losses {faults['time losses']}, "
        f"illegal moves {faults['illegal moves']}"
    )


main()

"""python-chess's chess.syzygy as the oracle of the probe tests.

Usage: syzygy_oracle.py DIR < fens. Prints, per FEN, "W D" (WDL and DTZ
of the side to move) or "missing" when python-chess has no answer.
"""
import sys

import chess
import chess.syzygy

with chess.syzygy.open_tablebase(sys.argv[1]) as tb:
    for line in sys.stdin:
        board = chess.Board(line.strip())
        try:
            print(tb.probe_wdl(board), tb.probe_dtz(board))
        except KeyError:
            print("missing")

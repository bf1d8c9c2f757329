"""Drive the hashmate binary the way a GUI does, with python-chess.

Usage: uci_client.py PATH_TO_HASHMATE. Exits non-zero (AssertionError) on
any failure; prints one line per check passed.
"""
import sys
import time

import chess
import chess.engine

EXE = sys.argv[1]


def legal_pv(board, pv):
    b = board.copy()
    for mv in pv:
        assert mv in b.legal_moves, f"illegal pv move {mv} in {b.fen()}"
        b.push(mv)


def check_info(board, info):
    assert info.get("depth", 0) >= 1, info
    assert "score" in info and "pv" in info and info["pv"], info
    assert info.get("nodes", 0) > 0 and "time" in info, info
    legal_pv(board, info["pv"])


with chess.engine.SimpleEngine.popen_uci([EXE]) as eng:
    assert eng.id["name"].startswith("hashmate"), eng.id
    for opt in ["Hash", "Threads", "Clear Hash", "MultiPV", "Ponder", "Move Overhead", "UCI_Chess960", "OwnBook", "BookFile"]:
        assert opt in eng.options, opt
    eng.configure({"Hash": 32, "Threads": 2, "Move Overhead": 20})
    print("ok options")

    # Analysis of ordinary positions: well-formed info with legal PVs.
    for fen in [chess.STARTING_FEN,
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"]:
        board = chess.Board(fen)
        info = eng.analyse(board, chess.engine.Limit(depth=8))
        check_info(board, info)
    print("ok analyse")

    # MultiPV: distinct first moves, each line legal.
    board = chess.Board()
    infos = eng.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    assert len(infos) == 3, infos
    firsts = {i["pv"][0] for i in infos}
    assert len(firsts) == 3, firsts
    for i in infos:
        check_info(board, i)
    print("ok multipv")

    # Mates in 1, 2, 3 (verified with Stockfish 15.1), for both colours.
    for fen, n, first in [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "d1d8"),
        ("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", 2, "d5d8"),
        ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2, "g2g1"),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, "f6a6"),
    ]:
        board = chess.Board(fen)
        info = eng.analyse(board, chess.engine.Limit(depth=10))
        assert info["score"].relative == chess.engine.Mate(n), (fen, info["score"])
        assert info["pv"][0] == chess.Move.from_uci(first), (fen, info["pv"])
        result = eng.play(board, chess.engine.Limit(mate=n))
        assert result.move == chess.Move.from_uci(first), (fen, result.move)
    print("ok mates")

    # A free queen is taken.
    board = chess.Board("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")
    assert eng.play(board, chess.engine.Limit(depth=6)).move == chess.Move.from_uci("d2d5")
    print("ok tactic")

    # Repetition: after Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1, ...Ng8 repeats the
    # start position a third time: scored as an exact draw.
    board = chess.Board()
    for u in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]:
        board.push_uci(u)
    info = eng.analyse(board, chess.engine.Limit(depth=6), root_moves=[chess.Move.from_uci("f6g8")])
    assert info["score"].relative == chess.engine.Cp(0), info["score"]
    print("ok repetition")

    # Stalemate at the root: no move, and the engine stays usable.
    board = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    result = eng.play(board, chess.engine.Limit(depth=3))
    assert not result.move, result
    assert eng.play(chess.Board(), chess.engine.Limit(depth=2)).move in chess.Board().legal_moves
    print("ok stalemate")

    # Infinite analysis is stopped on request, promptly.
    board = chess.Board()
    with eng.analysis(board) as analysis:
        time.sleep(0.5)
        t = time.time()
        analysis.stop()
        best = analysis.wait()
        assert time.time() - t < 1.0
    assert best.move in board.legal_moves, best
    print("ok infinite+stop")

    # Ponder, then a new search: the engine must answer normally.
    board = chess.Board()
    r = eng.play(board, chess.engine.Limit(time=0.1), ponder=True)
    assert r.move in board.legal_moves
    r = eng.play(board, chess.engine.Limit(time=0.1))
    assert r.move in board.legal_moves
    print("ok ponder")

    # A game under a clock, 1 s + 0.01 s for both sides, against itself:
    # every move legal, no flag fall (python-chess checks the clock).
    board = chess.Board()
    clocks = {chess.WHITE: 1.0, chess.BLACK: 1.0}
    while not board.is_game_over(claim_draw=True) and board.ply() < 120:
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=0.01, black_inc=0.01)
        t = time.time()
        r = eng.play(board, limit)
        used = time.time() - t
        clocks[board.turn] += 0.01 - used
        assert clocks[board.turn] > 0, f"lost on time at ply {board.ply()}"
        assert r.move in board.legal_moves
        board.push(r.move)
    print("ok clock game", board.ply(), "plies, clocks", {k: round(v, 2) for k, v in clocks.items()})

    # Classical time control with movestogo: 1.5 s for 10 moves, then
    # tight: every move must come back within the clock it was given.
    board = chess.Board()
    clock = 1.5
    for mtg in range(10, 0, -1):
        t = time.time()
        r = eng.play(board, chess.engine.Limit(white_clock=clock, black_clock=clock, remaining_moves=mtg))
        used = time.time() - t
        assert used < clock, f"movestogo {mtg}: used {used:.3f} s of {clock:.3f} s"
        clock -= used
        board.push(r.move)
    assert clock > 0, clock
    print("ok movestogo, left", round(clock, 2))

    # Clear Hash is a button; a Hash size change and a new game work.
    eng.configure({"Clear Hash": None, "Hash": 8})
    eng.protocol.send_line("ucinewgame")
    assert eng.play(chess.Board(), chess.engine.Limit(depth=4)).move
    print("ok clear hash")

    # Win/draw/loss estimates, as a GUI reads them.
    eng.configure({"UCI_ShowWDL": True})
    board = chess.Board("3qk3/pppppppp/8/8/8/8/PPPPPPPP/4K3 b - - 0 1")
    info = eng.analyse(board, chess.engine.Limit(depth=6))
    wdl = info["wdl"].relative
    assert wdl.total() == 1000 and wdl.wins > 500, wdl
    eng.configure({"UCI_ShowWDL": False})
    print("ok wdl", wdl)

    # Syzygy tables (the vendored 3-4 piece set): tbhits reported, and a
    # won pawn ending played by the tables.
    import os
    tables = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "hashmate-syzygy", "tests", "data", "syzygy")
    eng.configure({"SyzygyPath": tables})
    board = chess.Board("8/8/8/4k3/8/8/1P6/K1R5 w - - 0 1")
    info = eng.analyse(board, chess.engine.Limit(depth=8))
    assert info.get("tbhits", 0) > 0, info
    print("ok syzygy, tbhits", info["tbhits"])

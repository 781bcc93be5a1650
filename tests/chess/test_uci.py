"""`parlour uci`: in process, and as a real engine under python-chess's UCI client."""

from __future__ import annotations

import io
import sys
import threading
import time
from pathlib import Path

import chess
import chess.engine

from parlour.chess.uci import UciEngine

ROOT = Path(__file__).resolve().parents[2]


def session(*lines: str) -> list[str]:
    out = io.StringIO()
    UciEngine(out).run(lines)
    return out.getvalue().splitlines()


def bestmove(lines: list[str]) -> str:
    found = [line.split()[1] for line in lines if line.startswith("bestmove")]
    assert len(found) == 1, lines
    return found[0]


def test_uci_handshake_lists_the_options() -> None:
    lines = session("uci", "isready")
    assert lines[0] == "id name Parlour"
    assert lines[1].startswith("id author ")
    for name in ("Level", "Hash", "Move Overhead"):
        assert any(line.startswith(f"option name {name} type spin") for line in lines)
    assert lines[-2:] == ["uciok", "readyok"]


def test_go_depth_answers_with_info_lines_and_a_legal_move() -> None:
    lines = session("position startpos moves e2e4 e7e5", "go depth 3")
    infos = [line for line in lines if line.startswith("info depth")]
    assert [int(line.split()[2]) for line in infos] == [1, 2, 3]
    for word in ("seldepth", "score cp", "nodes", "nps", "time", "pv"):
        assert word in infos[-1]
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(bestmove(lines)) in board.legal_moves


def test_a_mate_is_reported_as_mate() -> None:
    lines = session("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "go depth 3")
    assert "score mate 1" in lines[-2]
    assert bestmove(lines) == "a1a8"


def test_position_with_moves_from_a_fen_and_a_promotion() -> None:
    lines = session("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8q h7g6", "go depth 2")
    board = chess.Board("8/P6k/8/8/8/8/8/K7 w - - 0 1")
    board.push_uci("a7a8q")
    board.push_uci("h7g6")
    assert chess.Move.from_uci(bestmove(lines)) in board.legal_moves


def test_malformed_commands_get_an_explanation_and_change_nothing() -> None:
    lines = session(
        "position startpos moves e2e5",  # illegal: refused
        "position fen not-a-fen",
        "position",
        "go depth many",
        "setoption name Level value eleven",
        "setoption name Level value 11",
        "setoption name Colour value 3",
        "setoption",
        "frobnicate",
        "position startpos moves e2e4",
        "go wibble depth 1",
        "isready",
    )
    strings = [line for line in lines if line.startswith("info string")]
    assert len(strings) == 10, strings
    assert any("pawn" in line or "e2e5" in line for line in strings)
    assert lines[-1] == "readyok" or "readyok" in lines
    # The go that did run searched the position after e2e4: a Black move.
    move = bestmove(lines)
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(move) in board.legal_moves


def test_a_position_with_an_illegal_move_is_refused_by_name_and_not_searched() -> None:
    lines = session("position startpos moves e2e4 e7e5 e1e3", "go depth 1")
    assert lines[0] == ("info string position refused: move 3, e1e3, a king cannot move like that")
    assert lines[1].startswith("info string go: no position to search")
    assert bestmove(lines) == "0000"
    # The next good position is searched again.
    lines = session("position startpos moves e2e4 e7e5 e1e3", "position startpos", "go depth 1")
    assert chess.Move.from_uci(bestmove(lines)) in chess.Board().legal_moves


def test_go_with_impossible_numbers_is_refused_without_a_search() -> None:
    lines = session("go depth -1", "go nodes 0", "go movetime -5", "go winc -1 depth 2", "isready")
    assert lines == [
        "info string go: depth must be 1 or more, not -1; command ignored",
        "info string go: nodes must be 1 or more, not 0; command ignored",
        "info string go: movetime must be 1 or more, not -5; command ignored",
        "info string go: winc must be 0 or more, not -1; command ignored",
        "readyok",
    ]


def test_go_infinite_waits_for_stop_and_isready_answers_meanwhile() -> None:
    out = io.StringIO()
    engine = UciEngine(out)
    engine.handle(["position", "startpos"])
    engine.handle(["go", "infinite"])
    time.sleep(0.5)
    engine.handle(["isready"])
    assert "readyok" in out.getvalue()
    assert "bestmove" not in out.getvalue()
    engine.handle(["stop"])
    assert out.getvalue().count("bestmove") == 1
    assert chess.Move.from_uci(out.getvalue().split("bestmove ")[1].split()[0]) in (
        chess.Board().legal_moves
    )


def test_clock_moves_respect_the_time() -> None:
    out = io.StringIO()
    engine = UciEngine(out)
    started = time.perf_counter()
    engine.run(["position startpos", "go wtime 3000 btime 3000 winc 0 binc 0"])
    assert time.perf_counter() - started < 1.5  # at most 0.3 of the clock, less overhead
    assert "bestmove" in out.getvalue()


def test_a_weak_level_over_uci_still_plays_legally() -> None:
    lines = session("setoption name Level value 1", "position startpos", "go movetime 300")
    assert chess.Move.from_uci(bestmove(lines)) in chess.Board().legal_moves


def test_the_weak_levels_over_uci_take_a_mate_in_one() -> None:
    fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    for level in (1, 2, 3):
        lines = session(f"setoption name Level value {level}", f"position fen {fen}", "go")
        board = chess.Board(fen)
        board.push_uci(bestmove(lines))
        assert board.is_checkmate(), (level, lines)


def test_a_short_game_through_python_chess() -> None:
    engine = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "parlour", "uci"], cwd=str(ROOT)
    )
    try:
        assert engine.id["name"] == "Parlour"
        engine.configure({"Hash": 16, "Move Overhead": 20})
        board = chess.Board()
        for ply in range(6):
            limit = chess.engine.Limit(time=0.2) if ply % 2 == 0 else chess.engine.Limit(depth=3)
            result = engine.play(board, limit)
            assert result.move is not None and result.move in board.legal_moves
            board.push(result.move)

        # go infinite, then stop: the analysis ends with a best move.
        with engine.analysis(board) as analysis:
            deadline = time.time() + 10
            for info in analysis:
                if info.get("depth", 0) >= 2 or time.time() > deadline:
                    break
            analysis.stop()
            best = analysis.wait()
        assert best.move is not None and best.move in board.legal_moves

        # A malformed command: the engine explains and goes on playing.
        engine.protocol.send_line("go depth lots")
        engine.ping()
        result = engine.play(board, chess.engine.Limit(time=0.1))
        assert result.move is not None and result.move in board.legal_moves
    finally:
        engine.quit()


def test_stop_from_another_thread_ends_a_long_search_quickly() -> None:
    out = io.StringIO()
    engine = UciEngine(out)
    engine.handle(["position", "startpos"])
    engine.handle(["go", "movetime", "60000"])
    time.sleep(0.3)
    started = time.perf_counter()
    stopper = threading.Thread(target=engine.handle, args=(["stop"],))
    stopper.start()
    stopper.join(5)
    assert time.perf_counter() - started < 3
    assert "bestmove" in out.getvalue()


def test_multipv_lines_through_python_chess_are_distinct_and_ordered() -> None:
    engine = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "parlour", "uci"], cwd=str(ROOT)
    )
    try:
        assert engine.options["MultiPV"].max == 256
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=4)
        assert [info["multipv"] for info in infos] == [1, 2, 3, 4]
        firsts = [info["pv"][0] for info in infos]
        assert len(set(firsts)) == 4 and all(move in board.legal_moves for move in firsts)
        scores = [info["score"].white().score(mate_score=100_000) for info in infos]
        assert scores == sorted(scores, reverse=True)
        for info in infos:  # every line is legal from the position
            probe = board.copy()
            for move in info["pv"]:
                assert move in probe.legal_moves
                probe.push(move)
        # searchmoves: only the moves asked for are searched.
        only = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
        result = engine.play(board, chess.engine.Limit(depth=3), root_moves=only)
        assert result.move in only
        lines = engine.analyse(board, chess.engine.Limit(depth=3), multipv=5, root_moves=only)
        assert sorted(info["pv"][0].uci() for info in lines) == ["a2a3", "h2h3"]
    finally:
        engine.quit()


def test_searchmoves_with_a_move_not_legal_is_refused_by_name() -> None:
    lines = session("position startpos", "go depth 2 searchmoves e2e5", "isready")
    assert "info string go: searchmoves e2e5 is not a legal move here; command ignored" in lines
    assert not any(line.startswith("bestmove") for line in lines)
    lines = session("setoption name MultiPV value 0", "setoption name MultiPV value 300")
    assert lines == ["info string MultiPV runs from 1 to 256"] * 2
    lines = session("setoption name Hash value 0", "setoption name Hash value 4096")
    assert lines == ["info string Hash runs from 1 to 1024 (MB)"] * 2


def test_ponderhit_turns_pondering_into_a_timed_search_that_answers_alone() -> None:
    out = io.StringIO()
    engine = UciEngine(out)
    engine.handle(["setoption", "name", "Ponder", "value", "true"])
    engine.handle(["position", "startpos", "moves", "e2e4"])
    engine.handle(["go", "ponder", "wtime", "3000", "btime", "3000", "movestogo", "10"])
    time.sleep(0.3)
    assert "bestmove" not in out.getvalue()  # pondering waits for the opponent
    began = time.perf_counter()
    engine.handle(["ponderhit"])
    assert engine.thread is not None
    engine.thread.join(timeout=10)  # no "stop": the search ends on its own clock
    assert time.perf_counter() - began < 5
    assert out.getvalue().count("bestmove") == 1
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(out.getvalue().split("bestmove ")[1].split()[0]) in (
        board.legal_moves
    )
    assert "info string" not in out.getvalue()


def test_ponder_option_and_a_stray_ponderhit() -> None:
    lines = session("uci", "setoption name Ponder value maybe", "ponderhit")
    assert "option name Ponder type check default false" in lines
    assert "info string option 'ponder' is true or false, not 'maybe'" in lines
    assert "info string ponderhit: no search is pondering" in lines

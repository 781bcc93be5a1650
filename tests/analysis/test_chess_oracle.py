"""The chess coach against Stockfish: the blunders Stockfish finds in a set of games
are found, and nothing the coach calls a blunder is a move Stockfish calls fine.

Stockfish (Debian's ``stockfish``, driven by python-chess; test-only) analyses every
position of each game to a fixed depth; each move's drop in the mover's winning
chances is computed from its scores by lichess's published curve, the same
definition the coach uses, so the two judge on one scale with two engines. The
games are well-known miniatures, each decided by a blunder (their moves are
historical record).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import chess
import chess.engine
import pytest

from parlour.analysis.coach import analyse_game
from parlour.core.judgement import mate_as_centipawns, winning_chances
from parlour.core.registry import get_game

STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")
#: Stockfish's depth: far beyond the coach's, so that it is the reference.
DEPTH = 14
#: The coach's budget a position: about what it searches in its default second on
#: this machine, counted in nodes so that the machine's load does not change it.
NODES = 90_000
#: Of Stockfish's blunders, the share the coach must call at least a mistake (it
#: searches 5 to 7 plies where Stockfish searches 14: a trap deeper than that, such
#: as the Blackburne Shilling gambit's 4. Nxe5, is beyond it). Measured: see
#: docs/benchmarks.md.
FOUND = 0.8

GAMES = {
    "Opera game, Paris 1858": "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 "
    "Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ "
    "Nxb8 Rd8#",
    "Legal's mate": "e4 e5 Nf3 d6 Bc4 Bg4 Nc3 g6 Nxe5 Bxd1 Bxf7+ Ke7 Nd5#",
    "Scholar's mate": "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#",
    "Fool's mate": "f3 e5 g4 Qh4#",
    "Reti - Tartakower, Vienna 1910": "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Nf6 Qd3 e5 dxe5 Qa5+ Bd2 "
    "Qxe5 O-O-O Nxe4 Qd8+ Kxd8 Bg5+ Kc7 Bd8#",
    "Blackburne Shilling trap": "e4 e5 Nf3 Nc6 Bc4 Nd4 Nxe5 Qg5 Nxf7 Qxg2 Rf1 Qxe4+ Be2 Nf3#",
    "Englund gambit trap": "d4 e5 dxe5 Nc6 Nf3 Qe7 Bf4 Qb4+ Bd2 Qxb2 Bc3 Bb4 Qd2 Bxc3 Qxc3 Qc1#",
}


def stockfish_chances(engine: chess.engine.SimpleEngine, board: chess.Board) -> float:
    """The side to move's winning chances by Stockfish's score, on lichess's curve."""
    if board.is_checkmate():
        return -1.0
    # a new game for each position (its own key): Stockfish's hash carried from the
    # positions before would make its verdict depend on what it saw first
    limit = chess.engine.Limit(depth=DEPTH)
    score = engine.analyse(board, limit, game=board.fen())["score"].pov(board.turn)
    mate = score.mate()
    if mate is not None:
        return winning_chances(mate_as_centipawns(mate)) if mate else -1.0
    centipawns = score.score()
    assert centipawns is not None
    return winning_chances(centipawns)


def prefixes(line: str) -> list[tuple[str, ...]]:
    """Each position of a game as the moves that lead to it from the start."""
    moves = tuple(line.split())
    return [moves[:i] for i in range(len(moves) + 1)]


def stockfish_judge(
    engine: chess.engine.SimpleEngine, positions: list[tuple[str, ...]]
) -> dict[tuple[str, ...], float]:
    """The side to move's winning chances by Stockfish in each position (given as
    the moves from the start: Stockfish sees the game's history, as in a game)."""
    found = {}
    for moves in positions:
        board = chess.Board()
        for san in moves:
            board.push_san(san)
        found[moves] = stockfish_chances(engine, board)
    return found


def stockfish_drops(chances: dict[tuple[str, ...], float], line: str) -> list[tuple[float, float]]:
    """Each move's mover's winning chances before it and their drop, by Stockfish."""
    found = [chances[moves] for moves in prefixes(line)]
    return [(found[i], max(0.0, found[i] + found[i + 1])) for i in range(len(found) - 1)]


@pytest.fixture(scope="module")
def stockfish() -> Iterator[list[chess.engine.SimpleEngine]]:
    """Two Stockfish processes, one a core: each position is a new game to it, its
    hash cleared, so that which of the two judges a position changes nothing."""
    if not Path(STOCKFISH).exists():
        pytest.fail(f"Stockfish not found at {STOCKFISH}: apt-get install stockfish")
    engines = [chess.engine.SimpleEngine.popen_uci(STOCKFISH) for _ in range(2)]
    for engine in engines:
        engine.configure({"Threads": 1, "Hash": 64})
    yield engines
    for engine in engines:
        engine.quit()


Judged = list[tuple[str, str, float, float, float]]


def coach_losses(line: str) -> list[tuple[str, float]]:
    """Each move of a game and the coach's drop in the mover's winning chances."""
    state = get_game("chess").new_state()
    state.play_line(line)
    return [(move.move, move.loss) for move in analyse_game(state, nodes=NODES).moves]


@pytest.fixture(scope="module")
def judged(stockfish: list[chess.engine.SimpleEngine]) -> Judged:
    """(game, move, the mover's chances before it by Stockfish, Stockfish's drop,
    the coach's drop) for every move of every game."""
    found = []
    # The games share their openings: each position (the same moves from the start)
    # is judged once, by whichever Stockfish it falls to; the two work from threads,
    # and the coach's analyses of the games, independent of each other, in two
    # processes beside them (the machine's two cores: this is one of the slowest
    # fixtures of the test run)
    positions = list(dict.fromkeys(moves for line in GAMES.values() for moves in prefixes(line)))
    shares = [positions[i :: len(stockfish)] for i in range(len(stockfish))]
    with ThreadPoolExecutor(len(stockfish)) as threads, ProcessPoolExecutor(2) as processes:
        judging = [
            threads.submit(stockfish_judge, engine, share)
            for engine, share in zip(stockfish, shares, strict=True)
        ]
        reviews = dict(zip(GAMES, processes.map(coach_losses, GAMES.values()), strict=True))
        chances = {moves: chance for job in judging for moves, chance in job.result().items()}
    for name, line in GAMES.items():
        review, drops = reviews[name], stockfish_drops(chances, line)
        assert [move for move, _ in review] == line.split()
        for (move, loss), (before, drop) in zip(review, drops, strict=True):
            found.append((name, move, before, drop, loss))
    return found


def test_every_blunder_stockfish_marks_is_found(judged: Judged) -> None:
    blunders = [(game, move, coach) for game, move, _, drop, coach in judged if drop >= 0.3]
    assert len(blunders) >= 5  # the games are decided by blunders
    missed = [(game, move, round(coach, 2)) for game, move, coach in blunders if coach < 0.2]
    print(f"Stockfish's blunders: {len(blunders)}; missed by the coach: {missed}")
    assert len(missed) <= (1 - FOUND) * len(blunders), f"missed: {missed} of {blunders}"


#: A position whose mover has less than this by Stockfish is lost already: a move
#: in it gives little away by Stockfish's count even where a shallower engine sees
#: the loss only then (the Opera game's 14... Qe6, from -0.77).
LOST = -0.5


def test_no_blunder_of_the_coach_is_fine_to_stockfish(judged: Judged) -> None:
    called = [row for row in judged if row[4] >= 0.3]
    wrong = [
        (game, move, round(before, 2), round(drop, 2))
        for game, move, before, drop, _ in called
        if drop < 0.1 and before > LOST
    ]
    print(f"the coach's blunders: {len(called)}; fine to Stockfish in an open game: {wrong}")
    assert len(called) >= 5
    assert not wrong, f"the coach's blunders that Stockfish calls fine: {wrong}"

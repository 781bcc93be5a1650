"""The checkers search in C (parlour.checkers.native) against the Python one it
mirrors: the same moves in the same order, the same evaluation, and searches that
visit the same nodes and return the same move, score, depth, node count and line.

The set-up builds it (``parlour compile``, as tests/core/test_compiled.py expects):
where it is missing these tests fail, they are not skipped.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from functools import partial
from types import ModuleType

import numpy as np
import pytest

from parlour import compiled
from parlour.ai.search import FULL_DEPTH, MATE_BOUND, AlphaBeta, SearchResult
from parlour.checkers.board import SQUARE_BIT
from parlour.checkers.endgame import EndgameDatabase, shipped_database
from parlour.checkers.engine import (
    WEIGHTS,
    CheckersEngine,
    Evaluation,
    NativeSearch,
    SearchBoard,
    Step,
    Weights,
    _RootOnly,
    evaluate,
)
from parlour.checkers.rules import CHECKERS, CheckersState


def load_native() -> ModuleType:
    """The extension, or a failure saying why it is missing."""
    try:
        from parlour.checkers import native
    except ImportError as error:
        pytest.fail(
            f"parlour.checkers.native cannot be imported ({error}; the build is "
            f"{compiled.state()}): `parlour compile` builds it"
        )
    return native


def database() -> EndgameDatabase:
    db = shipped_database()
    assert db is not None, "the shipped endgame database is missing"
    return db


# -- positions --------------------------------------------------------------------------


def playout_states(rng: random.Random, games: int) -> list[CheckersState]:
    """Every position of ``games`` games of random moves (men, kings, multi-jumps)."""
    found = []
    for _ in range(games):
        state = CHECKERS.new_state()
        while not state.is_over():
            found.append(state.copy())
            state.push(rng.choice(state.legal_moves()))
    return found


def set_up(rng: random.Random) -> CheckersState:
    """A position set up at random: any squares, kings anywhere, men off their
    crowning rows."""
    squares = rng.sample(range(1, 33), rng.randint(2, 20))
    half = rng.randint(1, len(squares) - 1)
    lists = {"W": squares[:half][:12], "B": squares[half:][:12]}
    parts = []
    for colour, own in lists.items():
        crown = range(1, 5) if colour == "W" else range(29, 33)
        entries = [f"K{n}" if n in crown or rng.random() < 0.4 else str(n) for n in sorted(own)]
        parts.append(colour + ",".join(entries))
    return CHECKERS.state_from_text(f"{rng.choice('BW')}:{parts[0]}:{parts[1]}")


def kings_shuffling(rng: random.Random) -> CheckersState:
    """A kings' ending some plies into its game, so that the game's own positions
    can come round again in the search (a repetition scores as a draw)."""
    state = CHECKERS.state_from_text(rng.choice(["B:WK32,K28,K20:BK1,K5,K9", "W:WK30,K26:BK3,K7"]))
    for _ in range(rng.randint(2, 10)):
        if state.is_over():
            break
        state.push(rng.choice(state.legal_moves()))
    return state


# -- move generation ---------------------------------------------------------------------


def test_the_moves_are_the_search_boards_in_the_same_order() -> None:
    native = load_native()
    rng = random.Random(5)
    states = playout_states(rng, 150) + [set_up(rng) for _ in range(3000)]
    multi_jumps = kings = crowning = 0
    for state in states:
        board = SearchBoard.from_state(state)
        expected = board.moves()
        assert native.moves(state.position, state.turn) == expected, state.to_text()
        multi_jumps += any(step[2].bit_count() > 1 for step in expected)
        kings += bool(state.position[1] | state.position[3])
        crowning += expected != sorted(expected, key=lambda step: (step[0], step[1]))
    assert len(states) > 10_000
    assert multi_jumps > 300 and kings > 3000 and crowning > 1000


# -- the evaluation ----------------------------------------------------------------------


def random_weights(rng: random.Random) -> Weights:
    """Weights of either sign (a negative trade-down tests Python's floor division)."""

    def some(low: int, high: int) -> int:
        return rng.randint(low, high)

    return Weights(
        man=some(50, 200),
        king=some(50, 300),
        advance=tuple(some(-30, 30) for _ in range(8)),
        centre=some(-20, 20),
        near_centre=some(-20, 20),
        edge=some(-20, 20),
        king_centre=tuple(some(-20, 30) for _ in range(4)),
        trade_down=some(-40, 40),
        guard=some(-80, 80),
        mobility=some(-15, 15),
        runaway=some(-40, 40),
        runaway_row=some(-15, 15),
        refuge=tuple(some(-40, 40) for _ in range(3)),
        refuge_edge=some(-20, 20),
        refuge_single_corner=some(-20, 20),
        hunt=some(-10, 10),
    )


def test_the_evaluation_is_the_pythons_for_any_weights() -> None:
    native = load_native()
    rng = random.Random(8)
    states = playout_states(rng, 40) + [set_up(rng) for _ in range(1500)]
    evaluations = [evaluate] + [Evaluation(random_weights(rng)) for _ in range(6)]
    assert evaluations[0].weights == WEIGHTS
    for evaluation in evaluations:
        searcher = native.Searcher(evaluation.native_tables(), 1 << 10)
        for state in states:
            position = state.position
            assert searcher.evaluate(position) == evaluation(position), (
                evaluation.weights,
                state.to_text(),
            )


def test_the_endgame_codes_are_the_databases() -> None:
    native = load_native()
    db = database()
    searcher = native.Searcher(evaluate.native_tables(), 1 << 10, db.codes, db.pieces)
    assert searcher.endgame_pieces == db.pieces
    rng = random.Random(9)
    checked = 0
    for _ in range(3000):
        state = set_up(rng)
        for side in (state.turn, state.turn.other):
            code = searcher.endgame_code(state.position, side)
            assert code == db.code(state.position, side), state.to_text()
            checked += code is not None
    assert checked > 500


# -- the search --------------------------------------------------------------------------


Told = list[tuple[object, ...]]


def python_and_native(
    board: Callable[[], SearchBoard],
    endgames: EndgameDatabase | None,
    *,
    max_depth: int = FULL_DEPTH,
    node_limit: int | None = None,
    late_move_reductions: bool = False,
    table_size: int = 1 << 16,
) -> tuple[SearchResult[Step], SearchResult[Step], Told, Told]:
    """The same search by AlphaBeta and by the C search, each on a fresh board,
    with what each told ``on_iteration``."""
    told_python: Told = []
    told_c: Told = []
    python: AlphaBeta[Step] = AlphaBeta(
        max_depth=max_depth,
        node_limit=node_limit,
        late_move_reductions=late_move_reductions,
        table_size=table_size,
        on_iteration=lambda found: told_python.append(summary(found)),
    )
    in_c = NativeSearch(
        evaluate,
        endgames,
        max_depth=max_depth,
        node_limit=node_limit,
        late_move_reductions=late_move_reductions,
        table_size=table_size,
        on_iteration=lambda found: told_c.append(summary(found)),
    )
    return python.search(board()), in_c.search(board()), told_python, told_c


def summary(result: SearchResult[Step]) -> tuple[object, ...]:
    return (
        result.best_move,
        result.score,
        result.depth,
        result.nodes,
        result.principal_variation,
    )


def pieces(state: CheckersState) -> int:
    return sum(mask.bit_count() for mask in state.position)


def search_positions() -> list[tuple[CheckersState, bool]]:
    """About fifty positions: openings and middlegames from random games, set-ups
    with kings, kings' endings with their game's history, few-piece endings the
    database holds (each with whether to use the database)."""
    rng = random.Random(12)
    found: list[tuple[CheckersState, bool]] = []
    games = playout_states(rng, 6)
    for state in rng.sample(games, 16):
        found.append((state, True))
    for _ in range(12):
        state = set_up(rng)
        if not state.is_over():
            found.append((state, rng.random() < 0.5))
    for _ in range(10):
        state = kings_shuffling(rng)
        if not state.is_over():
            found.append((state, False))
    for text in (
        "B:WK32:BK1,K2",
        "W:WK14,K15:BK32",
        "B:W18,K27:BK1,K14",
        "W:W25,K10:B8,K19",
        "B:WK20,K21:B11,K3",
        "W:W30,K2:BK16,K17",
        "B:W29,K24,K31:BK1,K6",
        "W:WK5,K1:BK10,K20,K30",
        "B:W22,23:B10,11,K3",
        "W:W21,K6:B12,K28,K19",
    ):
        found.append((CHECKERS.state_from_text(text), True))
    return found


@pytest.mark.parametrize("reductions", [False, True])
def test_fixed_depth_searches_are_the_pythons_node_for_node(reductions: bool) -> None:
    load_native()
    db = database()
    positions = search_positions()
    assert len(positions) >= 45
    mates = draws = 0
    for index, (state, use_db) in enumerate(positions):
        endgames = db if use_db else None
        depth = 1 + index % 7
        python, in_c, told_python, told_c = python_and_native(
            partial(SearchBoard.from_state, state, endgames),
            endgames,
            max_depth=depth,
            late_move_reductions=reductions,
            table_size=1 << 16,
        )
        assert summary(in_c) == summary(python), (state.to_text(), depth)
        assert told_c == told_python
        mates += abs(python.score) >= MATE_BOUND
        draws += python.score == 0
    assert mates >= 5 and draws >= 1


def test_deeper_searches_and_the_table_kept_between_them() -> None:
    """One searcher through a game, as the engine keeps its own: the table carried
    from move to move, and cleared when over its size."""
    load_native()
    db = database()
    rng = random.Random(3)
    for table_size in (1 << 18, 2000):
        python: AlphaBeta[Step] = AlphaBeta(max_depth=9, table_size=table_size)
        in_c = NativeSearch(evaluate, db, max_depth=9, table_size=table_size)
        state = CHECKERS.new_state()
        for ply in range(14):
            python.late_move_reductions = in_c.late_move_reductions = ply % 2 == 1
            expected = python.search(SearchBoard.from_state(state, db))
            found = in_c.search(SearchBoard.from_state(state, db))
            assert summary(found) == summary(expected), (table_size, ply)
            assert in_c._searcher.table_count == len(python.table)
            state.push(rng.choice(state.legal_moves()))
        python.clear()
        in_c.clear()
        assert in_c._searcher.table_count == 0


def test_node_limited_searches_stop_at_the_same_node() -> None:
    """A node limit ends a search at the same node in both: the same unfinished
    iteration, and where it found a better first move, the same move."""
    load_native()
    db = database()
    rng = random.Random(4)
    # middlegames, where no quick win ends the search before the limit
    states = rng.sample([s for s in playout_states(rng, 3) if pieces(s) >= 14], 10)
    for limit in (3000, 20_000):
        for state in states:
            python, in_c, told_python, told_c = python_and_native(
                partial(SearchBoard.from_state, state, db),
                db,
                node_limit=limit,
                late_move_reductions=True,
                table_size=1 << 16,
            )
            assert summary(in_c) == summary(python), state.to_text()
            assert told_c == told_python
            assert limit <= python.nodes < limit + 1024


def test_the_root_restriction_is_the_root_only_boards() -> None:
    load_native()
    db = database()
    rng = random.Random(6)
    checked = 0
    for state in rng.sample(playout_states(rng, 4), 12):
        moves = SearchBoard.from_state(state).moves()
        allowed = set(rng.sample(moves, max(1, len(moves) // 3)))

        def board(state: CheckersState = state, allowed: set[Step] = allowed) -> SearchBoard:
            root = _RootOnly.from_state(state, db)
            root.allowed = allowed
            return root

        python, in_c, _, _ = python_and_native(board, db, max_depth=6, table_size=1 << 16)
        assert summary(in_c) == summary(python)
        assert in_c.best_move in allowed
        checked += 1
    # none of the allowed moves legal: no move, as in the Python
    state = CHECKERS.new_state()
    root = _RootOnly.from_state(state, db)
    root.allowed = {(0, 1, 0)}
    in_c = NativeSearch(evaluate, db, max_depth=4).search(root)
    assert in_c.best_move is None and in_c.depth == 0
    assert checked == 12


def test_the_engine_gives_the_same_answers_with_either_search() -> None:
    load_native()
    fast, python = CheckersEngine(), CheckersEngine(native=False)
    assert fast.native and isinstance(fast.searcher, NativeSearch)
    assert isinstance(python.searcher, AlphaBeta)
    state = CHECKERS.new_state()
    for text in ["11-15", "23-19", "8-11", "22-17"]:
        state.push(state.parse_move(text))
    assert summary(fast.search(state, depth=8)) == summary(python.search(state, depth=8))
    # analysis with a node limit (the other lines share it) and of given moves
    for engine_lines in (1, 3):
        a = fast.analyse(state, nodes=20_000, lines=engine_lines)
        b = python.analyse(state, nodes=20_000, lines=engine_lines)
        assert a is not None and b is not None
        assert (a.lines, a.depth, a.nodes) == (b.lines, b.depth, b.nodes)
    move = state.legal_moves()[-1]
    a = fast.analyse(state, nodes=20_000, moves=[move])
    b = python.analyse(state, nodes=20_000, moves=[move])
    assert a is not None and b is not None
    assert (a.lines, a.depth, a.nodes) == (b.lines, b.depth, b.nodes)
    assert a.lines[0].move == move


# -- limits ------------------------------------------------------------------------------


def test_the_time_limit_is_kept() -> None:
    """A search ends by the clock: between iterations when the next would likely
    not finish (past 0.65 of the time), else in the middle of one, at the limit."""
    native = load_native()
    state = CHECKERS.new_state()
    cut = 0
    # which limits fall mid-iteration depends on the machine's speed: try several
    for limit in (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5):
        searcher = native.Searcher(evaluate.native_tables(), 1 << 18)
        told: list[int] = []
        started = time.perf_counter()
        best, _, depth, nodes, seconds, line = searcher.search(
            state.position,
            state.turn,
            0,
            [],
            time_limit=limit,
            on_iteration=lambda found, told=told: told.append(found[3]),
        )
        elapsed = time.perf_counter() - started
        assert elapsed < limit + 0.05 and seconds <= elapsed, limit
        assert depth >= 6 and best is not None and line[0] == best
        cut += nodes > told[-1]  # nodes of an unfinished iteration
    assert cut


def test_the_node_limit_is_kept() -> None:
    native = load_native()
    searcher = native.Searcher(evaluate.native_tables(), 1 << 18)
    state = CHECKERS.new_state()
    for limit in (0, 1, 5000, 100_000):
        found = searcher.search(state.position, state.turn, 0, [], node_limit=limit)
        # checked every CHECK_EVERY nodes, as the Python search does (the first
        # iteration is never stopped: there is always a move)
        assert found[3] < max(limit, 16) + native.CHECK_EVERY, limit
        assert found[0] is not None and found[2] >= 1


def test_the_stop_event_is_honoured() -> None:
    native = load_native()
    searcher = native.Searcher(evaluate.native_tables(), 1 << 18)
    state = CHECKERS.new_state()
    stop = threading.Event()
    stop.set()
    found = searcher.search(state.position, state.turn, 0, [], stop=stop)
    assert found[2] == 1 and found[0] is not None  # the first iteration only
    # set during the search: it ends soon after, in the middle of an iteration
    # unless the event happens to fall just as one ends (then it is seen between
    # iterations, with no nodes past the last one told): try several moments
    cut = 0
    for delay in (0.2, 0.3, 0.37):
        stop.clear()
        told: list[int] = []
        timer = threading.Timer(delay, stop.set)
        started = time.perf_counter()
        timer.start()
        found = searcher.search(
            state.position,
            state.turn,
            0,
            [],
            stop=stop,
            on_iteration=lambda f, told=told: told.append(f[3]),
        )
        elapsed = time.perf_counter() - started
        timer.join()
        assert delay - 0.05 < elapsed < delay + 0.1 and found[0] is not None, delay
        assert found[3] >= told[-1], delay
        cut += found[3] > told[-1]
    assert cut


def test_other_threads_run_while_it_searches() -> None:
    """The search lets go of the GIL: a Python thread beside it never waits for
    the length of an iteration (the last one, stopped by the clock, takes a fifth
    of a second or more)."""
    native = load_native()
    searcher = native.Searcher(evaluate.native_tables(), 1 << 18)
    state = CHECKERS.new_state()
    longest = [0.0]
    done = threading.Event()

    def watch() -> None:
        last = time.perf_counter()
        while not done.is_set():
            moment = time.perf_counter()
            longest[0] = max(longest[0], moment - last)
            last = moment

    thread = threading.Thread(target=watch)
    thread.start()
    try:
        started = time.perf_counter()
        found = searcher.search(state.position, state.turn, 0, [], time_limit=0.6)
        elapsed = time.perf_counter() - started
    finally:
        done.set()
        thread.join()
    assert found[2] >= 6 and elapsed < 0.8
    assert longest[0] < 0.15


# -- bad input ---------------------------------------------------------------------------


START = CHECKERS.new_state().position


def test_bad_positions_and_moves_are_refused() -> None:
    native = load_native()
    searcher = native.Searcher(evaluate.native_tables(), 1 << 10)
    bad: list[tuple[Callable[[], object], type[Exception], str]] = [
        (lambda: native.moves(START[:3], 0), TypeError, "four ints"),
        (lambda: native.moves([*START], 0), TypeError, "four ints"),
        (lambda: native.moves((*START[:3], "x"), 0), TypeError, "must be an int"),
        (lambda: native.moves((*START[:3], -1), 0), ValueError, "from 0"),
        (lambda: native.moves((*START[:3], 1 << 40), 0), ValueError, "from 0"),
        (lambda: native.moves((*START[:3], 1 << 200), 0), ValueError, "from 0"),
        (lambda: native.moves((1 << 8, 0, 0, 0), 0), ValueError, "off the board"),
        (lambda: native.moves((START[0], START[0], 0, 0), 0), ValueError, "two pieces"),
        (lambda: native.moves(START, 2), ValueError, "side"),
        (lambda: native.moves(START, None), TypeError, "side"),
        (lambda: searcher.evaluate(None), TypeError, "four ints"),
        (lambda: searcher.endgame_code(START, -1), ValueError, "side"),
    ]
    for call, error, words in bad:
        with pytest.raises(error, match=words):
            call()


@pytest.mark.parametrize(
    ("name", "value", "error", "words"),
    [
        ("black_men", [0] * 3, ValueError, "black_men must have 35 values"),
        ("kings", 5, TypeError, "kings must be a sequence of ints"),
        ("refuge", [0] * 34 + ["x"], TypeError, "refuge must be an int"),
        ("distance", [0] * 1224 + [1 << 40], ValueError, "distance must be from"),
        ("white_cones", [0] * 34 + [-1], ValueError, "white_cones must be from 0"),
        ("black_guard", "x", TypeError, "black_guard must be an int"),
    ],
)
def test_bad_evaluation_tables_are_refused(
    name: str, value: object, error: type[Exception], words: str
) -> None:
    native = load_native()
    tables = {**evaluate.native_tables(), name: value}
    with pytest.raises(error, match=words):
        native.Searcher(tables, 1 << 10)
    missing = dict(evaluate.native_tables())
    del missing[name]
    with pytest.raises(ValueError, match=f"lack {name}"):
        native.Searcher(missing, 1 << 10)


def test_bad_search_arguments_are_refused() -> None:
    native = load_native()
    searcher = native.Searcher(evaluate.native_tables(), 1 << 10)

    def search(**settings: object) -> object:
        return searcher.search(START, 0, 0, [], **settings)

    bad: list[tuple[Callable[[], object], type[Exception], str]] = [
        (lambda: search(max_depth=-1), ValueError, "max_depth"),
        (lambda: search(max_depth=10**6), ValueError, "max_depth"),
        (lambda: search(max_depth=2.5), TypeError, "max_depth"),
        (lambda: search(time_limit=-1.0), ValueError, "time_limit"),
        (lambda: search(time_limit=float("nan")), ValueError, "time_limit"),
        (lambda: search(time_limit="soon"), TypeError, "time_limit"),
        (lambda: search(node_limit=-5), ValueError, "node_limit"),
        (lambda: search(node_limit=1.5), TypeError, "node_limit"),
        (lambda: search(stop=object()), TypeError, "stop"),
        (lambda: search(on_iteration=3), TypeError, "on_iteration"),
        (lambda: search(allowed=5), TypeError, "allowed"),
        (lambda: search(allowed=[(1, 2)]), TypeError, "move"),
        (lambda: search(allowed=[(1, 99, 0)]), ValueError, "end bit"),
        (lambda: search(depth=3), TypeError, "depth"),
        (lambda: searcher.search(START, 0, -1, []), ValueError, "quiet"),
        (lambda: searcher.search(START, 0, 0, None), TypeError, "history"),
        (lambda: searcher.search(START, 0, 0, [(1, 2, 3)]), TypeError, "history key"),
        (lambda: searcher.search(START, 0, 0, [(*START, 5)]), ValueError, "side"),
        (lambda: searcher.search(START, 0, 0, [(*START[:3], -1, 0)]), ValueError, "from 0"),
        (lambda: searcher.search(START, 0), TypeError, "quiet"),
    ]
    for call, error, words in bad:
        with pytest.raises(error, match=words):
            call()
    # and it searches on as before
    assert searcher.search(START, 0, 0, [], max_depth=3)[2] == 3


def test_bad_tables_and_endgame_codes_are_refused() -> None:
    native = load_native()
    tables = evaluate.native_tables()
    db = database()
    bad: list[tuple[Callable[[], object], type[Exception], str]] = [
        (lambda: native.Searcher(None), TypeError, "dict"),
        (lambda: native.Searcher({**tables, "kings": (1, 2)}), ValueError, "35 values"),
        (lambda: native.Searcher({**tables, "kings": 5}), TypeError, "kings"),
        (lambda: native.Searcher({**tables, "man": "100"}), TypeError, "man"),
        (lambda: native.Searcher({**tables, "man": 10**30}), ValueError, "man"),
        (lambda: native.Searcher({**tables, "black_cones": (-1,) * 35}), ValueError, "cones"),
        (
            lambda: native.Searcher({k: v for k, v in tables.items() if k != "hunt"}),
            ValueError,
            "hunt",
        ),
        (lambda: native.Searcher(tables, -1), ValueError, "table_size"),
        (lambda: native.Searcher(tables, 1 << 10, db.codes[:-1], db.pieces), ValueError, "slots"),
        (lambda: native.Searcher(tables, 1 << 10, db.codes, 3), ValueError, "slots"),
        (lambda: native.Searcher(tables, 1 << 10, db.codes, 1), ValueError, "from 2"),
        (lambda: native.Searcher(tables, 1 << 10, db.codes, 99), ValueError, "endgame_pieces"),
        (lambda: native.Searcher(tables, 1 << 10, "codes", 4), TypeError, "buffer"),
        (
            lambda: native.Searcher(tables, 1 << 10, db.codes.astype(np.int32), 4),
            TypeError,
            "uint8",
        ),
        (lambda: native.Searcher(tables, 1 << 10, db.codes[::2], 4), TypeError, "contiguous"),
    ]
    for call, error, words in bad:
        with pytest.raises(error, match=words):
            call()
    with pytest.raises(ValueError, match="not the searcher's"):
        NativeSearch(evaluate, None).search(SearchBoard.from_state(CHECKERS.new_state(), db))


def test_errors_inside_a_search_come_out_as_python_errors() -> None:
    native = load_native()
    searcher = native.Searcher(evaluate.native_tables(), 1 << 10)

    class Broken:
        def is_set(self) -> bool:
            raise RuntimeError("no answer")

    with pytest.raises(RuntimeError, match="no answer"):
        searcher.search(START, 0, 0, [], max_depth=20, stop=Broken())

    def refuse(found: object) -> None:
        raise KeyError("told")

    with pytest.raises(KeyError, match="told"):
        searcher.search(START, 0, 0, [], max_depth=3, on_iteration=refuse)

    def again(found: object) -> None:
        searcher.search(START, 0, 0, [], max_depth=2)

    with pytest.raises(RuntimeError, match="already searching"):
        searcher.search(START, 0, 0, [], max_depth=3, on_iteration=again)
    # none of it left the searcher unusable
    assert searcher.search(START, 0, 0, [], max_depth=4)[2] == 4


def test_a_search_at_full_depth_ends_on_a_mate() -> None:
    native = load_native()
    searcher = native.Searcher(evaluate.native_tables(), 1 << 10)
    position = CHECKERS.state_from_text("B:W18:BK14,K22").position
    best, score, depth, _, _, line = searcher.search(position, 0, 0, [], max_depth=FULL_DEPTH)
    assert score == 1_000_000 - 1 and depth == 1 and line == [best]
    assert best in (
        (SQUARE_BIT[14], SQUARE_BIT[23], 1 << SQUARE_BIT[18]),
        (SQUARE_BIT[22], SQUARE_BIT[15], 1 << SQUARE_BIT[18]),
    )

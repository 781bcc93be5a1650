"""The endgame database: its moves are the rules' moves, its verdicts hold move by
move, py-draughts' move generator confirms the short wins and losses it finds, and
the engine plays by it. Solving by material gives the table solving at once gives,
and a unit of five pieces solved here holds move by move too."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from parlour.checkers import endgame
from parlour.checkers.board import BLACK, SQUARE_BIT, WHITE, Position, children, turned
from parlour.checkers.endgame import EndgameDatabase, Verdict, shipped_database, slot_count
from parlour.checkers.engine import CheckersEngine
from parlour.checkers.notation import parse_fen, position_to_fen
from parlour.checkers.rules import CheckersState
from parlour.core.protocol import Side
from tests.checkers.test_pydraughts_oracle import CompulsoryCaptureBoard


@pytest.fixture(scope="module")
def four() -> EndgameDatabase:
    """The table shipped in the package: up to four pieces."""
    assert endgame.SHIPPED.exists(), f"{endgame.SHIPPED} is missing: run parlour checkers-endgames"
    return EndgameDatabase.load(endgame.SHIPPED)


@pytest.fixture
def shipped() -> EndgameDatabase:
    """The table the engine reads: the five-piece one where it has been built
    (asked afresh for each test, as one test looks for tables elsewhere)."""
    db = shipped_database()
    assert db is not None, f"{endgame.SHIPPED} is missing: run parlour checkers-endgames"
    return db


#: Three kings against two, either side to move.
THREE_KINGS_AGAINST_TWO = (0, 3, 0, 2)


@pytest.fixture(scope="module")
def five(four: EndgameDatabase) -> EndgameDatabase:
    """A table of five pieces in which only three kings against two (either side to
    move) are solved, their captures read from the shipped table: 4 million
    positions, in ten seconds or so."""
    codes = endgame.solve(5, known=four, only=[THREE_KINGS_AGAINST_TWO])
    return EndgameDatabase(5, codes)


#: For each byte of a table's 32-square mask, each of its 256 values as the rules'
#: padded board bits (squares 8k + 1 to 8k + 8 for byte k).
_PADDED_BYTES = [
    [sum(1 << SQUARE_BIT[8 * k + b + 1] for b in range(8) if byte >> b & 1) for byte in range(256)]
    for k in range(4)
]


def _padded(mask: int) -> int:
    """A table's mask of squares (bit n for square n + 1) as the rules' board bits."""
    low, second, third, high = _PADDED_BYTES
    return low[mask & 255] | second[mask >> 8 & 255] | third[mask >> 16 & 255] | high[mask >> 24]


@pytest.mark.parametrize(("pieces", "sample"), [(3, None), (4, 20_000)])
def test_the_moves_of_the_table_are_the_rules_moves(pieces: int, sample: int | None) -> None:
    """For every position of up to three pieces and 20,000 of four, the table's
    array move generator finds the same moves (as many, to the same positions) as
    the rules module, and numbering and un-numbering agree."""
    db = EndgameDatabase(pieces, np.zeros(slot_count(pieces), dtype=np.uint8))
    men, kings, other_men, other_kings, real = endgame._all_positions(pieces)
    slots = np.flatnonzero(real)
    if sample is not None:
        slots = np.sort(np.random.default_rng(7).choice(slots, sample, replace=False))
    parents, after = endgame._moves(
        slots, men[slots], kings[slots], other_men[slots], other_kings[slots], pieces
    )
    found: dict[int, Counter[int]] = {int(s): Counter() for s in slots}
    for parent, child in zip(parents.tolist(), after.tolist(), strict=True):
        found[parent][child] += 1
    for slot in slots.tolist():
        position = tuple(_padded(int(b[slot])) for b in (men, kings, other_men, other_kings))
        assert db.position(slot) == position
        assert db.slot(position, BLACK) == slot
        expected = Counter(
            -1 if (s := db.slot(child, WHITE)) is None else s for child in children(position, BLACK)
        )
        assert found[slot] == expected, position_to_fen(position, BLACK)


def test_five_piece_positions_are_numbered_and_moved_as_the_rules_do() -> None:
    """For 200 random numbers in each five-piece unit (3,142 positions, the rest
    holding a man on its crowning row): the slot a unit gives a position is the
    table's slot for it, the array move generator finds the rules' moves, and each
    move's child is found in the unit exactly when it has the unit's pieces."""
    rng = np.random.default_rng(3)
    numbering = EndgameDatabase(5, np.zeros(slot_count(5), dtype=np.uint8))
    checked = 0
    for classes in endgame.units(5):
        if sum(classes[0]) != 5:
            continue
        unit = endgame._Unit(classes)
        local = np.sort(rng.choice(unit.size, 200, replace=False))
        men, kings, other_men, other_kings, real = unit.boards(local)
        local, boards = local[real], (men[real], kings[real], other_men[real], other_kings[real])
        slots = unit.slots(local)
        parents, after = endgame._moves(local, *boards, 5)
        here = unit.local(after)
        found: dict[int, Counter[int]] = {int(i): Counter() for i in local}
        for parent, child, child_here in zip(
            parents.tolist(), after.tolist(), here.tolist(), strict=True
        ):
            found[parent][child] += 1
            if child_here >= 0:
                assert int(unit.slots(np.array([child_here]))[0]) == child
        for i, slot, *masks in zip(
            local.tolist(), slots.tolist(), *(b.tolist() for b in boards), strict=True
        ):
            position: Position = tuple(_padded(m) for m in masks)  # type: ignore[assignment]
            assert numbering.slot(position, BLACK) == slot
            assert numbering.position(slot) == position
            expected = Counter(
                -1 if (s := numbering.slot(child, WHITE)) is None else s
                for child in children(position, BLACK)
            )
            assert found[i] == expected, position_to_fen(position, BLACK)
            in_unit = {
                s for s in expected if s >= 0 and _material(numbering.position(s)) in classes
            }
            assert {
                s for s in expected if s >= 0 and int(unit.local(np.array([s]))[0]) >= 0
            } == in_unit
            checked += 1
    assert checked == 3142


def _material(position: Position) -> tuple[int, int, int, int]:
    men, kings, other_men, other_kings = position
    return men.bit_count(), kings.bit_count(), other_men.bit_count(), other_kings.bit_count()


def test_the_shipped_table_is_the_table_built_here(four: EndgameDatabase) -> None:
    """Up to three pieces the slots are the same: the shipped file agrees with a
    table built now, position for position."""
    small = EndgameDatabase.build(pieces=3)
    assert four.pieces == 4
    assert np.array_equal(four.codes[: len(small.codes)], small.codes)
    assert int((small.codes > 0).sum()) == 188_673  # decided positions of two or three pieces


def test_solving_by_material_is_solving_at_once() -> None:
    """The solver of units (a class and its mirror, in dependency order, plies
    passed back from children of any length) gives byte for byte the codes of the
    first solver, which settled everything together round by round: up to three
    pieces here (for four pieces the two agree too, and with the shipped file)."""
    at_once = endgame.solve_at_once(3)
    assert np.array_equal(endgame.solve(3), at_once)
    # Building on a smaller table already solved gives the same again.
    two = EndgameDatabase(2, endgame.solve(2))
    assert np.array_equal(endgame.solve(3, known=two), at_once)


def test_a_unit_is_not_solved_before_what_its_moves_lead_to() -> None:
    """A man against two kings captures into two pieces: solving that unit with
    nothing of two pieces solved is refused, not read as draws."""
    with pytest.raises(RuntimeError, match="not solved yet"):
        endgame.solve(3, only=[(1, 0, 0, 2)])


def test_the_units_lead_only_backwards() -> None:
    """Every class of two to five pieces is in one unit; its quiet moves stay in it
    (its mirror is in the unit), its captures lead to fewer pieces (solved before)
    and its crownings to a unit solved before it."""
    found = endgame.units(5)
    materials = [material for unit in found for material in unit]
    every = {
        m
        for n in range(2, 6)
        for m in itertools.product(range(n + 1), repeat=4)
        if sum(m) == n and m[0] + m[1] and m[2] + m[3]
    }
    assert len(materials) == len(every) and set(materials) == every
    assert [sum(unit[0]) for unit in found] == sorted(sum(unit[0]) for unit in found)
    order = {material: i for i, unit in enumerate(found) for material in unit}
    for material, i in order.items():
        men, kings, other_men, other_kings = material
        assert order[(other_men, other_kings, men, kings)] == i  # a quiet move
        if men:  # crowning: the other side to move, one man fewer and a king more
            assert order[(other_men, other_kings, men - 1, kings + 1)] < i


def _holds_move_by_move(db: EndgameDatabase, position: Position, side: Side) -> str:
    """Check that the verdict for ``side`` to move follows from the verdicts after
    each legal move as the rules generate them: a win in n has a move to a loss in
    n - 1 and none quicker; a loss in n has only moves to wins, the slowest in
    n - 1; a draw has no move to a loss and a move to a draw. Returns the verdict."""
    verdict = db.probe(position, side)
    assert verdict is not None
    # A child the table does not hold has no pieces for its side to move: lost.
    after = [
        db.probe(child, side.other) or Verdict("loss", 0) for child in children(position, side)
    ]
    losses = [v.plies for v in after if v.result == "loss" and v.plies is not None]
    wins = [v.plies for v in after if v.result == "win" and v.plies is not None]
    fen = position_to_fen(position, side)
    if verdict.result == "win":
        assert verdict.plies == min(losses) + 1, fen
    elif verdict.result == "loss":
        assert len(wins) == len(after), fen
        assert verdict.plies == (max(wins) + 1 if wins else 0), fen
    else:
        assert not losses and len(wins) < len(after), fen
    return verdict.result


@pytest.mark.parametrize("table", ["four", "shipped"])
def test_every_verdict_holds_move_by_move(table: str, request: pytest.FixtureRequest) -> None:
    """For 6,000 random positions (either side to move) of the shipped table, and
    of the table the engine reads (the five-piece one once built), each verdict
    follows from the verdicts after each legal move."""
    db: EndgameDatabase = request.getfixturevalue(table)
    rng = random.Random(11)
    checked = Counter[str]()
    while sum(checked.values()) < 6000:
        slot = rng.randrange(len(db.codes))
        try:
            position = db.position(slot)
        except ValueError:
            continue
        side = rng.choice((BLACK, WHITE))
        if side is WHITE:  # the same slot read with White to move: turn it
            position = turned(position)
        checked[_holds_move_by_move(db, position, side)] += 1
    assert min(checked.values()) > 500, checked


def _three_kings_against_two(rng: random.Random) -> tuple[Position, Side]:
    """A random position of three kings against two, either side to move."""
    squares = [1 << SQUARE_BIT[n] for n in rng.sample(range(1, 33), 5)]
    kings = [sum(squares[:3]), sum(squares[3:])]
    rng.shuffle(kings)
    return (0, kings[0], 0, kings[1]), rng.choice((BLACK, WHITE))


def test_five_pieces_hold_move_by_move(five: EndgameDatabase) -> None:
    """In the unit of three kings against two solved here from the shipped table,
    6,000 random positions' verdicts follow from their children's: captures into
    the shipped table, quiet moves within the unit."""
    rng = random.Random(13)
    checked = Counter(
        _holds_move_by_move(five, *_three_kings_against_two(rng)) for _ in range(6000)
    )
    assert min(checked.values()) > 100, checked
    # The longest: two kings to move hold out 68 plies (measured when it was built).
    assert int(five.codes[endgame.slot_count(4) :].max()) - 1 == 68


# -- py-draughts as the oracle of short wins ------------------------------------------


def _wins_within(board: Any, plies: int) -> bool:
    """The side to move can leave the other without a move within ``plies``."""
    if plies <= 0:
        return False
    for move in list(board.legal_moves):
        board.push(move)
        lost = _loses_within(board, plies - 1)
        board.pop()
        if lost:
            return True
    return False


def _loses_within(board: Any, plies: int) -> bool:
    moves = list(board.legal_moves)
    if not moves:
        return True
    if plies <= 0:
        return False
    for move in moves:
        board.push(move)
        won = _wins_within(board, plies - 1)
        board.pop()
        if not won:
            return False
    return True


def _confirm(board: Any, verdict: Verdict, draw_plies: int) -> None:
    """A win or loss in n plies is won or lost within n and not within n - 2; a
    draw is neither won within ``draw_plies`` nor lost within one fewer."""
    plies = verdict.plies
    if verdict.result == "win":
        assert plies is not None
        assert _wins_within(board, plies) and not _wins_within(board, plies - 2)
    elif verdict.result == "loss":
        assert plies is not None
        assert _loses_within(board, plies) and not _loses_within(board, plies - 2)
    else:
        assert not _wins_within(board, draw_plies) and not _loses_within(board, draw_plies - 1)


def test_py_draughts_confirms_the_quick_wins_and_losses(four: EndgameDatabase) -> None:
    """Positions the table calls won in 1, 3 or 5 plies, or lost in 2 or 4, are
    exactly that by a full search over py-draughts' own move generator (captures
    compulsory, as the ACF plays); positions it calls drawn hold for 4 plies."""
    rng = random.Random(5)
    wanted = {
        Verdict("win", 1): 8,
        Verdict("win", 3): 8,
        Verdict("win", 5): 6,
        Verdict("loss", 2): 8,
        Verdict("loss", 4): 6,
        Verdict("draw", None): 8,
    }
    while any(wanted.values()):
        slot = rng.randrange(slot_count(3))  # two or three pieces: quick to search
        try:
            position = four.position(slot)
        except ValueError:
            continue
        verdict = Verdict.of(int(four.codes[slot]))
        if not wanted.get(verdict):
            continue
        wanted[verdict] -= 1
        _confirm(CompulsoryCaptureBoard.from_fen(position_to_fen(position, BLACK)), verdict, 5)


def test_py_draughts_confirms_quick_wins_of_five_pieces(five: EndgameDatabase) -> None:
    """Three kings against two: positions the unit solved here calls won in 1, 3 or
    5 plies or lost in 2 or 4 are exactly that by a full search over py-draughts'
    moves, and drawn ones hold for 4 plies."""
    rng = random.Random(17)
    wanted = {
        Verdict("win", 1): 4,
        Verdict("win", 3): 4,
        Verdict("win", 5): 3,
        Verdict("loss", 2): 4,
        Verdict("loss", 4): 3,
        Verdict("draw", None): 4,
    }
    while any(wanted.values()):
        position, side = _three_kings_against_two(rng)
        verdict = five.probe(position, side)
        assert verdict is not None
        if not wanted.get(verdict):
            continue
        wanted[verdict] -= 1
        _confirm(CompulsoryCaptureBoard.from_fen(position_to_fen(position, side)), verdict, 5)


# -- where the tables are found ----------------------------------------------------------


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache directory, and shipped_database() looking afresh."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shipped_database.cache_clear()
    yield tmp_path
    shipped_database.cache_clear()


def test_a_table_built_into_the_cache_is_the_one_read(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command builds a table that is not shipped into the cache (as it does
    the five-piece one), and the engine's table is the biggest one there is: the
    shipped one until a bigger is built. Here a three-piece table stands in for the
    five-piece one, the shipped table taken away so that it is the biggest."""
    database = shipped_database()
    assert database is not None and database.pieces == 4
    monkeypatch.setattr(endgame, "SHIPPED", cache / "not-shipped.npz")
    shipped_database.cache_clear()
    assert shipped_database() is None
    assert endgame.main(pieces=3) == 0
    assert "up to 3 pieces" in capsys.readouterr().out
    path = endgame.table_file(3)
    assert path.parent == cache / "parlour" and path.exists()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no partial file left
    shipped_database.cache_clear()
    db = shipped_database()
    assert db is not None and db.pieces == 3
    assert np.array_equal(db.codes, endgame.solve_at_once(3))


# -- the engine ------------------------------------------------------------------------


def test_the_engine_takes_the_quickest_win_and_never_lets_it_go(
    shipped: EndgameDatabase,
) -> None:
    """Two kings against one: every move the engine makes keeps the win and brings
    it a move nearer, and the game ends in exactly the plies the table says."""
    engine = CheckersEngine()
    assert engine.endgames is shipped
    position, turn = parse_fen("W:WK29,K30:BK4")
    state = CheckersState.from_position(position, turn)
    verdict = shipped.probe(state.position, state.turn)
    assert verdict is not None and verdict.result == "win" and verdict.plies is not None
    for plies_left in range(verdict.plies, 0, -1):
        assert shipped.probe(state.position, state.turn) == Verdict(
            "win" if plies_left % 2 else "loss", plies_left
        )
        state.push(engine.choose_move(state, level=5))
    outcome = state.rules_outcome()
    assert outcome is not None and outcome.winner is WHITE


def test_the_engine_scores_a_table_win_as_a_win_in_moves(shipped: EndgameDatabase) -> None:
    """The analysis of a position the table holds reports its win in moves, and
    its line plays the win out to the end."""
    state = CheckersState.from_position(*parse_fen("W:WK29,K30:BK4"))
    verdict = shipped.probe(state.position, state.turn)
    assert verdict is not None and verdict.plies is not None
    found = CheckersEngine().analyse(state, seconds=0.3)
    assert found is not None
    assert CheckersEngine().score_text(found.score) == f"#{(verdict.plies + 1) // 2}"
    line = found.lines[0].pv
    assert len(line) == verdict.plies
    for text in line:
        state.push(state.parse_move(text))
    outcome = state.rules_outcome()
    assert outcome is not None and outcome.winner is WHITE

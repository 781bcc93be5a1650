"""The positions each throw's plays reach, as the engine's look ahead lists them:
in C (parlour.backgammon.native.replies) exactly as the rules' own move generator
finds them (engine.python_replies), and the strongest level's choices the same
whichever is used."""

from __future__ import annotations

import random

import numpy as np
import pytest

from parlour import compiled
from parlour.backgammon import network
from parlour.backgammon.board import CHECKERS, Position, legal_plays
from parlour.backgammon.engine import (
    LEVEL_FILTERS,
    THROWS,
    BackgammonEngine,
    python_replies,
    replies,
    win_kinds,
)
from parlour.backgammon.features import counts_of, packed
from parlour.backgammon.network import shipped_network
from parlour.backgammon.train import self_play_game
from tests.backgammon.test_features import board, position, random_game_positions


def native_replies() -> object:
    try:
        from parlour.backgammon import native
    except ImportError as error:
        pytest.fail(
            f"parlour.backgammon.native cannot be imported ({error}; the build is "
            f"{compiled.state()}): `parlour compile` builds it"
        )
    return native


def side(rng: random.Random, checkers: int, points: list[int]) -> dict[int, int]:
    """``checkers`` spread at random over ``points`` (25 the bar)."""
    spread: dict[int, int] = {}
    for _ in range(checkers):
        point = rng.choice(points)
        spread[point] = spread.get(point, 0) + 1
    return spread


def awkward(rng: random.Random) -> Position:
    """A position of one of the kinds where the rules have corners: checkers on the
    bar against a closed or nearly closed board, a bear-off with gaps (and with an
    opponent's checkers still in the way), one checker left outside, checkers
    stuck behind a prime (where one die, or only part of a double, can be played)."""
    kind = rng.randrange(4)
    # the opponent's points held, in the mover's numbering
    if kind == 0:  # on the bar against the opponent's home board (our 19-24)
        held = rng.sample(range(19, 25), rng.randint(4, 6))
        mine = {25: rng.randint(1, 4)} | side(rng, rng.randint(0, 8), list(range(1, 19)))
    elif kind == 1:  # bearing off, gaps, perhaps a checker or two still outside
        held = rng.sample(range(1, 19), rng.randint(0, 3))
        home = [p for p in rng.sample(range(1, 7), rng.randint(1, 4)) if p not in held]
        outside = [p for p in range(7, 13) if p not in held]
        mine = side(rng, rng.randint(1, 15), home or [1])
        if rng.random() < 0.5 and outside:
            mine[rng.choice(outside)] = 1
    elif kind == 2:  # behind a prime
        start = rng.randint(2, 12)
        held = list(range(start, start + rng.randint(4, 6)))
        behind = [p for p in range(start + 6, 25) if p not in held] or [24]
        mine = side(rng, rng.randint(1, 4), behind) | side(
            rng, rng.randint(0, 8), [p for p in range(1, start) if p not in held] or [1]
        )
    else:  # few checkers, scattered, some of theirs as blots
        held = rng.sample(range(1, 25), rng.randint(2, 8))
        mine = side(rng, rng.randint(1, 5), [p for p in range(1, 26) if p not in held])
    if sum(mine.values()) > CHECKERS:
        mine = {25: 1}
    for point in list(mine):
        if point in held:
            del mine[point]
    # theirs on their own points: our point q is their 25 - q
    theirs: dict[int, int] = {25 - q: rng.randint(2, 3) for q in held}
    left = CHECKERS - sum(theirs.values())
    while left < 0:
        theirs.popitem()
        left = CHECKERS - sum(theirs.values())
    free = [25 - q for q in range(1, 25) if q not in mine and 25 - q not in theirs]
    for _ in range(rng.randint(0, min(left, 3))):  # blots, and one on the bar
        point = rng.choice([*free, 25])
        if point not in theirs:
            theirs[point] = 1
    return position(mine, theirs)


def corners() -> list[Position]:
    """Positions written out by hand for the rules' corners."""
    closed = dict.fromkeys(range(1, 7), 2)
    return [
        position({25: 2, 13: 5}, closed),  # nothing enters
        position({25: 1, 6: 3}, dict.fromkeys(range(1, 6), 2) | {25: 1}),  # one point open
        position({6: 1, 3: 2}, {20: 2}),  # gaps, and their point on our five
        position({6: 1, 1: 1}, {}),  # a higher die bears off only from the highest
        position({9: 1, 5: 2, 2: 3}, {21: 2, 22: 1}),  # one outside, a blot at home
        position({24: 2}, dict.fromkeys(range(2, 8), 2)),  # behind a six-point prime
        position({24: 1}, {8: 2}),  # 6-1 only one die at a time: the 6 alone
        position({1: 15}, {25: 15}),  # all on the ace point
        position({}, {6: 15}),  # the mover has borne off every checker
    ]


def test_the_replies_in_c_are_the_rules_own() -> None:
    native = native_replies()
    rng = np.random.default_rng(3)
    positions = [p for _ in range(3) for p in self_play_game(shipped_network(), rng)[0]]
    positions += random_game_positions(12, seed=11)
    chance = random.Random(5)
    positions += [awkward(chance) for _ in range(800)] + corners()
    for p in positions:
        p.validate()
    raw = packed(positions)
    rows, sizes = native.replies(raw)  # type: ignore[attr-defined]
    assert (rows, sizes) == python_replies(raw)
    groups = np.frombuffer(sizes, dtype=np.int32)
    assert len(groups) == 21 * len(positions) and groups.sum() * 50 == len(rows)
    assert len(groups) >= 25_000
    # each group: distinct results in order, and as many as the rules' distinct plays
    starts = np.concatenate([[0], np.cumsum(groups)])
    for k in range(0, len(groups), 97):
        here = positions[k // 21]
        found = [rows[50 * i : 50 * i + 50] for i in range(starts[k], starts[k + 1])]
        assert found == sorted(set(found))
        plays = legal_plays(here, THROWS[k % 21][0])
        assert len(found) == (len(plays) or 1)


def test_replies_are_swapped_and_a_blocked_throw_leaves_the_position() -> None:
    stuck = position({25: 2, 13: 5}, dict.fromkeys(range(1, 7), 2))
    rows, sizes = replies(counts_of([stuck]))
    assert list(sizes) == [1] * 21
    assert all(row.tobytes() == packed([stuck.swapped()]) for row in rows)
    # 2-1 from the eight hits the opponent's blot on our five-point: it goes to the
    # opponent's bar, which the opponent, now on roll, sees first
    rows, sizes = replies(counts_of([position({8: 1}, {20: 1})]))
    hit = packed([position({25: 1}, {5: 1})])
    two_one = THROWS.index(((2, 1), 2 / 36))
    start = int(sizes[:two_one].sum())
    assert [row.tobytes() for row in rows[start : start + sizes[two_one]]] == [hit]


def test_impossible_counts_are_refused() -> None:
    native = native_replies()
    start = packed([Position.start()])
    with pytest.raises(ValueError, match="50 bytes"):
        native.replies(start[:-1])  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="more than 15"):
        native.replies(start[:24] + bytes([16]) + start[25:])  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="same point"):
        native.replies(packed([Position(board({6: 2}), board({19: 2}))]))  # type: ignore[attr-defined]
    assert native.replies(b"") == (b"", b"")  # type: ignore[attr-defined]


def test_win_kinds_count_as_the_position_does() -> None:
    ends = [
        Position(board({}), board({6: 15})),  # gammon
        Position(board({}), board({6: 14})),  # single
        Position(board({}), board({20: 1, 6: 14})),  # backgammon: in the winner's home
        Position(board({}), board({25: 1, 6: 14})),  # backgammon: on the bar
        Position.start(),
    ]
    assert list(win_kinds(counts_of(ends, swapped=True))) == [p.win_kind() for p in ends]


def test_the_strongest_level_is_the_same_without_the_c_replies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The look ahead with the C replies and inputs and with the Python ones:
    the same plays, in the same order, with the same equities."""
    assert network.NATIVE, f"the C extension is not built ({compiled.state()})"
    engine = BackgammonEngine()
    rng = np.random.default_rng(1)
    seen, _ = self_play_game(shipped_network(), rng)
    # from the opening to the end of the game (the last in a race or a bear-off),
    # wherever the network's game goes
    at = [2, 8, len(seen) // 2, len(seen) - 8, len(seen) - 2]
    chosen = [
        (seen[k], dice)
        for k, dice in zip(at, [(5, 5), (5, 2), (4, 1), (2, 1), (6, 4)], strict=True)
    ]
    native_ranked = [engine._search(p, dice, LEVEL_FILTERS[7]) for p, dice in chosen]
    monkeypatch.setattr(network, "NATIVE", False)
    for (p, dice), ranked in zip(chosen, native_ranked, strict=True):
        pure = engine._search(p, dice, LEVEL_FILTERS[7])
        assert [play for play, _ in pure] == [play for play, _ in ranked]
        assert [value for _, value in pure] == pytest.approx([v for _, v in ranked], abs=1e-9)

"""The network's hand-made features (parlour.backgammon.features), checked against
the rules' own move generator and against positions whose answers a player knows."""

from __future__ import annotations

import random

import numpy as np
import pytest

from parlour import compiled
from parlour.backgammon.board import Position, legal_plays
from parlour.backgammon.features import FEATURES, FEATURES_PER_SIDE, features, packed, unpacked
from parlour.backgammon.network import INPUTS, numpy_inputs

SHOTS, BACK_ESCAPES, CONTAINED, CONTAINED_SQUARED, BREAK_CONTACT, ENTRY = range(FEATURES_PER_SIDE)
CONTACT = FEATURES - 1


def board(points: dict[int, int]) -> tuple[int, ...]:
    """25 counts from {point: checkers} (point 25 the bar)."""
    counts = [0] * 25
    for point, checkers in points.items():
        counts[point - 1] = checkers
    return tuple(counts)


def position(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    return Position(board(mover), board(opponent))


def legal_shots(start: Position) -> int:
    """The throws (of 36) with a legal play that hits, by the rules' generator."""
    return sum(
        any(
            start.apply(play).opponent[24] > start.opponent[24]
            for play in legal_plays(start, (a, b))
        )
        for a in range(1, 7)
        for b in range(1, 7)
    )


def random_game_positions(games: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    seen = []
    for _ in range(games):
        here = Position.start()
        while True:
            seen.append(here)
            plays = legal_plays(here, (rng.randint(1, 6), rng.randint(1, 6)))
            after = here.apply(rng.choice(plays)) if plays else here
            if after.win_kind():
                break
            here = after.swapped()
    return seen


def test_shots_agree_with_the_rules_move_generator() -> None:
    """Counted from the board's geometry, the shots can only differ from the legal
    plays where the rules forbid a hitting play (it would leave a number unplayed
    that another play uses): never fewer, and the same in nearly every position."""
    positions = [p for p in random_game_positions(25, seed=7) if p.mover[24] == 0]
    counted = features(positions)[:, SHOTS] * 36
    legal = np.array([legal_shots(p) for p in positions])
    assert len(positions) > 1000
    assert (counted >= legal).all()
    assert (counted == legal).mean() > 0.98
    assert (legal > 0).mean() > 0.3, "the sample has plenty of positions with shots"


def test_a_checker_on_the_bar_hits_only_by_entering() -> None:
    # the blot on our 22 point (the other side's 3) is hit by entering with a 3, or
    # with a 1 and a 2 or three 1s through open points; the checker on our 10
    # point (4 away from our 6) cannot move before the one on the bar enters
    here = position({25: 1, 10: 1, 6: 13}, {3: 1, 24: 2, 13: 12})
    assert features([here])[0, SHOTS] * 36 == 11 + 2 + 1
    assert legal_shots(here) == 14


def test_escapes_behind_primes() -> None:
    # the other side's points 2-7 made (our 18-23), our checker on its 1 point
    trapped = position({24: 1, 6: 14}, dict.fromkeys(range(2, 8), 2) | {13: 3})
    assert features([trapped])[0, BACK_ESCAPES] == 0
    assert features([trapped])[0, CONTAINED] == 1
    # a five-point prime from the 2 to the 6: only a 6 and another number, played in
    # full, gets out (6-6 would stop on the other side's midpoint, our 12)
    five = position({24: 1, 6: 14}, dict.fromkeys(range(2, 7), 2) | {13: 5})
    assert features([five])[0, BACK_ESCAPES] * 36 == 10
    # nothing in front (every checker of the other side on our 1 point): every
    # throw plays in full
    free = position({24: 1, 6: 14}, {24: 15})
    assert features([free])[0, BACK_ESCAPES] == 1
    assert features([free])[0, CONTAINED] == 0


def test_races_have_no_contact_and_nothing_to_break() -> None:
    race = position({6: 5, 5: 5, 4: 5}, {12: 5, 8: 10})
    row = features([race])[0]
    assert row[CONTACT] == 0
    assert row[BREAK_CONTACT] == 0 and row[FEATURES_PER_SIDE + BREAK_CONTACT] == 0
    assert row[SHOTS] == 0 and row[FEATURES_PER_SIDE + SHOTS] == 0
    start = features([Position.start()])[0]
    assert start[CONTACT] == 1
    # 2 x 23 + 5 x 12 + 3 x 7 + 5 x 5 pips past the other side's back checkers
    assert start[BREAK_CONTACT] == pytest.approx(1.52)


def test_entry_counts_the_other_sides_home_board() -> None:
    here = position({25: 1, 6: 14}, {1: 2, 2: 2, 4: 3, 6: 1, 13: 7})
    assert features([here])[0, ENTRY] == pytest.approx((3 / 6) ** 2)


def test_the_sides_swap_with_the_position() -> None:
    positions = random_game_positions(3, seed=11)
    rows = features(positions)
    swapped = features([p.swapped() for p in positions])
    side = slice(0, FEATURES_PER_SIDE)
    other = slice(FEATURES_PER_SIDE, 2 * FEATURES_PER_SIDE)
    assert np.array_equal(rows[:, side], swapped[:, other])
    assert np.array_equal(rows[:, other], swapped[:, side])
    assert np.array_equal(rows[:, CONTACT], swapped[:, CONTACT])


def test_the_inputs_in_c_are_the_numpy_ones_bit_for_bit() -> None:
    try:
        from parlour.backgammon import native
    except ImportError as error:
        pytest.fail(
            f"parlour.backgammon.native cannot be imported ({error}; the build is "
            f"{compiled.state()}): `parlour compile` builds it"
        )
    positions = random_game_positions(20, seed=5)
    # and the corners: a side with every checker off, on the bar, or on one point
    positions += [
        Position(board({}), board({6: 15})),
        Position(board({25: 15}), board({1: 15})),
        Position(board({24: 15}), board({25: 2, 24: 13})),
    ]
    raw = packed(positions)
    in_c = np.frombuffer(native.inputs(raw)).reshape(len(positions), INPUTS)
    assert in_c.shape == (len(positions), native.INPUTS)
    assert np.array_equal(in_c, numpy_inputs(unpacked(raw)))
    with pytest.raises(ValueError, match="50 bytes"):
        native.inputs(raw[:-1])
    with pytest.raises(ValueError, match="more than 15"):
        native.inputs(bytes([16]) + raw[1:50])

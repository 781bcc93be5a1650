"""The rules of moving, case by case: each rule with a position made for it.

Positions are written as ``{point: checkers}`` in the mover's numbering for both
sides (the opponent's checkers as they sit on *our* points; 25 is each side's bar).
Every case is also checked against GNU Backgammon (gnubg-nn), so a wrong expectation
here cannot hide a wrong rule.
"""

from __future__ import annotations

import gnubg_nn
import pytest

from parlour.backgammon.board import (
    BAR,
    OFF,
    CheckerMove,
    Play,
    Position,
    explain_illegal_play,
    is_legal_play,
    legal_plays,
    next_steps,
)
from parlour.backgammon.notation import format_play, position_id
from parlour.core.errors import IllegalMoveError, NotationError

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def make(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    """A position from checkers on points in the mover's numbering (25: the bar)."""
    ours = [0] * 25
    for point, count in mover.items():
        ours[point - 1] = count
    theirs = [0] * 25
    for point, count in opponent.items():
        theirs[24 if point == BAR else 24 - point] = count
    position = Position(tuple(ours), tuple(theirs))
    position.validate()
    return position


def moves(*pairs: tuple[int, int]) -> Play:
    return tuple(CheckerMove(start, end) for start, end in pairs)


def texts(position: Position, dice: tuple[int, int]) -> set[str]:
    """The legal plays as gnubg-style text, after checking them against gnubg."""
    plays = legal_plays(position, dice)
    ours = [position.apply(play) for play in plays]
    keys = gnubg_nn.moves([list(position.opponent), list(position.mover)], *dice)
    theirs = {tuple(map(tuple, gnubg_nn.board_from_position_key(key))) for key in keys}
    assert len(set(ours)) == len(ours)
    assert {(p.opponent, p.mover) for p in ours} == theirs
    return {format_play(position, play) for play in plays}


def rule_of(position: Position, dice: tuple[int, int], play: Play) -> IllegalMoveError:
    assert not is_legal_play(position, dice, play)
    return explain_illegal_play(position, dice, play)


# Opponent checkers parked where they cannot matter (their home board, our 19-24
# points) are added so that each side has a believable 15.
PARKED = {22: 2, 23: 2, 24: 2}


def test_start_position() -> None:
    start = Position.start()
    assert start.mover == start.opponent
    assert start.pips() == (167, 167)
    assert start.mover_off == start.opponent_off == 0
    assert start.swapped() == start
    assert sum(start.mover) == 15
    assert len(legal_plays(start, (3, 1))) == 16
    assert len(legal_plays(start, (2, 2))) == 75
    for dice in ALL_ROLLS:
        texts(start, dice)


def test_opening_31_counts_24_20_once() -> None:
    # 24/21/20 and 24/23/20 reach the same position: one play.
    listed = texts(Position.start(), (3, 1))
    assert "24/20" in listed and "8/5 6/5" in listed
    assert len(listed) == 16


def test_one_checker_uses_both_dice_only_through_an_open_point() -> None:
    home = {1: 14}
    through_10 = make({13: 1, **home}, {8: 2, **PARKED})
    assert texts(through_10, (5, 3)) == {"13/5"}
    assert legal_plays(through_10, (5, 3)) == [moves((13, 10), (10, 5))]
    through_neither = make({13: 1, **home}, {8: 2, 10: 2, **PARKED})
    assert legal_plays(through_neither, (5, 3)) == []


def test_a_double_gives_four_moves() -> None:
    for play in legal_plays(Position.start(), (6, 6)):
        assert len(play) == 4
    assert "24/18(2) 13/7(2)" in texts(Position.start(), (6, 6))


def test_a_double_plays_as_many_moves_as_possible() -> None:
    position = make({13: 1, 1: 14}, {4: 2, **PARKED})
    assert texts(position, (3, 3)) == {"13/7"}
    error = rule_of(position, (3, 3), moves((13, 10)))
    assert error.rule == "use-all-dice"
    assert "as many moves as possible" in str(error)


def test_a_closed_point_cannot_be_landed_on() -> None:
    position = make({13: 1, 1: 14}, {8: 2, **PARKED})
    for play in legal_plays(position, (5, 1)):
        assert CheckerMove(13, 8) not in play
    error = rule_of(position, (5, 1), moves((13, 8), (8, 7)))
    assert error.rule == "closed-point"
    assert str(error) == "point 8 is closed (held by two or more opposing checkers)"


def test_landing_on_a_blot_hits_it() -> None:
    position = make({13: 5, 8: 3, 6: 5, 24: 2}, {10: 1, 19: 5, 17: 3, 12: 4, 1: 2})
    play = next(p for p in legal_plays(position, (3, 1)) if p == moves((13, 10), (10, 9)))
    assert format_play(position, play) == "13/10*/9"
    after = position.apply(play)
    assert after.opponent[24] == 1 and after.opponent[24 - 10] == 0
    assert "13/10* 6/5" in texts(position, (3, 1))


def test_both_dice_must_be_used_when_possible() -> None:
    position = make({20: 1, 1: 14}, {14: 2, **PARKED})
    assert texts(position, (6, 1)) == {"20/13"}
    error = rule_of(position, (6, 1), moves((20, 19)))
    assert error.rule == "use-both-dice"
    assert str(error) == "both dice must be used when possible"


def test_the_higher_die_when_only_one_can_be_played() -> None:
    position = make({20: 1, 1: 14}, {13: 2, **PARKED})
    assert texts(position, (6, 1)) == {"20/14"}
    error = rule_of(position, (6, 1), moves((20, 19)))
    assert error.rule == "higher-die"
    assert str(error) == "the higher die must be played when only one can be"


def test_the_lower_die_when_only_it_can_be_played() -> None:
    position = make({20: 1, 1: 14}, {13: 2, 14: 2, **PARKED})
    assert texts(position, (6, 1)) == {"20/19"}


def test_no_legal_move_loses_the_turn() -> None:
    closed_board = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}
    position = make({BAR: 1, 6: 14}, closed_board)
    for dice in ALL_ROLLS:
        assert texts(position, dice) == set()
    error = explain_illegal_play(position, (6, 5), moves((6, 1)))
    assert error.rule == "no-entry"
    assert explain_illegal_play(position, (6, 5), ()).rule == "legal"
    assert is_legal_play(position, (6, 5), ())


def test_a_checker_on_the_bar_enters_first() -> None:
    position = make({BAR: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {19: 5, 17: 3, 12: 5, 1: 2})
    for dice in ALL_ROLLS:
        for play in legal_plays(position, dice):
            assert play[0].start == BAR
        texts(position, dice)
    error = rule_of(position, (6, 5), moves((13, 7), (13, 8)))
    assert error.rule == "bar-first"
    assert str(error) == "a checker on the bar must enter first"


def test_when_not_all_can_enter_the_rest_of_the_roll_is_lost() -> None:
    position = make({BAR: 2, 13: 5, 8: 3, 6: 5}, {19: 2, 17: 4, 12: 5, 1: 2, 2: 2})
    assert texts(position, (6, 4)) == {"bar/21"}
    error = rule_of(position, (6, 4), moves((25, 21), (13, 7)))
    assert error.rule == "bar-first"


def test_bearing_off_only_with_all_checkers_home() -> None:
    position = make({7: 1, 6: 4, 5: 4, 4: 3}, PARKED)
    # The checker on 7 must come home (7/1 or 7/2) before a 6 can bear off.
    for play in legal_plays(position, (6, 5)):
        assert play[0] in (CheckerMove(7, 1), CheckerMove(7, 2))
    error = rule_of(position, (6, 5), moves((6, 0), (7, 2)))
    assert error.rule == "bear-off-not-home"
    assert str(error) == "you may bear off only when all your checkers are home"
    texts(position, (6, 5))


def test_the_exact_die_bears_off_from_its_point() -> None:
    position = make({6: 2, 3: 1, 1: 2}, PARKED)
    assert "6/off 3/off" in texts(position, (6, 3))


def test_a_die_above_the_highest_point_bears_off_from_the_highest() -> None:
    position = make({4: 1, 2: 1}, PARKED)
    assert texts(position, (6, 5)) == {"4/off 2/off"}


def test_a_checker_on_a_higher_point_must_move_first() -> None:
    position = make({6: 1, 2: 3}, PARKED)
    listed = texts(position, (4, 1))
    assert "2/off" not in " ".join(listed)
    error = rule_of(position, (4, 1), moves((2, 0), (6, 5)))
    assert error.rule == "higher-point-first"
    assert str(error) == "a checker on a higher point must be moved first"


def test_bearing_off_is_never_compulsory() -> None:
    position = make({3: 1, 2: 1, 1: 1}, PARKED)
    listed = texts(position, (2, 1))
    assert "3/1 2/1" in listed  # no checker borne off, though 2/off was possible
    assert "2/off 1/off" in listed


def test_a_checker_hit_during_the_bear_off_comes_home_first() -> None:
    position = make({BAR: 1, 6: 4, 5: 4, 4: 4, 3: 2}, PARKED)
    assert texts(position, (6, 6)) == {"bar/1"}
    for dice in ALL_ROLLS:
        for play in legal_plays(position, dice):
            assert all(move.end != OFF for move in play)


def test_bar_entry_with_a_double() -> None:
    position = make({BAR: 2, 13: 5, 6: 8}, {20: 2, 17: 4, 12: 5, 1: 2})
    assert all(play[:2] == moves((25, 22), (25, 22)) for play in legal_plays(position, (3, 3)))
    texts(position, (3, 3))
    four_on_bar = make({BAR: 5, 13: 5, 6: 5}, {20: 2, 17: 4, 12: 5, 1: 2})
    assert texts(four_on_bar, (4, 4)) == {"bar/21(4)"}


def test_next_steps_offer_only_moves_that_lead_to_a_legal_play() -> None:
    start = Position.start()
    first = next_steps(start, (6, 5), [])
    assert set(first) == {
        CheckerMove(24, 18),
        CheckerMove(13, 7),
        CheckerMove(13, 8),
        CheckerMove(8, 2),
        CheckerMove(8, 3),
    }
    assert next_steps(start, (6, 5), [CheckerMove(24, 18)]) == [
        CheckerMove(18, 13),
        CheckerMove(13, 8),
        CheckerMove(8, 3),
    ]
    assert next_steps(start, (6, 5), [CheckerMove(24, 18), CheckerMove(18, 13)]) == []
    # The higher-die rule: only 20/14 may start.
    position = make({20: 1, 1: 14}, {13: 2, **PARKED})
    assert next_steps(position, (6, 1), []) == [CheckerMove(20, 14)]
    # From the bar, entering comes first.
    on_bar = make({BAR: 1, 13: 5, 8: 3, 6: 6}, {19: 5, 17: 3, 12: 5, 1: 2})
    assert all(step.start == BAR for step in next_steps(on_bar, (4, 2), []))
    with pytest.raises(IllegalMoveError, match="bar must enter first"):
        next_steps(on_bar, (4, 2), [CheckerMove(13, 9)])


def reached_click_by_click(position: Position, dice: tuple[int, int]) -> set[Position]:
    """The positions reached by following next_steps from nothing to where it offers
    no more, each ending checked to be a legal play."""
    reached = set()
    # One representative sequence for each position reached after each number of
    # moves (the dice used follow from that).
    frontier: dict[tuple[Position, int], list[CheckerMove]] = {(position, 0): []}
    while frontier:
        following: dict[tuple[Position, int], list[CheckerMove]] = {}
        for played in frontier.values():
            steps = next_steps(position, dice, played)
            if not steps:
                assert is_legal_play(position, dice, played), (position_id(position), dice)
                reached.add(position.apply(played))
            for step in steps:
                longer = [*played, step]
                following.setdefault((position.apply(longer), len(longer)), longer)
        frontier = following
    return reached


def test_next_steps_agree_with_the_legal_plays() -> None:
    """Walking next_steps to the end reaches exactly the legal plays' positions."""
    position = make({24: 2, 13: 4, 9: 1, 8: 2, 6: 4, 5: 2}, {19: 5, 17: 3, 12: 5, 7: 1, 1: 1})
    for dice in ALL_ROLLS:
        reached = reached_click_by_click(position, dice)
        assert reached == {position.apply(play) for play in legal_plays(position, dice)}


def test_a_bigger_die_may_bear_off_the_last_checker() -> None:
    # 3/2/off and 3/off reach the same position; either is accepted.
    position = make({3: 1}, PARKED)
    assert texts(position, (6, 1)) == {"3/off"}
    assert is_legal_play(position, (6, 1), moves((3, 0)))
    assert is_legal_play(position, (6, 1), moves((3, 2), (2, 0)))


def test_win_kinds() -> None:
    empty = (0,) * 25
    assert Position(empty, _side({5: 10})).win_kind() == 1
    assert Position(empty, _side({5: 15})).win_kind() == 2
    assert Position(empty, _side({5: 14, 20: 1})).win_kind() == 3
    assert Position(empty, _side({5: 14, 25: 1})).win_kind() == 3
    assert Position.start().win_kind() == 0


def _side(points: dict[int, int]) -> tuple[int, ...]:
    counts = [0] * 25
    for point, count in points.items():
        counts[point - 1] = count
    return tuple(counts)


def test_apply_refuses_impossible_moves() -> None:
    start = Position.start()
    with pytest.raises(IllegalMoveError, match="no checker"):
        start.apply(moves((20, 15)))
    with pytest.raises(IllegalMoveError, match="closed"):
        start.apply(moves((6, 1)))
    with pytest.raises(IllegalMoveError, match="is not a move"):
        start.apply(moves((6, 8)))


@pytest.mark.parametrize(
    ("mover", "opponent", "message"),
    [
        ({6: 16}, {6: 1}, "16 checkers"),
        ({6: 5}, {19: 2, 6: 1}, "both players have checkers on point 6"),
        ({}, {}, "both players have borne off"),
    ],
)
def test_validate_names_the_impossible(
    mover: dict[int, int], opponent: dict[int, int], message: str
) -> None:
    ours = _side(mover)
    theirs = [0] * 25
    for point, count in opponent.items():
        theirs[24 - point] = count
    with pytest.raises(NotationError, match=message):
        Position(ours, tuple(theirs)).validate()


def test_validate_shape() -> None:
    with pytest.raises(NotationError, match="25 counts"):
        Position((0,) * 24, Position.start().opponent).validate()
    with pytest.raises(NotationError, match="-1"):
        Position((-1,) + (0,) * 24, Position.start().opponent).validate()


@pytest.mark.parametrize("dice", [(0, 1), (7, 2), (3,), (1, 2, 3)])
def test_dice_outside_one_to_six(dice: tuple[int, ...]) -> None:
    with pytest.raises(NotationError):
        legal_plays(Position.start(), dice)

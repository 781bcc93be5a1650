"""The cube, its options and the scoring of games, money sessions and matches
(parlour.backgammon.cube), checked against the rules in the seeds: single 1x, gammon
2x, backgammon 3x the cube; the Jacoby rule; the Crawford rule as gnubg plays it."""

from __future__ import annotations

import pytest

from parlour.backgammon.cube import (
    BACKGAMMON,
    GAMMON,
    SINGLE,
    Cube,
    CubeOptions,
    double_refusal,
    game_points,
    win_reason,
)
from parlour.backgammon.match import MatchPlay, MoneyPlay, series
from parlour.backgammon.rules import BACKGAMMON as THE_GAME
from parlour.core.protocol import Side

FIRST, SECOND = Side.FIRST, Side.SECOND


@pytest.mark.parametrize(
    ("kind", "cube", "points"),
    [
        (SINGLE, Cube(), 1),
        (GAMMON, Cube(), 2),
        (BACKGAMMON, Cube(), 3),
        (SINGLE, Cube(2, FIRST), 2),
        (GAMMON, Cube(4, SECOND), 8),
        (BACKGAMMON, Cube(8, FIRST), 24),
        (BACKGAMMON, Cube(64, SECOND), 192),
    ],
)
def test_a_win_scores_its_kind_times_the_cube(kind: int, cube: Cube, points: int) -> None:
    assert game_points(kind, cube) == points


def test_jacoby_counts_gammons_single_only_while_the_cube_is_in_the_middle() -> None:
    jacoby = CubeOptions(jacoby=True)
    assert game_points(GAMMON, Cube(), jacoby) == 1
    assert game_points(BACKGAMMON, Cube(), jacoby) == 1
    # Automatic doubles turn the stake but leave the cube in the middle: still Jacoby.
    assert game_points(GAMMON, Cube(2), jacoby) == 2
    # Once a double has been taken the cube has an owner: gammons count again.
    assert game_points(GAMMON, Cube(2, FIRST), jacoby) == 4
    assert game_points(BACKGAMMON, Cube(2, SECOND), jacoby) == 6
    # The Jacoby rule is for money play only.
    assert game_points(GAMMON, Cube(), jacoby, money=False) == 2
    assert win_reason(GAMMON, Cube(), jacoby, money=True) == "gammon (counted single: Jacoby rule)"
    assert win_reason(GAMMON, Cube(2, FIRST), jacoby, money=True) == "gammon"


def test_cube_transfers() -> None:
    assert Cube().doubled_by(FIRST) == Cube(2, SECOND)
    assert Cube(2, SECOND).doubled_by(SECOND) == Cube(4, FIRST)
    # A beaver: doubled and redoubled at once, the beaverer keeps the cube.
    assert Cube().beavered_by(SECOND) == Cube(4, SECOND)


def test_double_refusals_name_the_rule() -> None:
    options = CubeOptions()
    assert double_refusal(Cube(), FIRST, options) is None
    assert double_refusal(Cube(2, FIRST), FIRST, options) is None
    owned = double_refusal(Cube(2, SECOND), FIRST, options)
    assert owned is not None and owned.rule == "cube-owner"
    assert "only its owner may redouble" in str(owned)
    crawford = double_refusal(Cube(), FIRST, options, crawford_game=True)
    assert crawford is not None and crawford.rule == "crawford-game"
    assert "Crawford" in str(crawford)
    capped = double_refusal(Cube(64, FIRST), FIRST, CubeOptions(max_cube=64))
    assert capped is not None and capped.rule == "cube-limit" and "64" in str(capped)
    assert double_refusal(Cube(32, FIRST), FIRST, CubeOptions(max_cube=64)) is None
    # Without a cap the cube goes on past 64.
    assert double_refusal(Cube(64, FIRST), FIRST, options) is None


def test_options_are_off_by_default_and_checked() -> None:
    options = CubeOptions()
    assert not (options.jacoby or options.beavers or options.automatic_doubles)
    assert options.max_cube is None
    with pytest.raises(ValueError, match="power of two"):
        CubeOptions(max_cube=63)
    with pytest.raises(ValueError, match="count"):
        CubeOptions(automatic_doubles=-1)
    with pytest.raises(ValueError, match="a win is 1"):
        game_points(4, Cube())


def test_money_session_keeps_running_totals() -> None:
    session = MoneyPlay(stake=10)
    session.record(FIRST, 1, "single game")
    session.record(SECOND, 4, "gammon")
    session.record(FIRST, 6, "backgammon")
    assert session.points == (7, 4)
    assert session.balance(FIRST) == 30
    assert session.balance(SECOND) == -30
    assert not session.is_over
    assert [game.reason for game in session.games] == ["single game", "gammon", "backgammon"]


def test_match_play_crawford_and_post_crawford() -> None:
    match = MatchPlay(5)
    assert not match.crawford_game and not match.post_crawford
    match.record(FIRST, 2)
    match.record(SECOND, 1)
    assert not match.crawford_game
    match.record(FIRST, 2)  # 4-1: FIRST is one point away
    assert match.score == (4, 1)
    assert match.crawford_game and not match.post_crawford
    match.record(SECOND, 2)  # the Crawford game
    assert not match.crawford_game and match.post_crawford
    match.record(SECOND, 1)  # 4-4: no second Crawford game
    assert match.score == (4, 4)
    assert not match.crawford_game and match.post_crawford
    match.record(SECOND, 4)  # full points are scored: 8 beats the 5 needed
    assert match.is_over and match.winner is SECOND and match.score == (4, 8)
    with pytest.raises(ValueError, match="over"):
        match.record(FIRST, 1)


def test_a_match_won_without_a_crawford_game() -> None:
    match = MatchPlay(3)
    match.record(FIRST, 4)  # a doubled gammon wins at once
    assert match.is_over and match.winner is FIRST
    assert not match.crawford_game and not match.post_crawford


def test_money_only_options_are_refused_in_a_match() -> None:
    with pytest.raises(ValueError, match="money play"):
        MatchPlay(7, CubeOptions(jacoby=True))
    with pytest.raises(ValueError, match="1 point or more"):
        MatchPlay(0)


def test_a_match_taken_up_part_way_keeps_its_score_and_crawford_game() -> None:
    # 3-4 to 5, the Crawford game: the second side needs one point.
    match = MatchPlay(5, opening=(3, 4), opening_crawford=True)
    assert match.score == (3, 4) and match.crawford_game and not match.post_crawford
    match.record(FIRST, 1)  # 4-4: the next game is post-Crawford
    assert match.score == (4, 4) and not match.crawford_game and match.post_crawford
    # 4-2 without the flag: the Crawford game was played before this position.
    later = MatchPlay(5, opening=(4, 2))
    assert not later.crawford_game and later.post_crawford
    # 1-2, nobody near: the Crawford game comes as usual.
    early = MatchPlay(5, opening=(1, 2))
    early.record(SECOND, 2)
    assert early.score == (1, 4) and early.crawford_game
    with pytest.raises(ValueError, match="cannot stand at 5-0"):
        MatchPlay(5, opening=(5, 0))
    with pytest.raises(ValueError, match="needs one point"):
        MatchPlay(5, opening=(1, 2), opening_crawford=True)


def test_a_series_begun_at_a_score_goes_on_from_it() -> None:
    five = series({"match_length": 5})
    # A 5-point match at 2-4, the Crawford game (gnubg's Match ID), White to roll.
    start = THE_GAME.state_from_text("4HPwATDgc/ABMA:sAGgACAAIAAA")
    assert (start.match_length, start.score, start.crawford) == (5, (2, 4), True)
    assert five.cannot_begin_at(start) is None
    start.play("resign")  # White gives up a single game: 2-5, Black has won
    start.play("accept")
    summary = five.summary([start])
    assert summary["points"] == [2, 5] and summary["over"] and summary["winner"] == 1
    assert five.next([start]) is None
    # Money play keeps no score: a money position with one is refused.
    assert "money session here starts at 0-0" in str(
        series({}).cannot_begin_at(THE_GAME.state_from_text("4HPwATDgc/ABMA:MAEAACAAIAAA"))
    )

"""Position ID, Match ID, dice and move text: both ways, and bad input refused."""

from __future__ import annotations

import doctest

import pytest

import parlour.backgammon.notation as notation
from parlour.backgammon.board import CheckerMove, Position, legal_plays
from parlour.backgammon.notation import (
    MatchId,
    format_play,
    list_plays,
    match_id,
    match_id_from_text,
    parse_dice,
    parse_play,
    position_from_id,
    position_id,
)
from parlour.core.errors import IllegalMoveError, NotationError
from parlour.core.protocol import Side


def test_doctests() -> None:
    result = doctest.testmod(notation)
    assert result.attempted > 10 and result.failed == 0


@pytest.mark.parametrize(
    "text", ["4HPwATDgc/ABMA", "jGfkASjg8wcBMA", "zGbiIQgxH/AAWA", "zGbiIYCYD3gALA"]
)
def test_position_ids_from_the_notes_read_back(text: str) -> None:
    assert position_id(position_from_id(text)) == text


def test_start_position_id() -> None:
    assert position_id(Position.start()) == "4HPwATDgc/ABMA"
    assert position_from_id("4HPwATDgc/ABMA") == Position.start()


def test_match_id_example() -> None:
    fields = match_id_from_text("QYkqASAAIAAA")
    assert fields == MatchId(
        cube_value=2,
        cube_owner=Side.FIRST,
        dice_owner=Side.SECOND,
        crawford=False,
        game_state=1,
        turn=Side.SECOND,
        double_offered=False,
        resignation=0,
        dice=(5, 2),
        match_length=9,
        score=(2, 4),
    )
    assert match_id(fields) == "QYkqASAAIAAA"


def test_parse_dice() -> None:
    assert parse_dice("31") == (3, 1)
    assert parse_dice(" 3-1 ") == (3, 1)
    assert parse_dice("6 6") == (6, 6)
    for bad in ("71", "30", "3", "abc", "3-1-2"):
        with pytest.raises(NotationError):
            parse_dice(bad)


def test_opening_31_listing() -> None:
    listing = list_plays("4HPwATDgc/ABMA", "31")
    assert len(listing) == 16
    assert ("8/5 6/5", "4HPwATCwZ/ABMA") in listing
    start = Position.start()
    for text, result in listing:
        play = parse_play(start, (3, 1), text)
        assert position_id(start.apply(play)) == result
        assert format_play(start, play) == text


def test_parse_play_forms() -> None:
    start = Position.start()
    expected = parse_play(start, (6, 5), "24/13")
    for text in ("24/18 18/13", "18/13 24/18", "24/18/13", "24 / 18 , 18/13", "24-18 18-13"):
        assert parse_play(start, (6, 5), text) == expected
    assert parse_play(start, (3, 3), "8/5(2) 6/3(2)") == parse_play(
        start, (3, 3), "6/3 8/5 6/3 8/5"
    )
    with pytest.raises(IllegalMoveError, match="both dice must be used"):
        parse_play(start, (6, 5), "24/18")
    with pytest.raises(NotationError):
        parse_play(start, (6, 5), "hello")


def test_format_examples() -> None:
    start = Position.start()
    play = (CheckerMove(13, 10), CheckerMove(10, 8))
    assert format_play(start, play) == "13/8"
    assert [format_play(start, p) for p in legal_plays(start, (6, 6))].count(
        "24/18(2) 13/7(2)"
    ) == 1

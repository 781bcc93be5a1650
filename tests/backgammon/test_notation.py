"""Position ID, Match ID, dice and move text: both ways, and bad input refused."""

from __future__ import annotations

import base64
import random
import re
from collections import Counter

import pytest

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


# -- Position ID: bad input ---------------------------------------------------------


def _id_from_bits(bits: str) -> str:
    """A Position ID written bit by bit (the first bit is the lowest of byte 0)."""
    bits = bits.ljust(80, "0")
    data = bytes(int(bits[i : i + 8][::-1], 2) for i in range(0, 80, 8))
    return base64.b64encode(data).decode()[:14]


def _side_bits(points: dict[int, int]) -> str:
    return "".join("1" * points.get(index + 1, 0) + "0" for index in range(25))


def test_id_from_bits_helper_agrees_with_the_start() -> None:
    start = {6: 5, 8: 3, 13: 5, 24: 2}
    assert _id_from_bits(_side_bits(start) + _side_bits(start)) == "4HPwATDgc/ABMA"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4HPwATDgc/AB", "14 characters, not 12"),
        ("4HPwATDgc/ABMAA", "14 characters, not 15"),
        ("", "14 characters, not 0"),
        ("4HPwATDgc/AB-A", "not '-'"),
        ("4HPwATDgc/AB A", "not ' '"),
        ("4HPwATDgc/ABMB", "bits past the 80"),
        ("/////////////A", "more checkers than two sides can"),
    ],
)
def test_malformed_position_ids(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=re.escape(message)):
        position_from_id(text)


def test_sixteen_checkers_for_a_side() -> None:
    start = {6: 5, 8: 3, 13: 5, 24: 2}
    text = _id_from_bits(_side_bits({6: 5}) + _side_bits({**start, 24: 3}))
    with pytest.raises(NotationError, match="the player on roll 16 checkers"):
        position_from_id(text)
    text = _id_from_bits(_side_bits({**start, 6: 6}) + _side_bits({6: 5}))
    with pytest.raises(NotationError, match="the player not on roll 16 checkers"):
        position_from_id(text)


def test_both_sides_on_one_point() -> None:
    # The opponent's 6-point is our 19-point.
    text = _id_from_bits(_side_bits({6: 5, 8: 3, 13: 5, 24: 2}) + _side_bits({19: 1, 6: 14}))
    with pytest.raises(NotationError, match="both players have checkers on point 19"):
        position_from_id(text)


def test_checkers_after_the_end() -> None:
    text = _id_from_bits(_side_bits({6: 1}) + _side_bits({6: 1}) + "1")
    with pytest.raises(NotationError, match="after the last point"):
        position_from_id(text)


def test_position_id_accepts_surrounding_text() -> None:
    assert position_from_id("  Position ID: 4HPwATDgc/ABMA ") == Position.start()
    with pytest.raises(NotationError, match="is text"):
        position_from_id(None)  # type: ignore[arg-type]


# -- Match ID --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        MatchId(),
        MatchId(cube_value=64, cube_owner=Side.SECOND, match_length=0, score=(0, 0)),
        MatchId(crawford=True, match_length=7, score=(6, 3), dice=(6, 6), turn=Side.SECOND),
        MatchId(double_offered=True, cube_value=4, cube_owner=Side.FIRST, turn=Side.SECOND),
        MatchId(resignation=3, game_state=3, dice=(1, 2)),
        MatchId(game_state=4, match_length=32767, score=(32766, 1)),
        MatchId(game_state=0, dice_owner=Side.SECOND, cube_value=1 << 15),
        MatchId(match_length=5, score=(4, 4), jacoby=False),
    ],
)
def test_match_id_round_trips(fields: MatchId) -> None:
    text = match_id(fields)
    assert len(text) == 12
    assert match_id_from_text(text) == fields


def test_match_id_bit_layout() -> None:
    # Each field alone, at the bit the notes give for it.
    def value_of(fields: MatchId) -> int:
        return int.from_bytes(base64.b64decode(match_id(fields)), "little")

    base = value_of(MatchId(cube_owner=Side.FIRST, game_state=0))
    assert base == 0
    assert value_of(MatchId(cube_value=8, cube_owner=Side.FIRST, game_state=0)) == 3
    assert value_of(MatchId(cube_owner=None, game_state=0)) == 3 << 4
    assert value_of(MatchId(cube_owner=Side.FIRST, game_state=0, dice_owner=Side.SECOND)) == 1 << 6
    assert value_of(MatchId(cube_owner=Side.FIRST, game_state=0, crawford=True)) == 1 << 7
    assert value_of(MatchId(cube_owner=Side.FIRST, game_state=2)) == 2 << 8
    assert value_of(MatchId(cube_owner=Side.FIRST, game_state=0, turn=Side.SECOND)) == 1 << 11
    assert value_of(MatchId(cube_owner=Side.FIRST, game_state=0, double_offered=True)) == 1 << 12
    assert value_of(MatchId(cube_owner=Side.FIRST, game_state=0, resignation=2)) == 2 << 13
    assert value_of(MatchId(cube_owner=Side.FIRST, game_state=0, dice=(5, 2))) == 5 << 15 | 2 << 18
    assert value_of(MatchId(cube_owner=Side.FIRST, game_state=0, match_length=9)) == 9 << 21
    assert value_of(MatchId(cube_owner=Side.FIRST, game_state=0, score=(2, 4))) == (
        2 << 36 | 4 << 51
    )
    assert value_of(MatchId(cube_owner=Side.FIRST, game_state=0, jacoby=False)) == 1 << 66


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("QYkqASAAIAA", "12 characters, not 11"),
        ("QYkqASAAIAA!", "not '!'"),
    ],
)
def test_malformed_match_ids(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=re.escape(message)):
        match_id_from_text(text)


def _match_text(value: int) -> str:
    return base64.b64encode(value.to_bytes(9, "little")).decode()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (2 << 4, "cube owner is 2"),
        (7 << 8, "game state is 7"),
        (7 << 15, "dice are 7 and 0"),
        (1 << 15, "dice are 1 and 0"),
        (3 << 15 | 7 << 18, "dice are 3 and 7"),
        (1 << 67, "past the 67"),
        (1 << 71, "past the 67"),
    ],
)
def test_impossible_match_ids(value: int, message: str) -> None:
    with pytest.raises(NotationError, match=re.escape(message)):
        match_id_from_text(_match_text(value))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (MatchId(cube_value=3), "power of two"),
        (MatchId(dice=(7, 1)), "dice show 1 to 6"),
        (MatchId(game_state=5), "game state"),
        (MatchId(resignation=4), "resignation"),
        (MatchId(match_length=1 << 15), "match length"),
        (MatchId(score=(-1, 0)), "score"),
    ],
)
def test_match_id_refuses_fields_out_of_range(fields: MatchId, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        match_id(fields)


# -- move text ---------------------------------------------------------------------------


def make(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    ours = [0] * 25
    for point, count in mover.items():
        ours[point - 1] = count
    theirs = [0] * 25
    for point, count in opponent.items():
        theirs[24 if point == 25 else 24 - point] = count
    return Position(tuple(ours), tuple(theirs))


def moves(*pairs: tuple[int, int]) -> tuple[CheckerMove, ...]:
    return tuple(CheckerMove(start, end) for start, end in pairs)


BLOTS = make({24: 2, 13: 5, 8: 3, 6: 5}, {10: 1, 7: 1, 19: 5, 17: 3, 16: 3, 1: 2})


@pytest.mark.parametrize(
    ("position", "play", "text"),
    [
        (Position.start(), moves((8, 5), (6, 5)), "8/5 6/5"),
        (Position.start(), moves((24, 18), (18, 13)), "24/13"),
        (Position.start(), moves((13, 10), (10, 8)), "13/8"),
        (Position.start(), moves((24, 21), (24, 21), (13, 10), (13, 10)), "24/21(2) 13/10(2)"),
        (Position.start(), moves((13, 11), (11, 9), (9, 7), (7, 5)), "13/5"),
        (Position.start(), moves((6, 4), (6, 4), (4, 2), (4, 2)), "6/2(2)"),
        (BLOTS, moves((13, 10), (10, 7)), "13/10*/7*"),
        (BLOTS, moves((13, 10), (8, 7)), "13/10* 8/7*"),
        (BLOTS, moves((8, 7), (8, 7)), "8/7*(2)"),
        (BLOTS, moves((13, 7), (8, 7)), "13/7* 8/7"),
        (BLOTS, moves((13, 11), (11, 10)), "13/10*"),
        (make({25: 1, 6: 14}, {1: 2}), moves((25, 22), (6, 5)), "bar/22 6/5"),
        (make({25: 2, 6: 13}, {20: 1}), moves((25, 20), (25, 20)), "bar/20*(2)"),
        (make({6: 2, 3: 1}, {24: 2}), moves((6, 0), (3, 0)), "6/off 3/off"),
        (make({6: 2, 3: 1}, {24: 2}), moves((6, 2), (2, 0)), "6/off"),
        (make({25: 1, 6: 14}, {22: 1}), moves((25, 22), (22, 20)), "bar/22*/20"),
    ],
)
def test_format_play_as_gnubg_writes(
    position: Position, play: tuple[CheckerMove, ...], text: str
) -> None:
    assert format_play(position, play) == text


def test_format_play_of_no_move() -> None:
    assert format_play(Position.start(), ()) == ""


@pytest.mark.parametrize(
    "text",
    [
        "8/5 6/5",
        "6/5 8/5",
        "8/5, 6/5",
        "8 / 5   6 / 5",
        "8-5 6-5",
        " 6/5  8/5 ",
        "8/5;6/5",
    ],
)
def test_parse_play_spellings(text: str) -> None:
    assert parse_play(Position.start(), (3, 1), text) == moves((8, 5), (6, 5))


def test_parse_bar_off_and_stars() -> None:
    on_bar = make({25: 1, 6: 14}, {1: 2})
    expected = parse_play(on_bar, (3, 1), "bar/22 6/5")
    for text in ("25/22 6/5", "BAR/22 6/5", "b/22 6/5", "6/5 bar/22"):
        assert parse_play(on_bar, (3, 1), text) == expected
    home = make({6: 2, 3: 1}, {24: 2})
    expected = parse_play(home, (6, 3), "6/off 3/off")
    for text in ("6/0 3/0", "3/off 6/off", "6/OFF 3/o"):
        assert parse_play(home, (6, 3), text) == expected
    # A star is read but not needed; the hit happens by the rules either way.
    assert parse_play(BLOTS, (3, 1), "13/10* 8/7*") == parse_play(BLOTS, (3, 1), "13/10 8/7")


def test_parse_combined_forms_choose_the_path_that_was_written() -> None:
    # 13/9 with 3-1 can go through the blot on 10 (hitting it) or through 12.
    hit = parse_play(BLOTS, (3, 1), "13/10*/9")
    quiet = parse_play(BLOTS, (3, 1), "13/9")
    assert BLOTS.apply(hit).opponent[24] == 1
    assert BLOTS.apply(quiet).opponent[24] == 0
    assert format_play(BLOTS, hit) == "13/10*/9"
    assert format_play(BLOTS, quiet) == "13/9"


def test_parse_doubles_with_counts_and_chains() -> None:
    start = Position.start()
    assert parse_play(start, (6, 6), "24/18(2) 13/7(2)") == parse_play(
        start, (6, 6), "13/7 24/18 13/7 24/18"
    )
    assert parse_play(start, (2, 2), "13/5") == moves((13, 11), (11, 9), (9, 7), (7, 5))
    assert parse_play(start, (2, 2), "6/2(2)") == parse_play(start, (2, 2), "6/4(2) 4/2(2)")
    two_on_bar = make({25: 2, 13: 13}, {1: 2})
    assert format_play(two_on_bar, parse_play(two_on_bar, (5, 5), "bar/15(2)")) == "bar/15(2)"


def test_parse_no_play() -> None:
    closed = make({25: 1, 6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2})
    assert parse_play(closed, (6, 5), "") == ()
    assert parse_play(closed, (6, 5), "pass") == ()
    with pytest.raises(IllegalMoveError, match="both dice must be used"):
        parse_play(Position.start(), (6, 5), "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("13/", "cannot read"),
        ("hello", "cannot read"),
        ("13/8 zz", "cannot read 'zz'"),
        ("26/20", "no point 26"),
        ("off/5", "borne off cannot move"),
        ("5/bar", "cannot move to the bar"),
        ("8/8", "from one point to another"),
        ("8/5(5)", "1 to 4 times"),
        ("8/7 8/7 8/7 8/7 8/7", "at most 4"),
    ],
)
def test_unreadable_play_text(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=re.escape(message)):
        parse_play(Position.start(), (3, 1), text)


@pytest.mark.parametrize(
    ("position", "dice", "text", "rule", "message"),
    [
        (Position.start(), (6, 5), "24/18", "use-both-dice", "both dice must be used"),
        (Position.start(), (6, 5), "6/1 13/8", "closed-point", "point 1 is closed"),
        (Position.start(), (6, 5), "13/9 13/7", "no-such-die", "13/9 is 4 pips"),
        (Position.start(), (6, 5), "5/off 13/7", "no-checker", "no checker on point 5"),
        (Position.start(), (6, 5), "8/14 13/7", "direction", "goes backwards"),
        (Position.start(), (6, 5), "6/off 13/8", "bear-off-not-home", "all your checkers are home"),
        (Position.start(), (6, 5), "24/18 13/8 8/2", "no-dice-left", "this roll gives 2"),
        (
            make({25: 1, 13: 14}, {1: 2}),
            (3, 1),
            "13/10 13/12",
            "bar-first",
            "a checker on the bar must enter first",
        ),
        (
            make({20: 1, 1: 14}, {13: 2, 22: 2}),
            (6, 1),
            "20/19",
            "higher-die",
            "the higher die must be played when only one can be",
        ),
        (
            make({6: 1, 2: 3}, {24: 2}),
            (4, 1),
            "2/off 6/5",
            "higher-point-first",
            "a checker on a higher point must be moved first",
        ),
    ],
)
def test_illegal_plays_name_the_rule(
    position: Position, dice: tuple[int, int], text: str, rule: str, message: str
) -> None:
    with pytest.raises(IllegalMoveError, match=re.escape(message)) as caught:
        parse_play(position, dice, text)
    assert caught.value.rule == rule


def test_list_plays_contract() -> None:
    start_id = "4HPwATDgc/ABMA"
    listing = list_plays(start_id, "3-1")
    assert len(listing) == len({result for _, result in listing}) == 16
    for text, result in listing:
        after = position_from_id(result)
        # The mover stays in the on-roll half: its pips went down by 4.
        assert after.pips() == (163, 167)
        assert after == Position.start().apply(parse_play(Position.start(), (3, 1), text))
    closed = make({25: 1, 6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2})
    assert list_plays(position_id(closed), "66") == []
    with pytest.raises(NotationError):
        list_plays(start_id, "71")
    with pytest.raises(NotationError):
        list_plays("4HPwATDgc/AB", "31")


def test_parse_play_never_fails_otherwise() -> None:
    """Random text, readable or not, gets a result or a Parlour error: never another
    exception and never a hang."""
    rng = random.Random(5)
    tokens = ["bar", "off", "25", "0", "1", "3", "5", "6", "8", "13", "24", "/", "/", "*"]
    tokens += ["(2)", "(3)", "(9)", " ", ",", "-", "b", "x", "//", "26", "(", "7"]
    positions = [
        Position.start(),
        BLOTS,
        make({25: 2, 13: 13}, {1: 2}),
        make({6: 2, 3: 1}, {24: 2}),
        make({25: 1, 6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}),
    ]
    outcomes: Counter[str] = Counter()
    for _ in range(3000):
        position = rng.choice(positions)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if rng.random() < 0.5:
            text = "".join(rng.choice(tokens) for _ in range(rng.randint(0, 12)))
        else:
            text = " ".join(
                f"{rng.choice(['bar', *map(str, range(1, 26))])}/{rng.randint(0, 24)}"
                for _ in range(rng.randint(1, 4))
            )
        try:
            parse_play(position, dice, text)
            outcomes["read"] += 1
        except NotationError:
            outcomes["unreadable"] += 1
        except IllegalMoveError as error:
            assert str(error) and error.rule
            outcomes["illegal"] += 1
    assert min(outcomes.values()) >= 20, outcomes


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("13/9", "13/9 is 4 pips, which neither die nor both of the roll 6-3 make"),
        ("24/14", "24/14 is 10 pips, which neither die nor both of the roll 6-3 make"),
        ("13/7 13/7", "13/7 13/7 moves 12 pips, more than the 9 of the roll 6-3"),
    ],
)
def test_a_play_the_dice_cannot_make_is_explained_in_the_moves_typed(
    text: str, message: str
) -> None:
    # The hops a joined move stands for (13/10/9) are never named: the player typed 13/9.
    with pytest.raises(IllegalMoveError) as refused:
        parse_play(Position.start(), (6, 3), text)
    assert str(refused.value) == message

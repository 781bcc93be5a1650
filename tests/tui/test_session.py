"""The session behind the app: undo rules, save files, the outcome in words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.core import registry
from parlour.core.errors import NotationError, ParlourError
from parlour.core.protocol import Outcome, Side
from parlour.core.registry import get_game
from parlour.tui.session import COMPUTER, Options, Session, describe_outcome
from tests.tui.fakes import FirstMoveEngine

CHECKERS = get_game("checkers")


def against_fake(side: Side = Side.FIRST) -> Session:
    session = Session(CHECKERS, Options(side=side))
    session.options.opponent = COMPUTER
    session.engine = FirstMoveEngine()
    return session


def test_undo_between_two_players_takes_back_one_move() -> None:
    session = Session(CHECKERS, Options())
    session.play_text("11-15")
    session.play_text("23-19")
    assert session.undo() == 1
    assert session.texts == ["11-15"]
    assert session.state.turn is Side.SECOND


def test_undo_against_the_computer_takes_back_the_reply_too() -> None:
    session = against_fake()
    session.play_text("11-15")
    reply = session.choose_move(session.state.copy())
    session.push(reply)
    assert session.undo() == 2
    assert session.texts == []
    assert session.state.to_text() == CHECKERS.new_state().to_text()


def test_undo_against_the_computer_when_it_has_not_replied_yet() -> None:
    session = against_fake()
    session.play_text("11-15")
    assert session.computer_to_move()
    assert session.undo() == 1
    assert not session.computer_to_move()


def test_undo_with_nothing_to_take_back() -> None:
    with pytest.raises(ParlourError, match="there is no move to take back"):
        Session(CHECKERS, Options()).undo()


def test_no_undo_after_a_resignation() -> None:
    session = Session(CHECKERS, Options())
    session.play_text("11-15")
    session.state.resign(Side.SECOND)
    with pytest.raises(ParlourError, match="stays ended"):
        session.undo()


def test_a_missing_engine_is_said_plainly() -> None:
    # The registry's small test game has no engine entry.
    registry.register("race", registry.GameEntry(rules="tests.conformance.toygame:RACE"))
    try:
        session = Session(registry.get_game("race"), Options(opponent=COMPUTER))
        assert session.engine is None
        assert session.no_engine == "Race to ten has no computer opponent yet"
        assert not session.computer_to_move()
    finally:
        registry.unregister("race")


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    start = "W:W21,22,23:B1,2,K9"
    session = Session(CHECKERS, Options(seed=4), start=start)
    session.play_text("22-18")
    session.play_text("9-13")
    path = tmp_path / "game.json"
    session.save(path)
    record = json.loads(path.read_text())
    assert record["game"] == "checkers"
    assert record["start"] == start
    assert record["moves"] == ["22-18", "9-13"]
    assert record["options"] == {
        "opponent": "human",
        "level": None,
        "side": "first",
        "seed": 4,
        "match_length": 0,
    }
    again = Session.load(path)
    assert again.state.to_text() == session.state.to_text()
    assert again.texts == session.texts
    assert again.start_text == start
    again.undo()
    assert again.state.to_text() == "B:W18,21,23:B1,2,K9"


@pytest.mark.parametrize(
    ("contents", "message"),
    [
        ("not json", "is not a saved game"),
        ('{"kind": "something else"}', "not a Parlour saved game"),
        ('{"kind": "parlour saved game", "version": 9}', "version 9 is not known"),
        (
            '{"kind": "parlour saved game", "version": 1, "game": "checkers", '
            '"start": "B:W21:B1", "moves": ["1-6", "1-5"]}',
            "move 2 of the game, '1-5'",
        ),
        (
            '{"kind": "parlour saved game", "version": 1, "game": "checkers", '
            '"start": "B:W21:B1", "moves": [], "options": {"side": "left"}}',
            "side is 'left'",
        ),
        (
            '{"kind": "parlour saved game", "version": 1, "game": "checkers", '
            '"start": "B:W21:B1", "moves": [], "options": {"level": "high"}}',
            "level is 'high'",
        ),
        ('{"kind": "parlour saved game", "version": 1, "game": "checkers"}', "no starting"),
        (
            '{"kind": "parlour saved game", "version": 1, "game": "backgammon", '
            '"start": "4HPwATDgc/ABMA", "moves": [], '
            '"options": {"cube_rules": {"raccoons": true}}}',
            "backgammon has no rule 'raccoons'",
        ),
        (
            '{"kind": "parlour saved game", "version": 1, "game": "backgammon", '
            '"start": "4HPwATDgc/ABMA", "moves": [], '
            '"options": {"cube_rules": {"jacoby": 1}}}',
            "jacoby must be true or false",
        ),
        (
            '{"kind": "parlour saved game", "version": 1, "game": "backgammon", '
            '"start": "4HPwATDgc/ABMA", "moves": [], '
            '"options": {"cube_rules": {"max_cube": 48}}}',
            "max_cube must be a power of two",
        ),
        (
            '{"kind": "parlour saved game", "version": 1, "game": "backgammon", '
            '"start": "4HPwATDgc/ABMA", "moves": [], '
            '"options": {"match_length": 5, "cube_rules": {"beavers": true}}}',
            "beavers are for money play, not a 5-point match",
        ),
        (
            '{"kind": "parlour saved game", "version": 1, "game": "chess", '
            '"start": "8/8/8/8/8/8/8/K6k w - - 0 1", "moves": [], '
            '"options": {"cube_rules": {"max_cube": 4}}}',
            "Chess has no optional rules",
        ),
    ],
)
def test_bad_save_files_are_refused_clearly(tmp_path: Path, contents: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(contents)
    with pytest.raises(NotationError, match=message):
        Session.load(path)


def test_outcomes_in_words() -> None:
    assert describe_outcome(CHECKERS, Outcome(Side.FIRST, "no legal move")) == (
        "Black wins: no legal move (1 point)."
    )
    assert describe_outcome(CHECKERS, Outcome(None, "40-move rule", 0)) == "Draw: 40-move rule."
    assert describe_outcome(CHECKERS, Outcome(Side.SECOND, "gammon", 4)).endswith("(4 points).")

"""The terminal app playing backgammon, driven headless by clicks and keys."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from parlour.core.errors import ParlourError
from parlour.core.protocol import Outcome, Side
from parlour.core.registry import get_game
from parlour.tui.app import ParlourApp
from parlour.tui.choice import ChoiceScreen
from parlour.tui.session import COMPUTER, Options, Session
from tests.tui.drive import drive, make_app, screenshot, settle, status, type_line
from tests.tui.fakes import FirstMoveEngine

#: White (on roll, may double) has checkers on its 1 and 2 points; Black two on its 3.
RACE = "DAAAKAAAAAAAAA"
#: The opening position, White on roll before the dice, money play.
START = "4HPwATDgc/ABMA"
#: A 5-point match at 0-0, White on roll: its fifteen checkers are on its 24-point,
#: shut in behind Black's fifteen on Black's 6-point; Black owns the cube at 2.
#: White may not double, so the app rolls for it; Black would rather play on for
#: the gammon (or the backgammon) than take a single game.
SHUT_IN = "4P8PAAAAAID/Pw:EQGgAAAAAAAA"


async def play_turn_by_clicks(pilot: Pilot[Any]) -> list[str]:
    """Click the first point offered until the turn is complete, then press Enter;
    return the moves of the game after it."""
    app: Any = pilot.app
    assert app.board.turn() is not None
    while not app.board.turn()["complete"]:
        await pilot.click(first_source(app))
    await pilot.press("enter")
    await pilot.pause()
    return list(app.session.texts)


def first_source(app: Any) -> str:
    """The cell of the first checker the turn being entered may move."""
    source = app.board.sources()[0]
    return "#bar-me" if source == "bar-me" else f"#pt-{source}"


def labels(app: Any) -> list[str]:
    """The buttons shown for the choices of the moment."""
    return [str(button.label) for button in app.query("#actions Button")]


def phase(app: Any) -> str:
    return str(app.session.state.phase.value)


def test_a_race_played_to_the_end_by_clicks() -> None:
    app: Any = make_app("backgammon", start=RACE, opponent="human", seed=11)

    async def script(pilot: Pilot[None]) -> None:
        assert {"Roll", "Double", "Resign…"} <= set(labels(app))
        for _ in range(12):
            if app.session.state.is_over():
                break
            if phase(app) == "cube":
                await pilot.click("#act-roll")
                await pilot.pause()
            else:
                assert phase(app) == "play"
                screenshot(app, "backgammon-race")
                await play_turn_by_clicks(pilot)
        outcome = app.session.state.outcome()
        assert outcome is not None
        assert status(app).startswith(app.session.announce(outcome))
        assert "wins: single game (1 point)." in status(app)
        assert "next" in status(app)  # money play goes on with another game

    drive(app, script)


def test_cube_choices_and_match_score(tmp_path: Path) -> None:
    app: Any = make_app(
        "backgammon", opponent="human", seed=5, rules={"match_length": 3}, directory=tmp_path
    )

    async def script(pilot: Pilot[None]) -> None:
        assert phase(app) == "play"  # the opening throw was made by the app
        first = app.session.state.mover
        await play_turn_by_clicks(pilot)
        assert phase(app) == "cube"
        await pilot.click("#act-double")
        await pilot.pause()
        assert phase(app) == "doubled"
        assert labels(app) == ["Take", "Drop"]
        await pilot.click("#act-drop")
        await pilot.pause()
        names = app.session.game.side_names
        doubler = first.other
        assert status(app).startswith(f"{names[doubler]} wins: double refused (1 point).")
        info = str(app.query_one("#info").render())
        score = [0, 0]
        score[doubler] = 1
        assert f"Match to 3: White {score[0]}, Black {score[1]}" in info
        await pilot.click("#act-next")
        await pilot.pause()
        assert app.session.state.score == tuple(score)
        assert len(app.session.earlier) == 1
        await type_line(pilot, "export")

    drive(app, script)
    mat = (tmp_path / "parlour-backgammon.mat").read_text()
    # The date it was played, as gnubg's EventDate tag, then the match's length.
    assert re.match(r'; \[EventDate "\d{4}\.\d{2}\.\d{2}"\]\n 3 point match\n', mat)
    assert "Doubles => 2" in mat and "Drops" in mat


def test_the_cube_rules_in_play_are_shown_and_played() -> None:
    rules = {"jacoby": True, "beavers": True, "max_cube": 64}
    app: Any = make_app("backgammon", opponent="human", seed=5, rules=rules)

    async def script(pilot: Pilot[None]) -> None:
        info = str(app.query_one("#info").render())
        assert "Rules: Jacoby rule, beavers" in info
        assert "The cube goes no higher than 64." in info
        await play_turn_by_clicks(pilot)
        await pilot.click("#act-double")
        await pilot.pause()
        assert labels(app) == ["Take", "Drop", "Beaver"]

    drive(app, script)


def test_no_rules_line_when_every_cube_rule_is_off() -> None:
    app: Any = make_app("backgammon", opponent="human", seed=5)

    async def script(pilot: Pilot[None]) -> None:
        assert "Rules:" not in str(app.query_one("#info").render())

    drive(app, script)


def test_illegal_play_explained_undo_in_turn_never_a_throw(tmp_path: Path) -> None:
    app: Any = make_app("backgammon", opponent="human", seed=2, directory=tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        state = app.session.state
        before = state.to_text()
        try:
            state.copy().parse_move("24/23 24/23 24/23")
        except ParlourError as error:
            expected = f"Not allowed: {error}"
        await type_line(pilot, "24/23 24/23 24/23")
        assert status(app) == expected
        assert app.session.state.to_text() == before
        await pilot.press("f3")
        await pilot.pause()
        assert status(app) == "Cannot undo: the dice have been thrown: a throw is never taken back"
        await pilot.click(first_source(app))
        assert len(app.board.steps) == 1
        await pilot.press("f3")
        await pilot.pause()
        assert app.board.steps == []
        assert status(app) == "Checker taken back."
        played = await play_turn_by_clicks(pilot)
        assert len(played) == 2
        assert phase(app) == "cube"
        await pilot.press("f3")  # the play is taken back, the throw stays
        await pilot.pause()
        assert app.session.state.to_text() == before
        await play_turn_by_clicks(pilot)
        await pilot.press("f5")
        await pilot.pause()

    drive(app, script)
    resumed = Session.load(tmp_path / "parlour-backgammon.json")
    assert resumed.state.to_text() == app.session.state.to_text()
    assert resumed.texts == app.session.texts


def test_against_the_computer_dice_are_never_taken_back() -> None:
    session = Session(get_game("backgammon"), Options(seed=8))
    session.options.opponent = COMPUTER
    session.engine = FirstMoveEngine()
    app: Any = ParlourApp(session)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot)
        for _ in range(6):  # the person's turns; the computer answers each
            assert not session.computer_to_move()
            if phase(app) == "cube":
                assert "Double" in set(labels(app))
                await pilot.click("#act-roll")
                await pilot.pause()
            await play_turn_by_clicks(pilot)
            await settle(pilot)
            if "The computer played" in status(app):
                break
        assert "The computer played" in status(app)
        assert session.state.turn == Side.FIRST
        moves = list(session.texts)
        await pilot.press("f3")
        await pilot.pause()
        assert status(app).startswith("Cannot undo: the dice have been thrown")
        assert session.texts == moves

    drive(app, script)


def test_a_resignation_offered_and_accepted() -> None:
    app: Any = make_app("backgammon", start=RACE, opponent="human", seed=1)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.click("#act-resign")  # the button asks how much
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.click("#choice-s")
        await pilot.pause()
        assert phase(app) == "resigning"
        assert labels(app) == ["Accept", "Decline"]
        await pilot.click("#act-accept")
        await pilot.pause()
        assert status(app).startswith("Black wins: resignation")
        assert "(1 point)." in status(app)

    drive(app, script)


def test_confirm_and_take_back_buttons() -> None:
    app: Any = make_app("backgammon", opponent="human", seed=2)

    async def script(pilot: Pilot[None]) -> None:
        assert labels(app) == []
        await pilot.click(first_source(app))
        await pilot.pause()
        assert labels(app) == ["Take back"]
        await pilot.click("#act-undo")
        await pilot.pause()
        assert app.board.steps == []
        while not app.board.turn()["complete"]:
            await pilot.click(first_source(app))
        await pilot.pause()
        assert labels(app) == ["Confirm", "Take back"]
        await pilot.click("#act-confirm")
        await pilot.pause()
        assert phase(app) == "cube"
        assert labels(app) == ["Roll", "Double", "Resign…"]

    drive(app, script)


def test_computer_reply_and_hint_from_the_backgammon_engine() -> None:
    app: Any = make_app("backgammon", opponent="computer", level=1, seed=3)

    async def script(pilot: Pilot[None]) -> None:
        session = app.session
        assert session.engine is not None
        await settle(pilot)
        if phase(app) == "cube":
            await pilot.click("#act-roll")
            await settle(pilot)
        assert phase(app) == "play" and session.state.turn == Side.FIRST
        await pilot.press("f2")
        await settle(pilot)
        hint = status(app)
        assert hint.startswith("Hint: ")
        played_before = len(session.texts)
        await play_turn_by_clicks(pilot)
        await settle(pilot)
        assert "The computer played" in status(app)
        assert len(session.texts) > played_before + 2  # roll, dice, and its play
        assert session.computer_to_move() is False

    drive(app, script)


def test_a_resignation_asked_for_after_the_automatic_roll_is_offered_next_turn() -> None:
    # The cube is capped at 2 so that Black, its owner, cannot redouble either.
    rules = {"max_cube": 2}
    app: Any = make_app("backgammon", start=SHUT_IN, opponent="computer", seed=4, rules=rules)

    async def script(pilot: Pilot[None]) -> None:
        session = app.session
        await settle(pilot)
        assert session.texts[0] == "roll", "White may not double: the dice were thrown for it"
        assert phase(app) == "play"
        await pilot.press("f7")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("s")
        await pilot.pause()
        assert app.held_resignation == (Side.FIRST, "resign single")
        assert status(app) == (
            "You will offer 'resign single' at the start of your next turn, before the dice "
            "are thrown (F7 to withdraw)."
        )
        await play_turn_by_clicks(pilot)
        await settle(pilot)
        texts = session.texts
        offered = texts.index("resign single")
        before = session.game.state_from_text(session.start_text)
        for text in texts[:offered]:
            before.play(text)
        assert before.phase.value == "cube" and before.turn is Side.FIRST
        assert texts[offered + 1] == "decline", "Black plays on for the gammon"
        assert texts[offered + 2] == "roll", "and the dice are thrown for White again"
        assert not session.state.is_over()
        assert app.held_resignation is None

    drive(app, script)


@pytest.mark.parametrize(("rules", "points"), [({}, 2), ({"jacoby": True}, 1)])
def test_a_gammon_offer_the_engine_accepts_ends_the_game(
    rules: dict[str, Any], points: int
) -> None:
    app: Any = make_app("backgammon", start=START, opponent="computer", seed=1, rules=rules)

    async def script(pilot: Pilot[None]) -> None:
        session = app.session
        await settle(pilot)
        assert phase(app) == "cube", "White may double: nothing is thrown for it"
        await pilot.press("f7")
        await pilot.pause()
        await pilot.click("#choice-g")
        await settle(pilot)
        assert session.texts == ["resign gammon", "accept"]
        reason = "resignation (gammon accepted)"
        assert session.state.outcome() == Outcome(Side.SECOND, reason, points)
        assert status(app).startswith(f"Black wins: {reason} ({points} point")

    drive(app, script)


def test_between_two_people_a_held_offer_is_answered_by_the_other() -> None:
    rules = {"max_cube": 1}  # nobody may double: every roll is thrown by the app
    app: Any = make_app("backgammon", start=START, opponent="human", seed=3, rules=rules)

    async def script(pilot: Pilot[None]) -> None:
        session = app.session
        assert phase(app) == "play" and session.state.turn is Side.FIRST
        await pilot.press("f7")
        await pilot.press("b")
        await pilot.pause()
        assert app.held_resignation == (Side.FIRST, "resign backgammon")
        await pilot.press("f7")
        await pilot.press("w")
        await pilot.pause()
        assert app.held_resignation is None
        assert status(app) == "The offer to resign is withdrawn."
        await type_line(pilot, "resign single")  # typed, it is held just the same
        assert app.held_resignation == (Side.FIRST, "resign single")
        assert "Held: White will offer 'resign single'" in str(app.query_one("#info").render())
        await play_turn_by_clicks(pilot)
        # mypy keeps the turn narrowed past the clicks (python/mypy#9005)
        assert phase(app) == "play" and session.state.turn is Side.SECOND  # type: ignore[comparison-overlap]
        await play_turn_by_clicks(pilot)
        assert phase(app) == "resigning"
        assert labels(app) == ["Accept", "Decline"]
        await pilot.click("#act-decline")
        await pilot.pause()
        assert session.texts[-4:-2] == ["resign single", "decline"]
        assert phase(app) == "play" and session.state.turn is Side.FIRST
        assert not session.state.is_over()

    drive(app, script)


def test_resigning_can_be_cancelled() -> None:
    app: Any = make_app("backgammon", start=START, opponent="human", seed=3)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("f7")
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ChoiceScreen)
        assert app.session.texts == []
        assert app.held_resignation is None
        assert status(app) == "Not resigning: play on."

    drive(app, script)


def test_the_computers_answers_read_as_sentences() -> None:
    from parlour.tui.app import _computer_says

    assert _computer_says("decline") == "The computer declines the resignation: play on."
    assert _computer_says("take") == "The computer takes."
    assert _computer_says("resign gammon") == "The computer offers to resign a gammon."
    assert _computer_says("13/9 6/5") == "The computer played 13/9 6/5."


def test_a_roll_and_its_dice_are_said_in_words() -> None:
    app: Any = make_app("backgammon", start=START, opponent="human", seed=3)

    async def script(pilot: Pilot[None]) -> None:
        assert phase(app) == "cube"
        await pilot.click("#act-roll")
        await pilot.pause()
        dice = app.session.state.dice
        assert status(app) == f"White rolls.  White rolled {dice[0]}-{dice[1]}."

    drive(app, script)

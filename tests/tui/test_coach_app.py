"""The coach in the terminal app: a finished game analysed on a screen of its own,
and the tutor putting a blunder to the player before it is played."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from parlour.core.registry import get_game
from parlour.tui.analysis import AnalysisScreen
from parlour.tui.app import ParlourApp
from parlour.tui.choice import ChoiceScreen
from parlour.tui.session import Options, Session
from tests.tui.drive import drive, settle, status, type_line


def two_players(tutor: str = "") -> ParlourApp:
    session = Session(get_game("chess"), Options(opponent="human"))
    return ParlourApp(session, directory=Path("/tmp"), tutor=tutor)


def test_a_finished_game_is_analysed_on_its_own_screen() -> None:
    app = two_players()

    async def script(pilot: Pilot[None]) -> None:
        for move in ("f3", "e5", "g4", "Qh4#"):
            await type_line(pilot, move)
        assert app.session.state.is_over()
        await type_line(pilot, "analyse")
        await settle(pilot)
        for _ in range(100):
            if isinstance(app.screen, AnalysisScreen):
                break
            await pilot.pause(0.1)
        assert isinstance(app.screen, AnalysisScreen)
        text = str(app.screen.query_one("#analysis", Static).render())
        assert "g4??" in text and "blunder" in text and "better:" in text
        assert "White (White): accuracy" in text and "1 blunder" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, AnalysisScreen)

    drive(app, script)


def test_the_coach_waits_for_the_end_of_the_game() -> None:
    app = two_players()

    async def script(pilot: Pilot[None]) -> None:
        await type_line(pilot, "e4")
        await type_line(pilot, "analyse")
        assert "once it is over" in status(app)

    drive(app, script)


def test_the_tutor_puts_a_blunder_to_the_player_first() -> None:
    app = two_players(tutor="blunder")

    async def script(pilot: Pilot[None]) -> None:
        for move in ("e4", "e5", "Qh5", "Nc6", "Bc4"):
            await type_line(pilot, move)
            await settle(pilot)
        assert len(app.session.state.move_stack) == 5  # sound moves pass unremarked
        await type_line(pilot, "Nf6")  # allows Qxf7#
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        assert "Nf6 looks like a blunder" in app.screen.question
        await pilot.press("h")  # the hint, and the question again
        await pilot.pause()
        assert "The tutor suggests" in status(app)
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("t")  # think again: not played
        await pilot.pause()
        assert len(app.session.state.move_stack) == 5
        await type_line(pilot, "Nf6")
        await settle(pilot)
        await pilot.press("p")  # play anyway
        await pilot.pause()
        assert len(app.session.state.move_stack) == 6

    drive(app, script)

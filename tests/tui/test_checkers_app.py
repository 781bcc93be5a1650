"""The terminal app playing checkers, driven headless by key presses and clicks."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.pilot import Pilot

from parlour.core.registry import get_game
from parlour.tui.app import ParlourApp
from parlour.tui.session import COMPUTER, Options, Session
from tests.tui.drive import drive, make_app, screenshot, settle, status, type_line
from tests.tui.fakes import FirstMoveEngine


def test_moves_by_click_and_by_typing() -> None:
    app = make_app("checkers", opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        await pilot.click("#sq-11")
        assert app.board.targets() == {"15", "16"}  # type: ignore[attr-defined]
        assert "target" in app.query_one("#sq-15").classes
        await pilot.click("#sq-15")
        await pilot.pause()
        await type_line(pilot, "24-19")
        assert app.session.texts == ["11-15", "24-19"]
        assert "last" in app.query_one("#sq-19").classes
        assert "White" not in str(app.query_one("#caption").render())
        screenshot(app, "checkers-opening")

    drive(app, script)


def test_illegal_attempt_is_explained_and_changes_nothing() -> None:
    app = make_app("checkers", opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        await type_line(pilot, "11-15")
        await type_line(pilot, "24-19")
        before = app.session.state.to_text()
        await type_line(pilot, "9-13")
        assert status(app) == "Not allowed: a capture is available: 15x24 must be played"
        assert app.query_one("#status").has_class("error")
        await pilot.click("#sq-9")  # the same rule when the piece is clicked
        assert "a capture is available: 15x24" in status(app)
        await type_line(pilot, "12-17")
        assert "Not allowed" in status(app)
        assert app.session.state.to_text() == before
        assert app.session.texts == ["11-15", "24-19"]
        await pilot.click("#sq-15")
        await pilot.click("#sq-24")
        assert app.session.texts == ["11-15", "24-19", "15x24"]

    drive(app, script)


def test_multi_jump_by_landing_squares_in_turn_or_by_its_last_square() -> None:
    app = make_app("checkers", start="B:W6,15:B1", opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        await pilot.click("#sq-1")
        await pilot.click("#sq-10")
        assert app.session.texts == []  # the jump must go on
        assert "jump on" in status(app)
        await pilot.click("#sq-19")
        assert app.session.texts == ["1x10x19"]
        assert status(app) == "Black wins: no pieces left (1 point)."
        assert app.query_one("#status").has_class("over")
        screenshot(app, "checkers-won")
        await pilot.press("f3")
        await pilot.pause()
        assert app.session.texts == []
        await pilot.click("#sq-1")
        await pilot.click("#sq-19")  # only one jump ends there
        assert app.session.texts == ["1x10x19"]

    drive(app, script)


def test_undo_takes_back_one_move_between_two_players() -> None:
    app = make_app("checkers", opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        await type_line(pilot, "11-15")
        await type_line(pilot, "23-18")
        await pilot.press("f3")
        await pilot.pause()
        assert app.session.texts == ["11-15"]
        assert app.session.state.to_text().startswith("W:")
        await type_line(pilot, "undo")
        await type_line(pilot, "undo")
        assert app.session.texts == []
        assert status(app) == "Cannot undo: there is no move to take back"
        await type_line(pilot, "resign")
        await pilot.press("r")  # yes: resign the game
        await pilot.pause()
        assert status(app) == "White wins: resignation (1 point)."
        await type_line(pilot, "undo")
        assert "stays ended" in status(app)

    drive(app, script)


def test_save_and_resume_restore_the_exact_position(tmp_path: Path) -> None:
    app = make_app("checkers", opponent="human", directory=tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        for move in ("11-15", "24-19", "15x24", "28x19"):
            await type_line(pilot, move)
        await pilot.press("f5")
        await pilot.pause()
        assert "Saved to" in status(app)

    drive(app, script)
    saved = tmp_path / "parlour-checkers.json"
    resumed = Session.load(saved)
    assert resumed.state.to_text() == app.session.state.to_text()
    assert resumed.texts == ["11-15", "24-19", "15x24", "28x19"]
    again = make_app("checkers")
    again.session = resumed
    again.board.session = resumed

    async def check(pilot: Pilot[None]) -> None:
        assert "Black to play" in str(again.query_one("#caption").render())
        await type_line(pilot, "8-11")
        assert again.session.texts[-1] == "8-11"

    drive(again, check)


def test_export_pdn(tmp_path: Path) -> None:
    app = make_app("checkers", opponent="human", directory=tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        await type_line(pilot, "11-15")
        await type_line(pilot, "24-19")
        await pilot.press("f6")
        await pilot.pause()

    drive(app, script)
    text = (tmp_path / "parlour-checkers.pdn").read_text()
    assert '[GameType "21"]' in text
    assert "1. 11-15 24-19 *" in text


def test_computer_turn_runs_in_a_worker_and_undo_takes_back_both() -> None:
    session = Session(get_game("checkers"), Options(opponent="human"))
    session.options.opponent = COMPUTER
    engine = session.engine = FirstMoveEngine()
    engine.gate.clear()
    app = ParlourApp(session)

    async def script(pilot: Pilot[None]) -> None:
        await type_line(pilot, "11-15")
        assert app.thinking
        assert "thinking" in str(app.query_one("#caption").render())
        await type_line(pilot, "9-13")  # the screen answers while the computer thinks
        assert status(app) == "wait: the computer is to move"
        engine.gate.set()
        await settle(pilot)
        assert app.session.texts == ["11-15", "21-17"]
        assert status(app) == "The computer played 21-17."
        await pilot.press("f2")
        await settle(pilot)
        assert status(app) == "Hint: 7-11 (first of the legal moves)"
        await pilot.press("f3")
        await pilot.pause()
        assert app.session.texts == []
        assert status(app) == "Took back your move and the computer's reply."

    drive(app, script)


def test_help_screen_lists_the_keys() -> None:
    app = make_app("checkers", opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("f1")
        await pilot.pause()
        text = str(app.screen.query_one("#help-text").render())
        for words in ("F2   a hint", "F3      undo", "F4   flip", "save [FILE]", "export"):
            assert words in text
        await pilot.press("escape")
        await pilot.pause()
        assert not app.screen.query("#help-text")

    drive(app, script)


def test_a_small_terminal_gets_the_small_board() -> None:
    app = make_app("checkers", opponent="human")

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.board.compact
            region = app.board.region
            assert region.bottom <= 24 - 5 and region.right <= 80  # input and keys below
            assert str(app.query_one("#sq-13").render()).strip() == "13"
            await pilot.click("#sq-11")
            await pilot.click("#sq-15")
            assert app.session.texts == ["11-15"]
            assert str(app.query_one("#sq-15").render()).strip() == "● 15"
            screenshot(app, "checkers-small-terminal")

    asyncio.run(main())

"""The terminal app playing chess, driven headless by key presses and clicks."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Button

from parlour.core.protocol import Side
from parlour.tui.app import ParlourApp
from parlour.tui.choice import ChoiceScreen
from parlour.tui.session import Session
from tests.tui.drive import drive, make_app, screenshot, settle, status, type_line


def test_scholars_mate_by_clicks_and_typing(tmp_path: Path) -> None:
    app = make_app("chess", opponent="human", directory=tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.click("#sq-e2")
        assert app.board.targets() == {"e3", "e4"}  # type: ignore[attr-defined]
        assert app.query_one("#sq-e4").has_class("target")
        await pilot.click("#sq-e4")
        for move in ("e5", "Bc4", "Nc6", "Qh5", "Nf6"):
            await type_line(pilot, move)
        assert app.session.texts == ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"]
        await pilot.click("#sq-h5")
        await pilot.click("#sq-f7")
        assert app.session.texts[-1] == "Qxf7#"
        assert status(app) == "White wins: checkmate (1 point)."
        assert app.query_one("#sq-e8").has_class("check")
        assert app.query_one("#sq-f7").has_class("last")
        screenshot(app, "chess-mate")
        await pilot.press("f6")
        await pilot.pause()

    drive(app, script)
    pgn = (tmp_path / "parlour-chess.pgn").read_text()
    assert '[Result "1-0"]' in pgn
    assert "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0" in pgn


def test_illegal_attempts_are_explained_and_change_nothing() -> None:
    app = make_app("chess", opponent="computer", level=1, seed=1)

    async def script(pilot: Pilot[None]) -> None:
        assert app.session.engine is not None
        await pilot.press("f2")
        await settle(pilot)
        legal = {app.session.state.move_to_text(m) for m in app.session.state.legal_moves()}
        hint = status(app)
        assert hint.startswith("Hint: ") and hint.split()[1] in legal
        assert hint.endswith(")")  # the engine's assessment, in words, in brackets
        before = app.session.state.to_text()
        await type_line(pilot, "Ke2")
        assert status(app) == "Not allowed: you cannot capture your own piece"
        await pilot.click("#sq-e2")
        await pilot.click("#sq-e5")  # a click the rules refuse, with their reason
        assert status(app) == "Not allowed: a pawn cannot move like that"
        await type_line(pilot, "Zz9")
        assert status(app).startswith("Not allowed: ")
        assert app.session.state.to_text() == before
        assert app.session.texts == []
        await type_line(pilot, "e4")
        await settle(pilot)
        assert len(app.session.texts) == 2, "the computer answers"
        assert status(app) == f"Played e4.  The computer played {app.session.texts[1]}."

    drive(app, script)


def test_flip_undo_and_resume(tmp_path: Path) -> None:
    app = make_app("chess", opponent="human", directory=tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        await type_line(pilot, "d4")
        await type_line(pilot, "d5")
        await type_line(pilot, "c4")
        await pilot.press("f4")
        await pilot.pause()
        assert app.board.flipped
        await pilot.click("#sq-d5")
        await pilot.click("#sq-c4")
        assert app.session.texts[-1] == "dxc4"
        screenshot(app, "chess-flipped")
        await pilot.press("f3")
        await pilot.pause()
        assert app.session.texts == ["d4", "d5", "c4"]
        await pilot.press("f5")
        await pilot.pause()

    drive(app, script)
    resumed = Session.load(tmp_path / "parlour-chess.json")
    assert resumed.state.to_text() == app.session.state.to_text()
    assert resumed.texts == ["d4", "d5", "c4"]


#: White's pawn on a7 may promote on a8 or, capturing the rook, on b8.
PROMOTION = "1r6/P6k/8/8/8/8/8/K7 w - - 0 1"


def choices(app: ParlourApp) -> list[str]:
    """The buttons of the question on top of the board."""
    return [str(button.label) for button in app.screen.query(Button)]


def test_under_promotion_to_a_knight_by_clicks() -> None:
    app = make_app("chess", start=PROMOTION, opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        await pilot.click("#sq-a7")
        await pilot.click("#sq-b8")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert choices(app) == ["Queen (q)", "Rook (r)", "Bishop (b)", "Knight (n)"]
        assert app.session.texts == [], "nothing is played before the piece is chosen"
        screenshot(app, "chess-promotion")
        await pilot.click("#choice-n")
        await pilot.pause()
        assert not isinstance(app.screen, ChoiceScreen)
        assert app.session.texts == ["axb8=N"]
        assert str(app.session.state.move_stack[-1]) == "a7b8n"

    drive(app, script)


def test_promotion_chosen_by_its_key() -> None:
    app = make_app("chess", start=PROMOTION, opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        await pilot.click("#sq-a7")
        await pilot.click("#sq-a8")
        await pilot.press("r")
        await pilot.pause()
        assert app.session.texts == ["a8=R"]

    drive(app, script)


def test_a_cancelled_promotion_changes_nothing() -> None:
    app = make_app("chess", start=PROMOTION, opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        await pilot.click("#sq-a7")
        await pilot.click("#sq-a8")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ChoiceScreen)
        assert app.session.texts == []
        assert app.session.state.to_text() == PROMOTION
        assert app.board.path == []
        assert status(app) == "promotion cancelled: the pawn stays where it was"
        await pilot.click("#sq-a7")  # and the pawn may still be moved
        await pilot.click("#sq-a8")
        await pilot.press("q")
        await pilot.pause()
        assert app.session.texts == ["a8=Q"]

    drive(app, script)


def test_f7_resigns_after_asking() -> None:
    app = make_app("chess", opponent="computer", level=1, side=Side.SECOND)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot)  # the computer, White, opens
        await pilot.press("f7")
        await pilot.pause()
        assert choices(app) == ["Resign the game (r)"]
        await pilot.press("escape")
        await pilot.pause()
        assert not app.session.state.is_over()
        await pilot.press("f7")
        await pilot.press("r")
        await pilot.pause()
        assert status(app) == "White wins: resignation (1 point)."

    drive(app, script)


def test_after_the_end_a_move_or_a_hint_is_told_the_game_is_over() -> None:
    # Fool's mate: White is checkmated; the game is over.
    mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    app = make_app("chess", start=mated, opponent="computer")

    async def script(pilot: Pilot[None]) -> None:
        assert app.session.state.is_over()
        await type_line(pilot, "e4")
        assert status(app) == "Not allowed: the game is over"
        await pilot.press("f2")
        await pilot.pause()
        assert status(app) == "the game is over: there is no move to hint at"

    drive(app, script)


def test_typed_resign_and_draw_ask_first_and_moves_lists_the_legal_moves() -> None:
    app = make_app("chess", opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        await type_line(pilot, "moves")
        assert status(app).startswith("Legal moves: ")
        assert "e4" in status(app) and "Nf3" in status(app)
        await type_line(pilot, "resign")
        assert isinstance(app.screen, ChoiceScreen), "a typed resign asks, as F7 does"
        await pilot.press("escape")
        await pilot.pause()
        assert not app.session.state.is_over()
        await type_line(pilot, "draw")
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("n")
        await pilot.pause()
        assert status(app) == "No draw: play on." and not app.session.state.is_over()
        await type_line(pilot, "draw")
        await pilot.press("y")
        await pilot.pause()
        outcome = app.session.state.outcome()
        assert outcome is not None and outcome.winner is None

    drive(app, script)

"""The coach in the terminal app: a finished game analysed on a screen of its own,
and the tutor putting a blunder to the player before it is played."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from parlour.chess.rules import ChessState
from parlour.core.registry import get_game
from parlour.tui.analysis import AnalysisScreen
from parlour.tui.app import ParlourApp
from parlour.tui.backgammon_board import BackgammonBoard
from parlour.tui.board import Cell
from parlour.tui.choice import ChoiceScreen
from parlour.tui.session import Options, Session
from tests.tui.drive import drive, settle, status, type_line


def two_players(tutor: str = "") -> ParlourApp:
    session = Session(get_game("chess"), Options(opponent="human"))
    return ParlourApp(session, directory=Path("/tmp"), tutor=tutor)


def plies(app: ParlourApp) -> int:
    """The moves played in the app's chess game."""
    state = app.session.state
    assert isinstance(state, ChessState)
    return len(state.move_stack)


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
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        moves = screen.query_one("#analysis-moves", OptionList)
        lines = [str(moves.get_option_at_index(n).prompt) for n in range(moves.option_count)]
        assert [line.split()[2].rstrip("?!") for line in lines] == ["f3", "e5", "g4", "Qh4#"]
        assert "blunder" in lines[2] and "better:" in lines[2]
        summary = str(screen.query_one("#analysis-summary", Static).render())
        assert "White (White): accuracy" in summary and "1 blunder" in summary
        # The cursor starts on the first mistake (f3 may be an inaccuracy); Home and
        # Down step to the blunder, and the board shows the position before it: g4
        # played (g2 to g4), and the better move.
        first = next(n for n, move in enumerate(screen.review.moves) if move.judgement)
        assert moves.highlighted == first
        await pilot.press("home", "down", "down")
        await pilot.pause()
        assert moves.highlighted == 2
        board = screen.board
        assert board.session.state.to_text().startswith("rnbqkbnr/pppp1ppp/8/4p3/8/5P2/")
        marked = {cell.key for cell in board.query(Cell) if cell.has_class("played")}
        assert marked == {"g2", "g4"}
        better = {cell.key for cell in board.query(Cell) if cell.has_class("better")}
        best = screen.review.moves[2].best
        assert len(better) == 2 and better != marked
        caption = str(screen.query_one("#analysis-move", Static).render())
        assert caption.startswith("3. White: g4") and f"Better: {best}" in caption
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
        assert plies(app) == 5  # sound moves pass unremarked
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
        assert plies(app) == 5
        await type_line(pilot, "Nf6")
        await settle(pilot)
        await pilot.press("p")  # play anyway
        await pilot.pause()
        assert plies(app) == 6

    drive(app, script)


def test_a_backgammon_play_is_marked_by_its_points() -> None:
    board = BackgammonBoard(Session(get_game("backgammon"), Options()))
    assert board.cells_of("24/18 13/11*") == {24, 18, 13, 11}
    assert board.cells_of("8/5(2) 6/5(2)") == {8, 5, 6}
    assert board.cells_of("bar/22/16 6/off") == {"bar-me", 22, 16, 6, "off-me"}

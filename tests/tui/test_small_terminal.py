"""The terminal app at 80x24, the smallest usual terminal: every key in the footer,
the help inside the screen, every board and panel whole; and the two sides told apart
by shape, not by colour alone. Backgammon between two people is numbered for the
player to move."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from parlour.tui.app import HELP_TEXT, ParlourApp
from parlour.tui.backgammon_board import BackgammonBoard
from tests.tui.drive import make_app, screenshot, type_line

SMALL = (80, 24)


def run_small(app: ParlourApp, script: Any) -> None:
    async def main() -> None:
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def inside(app: ParlourApp, region: Region) -> bool:
    width, height = SMALL
    return region.x >= 0 and region.y >= 0 and region.right <= width and region.bottom <= height


@pytest.mark.parametrize("game", ["chess", "checkers", "backgammon"])
def test_every_key_board_and_panel_fits_in_80_by_24(game: str) -> None:
    app = make_app(game, opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        keys = list(app.query(FooterKey))
        shown = {key.description for key in keys if inside(app, key.region)}
        assert {"Quit", "Help", "Hint", "Undo", "Flip", "Save", "Export", "Resign"} <= shown
        # None is drawn over another (the command palette's key once hid Resign).
        ordered = sorted(keys, key=lambda key: key.region.x)
        for left, right in itertools.pairwise(ordered):
            assert left.region.right <= right.region.x, (left.description, right.description)
        for part in ("#board", "#caption", "#info", "#moves-box", "#status", "#entry"):
            region = app.query_one(part).region
            assert region.width > 0 and inside(app, region), part
        assert app.board.region.right <= app.query_one("#side").region.x
        screenshot(app, f"{game}-80x24")

    run_small(app, script)


def test_the_help_fits_inside_80_columns_without_wrapping() -> None:
    app = make_app("chess", opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("f1")
        await pilot.pause()
        box = app.screen.query_one("#help-text", Static)
        assert isinstance(box.parent, Widget)
        assert inside(app, box.parent.region)
        # Each line of the help is one line on screen: none wraps into orphan words.
        assert box.region.height == HELP_TEXT.count("\n") + 1
        assert box.region.width >= max(len(line) for line in HELP_TEXT.splitlines()) - 8

    run_small(app, script)


def test_chess_sides_differ_in_shape() -> None:
    app = make_app("chess", opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        for white, black in (("e1", "e8"), ("d1", "d8"), ("a2", "a7"), ("b1", "b8")):
            ours = str(app.query_one(f"#sq-{white}").render()).strip()
            theirs = str(app.query_one(f"#sq-{black}").render()).strip()
            assert ours and theirs and ours != theirs
        assert str(app.query_one("#sq-e1").render()).strip() == "♔"
        assert str(app.query_one("#sq-e8").render()).strip() == "♚"

    run_small(app, script)


def test_checkers_small_board_shows_pieces_with_their_numbers() -> None:
    app = make_app("checkers", start="B:WK5,21:BK28,1", opponent="human")

    async def script(pilot: Pilot[None]) -> None:
        shown = {key: str(app.query_one(f"#sq-{key}").render()) for key in ("1", "21", "5", "28")}
        assert shown == {"1": "●  1", "21": "○ 21", "5": "♕  5", "28": "♛ 28"}
        assert str(app.query_one("#sq-13").render()) == "  13"

    run_small(app, script)


def test_backgammon_checkers_carry_letters_and_black_reads_its_own_numbers() -> None:
    # Black won the opening throw 5-1: Black moves, at one keyboard.
    app = make_app("backgammon", opponent="human", seed=1)

    async def script(pilot: Pilot[None]) -> None:
        state = app.session.state
        assert isinstance(app.board, BackgammonBoard)
        assert app.session.texts == ["15"] and app.board.viewer().name == "SECOND"
        # The board is numbered for Black: Black's (X) five checkers stand on its 6.
        six = str(app.query_one("#pt-6").render())
        assert six.count("X") == 5 and "O" not in six
        assert str(app.query_one("#pt-19").render()).count("O") == 5
        # Black types in the numbers it sees.
        await type_line(pilot, "13/8 6/5")
        assert app.session.texts[-1] == "13/8 6/5", app.session.texts
        assert state is app.session.state
        # Flipping the board keeps the numbering of the player to move.
        await pilot.press("f4")
        await pilot.pause()
        assert str(app.query_one("#pt-6").render()).count("O") == 5  # White's turn now

    run_small(app, script)

"""An automated accessibility check (axe-core, from the npm registry, test-only: run
in the page by the test): no serious or critical violation on the home page or on a
game page of each game."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.web.helpers import settle, start_game, violations, wait_for_version


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_home_page_has_no_serious_violation(checked: Page, scheme: str) -> None:
    checked.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    checked.goto("/")
    checked.get_by_test_id("chess-start").wait_for()
    assert violations(checked) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("game", ["chess", "checkers", "backgammon"])
def test_a_game_page_has_no_serious_violation(checked: Page, game: str, scheme: str) -> None:
    checked.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    start_game(checked, game, "computer")
    assert violations(checked) == []


def test_moves_are_announced_and_typed_moves_are_completed(checked: Page) -> None:
    """A screen reader hears each move and whose turn it is (a polite live region),
    and the move box offers the legal moves as one types."""
    start_game(checked, "chess", "local")
    announcer = checked.get_by_test_id("announce")
    assert announcer.get_attribute("aria-live") == "polite"
    expect(announcer).to_contain_text("White to play")
    offered = checked.locator("#legal-moves option")
    expect(offered).to_have_count(20)  # the twenty first moves of chess
    assert "Nf3" in [option.get_attribute("value") for option in offered.all()]
    assert checked.get_by_test_id("move-input").get_attribute("list") == "legal-moves"
    field = checked.get_by_test_id("move-input")
    for number, (move, after) in enumerate((("e4", "White: e4."), ("f5", "Black: f5.")), 1):
        field.fill(move)
        field.press("Enter")
        wait_for_version(checked, number)
        expect(announcer).to_contain_text(after)
    field.fill("Qh5+")
    field.press("Enter")
    wait_for_version(checked, 3)
    expect(announcer).to_contain_text("White: Qh5+.")
    expect(announcer).to_contain_text("in check")


def test_the_position_is_described_in_words_on_demand(checked: Page) -> None:
    """A text view of the position, as lichess's blind mode has: each side's pieces
    by square, following the game and a position looked back at."""
    start_game(checked, "chess", "local")
    description = checked.get_by_test_id("description")
    expect(description).to_be_hidden()
    checked.get_by_test_id("describe").click()
    expect(description).to_contain_text("White: king e1; queen d1; rooks a1, h1;")
    expect(description).to_contain_text("pawns a7, b7, c7, d7, e7, f7, g7, h7.")
    field = checked.get_by_test_id("move-input")
    for number, move in enumerate(("e4", "e5"), start=1):
        field.fill(move)
        field.press("Enter")
        wait_for_version(checked, number)
    expect(description).to_contain_text("pawns a2, b2, c2, d2, e4, f2, g2, h2.")
    expect(description).to_contain_text("pawns a7, b7, c7, d7, e5, f7, g7, h7.")
    checked.evaluate("document.activeElement.blur()")  # the arrows look back from the page
    checked.keyboard.press("ArrowLeft")  # back to the position after 1. e4
    expect(description).to_contain_text("pawns a7, b7, c7, d7, e7, f7, g7, h7.")
    assert checked.get_by_test_id("describe").get_attribute("aria-expanded") == "true"

    start_game(checked, "checkers", "local")
    checked.get_by_test_id("describe").click()
    expect(checked.get_by_test_id("description")).to_contain_text(
        "Black: men on 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12."
    )


def test_chess_and_checkers_are_played_by_keyboard(checked: Page) -> None:
    """The board takes the focus: the arrow keys move over the squares, each said
    to a screen reader, Enter picks a piece up and puts it down; the page's own
    arrow keys (looking back) leave the board's alone."""
    start_game(checked, "chess", "local")
    board = checked.locator("#board svg")
    announcer = checked.get_by_test_id("announce")
    board.focus()
    checked.keyboard.press("ArrowUp")  # from a1, the first square
    expect(announcer).to_have_text("a2: White pawn")
    checked.keyboard.press("Enter")
    checked.keyboard.press("ArrowUp")
    checked.keyboard.press("ArrowUp")
    expect(announcer).to_have_text("a4: empty")
    checked.keyboard.press("Enter")
    wait_for_version(checked, 1)
    expect(checked.get_by_test_id("moves")).to_contain_text("a4")
    expect(checked.get_by_test_id("review")).to_be_hidden()  # the arrows moved the cursor
    # The board kept the focus through the redraw: Black answers at once.
    for key in ("ArrowUp", "ArrowUp", "ArrowUp", "Enter", "ArrowDown", "ArrowDown", "Enter"):
        checked.keyboard.press(key)
    wait_for_version(checked, 2)
    expect(checked.get_by_test_id("moves")).to_contain_text("a5")

    start_game(checked, "checkers", "local")
    checked.locator("#board svg").focus()
    # At one screen Black, to move, plays up from the bottom: its man on 12 is two
    # rows up from the bottom-left corner.
    checked.keyboard.press("ArrowUp")
    checked.keyboard.press("ArrowUp")
    expect(announcer).to_have_text("12: Black man")
    checked.keyboard.press("Enter")
    checked.keyboard.press("ArrowUp")
    expect(announcer).to_have_text("a light square")
    checked.keyboard.press("ArrowRight")
    expect(announcer).to_have_text("16: empty")
    checked.keyboard.press("Enter")
    wait_for_version(checked, 1)
    expect(checked.get_by_test_id("moves")).to_contain_text("12-16")


def test_backgammon_is_played_by_keyboard(checked: Page) -> None:
    """The backgammon board takes the focus too: the arrows move along the bar, the
    points and the tray (each said), Enter picks a checker up and puts it down."""
    start_game(checked, "backgammon", "local")
    board = checked.locator("#board")
    expect(board).to_have_attribute("data-mine", "1")
    if board.get_attribute("data-phase") == "cube":
        checked.get_by_test_id("bg-roll").click()
        wait_for_version(checked, 2)
    svg_board = checked.locator("#board svg")
    svg_board.focus()
    cursor = checked.locator("#board .cursor")
    announcer = checked.get_by_test_id("announce")

    def go_to(place: str) -> None:
        for key in ("ArrowRight",) * 26 + ("ArrowLeft",) * 26:
            if cursor.get_attribute("data-cursor") == place:
                return
            checked.keyboard.press(key)
        assert cursor.get_attribute("data-cursor") == place

    checked.keyboard.press("ArrowLeft")  # to the bar, from the first point
    expect(announcer).to_have_text("the bar: empty")
    source = (board.get_attribute("data-sources") or "").split(",")[0]
    go_to(source)
    expect(announcer).to_contain_text("checker")
    checked.keyboard.press("Enter")
    settle(checked)  # a checker with one way to go has moved (its step asked of the server)
    if board.get_attribute("data-steps") == "0":  # several ways to go: pick where
        target = checked.locator("#board .dest-area").first.get_attribute("data-dest")
        assert target is not None
        go_to(target)
        checked.keyboard.press("Enter")
    expect(board).to_have_attribute("data-steps", "1")

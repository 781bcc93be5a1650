"""The boards on a phone: the page fits a narrow screen without sideways scrolling,
the board is drawn at the screen's full width, and moves are made by tapping."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.helpers import (
    settle,
    shoot,
    square,
    start_game,
    version,
    wait_for_version,
    wait_my_turn,
)


def fits_the_screen(page: Page) -> None:
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    board = page.locator("#board svg").bounding_box()
    assert board is not None
    assert board["x"] >= 0 and board["x"] + board["width"] <= width
    assert board["width"] >= 0.85 * width, "the board should use the screen's width"


def tap_square(page: Page, name: str) -> None:
    x, y = square(page, name)
    page.touchscreen.tap(x, y)


def test_chess_by_taps(phone: Page) -> None:
    start_game(phone, "chess", "computer", side=0)
    fits_the_screen(phone)
    before = version(phone)
    tap_square(phone, "e2")
    expect(phone.locator("#board .dest")).to_have_count(2)  # e3 and e4 are marked
    tap_square(phone, "e4")
    wait_for_version(phone, before + 1)
    expect(phone.get_by_test_id("moves")).to_contain_text("e4")
    wait_my_turn(phone)  # the computer has answered
    shoot(phone, "chess-phone")


def test_backgammon_by_taps(phone: Page) -> None:
    start_game(phone, "backgammon", "local")
    fits_the_screen(phone)
    # The board spans the screen and its frame is thin: a point is a fair target for
    # a finger (it was 22 px wide on this screen).
    point = phone.locator('#board .hit-area[data-point="6"]').bounding_box()
    assert point is not None and point["width"] >= 26, point
    board_box = phone.locator("#board svg").bounding_box()
    assert board_box is not None and board_box["width"] >= 389, board_box
    board = phone.locator("#board")
    wait_my_turn(phone)
    if board.get_attribute("data-phase") == "cube":
        before = version(phone)
        phone.get_by_test_id("bg-roll").tap()
        wait_for_version(phone, before + 1)
    confirm = phone.get_by_test_id("bg-confirm")
    for _ in range(4):
        if confirm.is_enabled():
            break
        steps = board.get_attribute("data-steps")
        source = (board.get_attribute("data-sources") or "").split(",")[0]
        phone.locator(f'#board .hit-area[data-point="{source}"]').tap(force=True)
        phone.wait_for_timeout(400)  # a lone tap waits to see whether a second follows
        settle(phone)
        if board.get_attribute("data-steps") == steps:
            target = phone.locator("#board .dest-area").first
            phone.locator(
                f'#board .hit-area[data-point="{target.get_attribute("data-dest")}"]'
            ).tap(force=True)
            settle(phone)
        expect(board).not_to_have_attribute("data-steps", steps or "0")
    mover = phone.get_by_test_id("status").inner_text().split()[0]  # "White to play"
    play = confirm.inner_text().removeprefix("Confirm ")
    before = version(phone)
    confirm.tap()
    wait_for_version(phone, before + 1)
    expect(phone.get_by_test_id("moves")).to_contain_text(f"{mover}: {play}")
    shoot(phone, "backgammon-phone")

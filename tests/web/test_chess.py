"""Chess through the page: against the computer, and between two browsers over
the network (an invite link), with illegal attempts explained and the end announced."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.web.conftest import ARTIFACTS
from tests.web.helpers import (
    click_move,
    click_square,
    drag_move,
    join,
    shoot,
    start_game,
    version,
    wait_for_version,
    wait_my_turn,
)


def test_against_the_computer(page: Page) -> None:
    page.goto("/")
    expect(page.locator("form.card")).to_have_count(3)
    shoot(page, "home")
    start_game(page, "chess", "computer")
    page.on("dialog", lambda dialog: dialog.accept())
    # Picking up a pawn marks its two squares.
    click_square(page, "e2")
    expect(page.locator('#board [data-dest="e3"]')).to_have_count(1)
    expect(page.locator('#board [data-dest="e4"]')).to_have_count(1)
    before = version(page)
    click_square(page, "e4")
    wait_for_version(page, before + 2)  # ours, then the computer's answer
    wait_my_turn(page)
    expect(page.get_by_test_id("moves").locator("li").first).to_contain_text("e4")
    # An illegal attempt is refused with the rule it breaks; nothing changes.
    at = version(page)
    click_move(page, "e1", "e3")
    expect(page.get_by_test_id("message")).to_contain_text("king")
    assert version(page) == at
    # A drag plays too.
    drag_move(page, "g1", "f3")
    wait_for_version(page, at + 2)
    wait_my_turn(page)
    # The board turns round and back.
    e2 = page.locator('#board [data-square="e2"]')
    low = e2.bounding_box()
    page.get_by_test_id("flip").click()
    high = e2.bounding_box()
    assert low is not None and high is not None and high["y"] < low["y"]
    page.get_by_test_id("flip").click()
    shoot(page, "chess-computer")
    page.get_by_test_id("resign").click()
    expect(page.get_by_test_id("ending")).to_have_text("Black wins by resignation (1 point).")


def test_two_friends_over_the_network(two_pages: tuple[Page, Page]) -> None:
    white, black = two_pages
    start_game(white, "chess", "friend", side=0)
    assert "#join=" in white.get_by_test_id("invite-link").input_value()
    join(white, black)
    # Each sees their own side at the bottom: Black's board is flipped.
    e7, e2 = (black.locator(f'#board [data-square="{n}"]').bounding_box() for n in ("e7", "e2"))
    assert e7 is not None and e2 is not None and e7["y"] > e2["y"]
    for mover, watcher, start, end in [
        (white, black, "f2", "f3"),
        (black, white, "e7", "e5"),
        (white, black, "g2", "g4"),
    ]:
        wait_my_turn(mover)
        before = version(mover)
        click_move(mover, start, end)
        wait_for_version(watcher, before + 1)
    wait_my_turn(black)
    drag_move(black, "d8", "h4")
    for page in (white, black):
        expect(page.get_by_test_id("ending")).to_have_text("Black wins by checkmate (1 point).")
        expect(page.locator('#board [data-check="e1"]')).to_have_count(1)
    shoot(white, "chess-network-white")
    shoot(black, "chess-network-black")
    with white.expect_download() as download:
        white.get_by_test_id("download").click()
    saved = ARTIFACTS / "chess-game.pgn"
    download.value.save_as(saved)
    text = saved.read_text()
    assert "1. f3 e5 2. g4 Qh4# 0-1" in text and '[Result "0-1"]' in text


def test_promotion_picker_and_a_draw_agreed_at_one_screen(page: Page) -> None:
    start_game(page, "chess", "local")
    plies = ["h2h4", "g7g5", "h4g5", "g8f6", "g5g6", "b8c6", "g6h7", "h8g8"]
    for ply in plies:
        before = version(page)
        click_move(page, ply[:2], ply[2:])
        wait_for_version(page, before + 1)
    before = version(page)
    click_move(page, "h7", "g8")
    # Four choices; the knight it is.
    expect(page.locator("#choices button[data-testid^=promote-]")).to_have_count(4)
    page.get_by_test_id("promote-n").click()
    wait_for_version(page, before + 1)
    expect(page.get_by_test_id("moves")).to_contain_text("hxg8=N")
    expect(page.locator('#board [data-on="g8"]')).to_have_attribute("data-piece", "N")
    page.get_by_test_id("offer-draw").click()
    page.get_by_test_id("accept-draw").click()
    expect(page.get_by_test_id("ending")).to_have_text("Draw by agreement.")


def test_a_draw_claimed_by_threefold_repetition(page: Page) -> None:
    start_game(page, "chess", "local")
    for ply in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        expect(page.get_by_test_id("claim-draw")).to_have_count(0)
        before = version(page)
        click_move(page, ply[:2], ply[2:])
        wait_for_version(page, before + 1)
    # The starting position stands for the third time: White may claim.
    page.get_by_test_id("claim-draw").click()
    expect(page.get_by_test_id("ending")).to_have_text("Draw by threefold repetition.")


def test_looking_back_over_the_moves(page: Page) -> None:
    start_game(page, "chess", "local")
    for ply in ["e2e4", "e7e5", "g1f3"]:
        before = version(page)
        click_move(page, ply[:2], ply[2:])
        wait_for_version(page, before + 1)

    def piece(square: str) -> Locator:
        return page.locator(f'#board [data-on="{square}"]')

    review = page.get_by_test_id("review")
    expect(review).to_be_hidden()
    # The first move in the list: the position after 1. e4, to look at only.
    page.locator("#moves .reviewable", has_text="e4").first.click()
    expect(review).to_contain_text("the position after White's e4")
    expect(piece("e4")).to_have_attribute("data-piece", "P")
    expect(piece("e5")).to_have_count(0)
    expect(piece("g1")).to_have_attribute("data-piece", "N")
    click_move(page, "e7", "e5")  # no move is made while looking back
    expect(page.locator("#board")).to_have_attribute("data-version", "3")
    # The arrow keys step through the game.
    page.keyboard.press("ArrowRight")
    expect(review).to_contain_text("Black's e5")
    expect(piece("e5")).to_have_attribute("data-piece", "p")
    page.keyboard.press("ArrowRight")
    expect(review).to_be_hidden()  # past the last move: the game itself again
    expect(piece("f3")).to_have_attribute("data-piece", "N")
    page.keyboard.press("ArrowLeft")
    expect(review).to_contain_text("Black's e5")
    page.get_by_test_id("review-back").click()
    expect(review).to_be_hidden()
    # Play goes on from the game's position, not the one looked at.
    before = version(page)
    click_move(page, "b8", "c6")
    wait_for_version(page, before + 1)
    expect(page.get_by_test_id("moves")).to_contain_text("Nc6")


def test_moves_typed_in_the_games_notation(page: Page) -> None:
    start_game(page, "chess", "local")
    field = page.get_by_test_id("move-input")
    field.fill("Nf3")
    page.get_by_test_id("move-submit").click()
    wait_for_version(page, 1)
    expect(field).to_have_value("")
    # An illegal move is explained, stays typed for correcting, and changes nothing.
    field.fill("Ke7")
    field.press("Enter")
    expect(page.get_by_test_id("message")).to_have_text("you cannot capture your own piece")
    expect(field).to_have_value("Ke7")
    expect(page.locator("#board")).to_have_attribute("data-version", "1")
    field.fill("d5")
    field.press("Enter")
    wait_for_version(page, 2)
    expect(page.get_by_test_id("moves")).to_contain_text("Nf3")
    expect(page.get_by_test_id("moves")).to_contain_text("d5")

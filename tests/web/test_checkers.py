"""Checkers through the page: against the computer, and between two browsers over
the network, where a compulsory jump is explained to a player who picks up another
piece, and an illegal attempt is refused with its rule."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import ARTIFACTS
from tests.web.helpers import (
    click_move,
    click_square,
    drag_move,
    join,
    play_any_move,
    shoot,
    start_game,
    version,
    wait_for_version,
    wait_my_turn,
)


def test_against_the_computer(page: Page) -> None:
    start_game(page, "checkers", "computer", side=0)
    page.on("dialog", lambda dialog: dialog.accept())
    wait_my_turn(page)
    click_square(page, "11")
    expect(page.locator('#board [data-dest="15"]')).to_have_count(1)
    expect(page.locator('#board [data-dest="16"]')).to_have_count(1)
    before = version(page)
    click_square(page, "15")
    wait_for_version(page, before + 2)
    wait_my_turn(page)
    play_any_move(page, "bB")
    wait_my_turn(page)
    # The engine's advice, computed in a worker process.
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("message")).to_contain_text("Hint: ")
    expect(page.get_by_test_id("moves").locator("li").first).to_contain_text("11-15")
    shoot(page, "checkers-computer")
    page.get_by_test_id("resign").click()
    expect(page.get_by_test_id("ending")).to_have_text("White wins by resignation (1 point).")
    # Another game against the same level, the colours changed: the computer opens.
    first = page.url
    page.get_by_test_id("play-again").click()
    page.wait_for_url(lambda url: url != first)
    expect(page.get_by_test_id("ending")).to_be_hidden()
    expect(page.get_by_test_id("moves").locator("li")).to_have_count(1)  # its first move
    wait_my_turn(page)
    assert page.locator("#board").get_attribute("data-turn") == "1"  # I am White now


def test_two_friends_and_the_compulsory_jump(two_pages: tuple[Page, Page]) -> None:
    black, white = two_pages
    start_game(black, "checkers", "friend", side=0)
    join(black, white)
    for mover, watcher, start, end in [(black, white, "11", "15"), (white, black, "22", "18")]:
        wait_my_turn(mover)
        before = version(mover)
        click_move(mover, start, end)
        wait_for_version(watcher, before + 1)
    wait_my_turn(black)
    # Black must jump 15x22: picking up another man says why it may not move...
    click_square(black, "9")
    expect(black.get_by_test_id("message")).to_contain_text("jumping is compulsory")
    expect(black.locator("#board [data-dest]")).to_have_count(0)
    # ...and moving it anyway is refused by the rules, naming the jump.
    at = version(black)
    drag_move(black, "9", "13")
    expect(black.get_by_test_id("message")).to_contain_text("15x22")
    assert version(black) == at
    click_move(black, "15", "22")
    wait_for_version(white, at + 1)
    wait_my_turn(white)
    play_any_move(white, "wW")  # White must jump back: the only moves offered
    expect(white.get_by_test_id("moves")).to_contain_text("15x22")
    wait_for_version(black, version(white))
    shoot(white, "checkers-network-white")
    shoot(black, "checkers-network-black")
    with black.expect_download() as download:
        black.get_by_test_id("download").click()
    saved = ARTIFACTS / "checkers-game.pdn"
    download.value.save_as(saved)
    text = saved.read_text()
    assert "1. 11-15 22-18 2. 15x22" in text and '[GameType "21"]' in text


def test_the_home_page_says_what_each_level_is(page: Page) -> None:
    """Under the level list, the chosen level as measured (the engine's own words),
    following the choice."""
    from parlour.checkers.engine import CheckersEngine

    page.goto("/")
    note = page.get_by_test_id("checkers-level-note")
    default = CheckersEngine.default_level
    expect(note).to_contain_text(f"level {default} of 10: ")
    expect(note).to_contain_text(CheckersEngine.level_strengths[default])
    page.get_by_test_id("checkers-level").select_option("1")
    expect(note).to_contain_text(CheckersEngine.level_strengths[1])
    strongest = page.get_by_test_id("checkers-level").locator('option[value="10"]')
    words = CheckersEngine.level_strengths[10]
    expect(strongest).to_have_attribute("title", f"level 10 of 10: {words}")

"""An imported game played on from where its file stops (issue 18): against the
computer, which answers at once when it is to move, from the side chosen."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.helpers import settle, wait_for_version

UNFINISHED = """[Event "Club night"]
[Result "*"]

1. 11-15 23-19 2. 8-11 22-17 *
"""


def test_an_imported_game_is_played_on_against_the_computer(page: Page) -> None:
    page.goto("/")
    page.get_by_test_id("import-game").select_option("checkers")
    page.get_by_test_id("import-text").fill(UNFINISHED)
    page.get_by_test_id("import-opponent").select_option("computer")
    page.get_by_test_id("import-side").select_option("1")  # White: Black is to move
    page.get_by_test_id("import-start").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)
    wait_for_version(page, 5)  # the computer's move, at once
    expect(page.locator("#board")).to_have_attribute("data-mine", "1")
    expect(page.get_by_test_id("moves")).to_contain_text("22-17")

"""One's games (issue 18): the home page lists the games this browser holds seats in,
how each stands (your move first); a link, made on request, takes them to another
device, where they can be played on; a damaged link is said to be so."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.helpers import click_move, start_game, version, wait_for_version


def test_your_games_are_listed_and_go_to_another_device(two_pages: tuple[Page, Page]) -> None:
    first, second = two_pages
    start_game(first, "chess", "local")
    click_move(first, "e2", "e4")
    wait_for_version(first, 1)
    chess = first.url.split("#game=")[1]
    start_game(first, "checkers", "computer")
    first.goto("/")
    games = first.get_by_test_id("your-games")
    expect(games.locator("li")).to_have_count(2)
    mine = games.locator(f'li[data-game="{chess}"]')
    expect(mine).to_contain_text("your move")
    expect(mine).to_contain_text("1 moves")
    first.get_by_test_id("device-link-show").click()
    link = first.get_by_test_id("device-link").input_value()
    assert "#device=" in link

    second.goto(link)
    expect(second.get_by_test_id("device-taken")).to_contain_text("2 of your games")
    assert "#device=" not in second.url  # the seats' tokens leave the address bar
    expect(second.get_by_test_id("your-games").locator("li")).to_have_count(2)
    second.get_by_test_id("your-games").locator(f'li[data-game="{chess}"] a').click()
    expect(second.locator("#board[data-version]")).to_be_visible()
    before = version(second)
    click_move(second, "e7", "e5")  # the seat came with the link
    wait_for_version(second, before + 1)
    first.goto(f"/#game={chess}")
    wait_for_version(first, before + 1)


def test_a_damaged_device_link_is_said_to_be_so(page: Page) -> None:
    page.goto("/#device=not-a-link!!")
    expect(page.get_by_test_id("device-error")).to_contain_text("damaged")

"""Clocks on the page (issue 18): a time control chosen on the home page, both
clocks shown, the running one ticking down by the server's time, still right after a
reload, and the server's flag shown as the game's end."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.helpers import click_move, settle, shoot, version, wait_for_version


def start_clocked(page: Page, game: str, control: str) -> None:
    """A game at one screen with the time control ``control`` ("base+increment" in
    seconds, or "base/delay" for backgammon), chosen in the card's clock list; a
    control not offered there is added to it first (a short one, for the flag)."""
    page.goto("/")
    page.get_by_test_id(f"{game}-opponent-local").check()
    select = page.get_by_test_id(f"{game}-clock")
    if select.locator(f'option[value="{control}"]').count() == 0:
        select.evaluate("(s, v) => s.append(new Option(v, v))", control)
    select.select_option(control)
    page.get_by_test_id(f"{game}-start").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)


def ms(page: Page, side: int) -> int:
    return int(page.get_by_test_id(f"clock-{side}").get_attribute("data-ms") or -1)


def test_clocks_tick_by_the_servers_time_and_survive_a_reload(page: Page) -> None:
    start_clocked(page, "chess", "300+3")
    expect(page.get_by_test_id("clock-0")).to_contain_text("5:00")
    expect(page.get_by_test_id("clock-1")).to_contain_text("5:00")
    expect(page.get_by_test_id("clocks")).to_contain_text("5+3")
    for start, end in [("e2", "e4"), ("e7", "e5")]:
        before = version(page)
        click_move(page, start, end)
        wait_for_version(page, before + 1)
    expect(page.get_by_test_id("clock-0")).to_have_class("clock running")
    page.wait_for_timeout(1500)
    assert 297_000 < ms(page, 0) < 299_000  # ticking; the first moves were free
    assert ms(page, 1) == 300_000
    page.reload()
    expect(page.locator("#board[data-version]")).to_be_visible()
    expect(page.get_by_test_id("clock-0")).to_have_class("clock running")
    assert 296_000 < ms(page, 0) < 299_000
    shoot(page, "chess-clocks")


def test_the_server_flags_a_side_out_of_time(page: Page) -> None:
    start_clocked(page, "checkers", "2+0")
    for _ in range(2):  # the first legal move each, typed
        before = version(page)
        legal = page.locator("#legal-moves option").first.get_attribute("value") or ""
        page.get_by_test_id("move-input").fill(legal)
        page.get_by_test_id("move-submit").click()
        wait_for_version(page, before + 1)
    expect(page.get_by_test_id("ending")).to_contain_text("time", timeout=6000)
    expect(page.get_by_test_id("clock-0")).to_contain_text("0:00.0")

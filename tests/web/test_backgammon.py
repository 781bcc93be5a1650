"""Backgammon through the page: dice thrown on the server, the turn entered checker
by checker and confirmed, the cube offered and taken, against the computer and
between two browsers over the network; an illegal step explained."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.helpers import (
    backgammon_turn,
    join,
    point_area,
    settle,
    shoot,
    start_game,
    version,
    wait_for_version,
    wait_my_turn,
)


def test_against_the_computer(page: Page) -> None:
    start_game(page, "backgammon", "computer", side=0)
    page.on("dialog", lambda dialog: dialog.accept())
    expect(page.get_by_test_id("pips")).to_contain_text("White 167, Black 167")
    board = page.locator("#board")
    # A step the rules forbid (bearing off with checkers still outside the home
    # board) is refused with the rule, and the turn is unchanged. A checker that
    # has one way to go moves at once on a click; then we take it back and try
    # another, or the next turn.
    tried = False
    for _ in range(3):
        wait_my_turn(page)
        if board.get_attribute("data-phase") == "cube":
            before = version(page)
            page.get_by_test_id("bg-roll").click()
            wait_for_version(page, before + 1)
            wait_my_turn(page)
        expect(page.locator("#board .die")).to_have_count(2)
        for source in filter(None, (board.get_attribute("data-sources") or "").split(",")):
            point_area(page, source)
            page.wait_for_timeout(400)  # a single click waits to see if a second follows
            settle(page)
            if board.get_attribute("data-steps") != "0":
                page.get_by_test_id("bg-undo").click()
                expect(board).to_have_attribute("data-steps", "0")
                settle(page)
                continue
            point_area(page, "off")
            expect(page.get_by_test_id("message")).to_contain_text("bear")
            expect(board).to_have_attribute("data-steps", "0")
            tried = True
            break
        backgammon_turn(page)
        if tried:
            break
    assert tried, "no checker had two ways to go in three turns"
    backgammon_turn(page)
    wait_my_turn(page)
    # The engine's advice for this position, computed in a worker process.
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("message")).to_contain_text("Hint: ")
    backgammon_turn(page)
    shoot(page, "backgammon-computer")
    expect(page.get_by_test_id("moves")).to_contain_text("White rolls")
    page.get_by_test_id("resign").click()
    expect(page.get_by_test_id("ending")).to_contain_text("Black wins by resignation")


def test_two_friends_with_the_cube(two_pages: tuple[Page, Page]) -> None:
    white, black = two_pages
    start_game(white, "backgammon", "friend", side=0)
    join(white, black)
    doubled = False
    for _ in range(4):
        expect(white.locator("#board[data-mine='1'], #board[data-mine='0']")).to_have_count(1)
        on_turn = white if white.locator("#board").get_attribute("data-mine") == "1" else black
        other = black if on_turn is white else white
        wait_my_turn(on_turn)
        before = version(on_turn)
        phase = on_turn.locator("#board").get_attribute("data-phase")
        wants_double = not doubled and phase == "cube"
        backgammon_turn(on_turn, double=wants_double)
        wait_for_version(other, before + 1)
        if wants_double:
            doubled = True
            wait_my_turn(other)
            expect(other.get_by_test_id("message")).to_contain_text("doubles to 2")
            before = version(other)
            other.get_by_test_id("bg-take").click()
            wait_for_version(on_turn, before + 1)
            expect(on_turn.get_by_test_id("cube")).to_contain_text("Cube: 2")
    # The last play stays marked on both boards.
    for page in (white, black):
        expect(page.locator("#board [data-last]").first).to_be_attached()
    shoot(white, "backgammon-network-white")
    shoot(black, "backgammon-network-black")

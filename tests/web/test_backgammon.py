"""Backgammon through the page: dice thrown on the server, the turn entered checker
by checker and confirmed, the cube offered and taken, against the computer and
between two browsers over the network; an illegal step explained."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from parlour.server.fairness import check_record
from tests.web.conftest import ARTIFACTS
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

#: The starting position, White (the person) on roll with 3-1 thrown: the checkers on
#: the 8- and 6-points each have two first steps, whatever the server's dice would be.
OPENING_THREE_ONE = "4HPwATDgc/ABMA:MIEFAAAAAAAA"


def test_against_the_computer(page: Page) -> None:
    start_game(page, "backgammon", "computer", side=0, position=OPENING_THREE_ONE)
    page.on("dialog", lambda dialog: dialog.accept())
    expect(page.get_by_test_id("pips")).to_contain_text("White 167, Black 167")
    board = page.locator("#board")
    wait_my_turn(page)
    values = sorted(
        die.get_attribute("data-die") or "" for die in page.locator("#board .die").all()
    )
    assert values == ["1", "3"], values
    # A step the rules forbid (bearing off with checkers still outside the home
    # board) is refused with the rule, and the turn is unchanged. A checker that
    # has one way to go would move at once on a click; then we take it back and try
    # the next. The checkers on the 8- and 6-points have two ways with a 3-1.
    sources = [s for s in (board.get_attribute("data-sources") or "").split(",") if s]
    assert {"8", "6"} <= set(sources), sources
    tried = False
    for source in sources:
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
    assert tried, f"no checker had two ways to go with 3-1 (sources {sources})"
    backgammon_turn(page)
    wait_my_turn(page)
    # Later turns: dice from the server, two of them or four of one value.
    if board.get_attribute("data-phase") == "cube":
        before = version(page)
        page.get_by_test_id("bg-roll").click()
        wait_for_version(page, before + 1)
        wait_my_turn(page)
    expect(page.locator("#board .die").first).to_be_visible()
    values = [die.get_attribute("data-die") or "" for die in page.locator("#board .die").all()]
    assert len(values) == (4 if len(set(values)) == 1 else 2), values
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


def wait_my_cube_turn(page: Page) -> None:
    """Play on until this page's player is at the start of a turn, before rolling."""
    board = page.locator("#board")
    for _ in range(4):
        wait_my_turn(page)
        if board.get_attribute("data-phase") == "cube":
            return
        backgammon_turn(page)
    raise AssertionError("never at the start of a turn")


def offer_to_resign(page: Page, level: str) -> None:
    before = version(page)
    page.get_by_test_id("bg-resign-offer").click()
    page.get_by_test_id(f"bg-resign-{level}").click()
    wait_for_version(page, before + 2)  # the offer and the computer's answer


def test_a_match_against_the_computer_with_resignation_offers(page: Page) -> None:
    page.goto("/")
    page.get_by_test_id("backgammon-opponent-computer").check()
    page.get_by_test_id("backgammon-level").select_option("1")
    page.get_by_test_id("backgammon-match-length").select_option("3")
    # The cube rules of money play are not offered for a match.
    expect(page.get_by_test_id("backgammon-jacoby")).to_be_hidden()
    page.get_by_test_id("backgammon-start").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)
    expect(page.get_by_test_id("score")).to_contain_text("Match to 3, game 1: White 0, Black 0")

    # Fair dice: the commitment is shown from the start, the secret is not.
    page.get_by_test_id("fair-dice").locator("summary").click()
    commitment = page.get_by_test_id("dice-commitment").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    expect(page.get_by_test_id("dice-secret")).to_have_count(0)

    # A single game offered at the start: the computer takes the point.
    wait_my_cube_turn(page)
    offer_to_resign(page, "single")
    ending = page.get_by_test_id("ending")
    expect(ending).to_contain_text("Black wins by resignation (single game accepted) (1 point)")
    expect(ending).to_contain_text("The score is White 0, Black 1 (match to 3)")
    expect(page.get_by_test_id("games")).to_contain_text("Black won 1 point")

    # The next game starts from its opening throw, with the score carried.
    page.get_by_test_id("next-game").click()
    expect(page.get_by_test_id("score")).to_contain_text("Match to 3, game 2: White 0, Black 1")
    expect(ending).to_be_hidden()
    wait_my_cube_turn(page)
    offer_to_resign(page, "backgammon")
    expect(ending).to_contain_text("Black wins the match, 4-0")
    expect(page.get_by_test_id("next-game")).to_have_count(0)
    # The match over, the secret is shown (the box opened at the start stays open
    # through the game's updates); it hashes to the commitment, and the dice record
    # it links to checks out.
    expect(page.get_by_test_id("fair-dice")).to_have_attribute("open", "")
    secret = page.get_by_test_id("dice-secret").inner_text()
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == commitment
    with page.expect_download() as download:
        page.get_by_test_id("dice-record").click()
    record = json.loads(Path(download.value.path()).read_text())
    found = check_record(record)
    assert found.ok and found.throws >= 2, found.summary
    shoot(page, "backgammon-match-over")
    with page.expect_download() as download:
        page.get_by_test_id("download").click()
    saved = ARTIFACTS / "backgammon-match.mat"
    download.value.save_as(saved)
    text = saved.read_text()
    # The form's cube limit (64, a real cube) is written as the match's rule.
    assert re.match(
        r'; \[EventDate "\d{4}\.\d{2}\.\d{2}"\]\n; \[CubeLimit "64"\]\n 3 point match\n', text
    )
    assert text.count(" Game ") == 2
    assert "Wins 3 points and the match" in text


def test_a_money_session_with_beavers_at_one_screen(page: Page) -> None:
    page.goto("/")
    page.get_by_test_id("backgammon-opponent-local").check()
    page.get_by_test_id("backgammon-beavers").check()
    page.get_by_test_id("backgammon-start").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)
    expect(page.get_by_test_id("score")).to_contain_text("Money play, game 1")
    expect(page.get_by_test_id("score")).to_contain_text("beavers")
    wait_my_cube_turn(page)
    doubler = page.locator("#board").get_attribute("data-turn")
    before = version(page)
    page.get_by_test_id("bg-double").click()
    wait_for_version(page, before + 1)
    page.get_by_test_id("bg-beaver").click()
    wait_for_version(page, before + 2)
    expect(page.get_by_test_id("message")).to_contain_text("Your double was beavered")
    page.get_by_test_id("bg-drop").click()
    wait_for_version(page, before + 3)
    names = ["White", "Black"]
    assert doubler is not None
    expect(page.get_by_test_id("ending")).to_contain_text(
        f"{names[1 - int(doubler)]} wins by beaver refused (2 points)"
    )
    # Looking back at the start of the game: the opening throw's position.
    page.locator("#moves .reviewable").first.click()
    expect(page.get_by_test_id("review")).to_contain_text("the position after the throw")
    expect(page.get_by_test_id("pips")).to_be_visible()
    page.get_by_test_id("review-back").click()
    expect(page.get_by_test_id("review")).to_be_hidden()
    page.get_by_test_id("next-game").click()
    expect(page.get_by_test_id("score")).to_contain_text("Money play, game 2")

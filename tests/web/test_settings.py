"""What players expect of a board beside the rules (issue 18): a dark theme that
follows the system and a switch; sounds for a move, a capture, check, the dice and
the end, with a switch; a move slid to its square (not a dragged one, and not for
those who ask for less motion)."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.helpers import (
    backgammon_turn,
    click_move,
    drag_move,
    play_any_move,
    shoot,
    start_game,
    version,
    wait_for_version,
)

LIGHT_PAPER = "rgb(250, 247, 240)"
DARK_PAPER = "rgb(22, 21, 18)"


def paper(page: Page) -> str:
    colour: str = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    if colour == "rgba(0, 0, 0, 0)":  # the body lets the root's colour show
        colour = page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
    return colour


def test_the_theme_follows_the_system_and_its_switch(page: Page) -> None:
    page.goto("/")
    switch = page.get_by_test_id("theme-switch")
    expect(switch).to_have_text("Theme: system")
    assert paper(page) == LIGHT_PAPER
    page.emulate_media(color_scheme="dark")
    assert paper(page) == DARK_PAPER  # the system's choice, followed at once
    switch.click()
    expect(switch).to_have_text("Theme: light")
    assert paper(page) == LIGHT_PAPER  # the switch over the system
    switch.click()
    expect(switch).to_have_text("Theme: dark")
    page.emulate_media(color_scheme="light")
    assert paper(page) == DARK_PAPER
    page.reload()  # kept on this browser, on every page
    expect(page.get_by_test_id("theme-switch")).to_have_text("Theme: dark")
    assert paper(page) == DARK_PAPER
    start_game(page, "chess", "local")
    shoot(page, "chess-dark-theme")
    page.goto("/rules/chess")
    expect(page.get_by_test_id("theme-switch")).to_have_text("Theme: dark")
    assert paper(page) == DARK_PAPER


def sounds(page: Page) -> tuple[str, int]:
    body = page.locator("body")
    return body.get_attribute("data-sound") or "", int(body.get_attribute("data-sounds") or 0)


def play(page: Page, start: str, end: str) -> None:
    before = version(page)
    click_move(page, start, end)
    wait_for_version(page, before + 1)


def test_moves_captures_check_and_the_end_sound_and_the_switch_silences(page: Page) -> None:
    start_game(page, "chess", "local")
    expect(page.get_by_test_id("sound-switch")).to_have_text("Sound: on")
    play(page, "e2", "e4")
    assert sounds(page) == ("move", 1)
    play(page, "d7", "d5")
    play(page, "e4", "d5")
    assert sounds(page) == ("capture", 3)
    play(page, "d8", "d5")
    play(page, "g1", "f3")
    play(page, "d5", "e5")  # Qe5+
    assert sounds(page) == ("check", 6)
    page.get_by_test_id("sound-switch").click()
    expect(page.get_by_test_id("sound-switch")).to_have_text("Sound: off")
    expect(page.get_by_test_id("sound-switch")).to_have_attribute("aria-pressed", "false")
    play(page, "f1", "e2")
    assert sounds(page) == ("check", 6)  # silent now
    page.get_by_test_id("sound-switch").click()
    # Fool's mate in a new game: the end has a sound of its own.
    start_game(page, "chess", "local")
    for start, end in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")]:
        play(page, start, end)
    expect(page.locator("#ending")).to_be_visible()
    assert sounds(page)[0] == "end"


def test_the_dice_sound_when_thrown(page: Page) -> None:
    start_game(page, "backgammon", "local")
    backgammon_turn(page)  # the opening throw's play
    page.get_by_test_id("bg-roll").click()
    page.wait_for_function("() => document.body.dataset.sound === 'dice'")


def test_a_move_slides_to_its_square_unless_dragged_or_motion_is_reduced(page: Page) -> None:
    start_game(page, "chess", "local")
    play(page, "e2", "e4")
    expect(page.locator("#board")).to_have_attribute("data-slid", "e2-e4")
    before = version(page)
    drag_move(page, "e7", "e5")
    wait_for_version(page, before + 1)
    expect(page.locator("#board")).not_to_have_attribute(
        "data-slid", "e7-e5"
    )  # it is there already
    page.emulate_media(reduced_motion="reduce")
    play(page, "g1", "f3")
    expect(page.locator("#board")).not_to_have_attribute("data-slid", "g1-f3")
    page.emulate_media(reduced_motion="no-preference")
    play(page, "b8", "c6")
    expect(page.locator("#board")).to_have_attribute("data-slid", "b8-c6")


def test_the_computers_move_slides_too(page: Page) -> None:
    start_game(page, "checkers", "computer")
    play_any_move(page, "bB")
    wait_for_version(page, 2)  # the computer's answer, by the live connection
    moves = page.locator(".moves li").all_inner_texts()
    reply = page.locator("#board").get_attribute("data-slid") or ""
    assert re.fullmatch(r"\d+-\d+(-\d+)*", reply), (reply, moves)


def test_the_computers_backgammon_play_slides(page: Page) -> None:
    start_game(page, "backgammon", "computer")
    game_id = page.url.split("#game=")[1]

    def computers_last_play() -> dict[str, Any] | None:
        """The computer's last checker play, once it has answered ours (None: it
        could not move)."""
        deadline = time.monotonic() + 30
        while True:
            game = page.request.get(f"/api/games/{game_id}").json()
            if (game["turn"] == 0 and game["board"]["phase"] != "play") or game["outcome"]:
                break  # our turn again: the computer has played (or danced)
            assert time.monotonic() < deadline, game["moves"][-3:]
            time.sleep(0.1)
        plays = [m for m in game["moves"] if "/" in m["text"]]
        return plays[-1] if plays and plays[-1]["side"] == 1 else None

    for _ in range(4):  # until the computer has had a play to make
        backgammon_turn(page)
        play = computers_last_play()
        if play is not None:
            expect(page.locator("#board")).to_have_attribute("data-slid", play["text"])
            return
    raise AssertionError("the computer never had a play to make in four turns")

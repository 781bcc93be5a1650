"""Starting a game from a pasted position on the home page: a card's "Start from a
position" takes a FEN (PDN FEN, gnubg IDs), the game starts there with the card's
other choices, and a position the rules refuse is explained in the card."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.helpers import (
    click_move,
    paste_position,
    settle,
    version,
    violations,
    wait_for_version,
    wait_my_turn,
)

#: White (the player) to move; Black's queen on d6 and king on e8.
FEN = "4k3/8/3q4/8/8/8/4P3/R3K2R w KQ - 0 20"
PIECES = {"e8": "k", "d6": "q", "e2": "P", "a1": "R", "e1": "K", "h1": "R"}


def board_pieces(page: Page) -> dict[str, str]:
    found: dict[str, str] = {}
    for piece in page.locator("#board .piece").all():
        found[piece.get_attribute("data-on") or "?"] = piece.get_attribute("data-piece") or "?"
    return found


def test_a_fen_pasted_starts_the_game_there_against_the_computer(page: Page) -> None:
    page.goto("/")
    page.get_by_test_id("chess-opponent-computer").check()
    page.get_by_test_id("chess-side").select_option("0")
    paste_position(page, "chess", FEN)
    page.get_by_test_id("chess-start").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)
    wait_my_turn(page)
    assert version(page) == 0
    assert board_pieces(page) == PIECES
    # The game goes on from there: our move, then the computer's answer.
    click_move(page, "e2", "e4")
    wait_for_version(page, 2)
    wait_my_turn(page)
    expect(page.get_by_test_id("moves").locator("li").first).to_contain_text("e4")
    pieces = board_pieces(page)
    assert pieces.get("e4") == "P" and "e2" not in pieces


def test_a_checkers_position_pasted_at_one_screen(page: Page) -> None:
    page.goto("/")
    page.get_by_test_id("checkers-opponent-local").check()
    paste_position(page, "checkers", "W:W18,22,K30:B14,15,K1")
    page.get_by_test_id("checkers-start").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)
    pieces = board_pieces(page)
    assert sorted(pieces.items()) == sorted(
        {"18": "w", "22": "w", "30": "W", "14": "b", "15": "b", "1": "B"}.items()
    )


def test_a_bad_fen_is_explained_in_the_card(page: Page) -> None:
    page.goto("/")
    page.get_by_test_id("chess-opponent-local").check()
    paste_position(page, "chess", "8/8/8/8/8/8/8/8 w - - 0 1")
    page.get_by_test_id("chess-start").click()
    card = page.locator('form.card[data-game="chess"]')
    expect(card.locator(".error")).to_have_text(
        "cannot start from this position: FEN: White has no king"
    )
    expect(page.locator("#board")).to_have_count(0)  # still on the home page
    # Another game's card is untouched; a finished position is refused too.
    expect(page.locator('form.card[data-game="checkers"] .error')).to_have_text("")
    page.get_by_label("Paste a FEN").fill("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    page.get_by_test_id("chess-start").click()
    expect(card.locator(".error")).to_contain_text("the game is already over in it (checkmate")


def test_the_open_disclosures_have_no_serious_violation(checked: Page) -> None:
    checked.goto("/")
    for game in ("chess", "checkers", "backgammon"):
        checked.get_by_test_id(f"{game}-start-from").locator("summary").click()
        expect(checked.get_by_test_id(f"{game}-position")).to_be_visible()
    assert violations(checked) == []


#: White to play 6-1 with one checker outside its home board, on its 20-point: it
#: can move by either die but not by both (13 and 19 are closed in turn), so the
#: rules say the 6.
HIGHER_DIE = "2wAGAP5/AAAEAA:MAEHAAAAAAAA"


def test_a_roll_only_partly_playable_is_explained(page: Page) -> None:
    page.goto("/")
    page.get_by_test_id("backgammon-opponent-local").check()
    paste_position(page, "backgammon", HIGHER_DIE)
    page.get_by_test_id("backgammon-start").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)
    expect(page.get_by_test_id("dice-rule")).to_have_text(
        "Only one die can be played: the 6. When either could be played but not both, "
        "the higher one must be."
    )
    # The checkers at home cannot move (they may not bear off yet), and say so.
    page.locator('#board .hit-area[data-point="1"]').click()
    expect(page.get_by_test_id("message")).to_contain_text("may not bear off yet")
    # Typing the 1 instead is refused by the rule's name, and nothing moves.
    page.get_by_placeholder("e.g. 24/18 13/11").fill("20/19")
    page.get_by_placeholder("e.g. 24/18 13/11").press("Enter")
    expect(page.get_by_test_id("message")).to_contain_text(
        "the higher die must be played when only one can be"
    )
    assert version(page) == 0
    # The checker on 20 has one move: a click plays it.
    page.locator('#board .hit-area[data-point="20"]').click()
    expect(page.get_by_test_id("bg-confirm")).to_have_text("Confirm 20/14")

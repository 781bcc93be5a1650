"""The board editor (#editor=chess, #editor=checkers): a position set up by clicking
(or by keyboard) with a palette of pieces, its text (FEN, PDN FEN) shown as it is
set up and read back when pasted, then played on from there; a position the rules
refuse is explained on the editor, and no game is made."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.web.helpers import (
    click_move,
    settle,
    shoot,
    version,
    violations,
    wait_for_version,
    wait_my_turn,
)

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CHECKERS_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
#: After 1. e4 d5 2. e5 f5: White may take en passant on f6 (or d6, had d5 just moved).
EN_PASSANT = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"


def pieces_in(page: Page, where: str) -> dict[str, str]:
    """The pieces drawn in ``where`` (a board's box): square -> letter."""
    found: dict[str, str] = {}
    for piece in page.locator(f"{where} .piece").all():
        found[piece.get_attribute("data-on") or "?"] = piece.get_attribute("data-piece") or "?"
    return found


def fen_pieces(fen: str) -> dict[str, str]:
    """The pieces of a chess FEN's placement: square -> letter."""
    found: dict[str, str] = {}
    for row, rank_text in enumerate(fen.split()[0].split("/")):
        file = 0
        for char in rank_text:
            if char.isdigit():
                file += int(char)
            else:
                found[f"{'abcdefgh'[file]}{8 - row}"] = char
                file += 1
    return found


def top(square: Locator) -> float:
    box = square.bounding_box()
    assert box is not None
    return box["y"]


def put(page: Page, piece: str, *squares: str) -> None:
    """Choose ``piece`` in the palette ("eraser" for the eraser), then click ``squares``."""
    page.get_by_test_id(f"palette-{piece}").click()
    for name in squares:
        box = page.locator(f'#editor-board [data-square="{name}"]').bounding_box()
        assert box is not None, f"no square {name} on the editor"
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def open_editor(page: Page, game: str) -> None:
    page.goto(f"/#editor={game}")
    expect(page.locator(f'[data-testid="editor"][data-game="{game}"]')).to_be_visible()


def test_a_chess_position_set_up_by_clicks_is_played_against_the_computer(page: Page) -> None:
    # The link is in the chess card's "Start from a position".
    page.goto("/")
    page.get_by_test_id("chess-start-from").locator("summary").click()
    page.get_by_test_id("chess-editor-link").click()
    expect(page.get_by_test_id("editor")).to_be_visible()
    assert page.evaluate("location.hash") == "#editor=chess"
    text = page.get_by_test_id("editor-text")
    expect(text).to_have_value(CHESS_START)
    assert pieces_in(page, "#editor-board") == fen_pieces(CHESS_START)
    for letter in "KQkq":
        expect(page.get_by_test_id(f"editor-castle-{letter}")).to_be_checked()

    page.get_by_test_id("editor-clear").click()
    expect(text).to_have_value("8/8/8/8/8/8/8/8 w - - 0 1")
    expect(page.locator("#editor-board .piece")).to_have_count(0)
    expect(page.get_by_test_id("editor-castle-K")).to_be_hidden()
    put(page, "K", "e1")
    put(page, "Q", "d1", "h5")
    expect(text).to_have_value("8/8/8/7Q/8/8/8/3QK3 w - - 0 1")
    put(page, "Q", "h5")  # the same piece again: taken off
    put(page, "N", "c3")
    put(page, "eraser", "c3")
    put(page, "k", "e8")
    expect(text).to_have_value("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert pieces_in(page, "#editor-board") == {"e1": "K", "d1": "Q", "e8": "k"}
    shoot(page, "editor-chess")

    page.get_by_test_id("editor-opponent-computer").check()
    lowest = page.get_by_test_id("editor-level").locator("option").first.get_attribute("value")
    assert lowest is not None
    page.get_by_test_id("editor-level").select_option(lowest)
    page.get_by_test_id("editor-side").select_option("0")
    page.get_by_test_id("editor-play").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)
    wait_my_turn(page)
    assert version(page) == 0
    assert pieces_in(page, "#board") == {"e1": "K", "d1": "Q", "e8": "k"}
    # Played on from there: our move, then the computer's answer.
    click_move(page, "d1", "d5")
    wait_for_version(page, 2)
    pieces = pieces_in(page, "#board")
    assert pieces.get("d5") == "Q" and "d1" not in pieces and len(pieces) == 3


def test_an_illegal_set_up_is_explained_on_the_editor_and_makes_no_game(page: Page) -> None:
    open_editor(page, "chess")
    page.get_by_test_id("editor-clear").click()
    put(page, "K", "e1")
    put(page, "k", "e8")
    put(page, "R", "e4")  # Black in check, White to move
    text = page.get_by_test_id("editor-text")
    expect(text).to_have_value("4k3/8/8/8/4R3/8/8/4K3 w - - 0 1")
    page.get_by_test_id("editor-opponent-local").check()
    error = page.get_by_test_id("editor-error")

    def refused(expected: str) -> None:
        with page.expect_response(
            lambda r: r.url.endswith("/api/games") and r.request.method == "POST"
        ) as answer:
            page.get_by_test_id("editor-play").click()
        assert answer.value.status == 400
        expect(error).to_have_text(expected)
        settle(page)
        assert page.evaluate("location.hash") == "#editor=chess"
        expect(page.locator("#board")).to_have_count(0)
        assert page.evaluate("localStorage.getItem('parlour:recent')") is None

    refused(
        "cannot start from this position: FEN: Black's king is in check but it is not Black's move"
    )
    # Mended by the side to move; then two white kings.
    page.get_by_test_id("editor-turn").select_option("1")
    expect(text).to_have_value("4k3/8/8/8/4R3/8/8/4K3 b - - 0 1")
    expect(error).to_have_text("")  # the position changed: the refusal is gone
    put(page, "K", "a1")
    expect(text).to_have_value("4k3/8/8/8/4R3/8/8/K3K3 b - - 0 1")
    refused("cannot start from this position: FEN: White has 2 kings, a side has one")


def test_a_checkers_position_with_kings_is_played_at_one_screen(page: Page) -> None:
    page.goto("/")
    page.get_by_test_id("checkers-start-from").locator("summary").click()
    page.get_by_test_id("checkers-editor-link").click()
    text = page.get_by_test_id("editor-text")
    expect(text).to_have_value(CHECKERS_START)
    expect(page.locator("#editor-board .piece")).to_have_count(24)
    page.get_by_test_id("editor-clear").click()
    expect(text).to_have_value("B:W:B")
    put(page, "B", "15")
    put(page, "b", "5")
    put(page, "w", "28")
    put(page, "W", "32")
    expect(text).to_have_value("B:W28,K32:B5,K15")
    expect(page.get_by_test_id("editor-turn")).to_have_value("0")  # Black to move
    assert pieces_in(page, "#editor-board") == {"15": "B", "5": "b", "28": "w", "32": "W"}
    shoot(page, "editor-checkers")

    page.get_by_test_id("editor-opponent-local").check()
    page.get_by_test_id("editor-play").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)
    assert version(page) == 0
    assert pieces_in(page, "#board") == {"15": "B", "5": "b", "28": "w", "32": "W"}
    click_move(page, "15", "19")  # the black king moves
    wait_for_version(page, 1)
    expect(page.get_by_test_id("moves")).to_contain_text("15-19")
    assert pieces_in(page, "#board") == {"19": "B", "5": "b", "28": "w", "32": "W"}


def test_a_pasted_position_draws_the_board(page: Page) -> None:
    open_editor(page, "chess")
    text = page.get_by_test_id("editor-text")
    text.fill(EN_PASSANT)
    assert pieces_in(page, "#editor-board") == fen_pieces(EN_PASSANT)
    ep = page.get_by_test_id("editor-ep")
    expect(ep).to_have_value("f6")
    offered = [o.get_attribute("value") for o in ep.locator("option").all()]
    assert offered == ["", "d6", "f6"]
    ep.select_option("d6")
    expect(text).to_have_value(EN_PASSANT.replace(" f6 ", " d6 "))
    # No castling once a rook has left: the choice goes with it.
    put(page, "eraser", "h1")
    expect(page.get_by_test_id("editor-castle-K")).to_be_hidden()
    expect(text).to_have_value("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBN1 w Qkq d6 0 3")
    page.get_by_test_id("editor-castle-q").uncheck()
    expect(text).to_have_value("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBN1 w Qk d6 0 3")

    # An en passant square no pawn can take on is left out, as the server leaves it.
    text.fill("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    text.press("Enter")  # done typing: the text as the board has it
    expect(text).to_have_value("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    expect(page.get_by_test_id("editor-turn")).to_have_value("1")
    assert pieces_in(page, "#editor-board").get("e4") == "P"

    # A text that cannot be read says why; the board stays as it was.
    before = pieces_in(page, "#editor-board")
    text.fill("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1")
    expect(page.get_by_test_id("editor-text-note")).to_have_text(
        "The board cannot show this FEN: the pieces are given for 7 ranks, a board has 8"
        " (ranks are parted by /). It shows the last position that could be read."
    )
    expect(text).to_have_attribute("aria-invalid", "true")
    assert pieces_in(page, "#editor-board") == before
    text.fill("8/8/8/8/8/8/8/8 w - - 0 1")
    expect(page.get_by_test_id("editor-text-note")).to_have_text("")
    expect(page.locator("#editor-board .piece")).to_have_count(0)

    # Flipped: h8 at the bottom left.
    a1 = page.locator('#editor-board [data-square="a1"]')
    h8 = page.locator('#editor-board [data-square="h8"]')
    assert top(a1) > top(h8)
    page.get_by_test_id("editor-flip").click()
    expect(page.get_by_test_id("editor-flip")).to_have_attribute("aria-pressed", "true")
    assert top(a1) < top(h8)

    # A checkers position pasted.
    open_editor(page, "checkers")
    text.fill("W:W18,22,K30:B14,15,K1")
    assert pieces_in(page, "#editor-board") == {
        "18": "w", "22": "w", "30": "W", "14": "b", "15": "b", "1": "B",
    }  # fmt: skip
    expect(page.get_by_test_id("editor-turn")).to_have_value("1")  # White to move
    text.fill("W:W18,22,K30")
    expect(page.get_by_test_id("editor-text-note")).to_contain_text("Black's squares are missing")


def test_the_board_is_set_up_by_keyboard(page: Page) -> None:
    open_editor(page, "chess")
    page.get_by_test_id("editor-clear").click()
    page.get_by_test_id("palette-K").click()
    board = page.locator("#editor-board svg.board")
    board.focus()
    announcer = page.get_by_test_id("editor-announce")
    page.keyboard.press("Enter")  # on a1, the first square
    expect(announcer).to_have_text("White king put on a1")
    text = page.get_by_test_id("editor-text")
    expect(text).to_have_value("8/8/8/8/8/8/8/K7 w - - 0 1")
    # The board keeps the focus through the redraw.
    page.keyboard.press("ArrowUp")
    expect(announcer).to_have_text("a2: empty")
    page.keyboard.press("ArrowDown")
    expect(announcer).to_have_text("a1: White king")
    page.keyboard.press("Enter")  # the same piece: taken off
    expect(text).to_have_value("8/8/8/8/8/8/8/8 w - - 0 1")
    expect(announcer).to_have_text("White king taken off a1")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("game", ["chess", "checkers"])
def test_the_editor_has_no_serious_violation(checked: Page, game: str, scheme: str) -> None:
    checked.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    open_editor(checked, game)
    # With a refusal and an unreadable text shown too.
    checked.get_by_test_id("editor-clear").click()
    checked.get_by_test_id("editor-opponent-local").check()
    checked.get_by_test_id("editor-play").click()
    expect(checked.get_by_test_id("editor-error")).to_contain_text("cannot start")
    assert violations(checked) == []
    checked.get_by_test_id("editor-text").fill("?")
    expect(checked.get_by_test_id("editor-text-note")).to_contain_text("cannot show")
    assert violations(checked) == []

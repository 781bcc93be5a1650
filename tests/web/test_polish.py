"""Defects a new player met (issue 18), each fixed and kept fixed: a double click
makes one game and one action, a watcher is told so, the status says check, Undo
only when there is something to undo, draw offers said to be sent and declined, the
computer answers a draw offer."""

from __future__ import annotations

from playwright.sync_api import Page, Request, expect

from tests.web.helpers import (
    backgammon_turn,
    click_square,
    join,
    point_area,
    settle,
    shoot,
    start_game,
    version,
    wait_for_version,
)


def test_a_double_click_on_play_makes_one_game(page: Page) -> None:
    created: list[str] = []

    def count(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/api/games"):
            created.append(request.url)

    page.on("request", count)
    page.goto("/")
    page.get_by_test_id("chess-opponent-local").check()
    page.get_by_test_id("chess-start").dblclick()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)
    assert len(created) == 1


def test_a_double_click_on_roll_rolls_once_and_speaks_no_versions(page: Page) -> None:
    start_game(page, "backgammon", "local")
    # Nothing entered yet: no Undo to offer; a checker moved: Undo.
    expect(page.get_by_test_id("bg-undo")).to_have_count(0)
    backgammon_turn(page)  # the opening throw's play; the other side is to roll
    expect(page.get_by_test_id("bg-roll")).to_be_visible()
    # At one screen the points are labelled in the numbering of the side to play,
    # as its moves are written: the first side's 24-point is the second side's 1.
    turn = page.locator("#board").get_attribute("data-turn")
    label = page.locator("#board .point-number").nth(23)  # the first side's 24-point
    expect(label).to_have_text("24" if turn == "0" else "1")
    before = version(page)
    page.get_by_test_id("bg-roll").dblclick()
    wait_for_version(page, before + 2)
    page.wait_for_timeout(300)
    settle(page)
    assert version(page) == before + 2  # the roll and its throw, once
    expect(page.get_by_test_id("message")).not_to_contain_text("version")
    board = page.locator("#board")
    where = (board.get_attribute("data-sources") or "").split(",")[0]
    point_area(page, where)  # the checker picked up: its destinations marked
    page.wait_for_function(
        "() => document.querySelector('#board').dataset.steps !== '0'"
        " || document.querySelector('#board .dest-area')"
    )
    if board.get_attribute("data-steps") == "0":
        point_area(page, page.locator("#board .dest-area").first.get_attribute("data-dest") or "")
    expect(board).not_to_have_attribute("data-steps", "0")
    settle(page)
    expect(page.get_by_test_id("bg-undo")).to_be_visible()
    # The die that checker used is greyed; a double would show four dice.
    dice = page.locator("#board .die")
    assert dice.count() in (2, 4)
    expect(page.locator("#board .die.used")).to_have_count(1)
    # One's own step is marked as one's own, not as the opponent's last play.
    expect(page.locator("#board .step-to")).to_have_count(1)
    expect(page.locator("#board .last-to")).to_have_count(0)
    shoot(page, "backgammon-dice-used")


def test_a_watcher_is_told_so_and_check_is_said(page: Page) -> None:
    start_game(page, "chess", "local")
    field = page.get_by_test_id("move-input")
    for number, move in enumerate(("e4", "f5", "Qh5+"), start=1):
        field.fill(move)
        field.press("Enter")
        wait_for_version(page, number)
    expect(page.get_by_test_id("status")).to_contain_text("Black to play, in check")
    watcher = page.context.browser.new_context(base_url=page.url.split("#")[0])  # type: ignore[union-attr]
    try:
        other = watcher.new_page()
        other.goto(page.url)
        expect(other.get_by_test_id("status")).to_contain_text("you are watching this game")
        expect(other.get_by_test_id("status")).not_to_contain_text("your opponent")
        expect(other.get_by_test_id("resign")).to_have_count(0)
    finally:
        watcher.close()


def test_a_draw_offer_is_said_to_be_sent_and_declined(two_pages: tuple[Page, Page]) -> None:
    first, second = two_pages
    start_game(first, "chess", "friend")
    join(first, second)
    # Offered on the opponent's turn too, and said to be waiting.
    first.get_by_test_id("move-input").fill("e4")
    first.get_by_test_id("move-input").press("Enter")
    wait_for_version(first, 2)
    first.get_by_test_id("offer-draw").click()
    settle(first)
    expect(first.get_by_test_id("message")).to_contain_text("You offered a draw")
    expect(second.get_by_test_id("decline-draw")).to_be_visible()
    second.get_by_test_id("decline-draw").click()
    expect(first.get_by_test_id("message")).to_contain_text("Your draw offer was declined")


def test_the_computer_answers_a_draw_offer(page: Page) -> None:
    # At the start White has the move's small edge: the computer, Black, is no
    # better than even, and takes the draw.
    start_game(page, "chess", "computer")
    page.get_by_test_id("offer-draw").click()
    expect(page.get_by_test_id("ending")).to_contain_text("Draw by agreement", timeout=20_000)


def test_a_cut_invitation_link_is_said_to_be_incomplete(page: Page) -> None:
    page.goto("/#join=AbCdEfGhIjKl")
    error = page.get_by_test_id("join-error")
    expect(error).to_contain_text("incomplete")
    expect(page.locator("a[href^='#game=']")).to_have_count(0)  # no guessed game
    page.goto("/#join=AbCdEfGhIjKl.wrongcode")
    expect(page.get_by_test_id("join-error")).to_contain_text("cannot be used")
    expect(page.locator("a[href='#game=AbCdEfGhIjKl']")).to_have_count(1)  # every letter


def test_castling_through_ones_own_knight_is_explained_as_castling(page: Page) -> None:
    start_game(page, "chess", "local")
    field = page.get_by_test_id("move-input")
    field.fill("O-O")
    field.press("Enter")
    expect(page.get_by_test_id("message")).to_contain_text("castling needs every square")
    expect(page.get_by_test_id("message")).not_to_contain_text("your own piece")


def test_a_click_on_the_board_while_looking_back_says_why_nothing_moves(page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    start_game(page, "chess", "local")
    field = page.get_by_test_id("move-input")
    for number, move in enumerate(("e4", "e5"), start=1):
        field.fill(move)
        field.press("Enter")
        wait_for_version(page, number)
    page.get_by_test_id("moves").locator(".reviewable", has_text="e4").first.click()
    expect(page.get_by_test_id("review")).to_be_visible()
    # The whole board stays on a 1280 x 800 screen with the review bar above it.
    corner = page.locator('#board [data-square="a1"]').bounding_box()
    assert corner is not None and corner["y"] + corner["height"] <= 800, corner
    shoot(page, "review-1280x800")
    page.locator('#board [data-square="d2"]').click()
    expect(page.get_by_test_id("message")).to_contain_text("looking back")
    page.get_by_test_id("review-back").click()
    expect(page.get_by_test_id("review")).to_be_hidden()


def test_the_connection_is_always_shown_and_moves_wait_for_it(page: Page) -> None:
    start_game(page, "chess", "local")
    connection = page.get_by_test_id("connection")
    expect(connection).to_have_attribute("data-status", "connected")
    expect(connection).to_have_text("Connected")
    page.context.set_offline(True)
    expect(connection).to_have_attribute("data-status", "offline")
    expect(connection).to_contain_text("Offline")
    # Nothing can be sent meanwhile, and the page says so rather than waiting.
    expect(page.get_by_test_id("move-input")).to_be_disabled()
    expect(page.get_by_test_id("resign")).to_be_disabled()
    expect(page.get_by_test_id("flip")).to_be_enabled()  # the board turns without a server
    shoot(page, "connection-offline")
    page.context.set_offline(False)
    expect(connection).to_have_attribute("data-status", "connected", timeout=15_000)
    expect(page.get_by_test_id("message")).to_contain_text("Connected again")
    field = page.get_by_test_id("move-input")
    expect(field).to_be_enabled()
    field.fill("e4")
    field.press("Enter")
    wait_for_version(page, 1)


#: Black to move with two double jumps from 9, both through 18: 9x18x25 and 9x18x27.
FORKED_JUMPS = """[Event "Two ways on"]
[SetUp "1"]
[FEN "B:W14,22,23,31:B9,1"]
[Result "*"]

*
"""


def test_a_multi_jump_is_entered_landing_by_landing(page: Page) -> None:
    page.goto("/")
    page.get_by_test_id("import-game").select_option("checkers")
    page.get_by_test_id("import-text").fill(FORKED_JUMPS)
    page.get_by_test_id("import-start").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)
    click_square(page, "9")
    dests = page.locator("#board .dest")
    expect(dests).to_have_count(3)  # the first landing, and both ends
    click_square(page, "18")  # a landing square: the jump goes on from there
    expect(page.get_by_test_id("message")).to_contain_text("Jumped to 18")
    expect(page.locator("#board [data-dest]")).to_have_count(2)
    assert version(page) == 0
    # White's men are drawn white, and the landing dots stand out on the dark squares.
    face = page.locator("#board .man.white .face").first
    assert face.evaluate("e => getComputedStyle(e).fill") == "rgb(244, 238, 221)"
    dot = page.locator("#board .dest").first
    assert dot.evaluate("e => getComputedStyle(e).fill") == "rgb(255, 213, 74)"
    shoot(page, "checkers-route")
    click_square(page, "25")
    wait_for_version(page, 1)
    expect(page.get_by_test_id("moves")).to_contain_text("9x18x25")


def test_the_cube_limit_starts_at_a_real_cube(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_test_id("backgammon-max-cube")).to_have_value("64")


def test_the_rules_page_leads_back_to_the_game(page: Page) -> None:
    start_game(page, "checkers", "local")
    game_url = page.url
    page.get_by_test_id("rules-link").click()
    expect(page.locator("h1")).to_contain_text("Checkers")
    page.get_by_test_id("back-to-game").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    assert page.url == game_url


def test_friends_apart_play_a_rematch(two_pages: tuple[Page, Page]) -> None:
    first, second = two_pages
    start_game(first, "chess", "friend")
    join(first, second)
    for number, (who, move) in enumerate(
        [(first, "f3"), (second, "e5"), (first, "g4"), (second, "Qh4#")], start=1
    ):
        wait_for_version(who, number - 1 + 1)  # the join is version 1
        who.get_by_test_id("move-input").fill(move)
        who.get_by_test_id("move-input").press("Enter")
        wait_for_version(who, number + 1)
    expect(first.get_by_test_id("ending")).to_contain_text("Black wins")
    first.get_by_test_id("rematch").click()
    expect(first.locator("#board[data-version]")).to_be_visible()
    expect(first.get_by_test_id("status")).to_contain_text("waiting for a friend to join")
    # The friend is offered it live, and joins with one click: White now.
    expect(second.get_by_test_id("rematch-join")).to_be_visible()
    expect(second.get_by_test_id("message")).to_contain_text("offers a rematch")
    second.get_by_test_id("rematch-join").click()
    expect(second.get_by_test_id("status")).to_contain_text("White to play (you)")
    expect(first.get_by_test_id("status")).to_contain_text("White to play (your opponent)")
    second.get_by_test_id("move-input").fill("e4")
    second.get_by_test_id("move-input").press("Enter")
    expect(first.get_by_test_id("moves")).to_contain_text("e4")


def test_an_automatic_double_is_explained(page: Page) -> None:
    """Money play with automatic doubles: games are made (as the home page makes
    them) until an opening throw is tied; its page says why the cube is at 2."""
    page.goto("/")
    body = {
        "game": "backgammon",
        "opponent": "local",
        "rules": {"match_length": 0, "automatic_doubles": 1, "max_cube": 64},
    }
    for _ in range(80):  # a tie is one throw in six: 80 tries all fail once in 2 million
        made = page.request.post("/api/games", data=body)
        assert made.status == 201, made.text()
        game = made.json()["game"]
        if game["board"]["cube"]["value"] == 2:
            break
    else:
        raise AssertionError("no opening throw was tied in 80 games")
    page.evaluate(  # the seats kept in this browser, as the home page keeps them
        "([id, seats]) => localStorage.setItem(`parlour:seats:${id}`, JSON.stringify(seats))",
        [game["id"], made.json()["seats"]],
    )
    page.goto(f"/#game={game['id']}")
    expect(page.get_by_test_id("automatic-double")).to_contain_text(
        "The opening throw was tied once: by the automatic doubles rule the cube starts "
        "this game at 2"
    )

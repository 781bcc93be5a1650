"""Playing through the page as a person does: clicks, drags, and waiting for the
board to settle after each move."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.web.conftest import ARTIFACTS

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def start_game(
    page: Page, game: str, opponent: str, side: int = 0, position: str | None = None
) -> None:
    """Start a game from the home page's card; from ``position`` (pasted in the
    card's "Start from a position") if one is given."""
    page.goto("/")
    page.get_by_test_id(f"{game}-opponent-{opponent}").check()
    page.get_by_test_id(f"{game}-side").select_option(str(side))
    if opponent == "computer":
        # The weakest level of the game's engine (or "random" where there is none).
        first = page.get_by_test_id(f"{game}-level").locator("option").first.get_attribute("value")
        assert first is not None
        page.get_by_test_id(f"{game}-level").select_option(first)
    if position is not None:
        paste_position(page, game, position)
    page.get_by_test_id(f"{game}-start").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    settle(page)


#: The label of each card's field for a position to start from.
POSITION_LABELS = {
    "chess": "Paste a FEN",
    "checkers": "Paste a PDN FEN",
    "backgammon": "Paste a GNU Backgammon Position ID:Match ID",
}


def paste_position(page: Page, game: str, text: str) -> None:
    """Open the card's "Start from a position" and paste ``text`` in it."""
    page.get_by_test_id(f"{game}-start-from").locator("summary").click()
    field = page.get_by_label(POSITION_LABELS[game])
    expect(field).to_be_visible()
    field.fill(text)


def settle(page: Page) -> None:
    """Wait until no request is in flight."""
    expect(page.locator("body")).to_have_attribute("data-busy", "0")


def version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or "-1")


def wait_for_version(page: Page, at_least: int) -> int:
    page.wait_for_function(  # the board may not be drawn yet (a page still loading)
        "v => { const b = document.querySelector('#board');"
        " return b !== null && Number(b.dataset.version) >= v; }",
        arg=at_least,
    )
    settle(page)
    return version(page)


def wait_my_turn(page: Page) -> None:
    expect(page.locator("#board")).to_have_attribute("data-mine", "1", timeout=20000)
    settle(page)


def square(page: Page, name: str) -> tuple[float, float]:
    for _ in range(5):  # the board may be redrawn (a live update) while we look
        box = page.locator(f'#board [data-square="{name}"]').bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.wait_for_timeout(50)
    raise AssertionError(f"no square {name}")


def join(creator: Page, friend: Page) -> None:
    """The friend opens the creator's invite link; both pages settle on the game."""
    friend.goto(creator.get_by_test_id("invite-link").input_value())
    expect(friend.locator("#board[data-version]")).to_be_visible()
    settle(friend)
    wait_for_version(creator, version(friend))
    expect(creator.get_by_test_id("invite-link")).to_be_hidden()


def click_square(page: Page, name: str) -> None:
    x, y = square(page, name)
    page.mouse.click(x, y)


def click_move(page: Page, start: str, end: str) -> None:
    """Pick up the piece on ``start`` (its destinations are shown), then click ``end``."""
    click_square(page, start)
    click_square(page, end)


def drag_move(page: Page, start: str, end: str) -> None:
    x, y = square(page, start)
    page.mouse.move(x, y)
    page.mouse.down()
    x2, y2 = square(page, end)
    page.mouse.move((x + x2) / 2, (y + y2) / 2, steps=4)
    page.mouse.move(x2, y2, steps=4)
    page.mouse.up()


def play_any_move(page: Page, letters: str) -> None:
    """Pick up pieces (of FEN/PDN ``letters``) until one shows destinations; go to the first."""
    before = version(page)
    for piece in page.locator("#board .piece").all():
        if (piece.get_attribute("data-piece") or "") not in letters:
            continue
        start = piece.get_attribute("data-on")
        assert start is not None
        click_square(page, start)
        targets = page.locator("#board [data-dest]")
        if targets.count():
            end = targets.first.get_attribute("data-dest")
            assert end is not None
            click_square(page, end)
            wait_for_version(page, before + 1)
            return
    raise AssertionError("no piece could move")


def shoot(page: Page, name: str) -> Path:
    settle(page)
    page.wait_for_timeout(150)
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def point_area(page: Page, where: str) -> None:
    page.locator(f'#board .hit-area[data-point="{where}"]').click(force=True)


def backgammon_turn(page: Page, *, double: bool = False) -> None:
    """Play one whole turn of backgammon on the page whose turn it is: roll (or
    double), then move checker by checker until the play is complete, then confirm."""
    wait_my_turn(page)
    board = page.locator("#board")
    if board.get_attribute("data-phase") == "cube":
        before = version(page)
        if double and page.get_by_test_id("bg-double").count():
            page.get_by_test_id("bg-double").click()
            wait_for_version(page, before + 1)
            return
        page.get_by_test_id("bg-roll").click()
        wait_for_version(page, before + 1)
        wait_my_turn(page)
    if board.get_attribute("data-phase") == "doubled":
        before = version(page)
        page.get_by_test_id("bg-take").click()
        wait_for_version(page, before + 1)
        return
    confirm = page.get_by_test_id("bg-confirm")
    for _ in range(5):
        if confirm.is_enabled():
            break
        steps = board.get_attribute("data-steps") or "0"
        where = (board.get_attribute("data-sources") or "").split(",")[0]
        # Pick the checker up; with one destination it moves at once, with more
        # its destinations are marked: go to the first.
        point_area(page, where)
        page.wait_for_function(
            "s => document.querySelector('#board').dataset.steps !== s"
            " || document.querySelector('#board .dest-area')",
            arg=steps,
        )
        target = page.locator("#board .dest-area").first
        if board.get_attribute("data-steps") == steps and target.count():
            point_area(page, target.get_attribute("data-dest") or "")
        try:
            expect(board).not_to_have_attribute("data-steps", steps)
        except AssertionError:
            shoot(page, "backgammon-stuck")
            raise
        settle(page)
    before = version(page)
    confirm.click()
    wait_for_version(page, before + 1)


def violations(page: Page) -> list[str]:
    """The serious and critical violations axe finds in the page, described."""
    assert AXE.exists(), "axe-core is missing: scripts/setup.sh installs it with npm ci"
    page.add_script_tag(content=AXE.read_text())
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations
                .filter((v) => v.impact === "serious" || v.impact === "critical")
                .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}: `
                    + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ") + ")");
        }"""
    )
    return list(found)

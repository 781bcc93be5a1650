"""The coach in the page: a finished game analysed by the server, the progress
shown, the blunder marked in the move list and on the graph, a click on it showing
what was better, and each side's summary."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.web.helpers import backgammon_turn, shoot, start_game, wait_for_version

#: Fool's mate: White's 2. g4 allows mate in one.
FOOLS_MATE = ("f3", "e5", "g4", "Qh4#")
#: The analysis of four moves at about a second a position, on a busy machine.
ANALYSIS_MS = 60_000


def test_a_finished_game_is_analysed_and_its_blunder_explained(page: Page) -> None:
    start_game(page, "chess", "local")
    field = page.get_by_test_id("move-input")
    for number, move in enumerate(FOOLS_MATE, start=1):
        field.fill(move)
        field.press("Enter")
        wait_for_version(page, number)
    expect(page.get_by_test_id("ending")).to_contain_text("Black wins")
    analyse = page.get_by_test_id("analyse")
    expect(analyse).to_be_visible()
    analyse.click()
    graph = page.get_by_test_id("eval-graph")
    expect(graph).to_be_visible(timeout=ANALYSIS_MS)
    # The blunder is marked in the move list (the server's budget is time: on a
    # busy machine a shallower look may also mark 1. f3, an inaccuracy at worst).
    marks = page.get_by_test_id("moves").get_by_test_id("judgement")
    expect(marks.filter(has_text="??")).to_have_count(1)
    g4 = page.get_by_test_id("moves").locator(".reviewable", has_text="g4")
    expect(g4.get_by_test_id("judgement")).to_have_text("??")
    # The graph's point for the blunder is marked too, and a summary per side.
    expect(graph.locator("circle.blunder")).to_have_count(1)
    expect(page.get_by_test_id("summary-0")).to_contain_text("1 blunder")
    expect(page.get_by_test_id("summary-1")).to_contain_text("0 blunders")
    # A click on the blunder goes to the position after it, with the coach's note.
    g4.click()
    expect(page.get_by_test_id("review")).to_contain_text("g4")
    note = page.get_by_test_id("coach-note")
    expect(note).to_contain_text("g4?? is a blunder")
    expect(note).to_contain_text("was better")
    page.get_by_test_id("show-better").click()
    expect(page.locator("#board [data-arrow]")).to_have_count(1)
    expect(page.get_by_test_id("coach-note")).to_contain_text("better move here")
    shoot(page, "coach-chess")
    # A click on a point of the graph goes to that position.
    graph.locator("circle[data-ply='2']").click()
    expect(page.get_by_test_id("review")).to_contain_text("e5")
    # Learning from the mistakes: the position before the blunder, an answer
    # judged by the coach, the coach's own move shown and then accepted.
    page.get_by_test_id("lesson-start").click()
    lesson = page.get_by_test_id("lesson")
    expect(lesson).to_contain_text("You played g4??")
    expect(page.get_by_test_id("review")).to_contain_text("e5")  # the position before g4
    page.get_by_test_id("lesson-move").fill("g4")
    page.get_by_test_id("lesson-try").click()
    answer = page.get_by_test_id("lesson-answer")
    expect(answer).to_contain_text("still a blunder", timeout=ANALYSIS_MS)
    page.get_by_test_id("lesson-show").click()
    expect(answer).to_contain_text("The coach's move: ")
    expect(page.locator("#board [data-arrow]")).to_have_count(1)
    # "The coach's move: Nc3." or "...: Nc3 Nc6 e4": the move, without the full stop.
    best = (answer.text_content() or "").split(": ", 1)[1].split()[0].rstrip(".")
    page.get_by_test_id("lesson-move").fill(best)
    page.get_by_test_id("lesson-try").click()
    expect(answer).to_contain_text("good", timeout=ANALYSIS_MS)
    shoot(page, "coach-lesson")
    page.get_by_test_id("lesson-next").click()
    expect(page.get_by_test_id("message")).to_contain_text("last mistake")
    # The analysis is kept: a reload shows it at once, with no second analysis.
    again = page.context.new_page()
    again.goto(page.url)
    expect(again.get_by_test_id("eval-graph")).to_be_visible(timeout=ANALYSIS_MS)
    expect(again.get_by_test_id("analyse")).to_have_count(0)
    again.close()


def test_the_tutor_stops_a_blunder_before_it_is_played(page: Page) -> None:
    page.goto("/")
    page.get_by_test_id("chess-opponent-local").check()
    page.get_by_test_id("chess-tutor").select_option("blunder")
    page.get_by_test_id("chess-start").click()
    expect(page.locator("#board[data-version]")).to_be_visible()
    field = page.get_by_test_id("move-input")
    for number, move in enumerate(("e4", "e5", "Qh5", "Nc6", "Bc4"), start=1):
        field.fill(move)
        field.press("Enter")
        wait_for_version(page, number)  # sound moves pass the tutor unremarked
    expect(page.get_by_test_id("tutor")).to_be_hidden()
    field.fill("Nf6")  # allows Qxf7#
    field.press("Enter")
    tutor = page.get_by_test_id("tutor")
    expect(tutor).to_contain_text("Nf6 looks like a blunder", timeout=ANALYSIS_MS)
    page.get_by_test_id("tutor-hint").click()
    expect(page.get_by_test_id("message")).to_contain_text("The tutor suggests")
    shoot(page, "coach-tutor")
    page.get_by_test_id("tutor-think").click()
    expect(tutor).to_be_hidden()
    expect(page.locator("#board")).to_have_attribute("data-version", "5")  # not played
    field.fill("Nf6")
    field.press("Enter")
    expect(tutor).to_be_visible(timeout=ANALYSIS_MS)
    page.get_by_test_id("tutor-play").click()
    wait_for_version(page, 6)
    expect(page.get_by_test_id("moves")).to_contain_text("Nf6")


def test_a_checkers_game_resigned_is_analysed_and_the_lost_man_marked(page: Page) -> None:
    start_game(page, "checkers", "local")
    page.on("dialog", lambda dialog: dialog.accept())
    field = page.get_by_test_id("move-input")
    line = ("11-16", "22-18", "7-11", "26-22", "9-14", "18x9", "5x14", "22-17", "10-15")
    for number, move in enumerate(line, start=1):
        field.fill(move)
        field.press("Enter")
        wait_for_version(page, number)
    page.get_by_test_id("resign").click()  # White, to move, resigns: over all the same
    expect(page.get_by_test_id("ending")).to_contain_text("resignation")
    page.get_by_test_id("analyse").click()
    expect(page.get_by_test_id("eval-graph")).to_be_visible(timeout=ANALYSIS_MS)
    # 10-15 leaves a man to 17x10: a mistake at least
    last = page.get_by_test_id("moves").locator(".reviewable", has_text="10-15")
    expect(last.get_by_test_id("judgement")).to_have_text(re.compile(r"^\?\??$"))
    expect(page.get_by_test_id("summary-0")).to_contain_text("accuracy")
    shoot(page, "coach-checkers")


def test_a_backgammon_game_is_analysed_decision_by_decision(page: Page) -> None:
    start_game(page, "backgammon", "local")
    page.on("dialog", lambda dialog: dialog.accept())
    for _ in range(4):
        backgammon_turn(page)
    page.get_by_test_id("resign").click()
    expect(page.get_by_test_id("ending")).to_contain_text("resignation")
    page.get_by_test_id("analyse").click()
    expect(page.get_by_test_id("eval-graph")).to_be_visible(timeout=ANALYSIS_MS)
    expect(page.get_by_test_id("summary-0")).to_contain_text("error rate")
    expect(page.get_by_test_id("summary-1")).to_contain_text("error rate")
    shoot(page, "coach-backgammon")


#: A game that stops after Black's blunder 3... Nf6 (White mates next move).
UNFINISHED_PGN = """[White "Ann"]
[Black "Bob"]
[Result "*"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 *
"""


def test_a_game_imported_from_a_file_is_analysed_as_far_as_it_goes(
    page: Page, tmp_path: Path
) -> None:
    page.goto("/")
    form = page.get_by_test_id("import-form")
    # Nothing chosen: said so, nothing sent.
    page.get_by_test_id("import-start").click()
    expect(form.get_by_role("alert")).to_contain_text("Choose a game file")
    # A bad file: the server's reason, on the form.
    page.get_by_test_id("import-text").fill("1. e4 e5 2. Ke3 *")
    page.get_by_test_id("import-start").click()
    expect(form.get_by_role("alert")).to_contain_text("Ke3")
    # A file chosen: its extension picks the game.
    path = tmp_path / "club.pgn"
    path.write_text(UNFINISHED_PGN)
    page.get_by_test_id("import-game").select_option("checkers")
    page.get_by_test_id("import-file").set_input_files(str(path))
    expect(page.get_by_test_id("import-game")).to_have_value("chess")
    expect(page.get_by_test_id("import-text")).to_have_value(UNFINISHED_PGN)
    page.get_by_test_id("import-start").click()
    expect(page).to_have_url(re.compile(r"#game="))
    wait_for_version(page, 6)
    expect(page.get_by_test_id("moves")).to_contain_text("Nf6")
    # Unfinished, but both seats are this browser's: analysed as far as it goes.
    analyse = page.get_by_test_id("analyse")
    expect(analyse).to_have_text("Analyse the game so far")
    analyse.click()
    expect(page.get_by_test_id("eval-graph")).to_be_visible(timeout=ANALYSIS_MS)
    nf6 = page.get_by_test_id("moves").locator(".reviewable", has_text="Nf6")
    expect(nf6.get_by_test_id("judgement")).to_have_text("??")
    expect(page.get_by_test_id("summary-1")).to_contain_text("Bob")
    shoot(page, "coach-imported")
    # Played on, the game is analysed afresh when asked.
    page.get_by_test_id("move-input").fill("Qxf7#")
    page.get_by_test_id("move-input").press("Enter")
    expect(page.get_by_test_id("ending")).to_contain_text("White wins")
    expect(page.get_by_test_id("analyse")).to_have_text("Analyse")

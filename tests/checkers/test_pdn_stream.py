"""PDN files read one game at a time: a game of another draughts variant or with an
illegal move is an error of that game only, named with its number and move.
Variations are read and written back; results are read in either convention."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from parlour.checkers import PdnGame, iter_pdn, read_pdn, read_pdn_game, write_pdn
from parlour.checkers.rules import CHECKERS
from parlour.core.errors import NotationError

FILE = """\
[Event "one"]
1. 11-15 23-19 2. 8-11 22-17 1-0

[Event "international"]
[GameType "20"]
1. 32-28 19-23 *

[Event "three"]
1. 11-15 23-19 2. 15-11 *

[Event "four"]
1. 9-14 22-18 *
"""


def test_each_bad_game_costs_only_itself() -> None:
    games = list(iter_pdn(FILE))
    assert [game.tags.get("Event") for game in games] == ["one", "international", "three", "four"]
    assert [game.error is None for game in games] == [True, False, False, True]
    assert str(games[1].error) == "PDN game 2: GameType 20 is not American checkers (21)"
    assert str(games[2].error).startswith("PDN game 3, move 2 (Black): 15-11: ")
    assert len(games[2].moves) == 2  # the moves before the error are kept
    assert len(games[3].moves) == 2 and games[3].result == "*"


def test_read_pdn_stays_strict() -> None:
    with pytest.raises(NotationError, match=r"^PDN game 2: GameType 20"):
        read_pdn(FILE)


def test_games_without_tags_are_told_apart_by_their_results() -> None:
    games = list(iter_pdn("1. 11-15 23-19 * 1. 11-17 *\n1. 9-13 24-20 0-1"))
    assert [len(game.moves) for game in games] == [2, 0, 2]
    assert games[1].error is not None and str(games[1].error).startswith("PDN game 2, move 1")


def test_a_file_is_read_lazily_and_sequences_are_written() -> None:
    consumed = 0
    text = "".join(f'[Round "{n}"]\n1. 11-15 23-19 *\n\n' for n in range(1, 501))

    def lines() -> Iterator[str]:
        nonlocal consumed
        for line in text.splitlines(keepends=True):
            consumed += 1
            yield line

    games = iter_pdn(lines())
    assert next(games).tags["Round"] == "1"
    assert consumed < 6
    rest = list(games)
    assert len(rest) == 499 and all(game.error is None for game in rest)
    again = read_pdn(write_pdn(rest[:3]))
    assert [game.tags["Round"] for game in again] == ["2", "3", "4"]


# -- variations ---------------------------------------------------------------------


def test_variations_are_read_checked_and_written_back() -> None:
    text = (
        "1. 11-15 (1. 9-13 22-18 (1... 24-20 2. 13-17)) 23-19 {main} "
        "2. 8-11 (2. 15-18 22x15) 22-17 *"
    )
    game = read_pdn_game(text)
    assert [move.path for move in game.moves] == [(11, 15), (23, 19), (8, 11), (22, 17)]
    first = game.variations[0][0]
    assert [move.path for move in first.moves] == [(9, 13), (22, 18)]
    assert [move.path for move in first.variations[1][0].moves] == [(24, 20), (13, 17)]
    assert [move.path for move in game.variations[2][0].moves] == [(15, 18), (22, 15)]
    written = write_pdn(game)
    flat = " ".join(written.split())
    assert "1. 11-15 (1. 9-13 22-18 (1... 24-20 2. 13-17)) 1... 23-19 {main}" in flat
    assert "2. 8-11 (2. 15-18 22x15) 2... 22-17 *" in flat
    again = read_pdn_game(written)
    assert again.variations == game.variations and again.moves == game.moves


def test_an_illegal_move_in_a_variation_is_named() -> None:
    with pytest.raises(NotationError, match=r"move 1 \(Black\), in a variation: 24-20"):
        read_pdn("1. 11-15 (24-20) 23-19 *")
    with pytest.raises(NotationError, match="a variation '\\(' before any move"):
        read_pdn("(11-15) 1. 11-15 *")


def test_a_long_line_never_breaks_after_a_move_number() -> None:
    state = CHECKERS.new_state()
    for _ in range(60):
        if state.is_over():
            break
        state.push(state.legal_moves()[-1])
    body = write_pdn(PdnGame.from_state(state)).split("\n\n", 1)[1]
    for line in body.splitlines():
        assert not line.rstrip().endswith("."), line


# -- which side 1-0 is a win for -----------------------------------------------------

# White's man on 18 jumps Black's last man: White wins by the position.
WHITE_WINS = '[FEN "W:W18:B14"]\n1... 18x9 '
# Black resigns at once: nothing on the board says who won.
UNDECIDED = "1. 11-15 23-19 "


def test_written_results_say_their_convention_in_the_file() -> None:
    state = CHECKERS.state_from_text("W:W18:B14")
    state.play("18x9")
    text = write_pdn(PdnGame.from_state(state))
    assert '[Result "1-0"]' in text
    assert '[ResultConvention "PDN standard: 1-0 is a White win, 0-1 a Black win"]' in text
    assert read_pdn_game(text).result == "1-0"


def test_a_file_that_writes_1_0_for_black_is_read_by_its_decided_games() -> None:
    # The first game shows the file's convention: White won, written 0-1.
    text = WHITE_WINS + "0-1\n\n" + UNDECIDED + "1-0\n\n" + UNDECIDED + "0-1\n"
    first, second, third = read_pdn(text)
    assert first.result == "1-0"
    assert (second.result, third.result) == ("0-1", "1-0")


def test_the_standard_is_kept_when_decided_games_follow_it() -> None:
    text = WHITE_WINS + "1-0\n\n" + UNDECIDED + "1-0\n"
    assert [game.result for game in read_pdn(text)] == ["1-0", "1-0"]
    # Without a decided game or a tag, the standard.
    assert read_pdn_game(UNDECIDED + "0-1").result == "0-1"


def test_a_convention_tag_is_obeyed_and_not_kept_as_a_tag() -> None:
    tagged = '[ResultConvention "1-0 is a Black win"]\n' + UNDECIDED + "1-0"
    game = read_pdn_game(tagged)
    assert game.result == "0-1" and "ResultConvention" not in game.tags
    assert read_pdn_game(write_pdn(game)).result == "0-1"

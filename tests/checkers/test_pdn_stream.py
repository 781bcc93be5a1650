"""PDN files read one game at a time: a game of another draughts variant or with an
illegal move is an error of that game only, named with its number and move."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from parlour.checkers import iter_pdn, read_pdn, write_pdn
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

"""Backgammon matches and money sessions through the server: the optional rules go in
with the new game, are stored with it and come back on replay; games follow one
another with the score, the Crawford game and the end of the match kept by the rules;
the computer plays by the same rules; the whole match downloads as one .mat file."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.backgammon.board import Position
from parlour.backgammon.matchfile import read_mat
from parlour.backgammon.notation import position_id
from parlour.backgammon.rules import BACKGAMMON
from parlour.core import registry
from parlour.core.dice import Dice
from parlour.server import players
from tests.server.conftest import Table, new_table, serving, stored_events

BACKGAMMON_TARGET = registry.GAMES["backgammon"]


def on_turn(table: Table, words: str) -> dict[str, Any]:
    """The side on turn plays ``words`` (a cube action, a resignation...)."""
    game = table.game()
    assert words in game["legal_moves"], (words, game["legal_moves"])
    response = table.act(game["turn"], "move", game["version"], words)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def until_cube_turn(table: Table) -> dict[str, Any]:
    """Play the first legal play until a side is at the start of a turn (the cube
    decision before rolling)."""
    for _ in range(20):
        game = table.game()
        if game["board"]["phase"] == "cube":
            return game
        table.move(pick=0)
    raise AssertionError("no turn started")


def resigns(table: Table, level: str) -> dict[str, Any]:
    """The side at the start of its turn offers to resign at ``level``; the other
    side accepts."""
    game = until_cube_turn(table)
    loser = game["turn"]
    on_turn(table, f"resign {level}")
    ended = on_turn(table, "accept")
    assert ended["outcome"]["winner"] == 1 - loser
    return ended


def next_game(table: Table, side: int = 0) -> dict[str, Any]:
    response = table.act(side, "next-game")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_a_match_goes_game_by_game_to_its_end(db_url: str) -> None:
    with serving(db_url, dice=Dice(seed=11)) as client:
        table = new_table(
            client, "backgammon", opponent="local", rules={"match_length": 3, "max_cube": 64}
        )
        game = table.game()
        assert game["options"]["rules"]["match_length"] == 3
        assert game["series"]["kind"] == "match" and game["series"]["game_number"] == 1
        assert game["board"]["match_length"] == 3 and game["board"]["score"] == [0, 0]

        # Before the game ends there is no next game.
        refused = table.act(0, "next-game")
        assert refused.status_code == 422 and refused.json()["rule"] == "game-not-over"

        ended = resigns(table, "single")
        winner = ended["outcome"]["winner"]
        assert ended["series"]["points"][winner] == 1 and ended["series"]["next_game"]
        assert ended["status"] == "over"

        second = next_game(table)
        assert second["status"] == "playing" and second["series"]["game_number"] == 2
        assert second["board"]["score"][winner] == 1 and second["moves"][0]["side"] is None
        assert second["board"]["phase"] == "play"  # the opening throw is thrown already

        # Whoever won the first wins a single game again: two points, one away.
        while True:
            game = until_cube_turn(table)
            if game["turn"] != winner:
                break
            table.move(pick=0)
        on_turn(table, "resign single")
        ended = on_turn(table, "accept")
        assert ended["series"]["points"][winner] == 2 and ended["series"]["crawford_next"]

        crawford = next_game(table, side=1)
        assert crawford["board"]["crawford"] is True
        game = until_cube_turn(table)
        assert "double" not in game["legal_moves"]  # nobody doubles in the Crawford game
        refused = table.act(game["turn"], "move", game["version"], "double")
        assert refused.status_code == 422 and "Crawford" in refused.json()["detail"]
        # The leader resigns a gammon: 2-2.
        while until_cube_turn(table)["turn"] != winner:
            table.move(pick=0)
        on_turn(table, "resign gammon")
        ended = on_turn(table, "accept")
        assert sorted(ended["series"]["points"]) == [2, 2]

        # After the Crawford game the cube is live again; a dropped double ends the match.
        post = next_game(table)
        assert post["board"]["crawford"] is False
        game = until_cube_turn(table)
        doubler = game["turn"]
        on_turn(table, "double")
        over = on_turn(table, "drop")
        series = over["series"]
        assert series["over"] and series["winner"] == doubler and not series["next_game"]
        assert [g["points"] for g in series["games"]] == [1, 1, 2, 1]
        refused = table.act(0, "next-game")
        assert refused.status_code == 422 and refused.json()["detail"] == "the match is over"

        # The whole match downloads as one .mat file that reads back to the same games.
        text = client.get(f"/api/games/{table.id}/export").text
        read = read_mat(text)
        assert len(read.match.games) == 4
        assert read.match.scores.score == tuple(series["points"])
        assert read.match.is_over
        final = over

    # A restart rebuilds the match exactly from the stored events.
    with serving(db_url, dice=Dice(seed=11)) as client:
        again = Table(client, table.id, table.tokens).game()
        assert again == final
    kinds = [event.kind for event in stored_events(db_url, table.id)]
    assert kinds.count("next-game") == 3


def test_a_money_session_keeps_its_cube_rules(sqlite_url: str) -> None:
    rules = {"jacoby": True, "beavers": True, "automatic_doubles": 1}
    with serving(sqlite_url, dice=Dice(seed=5)) as client:
        table = new_table(client, "backgammon", opponent="local", rules=rules)
        game = table.game()
        assert game["series"]["kind"] == "money"
        assert game["options"]["rules"] == {
            "match_length": 0,
            "jacoby": True,
            "beavers": True,
            "automatic_doubles": 1,
            "max_cube": None,
        }
        until_cube_turn(table)
        on_turn(table, "double")
        beavered = on_turn(table, "beaver")  # offered only because beavers are on
        assert beavered["board"]["phase"] == "beavered"
        ended = on_turn(table, "drop")
        assert ended["outcome"]["reason"] == "beaver refused"
        assert sum(ended["series"]["points"]) == ended["outcome"]["points"]

        # A money session goes on as long as the players like.
        second = next_game(table, side=1)
        assert second["series"]["game_number"] == 2 and not second["series"]["over"]
        assert second["board"]["score"] == [0, 0]  # money play keeps no match score
        text = client.get(f"/api/games/{table.id}/export").text
        assert '; [Jacoby "On"]' in text and '; [Beavers "On"]' in text
        assert read_mat(text).match.game.options.beavers

    # Without the rules, the same double cannot be beavered.
    with serving(sqlite_url, dice=Dice(seed=5)) as client:
        plain = new_table(client, "backgammon", opponent="local")
        assert plain.game()["series"]["kind"] == "money"
        until_cube_turn(plain)
        on_turn(plain, "double")
        assert "beaver" not in plain.game()["legal_moves"]


@pytest.mark.parametrize(
    ("rules", "detail"),
    [
        ({"match_length": 5, "jacoby": True}, "the Jacoby rule is for money play"),
        ({"match_length": 3, "beavers": True}, "beavers are for money play"),
        ({"match_length": 65}, "match_length must be a whole number from 0 to 64"),
        ({"match_length": -1}, "match_length must be a whole number from 0 to 64"),
        ({"max_cube": 48}, "max_cube must be a power of two"),
        ({"automatic_doubles": 9}, "automatic_doubles must be a whole number from 0 to 6"),
        ({"jacoby": 1}, "jacoby must be true or false"),
        ({"crawford": False}, "backgammon has no rule 'crawford'"),
    ],
)
def test_bad_rules_are_refused_and_create_nothing(
    sqlite_url: str, rules: dict[str, Any], detail: str
) -> None:
    with serving(sqlite_url) as client:
        response = client.post(
            "/api/games", json={"game": "backgammon", "opponent": "local", "rules": rules}
        )
        assert response.status_code == 400
        assert response.json()["error"] == "bad-rules"
        assert detail in response.json()["detail"]
    assert not stored_game_ids(sqlite_url)


def test_rules_of_the_wrong_shape_or_game_are_refused(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        cases: list[tuple[dict[str, object], str]] = [
            ({"game": "backgammon", "rules": {"match_length": "5"}}, "bad-request"),
            ({"game": "backgammon", "rules": [5]}, "bad-request"),
            ({"game": "backgammon", "rules": {f"k{n}": 1 for n in range(9)}}, "bad-request"),
            ({"game": "chess", "rules": {"match_length": 5}}, "bad-rules"),
        ]
        for body, error in cases:
            response = client.post("/api/games", json={"opponent": "local", **body})
            assert response.status_code == 400, (body, response.text)
            assert response.json()["error"] == error, response.json()
        # A lone game has no next game.
        table = new_table(client, "chess", opponent="local")
        assert table.act(0, "resign").status_code == 200
        refused = table.act(1, "next-game")
        assert refused.status_code == 422
        assert refused.json()["detail"] == "this game is not part of a match"
    assert len(stored_game_ids(sqlite_url)) == 1


def stored_game_ids(url: str) -> list[str]:
    from parlour.server.storage import Store

    store = Store(url)
    try:
        return store.game_ids("playing") + store.game_ids("over")
    finally:
        store.close()


def test_the_computer_plays_by_the_games_rules() -> None:
    """The worker is given the rules: with the cube capped at 1 no computer level
    offers a double, and the engine answers a double with a beaver only where
    beavers are allowed."""
    state = BACKGAMMON.new_state()
    for text in ["31", "8/5 6/5"]:
        state.play(text)
    position = state.to_text()
    assert "double" in [state.move_to_text(m) for m in state.legal_moves()]
    random_level = players.target_of("random")
    for seed in range(40):
        chosen = players.think(
            random_level, BACKGAMMON_TARGET, "backgammon", {"max_cube": 1}, position, seed
        )
        assert chosen in ("roll", "resign single", "resign gammon", "resign backgammon")
    assert any(
        players.think(random_level, BACKGAMMON_TARGET, "backgammon", {}, position, seed) == "double"
        for seed in range(40)
    )
    # A double the engine should beaver: the doubler is far behind in a race.
    doubler = (0, 0, 0, 3, 3, 3, 3, 3) + (0,) * 17  # 90 pips
    taker = (3, 3, 3, 3, 3) + (0,) * 20  # 45 pips
    doubled = BACKGAMMON.state_from_text(position_id(Position(doubler, taker)))
    doubled.play("double")
    position = doubled.to_text()
    for level in ("1", "4", "7"):
        target = players.target_of(level)
        assert players.think(target, BACKGAMMON_TARGET, "backgammon", {}, position, 1) == "take"
        beaver = players.think(
            target, BACKGAMMON_TARGET, "backgammon", {"beavers": True}, position, 1
        )
        assert beaver == "beaver", level
    advice = players.hint(BACKGAMMON_TARGET, "backgammon", {}, position)
    assert advice["move"] == "take" and "beaver" not in advice["assessment"]
    advice = players.hint(BACKGAMMON_TARGET, "backgammon", {"beavers": True}, position)
    assert advice["move"] == "beaver" and advice["assessment"].endswith("no double, beaver")

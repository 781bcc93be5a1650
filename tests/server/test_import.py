"""Games imported from files (``POST /api/games/import``): the first game, or match,
of a PGN, PDN or .mat file replayed through the rules into a game at one screen, to
look back over, analyse at once or play on; set-up positions kept; bad files refused
with what is wrong and nothing created."""

from __future__ import annotations

import time
from typing import Any

from parlour.core.dice import Dice
from parlour.server.app import MAX_IMPORT
from tests.server.conftest import Table, new_table, serving, stored_events

SCHOLARS_MATE = """[Event "Casual game"]
[White "Ann Example"]
[Black "Bob Example"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""

RESIGNED = """[White "Ann"]
[Black "Bob"]
[Result "0-1"]

1. f3 e5 0-1
"""

SET_UP = """[White "Ann"]
[Black "Bob"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[Result "*"]

1. e4 Kd7 *
"""

UNFINISHED_CHECKERS = """[Event "Club night"]
[White "Wyn"]
[Black "Bea"]
[Result "*"]

1. 11-15 23-19 2. 8-11 22-17 *
"""


def imported(client: Any, game: str, text: str) -> tuple[Table, dict[str, Any]]:
    response = client.post("/api/games/import", json={"game": game, "text": text})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    tokens = {seat["side"]: seat["token"] for seat in data["seats"]}
    return Table(client, data["game"]["id"], tokens), data


def analysed(client: Any, game_id: str) -> dict[str, Any]:
    """The game's analysis, once it is no longer running (two minutes at most)."""
    deadline = time.monotonic() + 120
    while (found := client.get(f"/api/games/{game_id}/analysis").json())["status"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    result: dict[str, Any] = found
    return result


def refusal(client: Any, game: str, text: str) -> dict[str, Any]:
    response = client.post("/api/games/import", json={"game": game, "text": text})
    assert 400 <= response.status_code < 500, response.text
    found: dict[str, Any] = response.json()
    found["status"] = response.status_code
    return found


def test_a_finished_chess_game_is_imported_and_analysed_at_once(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table, data = imported(client, "chess", SCHOLARS_MATE)
        game = data["game"]
        assert data["games"] == 1 and game["status"] == "over"
        assert game["outcome"]["winner"] == 0 and game["outcome"]["reason"] == "checkmate"
        texts = [move["text"] for move in game["moves"]]
        assert texts == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
        assert game["options"]["opponent"] == "local" and set(table.tokens) == {0, 1}
        # The file's players name the download's players.
        exported = client.get(f"/api/games/{table.id}/export").text
        assert '[White "Ann Example"]' in exported and '[Black "Bob Example"]' in exported
        # Looking back: the position after White's first move.
        at = client.get(f"/api/games/{table.id}/at", params={"version": 1}).json()
        assert at["board"]["pieces"]["e4"] == "P"
        begun = client.post(f"/api/games/{table.id}/analysis", json={})
        assert begun.status_code == 202, begun.text
        found = analysed(client, table.id)
        assert found["status"] == "done", found
        judged = {move["move"]: move["judgement"] for move in found["review"]["moves"]}
        assert judged["Nf6"] == "blunder"  # allows the mate in one
        black = found["review"]["summary"]["Black"]
        assert black["name"] == "Bob Example" and black["counts"]["blunder"] >= 1


def test_an_ending_off_the_board_is_replayed(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table, data = imported(client, "chess", RESIGNED)
        game = data["game"]
        assert game["status"] == "over" and game["outcome"]["winner"] == 1
        kinds = [event.kind for event in stored_events(sqlite_url, table.id)]
        assert kinds == ["move", "move", "resign"]


def test_a_set_up_position_is_kept_and_played_on(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table, data = imported(client, "chess", SET_UP)
        assert data["game"]["status"] == "playing"
        start = client.get(f"/api/games/{table.id}/at", params={"version": 0}).json()
        assert start["board"]["pieces"] == {"e8": "k", "e2": "P", "e1": "K"}
        assert table.act(0, "move", 2, "e5").status_code == 200
    with serving(sqlite_url) as client:  # a restart replays it from its own start
        again = Table(client, table.id, table.tokens).game()
        assert again["version"] == 3 and again["board"]["pieces"]["e5"] == "P"


def test_an_unfinished_game_at_one_screen_is_analysed_as_far_as_it_goes(
    sqlite_url: str,
) -> None:
    with serving(sqlite_url) as client:
        table, data = imported(client, "checkers", UNFINISHED_CHECKERS)
        assert data["game"]["status"] == "playing" and data["game"]["version"] == 4
        begun = client.post(f"/api/games/{table.id}/analysis", json={})
        assert begun.status_code == 202, begun.text
        found = analysed(client, table.id)
        assert found["status"] == "done" and len(found["review"]["curve"]) == 5
        # Played on, the game's analysis is of an earlier position: asked for again.
        assert table.move()["version"] == 5
        assert client.get(f"/api/games/{table.id}/analysis").json()["status"] == "none"
        # A friend's game still in play is not analysed: that would be help.
        friends = new_table(client, "chess", opponent="friend")
        refused = client.post(f"/api/games/{friends.id}/analysis", json={})
        assert refused.status_code == 409 and refused.json()["error"] == "not-over"


def test_a_backgammon_match_comes_back_game_by_game(sqlite_url: str) -> None:
    with serving(sqlite_url, dice=Dice(seed=5)) as client:
        played = new_table(client, "backgammon", opponent="local", rules={"match_length": 3})
        for _ in range(3000):
            game = played.game()
            if game["status"] == "over":
                if not game["series"]["next_game"]:
                    break
                assert played.act(0, "next-game").status_code == 200
                continue
            moves = [m for m in game["legal_moves"] if m not in ("double", "beaver")]
            response = played.act(game["turn"], "move", game["version"], moves[0])
            assert response.status_code == 200, response.text
        original = played.game()
        assert original["series"]["over"]
        text = client.get(f"/api/games/{played.id}/export").text

        _, data = imported(client, "backgammon", text)
        assert data["games"] == len(original["series"]["games"])
        game = data["game"]
        assert game["series"]["points"] == original["series"]["points"]
        assert game["series"]["over"] and game["board"]["score"] == original["board"]["score"]
        texts = [m["text"] for m in original["moves"]]
        while texts[0][0] == texts[0][1] and texts[0].isdigit():
            texts.pop(0)  # a tied opening throw, thrown again, is not in a .mat file
        assert [m["text"] for m in game["moves"]] == texts
        assert game["options"]["rules"]["match_length"] == 3


def test_bad_files_are_refused_with_what_is_wrong(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        illegal = refusal(client, "chess", '[White "A"]\n\n1. e4 e5 2. Ke3 *\n')
        assert illegal["error"] == "bad-file" and "Ke3" in illegal["detail"]
        garbage = refusal(client, "backgammon", "this is not a match file")
        assert garbage["error"] == "bad-file" and garbage["status"] == 400
        empty = refusal(client, "checkers", "\n\n")
        assert empty["error"] in ("bad-file", "bad-request")
        unknown = refusal(client, "go", SCHOLARS_MATE)
        assert unknown["status"] == 404 and unknown["error"] == "unknown-game"
        huge = refusal(client, "chess", "1. e4 " * (MAX_IMPORT // 6 + 10))
        assert huge["status"] in (400, 413)
        wrong_shape = client.post("/api/games/import", json={"game": "chess"})
        assert wrong_shape.status_code == 400
        listing = client.get("/api/games/import")
        assert listing.status_code == 404  # no game is called "import"


def test_an_imported_game_is_played_on_against_the_computer_or_a_friend(
    sqlite_url: str,
) -> None:
    with serving(sqlite_url) as client:
        # Four plies in: White (side 0) to move; the player takes Black, so the
        # computer plays White's move at once.
        body = {"game": "checkers", "text": UNFINISHED_CHECKERS, "opponent": "computer"}
        response = client.post("/api/games/import", json={**body, "side": 1, "level": "1"})
        assert response.status_code == 201, response.text
        data = response.json()
        assert [seat["side"] for seat in data["seats"]] == [1] and data["invite_url"] is None
        table = Table(client, data["game"]["id"], {1: data["seats"][0]["token"]})
        deadline = time.monotonic() + 30
        while (game := table.game())["version"] == 4:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert game["seats"][0]["player"] == "computer" and game["turn"] == 1
        assert [m["side"] for m in game["moves"]][:5] == [0, 1, 0, 1, 0]
        # Against an opponent, the coach waits for the end (it would be help).
        assert client.post(f"/api/games/{table.id}/analysis", json={}).status_code == 409
        friend = client.post(
            "/api/games/import",
            json={"game": "chess", "text": SET_UP, "opponent": "friend", "side": 0},
        ).json()
        assert friend["invite_url"].startswith(f"/#join={friend['game']['id']}.")
        assert friend["game"]["seats"][1]["taken"] is False
        bad = client.post("/api/games/import", json={**body, "level": "99"})
        assert bad.status_code == 400 and "no computer level" in bad.json()["detail"]

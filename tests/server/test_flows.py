"""The core flows over HTTP and WebSocket, against SQLite and PostgreSQL alike:
creating, joining, playing, ending, watching, reconnecting; and a restart of the app
on the same database rebuilds every game exactly."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour.core import registry
from parlour.core.protocol import CHANCE
from parlour.server.storage import Store
from tests.server.conftest import Table, new_table, serving, stored_events

#: The test game and every real game registered by now.
ALL_GAMES = sorted({"race", *registry.GAMES})


def play_out(table: Table, seed: int, limit: int = 400) -> dict[str, Any]:
    """Play random legal moves through the API until the game ends (or ``limit``)."""
    rng = random.Random(seed)
    game = table.game()
    for _ in range(limit):
        if game["status"] == "over":
            break
        assert isinstance(game["turn"], int), game  # the server throws the dice itself
        move = rng.choice(game["legal_moves"])
        response = table.act(game["turn"], "move", game["version"], move)
        assert response.status_code == 200, response.text
        game = response.json()
    return game


def test_a_local_game_is_played_to_its_end_and_logged(db_url: str) -> None:
    with serving(db_url) as client:
        table = new_table(client, opponent="local")
        start = table.game()
        assert start["version"] == 1 and start["moves"][0]["side"] is None  # the first throw
        assert start["turn"] == 0 and start["legal_moves"]
        end = play_out(table, seed=1)
        assert end["status"] == "over" and end["outcome"]["reason"] in ("reached ten", "deadlock")
        assert end["legal_moves"] == [] and end["turn"] is None
        # The log has every move and throw in order, versions without gaps.
        events = client.get(f"/api/games/{table.id}/events").json()["events"]
        assert [e["version"] for e in events] == list(range(1, end["version"] + 1))
        assert [(e["kind"], e["payload"]) for e in events] == [
            ("throw" if m["side"] is None else "move", m["text"]) for m in end["moves"]
        ]
        kinds = {e["kind"] for e in events}
        assert kinds == {"throw", "move"}
        # Nothing more is accepted.
        late = table.act(0, "move", end["version"], "+1")
        assert late.status_code == 422 and late.json()["rule"] == "game-over"
    stored = stored_events(db_url, table.id)
    assert [(e.version, e.kind, e.payload) for e in stored] == [
        (e["version"], e["kind"], e["payload"]) for e in events
    ]
    # A new server on the same database rebuilds the game exactly.
    with serving(db_url) as client:
        again = Table(client, table.id, table.tokens).game()
    assert again == end


def test_a_friend_joins_once_through_the_invite(db_url: str) -> None:
    with serving(db_url) as client:
        table = new_table(client, opponent="friend", side=1)
        assert table.invite and list(table.tokens) == [1]
        seats = table.game()["seats"]
        assert [s["taken"] for s in seats] == [False, True]
        # The invite is no token: it cannot play.
        bad = client.post(
            f"/api/games/{table.id}/actions",
            json={"action": "move", "version": 1, "move": "+1"},
            headers={"Authorization": f"Bearer {table.invite}"},
        )
        assert bad.status_code == 401
        joined = client.post(f"/api/games/{table.id}/join", json={"invite": table.invite})
        assert joined.status_code == 200, joined.text
        assert joined.json()["side"] == 0 and joined.json()["game"]["seats"][0]["taken"]
        table.tokens[0] = joined.json()["token"]
        assert client.post(f"/api/games/{table.id}/join", json={"invite": table.invite}).json() == {
            "error": "bad-invite",
            "detail": "this invite is not valid (or already used)",
        }
        game = table.game()
        assert game["version"] == 2  # the throw, then the friend sitting down
        # The creator (Blue) may not move for Red.
        refused = table.act(1, "move", game["version"], game["legal_moves"][0])
        assert refused.status_code == 403 and refused.json()["error"] == "not-your-turn"
        assert table.move()["version"] == 4
    kinds = [e.kind for e in stored_events(db_url, table.id)]
    assert kinds == ["throw", "join", "move", "throw"]
    # Tokens are stored only as hashes.
    store = Store(db_url)
    try:
        hashes = [s.token_hash for s in store.load_game(table.id).seats]
    finally:
        store.close()
    assert table.tokens[0] not in hashes and table.tokens[1] not in hashes
    assert all(h is not None and len(h) == 64 for h in hashes)


def test_stale_versions_and_wrong_seats_change_nothing(db_url: str) -> None:
    with serving(db_url) as client:
        table = new_table(client, opponent="local")
        table.move()
        game = table.game()
        before = stored_events(db_url, table.id)
        stale = table.act(game["turn"], "move", game["version"] - 2, game["legal_moves"][0])
        assert stale.status_code == 409
        assert stale.json()["error"] == "stale-version"
        assert stale.json()["version"] == game["version"]
        ahead = table.act(game["turn"], "move", game["version"] + 1, game["legal_moves"][0])
        assert ahead.status_code == 409
        off_turn = table.act(1 - game["turn"], "move", game["version"], game["legal_moves"][0])
        assert off_turn.status_code == 403
        assert table.game() == game
    assert stored_events(db_url, table.id) == before


def test_resign_and_draws_go_through_the_protocol(db_url: str) -> None:
    with serving(db_url) as client:
        table = new_table(client, opponent="local")
        v = table.game()["version"]
        # No draw to claim in the race.
        claim = table.act(0, "claim-draw", v)
        assert claim.status_code == 422 and claim.json()["rule"] == "no-draw-claim"
        # Only the other side answers an offer; a decline clears it.
        assert table.act(0, "accept-draw", v).json()["error"] == "no-draw-offer"
        offered = table.act(0, "offer-draw", v)
        assert offered.status_code == 200 and offered.json()["draw_offer"] == 0
        assert table.act(0, "offer-draw", v + 1).json()["error"] == "draw-offered"
        assert table.act(0, "accept-draw", v + 1).json()["error"] == "no-draw-offer"
        declined = table.act(1, "decline-draw", v + 1)
        assert declined.status_code == 200 and declined.json()["draw_offer"] is None
        table.act(1, "offer-draw", v + 2)
        accepted = table.act(0, "accept-draw", v + 3).json()
        assert accepted["outcome"] == {
            "winner": None,
            "winner_name": None,
            "reason": "agreement",
            "points": 0,
        }
        assert accepted["status"] == "over"

        other = new_table(client, opponent="local")
        resigned = other.act(1, "resign").json()
        assert resigned["outcome"]["winner"] == 0 and resigned["outcome"]["reason"] == "resignation"
        assert resigned["outcome"]["winner_name"] == "Red"
        assert other.act(0, "resign", resigned["version"]).json()["rule"] == "game-over"
    kinds = [e.kind for e in stored_events(db_url, table.id)]
    assert kinds == ["throw", "draw-offer", "draw-decline", "draw-offer", "draw-accept"]


def test_websocket_seat_plays_and_watchers_follow(db_url: str) -> None:
    with serving(db_url) as client:
        table = new_table(client, opponent="local")
        path = f"/api/games/{table.id}/live"
        with client.websocket_connect(path) as seat, client.websocket_connect(path) as watcher:
            seat.send_json({"type": "hello", "since": 0, "token": table.tokens[0]})
            watcher.send_json({"type": "hello"})
            assert seat.receive_json() == {"type": "welcome", "seat": 0}
            assert watcher.receive_json() == {"type": "welcome", "seat": None}
            first = seat.receive_json()
            assert first["type"] == "update" and [e["version"] for e in first["events"]] == [1]
            assert watcher.receive_json() == first
            game = first["game"]
            seat.send_json(
                {
                    "type": "action",
                    "id": 7,
                    "action": "move",
                    "version": game["version"],
                    "move": game["legal_moves"][0],
                }
            )
            update = seat.receive_json()
            assert update["type"] == "update"
            assert [(e["kind"], e["seat"]) for e in update["events"]] == [
                ("move", 0),
                ("throw", None),
            ]
            assert seat.receive_json() == {"type": "result", "id": 7, "version": 3}
            assert watcher.receive_json() == update
            # Watching is read-only; a second seat's token may be given per action.
            watcher.send_json({"type": "action", "id": "w", "action": "resign", "version": 3})
            assert watcher.receive_json()["error"] == "read-only"
            seat.send_json(
                {
                    "type": "action",
                    "id": 8,
                    "action": "resign",
                    "version": 3,
                    "token": table.tokens[1],
                }
            )
            resigned = seat.receive_json()
            assert resigned["game"]["outcome"]["winner"] == 0
            assert seat.receive_json()["type"] == "result"
            assert watcher.receive_json() == resigned
            seat.send_json({"type": "ping"})
            assert seat.receive_json() == {"type": "pong", "version": 4}


def test_a_reconnection_receives_what_it_missed(db_url: str) -> None:
    with serving(db_url) as client:
        table = new_table(client, opponent="local")
        path = f"/api/games/{table.id}/live"
        with client.websocket_connect(path) as ws:
            ws.send_json({"type": "hello"})
            ws.receive_json()
            seen = ws.receive_json()["game"]["version"]
        # Three moves while away.
        for _ in range(3):
            table.move()
        missed = stored_events(db_url, table.id)[seen:]
        assert len(missed) == 6
        with client.websocket_connect(path) as ws:
            ws.send_json({"type": "hello", "since": seen})
            ws.receive_json()
            catch_up = ws.receive_json()
            assert [(e["version"], e["kind"], e["payload"]) for e in catch_up["events"]] == [
                (e.version, e.kind, e.payload) for e in missed
            ]
            assert catch_up["game"] == table.game()
            # ...then the live ones.
            table.move()
            live = ws.receive_json()
            assert [e["version"] for e in live["events"]] == [seen + 7, seen + 8]
        # A reconnection that has everything gets no events, only the game.
        with client.websocket_connect(path) as ws:
            ws.send_json({"type": "hello", "since": seen + 8})
            ws.receive_json()
            assert ws.receive_json()["events"] == []


@pytest.mark.parametrize("name", ALL_GAMES)
def test_every_registered_game_is_served_generically(sqlite_url: str, name: str) -> None:
    game = registry.get_game(name)
    with serving(sqlite_url) as client:
        catalogue = client.get("/api/catalogue").json()
        assert name in [g["name"] for g in catalogue["games"]]
        table = new_table(client, name, opponent="local")
        start = table.game()
        assert start["title"] == game.title and start["side_names"] == list(game.side_names)
        opening = _replayed(game, [m["text"] for m in start["moves"]])  # a throw, or nothing
        assert start["position"] == opening.to_text()
        end = play_out(table, seed=5, limit=12)
    # The server's position is the protocol's own replay of the move record...
    state = _replayed(game, [m["text"] for m in end["moves"]])
    assert end["position"] == state.to_text()
    assert len(end["moves"]) == end["version"]
    if end["status"] == "playing" and state.turn is not CHANCE:
        assert end["legal_moves"] == [state.move_to_text(m) for m in state.legal_moves()]
    # ...and a new server rebuilds the same game from its log.
    with serving(sqlite_url) as client:
        assert Table(client, table.id, table.tokens).game() == end


def _replayed(game: Any, texts: list[str]) -> Any:
    state = game.new_state()
    for text in texts:
        state.push(state.parse_move(text))
    return state


def test_friends_play_a_rematch_with_the_colours_swapped(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table = new_table(client, "chess", opponent="friend")
        joined = client.post(f"/api/games/{table.id}/join", json={"invite": table.invite})
        assert joined.status_code == 200
        table.tokens[1] = joined.json()["token"]
        early = client.post(
            f"/api/games/{table.id}/rematch",
            json={},
            headers={"Authorization": f"Bearer {table.tokens[0]}"},
        )
        assert early.status_code == 409 and early.json()["error"] == "not-over"
        for move in ("f3", "e5", "g4", "Qh4#"):
            game = table.game()
            assert table.act(game["turn"], "move", game["version"], move).status_code == 200
        # The loser asks; a watcher with no seat cannot.
        refused = client.post(
            f"/api/games/{table.id}/rematch", json={}, headers={"Authorization": "Bearer nobody"}
        )
        assert refused.status_code == 401
        asked = client.post(
            f"/api/games/{table.id}/rematch",
            json={},
            headers={"Authorization": f"Bearer {table.tokens[0]}"},
        )
        assert asked.status_code == 201, asked.text
        fresh = asked.json()
        new_id = fresh["game"]["id"]
        assert fresh["seats"] == [{"side": 1, "token": fresh["seats"][0]["token"]}]  # Black now
        assert table.game()["rematch"] == new_id
        twice = client.post(
            f"/api/games/{table.id}/rematch",
            json={},
            headers={"Authorization": f"Bearer {table.tokens[1]}"},
        )
        assert twice.status_code == 409 and twice.json()["error"] == "rematch-offered"
        # The friend takes the other seat with the token they held in the old game.
        wrong = client.post(f"/api/games/{new_id}/join", json={"invite": "guess"})
        assert wrong.status_code == 403
        took = client.post(f"/api/games/{new_id}/join", json={"invite": table.tokens[1]})
        assert took.status_code == 200 and took.json()["side"] == 0  # White now
        rematch = Table(client, new_id, {0: took.json()["token"], 1: fresh["seats"][0]["token"]})
        assert rematch.act(0, "move", rematch.game()["version"], "e4").status_code == 200
        again = client.post(f"/api/games/{new_id}/join", json={"invite": table.tokens[1]})
        assert again.status_code == 403  # once only
        # At one screen there is no rematch to offer: "play again" makes a new game.
        local = new_table(client, "chess", opponent="local")
        alone = client.post(
            f"/api/games/{local.id}/rematch",
            json={},
            headers={"Authorization": f"Bearer {local.tokens[0]}"},
        )
        assert alone.status_code == 403 and alone.json()["error"] == "no-rematch"


def test_a_list_of_games_answers_each_known_one(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        one = new_table(client, opponent="local")
        two = new_table(client, "chess", opponent="local")
        two.move(0)  # a first move, to spoil below
        listed = client.get(f"/api/games?ids={one.id},nosuchgame,{two.id},{one.id}").json()
        assert [game["id"] for game in listed["games"]] == [one.id, two.id]
        assert listed["games"][1]["players"] == ["human", "human"]
        # Moves as players count them: the race's first throw of the dice is none.
        assert [game["moves"] for game in listed["games"]] == [0, 1]
        assert listed["games"][1]["title"] == "Chess"
        for bad in ("", "?ids=", "?ids=" + ",".join(["x"] * 51), "?ids=" + "y" * 40):
            response = client.get(f"/api/games{bad}")
            assert response.status_code == 400, (bad, response.text)
    # A game whose stored log no longer replays (a move changed by hand in the
    # database) is named as unreadable; the others are listed as ever.
    store = Store(sqlite_url)
    try:
        with store.engine.begin() as conn:
            conn.exec_driver_sql(
                "UPDATE events SET payload = 'e5' WHERE game_id = ? AND version = 1", (two.id,)
            )
    finally:
        store.close()
    with serving(sqlite_url) as client:
        listed = client.get(f"/api/games?ids={one.id},{two.id}").json()["games"]
        assert [game["id"] for game in listed] == [one.id, two.id]
        assert listed[1]["status"] == "unreadable" and "cannot be rebuilt" in listed[1]["detail"]
        assert listed[0]["title"] == "Race to ten"

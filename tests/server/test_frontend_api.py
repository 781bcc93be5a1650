"""The endpoints the browser front end uses: board data, the backgammon turn entered
step by step, the hint against the computer, the game's file, the rules pages and
the engine levels offered as computer levels."""

from __future__ import annotations

import warnings
from pathlib import Path

import chess
import chess.pgn

from parlour.core.dice import Dice
from parlour.server import players
from parlour.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def client_for(tmp_path: Path, dice: Dice | None = None) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", dice=dice, workers=1))


def test_catalogue_offers_every_engine_level(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        games = {g["name"]: g for g in client.get("/api/catalogue").json()["games"]}
    names = [level["name"] for level in games["backgammon"]["levels"]]
    assert names == [*map(str, range(1, 8)), "random"]
    assert games["backgammon"]["default_level"] == "5"
    for game in games.values():
        assert game["levels"][-1]["name"] == "random"
        assert [level["name"] for level in game["levels"]] == players.levels_of(game["name"])


def test_chess_board_data_export_and_illegal_move(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        made = client.post("/api/games", json={"game": "chess", "opponent": "local"}).json()
        game_id, seats = made["game"]["id"], made["seats"]
        board = made["game"]["board"]
        assert board["pieces"]["e1"] == "K" and board["check"] is None
        assert {"from": "e2", "to": "e4", "promotion": None, "text": "e4"} in board["moves"]
        version = made["game"]["version"]
        for ply, text in enumerate(["f3", "e5", "g4"]):
            token = seats[ply % 2]["token"]
            answer = client.post(
                f"/api/games/{game_id}/actions",
                json={"action": "move", "version": version, "move": text},
                headers={"Authorization": f"Bearer {token}"},
            )
            version = answer.json()["version"]
        refused = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": "move", "version": version, "move": "Kd7"},
            headers={"Authorization": f"Bearer {seats[1]['token']}"},
        )
        assert refused.status_code == 422 and refused.json()["detail"]
        game = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": "move", "version": version, "move": "Qh4"},
            headers={"Authorization": f"Bearer {seats[1]['token']}"},
        ).json()
        assert game["outcome"]["reason"] == "checkmate" and game["board"]["check"] == "e1"
        assert game["board"]["last"] == ["d8", "h4"]
        exported = client.get(f"/api/games/{game_id}/export")
        assert exported.status_code == 200
        assert "attachment" in exported.headers["content-disposition"]
        day = game["created"][:10]  # the game's date names the file
        disposition = exported.headers["content-disposition"]
        assert f'filename="parlour-chess-{day}-{game_id}.pgn"' in disposition
    import io

    # python-chess, an independent reader, replays the file to the same mate.
    read = chess.pgn.read_game(io.StringIO(exported.text))
    assert read is not None and read.headers["Result"] == "0-1"
    assert read.end().board().is_checkmate()


def test_backgammon_steps_and_hint(tmp_path: Path) -> None:
    with client_for(tmp_path, dice=Dice(seed=3)) as client:
        made = client.post(
            "/api/games", json={"game": "backgammon", "opponent": "computer", "level": "1"}
        ).json()
        game_id, token = made["game"]["id"], made["seats"][0]["token"]
        game = made["game"]
        # Wait until it is our turn to move checkers (the computer may open).
        for _ in range(200):
            game = client.get(f"/api/games/{game_id}").json()
            if game["turn"] == 0 and game["board"]["phase"] in ("play", "cube"):
                break
        board = game["board"]
        assert sum(p for p in board["points"] if p > 0) + board["bar"][0] + board["off"][0] == 15
        auth = {"Authorization": f"Bearer {token}"}
        hint = client.get(f"/api/games/{game_id}/hint", headers=auth)
        assert hint.status_code == 200, hint.text
        assert hint.json()["move"] in game["legal_moves"]
        assert client.get(f"/api/games/{game_id}/hint").status_code == 401
        if board["phase"] == "cube":
            return
        steps: list[str] = []
        while True:
            turn = client.post(f"/api/games/{game_id}/steps", json={"steps": steps}).json()
            if turn["complete"] or not turn["options"]:
                break
            steps.append(turn["options"][0]["text"])
        assert turn["play"] in game["legal_moves"]
        bad = client.post(f"/api/games/{game_id}/steps", json={"steps": ["1/off"]})
        assert bad.status_code == 422 and bad.json()["detail"]
        mat = client.get(f"/api/games/{game_id}/export").text
        assert "point match" in mat


def test_hint_only_against_the_computer_and_rules_pages(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        made = client.post("/api/games", json={"game": "checkers", "opponent": "local"}).json()
        token = made["seats"][0]["token"]
        refused = client.get(
            f"/api/games/{made['game']['id']}/hint", headers={"Authorization": f"Bearer {token}"}
        )
        assert refused.status_code == 403 and "computer" in refused.json()["detail"]
        for name in ("chess", "checkers", "backgammon"):
            page = client.get(f"/rules/{name}")
            assert page.status_code == 200 and "<h1>" in page.text
        assert client.get("/rules/go").status_code == 404
        assert client.get("/static/app.js").status_code == 200


def test_looking_back_replays_the_log_to_any_version(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        made = client.post("/api/games", json={"game": "chess", "opponent": "local"}).json()
        game_id, seats = made["game"]["id"], made["seats"]
        version = made["game"]["version"]
        for ply, text in enumerate(["e4", "e5", "Nf3"]):
            version = client.post(
                f"/api/games/{game_id}/actions",
                json={"action": "move", "version": version, "move": text},
                headers={"Authorization": f"Bearer {seats[ply % 2]['token']}"},
            ).json()["version"]
        game = client.get(f"/api/games/{game_id}").json()
        # python-chess, independently, gives the position after each move.
        board = chess.Board()
        for entry in game["moves"]:
            board.push_san(entry["text"])
            then = client.get(f"/api/games/{game_id}/at?version={entry['version']}").json()
            assert then["position"] == board.fen()
            assert then["last_move"] == entry and not then["over"]
        start = client.get(f"/api/games/{game_id}/at?version=0").json()
        assert start["position"] == chess.STARTING_FEN and start["last_move"] is None
        assert start["board"]["pieces"]["e2"] == "P"
        for bad in ("4", "-1", "x", "", "9999999999"):
            refused = client.get(f"/api/games/{game_id}/at?version={bad}")
            assert refused.status_code == 400, bad
            assert refused.json()["error"] == "bad-request"
        # Looking back changes nothing.
        assert client.get(f"/api/games/{game_id}").json() == game

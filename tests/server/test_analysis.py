"""The coach on the server: a finished game analysed in the analysing worker, its
judged moves heard while it runs, the review kept in the store (a second request,
even after a restart, does not repeat it), and refusals where there is nothing to
analyse."""

from __future__ import annotations

import threading
import time
from typing import Any

from starlette.applications import Starlette

from tests.server.conftest import Table, new_table, serving

FOOLS_MATE = ("f3", "e5", "g4", "Qh4#")


def analysis(table: Table) -> dict[str, Any]:
    response = table.client.get(f"/api/games/{table.id}/analysis")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def until_done(table: Table, seconds: float) -> tuple[dict[str, Any], list[int]]:
    """Poll the analysis until it is done; the counts of judged moves seen."""
    deadline = time.monotonic() + seconds
    seen = []
    while True:
        found = analysis(table)
        seen.append(len(found["moves"]))
        if found["status"] != "running" or time.monotonic() > deadline:
            return found, seen
        time.sleep(0.2)


def test_a_finished_game_is_analysed_once_and_kept(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table = new_table(client, "chess", opponent="local")
        assert analysis(table)["status"] == "none"
        for move in FOOLS_MATE:
            game = table.game()
            assert table.act(game["turn"], "move", game["version"], move).status_code == 200
        assert table.game()["status"] == "over"
        begun = client.post(f"/api/games/{table.id}/analysis", json={})
        assert begun.status_code == 202, begun.text
        assert begun.json()["status"] in ("running", "done") and begun.json()["total"] == 4
        found, seen = until_done(table, 120)
        assert found["status"] == "done", found
        assert seen == sorted(seen)  # judged moves only ever added
        moves = found["review"]["moves"]
        assert [move["move"] for move in moves] == list(FOOLS_MATE)
        g4 = moves[2]
        assert g4["judgement"] == "blunder" and g4["side"] == 0 and g4["best"] != "g4"
        assert found["review"]["summary"]["White"]["counts"]["blunder"] == 1
        again = client.post(f"/api/games/{table.id}/analysis", json={})
        assert again.json()["status"] == "done"  # not repeated
    with serving(sqlite_url) as client:  # another server process: read from the store
        table = Table(client, table.id, table.tokens)
        kept = analysis(table)
        assert kept["status"] == "done" and kept["review"]["moves"] == moves


def test_what_cannot_be_analysed_is_refused_plainly(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        unknown = client.post("/api/games/nosuchgame/analysis", json={})
        assert unknown.status_code == 404
        race = new_table(client, "race", opponent="local")
        while race.game()["status"] != "over":
            race.move()
        refused = client.post(f"/api/games/{race.id}/analysis", json={})
        assert refused.status_code == 404 and refused.json()["error"] == "no-analysis"
        wrong = client.put(f"/api/games/{race.id}/analysis", json={})
        assert wrong.status_code == 405


def test_the_tutor_judges_a_move_before_it_is_played(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table = new_table(client, "chess", opponent="local")
        for move in ("e4", "e5", "Qh5", "Nc6", "Bc4"):
            game = table.game()
            assert table.act(game["turn"], "move", game["version"], move).status_code == 200

        def judge(version: int, move: str, side: int | None = 1) -> Any:
            headers = {} if side is None else {"Authorization": f"Bearer {table.tokens[side]}"}
            return client.post(
                f"/api/games/{table.id}/judge",
                json={"version": version, "move": move},
                headers=headers,
            )

        blunder = judge(5, "Nf6")
        assert blunder.status_code == 200, blunder.text
        assert blunder.json()["judgement"] == "blunder" and blunder.json()["best"] != "Nf6"
        assert blunder.json()["best_line"][0] == blunder.json()["best"]
        defended = judge(5, "g6").json()
        assert defended["judgement"] not in ("mistake", "blunder")
        assert table.game()["version"] == 5  # judging changes nothing
        illegal = judge(5, "Ke6")
        assert illegal.status_code == 422 and "Traceback" not in illegal.text
        assert judge(6, "g6").status_code == 409  # a version not reached yet
        earlier = judge(3, "Nf6")  # mid-game, only the present is judged
        assert earlier.status_code == 409 and earlier.json()["error"] == "not-over"
        assert judge(-1, "g6").status_code == 400
        # only the seat on turn may ask the tutor
        assert judge(5, "g6", side=0).status_code == 403
        assert judge(5, "g6", side=None).status_code == 403
        friends = new_table(client, "chess", opponent="friend", side=0)
        white = {"Authorization": f"Bearer {friends.tokens[0]}"}
        apart = client.post(
            f"/api/games/{friends.id}/judge", json={"version": 0, "move": "e4"}, headers=white
        )
        assert apart.status_code == 403 and apart.json()["error"] == "no-tutor"
        agreed = new_table(client, "chess", opponent="friend", side=0, tutor="mistake")
        assert agreed.game()["options"]["tutor"] == "mistake"  # both players see it
        mine = {"Authorization": f"Bearer {agreed.tokens[0]}"}
        asked = client.post(
            f"/api/games/{agreed.id}/judge", json={"version": 0, "move": "e4"}, headers=mine
        )
        assert asked.status_code == 200, asked.text
        assert asked.json()["judgement"] in (None, "inaccuracy")


def test_another_process_sees_an_analysis_running_then_done(postgres_url: str) -> None:
    with serving(postgres_url) as first, serving(postgres_url) as second:
        table = new_table(first, "chess", opponent="local")
        for move in FOOLS_MATE:
            game = table.game()
            assert table.act(game["turn"], "move", game["version"], move).status_code == 200
        begun = first.post(f"/api/games/{table.id}/analysis", json={})
        assert begun.status_code == 202
        elsewhere = Table(second, table.id, table.tokens)
        seen = analysis(elsewhere)
        assert seen["status"] in ("running", "done"), seen
        if seen["status"] == "running":
            again = second.post(f"/api/games/{table.id}/analysis", json={})
            assert again.json()["status"] in ("running", "done")  # not begun twice
        found, _ = until_done(elsewhere, 120)
        assert found["status"] == "done", found
        assert [move["move"] for move in found["review"]["moves"]] == list(FOOLS_MATE)


def test_an_analysis_asked_for_twice_at_once_is_made_once(postgres_url: str) -> None:
    # on PostgreSQL the store is read in threads: the asks interleave
    with serving(postgres_url) as client:
        table = new_table(client, "chess", opponent="local")
        for move in FOOLS_MATE:
            game = table.game()
            assert table.act(game["turn"], "move", game["version"], move).status_code == 200
        answers: list[Any] = []

        def ask() -> None:
            answers.append(client.post(f"/api/games/{table.id}/analysis", json={}))

        threads = [threading.Thread(target=ask) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert [answer.status_code for answer in answers] == [202] * 4
        assert isinstance(client.app, Starlette)
        hall = client.app.state.hall
        assert hall.analyses.running <= 1  # one analysis, whoever asked first
        found, _ = until_done(table, 120)
        assert found["status"] == "done"

"""A fourth game is a package and a registry entry: the test-only race game
(tests/conformance/toygame.py, which brings no face and no engine of its own) is
registered here and nowhere else, and the web server and the terminal app play it
through the registry alone, drawn by the generic face."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

import parlour.tui
from parlour import cli
from parlour.core import registry
from parlour.core.face import BasicFace
from parlour.tui.app import ParlourApp
from parlour.tui.session import Session
from parlour.tui.text_board import TextBoard
from tests.server.conftest import new_table, serving
from tests.tui.drive import drive, status

RACE = registry.GameEntry(rules="tests.conformance.toygame:RACE")


@pytest.fixture
def race_registered() -> Iterator[None]:
    registry.register("race", RACE)
    yield
    registry.unregister("race")


def test_the_registry_gives_a_generic_face_and_no_engine(race_registered: None) -> None:
    face = registry.get_face("race")
    assert isinstance(face, BasicFace) and face.export_suffix is None
    state = face.series(None).first()
    board = face.board(state)
    assert board["kind"] == "text" and board["picture"] == state.board_text()
    assert not registry.has_engine("race")
    with pytest.raises(ValueError, match="has no optional rules"):
        face.series({"match_length": 3})


def test_the_server_serves_it_from_start_to_end(race_registered: None, tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'games.db'}") as client:
        listed = client.get("/api/catalogue").json()
        assert "race" in {game["name"] for game in listed["games"]}
        table = new_table(client, "race", opponent="local")
        game = table.game()
        assert game["board"]["kind"] == "text" and game["can_export"] is False
        while not game["outcome"]:
            game = table.move(pick=0)
            assert game["board"]["kind"] == "text"
            assert game["board"]["moves"] == game["legal_moves"]
        assert game["outcome"]["winner"] in (0, 1, None)
        assert client.get(f"/api/games/{table.id}/export").status_code == 404


def test_parlour_play_plays_it_in_the_terminal(
    race_registered: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[Session] = []

    def run(session: Session, **_: object) -> int:
        started.append(session)
        return 0

    monkeypatch.setattr(parlour.tui, "run", run)
    assert cli.main(["play", "race", "--opponent", "human", "--seed", "3"]) == 0
    (session,) = started
    app = ParlourApp(session)

    async def script(pilot: Pilot[None]) -> None:
        board = app.board
        assert isinstance(board, TextBoard)
        picture = str(app.query_one("#text-picture", Static).render())
        assert picture == session.state.board_text()
        await pilot.press("plus", "1", "enter")  # a move typed...
        await pilot.pause()
        assert [text for text in session.texts if not text.startswith("throw")] == ["+1"]
        for _ in range(40):  # ...and the rest clicked (a race ends within 20 steps a side)
            if session.state.is_over():
                break
            buttons = list(app.query("#text-moves Button"))
            assert buttons, "the side to move is offered its moves"
            await pilot.click(f"#{buttons[0].id}")
            await pilot.pause()
        assert session.state.is_over()
        assert "wins" in status(app) or "Draw" in status(app)

    drive(app, script)

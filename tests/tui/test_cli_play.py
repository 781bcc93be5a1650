"""``parlour play``: the options reach the app; mistakes are refused clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

import parlour.tui
from parlour import cli
from parlour.core.protocol import Side
from parlour.tui.session import Options, Session


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Session, Path | None]]:
    """Capture the session the app would be started on, instead of starting it."""
    calls: list[tuple[Session, Path | None]] = []

    def fake_run(session: Session, *, save_path: Path | None = None) -> int:
        calls.append((session, save_path))
        return 0

    monkeypatch.setattr(parlour.tui, "run", fake_run)
    return calls


def test_play_passes_the_options(started: list[tuple[Session, Path | None]]) -> None:
    assert cli.main(["play", "checkers", "--opponent", "human", "--seed", "5"]) == 0
    session, save_path = started[0]
    assert session.options == Options(opponent="human", seed=5)
    assert save_path is None
    assert session.state.to_text() == session.game.new_state().to_text()


def test_play_from_a_position_as_the_second_side(
    started: list[tuple[Session, Path | None]],
) -> None:
    code = cli.main(
        ["play", "checkers", "--opponent", "human", "--side", "second", "--position", "W:W21:B1"]
    )
    assert code == 0
    session = started[0][0]
    assert session.options.side is Side.SECOND
    assert session.start_text == "W:W21:B1"


def test_resume(started: list[tuple[Session, Path | None]], tmp_path: Path) -> None:
    session = Session(parlour.tui.session.get_game("checkers"), Options())
    session.play_text("11-15")
    path = tmp_path / "saved.json"
    session.save(path)
    assert cli.main(["play", "checkers", "--resume", str(path)]) == 0
    resumed, save_path = started[0]
    assert resumed.texts == ["11-15"]
    assert save_path == path


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--level", "3", "--opponent", "human"], "--level is the computer's level"),
        (["--match", "5"], "--match is for backgammon"),
        (["--resume", "no-such-file.json"], "no saved game at no-such-file.json"),
        (["--plain", "--resume", "x.json"], "--resume is for the full-screen app"),
        (["--position", "B:W33:B1"], "square 33 is not on the board"),
    ],
)
def test_play_refuses_bad_options(
    started: list[tuple[Session, Path | None]],
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    message: str,
) -> None:
    assert cli.main(["play", "checkers", *arguments]) == cli.EXIT_ERROR
    assert message in capsys.readouterr().err
    assert started == []


def test_play_help_names_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    text = capsys.readouterr().out
    for option in ("--opponent", "--level", "--side", "--resume", "--plain"):
        assert option in text

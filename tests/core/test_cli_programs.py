"""A game's own programs (chess's ``parlour uci``) come to the command line from the
registry: the command line names no game's modules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from parlour import cli
from parlour.core import registry

RAN: list[str] = []


def race_report() -> int:
    """A program of the test game: it records that it ran and exits 3."""
    RAN.append("race-report")
    return 3


@pytest.fixture
def race_with_a_program() -> Iterator[None]:
    entry = registry.GameEntry(
        rules="tests.conformance.toygame:RACE",
        programs=(
            registry.Program("race-report", f"{__name__}:race_report", "report on the race"),
        ),
    )
    registry.register("race", entry)
    yield
    registry.unregister("race")


def test_a_game_s_program_is_a_command(
    race_with_a_program: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    shown = capsys.readouterr().out
    assert "race-report" in shown and "report on the race" in shown
    assert RAN == []  # listed, not run
    assert cli.main(["race-report"]) == 3
    assert RAN == ["race-report"]


def test_chess_brings_uci() -> None:
    (uci,) = [program for program in registry.programs() if program.command == "uci"]
    assert uci.main == "parlour.chess.uci:main"

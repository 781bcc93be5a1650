"""A game's own programs (chess's ``parlour uci``) come to the command line from the
registry: the command line names no game's modules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from parlour import cli
from parlour.core import registry

RAN: list[str] = []


def race_report(laps: int = 1) -> int:
    """A program of the test game: it records that it ran (and for how many laps)
    and exits 3."""
    RAN.append("race-report" if laps == 1 else f"race-report over {laps} laps")
    return 3


@pytest.fixture
def race_with_a_program() -> Iterator[None]:
    entry = registry.GameEntry(
        rules="tests.conformance.toygame:RACE",
        programs=(
            registry.Program(
                "race-report",
                f"{__name__}:race_report",
                "report on the race",
                options=(registry.Option("--laps", "how many laps", type=int, default=1),),
            ),
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
    RAN.clear()


def test_a_program_s_options_are_the_command_s(
    race_with_a_program: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """An option a program declares is the command's, in its --help, and its value
    reaches the program's main as a keyword."""
    with pytest.raises(SystemExit):
        cli.main(["race-report", "--help"])
    assert "--laps" in capsys.readouterr().out
    assert cli.main(["race-report", "--laps", "3"]) == 3
    assert RAN == ["race-report over 3 laps"]
    RAN.clear()
    with pytest.raises(SystemExit):
        cli.main(["race-report", "--laps", "three"])
    assert RAN == []


def test_checkers_endgames_takes_the_number_of_pieces(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["checkers-endgames", "--help"])
    assert "--pieces {4,5}" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["checkers-endgames", "--pieces", "6"])


def test_chess_brings_uci() -> None:
    (uci,) = [program for program in registry.programs() if program.command == "uci"]
    assert uci.main == "parlour.chess.uci:main"

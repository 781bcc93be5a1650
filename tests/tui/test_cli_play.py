"""``parlour play``: the options reach the app; mistakes are refused clearly."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import parlour.lineplay
import parlour.tui
from parlour import cli
from parlour.backgammon.cube import CubeOptions
from parlour.backgammon.rules import BackgammonState
from parlour.core.protocol import Game, Side
from parlour.core.registry import get_game
from parlour.tui.session import Options, Session

#: The tutor each run was started with.
TUTORS: list[str] = []


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Session, Path | None]]:
    """Capture the session the app would be started on, instead of starting it."""
    calls: list[tuple[Session, Path | None]] = []

    def fake_run(session: Session, *, save_path: Path | None = None, tutor: str = "") -> int:
        calls.append((session, save_path))
        TUTORS.append(tutor)
        return 0

    monkeypatch.setattr(parlour.tui, "run", fake_run)
    return calls


def test_play_passes_the_options(started: list[tuple[Session, Path | None]]) -> None:
    assert cli.main(["play", "checkers", "--opponent", "human", "--seed", "5"]) == 0
    session, save_path = started[0]
    assert session.options == Options(opponent="human", seed=5)
    assert save_path is None
    assert session.state.to_text() == session.game.new_state().to_text()


def test_the_tutor_is_asked_for_on_the_command_line(
    started: list[tuple[Session, Path | None]],
) -> None:
    assert cli.main(["play", "chess", "--tutor", "mistake"]) == 0
    assert TUTORS[-1] == "mistake"
    assert cli.main(["play", "chess"]) == 0
    assert TUTORS[-1] == ""


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
    session = Session(get_game("checkers"), Options())
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
        (["--resume", "no-such-file.json"], "no saved game at no-such-file.json"),
        (["--position", "B:W33:B1"], "square 33 is not on the board"),
    ],
)
def test_play_refuses_bad_input(
    started: list[tuple[Session, Path | None]],
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    message: str,
) -> None:
    assert cli.main(["play", "checkers", *arguments]) == cli.EXIT_ERROR
    assert message in capsys.readouterr().err
    assert started == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--level", "3", "--opponent", "human"], "--level is the computer's level"),
        (["--match", "5"], "--match: Checkers has no optional rules"),
        (["--match", "-1"], "argument --match: -1 is not a count"),
        (["--plain", "--resume", "x.json"], "--plain is one game between two people"),
        (["--plain", "--opponent", "computer"], "leave out --opponent computer"),
        (["--plain", "--level", "2"], "leave out --level"),
    ],
)
def test_play_refuses_options_that_do_not_go_together(
    started: list[tuple[Session, Path | None]],
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    message: str,
) -> None:
    with pytest.raises(SystemExit) as exit_status:
        cli.main(["play", "checkers", *arguments])
    assert exit_status.value.code == cli.EXIT_USAGE
    error = capsys.readouterr().err
    assert error.startswith("usage: parlour play") and message in error
    assert started == []


def test_plain_play_refuses_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_status:
        cli.main(["play", "backgammon", "--plain", "--match", "5"])
    assert exit_status.value.code == cli.EXIT_USAGE
    assert "leave out --match" in capsys.readouterr().err


def test_play_help_names_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    text = capsys.readouterr().out
    for option in (
        "--opponent",
        "--level",
        "--side",
        "--resume",
        "--plain",
        "--match",
        "--jacoby",
        "--beavers",
        "--automatic-doubles",
        "--max-cube",
    ):
        assert option in text


def test_play_help_states_each_measured_level(capsys: pytest.CaptureFixture[str]) -> None:
    from parlour.backgammon.engine import BackgammonEngine
    from parlour.checkers.engine import CheckersEngine

    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())  # the help's lines wrapped as one
    assert "the levels, as measured" in text
    for level in range(1, CheckersEngine.strongest + 1):
        assert f"checkers {level}: {CheckersEngine.level_strengths[level]}" in text
    for level in range(1, BackgammonEngine.strongest + 1):
        assert f"backgammon {level}: {BackgammonEngine.level_strengths[level]}" in text


def test_play_help_states_every_chess_level(capsys: pytest.CaptureFixture[str]) -> None:
    from parlour.chess.engine import ChessEngine

    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert set(ChessEngine.level_strengths) == set(range(1, ChessEngine.strongest + 1))
    for level, words in ChessEngine.level_strengths.items():
        assert f"chess {level}: {words}" in text
    assert "not measured yet" not in text  # every level of every game is measured
    assert "backgammon 1: " in text


def test_play_help_names_the_levels_not_measured(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game added without words for its levels, or with words for some of them,
    is named on one line with the levels it lacks, as runs."""
    from parlour.core.registry import level_strengths as measured

    def some_unmeasured(game: Any) -> Mapping[int, str]:
        name = game if isinstance(game, str) else game.name
        if name == "chess":
            return {}
        if name == "checkers":
            return {level: words for level, words in measured(name).items() if level in (1, 4)}
        return measured(name)

    monkeypatch.setattr(cli, "level_strengths", some_unmeasured)
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "checkers 2-3, 5-10, chess: not measured yet" in text
    assert "checkers 4: " in text
    assert "chess 1: " not in text
    assert "backgammon 7: " in text


#: White on roll with one checker left, on its 1-point; Black has borne off none.
GAMMON_IN_ONE = "APD/BwABAAAAAA"


def started_backgammon(
    started: list[tuple[Session, Path | None]], *arguments: str
) -> tuple[Session, BackgammonState]:
    """Start ``parlour play backgammon`` with ``arguments`` between two people; the
    session the app would run, and its game."""
    assert cli.main(["play", "backgammon", "--opponent", "human", *arguments]) == 0
    session = started[-1][0]
    assert isinstance(session.state, BackgammonState)
    return session, session.state


def test_every_cube_rule_reaches_the_game(started: list[tuple[Session, Path | None]]) -> None:
    arguments = ["--jacoby", "--beavers", "--automatic-doubles", "2", "--max-cube", "64"]
    session, state = started_backgammon(started, *arguments)
    rules = CubeOptions(jacoby=True, beavers=True, automatic_doubles=2, max_cube=64)
    assert state.options == rules
    assert session.game.options == rules  # type: ignore[attr-defined]


@pytest.mark.parametrize(("flags", "points"), [([], 2), (["--jacoby"], 1)])
def test_jacoby_counts_a_gammon_single_while_the_cube_is_in_the_middle(
    started: list[tuple[Session, Path | None]], flags: list[str], points: int
) -> None:
    session, state = started_backgammon(started, "--position", GAMMON_IN_ONE, *flags)
    for text in ("roll", "21", "1/off"):
        session.play_text(text)
    outcome = state.outcome()
    assert outcome is not None and outcome.points == points


@pytest.mark.parametrize(("flags", "beaver"), [([], False), (["--beavers"], True)])
def test_a_beaver_is_offered_to_the_doubled_player_only_with_beavers(
    started: list[tuple[Session, Path | None]], flags: list[str], beaver: bool
) -> None:
    session, state = started_backgammon(started, *flags)
    for text in ("31", "8/5 6/5", "double"):  # White opens; Black doubles at once
        session.play_text(text)
    assert state.turn is Side.FIRST
    assert ("beaver" in {str(move) for move in state.legal_moves()}) is beaver


@pytest.mark.parametrize(("flags", "cube"), [([], 1), (["--automatic-doubles", "1"], 2)])
def test_automatic_doubles_turn_the_cube_on_a_tied_opening_throw(
    started: list[tuple[Session, Path | None]], flags: list[str], cube: int
) -> None:
    session, state = started_backgammon(started, *flags)
    session.play_text("33")
    session.play_text("44")  # a second tie: one automatic double at most
    assert state.cube.value == cube
    assert state.cube.owner is None


@pytest.mark.parametrize(("flags", "may_double"), [([], True), (["--max-cube", "1"], False)])
def test_max_cube_caps_the_cube(
    started: list[tuple[Session, Path | None]], flags: list[str], may_double: bool
) -> None:
    session, state = started_backgammon(started, "--match", "5", *flags)
    for text in ("31", "8/5 6/5"):
        session.play_text(text)
    assert ("double" in {str(move) for move in state.legal_moves()}) is may_double


def test_plain_play_by_the_cube_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[Game[Any]] = []

    def fake_plain(game: Game[Any], **_: object) -> int:
        played.append(game)
        return 0

    monkeypatch.setattr(parlour.lineplay, "play_in_terminal", fake_plain)
    assert cli.main(["play", "backgammon", "--plain", "--beavers"]) == 0
    assert played[0].options == CubeOptions(beavers=True)  # type: ignore[attr-defined]


def test_resume_keeps_the_cube_rules(
    started: list[tuple[Session, Path | None]], tmp_path: Path
) -> None:
    rules = CubeOptions(jacoby=True, beavers=True, max_cube=16)
    session = Session(
        get_game("backgammon"), Options(rules={"jacoby": True, "beavers": True, "max_cube": 16})
    )
    for text in ("31", "8/5 6/5", "double", "beaver"):  # legal only with beavers
        session.play_text(text)
    path = tmp_path / "saved.json"
    session.save(path)
    # Version 2: a Parlour that knew only version 1 refuses it rather than resume the
    # game by other rules. A game by the standard rules stays version 1.
    assert json.loads(path.read_text())["version"] == 2
    plain = Session(get_game("backgammon"), Options())
    assert plain.to_json()["version"] == 1
    assert cli.main(["play", "backgammon", "--resume", str(path)]) == 0
    resumed = started[0][0]
    assert isinstance(resumed.state, BackgammonState)
    assert resumed.state.options == rules
    assert resumed.texts == session.texts
    assert resumed.state.to_text() == session.state.to_text()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["chess", "--jacoby"], "--jacoby: Chess has no optional rules (asked for: jacoby)"),
        (
            ["checkers", "--beavers", "--max-cube", "8"],
            "--beavers and --max-cube: Checkers has no optional rules",
        ),
        (
            ["backgammon", "--match", "5", "--jacoby", "--automatic-doubles", "1"],
            "--match, --jacoby and --automatic-doubles: the Jacoby rule and automatic doubles "
            "are for money play, not a 5-point match",
        ),
        (["backgammon", "--max-cube", "48"], "--max-cube: max_cube must be a power of two"),
        (
            ["backgammon", "--max-cube", "65536"],
            "--max-cube: max_cube must be a whole number from 1 to 32768",
        ),
        (
            ["backgammon", "--max-cube", "0"],
            "--max-cube: max_cube must be a whole number from 1 to 32768",
        ),
        (
            ["backgammon", "--automatic-doubles", "-1"],
            "argument --automatic-doubles: -1 is not a count: give 0 or more",
        ),
        (
            ["backgammon", "--automatic-doubles", "two"],
            "argument --automatic-doubles: 'two' is not a whole number",
        ),
        (
            ["backgammon", "--resume", "x.json", "--beavers"],
            "a resumed game keeps the rules it was started with: leave out --beavers",
        ),
    ],
)
def test_play_refuses_cube_rules_that_do_not_fit(
    started: list[tuple[Session, Path | None]],
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    message: str,
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["play", *arguments])
    assert stopped.value.code == cli.EXIT_USAGE
    error = capsys.readouterr().err
    assert error.startswith("usage: parlour play")
    assert f"parlour play: error: {message}" in error
    assert started == []


def test_money_only_rules_go_with_a_match_when_off(
    started: list[tuple[Session, Path | None]],
) -> None:
    # No automatic doubles asked for is no money-play rule: a match may say so.
    _, state = started_backgammon(started, "--match", "3", "--automatic-doubles", "0")
    assert state.match_length == 3
    assert state.options == CubeOptions()


def test_startpos_is_the_first_game_under_the_rules_asked_for(
    started: list[tuple[Session, Path | None]],
) -> None:
    assert cli.main(["play", "backgammon", "--match", "5", "--position", "startpos"]) == 0
    session, _ = started[0]
    state = session.state
    assert isinstance(state, BackgammonState) and state.match_length == 5
    assert state.to_text() == session.series.first().to_text()

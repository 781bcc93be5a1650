"""Jellyfish/gnubg .mat match files: what we write reads back to the same games; the
files GNU Backgammon 1.07 writes read through our rules; GNU Backgammon imports the
files we write and sees the same match; malformed files are refused with the line.

GNU Backgammon is Debian's ``gnubg`` package (scripts/debian-test-packages.txt); the
tests that run it fail when it is missing."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from parlour.backgammon.cube import CubeOptions
from parlour.backgammon.match import BackgammonMatch, MoneyPlay
from parlour.backgammon.matchfile import read_mat, write_mat
from parlour.backgammon.rules import (
    Action,
    BackgammonState,
    Phase,
    Resign,
    Throw,
)
from parlour.core.errors import NotationError
from parlour.core.protocol import CHANCE

NAMES = ("alice", "bob")


def gnubg() -> str:
    found = shutil.which("gnubg") or shutil.which("/usr/games/gnubg")
    assert found, "GNU Backgammon (Debian package gnubg) is needed: scripts/setup.sh installs it"
    return found


def run_gnubg(commands: list[str], cwd: Path) -> str:
    result = subprocess.run(
        [gnubg(), "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    return result.stdout + result.stderr


def play_match(
    length: int, seed: int, options: CubeOptions | None = None, games: int = 4
) -> BackgammonMatch:
    """A seeded match (or ``games`` money games) with doubles, takes, drops, beavers
    (when on) and resignations, the checker plays chosen at random."""
    rng = random.Random(seed)
    match = BackgammonMatch(length, options=options)
    while not match.is_over:
        if not length and len(match.games) == games:
            break
        state = match.new_game()
        while not state.is_over():
            moves = state.legal_moves()
            if state.turn is CHANCE:
                outcomes = state.chance_outcomes()
                weights = [float(p) for _, p in outcomes]
                move = rng.choices([m for m, _ in outcomes], weights)[0]
            elif state.phase is Phase.CUBE:
                luck = rng.random()
                if luck < 0.004:
                    move = Resign(rng.randint(1, 3))
                elif luck < 0.05 and Action.DOUBLE in moves:
                    move = Action.DOUBLE
                else:
                    move = Action.ROLL
            elif state.phase is Phase.DOUBLED:
                if Action.BEAVER in moves and rng.random() < 0.3:
                    move = Action.BEAVER
                else:
                    move = Action.TAKE if rng.random() < 0.75 else Action.DROP
            elif state.phase is Phase.RESIGNING:
                move = Action.ACCEPT
            else:
                move = rng.choice(sorted(moves, key=repr))  # not hostage to list order
            state.push(move)
    match.finish()
    return match


def recorded(game: BackgammonState) -> list[object]:
    """What a .mat file keeps of a game: every move but tied opening throws (which
    the file cannot hold), and the outcome."""
    kept: list[object] = []
    for move in game.moves:
        if isinstance(move, Throw) and move.dice[0] == move.dice[1] and not kept:
            continue
        kept.append(move)
    return [*kept, game.outcome()]


def assert_same_games(ours: BackgammonMatch, theirs: BackgammonMatch) -> None:
    assert len(theirs.games) == len(ours.games)
    for mine, read in zip(ours.games, theirs.games, strict=True):
        assert (read.score, read.crawford) == (mine.score, mine.crawford)
        assert recorded(read) == recorded(mine)
    assert theirs.scores.score == ours.scores.score


def test_a_match_reads_back_as_written() -> None:
    match = play_match(7, seed=1)
    text = write_mat(match, NAMES)
    back = read_mat(text)
    assert back.names == NAMES
    assert_same_games(match, back.match)
    assert write_mat(back.match, NAMES) == text
    reasons = {result.reason for result in match.scores.games}
    assert "double refused" in reasons


def test_a_money_session_with_beavers_and_automatic_doubles_reads_back() -> None:
    options = CubeOptions(beavers=True, automatic_doubles=1)
    match = play_match(0, seed=4, options=options, games=6)
    text = write_mat(match, NAMES)
    assert text.startswith(
        '; [Jacoby "Off"]\n; [Beavers "On"]\n; [AutomaticDoubles "1"]\n 0 point match'
    )
    assert "Beavers => " in text
    back = read_mat(text, options=options)
    assert_same_games(match, back.match)
    assert isinstance(back.match.scores, MoneyPlay) and isinstance(match.scores, MoneyPlay)
    assert back.match.scores.points == match.scores.points
    # The tags bring the rules back without being told them.
    assert read_mat(text).match.game.options == options


def test_option_tags_are_checked() -> None:
    text = '; [CubeLimit "48"]\n 0 point match\n'
    with pytest.raises(NotationError, match="max_cube must be a power of two"):
        read_mat(text)
    with pytest.raises(NotationError, match="AutomaticDoubles tag needs a whole number"):
        read_mat('; [AutomaticDoubles "two"]\n 0 point match\n')
    with pytest.raises(NotationError, match="for money play"):
        read_mat('; [Jacoby "On"]\n 5 point match\n')


def test_declined_resignations_leave_no_trace() -> None:
    match = BackgammonMatch(3)
    game = match.new_game()
    for text in ["31", "8/5 6/5", "resign gammon", "decline", "roll", "64", "24/18 13/9"]:
        game.play(text)
    back = read_mat(write_mat(match, NAMES)).match.games[0]
    assert back.moves == [m for m in game.moves if m not in (Resign(2), Action.DECLINE)]
    assert back.to_text() == game.to_text()


@pytest.fixture(scope="module")
def gnubg_match(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A 5-point match GNU Backgammon plays against itself and exports, with its own
    account of the final score."""
    where = tmp_path_factory.mktemp("gnubg")
    commands = [
        "set seed 31",
        *(
            f"set player {side} {what} evaluation plies 0"
            for side in (0, 1)
            for what in ("chequerplay", "cubedecision")
        ),
        "set player 0 gnubg",
        "set player 1 gnubg",
        "new match 5",
        "export match mat gnubg.mat",
        "show score",
    ]
    output = run_gnubg(commands, where)
    path = where / "gnubg.mat"
    assert path.exists(), output
    return path.read_text(), output


def final_score(gnubg_output: str) -> tuple[int, tuple[int, int]]:
    """(games, (score of player 0, score of player 1)) from gnubg's ``show score``."""
    found = re.findall(r"The score \(after (\d+) games?\) is: \S+ (\d+), \S+ (\d+)", gnubg_output)
    assert found, gnubg_output[-2000:]
    games, first, second = found[-1]
    return int(games), (int(first), int(second))


def test_a_match_gnubg_wrote_replays_through_our_rules(gnubg_match: tuple[str, str]) -> None:
    text, output = gnubg_match
    read = read_mat(text)
    games, score = final_score(output)
    assert len(read.match.games) == games
    assert read.match.scores.score == score
    assert read.match.is_over
    assert all(game.is_over() for game in read.match.games)


def test_gnubg_imports_the_match_we_wrote(tmp_path: Path) -> None:
    match = play_match(5, seed=23)
    results = match.scores.games
    assert match.is_over and len(results) == 3
    # This seed's match has all that matters: takes and drops, a gammon, a resignation,
    # the Crawford game and a double after it.
    assert {"double refused", "gammon"} <= {result.reason for result in results}
    assert any(result.reason.startswith("resignation") for result in results)
    assert any(Action.TAKE in game.moves for game in match.games)
    assert any(game.crawford for game in match.games)
    assert any(
        not game.crawford and 4 in game.score and Action.DOUBLE in game.moves
        for game in match.games
    ), "a post-Crawford double"
    (tmp_path / "ours.mat").write_text(write_mat(match, NAMES))
    output = run_gnubg(
        ["import mat ours.mat", "export match mat theirs.mat", "show score"], tmp_path
    )
    games, score = final_score(output)
    assert games == len(match.games)
    assert score == match.scores.score
    exported = tmp_path / "theirs.mat"
    assert exported.exists(), output
    back = read_mat(exported.read_text())
    assert back.names == NAMES
    assert_same_games(match, back.match)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (" 3 point match\n\n Game 1\n alice : 0   bob\n", 4, "score line"),
        (" Game 1\n a : 0   b : 0\n", 1, "match length"),
        (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/x\n", 5, "6/x"),
        (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/4\n", 5, ""),
        (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 33: 8/5 6/3\n", 5, "double"),
        (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5  Sings\n", 5, "Sings"),
        (
            " 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5"
            + " " * 17
            + "Doubles => 4\n",
            5,
            "first double is to 4",
        ),
        (
            " 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5\n"
            " Game 2\n a : 0   b : 0\n",
            6,
            "did not end",
        ),
        (" 3 point match\n\n Game 1\n", 3, "score line"),
        (" 3 point match\n\n Game 1\n a : 0   b : 2\n", 4, "2"),
        ("hello\n", 1, "hello"),
    ],
)
def test_malformed_lines_are_refused_with_their_number(text: str, line: int, words: str) -> None:
    with pytest.raises(NotationError) as refused:
        read_mat(text)
    message = str(refused.value)
    # Errors met while replaying a game name the game too ("game 2, line 6: ...").
    assert re.match(rf"(game \d+, )?line {line}:", message), message
    assert words in message


def test_a_file_without_a_match_length_is_refused() -> None:
    with pytest.raises(NotationError, match=r"not a \.mat file"):
        read_mat("; just a comment\n")


def test_names_must_be_single_words() -> None:
    with pytest.raises(ValueError, match="single words"):
        write_mat(BackgammonMatch(3), ("Ann Smith", "Bob"))


def test_first_column_and_second_column_starts() -> None:
    match = BackgammonMatch(3)
    game = match.new_game()
    for text in ["13", "8/5 6/5", "roll", "64", "24/18 13/9"]:
        game.play(text)
    lines = write_mat(match, NAMES).splitlines()
    assert lines[4] == "  1)" + " " * 29 + "31: 8/5 6/5"
    assert lines[5] == "  2) 64: 24/18 13/9"
    back = read_mat("\n".join(lines)).match.games[0]
    assert back.moves == game.moves
    assert back.moves[0] == Throw((1, 3))  # the second player threw the higher die


def gnubg_ids_after_import(text: str, where: Path) -> str:
    """The ``PositionID:MatchID`` GNU Backgammon shows after importing ``text``."""
    (where / "partial.mat").write_text(text)
    output = run_gnubg(["import mat partial.mat"], where)
    position = re.findall(r"Position ID: (\S+)", output)
    match = re.findall(r"Match ID\s*: (\S+)", output)
    assert position and match, output[-2000:]
    return f"{position[-1]}:{match[-1]}"


@pytest.mark.parametrize(
    ("first_game", "moves", "phase"),
    [
        # Game 1 ends 0-1; game 2 stops where the next player is about to roll or double.
        (["31", "8/5 6/5", "double", "drop"], ["52", "13/8 13/11", "roll", "64", "24/18 13/9"],
         Phase.CUBE),
        # ... with a double offered (gnubg: the opponent to act, the double pending).
        (["31", "8/5 6/5", "double", "drop"],
         ["52", "13/8 13/11", "roll", "64", "24/18 13/9", "double"], Phase.DOUBLED),
        # ... after the take: the doubler owns no cube, the taker does, the doubler rolls.
        (["31", "8/5 6/5", "double", "drop"],
         ["52", "13/8 13/11", "roll", "64", "24/18 13/9", "double", "take"], Phase.THROW),
        # Game 1 is won 2-0 in a 3-point match: game 2 is the Crawford game.
        (["31", "8/5 6/5", "double", "take", "64", "24/18 13/9", "resign single", "accept"],
         ["42", "8/4 6/4", "roll", "11", "6/5(2) 8/7(2)"], Phase.CUBE),
    ],
)  # fmt: skip
def test_our_gnubg_ids_agree_with_gnubg_after_it_imports_the_same_moves(
    tmp_path: Path, first_game: list[str], moves: list[str], phase: Phase
) -> None:
    crawford = "resign single" in first_game
    match = BackgammonMatch(3 if crawford else 5)
    game = match.new_game()
    for text in first_game:
        game.play(text)
    game = match.new_game()
    assert game.crawford == crawford
    for text in moves:
        game.play(text)
    assert game.phase is phase
    theirs = gnubg_ids_after_import(write_mat(match, NAMES), tmp_path)
    # gnubg has no name for the moment between "roll" and the dice landing: it shows
    # the player about to roll, which is our text without ":roll".
    ours = game.to_text().removesuffix(":roll")
    assert game.game.state_from_text(theirs).to_text() == ours


def test_a_double_in_the_crawford_game_is_refused_with_its_line() -> None:
    text = (
        " 3 point match\n\n"
        " Game 1\n alice : 0                      bob : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 1 point\n\n"
        " Game 2\n alice : 0                      bob : 1\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 1 point\n\n"
        " Game 3\n alice : 0                      bob : 2\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
    )
    with pytest.raises(NotationError) as refused:
        read_mat(text)
    assert str(refused.value).startswith("game 3, line 15: this is the Crawford game")
    # Without the last double the file reads, and game 3 is the Crawford game.
    match = read_mat(text.removesuffix("Doubles => 2\n").rstrip() + "\n")
    assert [game.crawford for game in match.match.games] == [False, False, True]


def test_an_open_file_is_read_and_errors_name_the_game(tmp_path: Path) -> None:
    text = (
        " 3 point match\n\n"
        " Game 1\n alice : 0                      bob : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 1 point\n\n"
        " Game 2\n alice : 0                      bob : 1\n"
        "  1) 31: 8/5 6/4\n"
    )
    path = tmp_path / "bad.mat"
    path.write_text(text)
    with path.open() as handle, pytest.raises(NotationError) as refused:
        read_mat(handle)
    assert str(refused.value).startswith("game 2, line 10: 6/4 is 2 pips"), refused.value
    good = tmp_path / "good.mat"
    good.write_text(text.rsplit(" Game 2", 1)[0])
    with good.open() as handle:
        assert read_mat(handle).match.scores.score == (0, 1)

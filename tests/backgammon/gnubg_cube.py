"""GNU Backgammon as the judge of cube decisions (test-only: Debian's ``gnubg``,
driven through its embedded Python). Used by ``test_cube_oracle.py`` and by
``benchmarks/backgammon_cube.py``.

GNU Backgammon plays money games and matches against itself at 0-ply and writes
them as .mat files (real games: its own doubles, takes and drops); Parlour reads
them back and finds every position where the side on roll may double; GNU
Backgammon then evaluates each of those positions' cube decisions (cubeful, at the
plies asked for), and Parlour makes its own. Each decision Parlour makes differently
costs what GNU Backgammon's own equities say it costs.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from parlour.analysis.coach import opening_of
from parlour.backgammon.engine import BackgammonEngine
from parlour.backgammon.equity import Chances
from parlour.backgammon.matchfile import read_mat
from parlour.backgammon.rules import Action, BackgammonState, Phase

GNUBG = "/usr/games/gnubg"

PLAY_SCRIPT = """
import gnubg
gnubg.command("set seed {seed}")
gnubg.command("set jacoby off")
gnubg.command("set beavers 0")
for side in (0, 1):
    for what in ("chequerplay", "cubedecision"):
        gnubg.command("set player %d %s evaluation plies 0" % (side, what))
    gnubg.command("set player %d gnubg" % side)
gnubg.command("set automatic game off")
for number in range({money}):
    gnubg.command("new session")
    gnubg.command("export match mat {folder}/money%d.mat" % number)
gnubg.command("set automatic game on")
for number in range({matches}):
    gnubg.command("new match {length}")
    gnubg.command("export match mat {folder}/match%d.mat" % number)
"""

JUDGE_SCRIPT = """
import json
import gnubg
gnubg.command("set jacoby off")
gnubg.command("set beavers 0")
gnubg.command("set automatic game off")
for side in (0, 1):
    gnubg.command("set player %d human" % side)
context = {{"cubeful": 1, "plies": {plies}, "deterministic": 1, "noise": 0.0}}
found = []
length = None
for text, match_length in json.load(open({positions!r})):
    if match_length != length:
        gnubg.command("new session" if match_length == 0 else "new match %d" % match_length)
        length = match_length
    board, match = text.split(":")
    gnubg.command("set matchid " + match)
    gnubg.command("set board " + board)
    cube = gnubg.cubeinfo()
    cube["jacoby"] = 0
    cube["beavers"] = 0
    position = gnubg.board()
    cubeful = gnubg.cfevaluate(position, cube, context)
    cubeless = gnubg.evaluate(position, cube, context)
    found.append([list(cubeful[1:4]), list(cubeless[:5])])
json.dump(found, open({out!r}, "w"))
met = gnubg.met(25)
json.dump([met[0], met[1]], open({met_out!r}, "w"))
"""


def run_gnubg(script: str, folder: Path, timeout: float) -> None:
    path = folder / "script.py"
    path.write_text(script)
    if not Path(GNUBG).exists():
        raise AssertionError(f"GNU Backgammon not found at {GNUBG}: apt-get install gnubg")
    run = subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(path)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=folder,
    )
    if run.returncode != 0:
        raise AssertionError(f"gnubg failed: {run.stdout[-800:]} {run.stderr[-800:]}")


def gnubg_games(folder: Path, *, seed: int, money: int, matches: int, length: int) -> list[str]:
    """The .mat texts of ``money`` money games and ``matches`` matches to ``length``
    that GNU Backgammon plays against itself at 0-ply."""
    script = PLAY_SCRIPT.format(
        seed=seed, money=money, matches=matches, length=length, folder=str(folder)
    )
    run_gnubg(script, folder, timeout=60 + 20 * (money + matches * length))
    names = [f"money{n}.mat" for n in range(money)] + [f"match{n}.mat" for n in range(matches)]
    return [(folder / name).read_text() for name in names]


def cube_positions(texts: list[str]) -> list[BackgammonState]:
    """Every position of the games where the side on roll may double (not in the
    Crawford game), in order."""
    engine = BackgammonEngine()
    found = []
    for text in texts:
        for game in read_mat(text).match.games:
            state, moves = opening_of(game)
            for move in moves:
                if (
                    isinstance(state, BackgammonState)
                    and state.phase is Phase.CUBE
                    and Action.DOUBLE in state.legal_moves()
                    and engine._cube_matters(state)
                ):
                    found.append(state.copy())
                state.push(move)
    return found


@dataclass(frozen=True, slots=True)
class Verdict:
    """GNU Backgammon's cube decision of one position: the cubeful equities of no
    double, double/take and double/pass (normalised, for the side on roll), and its
    cubeless chances there."""

    no_double: float
    double_take: float
    double_pass: float
    chances: Chances

    @property
    def doubles(self) -> bool:
        return min(self.double_take, self.double_pass) > self.no_double

    @property
    def takes(self) -> bool:
        return self.double_take <= self.double_pass

    def double_loss(self, doubles: bool) -> float:
        """What choosing to double (or not) costs the side on roll, the answer then
        being the right one."""
        best = max(self.no_double, min(self.double_take, self.double_pass))
        chosen = min(self.double_take, self.double_pass) if doubles else self.no_double
        return best - chosen

    def take_loss(self, takes: bool) -> float:
        """What taking (or passing) the double costs the side doubled."""
        best = min(self.double_take, self.double_pass)
        return (self.double_take if takes else self.double_pass) - best

    @property
    def close(self) -> bool:
        """A decision worth counting, as gnubg counts them: a double is right or
        near, within 0.16 of no double."""
        return min(self.double_take, self.double_pass) > self.no_double - 0.16


def gnubg_verdicts(
    states: list[BackgammonState], folder: Path, plies: int
) -> tuple[list[Verdict], list[list[float]], list[float]]:
    """GNU Backgammon's verdict on each position at ``plies``; and its match
    equity table (before the Crawford game, and the trailer's after it)."""
    positions = folder / "positions.json"
    positions.write_text(json.dumps([[s.to_text(), s.match_length] for s in states]))
    out, met_out = folder / "verdicts.json", folder / "met.json"
    script = JUDGE_SCRIPT.format(
        plies=plies, positions=str(positions), out=str(out), met_out=str(met_out)
    )
    run_gnubg(script, folder, timeout=120 + len(states) * (0.05 if plies < 2 else 2.0))
    verdicts = [
        Verdict(no_double, double_take, double_pass, chances=Chances(*cubeless))
        for (no_double, double_take, double_pass), cubeless in json.loads(out.read_text())
    ]
    pre, post = json.loads(met_out.read_text())
    return verdicts, pre, post


@dataclass
class Tally:
    """Decisions compared: how many, how many agreed, and the equity lost."""

    decisions: int = 0
    agreed: int = 0
    lost: float = 0.0

    def add(self, agreed: bool, lost: float) -> None:
        self.decisions += 1
        self.agreed += agreed
        self.lost += lost

    def __str__(self) -> str:
        if not self.decisions:
            return "no decisions"
        return (
            f"{self.decisions} decisions, agreement {self.agreed / self.decisions:.1%}, "
            f"equity lost {self.lost / self.decisions * 1000:.1f} thousandths a decision"
        )


def compare(
    states: list[BackgammonState], verdicts: list[Verdict], *, chances_from: str
) -> dict[str, Tally]:
    """Parlour's decisions against GNU Backgammon's, by kind ("money double",
    "match take"...), on close decisions (see :attr:`Verdict.close`), with the
    chances ``chances_from`` Parlour's network at "0-ply", one throw deeper
    ("1-ply", as the engine decides), two ("2-ply"), or "gnubg"'s own (which
    measures the cube model alone)."""
    engine = BackgammonEngine()
    tallies: dict[str, Tally] = {}
    for state, verdict in zip(states, verdicts, strict=True):
        if not verdict.close:
            continue
        if chances_from == "gnubg":
            chances = verdict.chances
        elif chances_from == "0-ply":
            chances = engine.chances(state)
        elif chances_from == "2-ply":
            chances = engine.rolled_chances(state, throws=2)
        else:
            chances = engine.rolled_chances(state)
        ours = engine.cube_decision_from(state, chances)
        kind = "money" if state.money else "match"
        double = tallies.setdefault(f"{kind} double", Tally())
        double.add(ours.should_double == verdict.doubles, verdict.double_loss(ours.should_double))
        if verdict.doubles or ours.should_double:
            take = tallies.setdefault(f"{kind} take", Tally())
            take.add(ours.should_take == verdict.takes, verdict.take_loss(ours.should_take))
    return tallies


def in_temporary_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="gnubg-cube-"))

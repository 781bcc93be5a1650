"""Our move text against GNU Backgammon 1.07's own (the Debian ``gnubg`` program, a
test-only tool): for every legal play of many positions from real and random play,
``format_play`` must write exactly what gnubg's ``movetupletostring`` writes, and the
text must read back to the same play.

gnubg runs once, headless, on a script that reads the cases as JSON and writes its
texts as JSON. If the program is missing the test fails (it is not skipped).
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from parlour.backgammon.board import legal_plays
from parlour.backgammon.notation import (
    MatchId,
    format_play,
    match_id,
    match_id_from_text,
    parse_play,
    position_id,
)
from parlour.core.protocol import Side
from tests.backgammon.test_board_oracle import POSITIONS, random_position

GNUBG = "/usr/games/gnubg"

SCRIPT = """
import json, sys
import gnubg
cases = json.load(open(sys.argv[1] if len(sys.argv) > 1 else {cases!r}))
texts = []
for position, steps in cases:
    board = gnubg.positionfromid(position)
    flat = tuple(point for step in steps for point in step)
    texts.append(gnubg.movetupletostring(flat, board))
json.dump(texts, open({out!r}, "w"))
"""


def gnubg_texts(cases: list[tuple[str, list[tuple[int, int]]]], tmp_path: Path) -> list[str]:
    cases_file = tmp_path / "cases.json"
    out_file = tmp_path / "texts.json"
    script = tmp_path / "format.py"
    cases_file.write_text(json.dumps(cases))
    script.write_text(SCRIPT.format(cases=str(cases_file), out=str(out_file)))
    run = subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(script)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out_file.exists(), f"gnubg wrote nothing: {run.stdout[-500:]} {run.stderr[-500:]}"
    texts: list[str] = json.loads(out_file.read_text())
    return texts


def test_move_text_matches_gnubg(tmp_path: Path) -> None:
    rng = random.Random(12)
    positions = POSITIONS[::6] + [random_position(rng) for _ in range(300)]
    cases = []
    ours = []
    for position in positions:
        if not any(position.mover):
            continue
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        for play in legal_plays(position, dice):
            cases.append((position_id(position), [(move.start, move.end) for move in play]))
            text = format_play(position, play)
            ours.append((position, dice, play, text))
    assert len(cases) >= 5000
    theirs = gnubg_texts(cases, tmp_path)
    assert len(theirs) == len(ours)
    differences = [
        (position_id(position), dice, text, expected)
        for (position, dice, _, text), expected in zip(ours, theirs, strict=True)
        if text != expected
    ]
    assert not differences, f"{len(differences)} differ, e.g. {differences[:5]}"
    # Every text reads back to its own play.
    for position, dice, play, text in ours[::10]:
        assert parse_play(position, dice, text) == play, (position_id(position), dice, text)


MATCH_SCRIPT = """
import json
import gnubg
ids = []
for cube, owner, move, length, score, crawford, turn, resigned, doubled, state, dice in (
    json.load(open({cases!r}))
):
    cube_info = gnubg.cubeinfo(cube, owner, move, length, tuple(score), crawford)
    position_info = gnubg.posinfo(turn, resigned, doubled, state, tuple(dice))
    ids.append(gnubg.matchid(cube_info, position_info))
json.dump(ids, open({out!r}, "w"))
"""

#: Match states, each as gnubg's cubeinfo/posinfo arguments and as our MatchId. In
#: match play gnubg 1.07 takes the Jacoby rule to be off, in money play on.
MATCH_CASES = [
    (
        (2, 0, 1, 9, (2, 4), 0, 1, 0, 0, 1, (5, 2)),
        MatchId(2, Side.FIRST, Side.SECOND, False, 1, Side.SECOND, False, 0, (5, 2), 9, (2, 4)),
    ),
    ((1, -1, 0, 0, (0, 0), 0, 0, 0, 0, 1, (0, 0)), MatchId()),
    (
        (4, 1, 0, 7, (6, 3), 1, 1, 0, 1, 1, (0, 0)),
        MatchId(4, Side.SECOND, Side.FIRST, True, 1, Side.SECOND, True, 0, None, 7, (6, 3)),
    ),
    (
        (1, -1, 1, 5, (0, 4), 0, 1, 2, 0, 1, (3, 1)),
        MatchId(1, None, Side.SECOND, False, 1, Side.SECOND, False, 2, (3, 1), 5, (0, 4)),
    ),
    (
        (1, -1, 1, 5, (0, 4), 0, 1, 3, 0, 3, (3, 1)),
        MatchId(1, None, Side.SECOND, False, 3, Side.SECOND, False, 3, (3, 1), 5, (0, 4)),
    ),
    (
        (64, 1, 1, 0, (0, 0), 0, 0, 0, 0, 2, (6, 6)),
        MatchId(64, Side.SECOND, Side.SECOND, False, 2, Side.FIRST, False, 0, (6, 6), 0, (0, 0)),
    ),
    (
        (8, 0, 0, 25, (24, 17), 0, 1, 1, 0, 1, (6, 4)),
        MatchId(8, Side.FIRST, Side.FIRST, False, 1, Side.SECOND, False, 1, (6, 4), 25, (24, 17)),
    ),
]


def test_match_ids_match_gnubg(tmp_path: Path) -> None:
    cases_file = tmp_path / "match_cases.json"
    out_file = tmp_path / "match_ids.json"
    script = tmp_path / "match.py"
    cases_file.write_text(json.dumps([list(args) for args, _ in MATCH_CASES]))
    script.write_text(MATCH_SCRIPT.format(cases=str(cases_file), out=str(out_file)))
    run = subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out_file.exists(), f"gnubg wrote nothing: {run.stdout[-500:]} {run.stderr[-500:]}"
    theirs: list[str] = json.loads(out_file.read_text())
    assert theirs[0] == "QYkqASAAIAAE"  # the notes' example, with gnubg 1.07's 67th bit
    for (args, fields), text in zip(MATCH_CASES, theirs, strict=True):
        fields = MatchId(**{**fields.__dict__, "jacoby": args[3] == 0})
        assert match_id_from_text(text) == fields, (args, text)
        assert match_id(fields) == text, (args, text)

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
from parlour.backgammon.notation import format_play, parse_play, position_id
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

"""Every Python example in docs/ runs as written (in a scratch directory), and the
outputs its comments promise are what it prints."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def examples() -> list[tuple[str, str]]:
    found = []
    for page in sorted(DOCS.glob("*.md")):
        for number, match in enumerate(BLOCK.finditer(page.read_text()), start=1):
            found.append((f"{page.name}#{number}", match.group(1)))
    return found


@pytest.mark.parametrize(("where", "code"), examples(), ids=[w for w, _ in examples()])
def test_the_example_runs_and_prints_what_it_says(where: str, code: str, tmp_path: Path) -> None:
    printed = io.StringIO()
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(code, where, "exec"), {"__name__": "__docs__"})
    finally:
        os.chdir(here)
    output = printed.getvalue()
    # A comment after print(...) shows the start of what it prints ("..." ends it).
    for promise in re.findall(r"^\s*print\(.*\)\s*#\s*(.+)$", code, re.MULTILINE):
        expected = promise.split("...")[0].strip()
        assert expected in output, f"{where}: {expected!r} not in {output!r}"


def test_there_are_examples_on_every_game_page() -> None:
    pages = {where.split("#")[0] for where, _ in examples()}
    assert {"chess.md", "checkers.md", "backgammon.md", "protocol.md", "index.md"} <= pages

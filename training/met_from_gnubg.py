"""Write a match equity table of GNU Backgammon's (its XML files, ``met/*.xml`` in the
``gnubg-data`` package) in Parlour's plain format, keeping the table's own notice.

    python training/met_from_gnubg.py /usr/share/gnubg/met/Kazaross-XG2.xml \
        parlour/backgammon/data/kazaross-xg2.met

Parlour's format: ``#`` lines are the notice; ``pre-crawford`` is followed by one
line per number of points the player needs (1, 2, ...), each the player's chance to
win the match against an opponent needing 1, 2, ... points, before a game with the
cube in the middle (the 1-away entries are the Crawford game's); ``post-crawford`` by
one line: the chance of the trailer needing 1, 2, ... points after the Crawford game
against a leader needing 1.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path


def convert(source: Path, target: Path) -> None:
    text = source.read_text()
    notice = re.search(r"<!--(.*?)-->", text, re.DOTALL)
    root = ElementTree.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", text))
    name = root.findtext("info/name", "").strip()
    lines = [f"# {name}, from GNU Backgammon's {source.name}; its notice:"]
    if notice is not None:
        lines += [f"# {line.strip()}".rstrip() for line in notice.group(1).strip().splitlines()]
    for tag in ("pre-crawford-table", "post-crawford-table"):
        table = root.find(tag)
        if table is None or table.get("type") != "explicit":
            raise SystemExit(f"{source}: no explicit {tag}")
        lines.append(tag.removesuffix("-table"))
        for row in table.findall("row"):
            lines.append(" ".join(me.text.strip() for me in row.findall("me") if me.text))
    target.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    convert(Path(sys.argv[1]), Path(sys.argv[2]))

"""The games of a PGN or PDN file found line by line, so that a file is read one game
at a time however long it is. Both formats write each game as tag lines
(``[Name "value"]``) followed by its moves; a tag line after moves starts the next
game. A ``[`` inside a comment that runs over several lines is no tag, and lines
starting with ``%`` are escapes to other programs, dropped.

>>> text = '[White "Ann"]\\n1. e4 {a [note\\n[spanning] lines} *\\n[White "Bo"]\\n1. d4 *\\n'
>>> [len(section) for section in game_sections(text.splitlines())]
[3, 2]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol, TypeVar

from parlour.core.errors import NotationError


class ReadGame(Protocol):
    """A game read from a file, with why reading it stopped short (or None)."""

    error: NotationError | None


G = TypeVar("G", bound=ReadGame)


def lines_of(source: str | Iterable[str]) -> Iterable[str]:
    """The lines of a text, or an open file's lines as it yields them, without
    their line ends."""
    if isinstance(source, str):
        return source.splitlines()
    return (line.rstrip("\r\n") for line in source)


def every_game(games: Iterable[G]) -> list[G]:
    """All the games, or the first game's error: the strict way to read a file."""
    found = list(games)
    for game in found:
        if game.error is not None:
            raise game.error
    return found


def game_sections(lines: Iterable[str]) -> Iterator[list[str]]:
    """The lines of each section of tags and the moves after them (a file without
    tags is one section, which may hold several games, each ended by its result).
    ``lines`` come without line ends (:func:`lines_of`); a byte-order mark is
    taken off."""
    section: list[str] = []
    in_moves = False
    open_brace = False
    for number, line in enumerate(lines):
        if number == 0:
            line = line.lstrip("\ufeff")
        stripped = line.strip()
        if stripped.startswith("%") and not open_brace:
            continue
        if stripped.startswith("[") and not open_brace:
            if in_moves:
                yield section
                section, in_moves = [], False
            section.append(line)
            continue
        if stripped:
            in_moves = True
        section.append(line)
        for char in line:
            if open_brace:
                open_brace = char != "}"
            elif char == "{":
                open_brace = True
            elif char == ";":
                break  # the rest of the line is a comment
    if any(line.strip() for line in section):
        yield section


def split_section(section: list[str]) -> tuple[list[str], str]:
    """A section's tag lines (stripped) and its moves as one text."""
    tags: list[str] = []
    for at, line in enumerate(section):
        stripped = line.strip()
        if stripped.startswith("["):
            tags.append(stripped)
        elif stripped:
            return tags, "\n".join(section[at:])
    return tags, ""

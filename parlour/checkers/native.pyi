"""The checkers search in C (native.c): AlphaBeta over SearchBoard, node for node.

Built by ``parlour compile``; where it is not built, or the package runs pure,
importing it fails and the engine runs the Python search."""

from collections.abc import Callable, Iterable, Mapping, Sequence
from threading import Event
from typing import Protocol

#: A move: start bit, end bit, the mask of the pieces jumped.
Step = tuple[int, int, int]
#: Black's men, Black's kings, White's men, White's kings (the padded layout).
Position = tuple[int, int, int, int]
#: A position and its side to move (0 Black, 1 White): a repetition key.
Key = tuple[int, int, int, int, int]
#: A search's result: best move (None without a move), score for the side to move,
#: depth completed, nodes, seconds, principal variation.
Found = tuple[Step | None, int, int, int, float, list[Step]]

CHECK_EVERY: int
MAX_DEPTH: int

class _Stop(Protocol):
    def is_set(self) -> bool: ...

def moves(position: Position, side: int, /) -> list[Step]:
    """The legal moves in SearchBoard.moves() order."""

class Searcher:
    """The search with its transposition table, kept from search to search."""

    table_size: int
    @property
    def table_count(self) -> int: ...
    @property
    def endgame_pieces(self) -> int: ...
    def __init__(
        self,
        tables: Mapping[str, int | tuple[int, ...]],
        table_size: int = ...,
        endgame_codes: object | None = ...,
        endgame_pieces: int = ...,
    ) -> None: ...
    def search(
        self,
        position: Position,
        side: int,
        quiet: int,
        history: Sequence[Key],
        *,
        max_depth: int = ...,
        time_limit: float | None = ...,
        node_limit: int | None = ...,
        quiescence: bool = ...,
        late_move_reductions: bool = ...,
        stop: Event | _Stop | None = ...,
        on_iteration: Callable[[Found], object] | None = ...,
        allowed: Iterable[Step] | None = ...,
    ) -> Found: ...
    def clear(self) -> None: ...
    def evaluate(self, position: Position, /) -> int: ...
    def endgame_code(self, position: Position, side: int, /) -> int | None: ...

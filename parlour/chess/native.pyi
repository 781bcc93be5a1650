"""The chess search in C (native.c): Searcher's root searches over ChessBoard,
node for node.

Built by ``parlour compile``; where it is not built, or the package runs pure,
importing it fails and the engine runs the Python search."""

from collections.abc import Mapping, Sequence
from threading import Event

#: An internal move: from cell, to cell, flag.
InternalMove = tuple[int, int, int]

class Searcher:
    """The search with its transposition table and history, kept from search to
    search."""

    @property
    def nodes(self) -> int: ...
    @property
    def seldepth(self) -> int: ...
    @property
    def partial(self) -> tuple[int, InternalMove] | None: ...
    @property
    def table_count(self) -> int: ...
    def __init__(self, tables: Mapping[str, Sequence[int]]) -> None: ...
    def begin(
        self,
        board: Sequence[int],
        color: int,
        kings: list[int],
        castling: int,
        ep: int,
        halfmove: int,
        hash: int,
        stack: Sequence[int],
        seconds: float | None,
        nodes: int,
        stop: Event | None,
        hash_entries: int,
        table_ceiling: int,
    ) -> None: ...
    def root(
        self,
        depth: int,
        roots: Sequence[InternalMove],
        mg: int,
        eg: int,
        phase: int,
        pawns: int,
        seldepth: int,
        alpha: int,
        beta: int,
        /,
    ) -> tuple[int, InternalMove] | None: ...
    def root_exact(
        self,
        depth: int,
        roots: Sequence[InternalMove],
        mg: int,
        eg: int,
        phase: int,
        pawns: int,
        margin: int,
        seldepth: int,
        /,
    ) -> list[int] | None: ...
    def pv(self, first: InternalMove, /) -> list[InternalMove]: ...
    def store_root(self, depth: int, score: int, move: InternalMove, /) -> None: ...
    def clear(self) -> None: ...
    def moves(self) -> list[InternalMove]:
        """The loaded position's legal moves in ChessBoard.generate's order."""
    def perft(self, depth: int, /) -> int:
        """Leaf nodes of the loaded position's legal-move tree."""

"""Game-tree search for the games whose engines search move by move: alpha-beta,
as the checkers engine uses it.

(The chess engine inlines its own search over its board, because in Python every
call per node costs strength; backgammon, a game of dice, judges plays with its
network and looks ahead over the throws instead.)

The search sees a position through :class:`Searchable`, a handful of methods each
engine implements on its own fast board. Scores are integers in centi-units (a man
is about 100) from the point of view of the side to move (negamax), so one routine
serves both sides.

Alpha-beta here is the textbook one made practical:

* iterative deepening, so there is always a best move when time runs out and each
  iteration orders the next one;
* a transposition table keyed by the position hash, storing depth, score, bound
  and best move;
* move ordering: the table's move first, then the engine's own order (captures
  first, say), with killer moves and the history heuristic for quiet moves;
* principal variation search: after the first move, each move is first asked only
  whether it beats the best so far (a null window, cheap to refute) and searched
  in full only if it does;
* late-move reductions (where asked for): at a node without a forced capture,
  moves late in the order that leave the opponent no forced capture either are
  searched a ply shallower first (two, the latest of them far from the leaves),
  and again at full depth if they look better;
* a stopped iteration still counts where it found a better first move than the
  last completed one;
* quiescence search over "noisy" moves (captures), so a leaf is never judged in the
  middle of an exchange; where the mover must play a noisy move (a compulsory
  capture) it may not "stand pat" on the static score;
* mate scores that prefer the quicker mate (and the slower loss).

Black's man on 10 jumps White's on 14 and wins at once (a side with no pieces
loses), so the search finds a win in one move:

>>> from parlour.checkers.engine import SearchBoard
>>> from parlour.checkers.rules import CHECKERS
>>> board = SearchBoard.from_state(CHECKERS.state_from_text("B:W14:B10"))
>>> result = AlphaBeta(max_depth=6).search(board)
>>> result.mate_in, result.score == MATE - 1
(1, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from threading import Event
from typing import Generic, Protocol, TypeVar

M = TypeVar("M", bound=Hashable)

#: The score of a mate found at the root; a mate in n plies scores MATE - n.
MATE = 1_000_000
#: Scores beyond this are mates.
MATE_BOUND = MATE - 10_000
INFINITY = MATE + 1

EXACT, LOWER, UPPER = 0, 1, 2

#: How often (in nodes) the clock and the stop flag are looked at.
CHECK_EVERY = 1024

#: The depth of a search that time or nodes end: in effect, no limit.
FULL_DEPTH = 64

#: Late-move reductions: from this many moves into a node, and at this depth or more,
#: a ply; two plies from this many moves on where six plies or more are left.
REDUCE_AFTER = 3
REDUCE_FROM_DEPTH = 3
REDUCE_TWO_AFTER = 8

#: A new iteration is begun only while less than this share of the time is spent
#: (each costs a few times the last; an unfinished one is used as far as it went).
NEXT_ITERATION_SHARE = 0.65


class Searchable(Protocol[M]):
    """What alpha-beta needs of a position. Each engine implements it on its own
    board; moves are any hashable values."""

    def moves(self) -> Sequence[M]:
        """The legal moves, best first as far as cheaply known (captures first)."""
        ...

    def noisy_moves(self) -> Sequence[M]:
        """The moves quiescence search looks at (captures, promotions); a game
        whose captures are forced may return every move when one exists."""
        ...

    def may_stand_pat(self) -> bool:
        """Whether quiescence search may stop here with the static score. False
        when the side to move must play one of :meth:`noisy_moves` (a compulsory
        capture in checkers, an escape from check in chess): the static score of
        a position where the mover may not pass would be a fiction."""
        ...

    def make(self, move: M) -> None: ...

    def unmake(self) -> None: ...

    def evaluate(self) -> int:
        """A static score for the side to move."""
        ...

    def terminal_score(self, ply: int) -> int | None:
        """The score for the side to move if the game is over here (``-(MATE -
        ply)`` when it has lost, 0 for a draw), else None. ``ply`` is the distance
        from the root, so quicker mates score higher."""
        ...

    def hash_key(self) -> Hashable:
        """A key for the position (a Zobrist hash, say) for the transposition table."""
        ...


class SearchResult(Generic[M]):
    """What a search found: the best move, its score for the side to move, the
    depth and nodes searched, the seconds taken, and the expected line."""

    # A plain class: mypyc compiles no generic dataclass.
    __slots__ = ("best_move", "depth", "nodes", "principal_variation", "score", "seconds")

    def __init__(
        self,
        best_move: M | None,
        score: int,
        depth: int,
        nodes: int,
        seconds: float,
        principal_variation: list[M] | None = None,
    ) -> None:
        self.best_move = best_move
        self.score = score
        self.depth = depth
        self.nodes = nodes
        self.seconds = seconds
        self.principal_variation: list[M] = principal_variation or []

    @property
    def mate_in(self) -> int | None:
        """Moves (not plies) to mate, positive when the side to move mates, negative
        when it is mated; None when no mate was found."""
        return mate_in(self.score)


def mate_in(score: float) -> int | None:
    """Moves (not plies) to mate for a search score, positive when the side to move
    mates, negative when it is mated; None for a score that is no mate.

    >>> mate_in(MATE - 3), mate_in(-(MATE - 4)), mate_in(120)
    (2, -2, None)
    """
    if abs(score) < MATE_BOUND:
        return None
    plies = MATE - abs(int(score))
    moves = (plies + 1) // 2
    return moves if score > 0 else -moves


class SearchStopped(Exception):
    """Raised inside the search when time is up or a stop was asked for."""


class AlphaBeta(Generic[M]):
    """Iterative-deepening alpha-beta with a transposition table.

    One instance can search many positions of one game; its table carries over
    between searches (call :meth:`clear` for a new game).
    """

    def __init__(
        self,
        *,
        max_depth: int = FULL_DEPTH,
        time_limit: float | None = None,
        node_limit: int | None = None,
        table_size: int = 1 << 20,
        quiescence: bool = True,
        late_move_reductions: bool = False,
        stop: Event | None = None,
        on_iteration: Callable[[SearchResult[M]], None] | None = None,
    ) -> None:
        self.max_depth = max_depth
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.table_size = table_size
        self.quiescence = quiescence
        #: Whether late quiet moves are searched a ply shallower first (this makes
        #: the score an estimate, no longer exactly the minimax value at the depth).
        self.late_move_reductions = late_move_reductions
        self.stop = stop or Event()
        self.on_iteration = on_iteration
        #: Position key to (depth, score, bound, best move).
        self.table: dict[Hashable, tuple[int, int, int, M | None]] = {}
        self._history: dict[M, int] = {}
        self._killers: list[list[M]] = []
        self._nodes = 0
        self._deadline = float("inf")
        #: The best first move of the iteration under way and its score, once one
        #: is known for certain (the first searched, or a later one beating it).
        self._root_best: tuple[M, int] | None = None

    def clear(self) -> None:
        self.table.clear()
        self._history.clear()

    # -- the driver -------------------------------------------------------------

    def search(self, position: Searchable[M]) -> SearchResult[M]:
        """Search deeper and deeper until the depth, node or time limit; return
        the result of the deepest completed iteration (at least depth 1)."""
        started = time.perf_counter()
        self._deadline = started + self.time_limit if self.time_limit is not None else float("inf")
        self._nodes = 0
        self._killers = [[] for _ in range(self.max_depth + 64)]
        self._history.clear()
        if len(self.table) > self.table_size:
            self.table.clear()

        moves = list(position.moves())
        result: SearchResult[M] = SearchResult(None, 0, 0, 0, 0.0)
        if not moves:
            terminal = position.terminal_score(0)
            result.score = position.evaluate() if terminal is None else terminal
            return result
        result.best_move = moves[0]
        for depth in range(1, self.max_depth + 1):
            self._root_best = None
            try:
                score = self._negamax(position, depth, -INFINITY, INFINITY, 0, depth > 1)
            except SearchStopped:
                self._use_unfinished(result)
                break
            result = SearchResult(
                self._best_at_root(position, moves[0]),
                score,
                depth,
                self._nodes,
                time.perf_counter() - started,
                self._principal_variation(position, depth),
            )
            if self.on_iteration is not None:
                self.on_iteration(result)
            if abs(score) >= MATE_BOUND and MATE - abs(score) <= depth:
                break  # a forced mate within the horizon: deeper search cannot change it
            if self._out_of_time(started):
                break
        result.nodes = self._nodes
        result.seconds = time.perf_counter() - started
        return result

    def _use_unfinished(self, result: SearchResult[M]) -> None:
        """Where the stopped iteration found another first move better than the last
        iteration's choice (searched in full, so at least as good at the deeper
        depth), play it."""
        if self._root_best is None:
            return
        move, score = self._root_best
        if move != result.best_move:
            result.best_move = move
            result.score = score
            result.principal_variation = [move]

    def _out_of_time(self, started: float) -> bool:
        """Between iterations: stop when the next iteration would likely not finish
        (each costs several times the last)."""
        if self.stop.is_set():
            return True
        if self.node_limit is not None and self._nodes >= self.node_limit:
            return True
        if self.time_limit is None:
            return False
        spent = time.perf_counter() - started
        return spent > self.time_limit * NEXT_ITERATION_SHARE

    def _best_at_root(self, position: Searchable[M], fallback: M) -> M:
        entry = self.table.get(position.hash_key())
        return entry[3] if entry is not None and entry[3] is not None else fallback

    def _principal_variation(self, position: Searchable[M], depth: int) -> list[M]:
        line: list[M] = []
        seen: set[Hashable] = set()
        while len(line) < depth:
            key = position.hash_key()
            entry = self.table.get(key)
            if entry is None or entry[3] is None or key in seen:
                break
            move = entry[3]
            if move not in position.moves():
                break
            seen.add(key)
            line.append(move)
            position.make(move)
        for _ in line:
            position.unmake()
        return line

    # -- the search -------------------------------------------------------------

    def _tick(self) -> None:
        self._nodes += 1
        if self._nodes % CHECK_EVERY == 0:
            if self.stop.is_set() or time.perf_counter() > self._deadline:
                raise SearchStopped
            if self.node_limit is not None and self._nodes >= self.node_limit:
                raise SearchStopped

    def _negamax(
        self,
        position: Searchable[M],
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        may_stop: bool,
    ) -> int:
        if may_stop:
            self._tick()
        else:
            self._nodes += 1
        terminal = position.terminal_score(ply)
        if terminal is not None:
            return terminal
        if depth <= 0:
            if self.quiescence:
                return self._quiesce(position, alpha, beta, ply, may_stop)
            return position.evaluate()

        key = position.hash_key()
        entry = self.table.get(key)
        table_move: M | None = None
        original_alpha = alpha
        if entry is not None:
            entry_depth, entry_score, bound, table_move = entry
            if entry_depth >= depth and ply > 0:
                score = _from_table(entry_score, ply)
                if bound == EXACT:
                    return score
                if bound == LOWER and score >= beta:
                    return score
                if bound == UPPER and score <= alpha:
                    return score

        best_score = -INFINITY
        best_move: M | None = None
        # Reductions only where nothing is forced: a capture here, or one for the
        # opponent after the move, is a tactic a shallower search would miss.
        reduce = (
            self.late_move_reductions and depth >= REDUCE_FROM_DEPTH and not position.noisy_moves()
        )
        for searched, move in enumerate(self._ordered(position.moves(), table_move, ply)):
            position.make(move)
            try:
                if searched == 0:
                    score = -self._negamax(position, depth - 1, -beta, -alpha, ply + 1, may_stop)
                else:
                    reduction = 0
                    if reduce and searched >= REDUCE_AFTER and position.may_stand_pat():
                        reduction = 2 if searched >= REDUCE_TWO_AFTER and depth >= 6 else 1
                    score = self._later_move(
                        position, depth - 1, reduction, alpha, beta, ply, may_stop
                    )
            finally:
                position.unmake()
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if ply == 0:
                        self._root_best = (move, score)
                    if alpha >= beta:
                        self._reward(move, depth, ply)
                        break
        if best_move is None:  # no moves but not terminal: the engine's view of a dead end
            return position.evaluate()

        bound = UPPER if best_score <= original_alpha else LOWER if best_score >= beta else EXACT
        self.table[key] = (depth, _to_table(best_score, ply), bound, best_move)
        return best_score

    def _later_move(
        self,
        position: Searchable[M],
        depth: int,
        reduction: int,
        alpha: int,
        beta: int,
        ply: int,
        may_stop: bool,
    ) -> int:
        """A move after the first, already made, from its parent's side: does it beat
        alpha? A null window answers that cheaply (``reduction`` plies shallower
        first); only a move that does is searched with the full window."""
        search = self._negamax
        score = -search(position, depth - reduction, -alpha - 1, -alpha, ply + 1, may_stop)
        if score > alpha and reduction:
            score = -search(position, depth, -alpha - 1, -alpha, ply + 1, may_stop)
        if alpha < score < beta:
            score = -search(position, depth, -beta, -alpha, ply + 1, may_stop)
        return score

    def _quiesce(
        self, position: Searchable[M], alpha: int, beta: int, ply: int, may_stop: bool
    ) -> int:
        if may_stop:
            self._tick()
        else:
            self._nodes += 1
        terminal = position.terminal_score(ply)
        if terminal is not None:
            return terminal
        if position.may_stand_pat():
            best = position.evaluate()
            if best >= beta:
                return best
            alpha = max(alpha, best)
        else:
            best = -INFINITY
        for move in position.noisy_moves():
            position.make(move)
            try:
                score = -self._quiesce(position, -beta, -alpha, ply + 1, may_stop)
            finally:
                position.unmake()
            if score >= beta:
                return score
            best = max(best, score)
            alpha = max(alpha, score)
        if best == -INFINITY:  # forced, yet no noisy move: the engine's view of a dead end
            return position.evaluate()
        return best

    # -- move ordering ----------------------------------------------------------

    def _ordered(self, moves: Sequence[M], table_move: M | None, ply: int) -> list[M]:
        """The table's move, then the killers, then the rest by the engine's order
        refined by history (stable sort keeps the engine's order among equals)."""
        killers = self._killers[ply] if ply < len(self._killers) else []
        history = self._history

        def rank(move: M) -> int:
            if move == table_move:
                return -(1 << 40)
            if move in killers:
                return -(1 << 30)
            return -history.get(move, 0)

        return sorted(moves, key=rank)

    def _reward(self, move: M, depth: int, ply: int) -> None:
        """A move that caused a cut-off is tried early elsewhere too."""
        self._history[move] = self._history.get(move, 0) + depth * depth
        if ply < len(self._killers):
            killers = self._killers[ply]
            if move not in killers:
                killers.insert(0, move)
                del killers[2:]


def _to_table(score: int, ply: int) -> int:
    """Mate scores are stored relative to the node, so they stay right when the
    same position is reached at another distance from the root."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score

"""The shared searches checked against brute force on small games."""

from __future__ import annotations

import random
import time
from collections.abc import Hashable, Iterator, Sequence
from threading import Event

import pytest

from parlour.ai import search as search_module
from parlour.ai.search import MATE, AlphaBeta

# -- a random game tree -------------------------------------------------------


class Tree:
    """A random game tree: every node has 0-4 children and a static score for the
    side to move; leaves without children are losses for the side to move when
    ``mates`` is set."""

    def __init__(self, seed: int, depth: int, mates: bool = False) -> None:
        self.rng_seed = seed
        self.depth = depth
        self.mates = mates
        self.path: list[int] = []

    def _rng(self, path: Sequence[int]) -> random.Random:
        return random.Random(f"{self.rng_seed}:{','.join(map(str, path))}")

    def children_of(self, path: Sequence[int]) -> int:
        if len(path) >= self.depth:
            return 0
        return self._rng(path).choice([0, 1, 2, 3, 4, 4] if self.mates else [1, 2, 3, 4])

    def moves(self) -> Sequence[int]:
        return list(range(self.children_of(self.path)))

    def noisy_moves(self) -> Sequence[int]:
        return []

    def may_stand_pat(self) -> bool:
        return True

    def make(self, move: int) -> None:
        self.path.append(move)

    def unmake(self) -> None:
        self.path.pop()

    def evaluate(self) -> int:
        return self._rng(self.path).randint(-500, 500)

    def terminal_score(self, ply: int) -> int | None:
        if self.mates and len(self.path) < self.depth and self.children_of(self.path) == 0:
            return -(MATE - ply)
        return None

    def hash_key(self) -> Hashable:
        return tuple(self.path)


def minimax(tree: Tree, depth: int, ply: int = 0) -> int:
    terminal = tree.terminal_score(ply)
    if terminal is not None:
        return terminal
    moves = tree.moves()
    if depth == 0 or not moves:
        return tree.evaluate()
    best = -(10**9)
    for move in moves:
        tree.make(move)
        best = max(best, -minimax(tree, depth - 1, ply + 1))
        tree.unmake()
    return best


@pytest.mark.parametrize("seed", range(40))
def test_alpha_beta_scores_equal_minimax(seed: int) -> None:
    depth = 3 + seed % 4
    tree = Tree(seed, depth=depth, mates=seed % 2 == 0)
    expected = minimax(tree, depth)
    engine: AlphaBeta[int] = AlphaBeta(max_depth=depth, quiescence=False)
    result = engine.search(tree)
    assert result.score == expected
    assert tree.path == [], "the search left moves on the board"
    if result.best_move is not None and tree.moves():
        tree.make(result.best_move)
        assert -minimax(tree, depth - 1, 1) == expected, "the best move does not give the score"
        tree.unmake()


def test_alpha_beta_searches_fewer_nodes_than_minimax() -> None:
    tree = Tree(7, depth=7)
    engine: AlphaBeta[int] = AlphaBeta(max_depth=7, quiescence=False)
    result = engine.search(tree)
    full_tree = sum(1 for _ in _walk(tree, 7))
    # every iteration of the deepening together still visits fewer nodes than one
    # full minimax of the last depth
    assert result.nodes < full_tree


def _walk(tree: Tree, depth: int) -> Iterator[list[int]]:
    yield tree.path
    if depth == 0:
        return
    for move in tree.moves():
        tree.make(move)
        yield from _walk(tree, depth - 1)
        tree.unmake()


# -- tic-tac-toe: a solved game ------------------------------------------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe:
    def __init__(self, cells: str = "." * 9) -> None:
        self.cells = list(cells)
        self.history: list[int] = []

    def to_move(self) -> str:
        return "X" if self.cells.count("X") == self.cells.count("O") else "O"

    def winner(self) -> str | None:
        for a, b, c in LINES:
            if self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return None

    def moves(self) -> Sequence[int]:
        if self.winner():
            return []
        return [i for i, cell in enumerate(self.cells) if cell == "."]

    def noisy_moves(self) -> Sequence[int]:
        return []

    def may_stand_pat(self) -> bool:
        return True

    def make(self, move: int) -> None:
        self.cells[move] = self.to_move()
        self.history.append(move)

    def unmake(self) -> None:
        self.cells[self.history.pop()] = "."

    def evaluate(self) -> int:
        return 0

    def terminal_score(self, ply: int) -> int | None:
        if self.winner():
            return -(MATE - ply)  # the side to move has just lost
        if "." not in self.cells:
            return 0
        return None

    def hash_key(self) -> Hashable:
        return "".join(self.cells)


@pytest.mark.parametrize("reductions", [False, True])
def test_tic_tac_toe_is_a_draw(reductions: bool) -> None:
    result = AlphaBeta[int](max_depth=9, quiescence=False, late_move_reductions=reductions).search(
        TicTacToe()
    )
    assert result.score == 0 and result.depth == 9


@pytest.mark.parametrize("reductions", [False, True])
def test_takes_the_win_and_prefers_the_quickest_mate(reductions: bool) -> None:
    # X to move wins at once on 2; slower wins exist too.
    board = TicTacToe("XX.OO....")
    result = AlphaBeta[int](max_depth=9, quiescence=False, late_move_reductions=reductions).search(
        board
    )
    assert result.best_move == 2
    assert result.score == MATE - 1 and result.mate_in == 1


@pytest.mark.parametrize("reductions", [False, True])
def test_blocks_the_threat(reductions: bool) -> None:
    board = TicTacToe("OO.X...X.")  # X to move must block on 2
    result = AlphaBeta[int](max_depth=9, quiescence=False, late_move_reductions=reductions).search(
        board
    )
    assert result.best_move == 2


def test_principal_variation_is_playable() -> None:
    board = TicTacToe("X...O....")
    result = AlphaBeta[int](max_depth=9, quiescence=False).search(board)
    assert result.principal_variation and result.principal_variation[0] == result.best_move
    for move in result.principal_variation:
        assert move in board.moves()
        board.make(move)


# -- limits ------------------------------------------------------------------


class Endless(Tree):
    """A wide tree far too deep to finish."""

    def children_of(self, path: Sequence[int]) -> int:
        return 6


def test_time_limit_is_kept_and_a_move_is_returned() -> None:
    engine: AlphaBeta[int] = AlphaBeta(time_limit=0.3, quiescence=False)
    started = time.perf_counter()
    result = engine.search(Endless(1, depth=10**6))
    assert time.perf_counter() - started < 1.5
    assert result.best_move is not None and result.depth >= 2


class Refuted(Tree):
    """Three moves at the root. One ply deep, move 0 looks best (+100 against 0 and
    0); two plies deep it is refuted (-200), move 1 is good (+50) and move 2 bad.
    The second iteration is stopped as it begins move 2."""

    def __init__(self, stop: Event) -> None:
        super().__init__(0, depth=2)
        self.stop = stop
        self.move_2_made = 0

    def children_of(self, path: Sequence[int]) -> int:
        return 3 if len(path) < 2 else 0

    def make(self, move: int) -> None:
        super().make(move)
        if self.path == [2]:
            self.move_2_made += 1
            if self.move_2_made == 2:  # the second iteration reaches move 2
                self.stop.set()

    def evaluate(self) -> int:
        if len(self.path) == 1:  # the opponent to move, after the root's move
            return (-100, 0, 0)[self.path[0]]
        return (-200, 50, -300)[self.path[0]] if self.path else 0


def test_a_stopped_iteration_keeps_the_better_move_it_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The second iteration found move 1 better than the first's choice, in full,
    # before it was stopped: that is the move to play, not the refuted one.
    monkeypatch.setattr(search_module, "CHECK_EVERY", 1)
    stop = Event()
    result = AlphaBeta[int](max_depth=2, quiescence=False, stop=stop).search(Refuted(stop))
    assert stop.is_set(), "the stop did not come in the second iteration"
    assert result.depth == 1
    assert (result.best_move, result.score) == (1, 50)


def test_stop_flag_ends_the_search() -> None:
    stop = Event()
    stop.set()
    result = AlphaBeta[int](stop=stop, quiescence=False).search(Endless(2, depth=10**6))
    assert result.depth == 1 and result.best_move is not None


# -- quiescence ----------------------------------------------------------------


class Exchanges(Tree):
    """Every move at the horizon is 'noisy': quiescence must follow them."""

    def noisy_moves(self) -> Sequence[int]:
        return self.moves()


def quiesce_reference(tree: Tree, alpha: int, beta: int) -> int:
    stand = tree.evaluate()
    if stand >= beta:
        return stand
    alpha = max(alpha, stand)
    for move in tree.noisy_moves():
        tree.make(move)
        score = -quiesce_reference(tree, -beta, -alpha)
        tree.unmake()
        if score >= beta:
            return score
        alpha = max(alpha, score)
    return alpha


@pytest.mark.parametrize("seed", range(10))
def test_quiescence_at_depth_zero_matches_reference(seed: int) -> None:
    tree = Exchanges(seed, depth=4)
    engine: AlphaBeta[int] = AlphaBeta(max_depth=1)
    expected = max(-quiesce_reference(_after(tree, move), -(10**9), 10**9) for move in tree.moves())
    assert engine.search(tree).score == expected


def _after(tree: Tree, move: int) -> Tree:
    twin = Exchanges(tree.rng_seed, tree.depth)
    twin.path = [*tree.path, move]
    return twin

"""Quiescence where a noisy move is forced (a compulsory capture in checkers, an
escape from check in chess): the mover may not stand pat on the static score."""

from __future__ import annotations

import pytest

from parlour.ai.search import AlphaBeta
from tests.ai.test_search import Exchanges, Tree


class CompulsoryExchanges(Exchanges):
    """As in checkers, where a capture is compulsory: at some nodes the mover must
    play a noisy move and may not stand pat on the static score."""

    def may_stand_pat(self) -> bool:
        return not self.moves() or self._rng(self.path).random() < 0.5


def after(tree: Tree, move: int) -> Tree:
    twin = type(tree)(tree.rng_seed, tree.depth)
    twin.path = [*tree.path, move]
    return twin


def forced_quiesce_reference(tree: Tree) -> int:
    """Quiescence by the definition, minimax without cut-offs: the best of the
    static score (where standing pat is allowed) and every noisy move."""
    scores = [tree.evaluate()] if tree.may_stand_pat() else []
    for move in tree.noisy_moves():
        tree.make(move)
        scores.append(-forced_quiesce_reference(tree))
        tree.unmake()
    return max(scores)


@pytest.mark.parametrize("seed", range(10))
def test_quiescence_does_not_stand_pat_where_a_noisy_move_is_forced(seed: int) -> None:
    tree = CompulsoryExchanges(seed, depth=5)
    engine: AlphaBeta[int] = AlphaBeta(max_depth=1)
    expected = max(-forced_quiesce_reference(after(tree, move)) for move in tree.moves())
    assert engine.search(tree).score == expected


def test_forced_quiescence_changes_scores() -> None:
    differs = 0
    for seed in range(10):
        forced = AlphaBeta[int](max_depth=1).search(CompulsoryExchanges(seed, depth=5)).score
        free = AlphaBeta[int](max_depth=1).search(Exchanges(seed, depth=5)).score
        differs += forced != free
    assert differs > 0

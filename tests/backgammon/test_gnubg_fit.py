"""training/backgammon_gnubg_fit.py's games against gnubg: every position met
follows from the one before by a legal play of the side on roll, the network's
and gnubg's in turn, so the positions it keeps are those of real games."""

from __future__ import annotations

from itertools import pairwise
from types import ModuleType

import gnubg_nn
import numpy as np

from parlour.backgammon.board import CheckerMove, legal_plays
from parlour.backgammon.network import WEIGHTS, Network
from parlour.backgammon.train import choose_play
from tests.scripts import load_script


def _script() -> ModuleType:
    return load_script("training/backgammon_gnubg_fit.py")


def test_a_game_against_gnubg_moves_by_legal_plays_in_turn() -> None:
    script = _script()
    network = Network.load(WEIGHTS)
    for network_first in (True, False):
        rng = np.random.default_rng(7 if network_first else 8)
        seen = script.game_against_gnubg(network, rng, network_first)
        assert len(seen) > 10  # a whole game, not a few throws
        # the same generator's throws, drawn again, say which play each step made
        rng = np.random.default_rng(7 if network_first else 8)
        for turn, (before, after) in enumerate(pairwise(seen)):
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            reachable = {before.apply(play).swapped() for play in legal_plays(before, dice)}
            assert after in (reachable or {before.swapped()})
            if (turn % 2 == 0) == network_first:
                assert after == choose_play(network, before, dice).swapped()
            else:  # gnubg's own 0-ply play (its board: the side not on roll first)
                pairs = gnubg_nn.best_move([list(before.opponent), list(before.mover)], *dice, n=0)
                assert after == before.apply(tuple(CheckerMove(*pair) for pair in pairs)).swapped()
        last = seen[-1]
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        # the game ends on the last position's throw: some play of it wins
        assert any(last.apply(play).win_kind() for play in legal_plays(last, dice))

"""The kinds of position (contact, crashed, race) as GNU Backgammon sorts them, and
a network that judges crashed positions and races by networks of their own."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import gnubg_nn
import numpy as np

from parlour.backgammon.board import Position
from parlour.backgammon.features import (
    CONTACT,
    CRASHED,
    RACE,
    counts_of,
    kinds_of_counts,
)
from parlour.backgammon.network import Network
from parlour.backgammon.train import Trainer
from tests.backgammon.test_board_oracle import gnubg_board, play_games
from tests.backgammon.test_features import position, random_game_positions


def gnubg_kind(position: Position) -> int:
    """gnubg's class of a position as Parlour's kind: its classes below ``c_race``
    (the game over, the bear-offs its databases judge) are races too."""
    found = gnubg_nn.classify(gnubg_board(position))
    if found == gnubg_nn.c_contact:
        return CONTACT
    return CRASHED if found == gnubg_nn.c_crashed else RACE


def test_the_kinds_are_gnubgs_on_positions_of_play() -> None:
    """Positions of gnubg's own games (long bear-offs, crashed boards) and of random
    play (hits, closed boards): every one sorted as gnubg sorts it."""
    positions = [
        p for _, p in zip(range(12_000), play_games(5, 200, gnubg_moves=True), strict=False)
    ]
    positions += random_game_positions(60, seed=9)
    ours = kinds_of_counts(counts_of(positions)).tolist()
    theirs = [gnubg_kind(p) for p in positions]
    assert Counter(theirs)[CRASHED] > 200 and Counter(theirs)[RACE] > 1000
    wrong = [(p, o, t) for p, o, t in zip(positions, ours, theirs, strict=True) if o != t]
    assert not wrong[:5]


def test_crashed_boards_and_races_by_hand() -> None:
    start = Position.start()
    # the player on roll has six checkers at work, nine piled on its one- and
    # two-points (the first on the two-point still counts): crashed
    piled = position({1: 6, 2: 4, 6: 2, 24: 3}, {24: 2, 13: 5, 8: 3, 6: 5})
    # seven at work: not crashed
    one_more = position({1: 5, 2: 4, 6: 3, 24: 3}, {24: 2, 13: 5, 8: 3, 6: 5})
    # the other side has five checkers left, and one of them still back
    few = position({6: 5, 8: 3, 13: 5, 24: 2}, {24: 1, 3: 2, 2: 2})
    race = position({6: 5, 8: 3, 13: 5}, {6: 5, 8: 3, 11: 2})
    kinds = kinds_of_counts(counts_of([start, piled, one_more, few, race])).tolist()
    assert kinds == [CONTACT, CRASHED, CONTACT, CRASHED, RACE]


def without_specialists(network: Network) -> Network:
    """``network``'s own weights alone, with no networks for kinds of position."""
    w1, b1, w2, b2 = network.parameters()
    return Network(w1, b1, w2, b2)


def specialised(seed: int) -> Network:
    network = Network.new(hidden=6, seed=seed)
    network.crashed = Network.new(hidden=5, seed=seed + 1)
    network.race = Network.new(hidden=4, seed=seed + 2)
    return network


def test_each_kind_is_judged_by_its_own_network() -> None:
    positions = random_game_positions(20, seed=3)
    counts = counts_of(positions)
    kinds = kinds_of_counts(counts)
    assert {CONTACT, CRASHED, RACE} <= set(kinds.tolist())
    network = specialised(1)
    judged = network.probabilities_of_counts(counts)
    for kind, judge in ((CONTACT, network), (CRASHED, network.crashed), (RACE, network.race)):
        assert judge is not None
        alone = without_specialists(judge)
        rows = kinds == kind
        assert np.array_equal(judged[rows], alone.probabilities_of_counts(counts[rows]))
        if kind != CONTACT:  # and not as the main network would
            main = without_specialists(network).probabilities_of_counts(counts[rows])
            assert not np.allclose(judged[rows], main)
    # without a network for a kind, the main one judges it
    network.crashed = None
    rows = kinds == CRASHED
    main_alone = without_specialists(network)
    assert np.array_equal(
        network.probabilities_of_counts(counts)[rows],
        main_alone.probabilities_of_counts(counts[rows]),
    )


def test_the_specialists_are_saved_and_resumed(tmp_path: Path) -> None:
    positions = random_game_positions(10, seed=4)
    network = specialised(7)
    expected = network.probabilities(positions)
    network.save(tmp_path / "weights.npz")
    assert np.allclose(Network.load(tmp_path / "weights.npz").probabilities(positions), expected)
    Trainer(network, seed=0).save(tmp_path / "checkpoint.npz")
    resumed = Trainer.resume(tmp_path / "checkpoint.npz").network
    assert np.array_equal(resumed.probabilities(positions), expected)
    assert resumed.race is not None and resumed.race.hidden == 4
    assert resumed.crashed is not None and resumed.crashed.hidden == 5

"""A neural network that judges backgammon positions, as TD-Gammon did.

The network reads a position from the side of the player on roll (before the dice are
thrown) and gives five probabilities for that player, the same five that GNU
Backgammon reports:

    win, win a gammon, win a backgammon, lose a gammon, lose a backgammon

(a gammon win counts among the wins; a backgammon among the gammons). From them comes
the cubeless money equity: the points expected per game at stake 1.

It first learnt by playing against itself with temporal-difference learning, TD(λ):
after every move the estimate of the position before is pulled toward the estimate
of the position after, and at the end toward the real result (see :mod:`.train`).
The network shipped was then widened to 256 hidden units and fitted to a stronger
judge's figures: GNU Backgammon's own evaluations of positions met in self-play and
led to by each throw's plays, some six million judged at 0-ply, then eight million
judged one throw deeper, at 1-ply, the last fit also asked to rank each throw's plays
as gnubg ranks them (``training/backgammon_gnubg_fit.py``, training-only;
docs/benchmarks.md says how much each gained).

Inputs, 99 for each side in its own numbering: for each of the 24 points, whether it
holds at least one, two and three checkers and how many more (halved); checkers on the
bar (halved); checkers borne off (out of 15); the pip count (out of 100). Then the
judgements of :mod:`.features` (shots, escapes, containment, pips to break contact,
entry, contact), which a network of this size does not find for itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from parlour.backgammon.board import Position
from parlour.backgammon.features import (
    CONTACT,
    CRASHED,
    FEATURES,
    RACE,
    Counts,
    counts_of,
    features_of_counts,
    kinds_of_counts,
)

try:
    from parlour.backgammon import native as native  # the engine calls it too

    #: Whether the inputs are computed in C (:mod:`parlour.backgammon.native`, bit for
    #: bit the numpy ones), where ``parlour compile`` built it; the engine's look
    #: ahead finds the plays of each throw there too.
    NATIVE = True
except ImportError:  # not built, or set aside by parlour.compiled: numpy
    NATIVE = False

Array = npt.NDArray[np.float64]
#: The network's arithmetic: double precision to learn, single to play.
FloatArray = TypeVar("FloatArray", npt.NDArray[np.float64], npt.NDArray[np.float32])

INPUTS_PER_SIDE = 99
#: The board's inputs for both sides, then the features.
BOARD_INPUTS = 2 * INPUTS_PER_SIDE
INPUTS = BOARD_INPUTS + FEATURES
OUTPUTS = 5
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(OUTPUTS)

#: The distance of each point from home (point i+1 is i+1 pips away; the bar 25).
_PIPS = np.arange(1, 26, dtype=np.float64)
#: The four inputs of a point holding n checkers (n up to 15), row n: at least one,
#: two, three, and how many more (halved).
_POINT_INPUTS = np.array(
    [[n >= 1, n >= 2, n >= 3, max(n - 3, 0) / 2] for n in range(16)], dtype=np.float64
)


def encode(positions: Sequence[Position]) -> Array:
    """The network's inputs for each position, one row each, from the side of the
    player on roll."""
    return encode_counts(counts_of(positions))


def encode_counts(counts: Counts) -> Array:
    """The inputs of :func:`encode` for positions given as rows of 50 counts (see
    :func:`.features.packed`)."""
    counts = np.ascontiguousarray(counts, dtype=np.uint8).reshape(-1, 50)
    if NATIVE:
        return np.frombuffer(native.inputs(counts.data)).reshape(len(counts), INPUTS)
    return numpy_inputs(counts.reshape(-1, 2, 25))


def numpy_inputs(counts: npt.NDArray[np.uint8]) -> Array:
    """The inputs of :func:`encode` computed with numpy, where the C extension is
    not built. ``counts[n, side, i]``: checkers of ``side`` (0 on roll, 1 not) on
    point i+1, index 24 the bar."""
    n = len(counts)
    board = np.empty((n, 2, INPUTS_PER_SIDE))
    board[:, :, :96] = _POINT_INPUTS[counts[:, :, :24]].reshape(n, 2, 96)
    board[:, :, 96] = counts[:, :, 24] / 2
    board[:, :, 97] = (15 - counts.sum(axis=2, dtype=np.int64)) / 15
    board[:, :, 98] = (counts @ _PIPS) / 100
    inputs = np.empty((n, INPUTS))
    inputs[:, :BOARD_INPUTS] = board.reshape(n, BOARD_INPUTS)
    inputs[:, BOARD_INPUTS:] = features_of_counts(counts)
    return inputs


def _sigmoid(x: FloatArray) -> FloatArray:
    """The logistic function, in the precision of ``x`` (numpy keeps float32 with a
    Python float; its type stubs say float64)."""
    return 1.0 / (1.0 + np.exp(-np.clip(x, -40, 40)))  # type: ignore[return-value]


def _sigmoid_in_place(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """:func:`_sigmoid` of ``x``, overwriting it: the same operations in the same
    order, so the same figures to the bit, without a new array for each step (the
    look ahead's batches are large)."""
    np.clip(x, -40, 40, out=x)
    np.negative(x, out=x)
    np.exp(x, out=x)
    np.add(x, 1.0, out=x)
    np.divide(1.0, x, out=x)
    return x


def flip(probabilities: Array) -> Array:
    """The same probabilities seen from the other player (rows of five)."""
    flipped = np.empty_like(probabilities)
    flipped[..., WIN] = 1.0 - probabilities[..., WIN]
    flipped[..., WIN_GAMMON] = probabilities[..., LOSE_GAMMON]
    flipped[..., WIN_BACKGAMMON] = probabilities[..., LOSE_BACKGAMMON]
    flipped[..., LOSE_GAMMON] = probabilities[..., WIN_GAMMON]
    flipped[..., LOSE_BACKGAMMON] = probabilities[..., WIN_BACKGAMMON]
    return flipped


def equity(probabilities: Array) -> Array:
    """Cubeless money equity of rows of five probabilities: +1 a single win, +2 a
    gammon, +3 a backgammon, and the same lost."""
    p = probabilities
    return (
        2 * p[..., WIN]
        - 1
        + p[..., WIN_GAMMON]
        - p[..., LOSE_GAMMON]
        + p[..., WIN_BACKGAMMON]
        - p[..., LOSE_BACKGAMMON]
    )


def result_vector(kind: int) -> Array:
    """The five 'probabilities' of a game won by ``kind`` (1 single, 2 gammon, 3
    backgammon), for the winner."""
    return np.array([1.0, kind >= 2, kind >= 3, 0.0, 0.0], dtype=np.float64)


_NAMES = ("w1", "b1", "w2", "b2")


@dataclass
class Network:
    """One hidden layer of sigmoid units, five sigmoid outputs; and, as GNU
    Backgammon has, networks of its own for crashed positions and races where they
    are given (the kinds of :func:`.features.kinds_of_counts`): this one judges the
    rest.

    >>> from parlour.backgammon.board import Position
    >>> network = Network.new(hidden=8)
    >>> network.probabilities([Position.start()]).shape
    (1, 5)
    """

    w1: Array
    b1: Array
    w2: Array
    b2: Array
    #: The network for crashed positions (one side with few checkers left at
    #: work), if any.
    crashed: Network | None = None
    #: The network for races (no contact left), if any.
    race: Network | None = None

    @classmethod
    def new(cls, hidden: int = 80, seed: int = 0) -> Network:
        rng = np.random.default_rng(seed)
        return cls(
            w1=rng.normal(0.0, 1.0 / np.sqrt(INPUTS), (INPUTS, hidden)),
            b1=np.zeros(hidden),
            w2=rng.normal(0.0, 1.0 / np.sqrt(hidden), (hidden, OUTPUTS)),
            b2=np.zeros(OUTPUTS),
        )

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])

    def widened(self, hidden: int, seed: int = 0) -> Network:
        """This network with room for every input of :data:`INPUTS` (a network
        trained on fewer, the first ones) and ``hidden`` hidden units: the new
        inputs' weights start at zero and the new units' outgoing weights too, so
        the wider network judges exactly as this one until it learns to use them.
        The networks for crashed positions and races are not carried over.
        """
        if hidden < self.hidden or self.w1.shape[0] > INPUTS:
            raise ValueError("a network can only be widened")
        rng = np.random.default_rng(seed)
        w1 = np.zeros((INPUTS, hidden))
        w1[: self.w1.shape[0], : self.hidden] = self.w1
        # the new units see every input (small random weights, so they differ)
        w1[:, self.hidden :] = rng.normal(
            0.0, 1.0 / np.sqrt(INPUTS), (INPUTS, hidden - self.hidden)
        )
        b1 = np.zeros(hidden)
        b1[: self.hidden] = self.b1
        w2 = np.zeros((hidden, OUTPUTS))
        w2[: self.hidden] = self.w2
        return Network(w1, b1, w2, self.b2.copy())

    def forward(self, inputs: Array) -> Array:
        """The five probabilities for each row of inputs, by this network alone
        (in double precision: what it learns by)."""
        return _sigmoid(_sigmoid(inputs @ self.w1 + self.b1) @ self.w2 + self.b2)

    def probabilities(self, positions: Sequence[Position]) -> Array:
        """The five probabilities for the player on roll in each position.

        Worked out in single precision, as the weights are shipped: three times as
        quick as :meth:`forward` (a look two throws ahead judges some thousands of
        positions a play), and as near as a millionth to it."""
        return self.probabilities_of_counts(counts_of(positions))

    def probabilities_of_counts(self, counts: Counts) -> Array:
        """:meth:`probabilities` of positions given as rows of 50 counts, each
        judged by the network for its kind."""
        inputs = encode_counts(counts)
        if self.crashed is None and self.race is None:
            return self._single(inputs)
        kinds = kinds_of_counts(counts)
        outputs = np.empty((len(inputs), OUTPUTS))
        for kind, network in ((CONTACT, self), (CRASHED, self.crashed), (RACE, self.race)):
            rows = kinds == kind
            if rows.any():
                outputs[rows] = (network or self)._single(inputs[rows])
        return outputs

    def _single(self, inputs: Array) -> Array:
        """The five probabilities of rows of inputs by this network alone, in
        single precision."""
        hidden = inputs.astype(np.float32) @ self.w1.astype(np.float32)
        hidden += self.b1.astype(np.float32)
        outputs = _sigmoid_in_place(hidden) @ self.w2.astype(np.float32)
        outputs += self.b2.astype(np.float32)
        return _sigmoid_in_place(outputs).astype(np.float64)

    def learn(self, inputs: Array, targets: Array, alpha: float) -> None:
        """One gradient step moving the outputs for rows of ``inputs`` toward
        ``targets`` (squared error, summed over the rows)."""
        hidden = _sigmoid(inputs @ self.w1 + self.b1)
        outputs = _sigmoid(hidden @ self.w2 + self.b2)
        output_error = (targets - outputs) * outputs * (1 - outputs)
        hidden_error = (output_error @ self.w2.T) * hidden * (1 - hidden)
        self.w2 += alpha * hidden.T @ output_error
        self.b2 += alpha * output_error.sum(axis=0)
        self.w1 += alpha * inputs.T @ hidden_error
        self.b1 += alpha * hidden_error.sum(axis=0)

    def parameters(self) -> list[Array]:
        """This network's own weights (not its specialists')."""
        return [self.w1, self.b1, self.w2, self.b2]

    def arrays(self, prefix: str = "", dtype: type = np.float32) -> dict[str, Any]:
        """Every weight by the name it is saved under, the specialists' after
        ``crashed_`` and ``race_``."""
        found: dict[str, Any] = {
            prefix + name: array.astype(dtype)
            for name, array in zip(_NAMES, self.parameters(), strict=True)
        }
        for kind, network in (("crashed_", self.crashed), ("race_", self.race)):
            if network is not None:
                found.update(network.arrays(prefix + kind, dtype))
        return found

    def save(self, path: Path, **extra: Any) -> None:
        """Write the weights (as float32: small, and precise enough) and any extra
        arrays, such as a trainer's state."""
        np.savez_compressed(path, **self.arrays(), **extra)

    @classmethod
    def load(cls, path: Path, prefix: str = "") -> Network:
        """The network saved at ``path`` (its arrays named ``w1`` and so on, after
        ``prefix``), with its specialists where saved; one saved before the later
        inputs existed is widened to them."""
        with np.load(path) as data:
            return cls._from(data, prefix)

    @classmethod
    def _from(cls, data: Any, prefix: str) -> Network:
        network = cls(*(data[prefix + name].astype(np.float64) for name in _NAMES))
        if network.w1.shape[0] < INPUTS:
            network = network.widened(network.hidden)
        if prefix + "crashed_w1" in data:
            network.crashed = cls._from(data, prefix + "crashed_")
        if prefix + "race_w1" in data:
            network.race = cls._from(data, prefix + "race_")
        return network


WEIGHTS = Path(__file__).with_name("weights") / "network.npz"


@cache
def shipped_network() -> Network:
    """The network trained for Parlour and shipped inside the package (loaded once;
    treat it as read-only)."""
    return Network.load(WEIGHTS)

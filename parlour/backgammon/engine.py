"""The backgammon computer opponent: plays by the trained network, cube decisions
by equity.

A play is chosen by looking at every position it can reach:

* 0-ply: each resulting position judged by the network as it stands;
* 1-ply: for the best few of those, every one of the opponent's 21 throws is tried,
  the opponent answers with its best 0-ply play, and the results are averaged;
* 2-ply: for the best few of those again, the same, and after each of the
  opponent's answers every one of our own 21 throws too, each answered by our best
  0-ply play.

Which plays go a throw deeper is decided as GNU Backgammon's move filters decide
it: at most so many of the best, and only those within so much equity of the best
(:data:`LEVEL_FILTERS`). The positions met at each depth are judged by the network
in one batch, which is what makes two throws ahead affordable in Python.

Levels, as GNU Backgammon's are made: 1-5 are 0-ply with a deliberate error added to
every judgement (large at level 1, slight at 5, the default), so a beginner meets
beatable play; level 6 is plain 0-ply, level 7 looks two throws ahead. (One throw
ahead, 1-ply, gains over 0-ply half what GNU Backgammon's own 1-ply gains over its
0-ply, measured: it is no level of its own, as two throws take twice its time and gain
nearly four times as much; nor does a third throw, at eight times the time, choose better
than two.) How strong each level measured is in
:attr:`BackgammonEngine.level_strengths`. Hints rank the plays as level 7 does; the
coach's analysis judges the best eight plays one throw ahead, so that a whole game
is analysed in well under a minute.

Cube decisions (double, take, pass, beaver) come from :mod:`.equity`: cubeful money
equity, or match winning chances from our match equity table.

An opening 31 is played by making the five-point, as every strong player does:

>>> from parlour.backgammon.rules import BACKGAMMON
>>> state = BACKGAMMON.new_state()
>>> state.play("31")
Throw(dice=(3, 1))
>>> BackgammonEngine().hint(state).move_text
'8/5 6/5'
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping, Sequence
from functools import cached_property, lru_cache
from typing import ClassVar, NamedTuple

import numpy as np
import numpy.typing as npt

from parlour.backgammon import network as _network
from parlour.backgammon.bearoff import shipped_table
from parlour.backgammon.board import CHECKERS, Play, Position, legal_plays
from parlour.backgammon.cube import Cube, effective_win
from parlour.backgammon.equity import (
    Chances,
    CubeDecision,
    MatchCube,
    match_cube_decision,
    money_cube_decision,
    money_equity,
)
from parlour.backgammon.features import Counts, counts_of
from parlour.backgammon.network import (
    OUTPUTS,
    Array,
    Network,
    equity,
    flip,
    result_vector,
    shipped_network,
)
from parlour.backgammon.rules import Action, BackgammonMove, BackgammonState, Phase
from parlour.core.engine import Analysis, Engine, Hint, Line, RankedMove
from parlour.core.errors import ParlourError
from parlour.core.protocol import Side, State

#: The 21 distinct throws with their probabilities.
THROWS = [
    ((high, low), (1 if high == low else 2) / 36)
    for high in range(1, 7)
    for low in range(1, high + 1)
]

#: The weight of each of the 21 throws, in the order of :data:`THROWS`.
WEIGHTS = np.array([probability for _, probability in THROWS])

#: A position's 50 counts as one value, so that numpy can sort them and find
#: the repeated ones.
_ROW = np.dtype((np.void, 50))

#: The five 'probabilities' of the side that has just borne off its last checker,
#: row ``kind`` for a win of that kind (row 0 unused: the game goes on).
_RESULT_VECTORS = np.array([np.zeros(OUTPUTS)] + [result_vector(kind) for kind in (1, 2, 3)])


class Filter(NamedTuple):
    """Which plays go on to be judged a throw deeper, as gnubg's move filters
    choose them: at most ``keep`` of the best, and of those only the ones within
    ``within`` of the best's equity."""

    keep: int
    within: float


#: For each level: the spread of the error added to each play's equity (0-ply).
LEVEL_NOISE = {1: 0.35, 2: 0.2, 3: 0.1, 4: 0.04, 5: 0.02}
#: For the levels that look ahead: one filter for each throw they look ahead. Level
#: 7 judges the best eight plays (within 0.16 of the best) one throw deeper
#: (1-ply), and the best three of those (within 0.06 of the best at 1-ply) two
#: throws deeper (2-ply).
LEVEL_FILTERS = {7: (Filter(8, 0.16), Filter(3, 0.06))}
#: The plays the analysis (the coach) judges one throw deeper: the best eight by
#: the network, however far behind (the coach lists them); hints use the strongest
#: level's search.
ANALYSIS_FILTER = Filter(8, float("inf"))


class BackgammonEngine(Engine[BackgammonMove]):
    strongest = 7
    default_level = 5

    #: Measured by benchmarks/backgammon_vs_pubeval.py: cubeless money games with
    #: duplicate dice, each level against the one below it and against GNU
    #: Backgammon at 0-ply, points a game (docs/benchmarks.md, "The levels").
    level_strengths: ClassVar[Mapping[int, str]] = {
        1: "a beginner: a large error in every judgement, so many poor plays; "
        "loses 1.96 points a game to GNU Backgammon at 0-ply",
        2: "a smaller error in every judgement; beats level 1 by 1.04 points a game; "
        "loses 1.38 points a game to GNU Backgammon at 0-ply",
        3: "now and then a careless play; beats level 2 by 0.88 points a game; "
        "loses 0.65 points a game to GNU Backgammon at 0-ply",
        4: "a slight error in its judgement; beats level 3 by 0.46 points a game; "
        "loses 0.23 points a game to GNU Backgammon at 0-ply",
        5: "a very slight error in its judgement; beats level 4 by 0.08 points a game; "
        "loses 0.07 points a game to GNU Backgammon at 0-ply",
        6: "judges every play as it stands (0-ply), quick; beats level 5 by 0.07 points "
        "a game; wins 0.00 points a game from GNU Backgammon at 0-ply (0.004 over "
        "70,000 games: level with it)",
        7: "the strongest: looks two throws ahead at its best plays (2-ply), about "
        "a twentieth of a second a move; beats level 6 by 0.05 points a game "
        "(4,000 games); wins 0.04 points a game from GNU Backgammon at 0-ply "
        "(10,000 games: from 0.02 to 0.07)",
    }

    def __init__(self, network: Network | None = None, *, bearoff: bool = True) -> None:
        """``network`` judges positions (by default the shipped one); ``bearoff``:
        races with every checker home are judged exactly by the bear-off database
        (:mod:`.bearoff`) instead."""
        self._network = network
        self.use_bearoff = bearoff

    @cached_property
    def network(self) -> Network:
        return self._network or shipped_network()

    #: The most positions the network judges at once: a look two throws ahead
    #: meets thousands, and arrays that fit the processor's cache are quicker
    #: (the worst move of level 7 took half the time in batches of this size).
    BATCH = 2048

    def probabilities(self, positions: Sequence[Position]) -> Array:
        """The five cubeless probabilities of each position's mover (see
        :mod:`.network`): exact from the bear-off database where both sides are
        bearing off with no contact, else the network's."""
        return self.probabilities_of_counts(counts_of(positions))

    def probabilities_of_counts(self, counts: Counts) -> Array:
        """:meth:`probabilities` of positions given as rows of 50 counts (the
        mover's 25, then the opponent's: :func:`.features.packed`)."""
        if len(counts) > self.BATCH:
            return np.concatenate(
                [
                    self.probabilities_of_counts(counts[start : start + self.BATCH])
                    for start in range(0, len(counts), self.BATCH)
                ]
            )
        # both sides with every checker home (none on the bar): the database's race
        exact = (
            ~counts[:, 6:25].any(axis=1) & ~counts[:, 31:50].any(axis=1)
            if self.use_bearoff
            else np.zeros(len(counts), dtype=bool)
        )
        if not exact.any():
            return self._network_probabilities(counts)
        rows = np.zeros((len(counts), OUTPUTS))
        known = np.flatnonzero(exact)
        boards = np.concatenate([counts[known, :6], counts[known, 25:31]], axis=1)
        for i, race in zip(known, boards, strict=True):
            rows[i] = _race_chances(race.tobytes())
        rest = np.flatnonzero(~exact)
        if len(rest):
            rows[rest] = self._network_probabilities(counts[rest])
        return rows

    def _network_probabilities(self, counts: Counts) -> Array:
        """The network's five probabilities of each position (rows of 50 counts)
        for its mover; a network that judges positions its own way (a subclass
        with its own :meth:`Network.probabilities`) is given Positions."""
        network = self.network
        if type(network).probabilities is not Network.probabilities:
            rows = counts.tolist()
            return network.probabilities([Position(tuple(r[:25]), tuple(r[25:])) for r in rows])
        return network.probabilities_of_counts(counts)

    # -- the Engine interface ------------------------------------------------------

    def choose_move(
        self,
        state: State[BackgammonMove],
        level: int | None = None,
        rng: random.Random | None = None,
        *,
        seconds: float | None = None,
    ) -> BackgammonMove:
        state = _backgammon(state)
        level = self.check_level(self.default_level if level is None else level)
        if seconds is not None:
            # a level that looks ahead and might not finish in time plays as the
            # level below it
            while level in LEVEL_FILTERS and self.time_limit(level) > seconds:
                level -= 1
        rng = rng or random.Random()
        legal = state.legal_moves()
        if not legal:
            raise ParlourError("the game is over")
        phase = state.phase
        if phase is Phase.PLAY:
            return self._choose_play(state, level, rng)
        if phase is Phase.CUBE:
            # beginners leave the cube alone; everyone else doubles when it is right
            if Action.DOUBLE in legal and level >= 3 and self.cube_decision(state).should_double:
                return Action.DOUBLE
            return Action.ROLL
        if phase is Phase.DOUBLED:
            decision = self.cube_decision(state)
            if not decision.should_take:
                return Action.DROP
            if Action.BEAVER in legal and decision.should_beaver:
                return Action.BEAVER
            return Action.TAKE
        if phase is Phase.BEAVERED:
            # the doubler keeps playing at four times the stake if that beats
            # giving up twice the stake
            return Action.TAKE if self.cube_decision(state).double_take > -1 else Action.DROP
        if phase is Phase.RESIGNING:
            return Action.ACCEPT if self._resignation_is_enough(state) else Action.DECLINE
        raise ParlourError("the dice are to be thrown: that is not the engine's move")

    def hint(self, state: State[BackgammonMove]) -> Hint[BackgammonMove]:
        """After the roll: the plays of that roll ranked by their equity, as the
        strongest level judges them. Before it (or at a cube decision): the best
        action and the position's chances as the dice are still to be thrown."""
        state = _backgammon(state)
        if state.phase is Phase.PLAY:
            return self._play_hint(state)
        move = self.choose_move(state, self.strongest, random.Random(0))
        chances = self.chances(state)
        words = self._assessment(state, chances)
        if state.phase in (Phase.CUBE, Phase.DOUBLED) and self._cube_matters(state):
            beavers = state.options.beavers and state.money
            words += f"; cube: {self.cube_decision(state).words(beavers=beavers)}"
        return Hint(move, state.move_to_text(move), words, round(chances.equity, 3))

    #: How many plays of a roll a hint lists.
    HINT_PLAYS = 5

    def _play_hint(self, state: BackgammonState) -> Hint[BackgammonMove]:
        dice = state.dice
        assert dice is not None
        ranked = self.ranked_plays(state.position, dice)
        if not ranked:
            return Hint((), state.move_to_text(()), "no legal play: the turn passes", None)
        shown: list[RankedMove[BackgammonMove]] = [
            RankedMove(play, state.move_to_text(play), value) for play, value in ranked
        ]
        best = shown[0]
        words = f"{best.move_text} is best (equity {best.score:+.3f})"
        others = [
            f"{r.move_text} ({r.score - best.score:+.3f})" for r in shown[1 : self.HINT_PLAYS]
        ]
        if others:
            words += "; then " + ", ".join(others)
        return Hint(best.move, best.move_text, words, round(best.score, 3), tuple(shown))

    def ranked_plays(
        self,
        position: Position,
        dice: tuple[int, int],
        filters: Sequence[Filter] | None = None,
    ) -> list[tuple[Play, float]]:
        """Every distinct play of ``dice``, best first, with the mover's equity after
        it, as the strongest level judges them (see :meth:`_search`), or a search
        with these ``filters``."""
        return self._search(position, dice, filters or LEVEL_FILTERS[self.strongest])

    def time_limit(self, level: int) -> float:
        """About the longest a move of ``level`` takes: the worst measured over the
        positions of real games (docs/benchmarks.md, "The levels with f2": the
        levels that judge at 0-ply 0.24 s, the first bear-off loading the database;
        level 7 0.86 s with the machine otherwise quiet, more beside other work)."""
        self.check_level(level)
        return 1.0 if level == 7 else 0.25

    # -- analysis --------------------------------------------------------------------

    judged_by = "equity"

    def score_text(self, score: float) -> str:
        return f"{score:+.3f}"

    def decision_kind(self, state: State[BackgammonMove], move: BackgammonMove) -> str:
        """ "move" for a checker play; a cube decision by its action, and a roll
        where a double was possible counts as a decision about doubling."""
        if isinstance(move, Action):
            return "double" if move is Action.ROLL else move.value
        return "move"

    def analyse(
        self,
        state: State[BackgammonMove],
        *,
        seconds: float = 1.0,
        lines: int = 1,
        stop: threading.Event | None = None,
        nodes: int | None = None,
        moves: Sequence[BackgammonMove] | None = None,
        depth: int | None = None,
    ) -> Analysis[BackgammonMove] | None:
        """The choices of the side to act with their equities, best first: after a
        roll, the eight best plays by the network, each judged a throw deeper
        (1-ply: fast enough for a whole game, where the strongest
        level's 2-ply would take minutes; ``moves``, if given, are judged the same
        way); at the
        cube, double or roll; doubled, take, pass or beaver (cubeful equity per unit
        of the cube before
        the double, from the chooser's point of view). At a throw of the dice: the
        thrower's cubeless equity before it, against which the throw's luck is
        measured. None before the opening throw (no one is on roll yet), at a
        resignation and when the game is over. The budget is not needed: the
        analysis takes well under a second.

        >>> from parlour.backgammon.rules import BACKGAMMON
        >>> state = BACKGAMMON.new_state()
        >>> _ = state.play("31")
        >>> found = BackgammonEngine().analyse(state)
        >>> found.lines[0].move_text, len(found.lines)
        ('8/5 6/5', 8)
        """
        state = _backgammon(state)
        phase = state.phase
        if phase is Phase.THROW:
            return Analysis(state.mover, self.worth(state, self.chances(state)), (), depth=0)
        turn = state.turn
        if not isinstance(turn, Side) or phase in (Phase.RESIGNING, Phase.OVER):
            return None
        choices: list[tuple[BackgammonMove, float]]
        if moves is None:
            choices = self._choices(state)
        elif phase is Phase.PLAY:  # each play asked about, valued as the leaders are
            plays = {move for move in moves if isinstance(move, tuple)}
            choices = [(play, self._play_value(state, play)) for play in plays]
        else:
            choices = [choice for choice in self._choices(state) if choice[0] in moves]
        found = tuple(
            Line(move, state.move_to_text(move), value, (state.move_to_text(move),))
            for move, value in sorted(choices, key=lambda choice: -choice[1])
        )
        return Analysis(turn, found[0].score, found, depth=1 if phase is Phase.PLAY else 0)

    def _choices(self, state: BackgammonState) -> list[tuple[BackgammonMove, float]]:
        """The side to act's choices with their equities for it (see :meth:`analyse`)."""
        phase = state.phase
        legal = state.legal_moves()
        if phase is Phase.PLAY:
            dice = state.dice
            assert dice is not None
            # the leading plays by the network, each valued a throw deeper (the
            # others' figures would be 0-ply: another scale)
            plays = legal_plays(state.position, dice)
            if not plays:
                return [((), self._play_value(state, ()))]
            results = [state.position.apply(play) for play in plays]
            leaders = _kept(self._values(results), ANALYSIS_FILTER)
            worths = self._worths_after(state, [results[i] for i in leaders])
            return [(plays[i], worth) for i, worth in zip(leaders, worths, strict=True)]
        if phase is Phase.CUBE:
            if Action.DOUBLE not in legal or not self._cube_matters(state):
                return [(Action.ROLL, self.chances(state).equity)]
            decision = self.cube_decision(state)
            doubled = min(decision.double_take, decision.double_pass)
            rolled = decision.no_double
            if decision.may_wait:
                # a cube the opponent can never turn: doubling next turn is worth
                # about what doubling now is (the live cube's straight line, which
                # cashes at the doubling point, undervalues waiting: gnubg calls
                # it no error), so the coach does not call waiting one
                rolled = max(rolled, doubled)
            return [(Action.ROLL, rolled), (Action.DOUBLE, doubled)]
        decision = self.cube_decision(state)
        if phase is Phase.DOUBLED:
            answers: list[tuple[BackgammonMove, float]] = [
                (Action.TAKE, -decision.double_take),
                (Action.DROP, -decision.double_pass),
            ]
            if Action.BEAVER in legal:
                answers.append((Action.BEAVER, -2 * decision.double_take))
            return answers
        # beavered: the doubler plays on at twice the doubled stake, or gives it up
        return [(Action.TAKE, 2 * decision.double_take), (Action.DROP, -2.0)]

    # -- judging positions ---------------------------------------------------------

    def chances(self, state: BackgammonState) -> Chances:
        """The cubeless chances of the side whose turn of play it is (the mover),
        as if the dice were still to be thrown."""
        (row,) = self.probabilities([state.position])
        return _chances(row)

    def rolled_chances(self, state: BackgammonState, throws: int = 1) -> Chances:
        """The cubeless chances of the side about to roll, ``throws`` deeper than
        :meth:`chances`: at 1 the average, over its 21 throws, of its chances after
        its best play of each (by the network), as gnubg's 1-ply evaluation of a
        cube decision looks ahead; at 2 those chances judged a throw deeper again
        (about ten times the time)."""
        (row,) = self._on_roll(counts_of([state.position]), plies=throws)
        return _chances(row)

    def rolled_probabilities(self, positions: Sequence[Position]) -> Array:
        """The five probabilities of each position's mover, about to throw, a throw
        deeper (as :meth:`rolled_chances`), judged together."""
        return self._on_roll(counts_of(positions), plies=1)

    def _values(self, results: Sequence[Position]) -> Array:
        """The mover's equity after each play, which reached ``results``, by the
        network (0-ply); a play that ends the game is worth its points."""
        return equity(self._after(results))

    def _play_value(self, state: BackgammonState, play: Play) -> float:
        """What ``play`` is worth to the mover, as gnubg's analysis counts it: the
        mover's chances at its next turn (the opponent's every throw answered by its
        best play), as cubeful money equity (Janowski's) or, in a match, as match
        winning chances turned into normalised equity; per unit of the cube."""
        (worth,) = self._worths_after(state, [state.position.apply(play)])
        return worth

    def _worths_after(self, state: BackgammonState, results: Sequence[Position]) -> list[float]:
        """What each play that reached ``results`` is worth to the mover of
        ``state`` (see :meth:`_play_value`), judged together."""
        rows = self._after(results, plies=1)
        return [self.worth(state, _chances(row)) for row in rows]

    def worth(self, state: BackgammonState, chances: Chances) -> float:
        """``chances`` of the mover of ``state``, on roll, as normalised equity:
        cubeful money equity (Janowski's interpolation) for money play; in a match
        the match winning chance (the cube as it stands) as equity between losing
        and winning a game at this cube, as gnubg normalises it."""
        cube = state.cube
        mover = state.mover
        owner = _owner(cube, mover)
        if state.money:
            if state.options.jacoby and cube.centred:
                chances = chances.single_only()
            return money_equity(chances, owner)
        model = _match_cube(state, mover, chances)
        return model.normalised(model.cubeful(cube.value, owner), cube.value)

    def luck(self, state: State[BackgammonMove], throw: BackgammonMove) -> float | None:
        """How much ``throw`` (about to be thrown in ``state``) is worth to the
        thrower against the average throw, as gnubg counts luck: each throw's best
        play by the network, cubeless. None for the opening throw (no one is on
        roll before it) and where no throw is due."""
        state = _backgammon(state)
        if state.phase is not Phase.THROW:
            return None
        dice = getattr(throw, "dice", None)
        if dice is None:
            return None
        _, rows = self._best_plays(counts_of([state.position]))
        values = equity(rows)
        high, low = max(dice), min(dice)
        thrown = next(i for i, (roll, _) in enumerate(THROWS) if roll == (high, low))
        return float(values[thrown] - WEIGHTS @ values)

    # -- looking ahead -------------------------------------------------------------
    #
    # A play is judged by the position it reaches, with the opponent to throw next.
    # Looking a throw deeper means trying each of the 21 throws with the side to
    # play answering by its best play as the network sees it (0-ply, as gnubg picks
    # the plays inside its own look-ahead), and averaging the chances over the
    # throws, weighted by how often each comes. The positions met at one depth are
    # judged by the network together, in one batch: that is where the speed is.
    # Inside the look ahead positions travel as rows of 50 counts (see
    # :func:`replies`), never as Position objects: a look two throws ahead meets
    # hundreds of thousands of them.

    def _after(self, results: Sequence[Position], plies: int = 0) -> Array:
        """The five probabilities of the mover after each play, which reached
        ``results`` (still seen by the mover), judged ``plies`` throws deeper: see
        :meth:`_after_counts`."""
        return self._after_counts(counts_of(results, swapped=True), plies)

    def _after_counts(self, results: Counts, plies: int = 0) -> Array:
        """The five probabilities of the mover after each play, which reached
        ``results`` -- given as the opponent, now on roll, sees them (its counts
        first, as :func:`replies` lists them) -- judged ``plies`` throws deeper: at
        0 the network's (or the bear-off database's) view of the position as it
        stands, the opponent to throw; at 1 the opponent's every throw is tried; at
        2 the mover's next throws too. A play that ends the game is worth what it
        wins."""
        # The same position is met again and again (other throws reach it, other
        # replies lead back to it: a third of those two throws deep): each is
        # judged once, the distinct ones in the order of their counts.
        rows = np.ascontiguousarray(results, dtype=np.uint8).view(_ROW).ravel()
        distinct, where = np.unique(rows, return_inverse=True)
        return self._after_distinct(distinct.view(np.uint8).reshape(-1, 50), plies)[where]

    def _after_distinct(self, results: Counts, plies: int) -> Array:
        """:meth:`_after_counts` of distinct positions."""
        kinds = win_kinds(results)
        going_on = kinds == 0
        if going_on.all():
            return flip(self._on_roll(results, plies))
        rows = _RESULT_VECTORS[kinds]
        if going_on.any():
            rows[going_on] = flip(self._on_roll(results[going_on], plies))
        return rows

    def _on_roll(self, positions: Counts, plies: int) -> Array:
        """The five probabilities of each position's mover, about to throw, judged
        ``plies`` throws deep: at 0 by the network as the position stands; deeper,
        the average over the 21 throws of the mover's chances after its best play
        of each, those judged a throw less deep."""
        if plies == 0:
            return self.probabilities_of_counts(positions)
        chosen, rows = self._best_plays(positions)
        if plies > 1:
            rows = self._after_counts(chosen, plies - 1)
        by_throw = rows.reshape(len(positions), len(THROWS), OUTPUTS)
        return np.asarray(np.einsum("t,ntk->nk", WEIGHTS, by_throw))

    def _best_plays(self, positions: Counts) -> tuple[Counts, Array]:
        """For each position and each of the 21 throws (row ``21 * i + t`` for
        position ``i`` and throw ``t`` of :data:`THROWS`): where the mover's best
        play of that throw by the network leads (the position itself when nothing
        can be played; as the opponent, now on roll, sees it), and the mover's five
        probabilities there (0-ply). Of plays judged equal, the first in the order
        of :func:`replies` is taken."""
        results, sizes = replies(positions)
        rows = self._after_counts(results)
        values = equity(rows)
        starts = np.zeros(len(sizes), dtype=np.int64)
        np.cumsum(sizes[:-1], out=starts[1:])
        # the first of the best of each (position, throw): every throw has a result
        best_values = np.repeat(np.maximum.reduceat(values, starts), sizes)
        hits = np.flatnonzero(values == best_values)
        best = hits[np.searchsorted(hits, starts)]
        return results[best], rows[best]

    def _search(
        self, position: Position, dice: tuple[int, int], filters: Sequence[Filter]
    ) -> list[tuple[Play, float]]:
        """Every distinct play of ``dice``, best first, with the mover's equity after
        it, as a level with these ``filters`` judges them: every play by the network
        (0-ply); those the first filter lets through one throw deeper (1-ply); those
        the next lets through of them two throws deeper; and so on. The plays
        judged deepest come first, each group in its order; a search stops early
        when a single play is left (nothing is left to choose)."""
        plays = legal_plays(position, dice)
        if not plays:
            return []
        results = [position.apply(play) for play in plays]
        values = self._values(results)
        leaders = [int(i) for i in np.argsort(-values, kind="stable")]
        dropped: list[tuple[Play, float]] = []
        for plies, sieve in enumerate(filters, start=1):
            kept = len(_kept(values[leaders], sieve))  # the leaders are in order
            if kept < 2:
                break
            dropped = [(plays[i], float(values[i])) for i in leaders[kept:]] + dropped
            leaders = leaders[:kept]
            values[leaders] = equity(self._after([results[i] for i in leaders], plies))
            leaders.sort(key=lambda i: -values[i])
        return [(plays[i], float(values[i])) for i in leaders] + dropped

    def _choose_play(
        self, state: BackgammonState, level: int, rng: random.Random
    ) -> BackgammonMove:
        dice = state.dice
        assert dice is not None
        return self.choose_play(state.position, dice, level, rng)

    def choose_play(
        self,
        position: Position,
        dice: tuple[int, int],
        level: int | None = None,
        rng: random.Random | None = None,
    ) -> Play:
        """The play chosen at ``level`` for the mover of ``position`` with ``dice``
        (the empty play when nothing can be played)."""
        level = self.check_level(self.default_level if level is None else level)
        if level in LEVEL_FILTERS:
            ranked = self._search(position, dice, LEVEL_FILTERS[level])
            return ranked[0][0] if ranked else ()
        plays = legal_plays(position, dice)
        if not plays:
            return ()
        values = self._values([position.apply(play) for play in plays])
        if level in LEVEL_NOISE:
            spread = LEVEL_NOISE[level]
            noise = rng or random.Random()
            values = values + np.array([noise.gauss(0.0, spread) for _ in values])
        return plays[int(np.argmax(values))]

    # -- the cube ------------------------------------------------------------------

    def _cube_matters(self, state: BackgammonState) -> bool:
        return not (state.crawford and not state.money)

    def cube_decision(self, state: BackgammonState) -> CubeDecision:
        """The decision for the mover as the side that may double (in DOUBLED, the
        double already made is judged the same way), from its chances a throw deep
        (:meth:`rolled_chances`: against gnubg's verdicts it halves the equity lost
        on takes, docs/benchmarks.md)."""
        return self.cube_decision_from(state, self.rolled_chances(state))

    def cube_decision_from(self, state: BackgammonState, chances: Chances) -> CubeDecision:
        """The cube decision of :meth:`cube_decision` from the cubeless ``chances``
        given (another engine's, to measure the cube arithmetic alone)."""
        cube = state.cube
        if state.money:
            if state.options.jacoby and cube.centred:
                chances = chances.single_only()
            return money_cube_decision(chances, cube.centred)
        mover = state.mover
        away = state.match_length - state.score[mover]
        opponent_away = state.match_length - state.score[mover.other]
        return match_cube_decision(
            chances, away, opponent_away, cube.value, cube_centred=cube.centred
        )

    def _resignation_is_enough(self, state: BackgammonState) -> bool:
        """Whether the points offered are at least what playing on is worth to the
        side the offer is made to."""
        level = state.match_id_fields().resignation
        receiver = state.mover.other
        chances = self.chances(state).flipped()  # the receiver's chances
        cube = state.cube
        owner = _owner(cube, receiver)
        if state.money:
            if state.options.jacoby and cube.centred:
                chances = chances.single_only()  # a gammon would count single
            points = effective_win(level, cube, state.options, money=True)
            return points >= money_equity(chances, owner)
        certain = Chances(1.0, float(level >= 2), float(level >= 3), 0.0, 0.0)
        offered = _match_cube(state, receiver, certain).dead(1.0, cube.value)
        # Playing on is worth the match winning chance with the cube as it stands.
        return offered >= _match_cube(state, receiver, chances).cubeful(cube.value, owner)

    # -- words -------------------------------------------------------------------

    def _assessment(self, state: BackgammonState, chances: Chances) -> str:
        name = state.game.side_name(state.mover)
        other = state.game.side_name(state.mover.other)
        value = chances.equity
        if value > 0.6:
            verdict = f"{name} is winning"
        elif value > 0.25:
            verdict = f"{name} is clearly better"
        elif value > 0.08:
            verdict = f"{name} is a little better"
        elif value >= -0.08:
            verdict = "about even"
        elif value >= -0.25:
            verdict = f"{other} is a little better"
        elif value >= -0.6:
            verdict = f"{other} is clearly better"
        else:
            verdict = f"{other} is winning"
        return (
            f"{verdict}: {name} wins {chances.win:.0%} of games "
            f"({chances.win_gammon:.0%} gammons) and loses {chances.lose_gammon:.0%} gammons; "
            f"equity {value:+.2f}"
        )


@lru_cache(maxsize=1 << 16)
def _race_chances(boards: bytes) -> Array:
    """The bear-off database's five chances of the mover in a race of home boards
    ``boards`` (the mover's six counts, then the opponent's), remembered: a look
    ahead meets the same races again and again. Read-only."""
    return shipped_table().chances(list(boards[:6]), list(boards[6:]))


def win_kinds(results: Counts) -> npt.NDArray[np.int64]:
    """For positions as the side on roll sees them, just after the other side's
    play: 0 while the side that played has a checker left, else what it won, as
    :meth:`.Position.win_kind` counts it (1 single, 2 gammon, 3 backgammon: the
    side on roll still has a checker on the bar or in the winner's home board,
    its own points 19 to 24)."""
    over = ~results[:, 25:].any(axis=1)
    kinds = np.zeros(len(results), dtype=np.int64)
    if over.any():
        ended = results[over]
        none_off = ended[:, :25].sum(axis=1, dtype=np.int64) == CHECKERS
        left_behind = ended[:, 18:25].any(axis=1)
        kinds[over] = np.where(none_off, np.where(left_behind, 3, 2), 1)
    return kinds


def replies(counts: Counts) -> tuple[Counts, npt.NDArray[np.int32]]:
    """For each position (rows of 50 counts, the mover's first) and each of the 21
    throws of :data:`THROWS` (group ``21 * i + t``): every distinct position the
    mover's legal plays reach, each as the opponent, now on roll, sees it (its
    counts first: it is the one judged next), in the byte order of their counts
    (the position itself, swapped, when nothing can be played); and how many
    there are in each group. In C where it is built
    (:mod:`parlour.backgammon.native`), else :func:`python_replies`, the same."""
    raw = np.ascontiguousarray(counts, dtype=np.uint8)
    if _network.NATIVE:
        rows, sizes = _network.native.replies(raw.data)
    else:
        rows, sizes = python_replies(raw.tobytes())
    return (
        np.frombuffer(rows, dtype=np.uint8).reshape(-1, 50),
        np.frombuffer(sizes, dtype=np.int32),
    )


def python_replies(counts: bytes) -> tuple[bytes, bytes]:
    """What ``native.replies`` returns, from the rules' own :func:`legal_plays`
    and :meth:`Position.apply`: the results' counts and their number for each
    (position, throw) as int32s."""
    if len(counts) % 50:
        raise ValueError("the counts are not 50 bytes a position")
    found: list[bytes] = []
    sizes: list[int] = []
    for start in range(0, len(counts), 50):
        position = Position(
            tuple(counts[start : start + 25]), tuple(counts[start + 25 : start + 50])
        )
        for dice, _ in THROWS:
            reached = {
                bytes(result.opponent) + bytes(result.mover)
                for result in (position.apply(play) for play in legal_plays(position, dice))
            } or {bytes(position.opponent) + bytes(position.mover)}
            found.extend(sorted(reached))
            sizes.append(len(reached))
    return b"".join(found), np.array(sizes, dtype=np.int32).tobytes()


def _chances(row: Array) -> Chances:
    """A row of the network's five probabilities as :class:`Chances`."""
    return Chances(*(float(x) for x in row))


def _kept(values: Array, sieve: Filter) -> list[int]:
    """The plays ``sieve`` lets through, of plays worth ``values``, best first (by
    their index in ``values``; of equal values the first comes first): at most
    ``sieve.keep`` of them, those within ``sieve.within`` of the best (the best
    always)."""
    order = [int(i) for i in np.argsort(-values, kind="stable")[: sieve.keep]]
    floor = values[order[0]] - sieve.within
    return [i for i in order if values[i] >= floor]


def _owner(cube: Cube, side: Side) -> str:
    """Who holds ``cube`` as ``side`` sees it: "centred", "me" or "opponent"."""
    return "centred" if cube.centred else "me" if cube.owner is side else "opponent"


def _match_cube(state: BackgammonState, side: Side, chances: Chances) -> MatchCube:
    """The live cube of ``state``'s match for ``side``, whose ``chances`` these are
    (dead in the Crawford game)."""
    away = state.match_length - state.score[side]
    opponent_away = state.match_length - state.score[side.other]
    return MatchCube(chances, away, opponent_away, alive=not state.crawford)


def _backgammon(state: State[BackgammonMove]) -> BackgammonState:
    if not isinstance(state, BackgammonState):
        raise TypeError(f"the backgammon engine plays backgammon, not {type(state).__name__}")
    return state

"""The coach: one analysis of positions and whole games over every game.

It speaks to a game only through the protocol and the game's engine
(:meth:`Engine.analyse <parlour.core.engine.Engine.analyse>`), so a game with an
engine is analysed the same way whatever it is:

* each position of the game is analysed once, within a budget of seconds (or
  nodes);
* a move is judged by what it gave away against the best line: its own line's
  score when the engine listed it, else the score of a search of the same position
  limited to it, to the same depth; on the engine's scale turned into the scale
  players know -- winning chances for chess and checkers (lichess's drops of 0.1,
  0.2 and 0.3), equity for backgammon (GNU Backgammon's 0.04, 0.08 and 0.16);
* a throw of the dice is judged by its luck, as the engine weighs it: the throw's
  best play against the average throw's.

Results come as they are found (``on_move``), and ``stop`` ends the analysis
early with what it has found.

>>> from parlour.core.registry import get_game
>>> state = get_game("chess").new_state()
>>> _ = state.play_line("f3 e5 g4 Qh4#")
>>> review = analyse_game(state, seconds=0.05)
>>> [(m.move, m.judgement and m.judgement.value) for m in review.moves][2:]
[('g4', 'blunder'), ('Qh4#', None)]
>>> review.summary[Side.FIRST].counts["blunder"]
1
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parlour.core.engine import Analysis, Engine, Line
from parlour.core.judgement import (
    VERY_BAD,
    Judgement,
    error_rate,
    game_accuracy,
    judge_equity_loss,
    judge_win_drop,
    luck_of,
    rating,
)
from parlour.core.protocol import Chance, Side, State
from parlour.core.registry import get_engine


@dataclass(frozen=True, slots=True)
class PositionReview:
    """One position analysed: what it is worth to ``side`` (the side to act) on
    the engine's scale (``score``, shown as ``score_text``) and on the players'
    scale (``value``: winning chances from -1 to +1, or equity), the best lines
    and how deep the engine looked."""

    side: Side
    score: float
    score_text: str
    value: float
    lines: tuple[Line[Any], ...]
    depth: int
    nodes: int
    seconds: float

    @property
    def best(self) -> Line[Any] | None:
        return self.lines[0] if self.lines else None


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One decision of a game, judged.

    ``ply`` counts the game's recorded moves from 1 (throws of the dice
    included); ``kind`` is "move" (a chess or checkers move, a backgammon checker
    play), or backgammon's cube decisions "double" (a double, or the roll of one
    who could have doubled), "take", "drop", "beaver". ``loss`` is what the move
    gave away against ``best``, on the players' scale (winning chances, or
    equity); ``luck`` is the equity the throw before a backgammon play brought."""

    ply: int
    side: Side
    kind: str
    move: str
    best: str
    loss: float
    judgement: Judgement | None
    best_line: tuple[str, ...]
    score_text: str
    depth: int
    forced: bool = False
    luck: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "side": int(self.side),
            "kind": self.kind,
            "move": self.move,
            "best": self.best,
            "loss": round(self.loss, 4),
            "judgement": None if self.judgement is None else self.judgement.value,
            "best_line": list(self.best_line),
            "eval": self.score_text,
            "depth": self.depth,
            "forced": self.forced,
            "luck": None if self.luck is None else round(self.luck, 4),
        }


@dataclass(slots=True)
class PlayerSummary:
    """How one side played: counts of each judgement, and by the game's scale
    the accuracy (percent, lichess) or the error rate (thousandths of equity per
    unforced decision) with GNU Backgammon's rating; the luck of its throws."""

    side: Side
    #: The side's name in the game ("White", "Black") and the player's.
    side_name: str
    name: str
    decisions: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    accuracy: float | None = None
    average_loss: float = 0.0
    error_rate: float | None = None
    rating: str | None = None
    luck: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "side": int(self.side),
            "side_name": self.side_name,
            "name": self.name,
            "decisions": self.decisions,
            "counts": dict(self.counts),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "average_loss": round(self.average_loss, 4),
            "error_rate": None if self.error_rate is None else round(self.error_rate, 1),
            "rating": self.rating,
            "luck": None if self.luck is None else round(self.luck, 3),
        }


@dataclass(slots=True)
class GameReview:
    """A whole game analysed: each decision judged (``moves``), the first side's
    value after each recorded move (``curve``, starting from the first position:
    win percent, or equity), and a summary per side. ``complete`` is False when
    the analysis was stopped before the end."""

    game: str
    judged_by: str
    moves: list[MoveReview]
    curve: list[float]
    summary: dict[Side, PlayerSummary]
    complete: bool = True
    #: The engine's score of each position of ``curve`` from the first side's
    #: point of view, as an annotation writes it (None: not judged, or over).
    evals: list[str | None] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "judged_by": self.judged_by,
            "complete": self.complete,
            "moves": [move.to_json() for move in self.moves],
            "curve": [round(value, 4) for value in self.curve],
            "evals": list(self.evals),
            "summary": {
                self.summary[side].side_name: self.summary[side].to_json() for side in Side
            },
        }


def _judged(engine: Engine[Any], score: float) -> float:
    """A score on the players' scale: winning chances, or equity as it is."""
    return engine.winning_chances(score) if engine.judged_by == "chances" else score


def analyse_position(
    state: State[Any],
    *,
    seconds: float | None = None,
    lines: int = 1,
    stop: threading.Event | None = None,
    engine: Engine[Any] | None = None,
    nodes: int | None = None,
) -> PositionReview | None:
    """The position analysed by the game's engine within ``seconds`` (the engine's
    :attr:`~parlour.core.engine.Engine.analysis_seconds` by default), with its
    ``lines`` best moves (every choice in backgammon); None where the engine does
    not judge the position (a game over, before backgammon's opening throw).

    >>> from parlour.core.registry import get_game
    >>> state = get_game("checkers").state_from_text("B:W18:B14,K5")
    >>> review = analyse_position(state, seconds=0.1)
    >>> review.best.move_text, review.value > 0.5
    ('14x23', True)
    """
    engine = engine or get_engine(state.game)
    seconds = engine.analysis_seconds if seconds is None else seconds
    found = engine.analyse(state, seconds=seconds, lines=lines, stop=stop, nodes=nodes)
    return None if found is None else _review_of(engine, found)


def judge_move(
    state: State[Any],
    move: Any,
    *,
    seconds: float | None = None,
    engine: Engine[Any] | None = None,
    nodes: int | None = None,
) -> MoveReview | None:
    """How good ``move`` would be in ``state`` (which is left as it was): the tutor's
    question before a move is played, and the check of a player's answer when
    learning from a mistake. None where the engine does not judge the position.

    >>> from parlour.core.registry import get_game
    >>> state = get_game("chess").new_state()
    >>> _ = state.play_line("e4 e5 Qh5 Nc6 Bc4")
    >>> judged = judge_move(state, state.parse_move("Nf6"), nodes=20_000)
    >>> judged.judgement.value, judged.best != "Nf6"
    ('blunder', True)
    """
    engine = engine or get_engine(state.game)
    budget = engine.analysis_seconds if seconds is None else seconds
    analyst = _Analyst(engine, budget, nodes, threading.Event())
    found = analyst.analyse(state)
    if found is None or not found.lines:
        return None
    after = state.copy()
    after.push(move)
    return _judge(analyst, len(opening_of(state)[1]) + 1, state, move, after, found, None, None)


def _review_of(engine: Engine[Any], found: Analysis[Any]) -> PositionReview:
    return PositionReview(
        found.side,
        found.score,
        engine.score_text(found.score),
        _judged(engine, found.score),
        found.lines,
        found.depth,
        found.nodes,
        found.seconds,
    )


def opening_of(state: State[Any]) -> tuple[State[Any], list[Any]]:
    """The game's first position (a copy, with no ending declared) and the moves
    played since, oldest first."""
    start = state.copy()
    moves: list[Any] = []
    while True:
        try:
            moves.append(start.pop())
        except IndexError:
            break
    start._declared = None  # the replay ends the game again where its moves do
    moves.reverse()
    return start, moves


def _ending_value(state: State[Any], side: Side, engine: Engine[Any]) -> float | None:
    """What the finished game is worth to ``side`` on the players' scale."""
    outcome = state.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return 0.0
    size = 1.0 if engine.judged_by == "chances" else float(outcome.points)
    return size if outcome.winner is side else -size


def _played_line(
    before: State[Any], move: Any, after: State[Any], found: Analysis[Any]
) -> Line[Any] | None:
    """The analysed line of the move played: the same move, or one that reaches
    the same position (another path of the same capture, the same checkers moved
    in another order)."""
    line = found.line_of(move)
    if line is not None:
        return line
    target = after.key()
    for candidate in found.lines:
        probe = before.copy()
        probe.push_unchecked(candidate.move)
        if probe.key() == target:
            return candidate
    return None


@dataclass(slots=True)
class _Analyst:
    """The engine with the analysis's budget: what each position is worth."""

    engine: Engine[Any]
    seconds: float
    nodes: int | None
    stop: threading.Event

    def analyse(
        self, position: State[Any], only: Any = None, depth: int | None = None
    ) -> Analysis[Any] | None:
        if position.is_over():
            return None
        return self.engine.analyse(
            position,
            seconds=self.seconds,
            stop=self.stop,
            nodes=self.nodes,
            moves=None if only is None else [only],
            depth=depth,
        )

    def first_side_view(
        self, position: State[Any], found: Analysis[Any] | None, last: float
    ) -> tuple[float, str | None]:
        """The position's value to the first side on the players' scale, and the
        engine's score as an annotation writes it (None when not analysed: the
        game's result, or the ``last`` value where the engine does not judge)."""
        if found is None:
            ending = _ending_value(position, Side.FIRST, self.engine)
            return (last if ending is None else ending), None
        score = found.score if found.side is Side.FIRST else -found.score
        return _judged(self.engine, score), self.engine.score_text(score)


def analyse_game(
    state: State[Any],
    *,
    seconds: float | None = None,
    names: tuple[str, str] | None = None,
    on_move: Callable[[MoveReview], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    stop: threading.Event | None = None,
    engine: Engine[Any] | None = None,
    nodes: int | None = None,
) -> GameReview:
    """Every decision of the game that led to ``state`` judged, each position
    analysed within ``seconds``. ``on_move`` hears each judged decision as soon as
    it is known; ``on_progress`` hears (positions analysed, positions in all);
    setting ``stop`` ends the analysis with what was found (``complete`` False).
    ``nodes`` bounds each search by positions searched instead of time, where the
    engine searches (results then repeat whatever the machine's load).
    ``names`` are the sides' names for the summary (the game's side names by
    default)."""
    engine = engine or get_engine(state.game)
    stop = stop or threading.Event()
    budget = engine.analysis_seconds if seconds is None else seconds
    analyst = _Analyst(engine, budget, nodes, stop)
    probe, moves = opening_of(state)
    reviews: list[MoveReview] = []
    luck: dict[Side, list[float]] = {side: [] for side in Side}
    found = analyst.analyse(probe)
    value, shown = analyst.first_side_view(probe, found, 0.0)
    curve, evals = [value], [shown]
    pending_luck: float | None = None
    complete = True
    for ply, move in enumerate(moves, start=1):
        before = probe.copy()
        mover = probe.turn
        probe.push_unchecked(move)
        after_found = analyst.analyse(probe)
        if stop.is_set() and not probe.is_over():
            complete = False  # stopped: the last analysis was cut short, not judged on
            break
        if on_progress is not None:
            on_progress(ply, len(moves))
        value, shown = analyst.first_side_view(probe, after_found, curve[-1])
        curve.append(value)
        evals.append(shown)
        if isinstance(mover, Chance):
            pending_luck = engine.luck(before, move)
            if pending_luck is not None and found is not None:
                luck[found.side].append(pending_luck)
        elif found is not None and found.lines:
            review = _judge(analyst, ply, before, move, probe, found, after_found, pending_luck)
            pending_luck = None
            if review is not None:
                reviews.append(review)
                if on_move is not None:
                    on_move(review)
        found = after_found
    summary = _summaries(state, engine, names, reviews, luck, curve)
    return GameReview(state.game.name, engine.judged_by, reviews, curve, summary, complete, evals)


def _summaries(
    state: State[Any],
    engine: Engine[Any],
    names: tuple[str, str] | None,
    reviews: list[MoveReview],
    luck: dict[Side, list[float]],
    curve: list[float],
) -> dict[Side, PlayerSummary]:
    game = state.game
    names = names or (game.side_name(Side.FIRST), game.side_name(Side.SECOND))
    summary = {side: PlayerSummary(side, game.side_name(side), names[side]) for side in Side}
    for side in Side:
        _summarise(summary[side], engine, reviews, luck[side])
    if engine.judged_by == "chances" and len(curve) > 1:
        percents = [50 + 50 * value for value in curve]
        first_mover = next((int(r.side) for r in reviews), 0)
        accuracies = game_accuracy(percents, first_mover)
        for side in Side:
            summary[side].accuracy = accuracies[side]
    return summary


def _judge(
    analyst: _Analyst,
    ply: int,
    before: State[Any],
    move: Any,
    after: State[Any],
    found: Analysis[Any],
    after_found: Analysis[Any] | None,
    luck: float | None,
) -> MoveReview | None:
    """The review of ``move``, played in ``before`` (analysed as ``found``).

    A move the analysis did not list is scored by a search of ``before`` limited
    to it, to the same depth as the best move's (the score of the position after
    it, searched a ply less deep, would be off by the engine's swing from one
    depth to the next: odd and even plies favour different sides). Where the
    players' scale is winning chances (a searching engine's), a mistake or
    blunder is confirmed by searching again (``_confirmed``)."""
    engine = analyst.engine
    mover = found.side
    best = found.lines[0]
    line = _played_line(before, move, after, found)
    if line is None and not after.is_over():
        alone = analyst.analyse(before, move, found.depth)
        line = alone.lines[0] if alone is not None and alone.lines else None
    if line is not None:
        played = _judged(engine, line.score)
    elif after.is_over():
        played = _ending_value(after, mover, engine) or 0.0
    elif after_found is not None:
        value = _judged(engine, after_found.score)
        played = value if after_found.side is mover else -value
    else:
        return None
    kind = engine.decision_kind(before, move)
    forced = len(found.lines) == 1 and len(before.legal_moves()) == 1
    if forced and kind != "move":
        return None  # no choice about the cube: not a decision
    is_best = line is best
    loss = 0.0 if is_best or forced else max(0.0, _judged(engine, best.score) - played)
    if kind != "move" and loss == 0 and not _close(engine, found):
        return None  # a cube decision nobody would get wrong, as gnubg leaves it out
    if engine.judged_by == "chances":
        judgement = judge_win_drop(loss)
        if judgement is not None and judgement.severity >= Judgement.MISTAKE.severity:
            loss, best = _confirmed(analyst, before, move, best, loss)
            judgement = judge_win_drop(loss)
    else:
        judgement = judge_equity_loss(loss)
    return MoveReview(
        ply,
        mover,
        kind,
        before.move_to_text(move),
        best.move_text,
        loss,
        judgement,
        best.pv,
        engine.score_text(found.score),
        found.depth,
        forced,
        luck,
    )


def _confirmed(
    analyst: _Analyst, before: State[Any], move: Any, best: Line[Any], loss: float
) -> tuple[float, Line[Any]]:
    """A mistake checked before it is reported: the move played and the best are
    searched again, each alone with the whole budget (a search over every move
    gives each less, and one that just misses a deep resource in the move played
    would call it a mistake). The loss reported is the smaller of the two
    verdicts; where the second finds the move played as good as the best, it is
    the best."""
    engine = analyst.engine
    played_alone = analyst.analyse(before, move)
    best_alone = analyst.analyse(before, best.move)
    if not (played_alone and played_alone.lines and best_alone and best_alone.lines):
        return loss, best
    played_line, best_line = played_alone.lines[0], best_alone.lines[0]
    again = _judged(engine, best_line.score) - _judged(engine, played_line.score)
    if again <= 0:
        return 0.0, played_line
    return min(loss, again), best


def _close(engine: Engine[Any], found: Analysis[Any]) -> bool:
    """Whether the best choice is within a very bad error of the next best: a
    decision worth reporting (and counting in the error rate) even when right."""
    if len(found.lines) < 2:
        return False
    first, second = (_judged(engine, line.score) for line in found.lines[:2])
    return first - second < VERY_BAD


def _summarise(
    summary: PlayerSummary, engine: Engine[Any], reviews: list[MoveReview], lucks: list[float]
) -> None:
    own = [review for review in reviews if review.side is summary.side]
    losses = [review.loss for review in own if not review.forced]
    words = (
        ("inaccuracy", "mistake", "blunder")
        if engine.judged_by == "chances"
        else ("doubtful", "bad", "very bad")
    )
    summary.counts = dict.fromkeys(words, 0)
    for review in own:
        if review.judgement is not None:
            summary.counts[review.judgement.value] += 1
    summary.decisions = len(losses)
    summary.average_loss = sum(losses) / len(losses) if losses else 0.0
    if engine.judged_by == "equity":
        summary.error_rate = error_rate(losses)
        summary.rating = rating(summary.average_loss)
        summary.luck = sum(lucks)


def luck_words(luck: float | None) -> str | None:
    """A throw's luck in words ("lucky", "very unlucky"), or None for an ordinary one."""
    return None if luck is None else luck_of(luck)

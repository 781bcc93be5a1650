"""A game written back with its analysis.

Chess and checkers (games judged by winning chances) come back in their own file
format, PGN or PDN, which share the movetext: each move followed by its judgement as
a numeric annotation glyph ($6 ?!, $2 ?, $4 ??), the engine's score after it as a
``[%eval ...]`` comment (from the first side's point of view, as lichess and other
programs write it), and for a judged move the better line as a variation.
Backgammon (judged by equity) comes back as a text report of each decision, as GNU
Backgammon's analysis reads: the throw, the play, the better play and the equity
lost, the luck of the throw, and a summary per player.

>>> from parlour.core.registry import get_game
>>> from parlour.analysis.coach import analyse_game
>>> state = get_game("chess").new_state()
>>> _ = state.play_line("f3 e5 g4 Qh4#")
>>> review = analyse_game(state, seconds=0.05)
>>> print(annotated_movetext(state, review))  # doctest: +ELLIPSIS
1. f3 ... 2. g4 $4 {[%eval #-1] Blunder: ... was best.} (2. ...) 2... Qh4# 0-1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.analysis.coach import GameReview, MoveReview, luck_words, opening_of
from parlour.core.judgement import Judgement
from parlour.core.protocol import Chance, Side, State

#: The numeric annotation glyphs of PGN (and PDN) for each judgement.
NAGS = {Judgement.INACCURACY: 6, Judgement.MISTAKE: 2, Judgement.BLUNDER: 4}
#: The result token of a finished game, by its winner, where the file has none.
UNFINISHED = "*"


def _eval_comment(score_text: str | None) -> str:
    if score_text is None:
        return ""
    return f"[%eval {score_text.removeprefix('+')}]"


def annotated_movetext(state: State[Any], review: GameReview, result: str | None = None) -> str:
    """The moves of the game that led to ``state`` with ``review``'s judgements,
    scores and better lines, as PGN or PDN movetext ending with ``result`` (the
    result of the game by default, ``*`` while unfinished)."""
    start, moves = opening_of(state)
    judged = {move.ply: move for move in review.moves}
    probe = start.copy()
    number = start.first_move_number()
    words: list[str] = []
    need_number = True
    for ply, move in enumerate(moves, start=1):
        second = probe.turn is Side.SECOND
        if not second:
            words.append(f"{number}.")
        elif need_number:
            words.append(f"{number}...")
        words.append(probe.move_to_text(move))
        need_number = False
        mark = judged.get(ply)
        after_eval = review.evals[ply] if ply < len(review.evals) else None
        comment = _eval_comment(after_eval)
        if mark is not None and mark.judgement is not None:
            words.append(f"${NAGS.get(mark.judgement, 0)}")
            comment += f" {mark.judgement.value.capitalize()}: {mark.best} was best."
        if comment:
            words.append("{" + comment.strip() + "}")
            need_number = True
        if mark is not None and mark.judgement is not None and mark.best_line:
            # the better line, in place of the move played and numbered as it is
            sides: list[Side | None] = [mark.side, mark.side.other] * len(mark.best_line)
            line = probe.join_line(list(mark.best_line), sides[: len(mark.best_line)], number)
            words.append(f"({line})")
            need_number = True
        probe.push_unchecked(move)
        if second:
            number += 1
    words.append(result or _result_token(state))
    return " ".join(words)


def _result_token(state: State[Any]) -> str:
    outcome = state.outcome()
    if outcome is None:
        return UNFINISHED
    if outcome.winner is None:
        return "1/2-1/2"
    # PGN writes the first side's result first; PDN the same order for its sides
    first_won = outcome.winner is Side.FIRST
    return "1-0" if first_won else "0-1"


def annotated_file(
    state: State[Any],
    review: GameReview,
    tags: Mapping[str, str],
    written: str,
) -> str:
    """The whole game written back annotated: its own tags (or those of
    ``written``, the game as its face exports it, when the file had none), an
    Annotator tag, and the annotated movetext with the file's result."""
    header = dict(tags) or _tags_of(written)
    header["Annotator"] = "Parlour"
    result = header.get("Result") or _result_token(state)
    lines = [f'[{key} "{_escaped(value)}"]' for key, value in header.items()]
    return "\n".join(lines) + "\n\n" + _wrapped(annotated_movetext(state, review, result)) + "\n"


def _tags_of(written: str) -> dict[str, str]:
    tags: dict[str, str] = {}
    for line in written.splitlines():
        line = line.strip()
        if not (line.startswith("[") and line.endswith("]")) or " " not in line:
            if line:
                break
            continue
        key, value = line[1:-1].split(" ", 1)
        tags[key] = value.strip().strip('"').replace('\\"', '"').replace("\\\\", "\\")
    return tags


def _escaped(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrapped(text: str, width: int = 79) -> str:
    """Movetext broken into lines of at most ``width`` characters, between words
    (a comment may be broken too: PGN and PDN allow it)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)


def decision_report(
    state: State[Any], review: GameReview, names: tuple[str, str], title: str = ""
) -> str:
    """A game judged by equity as a text report: each play with its throw, the
    cube decisions, what was better and the equity lost, the luck of each throw,
    then a summary per player."""
    start, moves = opening_of(state)
    judged: dict[int, MoveReview] = {move.ply: move for move in review.moves}
    probe = start.copy()
    lines = [title] if title else []
    throw = ""
    for ply, move in enumerate(moves, start=1):
        turn = probe.turn
        text = probe.move_to_text(move)
        probe.push_unchecked(move)
        if isinstance(turn, Chance):
            throw = text
            continue
        mark = judged.get(ply)
        who = names[turn]
        if mark is None:
            continue
        head = f"{ply:>4}. {who}"
        if mark.kind == "move":
            head += f" {throw}: {text or '(no play)'}"
        elif mark.kind == "double":
            head += " doubles" if text == "double" else " rolls (no double)"
        else:
            head += f" {mark.kind}s" if mark.kind != "beaver" else " beavers"
        if mark.judgement is not None:
            head += (
                f"  {mark.judgement.symbol} {mark.judgement.value}: "
                f"{mark.best} was better by {mark.loss:.3f}"
            )
        luck = luck_words(mark.luck)
        if luck is not None and mark.luck is not None:
            head += f"  [throw {luck}: {mark.luck:+.3f}]"
        lines.append(head)
    lines.append("")
    for side in Side:
        summary = review.summary[side]
        counts = ", ".join(f"{n} {word}" for word, n in summary.counts.items())
        lines.append(
            f"{names[side]}: {summary.decisions} decisions, error rate "
            f"{summary.error_rate or 0:.1f} ({summary.rating}); {counts}; "
            f"luck {summary.luck or 0:+.3f}"
        )
    return "\n".join(lines) + "\n"

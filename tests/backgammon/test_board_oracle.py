"""Our legal plays against GNU Backgammon's (gnubg-nn), on positions from real play.

Seeded games are played, half by gnubg's own choice of move (realistic positions,
long bear-offs) and half by picking a legal play at random (wild positions: many
hits, checkers on the bar, closed boards). At every position of every game all 21
rolls are tried and the *set* of positions our distinct legal plays reach is compared
with the set gnubg's ``moves()`` reaches: there must be no difference at all, and our
list must hold no two plays that reach the same position.

gnubg's board is ``[player not on roll, player on roll]``, each 25 counts in that
side's own numbering (the bar last): our Position's ``(opponent, mover)`` exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import gnubg_nn

from parlour.backgammon.board import CheckerMove, Position, is_legal_play, legal_plays
from parlour.backgammon.notation import list_plays, parse_play, position_from_id, position_id
from tests.backgammon.test_board import reached_click_by_click

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
#: (position, dice) cases compared with gnubg.
CASES_WANTED = 50_400


def gnubg_board(position: Position) -> list[list[int]]:
    return [list(position.opponent), list(position.mover)]


def gnubg_results(position: Position, dice: tuple[int, int]) -> set[tuple[tuple[int, ...], ...]]:
    keys = gnubg_nn.moves(gnubg_board(position), dice[0], dice[1])
    return {tuple(map(tuple, gnubg_nn.board_from_position_key(key))) for key in keys}


def our_results(position: Position, dice: tuple[int, int]) -> list[tuple[tuple[int, ...], ...]]:
    results: list[tuple[tuple[int, ...], ...]] = []
    for play in legal_plays(position, dice):
        after = position.apply(play)
        results.append((after.opponent, after.mover))
    return results


def play_games(seed: int, games: int, *, gnubg_moves: bool) -> Iterator[Position]:
    """Every position (the player on roll to move) of ``games`` seeded games."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position.start()
        while True:
            yield position
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if gnubg_moves:
                chosen = gnubg_nn.best_move(gnubg_board(position), dice[0], dice[1])
                play = tuple(CheckerMove(start, end) for start, end in chosen)
            else:
                plays = legal_plays(position, dice)
                # Sorted, so that the games do not hang on the order of the list.
                play = rng.choice(sorted(plays)) if plays else ()
            position = position.apply(play)
            if position.win_kind():
                break
            position = position.swapped()


def sample_positions() -> list[Position]:
    """About CASES_WANTED / 21 positions, half from gnubg's games, half from random ones."""
    wanted = CASES_WANTED // len(ROLLS)
    positions: list[Position] = []
    for gnubg_moves, seed in ((True, 2026), (False, 11)):
        quota = len(positions) + wanted // 2
        for position in play_games(seed, 1000, gnubg_moves=gnubg_moves):
            if len(positions) >= quota:
                break
            positions.append(position)
    return positions


POSITIONS = sample_positions()


def test_legal_plays_match_gnubg_on_50000_cases() -> None:
    kinds: Counter[str] = Counter()
    mismatches = []
    for position in POSITIONS:
        home = not any(position.mover[6:25])
        for dice in ROLLS:
            ours = our_results(position, dice)
            theirs = gnubg_results(position, dice)
            kinds["cases"] += 1
            if len(set(ours)) != len(ours) or set(ours) != theirs:
                mismatches.append((position_id(position), dice, len(ours), len(theirs)))
            if position.mover[24]:
                kinds["bar"] += 1
                if not ours:
                    kinds["closed out"] += 1
            if home:
                kinds["bear-off"] += 1
            if not ours:
                kinds["no play"] += 1
            elif (
                dice[0] != dice[1]
                and ours
                and min(len(p) for p in legal_plays(position, dice)) == 1
            ):
                kinds["one die only"] += 1
    assert not mismatches, f"{len(mismatches)} mismatches, first ones: {mismatches[:5]}"
    assert kinds["cases"] >= 50_000
    # The sample must exercise the rules that matter most, not only open positions.
    assert kinds["bar"] >= 10_000, kinds
    assert kinds["closed out"] >= 500, kinds
    assert kinds["bear-off"] >= 5_000, kinds
    assert kinds["no play"] >= 1_000, kinds
    assert kinds["one die only"] >= 1_000, kinds


def test_position_ids_match_gnubg_and_read_back() -> None:
    for position in POSITIONS:
        text = position_id(position)
        assert text == gnubg_nn.position_id(gnubg_board(position))
        assert position_from_id(text) == position
        board = gnubg_nn.board_from_position_id(text)
        assert (tuple(board[0]), tuple(board[1])) == (position.opponent, position.mover)


def test_listed_plays_read_back_and_match_gnubg() -> None:
    """`parlour moves`' listing on a sample: every text reads back to its play, every
    result ID is the position that play reaches, and the results are gnubg's."""
    rng = random.Random(7)
    for position in POSITIONS[::8]:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        listing = list_plays(position_id(position), f"{dice[0]}{dice[1]}")
        results = [position_from_id(result) for _, result in listing]
        assert {(p.opponent, p.mover) for p in results} == gnubg_results(position, dice)
        for (text, _), result in zip(listing, results, strict=True):
            assert position.apply(parse_play(position, dice, text)) == result


def test_next_steps_reach_exactly_the_legal_plays() -> None:
    """Click by click: following next_steps from nothing reaches the legal results and
    no others, on positions rich in bar entries and bear-offs."""
    rng = random.Random(8)
    chosen = [p for p in POSITIONS if p.mover[24] or not any(p.mover[6:25])][::10]
    chosen += POSITIONS[::60]
    assert len(chosen) >= 100
    for position in chosen:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        reached = reached_click_by_click(position, dice)
        expected = {position.apply(play) for play in legal_plays(position, dice)} or {position}
        assert reached == expected, (position_id(position), dice)


def test_listed_plays_are_in_order_and_legal_move_by_move() -> None:
    """Each play lists its moves highest start first, and made one by one in that order
    the moves are legal and the play complete (what the rules layer relies on)."""
    rng = random.Random(9)
    checked = 0
    for position in POSITIONS[::20]:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        for play in legal_plays(position, dice):
            assert list(play) == sorted(play, reverse=True)
            assert is_legal_play(position, dice, play), (position_id(position), dice, play)
            checked += 1
    assert checked >= 1000


def random_position(rng: random.Random) -> Position:
    """A position no game need reach: checkers scattered at random, often many on the
    bar or all home, some borne off; never both sides on one point."""
    sides: list[list[int]] = [[0] * 25, [0] * 25]
    used: set[int] = set()  # points taken, in the mover's numbering
    for which, side in enumerate(sides):
        on_board = 15 - rng.choice([0, 0, 1, 3, 8, 12, 14]) if rng.random() < 0.5 else 15
        side[24] = min(on_board, rng.choice([0, 0, 0, 1, 2, 3, 5]))
        home_only = rng.random() < 0.4
        for _ in range(on_board - side[24]):
            own = [p for p in range(1, 25) if side[p - 1] or (25 - p if which else p) not in used]
            home = [p for p in own if p <= 6]
            point = rng.choice(home if home_only and home else own)
            side[point - 1] += 1
            used.add(25 - point if which else point)
    return Position(tuple(sides[0]), tuple(sides[1]))


def test_legal_plays_match_gnubg_on_random_positions() -> None:
    """Beyond real play: 500 scattered positions, all 21 rolls each."""
    rng = random.Random(31)
    cases = 0
    while cases < 500 * len(ROLLS):
        position = random_position(rng)
        position.validate()
        if not any(position.mover):
            continue  # the game is over: no roll to play
        assert position_id(position) == gnubg_nn.position_id(gnubg_board(position))
        assert position_from_id(position_id(position)) == position
        for dice in ROLLS:
            ours = our_results(position, dice)
            assert len(set(ours)) == len(ours)
            assert set(ours) == gnubg_results(position, dice), (position_id(position), dice)
            cases += 1

"""BackgammonState through the core protocol: the opening throw, the cube with every
option, resignations, the end of a game and its points, the gnubg text of every kind
of node, the TurnBuilder, sessions, and ``parlour moves backgammon`` on the command
line.

Positions are set up through gnubg's own text (Position ID and Match ID), so every
setup also exercises reading it back."""

from __future__ import annotations

import json
import random

import pytest

from parlour.backgammon.board import CheckerMove, Position
from parlour.backgammon.cube import CubeOptions
from parlour.backgammon.match import BackgammonMatch, MatchPlay, MoneyPlay
from parlour.backgammon.notation import (
    MatchId,
    list_plays,
    match_id,
    match_id_from_text,
    position_id,
)
from parlour.backgammon.rules import (
    BACKGAMMON,
    Action,
    BackgammonGame,
    BackgammonState,
    Phase,
    Resign,
    Throw,
    TurnBuilder,
)
from parlour.core.errors import IllegalMoveError, NotationError, ParlourError
from parlour.core.protocol import CHANCE, Side
from tests.core.test_cli import run_parlour

FIRST, SECOND = Side.FIRST, Side.SECOND
START_ID = "4HPwATDgc/ABMA"

ROLL, DOUBLE, TAKE, DROP, BEAVER = (
    Action.ROLL,
    Action.DOUBLE,
    Action.TAKE,
    Action.DROP,
    Action.BEAVER,
)


def counts(points: dict[int, int]) -> tuple[int, ...]:
    """25 counts from {point: checkers}; point 25 is the bar."""
    side = [0] * 25
    for point, number in points.items():
        side[point - 1] = number
    return tuple(side)


def state_at(
    mover: dict[int, int],
    opponent: dict[int, int],
    *,
    dice: tuple[int, int] | None = None,
    cube: int = 1,
    owner: Side | None = None,
    length: int = 0,
    score: tuple[int, int] = (0, 0),
    crawford: bool = False,
    on_roll: Side = FIRST,
    game: BackgammonGame = BACKGAMMON,
) -> BackgammonState:
    """A state read from gnubg text: ``on_roll`` to act with ``dice`` (or at the
    start of the turn when None)."""
    position = Position(counts(mover), counts(opponent))
    fields = MatchId(
        cube_value=cube,
        cube_owner=owner,
        dice_owner=on_roll,
        turn=on_roll,
        dice=dice,
        match_length=length,
        score=score,
        crawford=crawford,
    )
    return game.state_from_text(f"{position_id(position)}:{match_id(fields)}")


#: The mover has one checker left on the ace point; the opponent has borne off none
#: and has all 15 in their home board (a gammon), or one still in the mover's home
#: board (a backgammon), or has borne off one (a single game).
LAST_CHECKER = {1: 1}
GAMMONED = {1: 5, 2: 5, 3: 5}
BACKGAMMONED = {1: 5, 2: 5, 3: 4, 20: 1}
SINGLE_LOSS = {1: 5, 2: 5, 3: 4}


def play(state: BackgammonState, *texts: str) -> None:
    for text in texts:
        state.play(text)


def opened(game: BackgammonGame = BACKGAMMON, **settings: object) -> BackgammonState:
    """A game after FIRST opened with 3-1 (8/5 6/5): SECOND is at the cube."""
    state = game.new_state(**settings)  # type: ignore[arg-type]
    play(state, "31", "8/5 6/5")
    assert state.phase is Phase.CUBE and state.turn is SECOND
    return state


# -- the opening throw -----------------------------------------------------------------


def test_opening_throw_one_die_each_ties_again_higher_die_starts() -> None:
    state = BACKGAMMON.new_state()
    assert state.turn is CHANCE and state.phase is Phase.OPENING
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and sum(p for _, p in outcomes) == 1
    state.play("44")
    assert state.phase is Phase.OPENING and state.cube.value == 1  # no automatic doubles
    state.play("25")  # FIRST threw 2, SECOND threw 5: SECOND starts with 5-2
    # mypy keeps state.turn narrowed past the move (python/mypy#9005)
    assert state.turn is SECOND and state.dice == (2, 5)  # type: ignore[comparison-overlap]
    assert state.position == Position.start()
    assert state.move_to_text(state.parse_move("13/8 13/11")) == "13/11 13/8"
    assert len(state.legal_moves()) == len(list_plays(START_ID, "52"))


def test_automatic_doubles_turn_the_cube_up_to_the_limit() -> None:
    game = BackgammonGame(CubeOptions(automatic_doubles=2))
    state = game.new_state()
    play(state, "11", "33", "66")
    assert state.cube.value == 4 and state.cube.centred  # the third tie is past the limit
    assert game.state_from_text(state.to_text()).cube.value == 4
    play(state, "61", "13/7 8/7")
    assert state.turn is SECOND
    once = BackgammonGame(CubeOptions(automatic_doubles=1)).new_state()
    play(once, "22", "22")
    assert once.cube.value == 2
    capped = BackgammonGame(CubeOptions(automatic_doubles=3, max_cube=2)).new_state()
    play(capped, "22", "55")
    assert capped.cube.value == 2
    # Automatic doubles are a money rule: a match game ignores them.
    match = game.new_state(match_length=5)
    play(match, "22")
    assert match.cube.value == 1


def test_the_page_explains_an_automatic_double() -> None:
    """The panel says why the cube stands above 1 when a game begins: the tied
    opening throws and the rule, for the whole game; nothing without a tie."""
    from parlour.backgammon.face import page

    def explained(state: BackgammonState) -> list[str]:
        return [line["text"] for line in page(state)["info"] if line["id"] == "automatic-double"]

    state = BackgammonGame(CubeOptions(automatic_doubles=2)).new_state()
    assert explained(state) == []
    play(state, "33")
    assert explained(state) == [
        "The opening throw was tied once: by the automatic doubles rule the cube starts "
        "this game at 2, in the middle."
    ]
    play(state, "44", "61", "13/7 8/7")
    assert "tied twice" in explained(state)[0] and "at 4" in explained(state)[0]
    untied = BackgammonGame(CubeOptions(automatic_doubles=2)).new_state()
    play(untied, "61", "13/7 8/7")
    assert explained(untied) == []


# -- doubling --------------------------------------------------------------------------


def test_double_take_then_only_the_owner_redoubles() -> None:
    state = opened()
    assert DOUBLE in state.legal_moves()
    state.play("double")
    assert state.turn is FIRST and state.phase is Phase.DOUBLED
    assert state.legal_moves() == [TAKE, DROP]
    state.play("take")
    assert state.cube.value == 2 and state.cube.owner is FIRST
    # the doubler rolls at once (mypy keeps state.turn narrowed past the move: python/mypy#9005)
    assert state.turn is CHANCE and state.mover is SECOND  # type: ignore[comparison-overlap]
    play(state, "64", "24/18 13/9")
    assert state.turn is FIRST and DOUBLE in state.legal_moves()
    play(state, "roll", "21", "13/11 6/5")
    # SECOND doubled and FIRST owns the cube: SECOND may not redouble.
    assert DOUBLE not in state.legal_moves()
    before = state.to_text()
    with pytest.raises(IllegalMoveError) as refused:
        state.play("double")
    assert refused.value.rule == "cube-owner"
    assert "only its owner may redouble" in str(refused.value)
    assert state.to_text() == before


def test_refused_double_and_redouble_lose_the_stake_before_the_double() -> None:
    state = opened()
    play(state, "double", "drop")
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.points, outcome.reason) == (SECOND, 1, "double refused")
    state = opened()
    play(state, "double", "take", "64", "24/18 13/9", "double", "drop")
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.points, outcome.reason) == (FIRST, 2, "double refused")


def test_double_refused_out_of_turn_after_rolling_and_in_the_crawford_game() -> None:
    state = opened()
    error = state.double_refusal(FIRST)
    assert error is not None and error.rule == "not-your-turn"
    assert state.double_refusal(SECOND) is None
    play(state, "roll", "64")
    before = state.to_text()
    with pytest.raises(IllegalMoveError) as after_roll:
        state.play("double")
    assert after_roll.value.rule == "double-after-roll"
    assert "before rolling" in str(after_roll.value)
    assert state.to_text() == before
    with pytest.raises(IllegalMoveError) as checked:
        state.check_double(SECOND)
    assert checked.value.rule == "double-after-roll"
    crawford = BACKGAMMON.new_state(match_length=5, score=(4, 2), crawford=True)
    play(crawford, "31", "8/5 6/5")
    assert DOUBLE not in crawford.legal_moves()
    with pytest.raises(IllegalMoveError) as in_crawford:
        crawford.play("double")
    assert in_crawford.value.rule == "crawford-game"


def test_post_crawford_double_is_allowed() -> None:
    state = BACKGAMMON.new_state(match_length=5, score=(4, 2), crawford=False)
    play(state, "31", "8/5 6/5", "double", "take")
    assert state.cube.value == 2 and state.cube.owner is FIRST
    fields = match_id_from_text(state.to_text().split(":")[1])
    assert (fields.match_length, fields.score, fields.crawford) == (5, (4, 2), False)


def test_the_64_cap() -> None:
    game = BackgammonGame(CubeOptions(max_cube=64))
    state = state_at({6: 15}, {6: 15}, cube=32, owner=FIRST, game=game)
    play(state, "double", "take")
    assert state.cube.value == 64 and state.cube.owner is SECOND
    play(state, "11", "6/5(4)")
    assert state.turn is SECOND and state.phase is Phase.CUBE
    assert DOUBLE not in state.legal_moves()
    with pytest.raises(IllegalMoveError) as capped:
        state.play("double")
    assert capped.value.rule == "cube-limit"
    # Without the cap the same cube doubles on.
    free = state_at({6: 15}, {6: 15}, cube=64, owner=FIRST)
    assert DOUBLE in free.legal_moves()


def test_beaver_taken_and_dropped() -> None:
    game = BackgammonGame(CubeOptions(beavers=True))
    state = opened(game)
    play(state, "double")
    assert BEAVER in state.legal_moves()
    state.play("beaver")
    assert state.phase is Phase.BEAVERED and state.turn is SECOND  # the doubler decides
    assert state.legal_moves() == [TAKE, DROP]
    with pytest.raises(IllegalMoveError) as raccoon:
        state.play("beaver")
    assert raccoon.value.rule == "no-raccoon"
    text = state.to_text()
    assert game.state_from_text(text).to_text() == text
    state.play("take")
    assert state.cube.value == 4 and state.cube.owner is FIRST  # the beaverer keeps it
    # mypy keeps state.turn narrowed past the move (python/mypy#9005)
    assert state.turn is CHANCE and state.mover is SECOND  # type: ignore[comparison-overlap]
    dropped = opened(game)
    play(dropped, "double", "beaver", "drop")
    outcome = dropped.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.points, outcome.reason) == (FIRST, 2, "beaver refused")
    assert game.state_from_text(dropped.to_text()).outcome() == outcome


def test_no_beaver_without_the_option_or_in_a_match() -> None:
    for state in (opened(), opened(BackgammonGame(CubeOptions(beavers=True)), match_length=3)):
        state.play("double")
        assert BEAVER not in state.legal_moves()
        with pytest.raises(IllegalMoveError) as refused:
            state.play("beaver")
        assert refused.value.rule == "no-beavers"


# -- the end of a game -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("opponent", "cube", "owner", "points", "reason"),
    [
        (SINGLE_LOSS, 1, None, 1, "single game"),
        (GAMMONED, 1, None, 2, "gammon"),
        (BACKGAMMONED, 1, None, 3, "backgammon"),
        (SINGLE_LOSS, 4, FIRST, 4, "single game"),
        (GAMMONED, 2, SECOND, 4, "gammon"),
        (BACKGAMMONED, 8, FIRST, 24, "backgammon"),
    ],
)
def test_gammons_and_backgammons_times_the_cube(
    opponent: dict[int, int], cube: int, owner: Side | None, points: int, reason: str
) -> None:
    state = state_at(LAST_CHECKER, opponent, dice=(6, 5), cube=cube, owner=owner)
    state.play("1/off")
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.points, outcome.reason) == (FIRST, points, reason)
    assert state.legal_moves() == []
    again = BACKGAMMON.state_from_text(state.to_text())
    assert again.outcome() == outcome


def test_jacoby_single_game_then_gammon_once_the_cube_is_turned() -> None:
    jacoby = BackgammonGame(CubeOptions(jacoby=True))
    centred = state_at(LAST_CHECKER, GAMMONED, dice=(6, 5), game=jacoby)
    centred.play("1/off")
    outcome = centred.outcome()
    assert outcome is not None and outcome.points == 1
    assert outcome.reason == "gammon (counted single: Jacoby rule)"
    turned = state_at(LAST_CHECKER, BACKGAMMONED, dice=(6, 5), cube=2, owner=FIRST, game=jacoby)
    turned.play("1/off")
    outcome = turned.outcome()
    assert outcome is not None and (outcome.points, outcome.reason) == (6, "backgammon")
    in_a_match = state_at(LAST_CHECKER, GAMMONED, dice=(6, 5), length=7, game=jacoby)
    in_a_match.play("1/off")
    outcome = in_a_match.outcome()
    assert outcome is not None and outcome.points == 2


def test_resignation_accepted_and_declined() -> None:
    state = opened()
    state.play("resign gammon")
    assert state.turn is FIRST and state.phase is Phase.RESIGNING
    before = sorted(map(repr, state.legal_moves()))
    state.play("decline")
    # mypy keeps state.phase narrowed past the move (python/mypy#9005)
    assert state.phase is Phase.CUBE and state.turn is SECOND  # type: ignore[comparison-overlap]
    state.play("resign gammon")
    assert sorted(map(repr, state.legal_moves())) == before
    state.play("accept")
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.points) == (FIRST, 2)
    assert outcome.reason == "resignation (gammon accepted)"
    assert BACKGAMMON.state_from_text(state.to_text()).outcome() == outcome
    doubled = opened()
    play(doubled, "double", "take", "64", "24/18 13/9", "resign backgammon", "accept")
    outcome = doubled.outcome()
    assert outcome is not None and (outcome.winner, outcome.points) == (SECOND, 6)


def test_resignation_only_at_the_start_of_ones_turn() -> None:
    state = opened()
    play(state, "roll", "64")
    with pytest.raises(IllegalMoveError) as late:
        state.play("resign single")
    assert late.value.rule == "resign-timing"
    with pytest.raises(NotationError):
        state.parse_move("resign everything")


def test_plain_resignation_concedes_what_is_at_risk() -> None:
    start = opened()
    outcome = start.copy().resign(SECOND)
    assert (outcome.winner, outcome.points) == (FIRST, 3)  # SECOND still has men in FIRST's home
    racing = state_at({1: 3}, {1: 10}, cube=2, owner=FIRST)
    assert racing.copy().resign(SECOND).points == 2  # SECOND has borne off: single


def test_no_legal_play_is_the_empty_play() -> None:
    # FIRST is on the bar against a closed board.
    state = state_at({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, dice=(6, 6))
    assert state.legal_moves() == [()]
    assert state.move_to_text(()) == "no move"
    assert state.parse_move("no move") == ()
    state.play("no move")
    assert state.turn is SECOND and state.phase is Phase.CUBE


# -- text ------------------------------------------------------------------------------


def test_text_of_every_node_reads_back() -> None:
    game = BackgammonGame(CubeOptions(beavers=True, automatic_doubles=1))
    state = game.new_state()
    seen = set()
    for text in ["33", "31", "8/5 6/5", "resign single", "decline", "double", "beaver",
                 "take", "64", "24/18 13/9", "roll", "52", "13/8 13/11"]:  # fmt: skip
        seen.add(state.phase)
        assert game.state_from_text(state.to_text()).to_text() == state.to_text()
        state.play(text)
    assert seen == set(Phase) - {Phase.OVER}
    assert state.to_text().count(":") == 1
    roll = state.copy()
    roll.play("roll")
    assert roll.to_text() == state.to_text() + ":roll"
    assert game.state_from_text(roll.to_text()).turn is CHANCE


def test_match_id_carries_turn_dice_cube_score_length_and_crawford() -> None:
    state = BACKGAMMON.new_state(match_length=9, score=(8, 3), crawford=True)
    play(state, "52")
    fields = match_id_from_text(state.to_text().split(":")[1])
    assert fields == MatchId(
        cube_value=1,
        cube_owner=None,
        dice_owner=FIRST,
        crawford=True,
        game_state=1,
        turn=FIRST,
        dice=(5, 2),
        match_length=9,
        score=(8, 3),
    )
    play(state, "13/8 13/11")
    doubled = BACKGAMMON.new_state(match_length=9, score=(2, 4))
    play(doubled, "52", "13/8 13/11", "double")
    fields = match_id_from_text(doubled.to_text().split(":")[1])
    assert fields.double_offered and fields.turn is FIRST and fields.dice_owner is SECOND
    # gnubg's own example: 9-point match, 2-4, player 0 owns a 2-cube, player 1 rolled 5-2.
    known = BACKGAMMON.state_from_text(f"{START_ID}:QYkqASAAIAAA")
    assert (known.match_length, known.score, known.cube.value, known.cube.owner) == (
        9,
        (2, 4),
        2,
        FIRST,
    )
    assert known.turn is SECOND and known.dice == (5, 2)
    assert known.to_text() == f"{START_ID}:QYkqASAAIAAA"


def test_bare_position_id_is_the_player_on_roll_before_rolling() -> None:
    state = BACKGAMMON.state_from_text(START_ID)
    assert state.phase is Phase.CUBE and state.turn is FIRST and state.money
    assert state.cube.value == 1 and state.cube.centred
    assert DOUBLE in state.legal_moves()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (f"{START_ID}:" + match_id(MatchId(crawford=True, match_length=5)), "Crawford"),
        (f"{START_ID}:" + match_id(MatchId(match_length=5, score=(5, 1))), "already won"),
        (f"{START_ID}:" + match_id(MatchId(double_offered=True, resignation=1)), "both"),
        (f"{START_ID}:" + match_id(MatchId(turn=SECOND)), "nothing offered"),
        (f"{START_ID}:" + match_id(MatchId(dice=(3, 1))) + ":roll", ":roll"),
        (f"{START_ID}:" + match_id(MatchId(game_state=2)), "borne off"),
        (f"{START_ID}:" + match_id(MatchId(double_offered=True)), "beaver"),
        (f"{START_ID}:QYkqASAAIAA", "12 characters"),
        (f"{START_ID}:a:b", "expected"),
        ("4HPwATDgc/ABM", "14"),
    ],
)
def test_impossible_text_is_refused_naming_the_problem(text: str, words: str) -> None:
    with pytest.raises(NotationError) as refused:
        BACKGAMMON.state_from_text(text)
    assert words in str(refused.value)


def test_pop_undoes_exactly() -> None:
    rng = random.Random(5)
    game = BackgammonGame(CubeOptions(beavers=True, automatic_doubles=1))
    state = game.new_state()
    texts = [state.to_text()]
    while not state.is_over() and len(texts) < 400:
        moves = state.legal_moves()
        state.push(rng.choice([m for m in moves if not isinstance(m, Resign)] or moves))
        texts.append(state.to_text())
    assert state.is_over()
    while texts:
        assert state.to_text() == texts.pop()
        if texts:
            state.pop()
    with pytest.raises(IndexError):
        state.pop()


def test_parse_move_words_and_errors() -> None:
    state = opened()
    assert state.parse_move("  Double ") is DOUBLE
    assert state.parse_move("resign") == Resign(1)
    with pytest.raises(IllegalMoveError) as early:
        state.parse_move("24/18 13/11")
    assert early.value.rule == "roll-first"
    with pytest.raises(NotationError):
        state.parse_move("castle kingside")
    with pytest.raises(IllegalMoveError):
        state.parse_move("take")
    play(state, "roll")
    assert state.parse_move("1-3") == Throw((3, 1))
    with pytest.raises(NotationError):
        state.parse_move("71")


# -- entering a turn step by step ----------------------------------------------------


def test_turn_builder_steps_undo_and_confirm() -> None:
    state = BACKGAMMON.new_state()
    state.play("61")
    turn = TurnBuilder(state)
    assert CheckerMove(13, 7) in turn.options()
    turn.add(CheckerMove(13, 7))
    assert not turn.complete
    with pytest.raises(IllegalMoveError) as closed:
        turn.add(CheckerMove(24, 18))  # the 6 is used; 24/18 needs a 6
    assert closed.value.rule != "legal" and str(closed.value)
    assert turn.undo() == CheckerMove(13, 7)
    with pytest.raises(ParlourError):
        TurnBuilder(state).undo()
    turn.add(CheckerMove(8, 7))
    turn.add(CheckerMove(13, 7))
    assert turn.complete and turn.options() == []
    assert state.turn is FIRST  # nothing is final before confirming
    move = turn.confirm()
    assert state.move_to_text(move) == "13/7 8/7"
    assert state.turn is SECOND and state.moves[-1] == move


def test_turn_builder_refuses_outside_a_play_and_handles_no_move() -> None:
    with pytest.raises(IllegalMoveError) as early:
        TurnBuilder(BACKGAMMON.new_state())
    assert early.value.rule == "roll-first"
    blocked = state_at({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, dice=(6, 6))
    turn = TurnBuilder(blocked)
    assert turn.options() == [] and turn.complete
    assert turn.confirm() == ()


# -- sessions --------------------------------------------------------------------------


def random_game(state: BackgammonState, rng: random.Random) -> None:
    while not state.is_over():
        if state.turn is CHANCE:
            outcomes = state.chance_outcomes()
            state.push(rng.choices([m for m, _ in outcomes], [float(p) for _, p in outcomes])[0])
        elif state.phase is Phase.CUBE:
            moves = state.legal_moves()
            state.push(DOUBLE if DOUBLE in moves and rng.random() < 0.08 else ROLL)
        elif state.phase is Phase.DOUBLED:
            state.push(TAKE if rng.random() < 0.8 else DROP)
        else:
            state.push(rng.choice(sorted(state.legal_moves(), key=repr)))


def test_money_session_totals_follow_the_games() -> None:
    rng = random.Random(11)
    session = BackgammonMatch(stake=5)
    expected = [0, 0]
    for _ in range(4):
        state = session.new_game()
        assert state.money and state.cube.value == 1
        random_game(state, rng)
        outcome = state.outcome()
        assert outcome is not None and outcome.winner is not None
        expected[outcome.winner] += outcome.points
    session.finish()
    assert isinstance(session.scores, MoneyPlay)
    assert session.scores.points == tuple(expected)
    assert session.scores.balance(FIRST) == (expected[0] - expected[1]) * 5


def test_match_session_runs_to_the_end_with_crawford() -> None:
    rng = random.Random(22)  # this seed reaches a Crawford game, then a post-Crawford one
    session = BackgammonMatch(5)
    crawford_games = 0
    post_crawford_games = 0
    while not session.is_over:
        state = session.new_game()
        assert isinstance(session.scores, MatchPlay)
        assert state.score == session.scores.score
        crawford_games += state.crawford
        post_crawford_games += session.scores.post_crawford
        if state.crawford:
            play(state, "31", "8/5 6/5")
            assert DOUBLE not in state.legal_moves()
        random_game(state, rng)
    session.finish()
    assert max(session.scores.score) >= 5
    assert crawford_games == 1 and post_crawford_games == 1
    with pytest.raises(ParlourError):
        session.new_game()


def test_next_game_waits_for_the_end_of_this_one() -> None:
    session = BackgammonMatch(3)
    session.new_game()
    with pytest.raises(ParlourError):
        session.new_game()


# -- the command line ------------------------------------------------------------------


def test_moves_command_lists_the_plays() -> None:
    result = run_parlour("moves", "backgammon", START_ID, "31", timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 16  # gnubg's count for 3-1 from the start
    assert [tuple(line.split("\t")) for line in lines] == list_plays(START_ID, "31")
    assert any(line.startswith("8/5 6/5\t") for line in lines)
    missing = run_parlour("moves", "backgammon", START_ID, timeout=60)
    assert missing.returncode == 1 and "dice" in missing.stderr


def test_moves_batch_answers_each_line_and_survives_a_bad_one() -> None:
    stdin = f"{START_ID} 31\nnot-an-id 31\n{START_ID} 79\n{START_ID} 66\n"
    result = run_parlour("moves", "backgammon", "--batch", stdin=stdin, timeout=60)
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["position"] for record in records] == [START_ID, "not-an-id", START_ID, START_ID]
    assert len(records[0]["plays"]) == 16
    assert [(p["move"], p["position"]) for p in records[3]["plays"]] == list_plays(START_ID, "66")
    assert "error" in records[1] and "plays" not in records[1]
    assert "error" in records[2]
    assert "8/5 6/5" in [play["move"] for play in records[0]["plays"]]


@pytest.mark.parametrize(
    ("setup", "steps", "rule"),
    [
        ("start", [CheckerMove(13, 7), CheckerMove(24, 18)], "no-such-die"),
        ("start", [CheckerMove(13, 9)], "no-such-die"),
        ("start", [CheckerMove(6, 0)], "bear-off-not-home"),
        ("start", [CheckerMove(12, 6)], "no-checker"),
        ("bar", [CheckerMove(6, 1)], "bar-first"),
    ],
)
def test_turn_builder_names_the_rule_a_step_breaks(
    setup: str, steps: list[CheckerMove], rule: str
) -> None:
    if setup == "start":
        state = BACKGAMMON.new_state()
        state.play("61")
    else:
        state = state_at({25: 1, 6: 14}, {1: 2, 13: 13}, dice=(6, 5))
    turn = TurnBuilder(state)
    before = state.to_text()
    with pytest.raises(IllegalMoveError) as refused:
        for step in steps:
            turn.add(step)
    assert refused.value.rule == rule
    assert turn.steps == steps[:-1]  # the refused step is not made
    assert state.to_text() == before


def test_gnubg_jacoby_bit_in_the_match_id_is_read() -> None:
    # GNU Backgammon 1.07 sets a 67th bit when its Jacoby setting is on (its default),
    # even in a match: "E" where the ID would end in "A".
    with_bit = BACKGAMMON.state_from_text("zM7IATDgc+FBIA:UQmgAAAACAAE")
    assert with_bit.to_text() == "zM7IATDgc+FBIA:UQmgAAAACAAA"
    assert (with_bit.match_length, with_bit.score, with_bit.cube.value) == (5, (0, 1), 2)
    with pytest.raises(NotationError):
        BACKGAMMON.state_from_text("zM7IATDgc+FBIA:UQmgAAAACAAI")  # other bits stay refused

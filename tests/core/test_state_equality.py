"""States are equal by what the rules see (the position, a declared ending and, where
repetition counts, the positions since the last irreversible move), not by identity;
they hash alike when equal, as python-chess boards compare and OpenSpiel states do."""

from __future__ import annotations

from parlour.core.registry import get_game


def test_chess_move_orders_reaching_the_same_position_are_equal() -> None:
    chess = get_game("chess")
    one, two = chess.new_state(), chess.new_state()
    for move in ("e4", "e5", "d4"):
        one.play(move)
    for move in ("d4", "e5", "e4"):
        two.play(move)
    assert one == two and hash(one) == hash(two)
    assert len({one, two, chess.new_state()}) == 2


def test_chess_states_with_different_repetition_histories_differ() -> None:
    chess = get_game("chess")
    there_and_back, direct = chess.new_state(), chess.new_state()
    for move in ("Nf3", "Nf6", "Ng1", "Ng8"):
        there_and_back.play(move)
    # The same pieces, but the start has now stood twice: a third time claims a draw.
    assert there_and_back.repetitions() == 2
    assert there_and_back.board_text() == direct.board_text()
    assert there_and_back != direct
    # The fullmove number differs too, but the FEN without it still matches.
    assert there_and_back.to_text().split()[:3] == direct.to_text().split()[:3]


def test_a_declared_ending_makes_a_state_different() -> None:
    chess = get_game("chess")
    resigned = chess.new_state()
    resigned.resign(resigned.turn)
    assert resigned != chess.new_state()


def test_checkers_transpositions_are_equal_and_the_quiet_count_matters() -> None:
    checkers = get_game("checkers")
    one, two = checkers.new_state(), checkers.new_state()
    for move in ("11-15", "23-19", "10-14"):
        one.play(move)
    for move in ("10-14", "23-19", "11-15"):
        two.play(move)
    assert one == two and hash(one) == hash(two)
    # Men moved each time, so no earlier position can recur: the text says it all.
    assert one == checkers.state_from_text(one.to_text())


def test_backgammon_states_equal_by_their_ids() -> None:
    backgammon = get_game("backgammon")
    text = "4HPwATDgc/ABMA:cIkWAAAAAAAA"
    one, two = backgammon.state_from_text(text), backgammon.state_from_text(text)
    assert one == two and {one: "seen"}[two] == "seen"
    one.play(one.move_to_text(one.legal_moves()[0]))
    assert one != two


def test_a_state_is_never_equal_to_something_else() -> None:
    state = get_game("chess").new_state()
    assert state != state.to_text()
    assert state != get_game("checkers").new_state()

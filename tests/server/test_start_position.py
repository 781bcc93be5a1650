"""A new game from a pasted position (``POST /api/games`` with ``start``): a chess
FEN, a checkers PDN FEN, a backgammon ``PositionID:MatchID``, read by the game's own
rules and played on from there against the computer, a friend or at one screen; a
position that cannot be played from is refused with 400 naming why, and no game is
made; the start is kept with the game, so that a restarted server replays it; and a
backgammon game begun there still has dice anyone can check.

python-chess is the oracle for the chess positions' legal moves."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import pytest

from parlour.backgammon.board import Position
from parlour.backgammon.notation import MatchId, match_id, position_id
from parlour.cli import main
from parlour.core.protocol import Side
from parlour.core.registry import get_game
from parlour.server.fairness import check_record
from parlour.server.storage import Store
from tests.server.conftest import Table, new_table, serving

#: The "Kiwipete" position (castling both ways, pins, a promotion threat, checks).
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#: Black to move in it: the computer's move.
KIWIPETE_BLACK = KIWIPETE.replace(" w ", " b ")
#: White to take en passant on f6, promote by taking on a8, castle short or check.
EN_PASSANT = "nr2k3/1P6/8/4Pp2/8/8/8/4K2R w K f6 0 30"
#: White to move in checkers, a capture compulsory (18x9 or 18x11).
CHECKERS_START = "W:W18,22,K30:B14,15,K1"
#: The backgammon opening position, seen from the player on roll.
OPENING = position_id(Position.start())


def pieces(*points: int) -> tuple[int, ...]:
    """A side's 25 counts (points 1-24 and the bar): one checker per point named,
    repeated points for more; the rest of its 15 borne off."""
    counts = [0] * 25
    for point in points:
        counts[point - 1] += 1
    return tuple(counts)


#: A 1-point match in a race, each side with five checkers on its 6-point (so that
#: no one throw ends it: double sixes bear off four), the player on roll (the
#: first side) about to throw the dice (":roll").
RACE = position_id(Position(pieces(6, 6, 6, 6, 6), pieces(6, 6, 6, 6, 6)))
RACE_START = f"{RACE}:{match_id(MatchId(match_length=1))}:roll"


def chess_moves(fen: str, played: list[str] | None = None) -> set[str]:
    """The legal moves of ``fen`` after the SAN moves ``played``, by python-chess."""
    board = chess.Board(fen)
    for san in played or []:
        board.push_san(san)
    return {board.san(move) for move in board.legal_moves}


def wait_for(table: Table, done: Callable[[dict[str, Any]], bool], seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        game = table.game()
        if done(game) or time.monotonic() > deadline:
            return game
        time.sleep(0.05)


def game_count(url: str) -> int:
    store = Store(url)
    try:
        return len(store.game_ids())
    finally:
        store.close()


# -- chess ----------------------------------------------------------------------------


@pytest.mark.parametrize("fen", [KIWIPETE, EN_PASSANT])
def test_a_fen_game_offers_the_moves_python_chess_finds(sqlite_url: str, fen: str) -> None:
    with serving(sqlite_url) as client:
        table = new_table(client, "chess", opponent="local", start=fen)
        game = table.game()
        assert game["options"]["start"] == fen
        assert game["position"] == fen and game["version"] == 0 and game["turn"] == 0
        assert set(game["legal_moves"]) == chess_moves(fen)
        played: list[str] = []
        for _ in range(6):  # both sides play on by the rules, from the position
            move = sorted(game["legal_moves"])[0]
            game = table.act(game["turn"], "move", game["version"], move).json()
            played.append(move)
            assert set(game["legal_moves"]) == chess_moves(fen, played)
        board = chess.Board(fen)
        for san in played:
            board.push_san(san)
        assert game["position"] == board.fen()


def test_the_computer_moves_at_once_from_a_fen_where_it_is_on_turn(db_url: str) -> None:
    with serving(db_url) as client:
        table = new_table(client, "chess", opponent="computer", side=0, start=KIWIPETE_BLACK)
        game = wait_for(table, lambda g: g["version"] >= 1)
        assert game["version"] == 1, "the computer did not move"
        first = game["moves"][0]
        assert first["side"] == 1 and first["text"] in chess_moves(KIWIPETE_BLACK)
        assert game["turn"] == 0
        assert set(game["legal_moves"]) == chess_moves(KIWIPETE_BLACK, [first["text"]])
        # The human answers, and the computer again.
        mine = sorted(game["legal_moves"])[0]
        assert table.act(0, "move", 1, mine).status_code == 200
        game = wait_for(table, lambda g: g["version"] >= 3)
        assert [m["side"] for m in game["moves"]] == [1, 0, 1]
        assert game["moves"][2]["text"] in chess_moves(KIWIPETE_BLACK, [first["text"], mine])
        # Looking back: version 0 is the position pasted.
        at = client.get(f"/api/games/{table.id}/at", params={"version": 0}).json()
        assert at["position"] == KIWIPETE_BLACK


# -- checkers -------------------------------------------------------------------------


def test_a_friend_game_from_a_checkers_pdn_fen(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table = new_table(client, "checkers", opponent="friend", side=0, start=CHECKERS_START)
        assert table.invite is not None
        joined = client.post(f"/api/games/{table.id}/join", json={"invite": table.invite})
        assert joined.status_code == 200, joined.text
        table.tokens[1] = joined.json()["token"]
        game = table.game()
        assert game["options"]["start"] == "W:W18,22,K30:BK1,14,15"  # the rules' own order
        assert game["turn"] == 1  # White (the second side) to move, as the FEN says
        assert sorted(game["legal_moves"]) == ["18x11", "18x9"]  # the capture is compulsory
        refused = table.act(1, "move", game["version"], "22-17")
        assert refused.status_code == 422 and "capture" in refused.json()["detail"]
        assert table.act(1, "move", game["version"], "18x11").status_code == 200
        game = table.game()
        assert game["turn"] == 0 and game["board"]["pieces"].get("15") is None
        state = get_game("checkers").state_from_text(CHECKERS_START)
        state.play("18x11")
        assert game["position"] == state.to_text()
        assert set(game["legal_moves"]) == {state.move_to_text(m) for m in state.legal_moves()}


# -- backgammon -----------------------------------------------------------------------


def test_backgammon_from_a_position_whose_dice_are_thrown(sqlite_url: str) -> None:
    start = f"{OPENING}:{match_id(MatchId(dice=(3, 1)))}"
    with serving(sqlite_url) as client:
        table = new_table(client, "backgammon", opponent="local", start=start)
        game = table.game()
        assert game["options"]["start"] == start
        assert game["version"] == 0 and game["turn"] == 0
        assert game["board"]["dice"] == [3, 1]  # the position's own dice, not thrown again
        state = get_game("backgammon").state_from_text(start)
        assert set(game["legal_moves"]) == {state.move_to_text(m) for m in state.legal_moves()}
        assert "8/5 6/5" in game["legal_moves"]
        game = table.act(0, "move", 0, "8/5 6/5").json()
        assert game["turn"] == 1 and "roll" in game["legal_moves"]
        game = table.act(1, "move", game["version"], "roll").json()
        events = client.get(f"/api/games/{table.id}/events").json()["events"]
        assert [e["kind"] for e in events] == ["move", "move", "throw"]
        assert game["turn"] == 1 and game["board"]["dice"] is not None


def test_the_computer_plays_the_dice_of_the_position_at_once(sqlite_url: str) -> None:
    start = f"{OPENING}:{match_id(MatchId(match_length=5, dice=(6, 5)))}"
    with serving(sqlite_url) as client:
        table = new_table(
            client,
            "backgammon",
            opponent="computer",
            side=1,
            level="random",
            rules={"match_length": 5},
            start=start,
        )
        game = wait_for(table, lambda g: g["version"] >= 1)
        first = game["moves"][0]
        state = get_game("backgammon").state_from_text(start)
        assert first["side"] == 0  # the computer, with the 6-5 of the position
        assert first["text"] in {state.move_to_text(m) for m in state.legal_moves()}
        assert game["series"]["match_length"] == 5


def test_the_dice_of_a_match_begun_from_a_position_are_verified(
    sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serving(sqlite_url) as client:  # the server's own dice: committed
        table = new_table(
            client, "backgammon", opponent="local", rules={"match_length": 1}, start=RACE_START
        )
        game = table.game()
        assert game["version"] == 1 and game["moves"][0]["side"] is None  # thrown at once
        assert game["dice"]["commitment"] and game["dice"]["secret"] is None
        for _ in range(40):
            if game["status"] == "over":
                break
            moves = game["legal_moves"]
            move = "roll" if "roll" in moves else moves[0]
            game = table.act(game["turn"], "move", game["version"], move).json()
        assert game["status"] == "over" and game["series"]["over"]
        record = client.get(f"/api/games/{table.id}/dice").json()
    assert record["start"] == game["options"]["start"]
    assert record["secret"] is not None
    throws = [e for e in record["events"] if e["kind"] == "throw"]
    assert len(throws) >= 2
    found = check_record(record)
    assert found.ok, found.summary
    assert found.throws == len(throws)
    saved = tmp_path / "dice.json"
    saved.write_text(json.dumps(record))
    assert main(["verify", str(saved)]) == 0
    assert "dice verified: all" in capsys.readouterr().out
    # A throw changed is caught, replayed from the set-up position.
    tampered = json.loads(json.dumps(record))
    throw = next(e for e in tampered["events"] if e["kind"] == "throw")
    throw["payload"] = "66" if throw["payload"] != "66" else "11"
    assert not check_record(tampered).ok
    # And without its start, the log does not replay from the usual opening.
    assert not check_record(dict(record, start=None)).ok


def test_a_match_taken_up_at_a_score(sqlite_url: str) -> None:
    # 5-point match, 3-4 and the Crawford game: the server plays on from that score.
    start = _bg(MatchId(match_length=5, score=(3, 4), crawford=True))
    with serving(sqlite_url) as client:
        table = new_table(
            client, "backgammon", opponent="local", rules={"match_length": 5}, start=start
        )
        game = table.game()
        assert game["series"]["points"] == [3, 4] and game["series"]["match_length"] == 5
        assert game["board"]["score"] == [3, 4] and game["board"]["crawford"]
        assert "double" not in game["legal_moves"]  # the Crawford game
        game = table.act(0, "move", game["version"], "resign").json()
        game = table.act(1, "move", game["version"], "accept").json()
        assert game["series"]["points"] == [3, 5] and game["series"]["over"]
        assert game["series"]["winner"] == 1


# -- refusals -------------------------------------------------------------------------


def _bg(fields: MatchId, position: str = OPENING) -> str:
    return f"{position}:{match_id(fields)}"


#: A backgammon position the first side has won: all its checkers borne off.
BORNE_OFF = position_id(Position(pieces(), pieces(6, 6, 6)))

BAD_STARTS: list[tuple[str, str, dict[str, Any], str]] = [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", {}, "FEN needs 6 fields"),
    ("chess", "hello", {}, "FEN needs 6 fields"),
    ("chess", "4k3/8/8/8/8/8/8/8 w - - 0 1", {}, "White has no king"),
    ("chess", "4k3/8/8/8/8/8/8/2K1K3 w - - 0 1", {}, "White has 2 kings, a side has one"),
    ("chess", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", {}, "a pawn stands on a1"),
    ("chess", "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", {}, "Black's king is in check but it is not"),
    ("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", {}, "already over in it (checkmate: White"),
    ("chess", "7k/8/6QK/8/8/8/8/8 b - - 0 1", {}, "already over in it (stalemate: a draw)"),
    ("chess", "   ", {}, "the start position is empty"),
    ("checkers", "W:W21,22:B", {}, "Black has no pieces"),
    ("checkers", "B:W21,22:B", {}, "already over in it (no pieces left: White has won)"),
    ("checkers", "B:W:B1,2", {}, "White has no pieces"),
    ("checkers", "B:W:B", {}, "White has no pieces"),
    ("checkers", "B:W1:B5", {}, "a White man cannot stand on 1"),
    ("checkers", "B:W21:B30", {}, "a Black man cannot stand on 30"),
    ("checkers", "X:W21:B1", {}, "starts with the side to move"),
    ("backgammon", "AAAA", {}, "Position ID"),
    ("backgammon", BORNE_OFF, {}, "the game is over in this position"),
    (
        "backgammon",
        _bg(MatchId(game_state=2), BORNE_OFF),
        {},
        "already over in it",
    ),
    (
        "backgammon",
        _bg(MatchId(score=(3, 2))),
        {},
        "its score is 3-2, and a money session here starts at 0-0",
    ),
    (
        "backgammon",
        _bg(MatchId(match_length=7)),
        {},
        "it is from a 7-point match, but money play was chosen",
    ),
    (
        "backgammon",
        _bg(MatchId()),
        {"match_length": 3},
        "it is from money play, but a 3-point match was chosen",
    ),
    (
        "backgammon",
        _bg(MatchId(match_length=1, crawford=True)),
        {"match_length": 1},
        "the Crawford game, which a 1-point match has not",
    ),
    (
        "backgammon",
        _bg(MatchId(cube_value=128, cube_owner=Side.FIRST)),
        {"max_cube": 64},
        "the cube is at 128, above the limit of 64",
    ),
]


def test_every_bad_start_is_refused_and_makes_no_game(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        new_table(client, "chess", opponent="local")
        for game, start, rules, words in BAD_STARTS:
            body: dict[str, Any] = {"game": game, "opponent": "local", "start": start}
            if rules:
                body["rules"] = rules
            response = client.post("/api/games", json=body)
            assert response.status_code == 400, (start, response.text)
            refusal = response.json()
            assert refusal["error"] == "bad-start", refusal
            assert words in refusal["detail"], (start, refusal["detail"])
            assert "Traceback" not in refusal["detail"]
        too_long = client.post(
            "/api/games", json={"game": "chess", "opponent": "local", "start": "8/" * 101}
        )
        assert too_long.status_code == 400 and "start" in too_long.json()["detail"]
        not_text = client.post("/api/games", json={"game": "chess", "start": 7})
        assert not_text.status_code == 400
    assert game_count(sqlite_url) == 1  # only the game made first


def test_a_bad_start_makes_no_game_on_either_database(db_url: str) -> None:
    with serving(db_url) as client:
        before = game_count(db_url)
        for opponent in ("computer", "friend", "local"):
            response = client.post(
                "/api/games",
                json={"game": "checkers", "opponent": opponent, "start": "W:W21,22:B"},
            )
            assert response.status_code == 400
            assert response.json()["detail"].startswith(
                "cannot start from this position: Black has no pieces, so the game ended"
            )
    assert game_count(db_url) == before


def test_the_usual_start_pasted_is_a_usual_game(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        usual = chess.STARTING_FEN
        table = new_table(client, "chess", opponent="local", start=usual)
        game = table.game()
        assert "start" not in game["options"] and game["position"] == usual


# -- a restart --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_name", "start", "rules"),
    [
        ("chess", EN_PASSANT, None),
        ("checkers", CHECKERS_START, None),
        (
            "backgammon",
            f"{OPENING}:{match_id(MatchId(match_length=3, dice=(4, 2)))}",
            {"match_length": 3},
        ),
    ],
)
def test_the_start_survives_a_restart(
    sqlite_url: str, game_name: str, start: str, rules: dict[str, Any] | None
) -> None:
    extra = {} if rules is None else {"rules": rules}
    with serving(sqlite_url) as client:
        table = new_table(client, game_name, opponent="local", start=start, **extra)
        before = table.move(pick=0)
    with serving(sqlite_url) as client:
        table.client = client
        after = table.game()
        for key in ("position", "version", "turn", "legal_moves", "moves", "options"):
            assert after[key] == before[key], key
        at = client.get(f"/api/games/{table.id}/at", params={"version": 0}).json()
        assert at["position"] == after["options"]["start"]
        game = table.move(pick=0)  # and it plays on
        assert game["version"] > after["version"]
    if game_name == "chess":
        played = [m["text"] for m in game["moves"]]
        assert set(game["legal_moves"]) == chess_moves(EN_PASSANT, played)

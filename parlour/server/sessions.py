"""Games in play: each one's log of events, the position rebuilt from it, its seats,
and the one path by which anything changes.

Every change, from a player or from the server itself, goes the same way: under the
game's lock, check the version the player saw and that the seat may act, apply the
action to a copy of the position through the game's rules (which refuse an illegal
move with the rule it breaks), throw the dice on the server whenever the position
reaches a chance node, append all the resulting events to the store in one
transaction, and only then adopt the new position and tell the watchers. A refused
action therefore changes nothing, in memory or in the store.

Replaying a stored log goes through the very same :func:`apply` as live play, so a
restarted server rebuilds each game exactly.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from parlour.core import registry
from parlour.core.dice import Dice
from parlour.core.errors import IllegalMoveError, NotationError, ParlourError, UnknownGameError
from parlour.core.face import Series
from parlour.core.protocol import CHANCE, Game, Side, State
from parlour.server import players
from parlour.server.seats import hash_token, new_game_id, new_token, token_matches
from parlour.server.storage import (
    Append,
    EventRow,
    NewGame,
    SeatRow,
    StaleVersionError,
    Store,
    StoredGame,
    UnknownGameIdError,
)

log = logging.getLogger("parlour.server")
T = TypeVar("T")

#: What a seat may ask for, by the name clients use, and the event kind it records.
ACTIONS: dict[str, str] = {
    "move": "move",
    "resign": "resign",
    "offer-draw": "draw-offer",
    "accept-draw": "draw-accept",
    "decline-draw": "draw-decline",
    "claim-draw": "claim",
    "next-game": "next-game",
}

OPPONENTS = ("friend", "computer", "local")

#: The most appends written in one transaction.
MAX_BATCH = 256
#: The most messages waiting for one WebSocket before it is dropped.
MAX_BACKLOG = 500


class ApiError(Exception):
    """A refusal to report to the client: an HTTP status, a short stable code, a
    sentence for people, and any extra fields (the current version, the rule)."""

    def __init__(self, status: int, error: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.error = error
        self.detail = detail
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"error": self.error, "detail": self.detail, **self.extra}


def rules_error(error: ParlourError) -> ApiError:
    """A rules engine's refusal, worded for the client."""
    if isinstance(error, IllegalMoveError):
        return ApiError(422, "illegal-move", str(error), rule=error.rule)
    if isinstance(error, NotationError):
        return ApiError(422, "bad-notation", str(error))
    return ApiError(422, "refused", str(error))


# -- the position and what happens to it ---------------------------------------------


@dataclass(slots=True)
class Play:
    """A game's position with what the rules do not track: a pending draw offer, the
    record of moves in the game's notation, and, in a series of games (a backgammon
    match), the series and its finished games."""

    state: State[Any]
    series: Series
    version: int = 0
    draw_offer: Side | None = None
    record: list[dict[str, Any]] = field(default_factory=list)
    #: The series' games before this one, each over (never changed again).
    finished: tuple[State[Any], ...] = ()

    def copy(self) -> Play:
        return Play(
            self.state.copy(),
            self.series,
            self.version,
            self.draw_offer,
            list(self.record),
            self.finished,
        )

    def next_game(self) -> State[Any] | None:
        """The game that follows this one in the series, when this one is over and
        the series goes on; None otherwise."""
        if not self.state.is_over():
            return None
        return self.series.next((*self.finished, self.state))


def apply(play: Play, event: EventRow, move: Any = None) -> None:
    """Apply one event to ``play``, checking it against the rules; raises
    IllegalMoveError or NotationError (or ApiError) and may leave ``play`` half
    changed, so callers apply to a copy. ``move`` is the parsed move of a move or
    throw event when the caller has it already."""
    state = play.state
    kind = event.kind
    seat = None if event.seat is None else Side(event.seat)
    if kind in ("move", "throw"):
        if state.is_over():
            raise IllegalMoveError("the game is over", rule="game-over")
        if kind == "throw" and state.turn is not CHANCE:
            raise IllegalMoveError("the dice are not to be thrown now", rule="not-chance")
        if kind == "move" and state.turn is not seat:
            raise ApiError(403, "not-your-turn", "it is not your turn")
        if move is None:
            move = state.parse_move(event.payload)
        state.push(move)
        play.record.append({"version": event.version, "side": event.seat, "text": event.payload})
        if kind == "move" and play.draw_offer is not None and play.draw_offer is not seat:
            play.draw_offer = None  # moving instead of answering declines the offer
    elif kind == "resign":
        state.resign(_seat(seat))
        play.draw_offer = None
    elif kind == "draw-offer":
        if state.is_over():
            raise IllegalMoveError("the game is over", rule="game-over")
        if not state.game.has_draws:
            raise IllegalMoveError(f"{state.game.title} has no draws", rule="no-draws")
        if play.draw_offer is not None:
            raise ApiError(409, "draw-offered", "a draw offer is already pending")
        play.draw_offer = _seat(seat)
    elif kind in ("draw-accept", "draw-decline"):
        if play.draw_offer is None or play.draw_offer is _seat(seat):
            raise ApiError(409, "no-draw-offer", "there is no draw offer from your opponent")
        if kind == "draw-accept":
            state.agree_draw()
        play.draw_offer = None
    elif kind == "claim":
        state.claim_draw()
        play.draw_offer = None
    elif kind == "next-game":
        if not state.is_over():
            raise IllegalMoveError("this game is not over yet", rule="game-not-over")
        following = play.next_game()
        if following is None:
            lone = play.series.summary(()) is None
            why = "this game is not part of a match" if lone else "the match is over"
            raise IllegalMoveError(why, rule="no-next-game")
        play.finished = (*play.finished, state)
        play.state = following
        play.record = []
        play.draw_offer = None
    elif kind != "join":
        raise ValueError(f"unknown event kind {kind!r}")
    play.version = event.version


def _seat(seat: Side | None) -> Side:
    if seat is None:
        raise ValueError("this event needs a seat")
    return seat


def throw_dice(play: Play, dice: Dice, events: list[EventRow]) -> None:
    """While the position waits on the dice, throw them and record the throw."""
    state = play.state
    while not state.is_over() and state.turn is CHANCE:
        throw = dice.choose(state.chance_outcomes())
        event = EventRow(play.version + 1, "throw", state.move_to_text(throw))
        apply(play, event, throw)
        events.append(event)


# -- one game ------------------------------------------------------------------------


@dataclass(slots=True)
class Seat:
    side: Side
    player: str  # "human" or "computer"
    token_hash: str | None = None
    level: str | None = None
    invite_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.player == "computer" or self.token_hash is not None


class Session:
    """One game being served: its event log, its position, its seats and watchers."""

    def __init__(
        self,
        game_id: str,
        game: Game[Any],
        seats: list[Seat],
        events: Sequence[EventRow],
        created: str,
        options: dict[str, Any],
    ) -> None:
        self.id = game_id
        series = registry.get_face(game).series(options.get("rules"))
        self.game = series.game  # with the optional rules the game was created with
        self.seats = seats
        self.created = created
        self.options = options
        self.events: list[EventRow] = []
        self.play = Play(series.first(), series)
        self.lock = asyncio.Lock()
        self.watchers: set[asyncio.Queue[str | None]] = set()
        self.thinking: asyncio.Task[None] | None = None
        self._json: tuple[int, dict[str, Any]] | None = None
        for event in events:
            apply(self.play, event)
            self.events.append(event)

    @property
    def version(self) -> int:
        return self.play.version

    @property
    def status(self) -> str:
        """The game's status, "over" once the game in play is over (a match waits
        there for a player to start its next game), else "playing"."""
        return "over" if self.play.state.is_over() else "playing"

    @property
    def rules(self) -> dict[str, Any]:
        """The optional rules the game was created with (none: {})."""
        rules: dict[str, Any] = self.options.get("rules") or {}
        return rules

    def side_of(self, token: str) -> Side:
        """The seat that ``token`` holds; ApiError 401 when none."""
        for seat in self.seats:
            if token_matches(token, seat.token_hash):
                return seat.side
        raise ApiError(401, "bad-token", "this token holds no seat in this game")

    def events_since(self, version: int) -> list[EventRow]:
        return self.events[version:]

    def at(self, version: int) -> dict[str, Any]:
        """The game as it stood at ``version`` (0 to the current one), for a player
        looking back over it: replayed from the log, like a restart."""
        if not 0 <= version <= self.version:
            raise ApiError(
                400,
                "bad-request",
                f"version must be from 0 to the game's version {self.version}",
                version=self.version,
            )
        series = self.play.series
        play = Play(series.first(), series)
        for event in self.events[:version]:
            apply(play, event)
        state = play.state
        last = play.record[-1] if play.record else None
        return {
            "version": version,
            "game_number": len(play.finished) + 1,
            "position": state.to_text(),
            "board": registry.get_face(state.game).board(state),
            "last_move": last,
            "over": state.is_over(),
        }

    def to_json(self) -> dict[str, Any]:
        """Everything a client needs to draw the game and offer the legal moves,
        for any game (computed once per version)."""
        if self._json is not None and self._json[0] == self.version:
            return self._json[1]
        game, state = self.game, self.play.state
        outcome = state.outcome()
        turn: int | str | None
        legal: list[str] = []
        if outcome is not None:
            turn = None
        elif state.turn is CHANCE:
            turn = "chance"
        else:
            turn = int(state.turn)
            legal = [state.move_to_text(move) for move in state.legal_moves()]
        data: dict[str, Any] = {
            "id": self.id,
            "game": game.name,
            "title": game.title,
            "side_names": list(game.side_names),
            "has_chance": game.has_chance,
            "has_draws": game.has_draws,
            "options": self.options,
            "created": self.created,
            "version": self.version,
            "status": self.status,
            "position": state.to_text(),
            "turn": turn,
            "legal_moves": legal,
            "moves": self.play.record,
            "series": self._series_json(),
            "draw_offer": None if self.play.draw_offer is None else int(self.play.draw_offer),
            "claimable_draw": state.claimable_draw() if outcome is None else None,
            "board": registry.get_face(state.game).board(state),
            "can_export": registry.get_face(game).export_suffix is not None,
            # Advice comes from the game's engine, in a game against the computer.
            "hints": any(seat.player == "computer" for seat in self.seats)
            and bool(players.engine_levels(game.name)),
            "outcome": None
            if outcome is None
            else {
                "winner": None if outcome.winner is None else int(outcome.winner),
                "winner_name": None if outcome.winner is None else game.side_name(outcome.winner),
                "reason": outcome.reason,
                "points": outcome.points,
            },
            "seats": [
                {
                    "side": int(seat.side),
                    "name": game.side_name(seat.side),
                    "player": seat.player,
                    "level": seat.level,
                    "taken": seat.taken,
                }
                for seat in self.seats
            ],
        }
        self._json = (self.version, data)
        return data

    def _series_json(self) -> dict[str, Any] | None:
        """The match so far (None for a lone game): the score counting the game in
        play once it is over, and whether a next game may be started."""
        play = self.play
        done = (*play.finished, play.state) if play.state.is_over() else play.finished
        summary = play.series.summary(done)
        if summary is not None:
            summary["game_number"] = len(play.finished) + 1
            summary["next_game"] = play.next_game() is not None
        return summary

    def update_message(self, events: Sequence[EventRow]) -> str:
        return json.dumps(
            {
                "type": "update",
                "events": [event.to_json() for event in events],
                "game": self.to_json(),
            }
        )

    def publish(self, events: Sequence[EventRow]) -> None:
        """Send an update to every watcher. One who has fallen :data:`MAX_BACKLOG`
        messages behind (a connection that stopped reading) is dropped rather than
        buffered for ever: None tells its sender to close, and the client reconnects
        with the last version it has."""
        message = self.update_message(events)
        for queue in list(self.watchers):
            if queue.qsize() >= MAX_BACKLOG:
                self.watchers.discard(queue)
                queue.put_nowait(None)
            else:
                queue.put_nowait(message)


# -- all games ---------------------------------------------------------------------


class Hall:
    """Every game the server knows: creates them, finds them (loading from the store
    on first use), and carries out the seats' actions. Appends to the store are
    group-committed; SQLite is written on the event loop, a database server from
    worker threads. Computer players think in worker processes."""

    def __init__(self, store: Store, *, dice: Dice | None = None, workers: int = 2) -> None:
        self.store = store
        self.dice = dice or Dice()  # SystemRandom: nobody can predict a throw
        self.sessions: dict[str, Session] = {}
        self._db: Executor = ThreadPoolExecutor(max_workers=8, thread_name_prefix="parlour-db")
        self._workers = workers
        # SQLite is a library in this process: a write is a fraction of a millisecond
        # of work, cheaper done at once on the event loop than handed to a thread
        # (two thread switches per write, each a wait for the GIL and a core on a
        # busy machine). It assumes one server process per database file, so that
        # no other writer holds the lock. A database server is waited on in threads.
        self._inline = store.is_sqlite
        self._pool: ProcessPoolExecutor | None = None
        self._loading = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        # Writes waiting for the writer, which takes them all in one transaction.
        self._queued: list[tuple[Append | NewGame, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def _in_db(self, function: Callable[..., T], *args: Any) -> T:
        if self._inline:
            return function(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, partial(function, *args))

    async def start(self) -> None:
        """Load every unfinished game and let the computer move where it is to."""
        # Forked workers, started now, before the server has other threads: a fork
        # copies only the calling thread, and a spawned worker would re-run the
        # ``parlour serve`` command that started the server.
        self._pool = ProcessPoolExecutor(
            max_workers=self._workers,
            mp_context=multiprocessing.get_context("fork"),
            initializer=players.start_worker,
            initargs=(os.getpid(),),
        )
        await asyncio.get_running_loop().run_in_executor(self._pool, players.ready)
        for game_id in await self._in_db(self.store.game_ids, "playing"):
            try:
                session = await self.get(game_id)
            except ApiError as error:
                log.error("game %s cannot be resumed: %s", game_id, error.detail)
                continue
            self._computer_turn(session)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._db.shutdown(wait=True)

    # -- creating and joining ----------------------------------------------------------

    async def create(
        self,
        game_name: str,
        opponent: str,
        side: int,
        level: str | None,
        rules: dict[str, Any] | None = None,
    ) -> tuple[Session, list[dict[str, Any]], str | None]:
        """A new game (under the optional ``rules``, such as a backgammon match's
        length): returns the session, the creator's seat tokens and, for a friend's
        game, the invite code for the other seat."""
        try:
            game = registry.get_game(game_name)
        except UnknownGameError as error:
            raise ApiError(404, "unknown-game", str(error)) from None
        try:
            series = registry.get_face(game).series(rules)
        except ValueError as error:
            raise ApiError(400, "bad-rules", str(error)) from None
        if opponent not in OPPONENTS:
            raise ApiError(400, "bad-request", f"opponent must be one of {', '.join(OPPONENTS)}")
        if side not in (0, 1):
            raise ApiError(400, "bad-request", "side must be 0 or 1")
        if opponent == "computer":
            level = level or "random"
            known_levels = players.levels_of(game_name)
            if level not in known_levels:
                known = ", ".join(known_levels)
                raise ApiError(400, "unknown-level", f"no computer level {level!r} ({known})")
        elif level is not None:
            raise ApiError(400, "bad-request", "a level is only for a computer opponent")
        mine = Side(side)
        tokens: list[dict[str, Any]] = []
        invite: str | None = None
        seat_rows: list[SeatRow] = []
        for seat_side in Side:
            if seat_side is mine or opponent == "local":
                token = new_token()
                tokens.append({"side": int(seat_side), "token": token})
                seat_rows.append(SeatRow(int(seat_side), "human", hash_token(token)))
            elif opponent == "computer":
                seat_rows.append(SeatRow(int(seat_side), "computer", level=level))
            else:
                invite = new_token()
                seat_rows.append(SeatRow(int(seat_side), "human", invite_hash=hash_token(invite)))
        play = Play(series.first(), series)
        events: list[EventRow] = []
        throw_dice(play, self.dice, events)
        game_id = new_game_id()
        options: dict[str, Any] = {"opponent": opponent}
        if series.rules:
            options["rules"] = series.rules
        new = NewGame(game_id, game.name, json.dumps(options), seat_rows, events)
        await self._write(new)
        session = Session(
            game_id,
            game,
            [Seat(Side(r.side), r.player, r.token_hash, r.level, r.invite_hash) for r in seat_rows],
            events,
            new.created.isoformat(),
            options,
        )
        self.sessions[game_id] = session
        self._computer_turn(session)
        return session, tokens, invite

    async def join(self, game_id: str, invite: str) -> tuple[Side, str]:
        """Exchange an invite code, once, for its seat's token."""
        session = await self.get(game_id)
        async with session.lock:
            for seat in session.seats:
                if token_matches(invite, seat.invite_hash):
                    break
            else:
                raise ApiError(403, "bad-invite", "this invite is not valid (or already used)")
            token = new_token()
            event = EventRow(session.version + 1, "join", "", int(seat.side))
            row = SeatRow(int(seat.side), "human", hash_token(token))
            play = session.play.copy()
            apply(play, event)
            await self._commit(session, play, [event], row)
            seat.token_hash, seat.invite_hash = row.token_hash, None
            session.publish([event])
            return seat.side, token

    # -- finding -----------------------------------------------------------------------

    async def get(self, game_id: str) -> Session:
        session = self.sessions.get(game_id)
        if session is not None:
            return session
        async with self._loading:
            session = self.sessions.get(game_id)
            if session is not None:
                return session
            try:
                stored = await self._in_db(self.store.load_game, game_id)
            except UnknownGameIdError:
                raise ApiError(404, "unknown-game-id", f"there is no game {game_id!r}") from None
            session = self._replay(stored)
            self.sessions[game_id] = session
            return session

    @staticmethod
    def _replay(stored: StoredGame) -> Session:
        try:
            game = registry.get_game(stored.name)
            return Session(
                stored.id,
                game,
                [
                    Seat(Side(s.side), s.player, s.token_hash, s.level, s.invite_hash)
                    for s in stored.seats
                ],
                stored.events,
                stored.created.isoformat(),
                stored.options,
            )
        except (ParlourError, ApiError, ValueError) as error:
            log.error("game %s does not replay: %s", stored.id, error)
            raise ApiError(
                503, "unreadable-game", f"game {stored.id} cannot be rebuilt: {error}"
            ) from None

    # -- acting --------------------------------------------------------------------------

    async def act(
        self,
        game_id: str,
        token: str,
        action: str,
        version: int,
        move: str | None = None,
    ) -> Session:
        """Carry out a seat's action (see :data:`ACTIONS`) against ``version``."""
        session = await self.get(game_id)
        side = session.side_of(token)
        await self.act_as(session, side, action, version, move)
        return session

    async def act_as(
        self, session: Session, side: Side, action: str, version: int, move_text: str | None
    ) -> None:
        """Carry out an action of the seat ``side`` (already authenticated)."""
        kind = ACTIONS.get(action)
        if kind is None:
            known = ", ".join(ACTIONS)
            raise ApiError(400, "bad-action", f"unknown action {action!r} (one of: {known})")
        if (kind == "move") != (move_text is not None):
            detail = "a move needs its text" if kind == "move" else f"{action} takes no move"
            raise ApiError(400, "bad-request", detail)
        async with session.lock:
            if version != session.version:
                raise ApiError(
                    409,
                    "stale-version",
                    f"the game is at version {session.version}, not {version}",
                    version=session.version,
                )
            play = session.play.copy()
            state = play.state
            events: list[EventRow] = []
            try:
                if kind == "move":
                    assert move_text is not None
                    if state.is_over():
                        raise IllegalMoveError("the game is over", rule="game-over")
                    if state.turn is not side:
                        raise ApiError(403, "not-your-turn", "it is not your turn")
                    parsed = state.parse_move(move_text)
                    event = EventRow(play.version + 1, kind, state.move_to_text(parsed), int(side))
                    apply(play, event, parsed)
                else:
                    payload = ""
                    if kind == "claim":
                        payload = state.claimable_draw() or ""
                    event = EventRow(play.version + 1, kind, payload, int(side))
                    apply(play, event)
                events.append(event)
                throw_dice(play, self.dice, events)
            except ParlourError as error:
                raise rules_error(error) from None
            await self._commit(session, play, events)
            session.publish(events)
        self._computer_turn(session)

    async def _commit(
        self,
        session: Session,
        play: Play,
        events: list[EventRow],
        seat_update: SeatRow | None = None,
    ) -> None:
        """Store ``events`` (one transaction) and adopt ``play``; the caller holds
        the session's lock."""
        status = "over" if play.state.is_over() else "playing"
        try:
            await self._write(Append(session.id, session.version, events, status, seat_update))
        except StaleVersionError:
            # Another server process wrote to this game: forget our copy.
            self.sessions.pop(session.id, None)
            raise ApiError(409, "stale-version", "the game changed elsewhere; reload it") from None
        session.play = play
        session.events.extend(events)

    async def _write(self, write: Append | NewGame) -> None:
        """Have ``write`` stored, together with whatever else is waiting."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queued.append((write, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        await done

    async def _write_queued(self) -> None:
        """Group commit: while one transaction is being written, the appends that
        arrive queue up, and the next transaction takes them all (at most
        :data:`MAX_BATCH`). One game has at most one append queued (its lock).
        Every waiting append gets an answer, whatever fails."""
        while self._queued:
            if self._inline:
                await asyncio.sleep(0)  # let the appends of this loop turn gather
            batch, self._queued = self._queued[:MAX_BATCH], self._queued[MAX_BATCH:]
            results: list[Exception | None]
            try:
                results = await self._in_db(self.store.write_many, [w for w, _ in batch])
                if len(results) != len(batch):
                    raise RuntimeError("the store answered a batch with the wrong count")
            except BaseException as failure:
                error = failure if isinstance(failure, Exception) else RuntimeError("stopped")
                results = [error] * len(batch)
                if not isinstance(failure, Exception):
                    self._answer(batch, results)
                    raise
            self._answer(batch, results)

    @staticmethod
    def _answer(
        batch: list[tuple[Append | NewGame, asyncio.Future[None]]],
        results: list[Exception | None],
    ) -> None:
        for (_, done), refusal in zip(batch, results, strict=True):
            if done.done():
                continue
            if refusal is None:
                done.set_result(None)
            else:
                done.set_exception(refusal)

    # -- the computer -------------------------------------------------------------------

    async def hint(self, session: Session, side: Side) -> dict[str, Any]:
        """The engine's advice for ``side``, in a game against the computer, when it
        is that side's turn. The engine thinks in a worker process."""
        state = session.play.state
        if not any(seat.player == "computer" for seat in session.seats):
            raise ApiError(403, "no-hint", "hints are given only in a game against the computer")
        if state.is_over() or state.turn is not side:
            raise ApiError(409, "not-your-turn", "a hint is for the player whose turn it is")
        assert self._pool is not None
        try:
            advice: dict[str, Any] = await asyncio.get_running_loop().run_in_executor(
                self._pool,
                players.hint,
                registry.GAMES[session.game.name],
                session.game.name,
                session.rules,
                state.to_text(),
            )
        except ParlourError as error:
            raise ApiError(404, "no-hint", str(error)) from None
        advice["version"] = session.version
        return advice

    def _computer_turn(self, session: Session) -> None:
        """If a computer seat is on turn, let it think in a worker process."""
        state = session.play.state
        if state.is_over() or state.turn is CHANCE:
            return
        seat = session.seats[int(state.turn)]
        if seat.player != "computer" or session.thinking is not None:
            return
        task = asyncio.get_running_loop().create_task(self._think(session, seat))
        session.thinking = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _think(self, session: Session, seat: Seat) -> None:
        version = session.version
        position = session.play.state.to_text()
        seed = zlib.crc32(f"{session.id}:{version}".encode())
        moved = False
        try:
            assert self._pool is not None
            try:
                text = await asyncio.get_running_loop().run_in_executor(
                    self._pool,
                    players.think,
                    players.target_of(seat.level or "random"),
                    registry.GAMES[session.game.name],
                    session.game.name,
                    session.rules,
                    position,
                    seed,
                )
                await self.act_as(session, seat.side, "move", version, text)
            except ApiError as error:
                if error.status == 409 or error.error == "not-your-turn":
                    return  # the game moved on (a resignation, say) while it thought
                log.error("computer move refused in game %s: %s", session.id, error.detail)
                # A stand-in move rather than a game that waits for ever.
                text = players.random_move(session.game, position, seed)
                await self.act_as(session, seat.side, "move", version, text)
            moved = True
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer could not move in game %s", session.id)
        finally:
            session.thinking = None
        if moved and session.id in self.sessions:
            self._computer_turn(session)

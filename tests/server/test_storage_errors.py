"""The store's error paths: a transaction whose commit fails reports exactly one
result per write, each the error, and leaves nothing behind."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from parlour.server.storage import (
    Append,
    EventRow,
    NewGame,
    SeatRow,
    Store,
    UnknownGameIdError,
)


class FailingCommits(Store):
    """A store whose transactions fail as they commit (a full disk, a lost server),
    after every statement in them ran: the rollback undoes them."""

    failing = False

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        with super()._writing() as conn:
            yield conn
            if self.failing:
                raise sa.exc.OperationalError("COMMIT", {}, Exception("disk full"))

    def _write_all_at_once(self, writes: Sequence[Append | NewGame]) -> list[Exception | None]:
        # PostgreSQL's one statement for a batch: rolled back as a whole.
        if self.failing:
            raise sa.exc.OperationalError("COMMIT", {}, Exception("disk full"))
        return super()._write_all_at_once(writes)


def test_a_failed_commit_gives_one_error_per_write(db_url: str) -> None:
    store = FailingCommits(db_url)
    try:
        # The PostgreSQL database is shared by the run: ids of this test's own.
        a, b, c = (f"failing-commit-{name}" for name in "abc")
        for game_id in (a, b):
            store.create_game(
                NewGame(game_id, "race", "{}", [SeatRow(0, "human")], [EventRow(1, "throw", "1")])
            )
        store.failing = True
        writes: list[Append | NewGame] = [
            Append(a, 1, [EventRow(2, "move", "+1", 0)], "playing"),
            Append(b, 1, [EventRow(2, "move", "+1", 0)], "playing"),
            NewGame(c, "race", "{}", [SeatRow(0, "human")], [EventRow(1, "throw", "1")]),
        ]
        results = store.write_many(writes)
        assert len(results) == len(writes)
        assert all(isinstance(result, sa.exc.OperationalError) for result in results)
        store.failing = False
        assert store.load_game(a).version == 1 and store.load_game(b).version == 1
        with pytest.raises(UnknownGameIdError):
            store.load_game(c)
    finally:
        store.close()

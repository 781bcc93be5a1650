"""Parlour's checkers engine from another checkout, as the external peer of
``checkers_match.py``: to measure the engine against an earlier version of itself at
equal time (the issue's "against the engine before this work").

Run from the repository root, with a worktree of the earlier commit::

    git worktree add /tmp/oldtree 96b5a63
    .venv/bin/python benchmarks/checkers_match.py --ballots 48 --seconds 0.1 \\
        --external ".venv/bin/python benchmarks/checkers_peer.py /tmp/oldtree"

It speaks :class:`checkers_match.ExternalPeer`'s line protocol: each line is the side
to move (``b`` or ``w``) and 32 characters, one a square (``.``, ``b``, ``B``, ``w``,
``W``); it answers the 32 characters after its move. The last argument is the time
a move, or ``nodes=N`` for a fixed number of nodes (``checkers_match.py`` adds it,
``nodes=N`` with its ``--nodes``). The engine plays as the match's own side does:
its opening book where the checkout has one, else ``search`` with that limit, then
``to_move``.
"""

from __future__ import annotations

import sys


def main(root: str, limit: str) -> None:
    sys.path.insert(0, root)  # the other checkout's package, not this one's
    from parlour.checkers.board import BIT_SQUARE, bits
    from parlour.checkers.engine import CheckersEngine
    from parlour.checkers.rules import CHECKERS

    engine = CheckersEngine()
    book = getattr(engine, "book", None)  # the earliest checkouts have none
    nodes = int(limit.removeprefix("nodes=")) if limit.startswith("nodes=") else None

    def squares(position: tuple[int, int, int, int]) -> str:
        board = dict.fromkeys(range(1, 33), ".")
        for mask, letter in zip(position, "bBwW", strict=True):
            for bit in bits(mask):
                board[BIT_SQUARE[bit]] = letter
        return "".join(board[n] for n in range(1, 33))

    for line in sys.stdin:
        side, picture = line.split()
        white = [("K" if c == "W" else "") + str(n) for n, c in enumerate(picture, 1) if c in "wW"]
        black = [("K" if c == "B" else "") + str(n) for n, c in enumerate(picture, 1) if c in "bB"]
        state = CHECKERS.state_from_text(f"{side.upper()}:W{','.join(white)}:B{','.join(black)}")
        move = book.move(state) if book is not None else None
        if move is None:
            if nodes:
                result = engine.search(state, nodes=nodes)
            else:
                result = engine.search(state, seconds=float(limit))
            assert result.best_move is not None
            move = engine.to_move(state, result.best_move)
        state.push(move)
        print(squares(state.position), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

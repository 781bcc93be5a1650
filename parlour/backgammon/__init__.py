"""Backgammon: the board and the legal plays (:mod:`parlour.backgammon.board`), the
gnubg text formats (:mod:`parlour.backgammon.notation`), and the game itself through
the core protocol (:mod:`parlour.backgammon.rules`)."""

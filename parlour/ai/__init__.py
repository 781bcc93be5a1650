"""Search shared by the engines where the logic really is the same: alpha-beta for
the board games. (Backgammon's look-ahead over the dice is its own, batched for its
network: see :mod:`parlour.backgammon.engine`.)"""

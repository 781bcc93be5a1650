"""Search shared by the engines where the logic really is the same: alpha-beta for
the board games, expectimax for the dice game."""

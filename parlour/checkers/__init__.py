"""American checkers (English draughts): rules, PDN notation and, later, an engine.

>>> from parlour.checkers import CHECKERS
>>> state = CHECKERS.new_state()
>>> state.play("11-15")
Move(path=(11, 15))
>>> state.to_text()
'W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15'
"""

from parlour.checkers.rules import CHECKERS, Checkers, CheckersState, Move

__all__ = ["CHECKERS", "Checkers", "CheckersState", "Move"]

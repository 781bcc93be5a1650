"""The backgammon network's inputs in C (native.c): network.encode and the
features of :mod:`parlour.backgammon.features`, bit for bit.

Built by ``parlour compile``; where it is not built, or the package runs pure,
importing it fails and the network computes its inputs with numpy."""

#: Inputs a position: the board's 198, then the features.
INPUTS: int

def inputs(counts: bytes, /) -> bytearray:
    """The inputs of positions given as 50 counts each (the player on roll's 25, then
    the other side's; index 24 the bar): rows of float64."""

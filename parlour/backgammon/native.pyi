"""The backgammon network's inputs in C (native.c): network.encode and the
features of :mod:`parlour.backgammon.features`, bit for bit; and the positions
each throw's legal plays reach, as :func:`parlour.backgammon.engine.python_replies`
finds them.

Built by ``parlour compile``; where it is not built, or the package runs pure,
importing it fails and the network computes its inputs with numpy."""

from typing_extensions import Buffer

#: Inputs a position: the board's 198, then the features.
INPUTS: int

def inputs(counts: Buffer, /) -> bytearray:
    """The inputs of positions given as 50 counts each (the player on roll's 25, then
    the other side's; index 24 the bar): rows of float64."""

def replies(counts: Buffer, /) -> tuple[bytes, bytes]:
    """For each position given as 50 counts (as :func:`inputs`) and each of the 21
    throws of ``engine.THROWS``: every distinct position the mover's legal plays
    of that throw reach (the position itself when nothing can be played), each as
    50 counts seen by the opponent, now on roll (its 25 counts first), in the
    byte order of their counts; and how many there are for each (position,
    throw), as native int32s. ValueError for counts that are not 50 bytes a
    position or are impossible."""

"""Named tuples made from their fields without their Python-level ``__new__``: the hot path makes one for every
tile, flag word, group and reading of a line (tests/test_speed_rooms.py holds it equal to the plain call).

>>> from typing import NamedTuple
>>> class Point(NamedTuple):
...     x: int
...     y: int = 0
>>> new_tuple(Point, (1, 2)) == Point(1, 2), type(new_tuple(Point, (1, 2))) is Point
(True, True)
"""

from __future__ import annotations

from typing import Final

# tuple's own constructor: the named tuple's generated ``__new__`` is a Python function, dear to call from compiled code
new_tuple: Final = tuple.__new__

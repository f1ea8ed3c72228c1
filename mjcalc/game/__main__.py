"""``python -m mjcalc.game replay FILE…``: every game of the files replayed, one JSON sheet a line (files.py)."""

import sys

from .files import main

sys.exit(main(sys.argv[1:]))

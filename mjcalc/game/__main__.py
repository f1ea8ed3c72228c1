"""``python -m mjcalc.game replay FILE…``: every game of the files replayed, one JSON sheet a line (files.py)."""

import gc
import sys

gc.disable()  # start-up makes little garbage; the run sets the collector as a batch does (files.main)

from .files import main  # noqa: E402

sys.exit(main(sys.argv[1:]))

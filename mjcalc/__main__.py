"""``python -m mjcalc``."""

from .cli import main

main()

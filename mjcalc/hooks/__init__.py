"""Per-ruleset Python for what data cannot say (riichi fu, MCR's account-once rule, Meihe's lame kong).

Each module registers predicates as ``<ruleset>.<name>`` (``predicates.namespaced``) and, where a formula
family settles payments its own way, a settler in ``settlement.SETTLERS``; kongs that no meld declares
are found by ``settlement.kong_finder`` functions that a ruleset's ``kongs:`` rows name in ``found_by``.
Importing this package registers them all; ``ruleset.load_ruleset`` does so before it validates any file.
"""

from . import (
    mcr,  # noqa: F401
    meihe,  # noqa: F401
    riichi,  # noqa: F401
)

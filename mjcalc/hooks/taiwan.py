"""台湾十六张 Taiwan 16-tile: the flag of the dealer's streak (连庄, ``+lian=N``), which its items count
(``flag_value``); everything else of the family is data (rules/taiwan.yaml)."""

from __future__ import annotations

from ..core.context import FlagDef, declare_flags

declare_flags(FlagDef("lian", "int", "dealer's consecutive wins (连庄)", ("连庄",), "0", most=99, position=25))

"""tabulate's tables, the library imported when a table is first written (not by a batch or ``--json``), and
without the two standard modules it imports for what our tables never ask of it."""

from __future__ import annotations

from typing import Any


def tabulate(*args: Any, **kwargs: Any) -> str:
    """tabulate's table, the library imported when a table is first written (not by a batch or ``--json``)."""
    return str(_table()(*args, **kwargs))


def _table() -> Any:
    """``tabulate.tabulate``. The library imports two standard modules for what a table of ours never asks of them,
    each costing a command about as much as the rest of tabulate: ``html`` for its HTML formats alone (``from html
    import escape``; html builds a table of every entity name), and ``dataclasses`` to ask whether the first row
    is a dataclass (ours are tuples). tabulate is imported
    with stand-ins for them, taken away at once: the stand-in ``escape`` imports the real module when first called,
    and the stand-in ``dataclasses`` answers from the real module when one has been imported — until then no
    dataclass exists, so nothing is one."""
    import sys

    if "tabulate" in sys.modules:
        from tabulate import tabulate as table

        return table
    import types

    def escape(text: str, quote: bool = True) -> str:
        import html

        return html.escape(text, quote)

    def is_dataclass(obj: object) -> bool:
        real = sys.modules.get("dataclasses")
        return real is not None and real is not stand_ins.get("dataclasses") and bool(real.is_dataclass(obj))

    def fields(obj: object) -> Any:
        import dataclasses

        return dataclasses.fields(obj)  # type: ignore[arg-type]

    stand_ins: dict[str, types.ModuleType] = {}
    for name, functions in (("html", {"escape": escape}), ("dataclasses", {"is_dataclass": is_dataclass,
                                                                           "fields": fields})):
        if name not in sys.modules:
            stand_ins[name] = module = types.ModuleType(name)
            module.__dict__.update(functions)
            sys.modules[name] = module
    try:
        from tabulate import tabulate as table
    finally:
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
    return table

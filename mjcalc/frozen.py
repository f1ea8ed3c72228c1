"""``dataclass(frozen=True)`` for the ruleset's model, made without compiling code at import.

The standard decorator writes the source of five methods for each class (``__init__``, ``__repr__``, ``__eq__``,
``__setattr__``, ``__delattr__``; ``__hash__`` too) and compiles it when the module is imported: about 7M
instructions for a class of 18 fields, and the six classes of mjcalc.ruleset cost every command more than
loading a ruleset does (benchmarks/bench_startup.py). Here the fields are found by ``dataclasses`` itself,
generating nothing (``init=False, repr=False, eq=False``), and the methods are plain functions that read
them: the same behaviour (keyword or positional arguments, defaults and ``default_factory``, ``repr=False`` /
``compare=False`` fields, equality and hash over the compared fields, ``FrozenInstanceError``), and
``dataclasses.fields`` / ``replace`` / ``asdict`` work as before. An instance is made a little more slowly,
which a ruleset's few hundred objects do not feel.

Modules that mypy and mypyc read as dataclasses import the standard ``dataclass`` under ``TYPE_CHECKING`` and
this one otherwise (``from .frozen import dataclass``); only for pure-Python modules, never a compiled one
(setup.py COMPILED), where mypyc builds the class from what mypy sees.

>>> from dataclasses import field, replace
>>> @dataclass(frozen=True)
... class Point:
...     x: int
...     y: int = 0
...     tags: list = field(default_factory=list, compare=False)
>>> p = Point(1, y=2)
>>> p, p == Point(1, 2, ["a"]), replace(p, y=5)
(Point(x=1, y=2, tags=[]), True, Point(x=1, y=5, tags=[]))
>>> hash(p) == hash(Point(1, 2))
True
>>> p.x = 3
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x'
>>> Point()
Traceback (most recent call last):
...
TypeError: Point.__init__() missing 1 required positional argument: 'x'
>>> @dataclass(frozen=True)
... class Counted:
...     n: int
...     seen: list = field(init=False, default_factory=list)
>>> Counted(2).seen, Counted(n=3) == Counted(3)
([], True)
>>> Counted(1, n=1)
Traceback (most recent call last):
...
TypeError: Counted.__init__() got multiple values for argument 'n'
"""

from __future__ import annotations

import dataclasses
from typing import Any

_MISSING: Any = dataclasses.MISSING


def dataclass(cls: Any = None, /, *, frozen: bool = False) -> Any:
    """``@dataclass(frozen=True)`` (the only form this module makes), behaving as the standard one does."""
    if not frozen:
        raise TypeError("mjcalc.frozen makes frozen dataclasses only: dataclass(frozen=True)")
    return _frozen if cls is None else _frozen(cls)


_MADE = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__post_init__")


def _frozen(cls: Any) -> Any:
    own = [name for name in _MADE if name in cls.__dict__ and not (name == "__hash__" and cls.__hash__ is None)]
    if own:
        raise TypeError(f"{cls.__qualname__} defines {', '.join(own)}: use the standard dataclass")
    documented = bool(cls.__dict__.get("__doc__"))
    if not documented:
        cls.__doc__ = "-"  # the standard decorator would read inspect.signature(cls) for it (written below)
    cls = dataclasses.dataclass(init=False, repr=False, eq=False)(cls)
    every = dataclasses.fields(cls)
    if any(f.kw_only is True for f in every) or any(isinstance(v, dataclasses.InitVar) for v in
                                                     cls.__dict__.get("__annotations__", {}).values()):
        raise TypeError(f"{cls.__qualname__}: keyword-only fields and InitVar need the standard dataclass")
    fields = tuple(f.name for f in every)
    names = tuple(f.name for f in every if f.init)
    defaults: dict[str, tuple[Any, Any]] = {f.name: (f.default, f.default_factory) for f in every
                                            if f.default is not _MISSING or f.default_factory is not _MISSING}
    unset = tuple(f.name for f in every if not f.init and f.name in defaults)  # init=False: set from the default
    every_name = frozenset(names)
    shown = tuple(f.name for f in every if f.repr)
    compared = tuple(f.name for f in every if f.compare)
    hashed = tuple(f.name for f in every if (f.compare if f.hash is None else f.hash))
    qualname = cls.__qualname__
    if not documented:
        cls.__doc__ = f"{cls.__name__}({', '.join(names)})"

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{qualname}.__init__() takes {len(names) + 1} positional arguments but "
                            f"{len(args) + 1} were given")
        values = self.__dict__
        if not args and kwargs.keys() == every_name:  # each field by keyword (dataclasses.replace): in field order
            for name in names:
                values[name] = kwargs[name]
            kwargs = {}
        for name, value in zip(names, args):
            values[name] = value
        for name in names[len(args):] if kwargs else ():
            value = kwargs.pop(name, _MISSING)
            if value is not _MISSING:
                values[name] = value
        for name in names[len(args):]:
            if name not in values:
                if name not in defaults:
                    raise TypeError(f"{qualname}.__init__() missing 1 required positional argument: '{name}'")
                default, factory = defaults[name]
                values[name] = factory() if default is _MISSING else default
        for name in unset:
            default, factory = defaults[name]
            values[name] = factory() if default is _MISSING else default
        if kwargs:
            name = next(iter(kwargs))
            if name in names:
                raise TypeError(f"{qualname}.__init__() got multiple values for argument '{name}'")
            raise TypeError(f"{qualname}.__init__() got an unexpected keyword argument '{name}'")

    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return tuple(getattr(self, n) for n in compared) == tuple(getattr(other, n) for n in compared)

    def __hash__(self: Any) -> int:
        return hash(tuple(getattr(self, n) for n in hashed))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in fields:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in fields:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for fn in (__init__, __repr__, __eq__, __hash__, __setattr__, __delattr__):
        fn.__qualname__ = f"{qualname}.{fn.__name__}"
        setattr(cls, fn.__name__, fn)
    return cls

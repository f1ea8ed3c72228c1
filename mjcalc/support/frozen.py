"""``dataclass(frozen=True)`` for the ruleset's model, made without the ``dataclasses`` module and without
compiling code at import.

The standard decorator writes the source of five methods for each class (``__init__``, ``__repr__``, ``__eq__``,
``__setattr__``, ``__delattr__``; ``__hash__`` too) and compiles it when the module is imported; and even with
nothing generated, its reading of a class (a Field object per field, its checks) is dear, at every command's
start-up (docs/performance.md). Here the fields are read from the class's own annotations and attributes, and the
methods are plain functions that read them: the same behaviour for what mjcalc uses (keyword or positional
arguments, defaults and ``default_factory``, ``repr=False`` / ``compare=False`` fields, equality and hash over the
compared fields, ``FrozenInstanceError`` on assignment); ``fields`` and ``replace`` are this module's own (the
standard ones need the standard decorator).

Modules that mypy reads as dataclasses import the standard ``dataclass`` and ``field`` under ``TYPE_CHECKING``
and these otherwise (``from .frozen import dataclass, field``); only for pure-Python modules, never a compiled
one (setup.py COMPILED), where mypyc builds the class from what mypy sees.

>>> @dataclass(frozen=True)
... class Point:
...     x: int
...     y: int = 0
...     tags: list = field(default_factory=list, compare=False)
>>> p = Point(1, y=2)
>>> p, p == Point(1, 2, ["a"]), replace(p, y=5)
(Point(x=1, y=2, tags=[]), True, Point(x=1, y=5, tags=[]))
>>> hash(p) == hash(Point(1, 2)), [f.name for f in fields(p)]
(True, ['x', 'y', 'tags'])
>>> p.x = 3
Traceback (most recent call last):
...
mjcalc.support.frozen.FrozenInstanceError: cannot assign to field 'x'
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

from typing import Any, TypeVar

T = TypeVar("T")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


_MISSING: Any = _Missing()


class FrozenInstanceError(AttributeError):
    """A field of a frozen instance assigned to or deleted (as ``dataclasses.FrozenInstanceError``)."""


class Field:
    """One field: its name, default (or a factory of defaults) and whether ``__init__`` takes it, ``repr``
    shows it and equality (``compare``) and the hash read it."""

    __slots__ = ("name", "default", "default_factory", "init", "repr", "compare", "hash")

    def __init__(self, default: Any = _MISSING, default_factory: Any = _MISSING, init: bool = True,
                 repr: bool = True, compare: bool = True, hash: bool | None = None) -> None:
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare
        self.hash = hash

    def __repr__(self) -> str:
        return f"Field(name={self.name!r})"


def field(*, default: Any = _MISSING, default_factory: Any = _MISSING, init: bool = True, repr: bool = True,
          compare: bool = True, hash: bool | None = None) -> Any:
    """A field with options, as ``dataclasses.field``."""
    return Field(default, default_factory, init, repr, compare, hash)


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a class made here (or of its instance), in order."""
    return obj.__frozen_fields__  # type: ignore[no-any-return]


def replace(obj: T, **changes: Any) -> T:
    """A copy of ``obj`` with some fields changed, made by its ``__init__`` (as ``dataclasses.replace``)."""
    for f in fields(obj):
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
        elif f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)  # type: ignore[no-any-return]


def dataclass(cls: Any = None, /, *, frozen: bool = False) -> Any:
    """``@dataclass(frozen=True)`` (the only form this module makes), behaving as the standard one does."""
    if not frozen:
        raise TypeError("mjcalc.support.frozen makes frozen dataclasses only: dataclass(frozen=True)")
    return _frozen if cls is None else _frozen(cls)


_MADE = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__post_init__")


def _fields_of(cls: Any) -> tuple[Field, ...]:
    """The class's fields, in order: its bases' (made here) first, then its own annotations (``ClassVar`` ones
    aside); a default is the class attribute of the same name, left on the class (a ``field()`` replaced by
    its default, or taken away when it has none)."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__frozen_fields__", ()):
            found[f.name] = f
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
        if text.startswith(("ClassVar", "typing.ClassVar", "InitVar", "dataclasses.InitVar")):
            if text.startswith(("InitVar", "dataclasses.InitVar")):
                raise TypeError(f"{cls.__qualname__}: InitVar needs the standard dataclass")
            continue
        value = cls.__dict__.get(name, _MISSING)
        if isinstance(value, Field):
            f = value
            if f.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        else:
            f = Field(value)
        if isinstance(f.default, (list, dict, set)):
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        f.name = name
        found[name] = f
    return tuple(found.values())


def _frozen(cls: Any) -> Any:
    own = [name for name in _MADE if name in cls.__dict__ and not (name == "__hash__" and cls.__hash__ is None)]
    if own:
        raise TypeError(f"{cls.__qualname__} defines {', '.join(own)}: use the standard dataclass")
    every = _fields_of(cls)
    cls.__frozen_fields__ = every
    fields = tuple(f.name for f in every)
    names = tuple(f.name for f in every if f.init)
    defaults: dict[str, tuple[Any, Any]] = {f.name: (f.default, f.default_factory) for f in every
                                            if f.default is not _MISSING or f.default_factory is not _MISSING}
    seen_default = False
    for name in names:  # as the standard decorator: no required argument after one with a default
        if name in defaults:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument '{name}' follows default argument")
    unset = tuple(f.name for f in every if not f.init and f.name in defaults)  # init=False: set from the default
    every_name = frozenset(names)
    shown = tuple(f.name for f in every if f.repr)
    compared = tuple(f.name for f in every if f.compare)
    hashed = tuple(f.name for f in every if (f.compare if f.hash is None else f.hash))
    qualname = cls.__qualname__
    if not cls.__dict__.get("__doc__"):
        cls.__doc__ = f"{cls.__name__}({', '.join(names)})"

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{qualname}.__init__() takes {len(names) + 1} positional arguments but "
                            f"{len(args) + 1} were given")
        values = self.__dict__
        if not args and kwargs.keys() == every_name:  # each field by keyword (replace): in field order
            for name in names:
                values[name] = kwargs[name]
            kwargs = {}
        values.update(zip(names, args))
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
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in fields:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for fn in (__init__, __repr__, __eq__, __hash__, __setattr__, __delattr__):
        fn.__qualname__ = f"{qualname}.{fn.__name__}"
        setattr(cls, fn.__name__, fn)
    return cls

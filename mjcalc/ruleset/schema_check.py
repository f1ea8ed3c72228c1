"""Checking a user's ruleset file against the JSON Schema of ``schema.ruleset_schema``, with a message that names
the entry and the field: read only for a file a user names (the built-in ones are validated by the test suite),
apart from the grammar's declarations in ``schema``, which every command reads to load a ruleset (this
module is not imported for them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import did_you_mean
from ..errors import quoted as _quote
from ..i18n import N_, Msg
from .schema import ID_PATTERN, LANG_PATTERN, PREDICATE_PATTERN, RULESET_ID_PATTERN, TILE_PATTERN, ruleset_schema

_VALIDATORS: dict[bool, Any] = {}


def _validator(partial: bool) -> Any:
    found = _VALIDATORS.get(partial)
    if found is None:
        import jsonschema  # only for a user's file: the built-in ones are validated by the test suite

        base = jsonschema.Draft202012Validator
        # A whole number is an int: not 1.0, not true.
        checker = base.TYPE_CHECKER.redefine(
            "integer", lambda _, x: isinstance(x, int) and not isinstance(x, bool))
        cls = jsonschema.validators.extend(base, type_checker=checker)
        found = _VALIDATORS[partial] = cls(ruleset_schema(partial))
    return found


def problem(data: Any, partial: bool = False) -> str | None:
    """The most relevant thing wrong with a file's data by the schema, as "entry: field …", or None."""

    errors = list(_validator(partial).iter_errors(data))
    if not errors:
        return None
    return describe(_deepest(min(errors, key=_rank)), data)


def _deepest(error: Any) -> Any:
    """For "none of the forms fits" (anyOf), the error inside the form the value was meant to be: of the
    branches whose type fits the value, the one that got furthest; with none, the anyOf error itself."""
    while error.validator in ("anyOf", "oneOf") and error.context:
        branches: dict[Any, list[Any]] = {}
        for e in error.context:
            branches.setdefault(e.relative_schema_path[0], []).append(_deepest(e))
        fitting = [errs for errs in branches.values()
                   if not any(e.validator in ("type", "const", "enum", "anyOf", "oneOf")
                              and e.absolute_path == error.absolute_path for e in errs)]
        if not fitting:
            return error
        resolved = fitting

        def fit(errs: Any, here: Any = error.absolute_path) -> tuple[int, int, int]:
            depth = max(len(e.absolute_path) for e in errs)
            foreign = sum(e.validator == "additionalProperties" and e.absolute_path == here
                          for e in errs)  # the value's keys are another form's
            return -depth, foreign, len(errs)

        error = min(min(resolved, key=fit), key=_rank)
    return error


def _rank(error: Any) -> tuple[int, int]:
    """Errors about an unknown or missing key first, then the shallowest (the first one a reader meets)."""
    first = 0 if error.validator in ("additionalProperties", "required") else 1
    return len(error.absolute_path), first


ENTRY_KINDS = {"items": N_("item {name}"), "win_conditions": N_("win condition {name}"),
               "options": N_("option {name}"), "kongs": N_("kong {name}"), "special_kongs": N_("special kong {name}")}


def entry_and_field(path: Sequence[Any], data: Any) -> tuple[str, str]:
    """``['items', 3, 'value', 'closed']`` → ("item 'single_wait'", "value.closed"); the entry a Msg (mjcalc/i18n.py)."""
    path = list(path)
    entry, rest = "", path
    if len(path) >= 2 and path[0] in ("items", "win_conditions") and isinstance(path[1], int):
        raw = data.get(path[0])
        picked = raw[path[1]] if isinstance(raw, list) and path[1] < len(raw) else None
        ident = picked.get("id") if isinstance(picked, dict) else None
        name = _quote(ident) if isinstance(ident, str) and ident else f"#{path[1] + 1}"
        entry, rest = Msg(ENTRY_KINDS[path[0]], name=name), path[2:]
    elif len(path) >= 2 and path[0] in ("options", "kongs", "special_kongs"):
        entry, rest = Msg(ENTRY_KINDS[path[0]], name=_quote(path[1])), path[2:]
    text = ""
    for part in rest:
        if isinstance(part, bool):  # YAML reads the keys on / off as booleans
            part = "on" if part else "off"
        text += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return entry, text


def describe(error: Any, data: Any) -> str:
    """The error in words: a Msg (English as its ``str``, and each language of the catalog)."""
    entry, name = entry_and_field(error.absolute_path, data)
    validator, schema, instance = error.validator, error.schema, error.instance
    at = Msg("field '{name}'", name=name) if name else Msg("the entry") if entry else Msg("the file")

    def said(text: Msg) -> Msg:
        return Msg("{entry}: {text}", entry=entry, text=text) if entry else text

    if validator == "additionalProperties":
        known = list(schema.get("properties", {}))
        extra = [k for k in instance if k not in known] if isinstance(instance, dict) else []
        key = extra[0] if extra else "?"

        where = Msg(" in '{name}'", name=name) if name else ""
        return said(Msg("unknown field {key}{where}{hint}; known: {known}", key=_quote(key), where=where,
                        hint=did_you_mean(str(key), known), known=", ".join(known)))
    if validator == "required":
        missing = [k for k in error.validator_value if not (isinstance(instance, dict) and k in instance)]
        inside = f"{name}." if name else ""
        return said(Msg("field '{name}' is missing", name=f"{inside}{missing[0] if missing else '?'}"))
    if validator == "type":
        expected = schema.get("description") or _words(error.validator_value)
        return said(Msg("{at} has the wrong type ({kind}): expected {expected}", at=at, kind=_type_name(instance),
                        expected=expected))
    if validator in ("anyOf", "oneOf"):
        expected = schema.get("description") or Msg("another form")
        return said(Msg("{at} is not valid ({kind}): expected {expected}", at=at, kind=_type_name(instance),
                        expected=expected))
    if validator in ("minimum", "maximum"):
        return said(Msg("{at} is {value}, out of range: it must be from {low} to {high}", at=at,
                        value=_quote(instance), low=schema.get("minimum"), high=schema.get("maximum")))
    if validator == "enum":
        return said(Msg("{at}: {value} is not one of {choices}", at=at, value=_quote(instance),
                        choices=", ".join(map(str, error.validator_value))))
    if validator == "const":
        return said(Msg("{at}: expected {value}", at=at, value=repr(error.validator_value)))
    if validator in ("maxItems", "maxProperties"):
        return said(Msg("{at} has too many entries (at most {n})", at=at, n=error.validator_value))
    if validator in ("minItems", "minProperties"):
        return said(Msg("{at} is empty: it needs at least {n}", at=at, n=error.validator_value))
    if validator == "maxLength":
        return said(Msg("{at} is too long (at most {n} characters)", at=at, n=error.validator_value))
    if validator == "minLength":
        return said(Msg("{at} is empty", at=at))
    if "propertyNames" in error.schema_path:  # the instance is a key of the mapping at the path
        return said(Msg("{at}: the key {key} is not a valid name here ({what})", at=at, key=_quote(instance),
                        what=_pattern_words(str(schema))))
    if validator == "pattern":
        return said(Msg("{at}: {value} is not a valid name here ({what})", at=at, value=_quote(instance),
                        what=_pattern_words(error.validator_value)))
    if validator == "propertyNames":
        return said(Msg("{at}: a key is not a valid name ({what})", at=at,
                        what=_pattern_words(str(schema.get("propertyNames")))))
    if validator == "uniqueItems":
        return said(Msg("{at} lists the same entry twice", at=at))
    return said(Msg("{at}: {problem}", at=at, problem=error.message[:200]))


def _pattern_words(pattern: str) -> str:
    """What a pattern of the schema admits, in words (``pattern`` may be a whole sub-schema's text)."""
    words = {TILE_PATTERN: N_("a tile such as 1m, 9s, 7z"), LANG_PATTERN: N_("a language code: zh, en, ja …"),
             PREDICATE_PATTERN: N_("lower-case letters, digits and _ (a hook's own: ruleset.name)"),
             RULESET_ID_PATTERN: N_("lower-case letters, digits, - and _"),
             ID_PATTERN: N_("lower-case letters, digits and _, starting with a letter"),
             "^[a-z]+$": N_("lower-case letters")}
    for known, text in words.items():
        if known == pattern or repr(known)[1:-1] in pattern or known in pattern:
            return Msg(text)
    return Msg("another name")


_TYPE_WORDS = {"integer": N_("a whole number"), "string": N_("text"), "boolean": N_("true or false"),
               "object": N_("a mapping"), "array": N_("a list"), "null": N_("nothing (null)"),
               "number": N_("a number")}


def _words(types: Any) -> str:
    kinds = types if isinstance(types, list) else [types]
    words = [Msg(_TYPE_WORDS[str(k)]) if str(k) in _TYPE_WORDS else str(k) for k in kinds]
    out = words[0]
    for word in words[1:]:
        out = Msg("{first} or {second}", first=out, second=word)
    return out


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return Msg("true / false")
    if isinstance(value, int):
        return Msg("a whole number")
    if isinstance(value, float):
        return Msg("a decimal number")
    if isinstance(value, str):
        return Msg("text")
    if isinstance(value, list):
        return Msg("a list")
    if isinstance(value, dict):
        return Msg("a mapping")
    if value is None:
        return Msg("nothing")
    return type(value).__name__

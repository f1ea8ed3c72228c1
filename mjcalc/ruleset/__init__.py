"""Ruleset files: found and read (loader), checked field by field into the model of core/model.py (validate),
against the grammar declared once as a JSON Schema (schema, schema_check). A file names what code registers
(predicates, formulas, settlers, flags, wildcard providers: mjcalc.registry), so importing this package imports
every family's hooks first."""

from .. import hooks  # noqa: F401  (every family registers its predicates, flags, settlers … on import)

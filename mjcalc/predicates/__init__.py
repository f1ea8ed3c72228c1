"""Predicates: small pure functions of one Candidate, named from ruleset YAML, shared by every ruleset, one module
per family of facts they read (situation, tiles, sets, waits, flowers); ``binding`` declares and binds them.
Importing the package registers every one (mjcalc.registry.PREDICATES); a family of rulesets adds its own in
its hook module (mjcalc/hooks/)."""

from . import flowers, sets, situation, tiles, waits  # noqa: F401  (each registers its predicates)

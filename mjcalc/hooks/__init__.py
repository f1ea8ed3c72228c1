"""Each family of rulesets' Python: what its data cannot say — its flags, a wildcard provider, predicates named
``<family>.<name>``, a settler, kong finders, what-if steps and homework hypotheses — one module a family.

Each module registers what it defines in mjcalc.registry when it is imported (``predicates.binding.namespaced``,
``core.context.declare_flags``, ``registry.SETTLERS`` …). Importing this package imports every one;
mjcalc.ruleset.loader does so before it reads any file, so that every flag is known whatever ruleset a line is
scored by (a flag another family reads is reported as ignored, not as unknown). A new family is one YAML file
in rules/ and at most one module here, added below.
"""

from . import changchun, mcr, meihe, riichi, taiwan  # noqa: F401  (each registers what it defines), in this order: the flags' checks are asked in it

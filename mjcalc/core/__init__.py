"""The core: one hand scored under one loaded ruleset, the compiled hot path — the tiles, the line as written
(notation), the hand and its context, the facts items are gated by, every reading (readings/), one reading
scored (candidate, scoring), settled (settlement/), the best reading searched (search), and the model of a ruleset
as the scoring reads it (model). It names no ruleset: a family's flags, checks and providers come through
mjcalc.registry."""

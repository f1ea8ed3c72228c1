"""An imported log for people: the sheet (mjcalc.game.render), then what the log says beside it — every difference
between mjcalc's replay and the log, one a line, and the log's hands the game did not reach under the rules chosen.
Presentation only: the differences are the importer's."""

from __future__ import annotations

from ..i18n import tr
from ..output.fit import wrap
from .importer import Imported


def import_text(imported: Imported, lang: str = "en", width: int | None = None) -> str:
    """The sheet, a line on the log, and each difference from it."""
    from ..game.render import sheet_text

    game = imported.game
    title = game.reference or game.source
    lines = [sheet_text(title, imported.sheet, lang, width), ""]
    lines += wrap(tr("log {file}: {format}, {lobby}; {hands} hands, {wins} wins", lang).format(
        file=game.source, format=game.format, lobby=game.rules.described or "?", hands=len(game.hands),
        wins=sum(len(h.wins) for h in game.hands)), width, 2)
    differences = imported.differences
    if not differences:
        lines += wrap(tr("every hand's start, every win and the end agree with the log" if imported.own else
                         "every win agrees with the log", lang), width, 2)
    else:
        lines += wrap(tr("{n} differences from the log:", lang).format(n=len(differences)), width, 2)
        for d in differences:
            lines += wrap(f"  {d['label']}: {d['what']}", width, 4)
    skipped = [h for h in imported.not_played() if not h["refused"]]
    if skipped:
        lines += wrap(tr("not played under {rules} (the game had ended): {hands}", lang).format(
            rules=imported.sheet.ruleset, hands=", ".join(h["label"] for h in skipped)), width, 2)
    return "\n".join(lines)

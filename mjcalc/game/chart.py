"""A game's scores over its hands as an SVG picture, written as text (no plotting library: start-up stays short).

Each player is a line in a colour of its own (Okabe–Ito's, told apart by people with any colour vision) with a
marker shape of its own and the name at its end; a legend names them; the x axis carries the hand labels (every
few, when there are many), the y axis round values with a grid, and a dashed line marks the start score.
"""

from __future__ import annotations

import math
from typing import Any

from ..i18n import tr

COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7")
MARKERS = ("circle", "square", "triangle", "diamond")
FONT = "'Noto Sans CJK SC','WenQuanYi Micro Hei','Microsoft YaHei','PingFang SC',Arial,sans-serif"
HEIGHT = 420
LEFT, RIGHT, TOP, BOTTOM = 72, 150, 64, 92
MAX_LABELS = 28  # x labels shown at most; beyond, every few


def _esc(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;"))


def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round values covering ``low`` … ``high``: steps of 1, 2, 2.5 or 5 times a power of ten."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step * 0.999:
        ticks.append(round(value, 6))
        value += step
    return ticks


def _tick(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _marker(kind: str, x: float, y: float, colour: str, size: float = 4.0) -> str:
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size:.1f}" fill="{colour}"/>'
    if kind == "square":
        s = size * 0.9
        return f'<rect x="{x - s:.1f}" y="{y - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}" fill="{colour}"/>'
    if kind == "triangle":
        s = size * 1.2
        return (f'<polygon points="{x:.1f},{y - s:.1f} {x + s:.1f},{y + s * 0.8:.1f} {x - s:.1f},{y + s * 0.8:.1f}" '
                f'fill="{colour}"/>')
    s = size * 1.2
    return f'<polygon points="{x:.1f},{y - s:.1f} {x + s:.1f},{y:.1f} {x:.1f},{y + s:.1f} {x - s:.1f},{y:.1f}" ' \
           f'fill="{colour}"/>'


def sheet_svg(name: str, sheet: Any, lang: str = "en") -> str:
    """The picture of ``sheet`` (mjcalc.game.Sheet) as an SVG document."""
    players = sheet.players
    hands = sheet.hands
    start = [hands[0].start[p] for p in range(4)] if hands else list(sheet.final.scores)
    series = [[start[p]] + [h.end[p] for h in hands] for p in range(4)]
    labels = [tr("start", lang)] + [f"{h.number} {h.label}" for h in hands]
    points = len(labels)
    step = 34 if points <= 20 else 24 if points <= 40 else max(6, 900 // points)
    plot_w = max(480, step * (points - 1))
    width = LEFT + plot_w + RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    origin = sheet.hands[0].start[0] if hands and len(set(start)) == 1 else 0
    low = min(min(min(s) for s in series), origin)
    high = max(max(max(s) for s in series), origin)
    ticks = nice_ticks(low, high)
    y0, y1 = ticks[0], ticks[-1]

    def x_at(i: int) -> float:
        return LEFT + (plot_w * i / (points - 1) if points > 1 else plot_w / 2)

    def y_at(v: float) -> float:
        return TOP + plot_h - (v - y0) * plot_h / ((y1 - y0) or 1)

    title = f"{name} · {sheet.ruleset}"
    status = tr("ended", lang) if sheet.final.ended else tr("after {n} hands", lang).format(
        n=hands[-1].number if hands else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{HEIGHT}" '
           f'viewBox="0 0 {width} {HEIGHT}" font-family="{FONT}" font-size="12">',
           f"<title>{_esc(title)}</title>",
           f'<rect width="{width}" height="{HEIGHT}" fill="#ffffff"/>',
           f'<text x="{LEFT}" y="22" font-size="16" font-weight="bold" fill="#222">{_esc(title)}'
           f'<tspan font-weight="normal" fill="#666"> · {_esc(status)}</tspan></text>']
    # legend: each player's marker, colour and name
    lx = LEFT
    for p in range(4):
        out.append(f'<g class="legend" data-player="{p}">'
                   f'<line x1="{lx}" y1="42" x2="{lx + 22}" y2="42" stroke="{COLOURS[p]}" stroke-width="2.5"/>'
                   + _marker(MARKERS[p], lx + 11, 42, COLOURS[p]) +
                   f'<text x="{lx + 28}" y="46" fill="#222">{_esc(players[p])}</text></g>')
        lx += 40 + 8 * min(24, len(players[p])) + (8 * sum(1 for ch in players[p][:24] if ord(ch) > 0x2E80))
    # grid and y axis
    out.append('<g class="y-axis">')
    for t in ticks:
        y = y_at(t)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#e3e3e3"/>')
        out.append(f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end" fill="#444">{_tick(t)}</text>')
    out.append("</g>")
    oy = y_at(origin)
    out.append(f'<line class="start-line" x1="{LEFT}" y1="{oy:.1f}" x2="{LEFT + plot_w}" y2="{oy:.1f}" '
               f'stroke="#555" stroke-width="1.2" stroke-dasharray="6 4"/>')
    out.append(f'<text x="{LEFT + plot_w - 4}" y="{oy - 5:.1f}" text-anchor="end" fill="#555" font-size="11" '
               f'stroke="#ffffff" stroke-width="3" paint-order="stroke">'
               f'{_esc(tr("start {score}", lang).format(score=origin))}</text>')
    out.append(f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}" stroke="#888"/>')
    out.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#888"/>')
    # x axis: the hand labels, every few when there are many
    every = max(1, math.ceil(points / MAX_LABELS))
    out.append('<g class="x-axis">')
    for i, label in enumerate(labels):
        x = x_at(i)
        out.append(f'<line x1="{x:.1f}" y1="{TOP + plot_h}" x2="{x:.1f}" y2="{TOP + plot_h + 4}" stroke="#888"/>')
        if i % every == 0 or i == points - 1:
            ly = TOP + plot_h + 14
            out.append(f'<text x="{x:.1f}" y="{ly}" text-anchor="end" fill="#444" font-size="11" '
                       f'transform="rotate(-40 {x:.1f} {ly})">{_esc(label)}</text>')
    out.append("</g>")
    # the players' lines, markers and end labels
    markers_on = points <= 60
    ends: list[tuple[float, int]] = []
    for p in range(4):
        coords = " ".join(f"{x_at(i):.1f},{y_at(v):.1f}" for i, v in enumerate(series[p]))
        out.append(f'<g class="player" data-player="{p}"><title>{_esc(players[p])}</title>'
                   f'<polyline points="{coords}" fill="none" stroke="{COLOURS[p]}" stroke-width="2.5" '
                   f'stroke-linejoin="round"/>')
        for i, v in enumerate(series[p]):
            if markers_on or i == points - 1:
                out.append(_marker(MARKERS[p], x_at(i), y_at(v), COLOURS[p], 3.5))
        out.append("</g>")
        ends.append((y_at(series[p][-1]), p))
    ends.sort()
    placed: list[float] = []
    for y, p in ends:  # end labels kept 15 px apart
        y = max(y, placed[-1] + 15) if placed else y
        placed.append(y)
        out.append(f'<text class="end-label" x="{LEFT + plot_w + 10}" y="{y + 4:.1f}" fill="{COLOURS[p]}" '
                   f'font-weight="bold">{_esc(players[p][:14])} {series[p][-1]}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"

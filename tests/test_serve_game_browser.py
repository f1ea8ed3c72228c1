"""A game on the page of ``mjcalc serve``, in Debian's Chromium at 390 px (Playwright, as
``tests/test_serve_browser.py``): a game started from the form, two phones joined to it — a hand recorded on one
appears on the other, a hand the other was entering is cleared and said to be taken, an undo reaches both —;
the form read whole at 360 and 430 px in both languages; a finished game's sheet, ranking and chart, whose
screenshot is kept in the test's folder (and in ``MJCALC_SCREENSHOTS`` when set) for a person to read.

The server is ``python -m mjcalc serve`` on a free port of 127.0.0.1 with a games' file of its own.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import launched, need_chromium

H = "123m456p789s111z 22z"

need_chromium()

from playwright.sync_api import Browser, Page, expect  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("games") / "games.db"
    proc = subprocess.Popen([sys.executable, "-m", "mjcalc", "serve", "--host", "127.0.0.1", "--port", "0",
                             "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, env={**os.environ, "PYTHONUNBUFFERED": "1",
                                                         "MJCALC_CONFIG": "/nonexistent/mjcalc.yaml"})
    lines: queue.Queue[str] = queue.Queue()
    said: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for text in proc.stdout:
            lines.put(text)

    threading.Thread(target=read, daemon=True).start()
    try:
        address = None
        while address is None:
            try:
                text = lines.get(timeout=30)
            except queue.Empty:
                raise AssertionError(f"mjcalc serve said no address in 30 s: {said}") from None
            said.append(text)
            found = re.search(r"http://127\.0\.0\.1:\d+/", text)
            address = found.group(0) if found else None
        with urllib.request.urlopen(address + "api/rules", timeout=60) as answer:
            assert answer.status == 200
        yield address
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=15)
        while not lines.empty():
            said.append(lines.get())
        assert not any("Traceback" in line for line in said), "".join(said)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as chromium:
        yield chromium


def phone(browser: Browser, url: str, lang: str = "en", width: int = 390) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="zh-CN" if lang == "zh" else "en-US",
                                  has_touch=True, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return page, errors


def api(server: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req, timeout=30) as answer:
        return json.loads(answer.read())


def settled(page: Page) -> None:
    page.locator("body[data-busy='0']").wait_for(state="attached", timeout=15_000)


def no_horizontal_scroll(page: Page) -> None:
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width <= inner, f"the page scrolls sideways: {width} px wide in a {inner} px window"


def rows(page: Page) -> list[str]:
    return [r.get_attribute("data-changes") or "" for r in page.locator("table.sheet tbody tr").all()]


def test_two_phones_at_one_table(browser: Browser, server: str) -> None:
    first, errors = phone(browser, server + "#game")
    first.locator("#game-names input").first.wait_for()
    for i, name in enumerate(["Ann", "Bo", "Cy", "Di"]):
        first.fill(f"#game-names input[data-player='{i}']", name)
    first.select_option("#game-rules", "riichi-tenhou")
    first.click("#game-dealer button[data-player='1']")  # Bo deals first
    first.click("#game-start-btn")
    first.locator("#game-play:not([hidden])").wait_for()
    game = re.search(r"#game=([A-Za-z0-9_-]{22,})$", first.url)
    assert game, first.url
    assert first.locator("#game-next .stand.dealer").get_attribute("data-player") == "0"  # Bo, now first
    sheet = api(server, "GET", f"api/games/{game.group(1)}")
    assert sheet["players"] == ["Bo", "Cy", "Di", "Ann"]
    assert first.locator("#game-link").input_value() == first.url
    expect(first.locator("#game-qr")).to_have_js_property("complete", True)
    assert first.locator("#game-qr").evaluate("img => img.naturalWidth") > 100  # the QR code drawn

    second, errors2 = phone(browser, first.url)  # the link, as the QR code gives it
    second.locator("#game-play:not([hidden])").wait_for()
    expect(second.locator("#game-live.on")).to_be_visible(timeout=5000)
    expect(first.locator("#game-live.on")).to_be_visible(timeout=5000)

    # the first phone records hand 1: Cy ron Di, Cy in riichi, the hand typed and a tile tapped
    first.click("#winner-pick button[data-value='1']")
    first.click("#from-pick button[data-value='2']")
    first.click("#riichi-pick button[data-value='1']")
    first.fill("#notation", "123m456p789s111z2z")
    first.click("#palette button[data-tile='2z']")
    settled(first)
    expect(first.locator("#game-preview .stand[data-player='1']")).to_have_attribute("data-change", "3200")
    expect(first.locator("#result")).to_have_attribute("data-result", "win")
    # meanwhile the second phone starts entering the same hand
    second.click("#winner-pick button[data-value='3']")
    first.click("#game-record-btn")
    expect(first.locator("#record-message")).to_have_text(re.compile("recorded"))
    expect(second.locator("table.sheet tbody tr")).to_have_count(1, timeout=3000)  # within the second
    assert rows(second) == rows(first) == ["0,3200,-3200,0"]
    expect(second.locator("#record-message")).to_contain_text("Another phone recorded this hand first")
    assert second.locator("#winner-pick button.on").count() == 0  # its half-entered hand 1 is gone
    assert first.locator("#notation").input_value() == ""

    # the second phone records hand 2, a draw with Ann ready; the first sees it
    second.click("#record-kind button[data-value='draw']")
    second.click("#ready-pick button[data-value='3']")
    settled(second)
    second.click("#game-record-btn")
    expect(first.locator("table.sheet tbody tr")).to_have_count(2, timeout=3000)
    assert rows(first)[1] == "-1000,-1000,-1000,3000"
    kept = api(server, "GET", f"api/games/{game.group(1)}")
    assert [h["changes"] for h in kept["hands"]] == [[0, 3200, -3200, 0], [-1000, -1000, -1000, 3000]]
    assert [int(x.get_attribute("data-score") or 0) for x in first.locator("#game-next .stand").all()] == \
        kept["final"]["scores"]

    # undo takes two taps; both phones lose the draw
    first.click("#game-undo")
    assert rows(first) == rows(second) and len(rows(first)) == 2
    first.click("#game-undo")
    expect(first.locator("table.sheet tbody tr")).to_have_count(1, timeout=3000)
    expect(second.locator("table.sheet tbody tr")).to_have_count(1, timeout=3000)
    no_horizontal_scroll(first)
    no_horizontal_scroll(second)
    assert not errors and not errors2, errors + errors2


@pytest.mark.parametrize("width", [360, 430])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_game_reads_whole_one_handed(browser: Browser, server: str, width: int, lang: str) -> None:
    made = api(server, "POST", "api/games", {"game": {"players": ["东家老王", "Bo", "小李子", "Di"],
                                                      "rules": "changchun"}})
    api(server, "POST", f"api/games/{made['id']}/results", {"hand": 1, "result": {"win": [{"winner": "Bo", "from": "Di",
                                                                                             "hand": H}]}})
    page, errors = phone(browser, f"{server}#game={made['id']}", lang, width)
    page.locator("#game-play:not([hidden])").wait_for()
    expect(page.locator("table.sheet tbody tr")).to_have_count(1)
    # the stream's first sheet drawn: no redraw under the measuring below
    page.locator("body[data-live='1']").wait_for(state="attached", timeout=15_000)
    for kind in ("win", "draw", "penalty"):
        page.click(f"#record-kind button[data-value='{kind}']")
        settled(page)
        no_horizontal_scroll(page)
        # every button a thumb taps is at least 44 px high and whole on the screen
        for button in page.locator("#game-record-card button:visible").all():
            box = button.bounding_box()
            assert box is not None and box["height"] >= 40 and box["x"] >= 0 and box["x"] + box["width"] <= width
        if kind == "draw":  # Changchun: other players' kongs are paid apart; no riichi, no ready players
            assert page.locator("#rec-kongs:visible").count() == 1
            assert page.locator("#rec-riichi:visible").count() == page.locator("#rec-ready:visible").count() == 0
    page.goto(f"{server}#game")
    page.locator("#game-start:not([hidden])").wait_for()
    no_horizontal_scroll(page)
    assert not errors, errors


def _points(value: float) -> str:
    """Final points as the page writes them: to one decimal, a whole number without it, a sign before a gain."""
    tenths = round(value * 10) / 10
    text = str(int(tenths)) if tenths.is_integer() else str(tenths)
    return "+" + text if tenths > 0 else text


def test_a_finished_game_a_person_can_read(browser: Browser, server: str, tmp_path: Path) -> None:
    made = api(server, "POST", "api/games", {"game": {"players": ["Ann", "Bo", "Cy", "Di"], "rules": "riichi-mleague",
                                                      "set": {"length": "tonpuu"}}})
    game = made["id"]
    results = [
        {"win": [{"winner": "Bo", "from": "Cy", "hand": "234m456p678s33z 555z"}], "riichi": ["Bo"]},
        {"draw": {"ready": ["Ann", "Di"]}},
        {"win": [{"winner": "Cy", "hand": "22m345678p234567s"}], "riichi": ["Cy", "Ann"]},
        {"win": [{"winner": "Di", "from": "Ann", "hand": "234m345p55678s 888s"}]},
        {"win": [{"winner": "Ann", "from": "Bo", "hand": "123456789m 11p 789s"}]},
    ]
    sheet = made["sheet"]
    for result in results:
        if sheet["final"]["ended"]:
            break
        sheet = api(server, "POST", f"api/games/{game}/results", {"hand": sheet["final"]["next"]["number"],
                                                                   "result": result})
    assert sheet["final"]["ended"], sheet["final"]
    page, errors = phone(browser, f"{server}#game={game}")
    page.locator("#game-play:not([hidden])").wait_for()
    expect(page.locator("table.sheet tbody tr")).to_have_count(len(sheet["hands"]))
    assert page.locator("#game-record-card").is_hidden()  # nothing more to record
    expect(page.locator("#game-next")).to_contain_text("The game has ended")
    standing = page.locator("#game-next .stand").all()
    assert [int(s.get_attribute("data-player") or -1) for s in standing] == sheet["final"]["ranking"]
    for place, cell in zip(sheet["final"]["ranking"], standing):
        expect(cell).to_contain_text(str(sheet["final"]["scores"][place]))
        expect(cell).to_contain_text(_points(sheet["final"]["points"][place]))
    chart = page.locator("#game-chart svg.chart-svg")
    assert chart.locator("polyline").count() == 4
    expect(page.locator("#game-chart .legend")).to_contain_text("Ann")
    no_horizontal_scroll(page)
    shot = tmp_path / "finished-game-390.png"
    page.screenshot(path=str(shot), full_page=True)
    page.locator("#game-sheet-card").screenshot(path=str(tmp_path / "finished-sheet.png"))
    page.locator("#game-chart-card").screenshot(path=str(tmp_path / "finished-chart.png"))
    keep = os.environ.get("MJCALC_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        for name in ("finished-game-390.png", "finished-sheet.png", "finished-chart.png"):
            shutil.copy(tmp_path / name, Path(keep) / name)
    assert shot.stat().st_size > 20_000
    assert not errors, errors

"""The page of ``mjcalc serve`` in a real headless Chromium (Debian's ``chromium``, driven by Playwright; no
browser is downloaded): type a hand and read the payments, build one by tapping the palette in each
ruleset, open a share link, switch the language, and a phone-sized screenshot with no horizontal scroll.

The server is ``python -m mjcalc serve --port 0`` started here and stopped at the end (its process group
with it); what the page shows is checked against ``mjcalc.score`` / ``mjcalc.waits`` for the same line.
Without Chromium or Playwright these tests are skipped on a developer's machine, and fail in CI (CI=true),
where ``.ci/run`` installs Chromium.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import PHONE, launched, need_chromium

import mjcalc
import mjcalc.web.jobs

need_chromium()

from playwright.sync_api import Browser, Page, expect  # noqa: E402


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The address of a ``mjcalc serve`` on a free port of the loopback, for this module's tests."""
    proc = subprocess.Popen([sys.executable, "-m", "mjcalc", "serve", "--host", "127.0.0.1", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for text in proc.stdout:
            lines.put(text)

    reader = threading.Thread(target=read, daemon=True, name="mjcalc serve output")
    reader.start()
    try:
        said: list[str] = []
        address = None
        while address is None:
            try:
                text = lines.get(timeout=30)
            except queue.Empty:
                raise AssertionError(f"mjcalc serve said no address in 30 s: {said}") from None
            said.append(text)
            found = re.search(r"http://127\.0\.0\.1:\d+/", text)
            address = found.group(0) if found else None
        with urllib.request.urlopen(address + "api/rules", timeout=30) as answer:
            assert answer.status == 200
        yield address
        if proc.poll() is not None:  # it stopped by itself while the tests ran: say what it said
            reader.join(timeout=5)
            while not lines.empty():
                said.append(lines.get())
            raise AssertionError(f"mjcalc serve stopped (exit {proc.returncode}) during the tests: {''.join(said)}")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C: the server stops its workers
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=15)
        reader.join(timeout=5)
        if proc.stdout is not None:
            proc.stdout.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as chromium:
        yield chromium


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
    phone = context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    phone.goto(server)
    settled(phone)
    yield phone
    context.close()
    assert not errors, f"the page raised: {errors}"


def settled(page: Page) -> None:
    """Wait until the page has scored what it shows (the debounce and the requests are over), and that the
    server answered."""
    # a selector, not wait_for_function: its polling evaluates a string, which the page's policy refuses
    page.locator("body[data-busy='0']").wait_for(state="attached", timeout=15_000)
    assert page.locator("#result").get_attribute("data-result") != "unreachable", page.locator("#error").inner_text()


def no_horizontal_scroll(page: Page) -> None:
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width <= inner, f"the page scrolls sideways: {width} px wide in a {inner} px window"


def shown_payments(page: Page) -> list[tuple[str, str, int]]:
    rows = page.locator("table.payments tbody tr")
    return [(r.get_attribute("data-payer") or "", r.get_attribute("data-payee") or "",
             int(r.get_attribute("data-amount") or "0")) for r in rows.all()]


def shown_net(page: Page) -> dict[str, int]:
    return {r.get_attribute("data-seat") or "": int(r.get_attribute("data-net") or "0")
            for r in page.locator("table.net tbody tr").all()}


def agrees(page: Page, line: str, rules: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The page shows for ``line`` what mjcalc.score gives in the page's language: its result, payments (their
    formulas are translated), each seat's net."""
    lang = "zh" if page.locator("html").get_attribute("lang") == "zh" else "en"
    expected = mjcalc.score(line, rules=rules, options=options, lang=lang)
    result = page.locator("#result")
    assert result.get_attribute("data-line") == line
    assert result.get_attribute("data-result") == expected["result"], (line, page.locator("#error").inner_text())
    if expected["result"] == "win":
        assert shown_payments(page) == [(p["payer"], p["payee"], p["amount"]) for p in expected["payments"]]
        assert shown_net(page) == expected["net"]
        assert result.get_attribute("data-points") == str(expected["points"])
        for p in expected["payments"]:
            expect(page.locator("table.payments")).to_contain_text(p["formula"])
        shown_items = [r.get_attribute("data-item") for r in page.locator("table.items tbody tr").all()]
        assert shown_items == [i["id"] for i in expected["items"]]
    return expected


def pick_ruleset(page: Page, rules: str) -> None:
    page.select_option("#ruleset", rules)
    settled(page)


def tap(page: Page, *keys: str) -> None:
    """Tap palette keys: a tile (``5m``), or a mode button (``@pon``) before the tile it applies to."""
    for key in keys:
        if key.startswith("@"):
            page.locator(f"#modes button[data-mode='{key[1:]}']").click()
        elif key.startswith("+"):
            page.locator(f"#flags button.toggle[data-flag='{key[1:]}']").click()
        else:
            page.locator(f"#palette button[data-tile='{key}']").click()
        settled(page)  # as a player does: the next tap once the answer is in


def test_type_a_hand_and_read_the_payments(page: Page) -> None:
    pick_ruleset(page, "jilin")
    page.locator("#notation").press_sequentially("123m456p13s777z55z 2s +from=W +closed=N", delay=5)
    settled(page)
    expected = agrees(page, "123m456p13s777z55z 2s +from=W +closed=N", "jilin")
    assert expected["points"] == 24
    # the tiles are drawn, in the hand and the reading
    assert page.locator("#hand-strip .tile img").count() == 14
    reading = page.locator("#result .line .group[data-group] .tile")
    assert reading.count() >= 14
    # Enter: the typed flags move to their toggles, and the line scored stays the same
    page.locator("#notation").press("Enter")
    settled(page)
    assert page.locator("#notation").input_value() == "123m456p13s777z55z 2s"
    assert page.locator("#flags [data-flag='from'] button.on").get_attribute("data-value") == "W"
    assert page.locator("#flags [data-flag='closed'] button.on").get_attribute("data-value") == "N"
    agrees(page, "123m456p13s777z55z 2s +from=W +closed=N", "jilin")
    # a mistake: the message, and the line sent with a caret under its column
    page.locator("#notation").fill("123m456p789s11111z")
    settled(page)
    sent = "123m456p789s11111z +from=W +closed=N"
    error = mjcalc.score(sent, rules="jilin")["error"]
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#error-message")).to_contain_text(error["message"])
    echo = page.locator("#error-echo").inner_text().split("\n")
    assert echo[0] == sent
    assert echo[1].index("^") == error["column"] - 1
    assert page.locator("#result").get_attribute("data-result") == "error"


# Each ruleset built by tapping only: the keys tapped, and the line the page must write for them.
TAPPED = {
    "changchun": (["2z", "2z", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "@pon", "1z", "@win", "2z",
                   "+zimo"], "123m456p789s2z [111z] 2z +zimo"),
    "changchun-mil": (["1m", "2m", "3m", "4p", "5p", "6p", "9s", "@chi", "7s", "@pon", "1z", "9s"],
                      "123m456p9s [789s] [111z] 9s"),
    "jilin": (["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "9s", "@ankan", "1z", "9s", "+zimo"],
              "123m456p7899s (1111z) 9s +zimo"),
    "meihe": (["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "9s", "@pon", "1z", "9s", "+zimo"],
              "123m456p7899s [111z] 9s +zimo"),
    "riichi": (["2m", "3m", "4m", "0p", "6p", "7p", "7s", "8s", "9s", "9s", "@pon", "1z", "9s", "+zimo"],
               "234m067p7899s [111z] 9s +zimo"),
    "riichi-tenhou": (["2m", "3m", "4m", "0p", "6p", "7p", "7s", "8s", "9s", "9s", "@pon", "1z", "9s", "+zimo"],
                      "234m067p7899s [111z] 9s +zimo"),
    "riichi-mleague": (["2m", "3m", "4m", "0p", "6p", "7p", "7s", "8s", "9s", "9s", "@pon", "1z", "9s", "+zimo"],
                       "234m067p7899s [111z] 9s +zimo"),
    "mcr": (["4m", "5m", "6m", "7m", "8m", "9m", "9m", "@chi", "1m", "@pon", "1m", "9m", "1f"],
            "4567899m [123m] [111m] 1f 9m"),
    "taiwan": (["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "9s", "@chi", "4p", "9s",
                "1f"], "123456789m123p9s [456p] 1f 9s"),
    "taiwan-common": (["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "9s", "@kong", "4p",
                       "9s", "2f", "+zimo"], "123456789m123p9s [4444p] 2f 9s +zimo"),
}


def test_build_a_hand_by_tapping_only_in_every_ruleset(page: Page) -> None:
    builtin = mjcalc.api.rulesets()
    assert page.locator("#ruleset option").evaluate_all("os => os.map(o => o.value)") == list(builtin)
    assert sorted(TAPPED) == sorted(builtin), "every ruleset (and preset) has a hand tapped here"
    for rules, (keys, line) in TAPPED.items():
        pick_ruleset(page, rules)
        page.locator("#clear").click()
        shown = builtin[rules]
        # the palette follows the ruleset: red fives for riichi only, flowers where the ruleset has them
        assert page.locator("#palette button[data-tile='0m']").count() == (1 if shown["hand"]["red_fives"] else 0)
        assert page.locator("#palette button[data-tile='1f']").count() == (1 if shown["hand"]["flowers"] else 0)
        for flag in ("zimo", "riichi"):  # the context toggles start from the defaults
            toggle = page.locator(f"#flags button.toggle[data-flag='{flag}'][aria-pressed='true']")
            if toggle.count():
                toggle.click()
        tap(page, *keys)
        settled(page)
        assert page.locator("#result").get_attribute("data-line") == line, rules
        expected = agrees(page, line, rules)
        assert expected["result"] == "win", (rules, expected)
        no_horizontal_scroll(page)


def test_tile_flags_options_and_undo(page: Page) -> None:
    pick_ruleset(page, "meihe")
    tap(page, "1m", "1m", "1m", "9p", "9p", "9p", "3s", "2z", "2z", "7z", "5m", "5m", "5m", "5m", "+zimo")
    page.locator("#flags [data-flag='hui'] button[data-value='pick']").click()
    tap(page, "5m")  # the palette now sets +hui
    settled(page)
    line = "111555m999p3s227z 5m +zimo +hui=5m"
    expected = agrees(page, line, "meihe")
    assert expected["substitutions"]
    assert page.locator("#result .sub").count() == len(expected["substitutions"])
    assert page.locator("table.kongs tbody tr").count() == len(expected["kong_payments"])
    page.locator("#undo").click()
    settled(page)
    assert page.locator("#notation").input_value() == "11155m999p3s227z 5m"  # the last tile tapped is gone
    # another ruleset keeps the table's context (+zimo); an option: the base doubles every payment
    pick_ruleset(page, "changchun")
    page.locator("#notation").fill("123m456p789s111z22z")
    page.locator("#options-card summary").click()
    page.locator("#options input[data-option='base']").fill("2")
    settled(page)
    assert agrees(page, "123m456p789s111z22z +zimo", "changchun", {"base": "2"})["points"] == 2 * mjcalc.score(
        "123m456p789s111z22z +zimo")["points"]


def test_a_waiting_hand_lists_every_wait(page: Page) -> None:
    page.locator("#notation").fill("123m456p789s11z22z")
    settled(page)
    expected = mjcalc.waits("123m456p789s11z22z")
    rows = page.locator("table.waits tbody tr")
    assert [r.get_attribute("data-tile") for r in rows.all()] == [w["tile"] for w in expected["waits"]]
    for row, wait in zip(rows.all(), expected["waits"]):
        assert row.get_attribute("data-self-drawn") == str(wait["self_drawn"].get("points", ""))
        assert row.get_attribute("data-discard") == str(wait["discard"].get("points", ""))
        assert row.locator(".tile img").count() >= 1


def test_pao_the_liable_player_and_what_each_pays(page: Page) -> None:
    pick_ruleset(page, "riichi")
    page.locator("#notation").fill("11p [555z] [666z] [777z] 23p 1p +from=N +honba=2 +pao=W")
    settled(page)
    page.locator("#notation").press("Enter")  # the typed flags move to their controls
    settled(page)
    line = "11p [555z] [666z] [777z] 23p 1p +from=N +honba=2 +pao=W"
    expected = agrees(page, line, "riichi")
    assert [(p["payer"], p["amount"], p["liable_for"]) for p in expected["payments"]] == [
        ("N", 16600, []), ("W", 16000, ["daisangen"])]   # the discarder pays the honba (riichi; GAME.md)
    pao = page.locator("#flags [data-flag='pao']")
    assert pao.locator("button.on").get_attribute("data-value") == "W"
    assert pao.locator("button[data-value='S']").is_disabled()  # never the winner
    rows = page.locator("table.payments tbody tr")
    assert [r.get_attribute("data-liable") for r in rows.all()] == ["", "daisangen"]
    expect(rows.nth(1)).to_contain_text("大三元")
    # no one liable: the discarder pays all
    pao.locator("button[data-value='none']").click()
    settled(page)
    assert agrees(page, "11p [555z] [666z] [777z] 23p 1p +from=N +honba=2", "riichi")["payments"][0]["amount"] == 32600


def test_a_share_link_reproduces_the_result(page: Page, browser: Browser) -> None:
    pick_ruleset(page, "riichi")
    page.locator("#notation").fill("234m067p78s111z99s 9s")
    tap(page, "+riichi", "+zimo")
    page.locator("#flags [data-flag='honba'] button[data-value='plus']").click()
    page.locator("#options-card summary").click()
    page.locator("#options select[data-option='kiriage']").select_option("on")
    page.locator("#lang-zh").click()
    settled(page)
    line = "234m067p78s111z99s 9s +zimo +riichi +honba=1"
    expected = agrees(page, line, "riichi", {"kiriage": "on"})
    link = page.locator("#share-link").input_value()
    assert "#" in link
    other = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        opened = other.new_page()
        opened.goto(link)
        settled(opened)
        assert opened.locator("#ruleset").input_value() == "riichi"
        assert opened.locator("html").get_attribute("lang") == "zh"
        assert agrees(opened, line, "riichi", {"kiriage": "on"}) == expected
        assert opened.locator("#result").inner_text() == page.locator("#result").inner_text()
    finally:
        other.close()


def test_switch_the_language(page: Page) -> None:
    page.locator("#notation").fill("123m456p789s111z22z +zimo +seat=E")
    settled(page)
    expected = mjcalc.score("123m456p789s111z22z +zimo +seat=E")
    names = page.locator("table.items tbody tr td:first-child .name")
    page.locator("#lang-zh").click()
    settled(page)
    assert page.locator("html").get_attribute("lang") == "zh"
    assert [n.evaluate("e => e.firstChild.textContent") for n in names.all()] == [
        i["name"]["zh"] for i in expected["items"]]
    expect(page.locator("#modes button[data-mode='pon']")).to_have_text("碰")
    page.locator("#lang-en").click()
    settled(page)
    assert [n.evaluate("e => e.firstChild.textContent") for n in names.all()] == [
        i["name"]["en"] for i in expected["items"]]
    # a not-a-win reason, in the language chosen
    page.locator("#lang-zh").click()
    page.locator("#notation").fill("123m456m789m111z22z")
    settled(page)
    zh = mjcalc.score("123m456m789m111z22z", lang="zh")
    assert page.locator("#result").get_attribute("data-result") == "not_a_win"
    for failed in zh["failed_conditions"]:
        expect(page.locator("#result .notwin")).to_contain_text(failed["message"])


def test_the_page_works_under_its_content_security_policy_and_shows_words_not_ids(page: Page) -> None:
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    response = page.reload()
    settled(page)
    assert response is not None
    policy = response.headers.get("content-security-policy", "")
    assert policy.startswith("default-src 'none'") and "'unsafe-inline'" not in policy
    assert response.headers.get("x-content-type-options") == "nosniff"
    assert response.headers.get("referrer-policy") == "no-referrer"
    assert page.locator("#palette button[data-tile='1m'] img").count() == 1  # the tiles' data: pictures load
    assert page.locator("#palette button[data-tile='1m'] img").evaluate("img => img.naturalWidth") > 0
    labels = mjcalc.web.jobs.labels()
    line = "123m456p13s777z55z 2s +from=W"  # 放炮: the discarder's alone; won on a closed wait
    page.locator("#notation").fill(line)
    settled(page)
    for lang in ("en", "zh"):
        page.locator(f"#lang-{lang}").click()
        settled(page)
        agrees(page, line, "changchun")
        applies = page.locator("table.items tbody tr[data-item='dealt_in'] td").nth(2)
        expect(applies).to_have_text(labels["applies_to"]["discarder"][lang])
        expect(page.locator("table.items tbody tr[data-item='basic_win'] td").nth(2)).to_have_text(
            labels["applies_to"]["all"][lang])
        expect(page.locator("#result")).to_contain_text(labels["wait"]["closed"][lang])
    page.locator("#options-card summary").click()
    expect(page.locator("#options")).to_contain_text("房间底分：每笔付款都是底分的倍数")  # the option's own zh doc
    assert not refused, refused


def test_phone_screenshot_without_horizontal_scroll(page: Page, tmp_path: Path) -> None:
    folder = Path(os.environ.get("MJCALC_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    no_horizontal_scroll(page)
    pick_ruleset(page, "riichi")
    page.locator("#notation").fill("234m067p78s111z99s 9s +riichi +zimo +honba=1 +sticks=1 +dora=3m")
    page.locator("#options-card summary").click()
    settled(page)
    assert page.locator("#result").get_attribute("data-result") == "win"
    no_horizontal_scroll(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(folder / "phone-390x844.png"))
    page.screenshot(path=str(folder / "phone-390-full.png"), full_page=True)
    # a long line that cannot be read: its echo scrolls inside its box, not the page
    page.locator("#notation").fill("123m456p789s " * 30 + "11111z")
    settled(page)
    no_horizontal_scroll(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(folder / "phone-390-error.png"))
    page.locator("#lang-zh").click()
    pick_ruleset(page, "taiwan")
    page.locator("#notation").fill("123456789m123p9s [456p] 1f 9s +zimo")
    settled(page)
    no_horizontal_scroll(page)
    page.screenshot(path=str(folder / "phone-390-taiwan-zh.png"), full_page=True)
    assert (folder / "phone-390x844.png").stat().st_size > 10_000


# ---------------------------------------------------------------- text that can be read whole, on a phone

# Every problem with the page's text as it is laid out now: a list of strings, empty when all is well.
# - clipped: a visible text's line box lies outside the box of a block ancestor (cut by overflow, a line clamp,
#   an ellipsis, or sticking out of its button or cell); a scroll container (overflow auto / scroll) is
#   deliberate: what is inside it is not followed further out. The form fields are left out here (the picker
#   is measured apart), and so is the screen readers' label (.sr).
# - broken: a word laid out on two lines. A word is a run of letters and digits (a hyphen, a space or a
#   bracket ends it); a run of Chinese characters is a word in a short text (12 characters or fewer: a
#   button, a header, a name) and in a text without Chinese sentence punctuation (a formula, the fu sum),
#   but not in a sentence, where Chinese may break between any two characters.
# - picker: a ruleset's name in the picker is wider than the picker can show (20 px are left for its arrow);
#   a select drawn unseen under text of the page's own (that text is checked as any other) is not measured.
LAYOUT_PROBLEMS = r"""
() => {
  const problems = [];
  const say = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\s+/).join(".") : "");
  const skip = (el) => el.closest("script, style, input, select, textarea, option, .sr, [hidden]")
    || !el.checkVisibility({visibilityProperty: true});  // inside a closed <details>, or not drawn
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const WORD = /[\p{L}\p{N}'’]+/gu;
  const HAN = /\p{Script=Han}/u;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    if (!text.trim() || skip(node.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (!rects.length) continue;  // not laid out (display: none somewhere above)
    // clipped: every line box inside each block ancestor, up to the first scroll container
    for (let box = node.parentElement; box && box !== document.documentElement; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.display.startsWith("inline") && !style.display.includes("-")) continue;  // an inline span
      if (["auto", "scroll"].includes(style.overflowX) || ["auto", "scroll"].includes(style.overflowY)) break;
      const b = box.getBoundingClientRect();
      const out = rects.find((r) => r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1
        || r.bottom > b.bottom + 1);
      if (out) {
        problems.push(`clipped: "${text.trim().slice(0, 60)}" in ${say(node.parentElement)} goes outside ${say(box)}`
          + ` (${Math.round(out.left)}..${Math.round(out.right)} x ${Math.round(out.top)}..${Math.round(out.bottom)}`
          + ` outside ${Math.round(b.left)}..${Math.round(b.right)} x ${Math.round(b.top)}..${Math.round(b.bottom)})`);
        break;
      }
    }
    // broken: each word's own range on one line
    const short = [...text.trim()].length <= 12 || !/[，。、：；！？]/.test(text);
    for (const m of text.matchAll(WORD)) {
      const parts = HAN.test(m[0]) ? (short ? [m] : []) : [m];
      for (const part of parts) {
        const w = document.createRange();
        w.setStart(node, part.index);
        w.setEnd(node, part.index + part[0].length);
        const tops = new Set([...w.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top / 3)));
        if (tops.size > 1) problems.push(`broken: "${part[0]}" in ${say(node.parentElement)} ("${text.trim().slice(0, 60)}")`);
      }
    }
  }
  if (document.scrollingElement.scrollWidth > innerWidth) problems.push("the page scrolls sideways");
  // the picker: each ruleset's name as the closed picker draws it, in the picker's font
  const sel = document.getElementById("ruleset");
  const style = getComputedStyle(sel);
  if (style.opacity === "0") return problems;
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = sel.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
  for (const o of sel.options) {
    const wide = pen.measureText(o.text).width;
    if (wide > room) problems.push(`picker: "${o.text}" is ${Math.round(wide)} px, the picker shows ${Math.round(room)}`);
  }
  return problems;
}
"""

# The error's echo: where its offending character and its caret are drawn, and the box that shows them.
ECHO_PLACES = r"""
(column) => {
  const echo = document.getElementById("error-echo");
  const nodes = [];
  const walker = document.createTreeWalker(echo, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
  const all = nodes.map((n) => n.textContent).join("");
  const place = (at) => {  // the rectangle of the character at code unit `at` of the echo's text
    let start = 0;
    for (const n of nodes) {
      if (at < start + n.textContent.length) {
        const r = document.createRange();
        r.setStart(n, at - start);
        r.setEnd(n, at - start + 1);
        const b = r.getBoundingClientRect();
        return {left: b.left, right: b.right, top: b.top, bottom: b.bottom};
      }
      start += n.textContent.length;
    }
    return null;
  };
  const lines = all.split("\n");
  const offending = [...lines[0]].slice(0, column - 1).join("").length;  // code points, as the column counts
  const caret = lines[0].length + 1 + lines[1].indexOf("^");
  const box = echo.getBoundingClientRect();
  return {lines, char: place(offending), caret: place(caret),
          box: {left: box.left + echo.clientLeft, right: box.left + echo.clientLeft + echo.clientWidth,
                top: box.top, bottom: box.bottom}};
}
"""


def layout_problems(page: Page) -> list[str]:
    page.evaluate("document.fonts.ready")
    return page.evaluate(LAYOUT_PROBLEMS)


# The page in each state a player meets it, each ruleset's own controls and tables: (ruleset, line).
SEEN = [
    ("changchun", ""),
    ("changchun", "123m456p13s777z55z 2s +from=W +closed=N"),
    ("changchun", "123m456p789s11z22z"),  # waiting: the waits table
    ("changchun", "123m456m789m111z22z"),  # not a win
    ("changchun-mil", "123m456p9s [789s] [111z] 9s"),
    ("meihe", "111555m999p3s227z 5m +zimo +hui=5m"),  # a wildcard, kong points
    ("riichi", "234m067p78s111z99s 9s +riichi +zimo +honba=1 +sticks=1 +dora=3m"),
    ("mcr", "4567899m [123m] [111m] 1f 9m"),
    ("taiwan-common", "123456789m123p9s [4444p] 2f 9s +zimo"),
    ("jilin", "123m456p789s11111z"),  # an error
]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_text_is_clipped_and_no_word_broken_at_390_px(page: Page, lang: str) -> None:
    page.locator(f"#lang-{lang}").click()
    settled(page)
    page.locator("#options-card summary").click()
    seen: list[str] = []
    for rules, line in SEEN:
        pick_ruleset(page, rules)
        page.locator("#notation").fill(line)
        settled(page)
        assert page.locator("#result").get_attribute("data-line") in (line, None, ""), line
        seen += [f"{rules} {line!r}: {p}" for p in layout_problems(page)]
    assert not seen, "\n".join(seen)


@pytest.mark.parametrize("width", [320, 430])
def test_every_ruleset_reads_whole_at_320_and_430_px(browser: Browser, server: str, width: int) -> None:
    """The controls (the picker showing each ruleset's name, the modes, the context) at a small and a large
    phone, in both languages."""
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="en-US", has_touch=True,
                                  is_mobile=True)
    try:
        phone = context.new_page()
        phone.goto(server)
        settled(phone)
        seen: list[str] = []
        for lang in ("en", "zh"):
            phone.locator(f"#lang-{lang}").click()
            settled(phone)
            for rules in mjcalc.api.rulesets():
                pick_ruleset(phone, rules)
                seen += [f"{lang} {rules}: {p}" for p in layout_problems(phone)]
        assert not seen, "\n".join(seen)
    finally:
        context.close()


# Errors whose caret must land under the right character: wide characters (Chinese, full-width) before the
# column, a column in the middle, and a line far wider than a phone (its echo scrolls to the caret).
ERRORS = ["123m456p789s东东东南南 5q", "１２３ｍ456p789s111z22q", "123万456筒789条11东", "123m456p789s11111z",
          "123m456p789s " * 12 + "11111z"]


@pytest.mark.parametrize("width", [320, 390, 430])
def test_an_error_is_shown_whole_with_its_caret_under_the_column(browser: Browser, server: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="en-US", has_touch=True,
                                  is_mobile=True)
    try:
        phone = context.new_page()
        phone.goto(server)
        settled(phone)
        for lang in ("en", "zh"):
            phone.locator(f"#lang-{lang}").click()
            settled(phone)
            for line in ERRORS:
                phone.locator("#notation").fill(line)
                settled(phone)
                error = mjcalc.score(line, rules="changchun", lang=lang)["error"]
                expect(phone.locator("#error")).to_be_visible()
                expect(phone.locator("#error-message")).to_contain_text(error["message"])
                assert layout_problems(phone) == [], (width, lang, line)
                places = phone.evaluate(ECHO_PLACES, error["column"])
                assert places["lines"][0] == line.strip() or places["lines"][0] == line, places["lines"]
                char, caret, box = places["char"], places["caret"], places["box"]
                middle = (caret["left"] + caret["right"]) / 2
                assert char["left"] <= middle <= char["right"], (width, lang, line, char, caret)
                assert caret["top"] >= char["bottom"] - 1, "the caret is on the line under the echo"
                for seen in (char, caret):  # both in view inside the echo's box, scrolled there if need be
                    assert box["left"] - 1 <= seen["left"] and seen["right"] <= box["right"] + 1, (width, line, seen, box)
                    assert box["top"] <= seen["top"] and seen["bottom"] <= box["bottom"], (width, line, seen, box)
    finally:
        context.close()


def test_the_page_waits_out_a_server_that_does_not_answer_yet(browser: Browser, server: str) -> None:
    """Its start-up request tried again with backoff: a dropped request and a 503 first, then the page."""
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
    phone = context.new_page()
    tries: list[str] = []

    def flaky(route: Any) -> None:
        tries.append(route.request.url)
        if len(tries) == 1:
            route.abort()
        elif len(tries) == 2:
            route.fulfill(status=503, content_type="application/json",
                          body='{"result": "error", "error": {"kind": "busy", "message": "busy", "column": null}}')
        else:
            route.continue_()

    phone.route("**/api/rules", flaky)
    phone.goto(server)
    settled(phone)
    assert len(tries) == 3 and phone.locator("body").get_attribute("data-retries") == "2"
    assert phone.locator("#ruleset option").count() > 5
    context.close()

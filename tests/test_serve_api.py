"""``mjcalc serve``'s JSON API with Starlette's test client, against the command line: on every built-in ruleset
``POST /api/score`` and ``POST /api/waits`` answer byte for byte what ``score --json`` / ``waits --json`` print,
``GET /api/rules`` is ``rules show --json``; the errors, the limits, the refusal of ruleset files, the time limit
(a worker that does not answer is killed and replaced); and the command itself (start-up line, without the
extra, a port in use, the other commands not importing the web)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_samples import cli, sample, set_args

if os.environ.get("CI"):  # CI installs the serve extra ('.[test]' has it): there, a missing one is a failure
    import starlette  # noqa: F401
else:  # a developer's environment made before the extra existed
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")

from starlette.testclient import TestClient

import mjcalc
from mjcalc.core.context import FLAGS
from mjcalc.support.builtin import builtin_names
from mjcalc.web.app import MAX_BODY, MAX_OPTIONS, create_app
from mjcalc.web.server import banner

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(mjcalc.__file__).resolve().parent
QUICK = "123m456p789s111z22z +zimo +seat=E"
SAMPLE = sample(10, 1, 3)
JSON_TYPE = {"content-type": "application/json"}  # tests/test_api.py compares more lines through the same mjcalc.api


def _no_leak(text: str) -> None:
    """No answer names a file of this machine or shows a traceback."""
    for secret in (str(ROOT), str(PACKAGE), "site-packages", "Traceback", 'File "'):
        assert secret not in text, secret


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    application = create_app(workers=2)
    with TestClient(application) as c:
        yield c
    assert application.pool is not None and not application.pool.workers  # all stopped by the lifespan


def _post(client: TestClient, path: str, body: Any) -> Any:
    r = client.post(path, json=body) if not isinstance(body, (bytes, str)) else client.post(path, content=body,
                                                                                             headers=JSON_TYPE)
    _no_leak(r.text)
    return r


def test_the_sample_covers_every_builtin_ruleset() -> None:
    assert {rules for rules, _, _ in SAMPLE} >= set(builtin_names())


def test_score_is_score_json_byte_for_byte_on_every_ruleset(client: TestClient) -> None:
    seen: dict[str, set[str]] = {}
    for rules, line, options in SAMPLE:
        r = cli("score", line, "--json", "--rules", rules, *set_args(options))
        answer = _post(client, "/api/score", {"hand": line, "rules": rules, "set": options})
        if r.exit_code == 3:  # an option the ruleset cannot have: the CLI stops, the API says why
            assert answer.status_code == 400 and answer.json()["error"]["kind"] == "ruleset"
            continue
        assert answer.status_code == 200, (rules, line)
        assert answer.headers["content-type"] == "application/json; charset=utf-8"
        assert answer.content == r.stdout_bytes, (rules, line)
        seen.setdefault(rules, set()).add(answer.json()["result"])
    assert set(seen) >= set(builtin_names())
    assert {"win", "not_a_win", "error"} <= set().union(*seen.values())


def test_chinese_suits_read_as_the_command_line_reads_them(client: TestClient) -> None:
    for line in ("123万456筒789条东东东南南 +zimo +bao=5万", "123万456筒789条东东东南x", "万23万456筒789条东东东南南"):
        r = cli("score", line, "--json", "--rules", "jilin")
        answer = _post(client, "/api/score", {"hand": line, "rules": "jilin"})
        assert answer.content == r.stdout_bytes, line
    assert _post(client, "/api/score", {"hand": "123万456筒789条东东东南x"}).json()["error"]["column"] == 17


@pytest.mark.parametrize(("rules", "option", "value"), [("changchun", "base", 2), ("riichi", "aka", False),
                                                      ("mcr", "wait_fans", "by_reading"), ("taiwan", "per_tai", 3)])
def test_score_in_chinese_and_with_options_is_score_json(client: TestClient, rules: str, option: str,
                                                         value: Any) -> None:
    line = next(ln for r, ln, o in SAMPLE if r == rules and not o)
    for text in (line, "123m456p789s11z22z", "123m456p789s111z2x"):  # a win or not, a line that is no hand
        r = cli("score", text, "--json", "--rules", rules, "--lang", "zh", *set_args({option: value}))
        assert r.exit_code != 3, r.output
        answer = _post(client, "/api/score", {"hand": text, "rules": rules, "lang": "zh", "set": {option: value}})
        assert answer.content == r.stdout_bytes
        # an option as the command line gives it (text) or as JSON does (a number, true / false): the same answer
        as_text = str(value).lower() if isinstance(value, bool) else str(value)
        answer = _post(client, "/api/score", {"hand": text, "rules": rules, "lang": "zh", "set": {option: as_text}})
        assert answer.content == r.stdout_bytes


def _waiting_lines() -> list[tuple[str, str]]:
    """(ruleset, hand one tile short): sampled wins (3 a ruleset) without their winning tile, and its flags."""
    out: list[tuple[str, str]] = []
    for rules, line, options in SAMPLE:
        if options or sum(r == rules for r, _ in out) >= 3:
            continue
        scored = mjcalc.score(line, rules)
        if scored["result"] != "win":
            continue
        flags = " ".join(w for w in line.split() if w.startswith("+"))
        out.append((rules, f"{scored['hand'].rsplit(' ', 1)[0]} {flags}".strip()))
    return out


def test_waits_is_waits_json_byte_for_byte_on_every_ruleset(client: TestClient) -> None:
    waiting: set[str] = set()
    lines = [*_waiting_lines(), ("changchun", "123m456p789s111z2x"), ("riichi", QUICK), ("mcr", "19m19p19s1234567z")]
    for rules, line in lines:
        r = cli("waits", line, "--json", "--rules", rules)
        answer = _post(client, "/api/waits", {"hand": line, "rules": rules})
        assert answer.status_code == 200
        assert answer.content == r.stdout_bytes, (rules, line)
        if answer.json()["result"] == "waiting" and answer.json()["waits"]:
            waiting.add(rules)
    assert waiting >= set(builtin_names())


def test_rules_is_rules_show_json(client: TestClient) -> None:
    r = client.get("/api/rules")
    assert r.status_code == 200
    _no_leak(r.text)
    got = r.json()
    assert set(got["rulesets"]) == set(builtin_names())
    for name, shown in got["rulesets"].items():
        expected = json.loads(cli("rules", "show", name, "--json").stdout)
        expected["decisions"] = expected["decisions"] and os.path.basename(expected["decisions"])
        assert shown == {**expected, "file": f"{name}.yaml"}  # the files by their names: no path of this machine
    assert [f["name"] for f in got["flag_defs"]] == [f.name for f in FLAGS]
    assert {"name", "kind", "doc", "aliases", "default_doc", "most"} <= set(got["flag_defs"][0])


REQUEST_ERRORS = [
    (b"not json", "not JSON"),
    (b"\xff\xfe\x00", "not JSON"),
    (b"[" * 5000, "not JSON"),  # deeper than the parser goes
    (b'{"hand": 1' + b"0" * 5000 + b"}", "not JSON"),  # a number too long to read
    (b'["123m"]', "not a list"),
    (b'"123m"', "not a string"),
    ({"rules": "riichi"}, 'has no "hand"'),
    ({"hand": 5}, "'hand' is a string, not a number"),
    ({"hand": None}, "'hand' is a string, not null"),
    ({"hand": "123m", "rules": ["riichi"]}, "'rules' is a string, not a list"),
    ({"hand": "123m", "rules": "r" * 1001}, "at most 1,000"),
    ({"hand": "123m", "zimo": True}, "'zimo' is not a key of a request"),
    ({"hand": "123m", "lang": "fr"}, "'lang' is \"en\" or \"zh\""),
    ({"hand": "123m", "set": [1]}, "'set' is an object"),
    ({"hand": "123m", "set": {"cap": None}}, "'cap' is a string, a number or true / false, not null"),
    ({"hand": "123m", "set": {"cap": {"a": 1}}}, "not an object"),
    ({"hand": "123m", "set": {"cap": "9" * 1001}}, "at most 1,000 characters"),
    ({"hand": "123m", "set": {"x" * 65: 1}}, "at most 64 characters"),
    ({"hand": "123m", "set": {f"o{i}": 1 for i in range(MAX_OPTIONS + 1)}}, f"at most {MAX_OPTIONS}"),
]


@pytest.mark.parametrize(("body", "message"), REQUEST_ERRORS, ids=[m for _, m in REQUEST_ERRORS])
def test_a_malformed_request_is_a_request_error(client: TestClient, body: Any, message: str) -> None:
    for path in ("/api/score", "/api/waits"):
        r = _post(client, path, body)
        assert r.status_code == 400, r.text
        got = r.json()
        assert got["result"] == "error" and got["error"]["kind"] == "request" and got["error"]["column"] is None
        assert message in got["error"]["message"]


@pytest.mark.parametrize(("options", "message"), [
    ({"nosuch": 1}, "'nosuch' is not an option of changchun"),
    ({"cap": "lots"}, "option 'cap' takes a whole number"),
    ({"riichi.aka": False}, "riichi"),
])
def test_an_option_the_ruleset_cannot_have_is_a_ruleset_error(client: TestClient, options: Any, message: str) -> None:
    for path in ("/api/score", "/api/waits"):
        r = _post(client, path, {"hand": QUICK, "set": options})
        assert r.status_code == 400
        assert r.json()["error"]["kind"] == "ruleset" and message in r.json()["error"]["message"]


def test_a_line_that_cannot_be_read_is_its_error_object_with_the_column(client: TestClient) -> None:
    for line, column in (("123m456p789s11111z", 17), ("123m456p789s111z22z +seat=Q", 21), ("x" * 1001, 1001)):
        r = cli("score", line, "--json")
        answer = _post(client, "/api/score", {"hand": line})
        assert answer.status_code == 200 and answer.content == r.stdout_bytes
        assert answer.json()["result"] == "error" and answer.json()["error"]["column"] == column


def test_a_ruleset_file_is_never_read(client: TestClient, tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"  # a real ruleset file: were it read, the line would score
    house.write_text("extends: changchun\nid: house\n", encoding="utf-8")
    assert mjcalc.score(QUICK, rules=str(house))["result"] == "win"
    for rules in (str(house), "../rules/riichi.yaml", "riichi.yaml", "~/x", "./riichi", "nosuch"):
        for path in ("/api/score", "/api/waits"):
            r = _post(client, path, {"hand": QUICK, "rules": rules})
            assert r.status_code == 400
            error = r.json()["error"]
            assert error["kind"] == "ruleset" and "not a built-in ruleset" in error["message"], rules
    for line, column in ((f"{QUICK} +rules={house}", 35), (f"{QUICK} +规则={house}", 35),
                         ("123m456p789s111z22z +RULES=../rules/mcr.yaml", 21)):
        for path in ("/api/score", "/api/waits"):
            r = _post(client, path, {"hand": line})
            assert r.status_code == 200
            got = r.json()
            assert got["result"] == "error" and got["error"]["kind"] == "ruleset", line
            assert got["error"]["column"] == column and "not a built-in ruleset" in got["error"]["message"]
    r = _post(client, "/api/score", {"hand": f"{QUICK} +rules=riichi"})  # a built-in one, by name, is fine
    assert r.json()["ruleset"] == "riichi"


def test_a_request_is_bounded(client: TestClient) -> None:
    big = json.dumps({"hand": "1" * MAX_BODY}).encode()
    r = _post(client, "/api/score", big)
    assert r.status_code == 413 and r.json()["error"]["kind"] == "limit"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"hand": "'
        for _ in range(40):
            yield b"1" * 1000
        yield b'"}'

    r = client.post("/api/score", content=chunks(), headers=JSON_TYPE)
    assert r.status_code == 413 and f"at most {MAX_BODY:,} bytes" in r.json()["error"]["message"]
    r = client.post("/api/score", content=b'{"hand": "123m"}', headers={**JSON_TYPE, "content-length": "-1"})
    assert r.status_code in (400, 413)


def test_a_request_that_does_not_finish_arriving_is_cut_off() -> None:
    """A client that sends part of its body and then nothing holds its connection only until the time limit
    (the test client reads a body whole before the application sees it: here the application's own reader
    is given a request whose rest never comes)."""
    import anyio
    from starlette.requests import Request

    from mjcalc.web.answers import BadRequest, read_body as _body

    sent: list[bool] = []

    async def receive() -> dict[str, Any]:
        if not sent:
            sent.append(True)
            return {"type": "http.request", "body": b'{"hand": "123m', "more_body": True}
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    async def read() -> None:
        scope = {"type": "http", "method": "POST", "path": "/api/score", "headers": []}
        with pytest.raises(BadRequest) as caught:
            await _body(Request(scope, receive), 0.2)
        assert caught.value.status == 408 and caught.value.kind == "limit"

    anyio.run(read)


def test_paths_and_methods_the_api_does_not_have(client: TestClient) -> None:
    for method, path, status in (("GET", "/api/score", 405), ("PUT", "/api/rules", 405), ("GET", "/api/nothing", 404),
                                 ("GET", "/api/", 404)):
        r = client.request(method, path)
        assert r.status_code == status
        assert r.json()["result"] == "error"
        _no_leak(r.text)
    r = client.get("/api/rules")
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["cache-control"] == "no-store"


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for r in (client.get("/"), client.get("/app.js"), client.get("/api/rules"), client.get("/api/nothing"),
              client.post("/api/score", json={"hand": "123m456p789s111z22z"})):
        assert r.headers["content-security-policy"].startswith("default-src 'none'; script-src 'self'")
        assert "'unsafe-inline'" not in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"


def test_the_labels_of_the_ids_a_score_carries(client: TestClient) -> None:
    """GET /api/rules "labels": the words of every ``applies_to`` and ``wait`` id in each language, those of the
    command line's table (the items' "applies to" column, the reading's wait)."""
    from mjcalc.core.readings.decompose import WAITS
    from mjcalc.ruleset.schema import SCOPES

    labels = client.get("/api/rules").json()["labels"]
    assert set(labels["applies_to"]) == set(SCOPES) and set(labels["wait"]) == set(WAITS)
    for words in (*labels["applies_to"].values(), *labels["wait"].values()):
        assert set(words) == {"en", "zh"} and words["en"] != words["zh"]
    assert labels["applies_to"]["discarder"] == {"en": "the discarder only", "zh": "点炮者"}
    for lang in ("en", "zh"):
        shown = cli("score", "123m456p13s777z55z 2s +from=W", "--lang", lang).stdout
        assert labels["wait"]["closed"][lang] in shown and labels["applies_to"]["discarder"][lang] in shown


def test_the_page_is_served_from_the_package_and_nothing_outside_it(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>mjcalc</title>", encoding="utf-8")
    (tmp_path / "app.js").write_text("// the page", encoding="utf-8")
    secret = tmp_path.parent / "secret.txt"
    secret.write_text("not for the web", encoding="utf-8")
    with TestClient(create_app(workers=1, static=tmp_path)) as c:
        assert c.get("/").text.startswith("<!doctype html>")
        assert c.get("/app.js").text == "// the page"
        r = c.post("/")
        assert r.status_code == 405 and r.json()["error"]["kind"] == "request"
        for path in ("/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/nothing.js"):
            r = c.get(path)
            assert r.status_code == 404 and "not for the web" not in r.text
            _no_leak(r.text)


def test_without_a_page_the_api_is_still_served(tmp_path: Path) -> None:
    with TestClient(create_app(workers=1, static=tmp_path / "none")) as c:
        assert c.get("/").status_code == 404 and c.get("/").json()["error"]["kind"] == "not_found"
        assert c.post("/api/score", json={"hand": QUICK}).json()["points"] == 48


def test_every_file_of_the_page_ships_with_the_package() -> None:
    """In CI's second run the package is the installed one (not the checkout): what the checkout has under
    mjcalc/web/static must be there too (package data)."""
    checkout = ROOT / "mjcalc" / "web" / "static"
    installed = PACKAGE / "web" / "static"
    for path in checkout.rglob("*"):
        if path.is_file():
            assert (installed / path.relative_to(checkout)).is_file(), path


def test_a_line_past_the_time_limit_is_cut_off_as_its_own_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line whose worker worked on it the whole time limit is the line's fault (422), and the worker is
    replaced. (The worker is stopped with SIGSTOP, and its processor time read as if it had worked all along:
    a line that truly takes this long would make the test as slow as the limit.)"""
    import time

    import mjcalc.web.workers as workers

    monkeypatch.setattr(workers, "cpu_seconds", lambda pid: time.monotonic())
    application = create_app(workers=1, seconds=0.5)
    with TestClient(application) as c:
        pool = application.pool
        assert pool is not None
        stuck = pool.workers[0].process
        os.kill(stuck.pid, signal.SIGSTOP)
        r = c.post("/api/score", json={"hand": QUICK})
        assert r.status_code == 422
        assert r.json()["error"]["kind"] == "limit" and "longer than 0.5 s" in r.json()["error"]["message"]
        assert c.post("/api/score", json={"hand": QUICK}).json()["result"] == "win"
        assert not stuck.is_alive() and pool.workers[0].process is not stuck


def test_a_stuck_worker_is_the_servers_fault_and_replaced() -> None:
    """A worker that does not answer (stopped here with SIGSTOP: it can never answer in time) costs its
    request an error that says it is the server's fault, not the line's; it is killed, a fresh one takes its
    place, and the next line is scored."""
    application = create_app(workers=1, seconds=1.0)
    with TestClient(application) as c:
        assert c.post("/api/score", json={"hand": QUICK}).json()["result"] == "win"
        pool = application.pool
        assert pool is not None
        stuck = pool.workers[0].process
        os.kill(stuck.pid, signal.SIGSTOP)
        r = c.post("/api/score", json={"hand": QUICK})
        assert r.status_code == 503
        assert r.json()["error"]["kind"] == "internal" and "the server's fault, not the line's" in r.text
        assert "took longer" not in r.text
        assert c.post("/api/score", json={"hand": QUICK}).json()["result"] == "win"  # on the fresh worker
        assert not stuck.is_alive() and pool.workers[0].process is not stuck
        dead = pool.workers[0].process
        dead.kill()
        dead.join()
        r = c.post("/api/score", json={"hand": QUICK})  # a worker that died: an internal error, then a fresh one
        assert r.status_code == 500 and r.json()["error"]["kind"] == "internal"
        _no_leak(r.text)
        r = c.post("/api/score", json={"hand": QUICK})
        assert r.json()["result"] == "win", r.text
        workers = [w.process for w in pool.workers]
    assert not any(p.is_alive() for p in workers)


def test_a_full_pool_says_it_is_busy() -> None:
    application = create_app(workers=0, seconds=0.2)  # no worker ever comes free
    with TestClient(application) as c:
        r = c.post("/api/score", json={"hand": QUICK})
        assert r.status_code == 503 and r.json()["error"]["kind"] == "busy"


# --- the command ---------------------------------------------------------------------------------------------


def _python(code: str, *args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    """Python in a fresh process: what it imports is its own."""
    env = {**os.environ, "MJCALC_CONFIG": "/nonexistent/mjcalc.yaml"}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          timeout=120, **kw)


def test_serve_starts_says_where_and_stops_on_ctrl_c() -> None:
    from urllib.request import Request, urlopen

    env = {**os.environ, "MJCALC_CONFIG": "/nonexistent/mjcalc.yaml", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "mjcalc", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        assert found, first
        assert "this machine only" in first and "--host 0.0.0.0" in first
        base = found.group(0)
        asked = Request(base + "api/score", data=json.dumps({"hand": QUICK}).encode(), method="POST",
                        headers={"Content-Type": "application/json"})
        with urlopen(asked, timeout=60) as r:
            assert r.status == 200 and json.loads(r.read())["points"] == 48
            assert r.headers.get("server") is None  # no software version told to the network
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert "stopped" in err and "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_the_shared_address_and_its_qr_code(monkeypatch: pytest.MonkeyPatch) -> None:
    import mjcalc.web.server as server

    monkeypatch.setattr(server, "lan_address", lambda: "192.168.1.23")
    text, here = banner("0.0.0.0", 8000)
    assert text.splitlines()[0].startswith("mjcalc serve: the calculator is at http://192.168.1.23:8000/ — type it")
    assert here == "http://127.0.0.1:8000/"
    code = text.splitlines()[1:]
    assert len(code) > 10 and all(set(line) <= set("█▀▄ ") for line in code)
    text, _ = banner("192.168.1.5", 8080)
    assert "http://192.168.1.5:8080/" in text
    monkeypatch.setattr(server, "lan_address", lambda: None)
    text, _ = banner("0.0.0.0", 8000)
    assert "port 8000" in text and "http://127.0.0.1:8000/" in text


def test_the_host_names_a_request_may_give(monkeypatch: pytest.MonkeyPatch) -> None:
    import mjcalc.web.server as server

    monkeypatch.setattr(socket, "gethostname", lambda: "tablepc")
    here = server.hosts("127.0.0.1", ("Scores.Example:8000",))
    for ok in ("127.0.0.1", "127.0.0.1:8000", "localhost:8000", "[::1]:8000", "scores.example", "SCORES.EXAMPLE."):
        assert here.allows(ok), ok
    for bad in ("192.168.1.5", "tablepc", "evil.example", "", "127.0.0.1:x", "[::1", "localhost.evil.example"):
        assert not here.allows(bad), bad
    shared = server.hosts("0.0.0.0")
    for ok in ("192.168.1.5:8000", "[fe80::1]:8000", "10.0.0.2", "tablepc", "tablepc.local:8000", "localhost"):
        assert shared.allows(ok), ok
    for bad in ("evil.example", "192.168.1.5.nip.io", "scores.example"):
        assert not shared.allows(bad), bad
    assert server.hosts("192.168.1.5").allows("192.168.1.5:8000")
    assert not server.hosts("192.168.1.5").allows("192.168.1.6")


def test_open_opens_this_machines_address_and_ipv6_is_bracketed(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import webbrowser

    import mjcalc.web.server as server

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda address: opened.append(address) or True)
    server._open_later("http://127.0.0.1:8000/")
    for thread in threading.enumerate():
        if thread.name == "mjcalc serve --open":
            thread.join(10)
    assert opened == ["http://127.0.0.1:8000/"]
    assert server.url("::1", 8000) == "http://[::1]:8000/" and server.url("pc.local", 80) == "http://pc.local:80/"
    assert server.loopback("::1") and server.loopback("localhost") and not server.loopback("192.168.1.5")


def test_serve_without_the_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "starlette", None)  # as if not installed: find_spec finds nothing
    r = cli("serve")
    assert r.exit_code == 3, r.output
    assert "pip install 'mjcalc[serve]'" in r.output and "starlette" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_serve_on_a_port_in_use_or_a_host_not_here_says_so() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        r = cli("serve", "--port", str(port))
    assert r.exit_code == 3, r.output
    assert f"port {port} is in use" in r.output and isinstance(r.exception, SystemExit)
    r = cli("serve", "--host", "no.such.host.invalid")
    assert r.exit_code == 3 and "--host no.such.host.invalid" in r.output and isinstance(r.exception, SystemExit)


def test_the_other_commands_never_import_the_web() -> None:
    code = ("import sys\nfrom mjcalc.cli import main\n"
            "for argv in (['score', '123m456p789s111z22z', '--json'], ['waits', '123m456p789s111z2z'], ['rules', 'list']):\n"
            "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'h11', 'segno', 'anyio')"
            " or m.startswith('mjcalc.web')))")
    r = _python(code)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[]"

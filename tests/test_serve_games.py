"""The games of ``mjcalc serve`` (docs/serve.md "Games"), against a real server on a free port of 127.0.0.1 with
its own games' file: create, read, record, conflict, undo, preview; the 404 that does not tell an unknown id
from one that never was; the stream of server-sent events (the sheet at once, each change within a second,
``Last-Event-ID``, a change made by ``mjcalc game add`` on the same file, the end at SIGTERM); the same file
read by ``mjcalc game`` both ways; 8 clients recording one game at once, nothing lost or doubled and the final
sheet ``mjcalc game replay`` of what was kept. Every wait here is bounded."""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI"):  # CI installs the serve extra
    import h11  # noqa: F401
else:
    pytest.importorskip("h11")
    pytest.importorskip("starlette")

from mjcalc.web.app import SECURITY_HEADERS

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals: Linux")

H = "123m456p789s111z 22z"  # a changchun win for anyone, on a discard or self-drawn (tests/games/changchun.yaml)
DRAW = {"draw": {"ready": [], "nagashi": []}}  # an exhaustive draw, as the store keeps it
ENV = {**os.environ, "MJCALC_CONFIG": "/nonexistent/mjcalc.yaml", "PYTHONUNBUFFERED": "1"}


class Served:
    def __init__(self, proc: subprocess.Popen[str], port: int, db: str, errors: list[str]) -> None:
        self.proc, self.port, self.db, self.errors = proc, port, db, errors


def _serve(db: str, *args: str) -> Served:
    proc = subprocess.Popen([sys.executable, "-m", "mjcalc", "serve", "--port", "0", "--db", db, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
    assert found, first + (proc.stderr.read() if proc.stderr else "")
    errors: list[str] = []
    threading.Thread(target=lambda: errors.extend(proc.stderr or ()), daemon=True).start()
    served = Served(proc, int(found.group(1)), db, errors)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if call(served, "GET", "/api/rules")[0] == 200:
                return served
        except OSError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise AssertionError("the server did not answer in 60 s")


def _stop(served: Served) -> int:
    if served.proc.poll() is None:
        served.proc.send_signal(signal.SIGTERM)
        try:
            served.proc.wait(30)
        except subprocess.TimeoutExpired:
            served.proc.kill()
            served.proc.wait()
    return served.proc.returncode


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = str(tmp_path_factory.mktemp("games") / "games.db")
    running = _serve(db)
    try:
        yield running
    finally:
        assert _stop(running) == 0
    assert not any("Traceback" in line for line in running.errors), "".join(running.errors)


def call(served: Served, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
         conn: http.client.HTTPConnection | None = None) -> tuple[int, dict[str, str], Any]:
    """One request; the status, the headers (lower case) and the JSON (or text) of the answer."""
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    sent = {"Host": f"127.0.0.1:{served.port}", **(headers or {})}
    payload = None
    if body is not None:
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        sent.setdefault("Content-Type", "application/json")
    try:
        conn.request(method, path, body=payload, headers=sent)
        answer = conn.getresponse()
        data = answer.read()
        got = {k.lower(): v for k, v in answer.getheaders()}
    finally:
        if own:
            conn.close()
    text = data.decode()
    return answer.status, got, json.loads(text) if got.get("content-type", "").startswith("application/json") else text


def new_game(served: Served, rules: str = "changchun", **extra: Any) -> tuple[str, dict[str, Any]]:
    status, _, got = call(served, "POST", "/api/games", {"game": {"players": ["A", "B", "C", "D"], "rules": rules,
                                                                  **extra}})
    assert status == 201, got
    return got["id"], got["sheet"]


def record(served: Served, game: str, hand: int, result: dict[str, Any], **extra: Any) -> tuple[int, Any]:
    status, _, got = call(served, "POST", f"/api/games/{game}/results", {"hand": hand, "result": result, **extra})
    return status, got


def mjcalc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mjcalc", *args], capture_output=True, text=True, env=ENV,
                          timeout=120)


def is_error(status: int, headers: dict[str, str], got: Any, kind: str) -> str:
    assert headers.get("content-type") == "application/json; charset=utf-8", (status, headers)
    for key, value in SECURITY_HEADERS:
        assert headers.get(key.decode()) == value.decode(), (status, key)
    assert got["result"] == "error" and got["error"]["kind"] == kind, (status, got)
    return str(got["error"]["message"])


def win(winner: str, discarder: str | None = None) -> dict[str, Any]:
    one: dict[str, Any] = {"winner": winner, "hand": H}
    if discarder:
        one["from"] = discarder
    return {"win": [one]}


# --- the API ----------------------------------------------------------------------------------------------


def test_a_game_is_created_read_recorded_and_undone(served: Served) -> None:
    status, headers, got = call(served, "POST", "/api/games",
                                {"game": {"players": ["A", "B", "C", "D"], "rules": "changchun", "dealer": "B"}})
    assert status == 201 and set(got) == {"id", "url", "sheet"}, got
    game = got["id"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{24}", game)  # 144 bits from secrets
    assert got["url"] == f"http://127.0.0.1:{served.port}/#game={game}"
    assert headers["location"] == f"/api/games/{game}"
    assert got["sheet"]["players"] == ["B", "C", "D", "A"] and got["sheet"]["hands"] == []  # B deals first
    status, _, sheet = call(served, "GET", f"/api/games/{game}")
    assert status == 200 and sheet == got["sheet"]

    status, answer = record(served, game, 1, win("C", "D"))
    assert status == 201 and [h["changes"] for h in answer["hands"]] == [[-4, 16, -8, -4]]
    assert answer["final"]["next"]["number"] == 2
    status, answer = record(served, game, 2, {"draw": {}})
    assert status == 201 and len(answer["hands"]) == 2

    status, headers, got = call(served, "POST", f"/api/games/{game}/undo", {"hand": 1})  # not the last
    assert status == 409 and "the last result is hand 2" in is_error(status, headers, got, "conflict")
    status, _, got = call(served, "POST", f"/api/games/{game}/undo", {"hand": 2})
    assert status == 200 and len(got["hands"]) == 1 and got["final"]["next"]["number"] == 2
    assert call(served, "GET", f"/api/games/{game}")[2] == got


def test_the_same_hand_twice_is_a_conflict_and_nothing_is_added(served: Served) -> None:
    game, _ = new_game(served)
    assert record(served, game, 1, win("B", "C"))[0] == 201
    status, headers, got = call(served, "POST", f"/api/games/{game}/results", {"hand": 1, "result": win("C", "A")})
    assert status == 409
    assert "hand 1 is already recorded; the next is hand 2" in is_error(status, headers, got, "conflict")
    status, _, got = call(served, "POST", f"/api/games/{game}/results", {"hand": 5, "result": win("C", "A")})
    assert status == 409 and "the next result is hand 2, not hand 5" in got["error"]["message"]
    # "seen": the results the sender's sheet had; another count is a conflict too (a penalty keeps its hand)
    status, got = record(served, game, 2, {"penalty": {"player": "A", "amount": 2, "to": "table"}}, seen=0)
    assert status == 409 and "has 1 results, not 0" in got["error"]["message"]
    assert len(call(served, "GET", f"/api/games/{game}")[2]["hands"]) == 1


def test_a_result_that_cannot_be_applied_is_400_with_the_engines_message(served: Served) -> None:
    game, _ = new_game(served)
    short = {"win": [{"winner": "B", "from": "C", "hand": "123m456p789s11z 22z"}]}
    status, headers, got = call(served, "POST", f"/api/games/{game}/results", {"hand": 1, "result": short})
    assert status == 400 and "one tile short" in is_error(status, headers, got, "game")
    status, headers, got = call(served, "POST", f"/api/games/{game}/results",
                                {"hand": 1, "result": {"win": [{"winner": "Z", "hand": H}]}})
    assert status == 400 and "'Z' is not one of the players" in is_error(status, headers, got, "game")
    status, _, got = call(served, "POST", f"/api/games/{game}/results",
                          {"hand": 1, "result": {"win": [{"winner": "B", "from": "A", "hand": H},
                                                         {"winner": "D", "from": "A", "hand": H}]}})
    assert status == 400 and "one winner per discard" in got["error"]["message"]
    assert call(served, "GET", f"/api/games/{game}")[2]["hands"] == []


@pytest.mark.parametrize(("body", "says"), [
    (b"not json", "not JSON"),
    ([1, 2], "a JSON object"),
    ({"result": {"draw": {}}}, 'no "hand"'),
    ({"hand": 1}, 'no "result"'),
    ({"hand": 0, "result": {"draw": {}}}, "'hand' is a whole number from 1"),
    ({"hand": True, "result": {"draw": {}}}, "'hand' is a whole number"),
    ({"hand": "1", "result": {"draw": {}}}, "'hand' is a whole number"),
    ({"hand": 1, "result": "draw"}, "'result' is a GAME.md result (an object)"),
    ({"hand": 1, "result": {"draw": {}}, "extra": 1}, "'extra' is not a key"),
])
def test_a_malformed_results_request_is_a_request_error(served: Served, body: Any, says: str) -> None:
    game, _ = new_game(served)
    status, headers, got = call(served, "POST", f"/api/games/{game}/results", body)
    assert status == 400 and says in is_error(status, headers, got, "request")


def test_a_game_is_only_on_a_builtin_ruleset_and_a_line_names_none(served: Served, tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("id: house\nextends: changchun\n", encoding="utf-8")
    status, headers, got = call(served, "POST", "/api/games",
                                {"game": {"players": ["A", "B", "C", "D"], "rules": str(house)}})
    message = is_error(status, headers, got, "ruleset")
    assert status == 400 and str(tmp_path) not in json.dumps(got) and "built-in" in message
    for bad in ({"players": ["A", "B", "C"], "rules": "changchun"}, {"players": ["A", "B", "C", "D"]},
                {"players": ["A", "B", "C", "D"], "rules": "changchun", "set": {"nonsense": 1}}):
        status, headers, got = call(served, "POST", "/api/games", {"game": bad})
        assert status == 400 and got["error"]["kind"] in ("game", "ruleset"), got
    game, _ = new_game(served)
    for line in (f"{H} +rules={house}", f"{H} ＋ｒｕｌｅｓ＝{house}", f"{H} +规则=riichi"):
        status, got = record(served, game, 1, {"win": [{"winner": "B", "hand": line}]})
        assert status == 400 and "+rules" in got["error"]["message"] and str(house) not in json.dumps(got), got


def test_an_unknown_or_malformed_id_is_the_same_404(served: Served) -> None:
    game, _ = new_game(served)
    other = game[:-1] + ("A" if game[-1] != "A" else "B")
    answers = []
    for gid in (other, "x", "a" * 21, "a" * 65, "..%2F..%2Fetc", "%00" * 24, "games.db", "A" * 24):
        for method, path, body in (("GET", f"/api/games/{gid}", None),
                                   ("POST", f"/api/games/{gid}/results", {"hand": 1, "result": {"draw": {}}}),
                                   ("POST", f"/api/games/{gid}/undo", {"hand": 1}),
                                   ("POST", f"/api/games/{gid}/preview", {"hand": 1, "result": {"draw": {}}}),
                                   ("GET", f"/api/games/{gid}/events", None),
                                   ("GET", f"/api/games/{gid}/qr.svg", None),
                                   ("GET", f"/api/games/{gid}/chart.svg", None)):
            status, headers, got = call(served, method, path, body)
            assert status == 404, (gid, method, path, got)
            answers.append(is_error(status, headers, got, "not_found"))
    assert len(set(answers)) == 1  # the same words whether the id could be one or not


def test_the_commands_see_what_the_phones_recorded_and_the_reverse(served: Served, tmp_path: Path) -> None:
    game, _ = new_game(served)
    assert record(served, game, 1, win("B", "C"))[0] == 201
    shown = mjcalc("game", "show", game, "--json", "--db", served.db)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == call(served, "GET", f"/api/games/{game}")[2]
    added = mjcalc("game", "add", game, "C", "tsumo", H, "--db", served.db)
    assert added.returncode == 0, added.stderr
    sheet = call(served, "GET", f"/api/games/{game}")[2]
    assert [h["result"] for h in sheet["hands"]] == ["win", "win"] and sheet["final"]["next"]["number"] == 3
    status, got = record(served, game, 2, {"draw": {}})  # the command recorded hand 2 first
    assert status == 409 and "hand 2 is already recorded" in got["error"]["message"]
    listed = mjcalc("game", "list", "--json", "--db", served.db)
    assert game in listed.stdout


def test_preview_applies_nothing(served: Served) -> None:
    game, _ = new_game(served)
    status, _, got = call(served, "POST", f"/api/games/{game}/preview", {"hand": 1, "result": win("B", "C")})
    assert status == 200 and got["entry"]["changes"] == [-4, 16, -8, -4] and got["entry"]["wins"][0]["score"]["points"]
    assert got["final"]["ended"] is False
    assert call(served, "GET", f"/api/games/{game}")[2]["hands"] == []
    status, _, got = call(served, "POST", f"/api/games/{game}/preview", {"hand": 1, "result": win("B", "B")})
    assert status == 400


def test_the_qr_code_and_the_chart_are_pictures(served: Served) -> None:
    game, _ = new_game(served)
    record(served, game, 1, win("B", "C"))
    for what in ("qr", "chart"):
        status, headers, text = call(served, "GET", f"/api/games/{game}/{what}.svg?lang=zh")
        assert status == 200 and headers["content-type"] == "image/svg+xml" and text.startswith("<svg"), text[:200]
        assert "<script" not in text and headers["content-security-policy"]


def test_foreign_hosts_and_bodies_that_are_not_json_are_refused(served: Served) -> None:
    game, _ = new_game(served)
    status, headers, got = call(served, "POST", "/api/games", {"game": {}}, headers={"Host": "evil.example"})
    assert status == 400 and "Host" in is_error(status, headers, got, "request")
    status, headers, got = call(served, "GET", f"/api/games/{game}/events", headers={"Host": "evil.example"})
    assert status == 400
    status, headers, got = call(served, "POST", f"/api/games/{game}/results", b'{"hand": 1, "result": {"draw": {}}}',
                                headers={"Content-Type": "text/plain"})
    assert status == 415 and is_error(status, headers, got, "request")
    assert call(served, "GET", f"/api/games/{game}")[2]["hands"] == []


# --- the events -------------------------------------------------------------------------------------------


class Events:
    """A client of ``GET /api/games/{id}/events`` on a socket of its own: the events as they come (each
    ``(id, event, data)``), the chunks of the answer undone as they arrive."""

    def __init__(self, served: Served, game: str, last: str | None = None, lang: str = "en") -> None:
        self.sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
        head = f"GET /api/games/{game}/events?lang={lang} HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
        if last is not None:
            head += f"Last-Event-ID: {last}\r\n"
        self.sock.sendall((head + "\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data:
            more = self.sock.recv(65536)
            if not more:
                raise ConnectionError(f"closed without an answer: {data!r}")
            data += more
        top, _, self.raw = data.partition(b"\r\n\r\n")
        lines = top.decode("latin-1").split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
        self.text = ""
        self.done = False
        self.events: list[tuple[str, str, str]] = []

    def _unchunk(self) -> None:
        while not self.done:
            size_end = self.raw.find(b"\r\n")
            if size_end < 0:
                return
            size = int(self.raw[:size_end], 16)
            if size == 0:
                self.done = True
                return
            if len(self.raw) < size_end + 2 + size + 2:
                return
            self.text += self.raw[size_end + 2:size_end + 2 + size].decode()
            self.raw = self.raw[size_end + 2 + size + 2:]

    def next(self, seconds: float = 5.0) -> tuple[str, str, str]:
        deadline = time.monotonic() + seconds
        while True:
            self._unchunk()
            while "\n\n" in self.text:
                block, self.text = self.text.split("\n\n", 1)
                fields: dict[str, str] = {}
                for line in block.split("\n"):
                    if not line.startswith(":"):
                        key, _, value = line.partition(": ")
                        fields[key] = value
                if "data" in fields:
                    event = (fields.get("id", ""), fields.get("event", "message"), fields["data"])
                    self.events.append(event)
                    return event
            if self.done:
                raise ConnectionError("the stream ended")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no event in {seconds} s")
            ready, _, _ = select.select([self.sock], [], [], left)
            if not ready:
                continue
            more = self.sock.recv(65536)
            if not more:
                raise ConnectionError("the stream ended")
            self.raw += more

    def close(self) -> None:
        self.sock.close()


def test_events_send_the_sheet_now_and_on_each_change_within_a_second(served: Served) -> None:
    game, first = new_game(served)
    stream = Events(served, game)
    other = Events(served, game, lang="zh")
    try:
        assert stream.status == 200 and stream.headers["content-type"] == "text/event-stream; charset=utf-8"
        assert stream.headers["cache-control"] == "no-store" and stream.headers["content-security-policy"]
        version, kind, data = stream.next()
        assert kind == "sheet" and json.loads(data) == first and version
        assert json.loads(other.next()[2])["hands"] == []
        began = time.monotonic()
        status, sheet = record(served, game, 1, win("B", "C"))
        assert status == 201
        changed = stream.next(2.0)
        assert time.monotonic() - began < 1.0
        assert json.loads(changed[2]) == sheet and changed[0] != version
        assert len(json.loads(other.next(2.0)[2])["hands"]) == 1
        # a change made by the command line on the same file reaches the streams too
        began = time.monotonic()
        assert mjcalc("game", "add", game, "draw", "--db", served.db).returncode == 0
        by_command = json.loads(stream.next(3.0)[2])
        assert [h["result"] for h in by_command["hands"]] == ["win", "draw"]
        assert json.loads(other.next(3.0)[2])["hands"][-1]["result"] == "draw"
        # undo is a change as well
        status, _, undone = call(served, "POST", f"/api/games/{game}/undo", {"hand": 2})
        assert status == 200 and json.loads(stream.next(2.0)[2]) == undone
        last = stream.events[-1][0]
    finally:
        stream.close()
        other.close()
    again = Events(served, game, last=last)  # a reconnect with the latest version: nothing to send yet
    try:
        with pytest.raises(TimeoutError):
            again.next(1.0)
        record(served, game, 2, win("D"))
        assert len(json.loads(again.next(2.0)[2])["hands"]) == 2
    finally:
        again.close()
    stale = Events(served, game, last="0-stale")  # a reconnect after changes missed: the sheet at once
    try:
        assert len(json.loads(stale.next(2.0)[2])["hands"]) == 2
    finally:
        stale.close()


def test_streams_are_bounded_by_address_and_end_when_the_server_stops(tmp_path: Path) -> None:
    from mjcalc.web.games import STREAMS_PER_ADDRESS

    running = _serve(str(tmp_path / "g.db"))
    streams: list[Events] = []
    try:
        game, _ = new_game(running)
        for _ in range(STREAMS_PER_ADDRESS):
            streams.append(Events(running, game))
            streams[-1].next()
        status, headers, got = call(running, "GET", f"/api/games/{game}/events")
        assert status == 503 and is_error(status, headers, got, "busy") and headers["retry-after"] == "1"
        assert call(running, "GET", f"/api/games/{game}")[0] == 200  # the streams hold no worker
        streams.pop().close()
        time.sleep(0.3)
        streams.append(Events(running, game))
        streams[-1].next()
        began = time.monotonic()
        assert _stop(running) == 0
        assert time.monotonic() - began < 8.0
        for stream in streams:
            with pytest.raises(ConnectionError):  # ended cleanly: the last chunk, then the connection closed
                stream.next(2.0)
    finally:
        for stream in streams:
            stream.close()
        if running.proc.poll() is None:
            running.proc.kill()
            running.proc.wait()


# --- many phones at once ----------------------------------------------------------------------------------


def _phone(served: Served, game: str, me: int, until: int, accepted: list[tuple[int, dict[str, Any]]],
           refused: list[int], failures: list[str]) -> None:
    """A phone that records the next hand (the result depends on who it is and the hand), is told 409 when
    another was first, reads the sheet and tries the next; until the game has ``until`` hands."""
    names = "ABCD"
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    try:
        sheet = call(served, "GET", f"/api/games/{game}", conn=conn)[2]
        for _ in range(400):
            nxt = sheet["final"]["next"]["number"]
            if nxt > until:
                return
            kind = (me + nxt) % 3
            result = DRAW if kind == 0 else win(names[me % 4], None if kind == 1 else names[(me + 1) % 4])
            status, _, got = call(served, "POST", f"/api/games/{game}/results", {"hand": nxt, "result": result},
                                  conn=conn)
            if status == 201:
                accepted.append((nxt, result))
                sheet = got
            elif status == 409:
                refused.append(nxt)
                sheet = call(served, "GET", f"/api/games/{game}", conn=conn)[2]
            else:
                failures.append(f"{status} {got}")
                return
    finally:
        conn.close()


def test_8_phones_recording_one_game_lose_and_double_nothing(served: Served, tmp_path: Path) -> None:
    game, _ = new_game(served)
    accepted: list[tuple[int, dict[str, Any]]] = []
    refused: list[int] = []
    failures: list[str] = []
    phones = [threading.Thread(target=_phone, args=(served, game, me, 40, accepted, refused, failures))
              for me in range(8)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join(120)
    assert not failures and not any(p.is_alive() for p in phones)
    numbers = sorted(n for n, _ in accepted)
    assert numbers == list(range(1, 41))  # each hand once: none lost, none doubled
    assert refused  # the phones did collide
    record_file = tmp_path / "game.jsonl"
    exported = mjcalc("game", "export", game, "--format", "jsonl", "--db", served.db, "-o", str(record_file))
    assert exported.returncode == 0, exported.stderr
    kept = [json.loads(line) for line in record_file.read_text(encoding="utf-8").splitlines()[1:]]
    assert kept == [result for _, result in sorted(accepted, key=lambda a: a[0])]
    replayed = mjcalc("game", "replay", str(record_file), "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == call(served, "GET", f"/api/games/{game}")[2]


def test_a_game_id_never_reads_as_an_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """An id is 144 random bits in URL-safe base64; one that began with ``-`` would be read by `mjcalc game show
    ID` as an option, so such a draw is made again."""
    import mjcalc.web.games as games

    drawn = iter(["-FVpyQBlwkSHGpvyFKh_pze1", "FVpyQBlwkSHGpvyFKh_pze1-"])
    monkeypatch.setattr(games.secrets, "token_urlsafe", lambda n: next(drawn))
    assert games.new_id() == "FVpyQBlwkSHGpvyFKh_pze1-"
    monkeypatch.undo()
    ids = {games.new_id() for _ in range(2000)}
    assert len(ids) == 2000 and all(games.ID.fullmatch(i) and not i.startswith("-") for i in ids)

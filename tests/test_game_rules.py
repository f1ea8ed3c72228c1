"""The game's rules as data: a ruleset file's game: section read, checked and merged; game options beside the
hand's (one --set for both, the hand scorer never reading them); grades; headers, names and record files."""

from __future__ import annotations

from pathlib import Path

import pytest

import mjcalc
from mjcalc.errors import MjcalcError
from mjcalc.game import Game, GameError, game_rules, header_from_text, result_from_text, result_to_text
from mjcalc.game.files import replay_files, split_games
from mjcalc.ruleset.loader import load_ruleset

H = "123m456p789s111z 22z"


def _file(tmp_path: Path, text: str, name: str = "house.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    load_ruleset.cache_clear()
    return str(path)


def test_a_house_file_changes_a_game_option(tmp_path: Path) -> None:
    path = _file(tmp_path, "id: house\nextends: changchun\ngame:\n  options:\n    rounds: {default: 1}\n")
    assert load_ruleset(path).options["rounds"].game and load_ruleset(path).options["rounds"].default == 1
    game = Game.new("ABCD", path)
    for line in (f"B ron C {H}", f"C ron D {H}", f"D ron A {H}", f"A ron B {H}"):
        game.add(line)
    assert game.ended and game.sheet().final.reason == "the last round is played"


@pytest.mark.parametrize(("text", "words"), [
    ("game:\n  label: weird\n", ["game", "label"]),
    ("game:\n  options:\n    base: {type: int, default: 1, doc: x}\n", ["game: option 'base' is also an option of the hand"]),
    ("game:\n  end: {rounds: {option: nosuch}}\n", ["unknown option 'nosuch'"]),
    ("game: [1]\n", ["game"]),
])
def test_a_broken_game_section_is_a_ruleset_error(tmp_path: Path, text: str, words: list[str]) -> None:
    path = _file(tmp_path, "id: house\nextends: changchun\n" + text)
    with pytest.raises(MjcalcError) as caught:
        load_ruleset(path)
    assert caught.value.kind == "ruleset"
    for w in words:
        assert w in caught.value.message, caught.value.message


def test_an_option_a_game_section_names_must_give_each_value(tmp_path: Path) -> None:
    path = _file(tmp_path, "id: house\nextends: riichi\ngame:\n  end: {target: {option: length, values: {hanchan: 30000}}}\n")
    with pytest.raises(GameError) as caught:
        game_rules(path, {"length": "tonpuu"})
    assert "gives no value for length=tonpuu" in caught.value.message


def test_a_ruleset_without_game_rules(tmp_path: Path) -> None:
    source = (Path(load_ruleset("changchun").path)).read_text(encoding="utf-8")
    path = _file(tmp_path, source[:source.index("\ngame:")] + "\n", "plain.yaml")
    with pytest.raises(GameError) as caught:
        Game.new("ABCD", path)
    assert "has no game rules" in caught.value.message


def test_game_options_are_options_of_the_ruleset_and_the_hand_ignores_them() -> None:
    plain = mjcalc.score(f"{H} +zimo +seat=E")
    assert mjcalc.score(f"{H} +zimo +seat=E", options={"rounds": 2, "start": 100})["net"] == plain["net"]
    with pytest.raises(mjcalc.RulesetError) as caught:
        mjcalc.score(H, options={"rounds": "lots"})
    assert "option 'rounds'" in caught.value.message
    with pytest.raises(mjcalc.RulesetError):
        mjcalc.Game(list("ABCD"), rules="riichi", options={"length": "quarter"})
    shown = mjcalc.rulesets()["riichi"]["options"]
    assert shown["extension"]["game"] is True and shown["kazoe"]["game"] is False


@pytest.mark.parametrize(("total", "zh"), [(-50, "白板"), (99, "白板"), (100, "一万"), (499, "二万"), (80000, "东风"),
                                           (1_199_999, "中"), (1_200_000, "发"), (2_000_000, "雀神"), (10**9, "雀神")])
def test_grades(total: int, zh: str) -> None:
    grade = game_rules("changchun", {}).grade(total)
    assert grade is not None and grade.names["zh"] == zh
    assert game_rules("changchun-mil", {}).grade(total).names["zh"] == zh  # type: ignore[union-attr]
    assert game_rules("jilin", {}).grade(total) is None


def test_names_that_need_quotes_round_trip() -> None:
    game = Game.new(["Mr Li", "draw", "E", "小王"], "changchun")
    game.add(f'"Mr Li" ron draw {H}')     # "draw" unquoted as a name after ron
    game.add(f'"draw" tsumo {H}')           # first in the line: a keyword unless quoted
    game.add(f"E ron 小王 {H}")            # a player named E: the name first
    text = game.to_text()
    assert text.splitlines()[0] == 'game changchun "Mr Li" "draw" "E" 小王'
    again = Game.from_record(text, errors="raise")
    assert again.sheet().to_json() == game.sheet().to_json()
    assert [w.winner for h in again.sheet().hands for w in h.wins] == [0, 1, 2]


def test_the_dealer_named_in_the_header_deals_first() -> None:
    header = header_from_text("game changchun A B C D dealer=C")
    assert header.players == ("C", "D", "A", "B")
    game = Game.from_record(f"game changchun A B C D dealer=C\nC tsumo {H}\n", errors="raise")
    assert game.sheet().hands[0].dealer == 0 and game.sheet().players == ["C", "D", "A", "B"]


def test_a_header_that_cannot_be_read() -> None:
    for text, words in (("game changchun A B C\n", "four players"), ("game changchun A B C A\n", "two players"),
                        ("hello\n", "starts with its header"), ("game nosuch A B C D\n", "unknown ruleset"),
                        ("game changchun A B C D rounds=lots\n", "option 'rounds'"),
                        ("game changchun A B C D rounds=0\n", "rounds is a number of rounds from 1"),
                        ("game mcr A B C D hands=0\n", "hands is a number of hands from 1"),
                        ('{"game": {"players": "ABCD", "rules": "mcr", "set": {}}}\n', "players: a list")):
        with pytest.raises(GameError) as caught:
            Game.from_record(text)
        assert words in caught.value.message, caught.value.message


def test_add_refuses_a_result_for_another_hand() -> None:
    game = Game.new("ABCD", "changchun")
    game.add(f"B ron C {H}", hand=1)
    with pytest.raises(GameError) as caught:
        game.add("draw", hand=1)
    assert "this result would be hand 2, not hand 1" in caught.value.message
    assert len(game.results) == 1
    game.add("penalty A 10 B", hand=2)
    game.add("draw", hand=2)    # a penalty does not end its hand
    assert [h.number for h in game.sheet().hands] == [1, 2, 2]


def test_undo_restores_the_state() -> None:
    game = Game.new("ABCD", "riichi")
    game.add("draw ready B riichi B")
    before = game.sheet().to_json()
    game.add("B ron C 123m456p789s777z 66z +dora=6z")
    assert game.next_hand()["dealer"] == 1
    game.undo()
    assert game.sheet().to_json() == before and game.next_hand()["table"] == 1000
    game.undo()
    with pytest.raises(IndexError):
        game.undo()


def test_files_hold_several_games_and_bad_lines_are_named(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    path.write_text("# two games\ngame changchun A B C D\n" f"B ron C {H}\nB ron X {H}\n"
                    '{"game": {"players": ["A", "B", "C", "D"], "rules": "mcr", "set": {}}}\n'
                    '{"draw": {}}\n{"win": 5}\n', encoding="utf-8")
    assert [start for start, _ in split_games(path.read_text(encoding="utf-8").splitlines())] == [1, 5]

    class Out:
        data = b""

        def write(self, b: bytes) -> None:
            self.data += b

    class Err:
        text = ""

        def write(self, s: str) -> None:
            self.text += s

    out, err = Out(), Err()
    assert replay_files([str(path)], out, err) == 2  # type: ignore[arg-type]
    assert out.data.count(b"\n") == 2
    assert f"{path}:4: ron: from whom: 'X' is not a player" in err.text
    assert f"{path}:7: win lists the winners" in err.text
    assert "\n  B ron X" in err.text and "^" in err.text


def test_a_header_in_error_is_named_on_its_line_and_so_is_each_result_under_it(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text('{"draw": {}}\n'
                    '{"game": {"players": ["A", "B", "C", "D"], "rules": "mcr", "set": {"nosuch": 1}}}\n'
                    '{"draw": {}}\n\n{"draw": {}}\n'
                    '{"game": {"players": ["A", "B", "C", "D"], "rules": "mcr", "set": {}}}\n{"draw": {}}\n',
                    encoding="utf-8")

    class Out:
        data = b""

        def write(self, b: bytes) -> None:
            self.data += b

    class Err:
        text = ""

        def write(self, s: str) -> None:
            self.text += s

    out, err = Out(), Err()
    assert replay_files([str(path)], out, err) == 2  # type: ignore[arg-type]
    assert out.data.count(b"\n") == 1  # the second game replays
    assert f"{path}:1: a result before the game's header line" in err.text
    assert f"{path}:2: set: 'nosuch' is not an option of mcr" in err.text
    assert f"{path}:3: not replayed: the game's header (line 2) is in error" in err.text
    assert f"{path}:5: not replayed" in err.text and f"{path}:4:" not in err.text and f"{path}:7:" not in err.text


def test_text_results_written_back() -> None:
    header = header_from_text("game meihe A B C D")
    for line in ("draw kongs C (5555m) {12341z} A [2222p] hui 5m", f"A tsumo {H} +hui=5m kongs D (5555m)",
                 "penalty B 30 to D"):
        result = result_from_text(line, header)
        assert result_from_text(result_to_text(result, header), header) == result


def test_the_example_games_replay_without_errors() -> None:
    folder = Path(__file__).resolve().parent.parent / "examples" / "games"
    paths = sorted(str(p) for p in folder.iterdir() if p.suffix in (".txt", ".jsonl"))
    assert len(paths) >= 3

    class Sink:
        data = b""
        text = ""

        def write(self, b: bytes | str) -> None:
            if isinstance(b, bytes):
                self.data += b
            else:
                self.text += b

    out, err = Sink(), Sink()
    assert replay_files(paths, out, err) == 0, err.text  # type: ignore[arg-type]
    assert out.data.count(b"\n") == len(paths)

"""Saving and resuming in the classic program (MIL-70 to MIL-74, MIL-80, MIL-92, MIL-93, MIL-95):
the dialogue through the keys, the file's format, atomic writes, and every loading error."""

from __future__ import annotations

import errno
import io
import json
import os
import random
import re
import struct
import time
from pathlib import Path
from typing import Any

import pytest
from mille_pilot import (
    app_for,
    app_of,
    keys_for_a_decision,
    kinds,
    lines,
    message,
    mille_app,
    play_until_asked,
    position,
    press,
    prompt,
)
from textual.pilot import Pilot

from parlour.bots.random_bot import RandomBot
from parlour.games.mille import MilleState
from parlour.games.mille.cards import parse_card
from parlour.tui.mille import main, savefile
from parlour.tui.mille import match as match_module
from parlour.tui.mille.match import Match, mille
from parlour.tui.mille.savefile import LoadError, read_save, write_save

ASYNC = pytest.mark.asyncio(loop_scope="session")
CTIME = r"[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4}"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """File names are typed relative to a fresh directory."""
    monkeypatch.chdir(tmp_path)


async def decide(pilot: Pilot[int], decisions: int) -> None:
    """Takes ``decisions`` of your decisions with sensible keys (Comp moves in between)."""
    app = mille_app(pilot)
    for _ in range(decisions):
        assert prompt(pilot) == ">>:Move:"
        await press(pilot, *keys_for_a_decision(app.state))


async def save_as(pilot: Pilot[int], name: str, *answers: str) -> None:
    await press(pilot, "s", *name, "enter", *answers)


def near_the_end() -> MilleState:
    """Your turn, drawn, 675 miles and a 25 in slot 1: U1 reaches 700 (MIL-45)."""
    return position({"cards": ["50", "25", "go", "stop", "gasoline", "75", "100"], "battle": "go",
                     "miles": {"100": 4, "200": 1, "50": 1, "25": 1}},
                    {"cards": ["25", "50", "75", "100", "go", "repairs"]}, drawn=True)


def snapshot(state: MilleState) -> tuple[Any, list[str]]:
    return state.position_json(), state.record_lines()


# --- the dialogue and resuming ---------------------------------------------------------------------


@ASYNC
@pytest.mark.parametrize("kind", kinds("random", "classic"))
async def test_save_and_resume_exactly(kind: str) -> None:
    """MIL-70, MIL-95: a resumed match goes on card for card, Comp deciding as it would have
    (with its memory, for the classic bot)."""
    app = app_for(seed=21, kind=kind)
    async with app.run_test() as pilot:
        await decide(pilot, 6)
        await save_as(pilot, "g1")
        assert re.fullmatch(rf"g1 \[{CTIME}\]", message(pilot))
        assert prompt(pilot) == ">>:Move:"
        assert app.bells == 0
        saved = snapshot(app.state)
        await decide(pilot, 12)
        unsaved = snapshot(app.state)
    loaded = read_save(Path("g1"))
    assert loaded.match.bot_kind == kind
    assert snapshot(loaded.match.state) == saved
    mtime = time.ctime(Path("g1").stat().st_mtime)
    resumed = app_of(loaded.match, loaded.notice)
    async with resumed.run_test() as pilot:
        assert message(pilot) == f"g1 [{mtime}]"
        assert prompt(pilot) == ">>:Move:"
        await decide(pilot, 12)
        assert snapshot(resumed.state) == unsaved


@ASYNC
async def test_same_file_overwrite_and_cancel() -> None:
    """MIL-92: `Same file?` for a resumed match; `Overwrite file?` for another existing file
    (D-9), where `s` is an invalid key (D-10); an empty name cancels."""
    app = app_for(seed=22)
    async with app.run_test() as pilot:
        await save_as(pilot, "g2")
    Path("other").write_text("keep me")
    loaded = read_save(Path("g2"))
    app = app_of(loaded.match, loaded.notice)
    async with app.run_test() as pilot:
        await press(pilot, "p", "S")
        assert prompt(pilot) == "Same file?"
        await press(pilot, "s")
        assert prompt(pilot) == "Same file? s"
        assert app.bells == 1
        await press(pilot, "y")
        assert message(pilot).startswith("g2 [")
        assert prompt(pilot) == ">>:Move:"
        assert read_save(Path("g2")).match.state.record_lines() == app.state.record_lines()
        # Another existing file: asked, and N keeps it.
        await press(pilot, "s", "n", *"other", "enter")
        assert prompt(pilot) == "Overwrite file?"
        await press(pilot, "s", "n")
        assert app.bells == 2
        assert prompt(pilot) == ">>:Move:"
        assert Path("other").read_text() == "keep me"
        # The file the match came from, by name: no question.
        await press(pilot, "s", "n", *"./g2", "enter")
        assert message(pilot).startswith("./g2 [")
        assert prompt(pilot) == ">>:Move:"
        # An empty name cancels; nothing is shown.
        before = message(pilot)
        await press(pilot, "s", "n", "enter")
        assert prompt(pilot) == ">>:Move:"
        assert message(pilot) == before
        await press(pilot, "s", "N", *"other", "enter", "Y")
        assert message(pilot).startswith("other [")
    data = json.loads(Path("other").read_text())
    assert data["ui"]["from_file"] is True


@ASYNC
async def test_typing_a_file_name() -> None:
    """MIL-92 step 2: echoed; Backspace erases one character, Ctrl-U the whole name."""
    app = app_for(seed=23)
    async with app.run_test() as pilot:
        await press(pilot, "s", *"abc")
        assert prompt(pilot) == "file: abc"
        await press(pilot, "backspace")
        assert prompt(pilot) == "file: ab"
        await press(pilot, "ctrl+u", *"g3", "enter")
        assert message(pilot).startswith("g3 [")
    assert Path("g3").exists()
    assert not Path("ab").exists()


@ASYNC
async def test_saving_at_the_extension_question() -> None:
    """MIL-74, MIL-90, D-8: `s` at `Extension?` saves, asks again, and resumes there."""
    app = app_for(near_the_end())
    async with app.run_test() as pilot:
        await press(pilot, "u", "1", "enter")
        assert prompt(pilot) == "Extension?"
        await press(pilot, "s", *"g4", "enter")
        assert prompt(pilot) == "Extension?"
        assert message(pilot).startswith("g4 [")
    assert json.loads(Path("g4").read_text())["hand"]["step"] == "extension"
    loaded = read_save(Path("g4"))
    app = app_of(loaded.match, loaded.notice)
    async with app.run_test() as pilot:
        assert prompt(pilot) == "Extension?"
        assert lines(pilot)[1][61:65] == " 700"
        await press(pilot, "n")
        assert prompt(pilot) == "Another hand?"


@ASYNC
async def test_saving_at_another_hand_then_no() -> None:
    """MIL-93: saved with `s` at `Another hand?`, `N` ends at once; the file resumes with the
    next deal, its starter alternated (MIL-74, D-7)."""
    app = app_for(seed=5)
    async with app.run_test() as pilot:
        asked = await play_until_asked(pilot)
        while asked == "Extension?":
            await press(pilot, "n")
            asked = await play_until_asked(pilot)
        assert asked == "Another hand?"
        await press(pilot, "s", *"g5", "enter")
        assert prompt(pilot) == "Another hand?"
        await press(pilot, "n")
    assert app.return_code == 0
    loaded = read_save(Path("g5"))
    assert loaded.match.state.stale
    app = app_of(loaded.match, loaded.notice)
    async with app.run_test() as pilot:
        await press(pilot)  # Comp's turn first
        assert app.state.hand_serial == 2
        assert not app.state.stale
        assert app.state.events[0].seat == 1  # hand 2 is Comp's to start
        assert prompt(pilot) == ">>:Move:"
        assert lines(pilot)[5][42:] == "                   ----   ----   -----"


@ASYNC
async def test_declining_then_saving() -> None:
    """MIL-93: `N`, `Save game?`: a save that fails or is cancelled goes on as `Y` would; one
    that succeeds ends the program; `s` means yes there."""
    app = app_for(near_the_end())
    async with app.run_test() as pilot:
        await press(pilot, "u", "1", "enter", "n", "n")
        assert prompt(pilot) == "Save game?"
        await press(pilot, "s", *"no/such/dir/g6", "enter")
        assert message(pilot) == "No such file or directory"
        assert app.bells == 1
        assert app.state.hand_no == 2
        assert not app.state.stale
    app = app_for(near_the_end())
    async with app.run_test() as pilot:
        await press(pilot, "u", "1", "enter", "n", "n", "y", "enter")
        assert app.state.hand_no == 2  # an empty name cancels: the next hand too
    app = app_for(near_the_end())
    async with app.run_test() as pilot:
        await press(pilot, "u", "1", "enter", "n", "n", "y", *"g6", "enter")
    assert app.return_code == 0
    resumed = read_save(Path("g6")).match.state
    assert resumed.stale
    assert resumed.hand_serial == 1


@ASYNC
async def test_really_can_save_first() -> None:
    """MIL-90: `s` at `Really?` runs the save dialogue, then asks again."""
    app = app_for(seed=24)
    async with app.run_test() as pilot:
        await press(pilot, "q", "s", *"g7", "enter")
        assert prompt(pilot) == "Really?"
        assert message(pilot).startswith("g7 [")
        await press(pilot, "y")
    assert app.return_code == 0
    assert Path("g7").exists()


# --- the file ----------------------------------------------------------------------------------------


def test_the_file_format() -> None:
    """MIL-70 (version 2: hand ordering among the program's settings, MIL-17): every field, and a
    record that replays from the seed to the snapshot."""
    match = Match.new(seed=31, bot_kind="random")
    state = match.state
    while state.to_move() < 0 and not state.is_over():
        state.apply(state.sample_chance())
    for text in ("0: draw",):
        state.play(state.parse_action(text))
    state.apply(state.sample_chance())
    write_save(Path("f.json"), match)
    data = json.loads(Path("f.json").read_text(encoding="utf-8"))
    assert data["format"] == "parlour-mille-save"
    assert data["version"] == 2
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", data["saved_at"])
    assert data["seed"] == 31
    assert data["record"][:13] == [line for line in state.record_lines()[:13]]
    assert data["record"][12:14] == ["0: draw", data["record"][13]]
    assert data["record"][13].startswith("card ")
    assert {"game_no", "hand_no", "hand_serial", "games_won", "totals", "result"} <= set(data["match"])
    hand = data["hand"]
    assert {"phase", "step", "to_act", "drawn", "goal", "extended", "pile", "discards", "seats"} <= set(hand)
    assert hand["phase"] == "decision"
    assert hand["step"] == "play"
    assert hand["drawn"] is True
    assert len(hand["pile"]) == 88
    for seat in hand["seats"]:
        assert len(seat["slots"]) == 7
        assert {"battle", "speed", "battle_pile", "speed_pile", "safeties", "miles", "hand_total",
                "coup_window"} <= set(seat)
        assert "order" not in seat
    assert data["players"][0] == {"name": "You", "controller": "human"}
    assert data["players"][1]["controller"] == "bot"
    assert data["players"][1]["bot"] == "random"
    assert data["ui"] == {"window": "small", "order": False, "from_file": False}
    replayed = mille().new(seed=31)
    for line in data["record"]:
        replayed.play(replayed.parse_action(line))
    assert replayed.position_json() == state.position_json()


def test_writing_is_atomic(monkeypatch: pytest.MonkeyPatch) -> None:
    """MIL-73: a temporary `.NAME….tmp` in the same directory, synced, renamed over the target;
    on failure it is removed and the earlier save is left exactly as it was."""
    match = Match.new(seed=32, bot_kind="random")
    Path("s.json").write_text("earlier save")
    renamed: list[tuple[str, str]] = []
    real_replace = os.replace

    def replace(source: Any, target: Any) -> None:
        renamed.append((str(source), str(target)))
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    write_save(Path("s.json"), match)
    (source, target), = renamed
    assert Path(source).parent == Path.cwd()
    assert Path(source).name.startswith(".s.json.")
    assert source.endswith(".tmp")
    assert target == "s.json"
    good = Path("s.json").read_bytes()

    def broken_sync(handle: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "fsync", broken_sync)
    with pytest.raises(OSError, match="Input/output error"):
        write_save(Path("s.json"), match)
    assert Path("s.json").read_bytes() == good
    assert sorted(os.listdir(".")) == ["s.json"]


@ASYNC
async def test_a_failed_save_shows_the_reason_and_changes_nothing() -> None:
    """MIL-92 step 4: the system's reason with the bell; nothing on disk changes."""
    Path("adir").mkdir()
    app = app_for(seed=25)
    async with app.run_test() as pilot:
        await press(pilot, "s", *"adir", "enter", "y")
        assert message(pilot) == "Is a directory"
        assert app.bells == 1
        assert prompt(pilot) == ">>:Move:"
    assert sorted(os.listdir(".")) == ["adir"]
    assert os.listdir("adir") == []


# --- loading (MIL-72, MIL-80) ---------------------------------------------------------------------


def good_save() -> dict[str, Any]:
    match = Match.new(seed=41, bot_kind="random")
    state = match.state
    while state.to_move() < 0:
        state.apply(state.sample_chance())
    state.play(state.parse_action("0: draw"))
    state.apply(state.sample_chance())
    return savefile.save_json(match)


def corrupt(change: str) -> dict[str, Any]:
    data = good_save()
    if change == "seed":
        data["seed"] = "41"
    elif change == "record":
        data["record"][13] = "card joker"
    elif change == "order":
        data["record"][12] = "1: draw"
    elif change == "pile":
        pile = data["hand"]["pile"]
        pile[0], pile[-1] = pile[-1], pile[0]
        if pile[0] == pile[-1]:
            pile[0], pile[1] = pile[1], pile[0]
    elif change == "slot":
        data["hand"]["seats"][0]["slots"][1] = "joker"
    elif change == "players":
        del data["players"]
    elif change == "window":
        data["ui"]["window"] = "big"
    elif change == "ordering":
        data["ui"]["order"] = "on"
    elif change == "memory":
        data["players"][1]["memory"] = [1, 2]
    elif change == "totals":
        data["match"]["totals"] = [100, 0]
    return data


def bsd_save(order: str = "<", flag: str = "B") -> bytes:
    """A save of the BSD program (issue 18): its globals written one after another, as a machine
    with ``bool`` of ``flag``'s size and ``order``'s byte order lays them out (varpush.c): Debug,
    Finished, Order (bools), End, On_exit, Handstart, Numgos, Numseen[20], Play, Window, Deck[101],
    Discard, Player[2] (struct PLAY, padded as C pads it), then the top card's place."""
    def pack(kind: str, *values: int) -> bytes:
        return struct.pack(f"{order}{len(values)}{kind}", *values)

    width = struct.calcsize(flag)
    deck = [13, 3, 0, -1, 18, 10] * 16 + [1, 2, 3, 4, 5]
    head = (pack(flag, 0, 0, 1) + pack("i", 700) + pack(flag, 0) + pack("i", 1, 4) + pack("i", *[2] * 20)
            + pack("i", 0, 0) + pack("h", *deck) + pack("h", 8))

    def player(hand: list[int], mileage: int) -> bytes:
        flags = pack(flag, 0, 0, 1, 0, 1, 0, 0)
        shorts = pack("h", *[0] * 4, *[0] * 4, 1, 0, 0, 1, 0, *[0] * 5, *hand, *[-1] * 7, 13, 13, -1, -1)
        before = flags + b"\0" * (len(flags) % 2) + shorts
        scores = pack("i", mileage, mileage, 0, 0, 0, 0, 0, 75, 75, 0, 0, 0)
        return before + b"\0" * (-len(before) % 4) + scores

    assert width in (1, 4)
    return head + player([0, 13, 5, -1, 8, 10, 3], 75) + player([1, 2, 14, 14, 9, -1, 4], 125) + pack("i", 17)


LOAD_ERRORS: list[tuple[str, bytes | None, str]] = [
    ("missing", None, "No such file or directory"),
    ("empty", b"", "empty file"),
    ("truncated", json.dumps(good_save()).encode()[:500], "truncated or corrupt save file"),
    ("bytes", bytes(range(256)), "truncated or corrupt save file"),
    ("BSD", bsd_save(), "a BSD mille save, which parlour cannot read"),
    ("BSD, big-endian, int bools", bsd_save(">", "I"), "a BSD mille save, which parlour cannot read"),
    ("BSD-sized noise", bytes(random.Random(3).randrange(256) for _ in range(len(bsd_save()))),
     "truncated or corrupt save file"),
    ("BSD cut short", bsd_save()[:-4], "truncated or corrupt save file"),
    ("array", b"[1, 2]", "not a Mille Bornes save file"),
    ("format", json.dumps({**good_save(), "format": "parlour-loa-save"}).encode(),
     "not a Mille Bornes save file"),
    ("version 3", json.dumps({**good_save(), "version": 3}).encode(), "unsupported save version 3"),
    ("version text", json.dumps({**good_save(), "version": "1"}).encode(), 'unsupported save version "1"'),
    ("no version", json.dumps({"format": "parlour-mille-save"}).encode(), "unsupported save version null"),
    ("seed", json.dumps(corrupt("seed")).encode(), "corrupt save file (seed)"),
    ("record", json.dumps(corrupt("record")).encode(),
     "corrupt save file (record[13] 'card joker': not a card: 'joker' (name a card as your hand shows it: "),
    ("order", json.dumps(corrupt("order")).encode(),
     "corrupt save file (record[12] '1: draw': seat 1 is not to act: it is seat 0's decision)"),
    ("pile", json.dumps(corrupt("pile")).encode(), "corrupt save file (hand.pile["),
    ("slot", json.dumps(corrupt("slot")).encode(),
     "corrupt save file (hand.seats[0].slots[1]: not a card: 'joker')"),
    ("totals", json.dumps(corrupt("totals")).encode(),
     "corrupt save file (match.totals[0]: does not match the record)"),
    ("players", json.dumps(corrupt("players")).encode(), "corrupt save file (players)"),
    ("window", json.dumps(corrupt("window")).encode(), "corrupt save file (ui.window)"),
    ("ordering", json.dumps(corrupt("ordering")).encode(), "corrupt save file (ui.order)"),
    ("memory", json.dumps(corrupt("memory")).encode(), "corrupt save file (players[1].memory)"),
]


@pytest.mark.parametrize(("case", "content", "reason"), LOAD_ERRORS, ids=[c for c, _, _ in LOAD_ERRORS])
def test_loading_errors(case: str, content: bytes | None, reason: str,
                        capsys: pytest.CaptureFixture[str]) -> None:
    """MIL-72, MIL-80: `parlour mille: FILE: REASON`, status 1, and the file left untouched."""
    path = Path("saved.json")
    if content is not None:
        path.write_bytes(content)
        os.utime(path, (1_000_000, 1_000_000))
    assert main([str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"parlour mille: saved.json: {reason}")
    assert err.endswith("\n")
    assert "Traceback" not in err
    if content is not None:
        assert path.read_bytes() == content
        assert path.stat().st_mtime == 1_000_000
    assert os.listdir(".") == ([] if content is None else ["saved.json"])
    with pytest.raises(LoadError):
        read_save(path)


def test_loading_a_directory(capsys: pytest.CaptureFixture[str]) -> None:
    Path("d").mkdir()
    assert main(["d"]) == 1
    assert capsys.readouterr().err == "parlour mille: d: Is a directory\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_loading_an_unreadable_file(capsys: pytest.CaptureFixture[str]) -> None:
    Path("locked").write_text(json.dumps(good_save()))
    Path("locked").chmod(0)
    assert main(["locked"]) == 1
    assert capsys.readouterr().err == "parlour mille: locked: Permission denied\n"


def test_loading_refused_by_the_system(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The system's reason, whatever it is (as root no file is unreadable, so it is simulated)."""
    Path("locked").write_text(json.dumps(good_save()))

    def refuse(path: Path) -> bytes:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))

    monkeypatch.setattr(Path, "read_bytes", refuse)
    assert main(["locked"]) == 1
    assert capsys.readouterr().err == "parlour mille: locked: Permission denied\n"


@pytest.mark.parametrize("args", [["a", "b"], ["--seed", "x"], ["--seed", str(1 << 53)], ["--seed"],
                                  ["--time", "0"], ["--time", "nan"], ["--bot", "nobody"], ["-x"]])
def test_usage_errors(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """MIL-80: any other arguments: the usage line on standard error, status 1."""
    assert main(args) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.endswith("usage: parlour mille [--bot KIND] [--seed N] [--time T] [file]\n")


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: parlour mille")


def test_a_terminal_is_needed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Without a terminal there is nobody to play: a message and status 1, not a hang."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    Path("g8").write_text(json.dumps(good_save()))
    for args in ([], ["--seed", "3"], ["g8"]):
        assert main(args) == 1
        assert capsys.readouterr().err == "parlour mille: the game needs a terminal\n"


class Remembers(RandomBot):
    """A bot with a memory, as the classic bot has (MIL-104)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.memory: dict[str, Any] = {"decisions": 0}

    def memory_json(self) -> Any:
        return dict(self.memory)

    def load_memory(self, data: Any) -> None:
        if data is None:
            self.memory = {"decisions": 0}
        elif not isinstance(data.get("decisions"), int):
            raise ValueError("decisions must be a whole number")
        else:
            self.memory = dict(data)


def test_comps_memory_travels_in_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """MIL-70, MIL-72, MIL-104: a bot that remembers has its memory saved and checked."""
    monkeypatch.setattr(match_module, "make_bot", lambda game, kind, seed: Remembers(seed))
    match = Match.new(seed=51, bot_kind="random")
    assert isinstance(match.bot, Remembers)
    match.bot.memory = {"decisions": 5, "noted": ["go"]}
    write_save(Path("m.json"), match)
    data = json.loads(Path("m.json").read_text())
    assert data["players"][1]["memory"] == {"decisions": 5, "noted": ["go"]}
    loaded = read_save(Path("m.json")).match
    assert isinstance(loaded.bot, Remembers)
    assert loaded.bot.memory == {"decisions": 5, "noted": ["go"]}
    data["players"][1]["memory"] = {"decisions": "five"}
    Path("m.json").write_text(json.dumps(data))
    with pytest.raises(LoadError, match=re.escape(
            "corrupt save file (players[1].memory: decisions must be a whole number)")):
        read_save(Path("m.json"))


# --- games after the first, and files of version 1 ---------------------------------------------------


def finished_match(seed: int) -> Match:
    """A match whose first game random play has finished."""
    match = Match.new(seed=seed, bot_kind="random")
    state, rng = match.state, random.Random(seed)
    while not state.is_over():
        state.apply(state.sample_chance() if state.to_move() < 0 else rng.choice(state.legal_actions()))
    return match


def test_a_match_of_several_games_saves_its_whole_record() -> None:
    """MIL-56, MIL-66, MIL-72: the record runs from the seed through every game, ``new_game``
    between them; it replays to the snapshot, and the match goes on in its second game."""
    match = finished_match(61)
    first = match.state.record_lines()
    match.next_game()
    state = match.state
    while state.to_move() < 0:
        state.apply(state.sample_chance())
    write_save(Path("two.json"), match)
    data = json.loads(Path("two.json").read_text())
    assert data["record"] == [*first, "new_game", *state.record_lines()]
    assert "start" not in data
    loaded = read_save(Path("two.json")).match
    assert loaded.record() == data["record"]
    assert loaded.state.position_json() == state.position_json()
    assert loaded.state.game_no == 2
    assert loaded.earlier == [*first, "new_game"]
    data["record"].insert(5, "new_game")
    Path("two.json").write_text(json.dumps(data))
    with pytest.raises(LoadError, match=re.escape("record[5] 'new_game': a new game starts only when")):
        read_save(Path("two.json"))


def version_1(data: dict[str, Any], order_from: int, sorted_slots: list[Any]) -> dict[str, Any]:
    """``data`` (version 2) as an earlier parlour wrote it: ``0: order on`` in the record before
    entry ``order_from``, the later hints of seat 0 naming sorted slots (here: none), seat 0's
    sorted slots in the snapshot, ``order`` in each seat's block, no ``ui.order``."""
    old: dict[str, Any] = json.loads(json.dumps(data))
    old["version"] = 1
    old["record"].insert(order_from, "0: order on")
    for seat in old["hand"]["seats"]:
        seat["order"] = False
    old["hand"]["seats"][0].update(order=True, slots=sorted_slots)
    del old["ui"]["order"]
    return old


def test_a_version_1_file_with_ordering_still_loads() -> None:
    """Version 1 recorded ``0: order on`` as an entry that sorted the rules' slots. Such a file
    loads: the entry becomes the program's setting (MIL-17), the sorted snapshot is accepted."""
    data = good_save()
    slots = data["hand"]["seats"][0]["slots"]
    held = sorted((card for card in slots[1:] if card is not None), key=parse_card)
    old = version_1(data, 12, [slots[0], *held])  # ordered after the deal, then a draw into P
    Path("old.json").write_text(json.dumps(old))
    loaded = read_save(Path("old.json")).match
    assert loaded.ordering
    assert loaded.record() == data["record"]
    snapshot = {key: data[key] for key in ("match", "hand")}
    assert loaded.state.position_json() == mille().new(seed=41, start=snapshot).position_json()
    old["hand"]["seats"][0]["slots"] = [slots[0], *reversed(held)]  # not the same cards' layout: fine
    Path("old.json").write_text(json.dumps(old))
    assert read_save(Path("old.json")).match.ordering
    mine, comps = old["hand"]["seats"][0]["slots"], old["hand"]["seats"][1]["slots"]
    other = next(at for at, card in enumerate(comps) if card is not None and card not in mine)
    mine[1], comps[other] = comps[other], mine[1]  # other cards than the record's: refused
    Path("old.json").write_text(json.dumps(old))
    with pytest.raises(LoadError, match=re.escape("hand.seats[0].slots[1]: does not match the record")):
        read_save(Path("old.json"))


def test_a_version_1_file_saved_at_the_end_of_a_game_still_loads() -> None:
    """Version 1 wrote the end reason ``5000`` (now ``reached-5000``); MIL-74: resuming a
    finished game starts the next one."""
    match = finished_match(62)
    data = savefile.save_json(match)
    data["version"] = 1
    data["match"]["result"]["reason"] = "5000"
    for seat in data["hand"]["seats"]:
        seat["order"] = False
    del data["ui"]["order"]
    Path("end.json").write_text(json.dumps(data))
    loaded = read_save(Path("end.json")).match
    assert loaded.state.outcome() == match.state.outcome()
    assert not loaded.ordering

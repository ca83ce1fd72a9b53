"""``parlour play --replay FILE`` and ``parlour play --load FILE --at N`` (issue 15, "Replays":
"``parlour play GAME --replay FILE`` steps through it in the terminal; ``parlour play --load`` can
continue a record from any position (a new local match)").

Records are made here by bots playing a match with the engine, written with ``"seed": 0`` as a
server's record download has it (docs/protocol.md). Positions shown are compared with the engine's
own ``render`` of the record cut at that ply, read back by the game's rules.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import time
import urllib.request
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from server_process import WAIT, Server

from parlour.bots import make_bot
from parlour.engine import CHANCE, State, is_leaving
from parlour.engine.player import seen_by
from parlour.engine.turns import Turn, chance_owner
from parlour.games import get_game
from parlour.tui import play

PROMPT = re.compile(r"replay \d+/\d+> ")
TWO_HUMANS = ["--seat", "0=human", "--seat", "1=human"]


# --- records and positions -------------------------------------------------------------------------


@cache
def bot_match(name: str, seed: int) -> str:
    """A whole match between random bots, as the record JSON a server hands out (seed 0)."""
    game = get_game(name)
    state = game.new(seed=seed)
    bots = [make_bot(name, "random", seed * 10 + seat) for seat in range(state.players)]
    while not state.is_over():
        mover = state.to_move()
        if mover == CHANCE:
            state.apply(state.sample_chance())
        else:
            state.play(bots[mover].choose(seen_by(state, mover, bots[mover].rng), 0.01))
    return json.dumps({**state.to_json(), "seed": 0})


def write_record(tmp_path: Path, name: str, seed: int = 3, **changes: Any) -> tuple[Path, dict[str, Any]]:
    record = {**json.loads(bot_match(name, seed)), **changes}
    path = tmp_path / f"parlour-{name}-match.json"
    path.write_text(json.dumps(record))
    return path, record


def position_at(record: dict[str, Any], ply: int) -> State:
    """The engine's own state after ``ply`` actions of ``record`` (the game's rules, checked)."""
    return get_game(record["game"]).state_from_json({**record, "actions": record["actions"][:ply]})


def run(
    args: list[str], lines: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    """Calls ``main`` with ``lines`` as standard input; returns (status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    status = play.main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def replay(
    path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    *args: str,
) -> list[str]:
    """The replay's answers: ``[the start, the reply to line 1, …]`` (split at its prompts)."""
    status, out, err = run(["--replay", str(path), *args], lines, monkeypatch, capsys)
    assert (status, err) == (0, "")
    return PROMPT.split(out)


def shows(reply: str, state: State) -> bool:
    """Whether ``reply`` holds the board of ``state`` as a spectator sees it, whole."""
    return state.render(None) in reply


def heading(reply: str) -> str:
    return next(line for line in reply.splitlines() if line.startswith("Ply "))


# --- stepping through ------------------------------------------------------------------------------


def test_a_lines_of_action_record_steps_forward_and_back_showing_each_position(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = write_record(tmp_path, "loa")
    replies = replay(path, ["", "n", "", "b", "b", "b"], monkeypatch, capsys)
    plies = [0, 1, 2, 3, 2, 1, 0]
    assert len(replies) == len(plies) + 1  # the last prompt, then the end of input
    for reply, ply in zip(replies, plies, strict=False):
        assert shows(reply, position_at(record, ply)), f"ply {ply}"
        assert heading(reply).startswith(f"Ply {ply} of {len(record['actions'])}")
    for other in (0, 1, 2):  # not merely some board: the one of that ply
        assert not shows(replies[3], position_at(record, other))
    assert "the start" in heading(replies[0])
    assert "no ply before" in replay(path, ["b"], monkeypatch, capsys)[1]


def test_each_step_reads_as_a_scoresheet_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = write_record(tmp_path, "loa")
    before = position_at(record, 4)
    move = before.action_to_text(record["actions"][4])
    replies = replay(path, ["5"], monkeypatch, capsys)
    assert heading(replies[1]) == f"Ply 5 of {len(record['actions'])}, turn 5: Black: {move}"


def test_jumping_to_a_ply_first_and_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = write_record(tmp_path, "loa")
    plies = len(record["actions"])
    replies = replay(path, ["17", "last", "first", str(plies + 1), "-3", "x"], monkeypatch, capsys)
    assert shows(replies[1], position_at(record, 17))
    end = position_at(record, plies)
    outcome = end.outcome_json()
    assert outcome is not None
    assert shows(replies[2], end)
    assert play.describe_outcome(end.seat_names(), outcome) in replies[2]
    assert shows(replies[3], position_at(record, 0))
    assert f"The record ends at ply {plies}." in replies[4]
    assert "Unknown command '-3'" in replies[5]
    assert "Unknown command 'x'" in replies[6]
    _, out, _ = run(["--replay", str(path)], ["first", str(plies + 1), "-3", "x"], monkeypatch, capsys)
    assert out.endswith(f"replay 0/{plies}> \n")  # refused commands leave the position as it was


def test_the_moves_list_is_numbered_with_turns_and_marks_the_position(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = write_record(tmp_path, "loa")
    listing = replay(path, ["3", "moves"], monkeypatch, capsys)[2].splitlines()
    entries = [line for line in listing if re.match(r"[ >] \d+\. turn \d+  ", line)]
    assert len(entries) == len(record["actions"])
    state = position_at(record, 0)
    for ply, (line, action) in enumerate(zip(entries, record["actions"], strict=True)):
        seat = state.seat_names()[state.to_move()]
        # Lines of Action: every ply is a seat's turn of its own.
        assert line[2:] == f"{ply + 1}. turn {ply + 1}  {seat}: {state.action_to_text(action)}"
        assert line.startswith(">") == (ply + 1 == 3)
        state.apply(action)


def test_a_leaving_action_carries_the_turn_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = position_at(json.loads(bot_match("loa", 3)), 6)
    state.retire(1, "resigned")  # White resigns with Black to move
    path = tmp_path / "resigned.json"
    path.write_text(json.dumps({**state.to_json(), "seed": 0}))
    replies = replay(path, ["moves", "last"], monkeypatch, capsys)
    assert replies[1].splitlines()[-2:] == [f"  6. turn 6  {heading_of(state.to_json(), 6)}",
                                            "  7. turn 6  White resigned"]
    assert "Result: Black wins" in replies[2]


# --- Mille Bornes: hidden information, public once in a record ---------------------------------------


def hand_line(state: State, seat: int) -> str:
    """The seat's hand as its OWN view holds it (what the seat saw at the table)."""
    slots = state.view(seat)["content"]["private"]["slots"]
    cards = "  ".join(card for card in slots if card is not None)
    return f"{state.seat_names()[seat]}'s hand: {cards or '(none)'}"


def test_a_mille_record_shows_every_hand_and_every_card_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = write_record(tmp_path, "mille")
    plies = [40, 41, 40, 300]
    replies = replay(path, ["40", "", "b", "300"], monkeypatch, capsys)
    for reply, ply in zip(replies[1:], plies, strict=False):
        state = position_at(record, ply)
        assert shows(reply, state), f"ply {ply}"
        for seat in (0, 1):
            assert hand_line(state, seat) in reply.splitlines(), f"ply {ply}, seat {seat}"
    assert all("(none)" not in hand_line(position_at(record, 40), seat) for seat in (0, 1))  # dealt
    # A card drawn is written out (the spectator's words would be "card ?").
    drawn = [ply for ply in range(1, 60) if heading_of(record, ply).startswith("chance: card ")]
    assert drawn
    reply = replay(path, [str(drawn[-1])], monkeypatch, capsys)[1]
    assert heading(reply).endswith(heading_of(record, drawn[-1]))
    assert "?" not in heading(reply)


def heading_of(record: dict[str, Any], ply: int) -> str:
    """``who: text`` of ply ``ply`` from the engine: the full text of the action."""
    before = position_at(record, ply - 1)
    mover = before.to_move()
    who = "chance" if mover == CHANCE else before.seat_names()[mover]
    return f"{who}: {before.action_to_text(record['actions'][ply - 1])}"


def test_mille_turns_hold_the_draw_and_the_card_with_the_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = write_record(tmp_path, "mille")
    listing = replay(path, ["moves"], monkeypatch, capsys)[1].splitlines()
    entries = [re.fullmatch(r"[ >] (\d+)\. turn (\d+)  (.*)", line) for line in listing[1:]]
    rows = [(int(m[2]), m[3]) for m in entries if m is not None]
    assert len(rows) == len(listing) - 1
    # "Player 1: draw", "chance: card 75", "Player 1: discard 25": one turn. (A draw that ends a
    # hand is followed by the next deal, whose last card starts the turn of the seat then to move.)
    draws = [index for index, (_, said) in enumerate(rows)
             if said.endswith(": draw") and rows[index + 1][1].startswith("chance: card ")
             and rows[index + 2][1].startswith(said.split(":")[0] + ": ")]
    assert len(draws) > 100
    for index in draws:
        assert rows[index][0] == rows[index + 1][0] == rows[index + 2][0]
    # The other seat's draw starts the next turn; the same seat's (its extra play after a safety)
    # does not.
    seat_of = {index: rows[index][1].split(":")[0] for index in draws}
    after = [(index, index + 3) for index in draws if index + 3 in seat_of]
    assert {seat_of[index] == seat_of[then] for index, then in after} == {True, False}
    for index, then in after:
        assert rows[then][0] == rows[index][0] + (seat_of[index] != seat_of[then])
    turns = [turn for turn, _ in rows]
    assert turns == sorted(turns)
    assert turns[0] == 1


# --- playing on from a position ------------------------------------------------------------------------


def test_load_at_plays_on_from_that_ply_and_leaves_the_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = write_record(tmp_path, "loa")
    before = path.read_bytes()
    saved = tmp_path / "new.json"
    status, out, err = run(["--load", str(path), "--at", "10", "--seed", "5", *TWO_HUMANS],
                           ["board", f"save {saved}", "quit"], monkeypatch, capsys)
    assert (status, err) == (0, "")
    assert path.read_bytes() == before
    assert f"A new match from ply 10 of {path} (the file is not changed)." in out
    at = position_at(record, 10)
    assert at.render(at.to_move()) in out.split("to move> ")[0]
    again = json.loads(saved.read_text())
    assert again["actions"] == record["actions"][:10]
    assert again["seed"] == 5  # a new match: its own seed, not the record's 0


def test_load_at_a_mille_ply_lets_bots_finish_the_new_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = write_record(tmp_path, "mille")
    before = path.read_bytes()
    status, out, err = run(["--load", str(path), "--at", "100", "--seat", "0=bot:random",
                            "--seat", "1=bot:random", "--time", "0.01"], [], monkeypatch, capsys)
    assert (status, err) == (0, "")
    assert out.rstrip().splitlines()[-1].startswith("Result: ")
    assert path.read_bytes() == before


def test_play_inside_a_replay_goes_on_from_the_shown_ply(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = write_record(tmp_path, "loa")
    before = path.read_bytes()
    saved = tmp_path / "new.json"
    status, out, err = run(["--replay", str(path), *TWO_HUMANS],
                           ["12", "b", "play", f"save {saved}", "quit"], monkeypatch, capsys)
    assert (status, err) == (0, "")
    after_play = out.split(f"A new match from ply 11 of {path} (the file is not changed).")
    assert len(after_play) == 2
    at = position_at(record, 11)
    assert at.render(at.to_move()) in after_play[1]
    assert json.loads(saved.read_text())["actions"] == record["actions"][:11]
    assert path.read_bytes() == before


def test_play_at_the_end_of_a_finished_record_says_to_step_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = write_record(tmp_path, "loa")
    replies = replay(path, ["last", "play"], monkeypatch, capsys)
    assert "The game is over here: step back" in replies[2]
    assert len(replies) == 4  # still in the replay: a prompt after the answer


def test_replay_may_start_at_a_ply(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = write_record(tmp_path, "loa")
    replies = replay(path, ["n"], monkeypatch, capsys, "loa", "--at", "8")
    assert shows(replies[0], position_at(record, 8))
    assert shows(replies[1], position_at(record, 9))


# --- bad files and bad arguments ---------------------------------------------------------------------


def bad_records() -> list[Any]:
    good = json.loads(bot_match("loa", 3))
    illegal = list(good["actions"])
    illegal[4] = illegal[3]  # White's move again, at Black's ply 5
    cases: list[tuple[str, bytes | None, str]] = [
        ("missing", None, "no such file"),
        ("empty", b"", "the file is empty"),
        ("not-json", b"b1-d3 a2-c4\n", "not valid JSON"),
        ("truncated", json.dumps(good)[:80].encode(), "not valid JSON"),
        ("not-a-record", b'{"name": "Ann", "moves": []}', "not a parlour match record"),
        ("a-list", b"[1, 2, 3]", "must be a JSON object"),
        ("unknown-game", json.dumps({**good, "game": "chess"}).encode(), "does not know ('chess')"),
        ("illegal-action", json.dumps({**good, "actions": illegal}).encode(), "action 5 of the record"),
    ]
    return [pytest.param(content, message, id=name) for name, content, message in cases]


@pytest.mark.parametrize(("content", "message"), bad_records())
def test_a_bad_record_gets_one_clear_line_and_status_1(
    content: bytes | None, message: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_bytes(content)
    for args in (["--replay", str(path)], ["--load", str(path), "--at", "2"]):
        status, out, err = run(args, ["quit"], monkeypatch, capsys)
        assert (status, out) == (1, "")
        verb = "replay" if args[0] == "--replay" else "load"
        assert err.startswith(f"parlour play: cannot {verb} {path}: ")
        assert message in err
        assert err.count("\n") == 1
        assert "Traceback" not in err
        assert (path.read_bytes() if path.exists() else None) == content


def test_a_record_of_another_game_says_which_game_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = write_record(tmp_path, "loa")
    status, out, err = run(["mille", "--replay", str(path)], [], monkeypatch, capsys)
    assert (status, out) == (1, "")
    assert "it is a record of Lines of Action (loa), not of Mille Bornes" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--at", "3"], "--at N goes with --load FILE or --replay FILE"),
        (["loa", "--at", "3"], "--at N goes with --load FILE or --replay FILE"),
        (["--replay", "RECORD", "--at", "-1"], "counts plies from 0"),
        (["--replay", "RECORD", "--at", "100000"], "the record has"),
        (["--replay", "RECORD", "--load", "RECORD"], "cannot be used together"),
        (["--replay", "RECORD", "--option", "move_limit=10"], "cannot be used with --replay"),
        (["--replay", "RECORD", "--seat", "1=robot"], "not 'robot'"),
        (["--replay", "RECORD", "--time", "0"], "--time must be a positive"),
    ],
)
def test_bad_arguments_exit_with_status_2(
    args: list[str], message: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    path, _ = write_record(tmp_path, "loa")
    status, out, err = run([str(path) if arg == "RECORD" else arg for arg in args], [], monkeypatch, capsys)
    assert (status, out) == (2, "")
    assert message in err.splitlines()[0]


def test_load_at_past_the_record_or_at_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = write_record(tmp_path, "loa")
    plies = len(record["actions"])
    status, _, err = run(["--load", str(path), "--at", str(plies + 1)], [], monkeypatch, capsys)
    assert status == 1
    assert f"it has {plies} plies, so --at takes 0 to {plies}, not {plies + 1}" in err
    status, _, err = run(["--load", str(path), "--at", str(plies)], [], monkeypatch, capsys)
    assert status == 1
    assert f"the game is over at ply {plies}" in err


# --- help and pipes ------------------------------------------------------------------------------------


def test_help_texts_name_the_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["--help"], [], monkeypatch, capsys)
    assert status == 0
    assert "--replay FILE" in out
    assert "--at N" in out
    path, _ = write_record(tmp_path, "loa")
    text = replay(path, ["help"], monkeypatch, capsys)[1]
    for word in ("Enter, n", "b ", "first", "last", "N ", "moves", "play", "help", "quit"):
        assert f"\n  {word}" in text


def test_a_replay_through_the_real_command_on_pipes(tmp_path: Path) -> None:
    path, record = write_record(tmp_path, "mille")
    result = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "play", "mille", "--replay", str(path)],
        input="\n\n25\nquit\n", capture_output=True, text=True, check=False, timeout=120,
    )
    assert (result.returncode, result.stderr) == (0, "")
    replies = PROMPT.split(result.stdout)
    assert len(replies) == 5
    assert shows(replies[3], position_at(record, 25))
    assert "Traceback" not in result.stdout


def server_turns(record: dict[str, Any]) -> list[int]:
    """The turns the server gives a match's events as it is played, one action at a time (the seat
    after a chance action found by resolving the rest of its run on a copy), where the scoresheet
    numbers the whole record at once (``parlour.engine.turns.numbered``)."""
    state = position_at(record, 0)
    turn = Turn()
    turns = []
    for action in record["actions"]:
        mover = state.to_move()
        state.apply(action)  # the record is the game's own: checked by position_at
        owner = chance_owner(state) if mover == CHANCE and not is_leaving(action) else None
        turn = turn.after(mover, action, owner)
        turns.append(turn.shown)
    return turns


@pytest.mark.parametrize("name", ["mille", "conflict", "biloba"])
def test_the_scoresheet_turns_are_the_servers(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = write_record(tmp_path, name)
    listing = replay(path, ["moves"], monkeypatch, capsys)[1].splitlines()[1:]
    turns = [int(line.split(" turn ")[1].split()[0]) for line in listing]
    assert turns == server_turns(record)
    # Not one turn a ply: some seat's actions in a row (chance with them) share their turn.
    assert turns[-1] < len(turns)


# --- a record downloaded from a server ---------------------------------------------------------------


def test_a_record_downloaded_from_a_server_replays_and_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole way a person goes: a finished Mille Bornes match on a server, its record
    downloaded (seed 0), stepped through to the end the server reached, then played on from a ply."""
    server = Server(tmp_path / "server").start()
    try:
        created = server.create(game="mille", seats=["bot:random", "bot:random"], bot_seconds=0.01)
        match_id = created["match"]["id"]
        deadline = time.monotonic() + 8 * WAIT  # a bound on waiting for the bots, not a timing
        while (summary := server.summary(match_id))["status"] != "over":
            assert time.monotonic() < deadline, f"match {match_id} did not end within {8 * WAIT} s"
            time.sleep(0.1)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"{server.base}/api/matches/{match_id}/record", timeout=WAIT) as answer:
            disposition = answer.headers["Content-Disposition"]
            body = answer.read()
    finally:
        server.stop()
    name = re.fullmatch(r'attachment; filename="(parlour-mille-[\w-]+\.json)"', disposition)
    assert name is not None, disposition
    path = tmp_path / name[1]
    path.write_bytes(body)
    record = json.loads(body)
    assert record["seed"] == 0
    plies = len(record["actions"])
    assert plies == summary["version"]
    end = replay(path, ["last"], monkeypatch, capsys)[1]
    final = position_at(record, plies)
    assert shows(end, final)
    assert final.outcome_json() == summary["outcome"]
    assert play.describe_outcome(final.seat_names(), summary["outcome"]) in end
    status, out, err = run(["--load", str(path), "--at", "200", "--seat", "0=bot:random",
                            "--seat", "1=bot:random", "--time", "0.01"], [], monkeypatch, capsys)
    assert (status, err) == (0, "")
    assert out.rstrip().splitlines()[-1].startswith("Result: ")
    assert path.read_bytes() == body

"""``parlour play --join URL``: the terminal front end plays a seat of a server match (a real
subprocess on a pipe, against a real server), and comes back to its seat when run again."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from server_helpers import Client, open_client
from server_process import Server
from terminal_process import Terminal

ASYNC = pytest.mark.asyncio(loop_scope="session")
PROMPT = "Black to move> "


@ASYNC
async def test_the_terminal_plays_a_seat_and_comes_back(
    server: Server, clients: list[Client], tmp_path: Path
) -> None:
    created = server.create(game="loa", seats=["open", "open"], seed=1)
    match_id = created["match"]["id"]
    white_token = server.join(match_id, seat=1, name="Bob")["token"]
    white = await open_client(clients, server, match_id, "white")
    await white.hello(white_token)
    page = f"{server.base}/match/{match_id}"

    terminal = Terminal(["loa", "--join", page], tmp_path)
    opening = terminal.read_until(PROMPT)
    assert "You took seat 0 (Black)" in opening
    assert "White (Bob)" in opening
    assert " 1  - b b b b b b -" in opening  # the game's own board drawing
    await white.expect("state", status="running")  # the last seat taken: the match starts
    terminal.type("b1-b5")
    assert "That move is not allowed" in terminal.read_until(PROMPT)
    terminal.type("nonsense")
    assert "Cannot read that as a move" in terminal.read_until(PROMPT)
    assert server.summary(match_id)["version"] == 0
    terminal.type("b1-d3")
    assert "Black plays b1-d3" in terminal.read_until(r"Waiting for White \(Bob\)…")
    assert (await white.expect("update", version=1))["event"] == {"version": 1, "seat": 0, "action": "b1-d3",
                                                                        "turn": 1}
    terminal.process.send_signal(signal.SIGINT)  # Ctrl-C while waiting: the seat is kept
    status, output = terminal.finish()
    assert status == 130, output
    assert "your seat is kept" in output, output

    # White moves while Black is away; the same command (by its WebSocket address this time, and
    # without naming the game) takes Black's seat back.
    await white.send({"type": "action", "text": "a2-c2", "version": 1})
    await white.expect("update", version=2)
    again = Terminal(["--join", server.match_ws(match_id)], tmp_path)
    back = again.read_until(PROMPT)
    assert "Back in your seat (Black)" in back
    assert "While you were away:\nWhite plays a2-c2" in back
    assert "b1-d3" not in back
    again.type("e1-e3")
    assert "Black plays e1-e3" in again.read_until("Waiting for White")
    update = await white.expect("update", version=3)
    assert update["event"]["action"] == "e1-e3"
    reply = update["legal"][0]["text"]
    await white.send({"type": "action", "text": reply, "version": 3})
    assert f"White plays {reply}" in again.read_until(PROMPT)
    again.type("moves")
    assert "Legal moves" in again.read_until(PROMPT)
    status, output = again.finish()  # end of input at the prompt
    assert status == 0, output
    assert server.summary(match_id)["version"] == 4

    # A seat that is taken cannot be joined; a match of another game is refused; both say why.
    other = Terminal(["loa", "--join", page, "--seat", "white"], tmp_path / "elsewhere")
    status, output = other.finish()
    assert status == 1, output
    assert "already taken" in output, output
    wrong = Terminal(["no-such-game", "--join", page], tmp_path / "elsewhere")
    status, output = wrong.finish()
    assert status == 1, output
    assert "not no-such-game" in output, output

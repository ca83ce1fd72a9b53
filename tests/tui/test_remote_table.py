"""Around the game at ``parlour play --join`` (issue 14): resigning (asked first), draw offers,
"end the game here" with three players, a seat out, and a rematch the client follows to its new
seat. The real client on pipes against a real ``parlour serve``; the other seats are WebSockets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from remote_table import Relay, Seat
from server_process import Server
from terminal_process import Terminal

from parlour.server.bots import bot_seed, think

LOA_PROMPT = "Black to move> "


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("table")).start()
    yield running
    running.stop()


@pytest.fixture
def opened() -> Iterator[list[Terminal | Seat]]:
    """Terminals and seats registered here are stopped after the test."""
    things: list[Terminal | Seat] = []
    yield things
    for thing in things:
        thing.stop() if isinstance(thing, Terminal) else thing.close()


def loa_with_bob(server: Server, opened: list[Terminal | Seat], home: Path) -> tuple[str, Seat, Terminal]:
    """A Lines of Action match: Bob at White over a WebSocket, Ann at Black in the terminal."""
    match_id = server.create(game="loa", seats=["open", "open"], seed=1)["match"]["id"]
    bob = Seat(server, match_id, "bob")
    opened.append(bob)
    bob.hello(server.join(match_id, seat=1, name="Bob")["token"])
    terminal = Terminal(["loa", "--join", f"{server.base}/match/{match_id}"], home)
    opened.append(terminal)
    assert "You took seat 0 (Black)" in terminal.read_until(LOA_PROMPT)
    bob.next("state", status="running")
    return match_id, bob, terminal


def test_resigning_asks_first_and_both_sides_learn_the_result(
    server: Server, opened: list[Terminal | Seat], tmp_path: Path
) -> None:
    match_id, bob, terminal = loa_with_bob(server, opened, tmp_path)

    # "n" (or anything but y/yes) keeps playing: nothing is sent, and the move goes on as usual.
    terminal.type("resign")
    terminal.read_until(r"Resign this game\? \[y/N\] ")
    terminal.type("n")
    assert "You play on." in terminal.read_until(LOA_PROMPT)
    terminal.type("b1-d3")
    assert "Black plays b1-d3" in terminal.read_until(r"Waiting for White \(Bob\)…")
    assert bob.next("update", version=1)["event"] == {"version": 1, "seat": 0, "action": "b1-d3", "turn": 1}
    assert server.summary(match_id)["status"] == "running"

    # Resigning while the other side is to move: the terminal reads commands then too.
    terminal.type("resign")
    terminal.read_until(r"Resign this game\? \[y/N\] ")
    terminal.type("yes")
    ended = terminal.read_until("Game over> ")
    assert "You resigned." in ended
    assert "Result: White (Bob) wins: the other side resigned" in ended
    update = bob.next("update", version=2)
    assert update["event"] == {"version": 2, "seat": 0, "action": "Black resigned", "turn": 1,
                               "leaving": {"kind": "retire", "seat": 0, "why": "resigned"}}
    assert update["view"]["outcome"]["winner"] == 1
    assert update["view"]["outcome"]["reason"] == "resigned"
    summary = server.summary(match_id)
    assert summary["status"] == "over"
    assert summary["result"] == "White (Bob) wins: the other side resigned"

    # Over: a move or a second resignation is answered in words, and nothing changes.
    terminal.type("b1-b3")
    assert "The game is over: type rematch" in terminal.read_until("Game over> ")
    terminal.type("resign")
    assert "nothing to resign" in terminal.read_until("Game over> ")
    status, output = terminal.finish()
    assert status == 0, output
    assert "End of input." in output
    assert server.summary(match_id)["version"] == 2


def test_a_draw_offered_by_the_other_side_is_declined_then_accepted(
    server: Server, opened: list[Terminal | Seat], tmp_path: Path
) -> None:
    match_id, bob, terminal = loa_with_bob(server, opened, tmp_path)

    # Nothing offered: nothing to answer. A rematch before the end: the server's refusal, in its words.
    terminal.type("accept")
    nothing = terminal.read_until(LOA_PROMPT)
    assert "Nobody is offering a draw or a rematch: there is nothing to accept." in nothing
    terminal.type("rematch")
    refused = terminal.read_until(LOA_PROMPT)
    assert "The server refused your rematch offer: a rematch is offered once the game is over" in refused

    # Ann's own offer, withdrawn by declining it.
    terminal.type("draw")
    assert "You offer a draw: waiting for Bob (White)" in terminal.read_until(LOA_PROMPT)
    assert bob.news("draw", "made")["offers"] == [{"what": "draw", "by": 0, "agreed": [0], "waiting": [1]}]
    terminal.type("decline")
    assert "You withdraw the draw offer." in terminal.read_until(LOA_PROMPT)
    assert bob.news("draw", "withdrawn")["offers"] == []

    bob.send({"type": "offer", "what": "draw"})
    assert "Bob (White) offers a draw: type accept or decline" in terminal.read_until(LOA_PROMPT)
    terminal.type("decline")
    assert "You decline the draw offer." in terminal.read_until(LOA_PROMPT)
    assert bob.news("draw", "declined")["news"]["seat"] == 0
    bob.send({"type": "offer", "what": "draw"})
    assert bob.next("error")["code"] == "offer_declined"  # Bob must move before asking again

    terminal.type("b1-d3")
    terminal.read_until(r"Waiting for White \(Bob\)…")
    bob.next("update", version=1)
    bob.send({"type": "action", "text": "a2-c2", "version": 1})
    assert "White plays a2-c2" in terminal.read_until(LOA_PROMPT)
    bob.send({"type": "offer", "what": "draw"})
    assert "Bob (White) offers a draw: type accept or decline" in terminal.read_until(LOA_PROMPT)
    terminal.type("accept")
    ended = terminal.read_until("Game over> ")
    assert "You accept the draw" in ended
    assert "Draw agreed at the table." in ended
    assert "Result: Draw: agreed at the table" in ended
    update = bob.next("update", version=3)
    assert update["event"] == {"version": 3, "seat": None, "action": "draw agreed", "turn": 2,
                               "leaving": {"kind": "agreed", "seat": None, "why": None}}
    assert update["view"]["outcome"]["winner"] is None
    assert update["view"]["outcome"]["reason"] == "agreed"
    assert server.summary(match_id)["result"] == "Draw: agreed at the table"
    terminal.type("quit")
    status, output = terminal.finish()
    assert status == 0, output
    assert "You left the table." in output


def test_a_rematch_offered_by_the_other_side_takes_the_terminal_to_its_new_seat(
    server: Server, opened: list[Terminal | Seat], tmp_path: Path
) -> None:
    match_id, bob, terminal = loa_with_bob(server, opened, tmp_path)
    terminal.type("b1-d3")
    terminal.read_until(r"Waiting for White \(Bob\)…")
    bob.send({"type": "resign"})
    ended = terminal.read_until("Game over> ")
    assert "Bob (White) resigned." in ended
    assert "Result: Black (Ann) wins: the other side resigned" in ended

    bob.send({"type": "offer", "what": "rematch"})
    assert "Bob (White) offers a rematch: type accept or decline" in terminal.read_until("Game over> ")
    terminal.type("accept")
    rematch = bob.next("rematch")["rematch"]
    assert rematch["seat"] == 0  # every player one seat on: Bob now plays Black, and moves first
    new_id = rematch["match"]
    moved = terminal.read_until(r"Waiting for Black \(Bob\)…")
    assert "You accept the rematch" in moved
    assert f"Rematch: you now play White (seat 1) at {server.base}/match/{new_id}" in moved
    assert "You play White; Black (Bob)." in moved

    # The play goes on in the new match, the terminal at White.
    bob_again = Seat(server, new_id, "bob again")
    opened.append(bob_again)
    bob_again.hello(rematch["token"])
    bob_again.send({"type": "action", "text": "b1-d3", "version": 0})
    assert "Black plays b1-d3" in terminal.read_until("White to move> ")
    terminal.type("a2-c2")
    assert "White plays a2-c2" in terminal.read_until(r"Waiting for Black \(Bob\)…")
    moved = bob_again.next("update", version=2)["event"]
    assert moved == {"version": 2, "seat": 1, "action": "a2-c2", "turn": 2}
    assert server.summary(new_id)["seats"][1]["player"] == "Ann"
    assert server.summary(match_id)["status"] == "over"

    # The new seat's token is kept like any other: the same command on the new address takes it back.
    book = terminal.saved_seats()
    assert book[server.match_ws(new_id)]["seat"] == 1
    assert book[server.match_ws(match_id)]["seat"] == 0
    status, output = terminal.finish()
    assert status == 0, output
    again = Terminal(["--join", f"{server.base}/match/{new_id}"], tmp_path)
    opened.append(again)
    assert "Back in your seat (White)" in again.read_until(r"Waiting for Black \(Bob\)…")


def test_with_three_players_a_seat_out_watches_and_the_others_end_the_game_here(
    server: Server, opened: list[Terminal | Seat], tmp_path: Path
) -> None:
    match_id = server.create(game="biloba", players=3, seats=["open", "open", "open"], seed=1)["match"]["id"]
    others = []
    for seat, name in ((1, "Bob"), (2, "Cy")):
        other = Seat(server, match_id, name)
        opened.append(other)
        other.hello(server.join(match_id, seat=seat, name=name)["token"])
        others.append(other)
    bob, cy = others
    terminal = Terminal(["biloba", "--join", f"{server.base}/match/{match_id}"], tmp_path)
    opened.append(terminal)
    assert "You took seat 0 (Orange)" in terminal.read_until("Orange to move> ")
    terminal.type("help")
    assert "draw        propose ending the game here" in terminal.read_until("Orange to move> ")

    terminal.type("resign")
    terminal.read_until(r"Resign this game\? \[y/N\] ")
    terminal.type("y")
    out = terminal.read_until("Watching> ")
    assert "You resigned." in out
    assert "You are out: resigned. You may watch the game to its end, or type quit to leave." in out
    told = bob.next("out", seat=0)
    assert told["words"] == "Orange is out: resigned"
    terminal.type("c1-c2")
    assert "You are out of this game" in terminal.read_until("Watching> ")

    # The two still in play agree to end here; the seat out hears it but is not asked.
    bob.send({"type": "offer", "what": "draw"})
    proposal = terminal.read_until("Watching> ")
    assert "Bob (Blue) proposes ending the game here, a draw among Bob (Blue) and Cy (Red)" in proposal
    assert "type accept" not in proposal
    cy.send({"type": "accept", "what": "draw"})
    # The draw's update and the news of the acceptance come together, the update first.
    accepted = r"Cy \(Red\) accepts ending the game here: the game is drawn"
    ended = terminal.read_through("Game over> ", accepted)
    assert "Draw agreed at the table." in ended
    assert "Result: Draw: agreed at the table" in ended
    assert server.summary(match_id)["status"] == "over"
    status, output = terminal.finish()
    assert status == 0, output


def test_coming_back_finds_the_offer_waiting_and_a_rematch_made_meanwhile(
    server: Server, opened: list[Terminal | Seat], tmp_path: Path
) -> None:
    match_id, bob, terminal = loa_with_bob(server, opened, tmp_path)
    page = f"{server.base}/match/{match_id}"
    status, output = terminal.finish()
    assert status == 0, output

    # Offered while Ann was away: told on her return, and answered as any other.
    bob.send({"type": "offer", "what": "draw"})
    bob.news("draw", "made")
    back = Terminal(["loa", "--join", page], tmp_path)
    opened.append(back)
    arrival = back.read_until(LOA_PROMPT)
    assert "Back in your seat (Black)" in arrival
    assert "Bob (White) offers a draw: type accept or decline" in arrival
    back.type("decline")
    assert "You decline the draw offer." in back.read_until(LOA_PROMPT)
    assert bob.news("draw", "declined")["news"]["seat"] == 0

    # Ann offers a rematch and leaves; Bob accepts meanwhile; the same command takes her to it.
    bob.send({"type": "resign"})
    back.read_until("Game over> ")
    back.type("rematch")
    assert "You offer a rematch: waiting for Bob (White)" in back.read_until("Game over> ")
    status, output = back.finish()
    assert status == 0, output
    bob.news("rematch", "made")
    bob.send({"type": "accept", "what": "rematch"})
    new_id = bob.next("rematch")["rematch"]["match"]
    again = Terminal(["loa", "--join", page], tmp_path)
    opened.append(again)
    moved = again.read_until(r"Waiting for Black \(Bob\)…")
    assert "Result: Black (Ann) wins: the other side resigned" in moved
    assert f"Rematch: you now play White (seat 1) at {server.base}/match/{new_id}" in moved
    assert again.saved_seats()[server.match_ws(new_id)]["seat"] == 1


def test_a_terminal_player_knocked_out_by_play_is_told_and_watches_the_bots_finish(
    server: Server, opened: list[Terminal | Seat], tmp_path: Path
) -> None:
    # Issue 14's table, as tests/server/test_server_resign.py plays it: 4-player Biloba, seed 1, the
    # person's moves those the greedy bot would choose, puts Orange out (BIL-32); the bots play on
    # to the quiet limit (BIL-51). The moves are typed into the terminal; a second connection with
    # the terminal's own token reads the seat's legal moves to choose them.
    match_id = server.create(game="biloba", players=4, seats=["open", *["bot:greedy"] * 3], seed=1,
                             bot_seconds=0.01, options={"quiet_limit": 20})["match"]["id"]
    terminal = Terminal(["biloba", "--join", f"{server.base}/match/{match_id}"], tmp_path)
    opened.append(terminal)
    seen = terminal.read_until(r"You took seat 0 \(Orange\)")
    ann = Seat(server, match_id, "Ann's second connection")
    opened.append(ann)
    last = ann.hello(terminal.saved_seats()[server.match_ws(match_id)]["token"])
    answered = -1
    while last["status"] == "running":
        if last["legal"] and answered != last["version"]:
            answered = last["version"]
            seen += terminal.read_until("Orange to move> ")
            terminal.type(think("biloba", "greedy", bot_seed(1, 0, answered), 0, last["view"], 0.01))
        last = ann.until("the next update", lambda m: m["type"] in ("state", "update"))
        terminal.drain()
    seen += terminal.read_until("Game over> ")
    assert last["view"]["out"][0] is not None, "Orange was not knocked out: the seed no longer does it"
    out = "You are out: down to two pawns with no capture in sight. You may watch the game to its end"
    assert out in seen
    assert seen.index(out) < seen.index("Watching> ") < seen.index("Result: ")
    for seat, name in enumerate(last["view"]["seats"][1:], start=1):  # the others in the third person
        why = last["view"]["out"][seat]
        assert (why is None) == (f"{name} (bot:greedy) is out:" not in seen)
        if why is not None:
            assert f"{name} (bot:greedy) is out: {why}" in seen
    assert last["view"]["outcome"]["reason"] == "quiet-limit"
    assert f"Result: {server.summary(match_id)['result']}" in seen


def test_a_dropped_connection_comes_back_with_what_was_missed_and_commands_still_work(
    server: Server, opened: list[Terminal | Seat], tmp_path: Path
) -> None:
    match_id = server.create(game="loa", seats=["open", "open"], seed=1)["match"]["id"]
    bob = Seat(server, match_id, "bob")
    opened.append(bob)
    bob.hello(server.join(match_id, seat=1, name="Bob")["token"])
    relay = Relay(server)
    try:
        terminal = Terminal(["loa", "--join", f"{relay.base}/match/{match_id}"], tmp_path)
        opened.append(terminal)
        terminal.read_until(LOA_PROMPT)
        terminal.type("b1-d3")
        terminal.read_until(r"Waiting for White \(Bob\)…")
        bob.next("update", version=1)

        relay.cut()  # the terminal's connection drops; Bob plays meanwhile, or just after it is back
        bob.send({"type": "action", "text": "a2-c2", "version": 1})
        back = terminal.read_through("Reconnected.", "White plays a2-c2", LOA_PROMPT)
        assert "Connection lost; reconnecting…" in back
        assert back.count("White plays a2-c2") == 1, back

        terminal.type("draw")  # the new connection carries commands and moves
        assert "You offer a draw: waiting for Bob (White)" in terminal.read_until(LOA_PROMPT)
        bob.news("draw", "made")
        terminal.type("e1-e3")
        moved = terminal.read_through(r"Waiting for White \(Bob\)…", "The draw offer lapsed: Black moved")
        assert "Black plays e1-e3" in moved
        update = bob.next("update", version=3)
        assert update["event"] == {"version": 3, "seat": 0, "action": "e1-e3", "turn": 3}
        assert bob.news("draw", "lapsed")["news"]["words"] == "The draw offer lapsed: Black moved"
    finally:
        relay.close()


def test_against_a_bot_a_rematch_is_made_at_once_and_the_bot_moves_first(
    server: Server, opened: list[Terminal | Seat], tmp_path: Path
) -> None:
    match_id = server.create(game="loa", seats=["open", "bot:random"], bot_seconds=0.01)["match"]["id"]
    terminal = Terminal(["loa", "--join", f"{server.base}/match/{match_id}"], tmp_path)
    opened.append(terminal)
    terminal.read_until(LOA_PROMPT)
    terminal.type("draw")  # bots take no draws: the server says so, and the game goes on
    assert "The server refused your draw offer: White is played by a bot" in terminal.read_until(LOA_PROMPT)
    terminal.type("resign")
    terminal.read_until(r"Resign this game\? \[y/N\] ")
    terminal.type("y")
    assert "Result: White (bot:random) wins: the other side resigned" in terminal.read_until("Game over> ")
    terminal.type("rematch")
    moved = terminal.read_until("White to move> ")
    assert "The rematch is on." in moved  # nobody else to ask: made at once
    assert "Rematch: you now play White (seat 1) at" in moved
    assert "You play White; Black (bot:random)." in moved
    assert "Black plays " in moved
    new_id = moved.split(f"{server.base}/match/")[1].split()[0].rstrip(".")
    assert server.summary(new_id)["seats"][0]["bot"] == "random"
    assert server.summary(new_id)["version"] == 1


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose time moves only when a test moves it (``POST /api/test/clock``)."""
    running = Server(tmp_path_factory.mktemp("table-clock"), flags=["--test-clock"]).start()
    yield running
    running.stop()


def advance(server: Server, seconds: float) -> None:
    status, answer = server.call("POST", "/api/test/clock", {"advance": seconds})
    assert status == 200, answer


def timed_loa_with_bob(
    server: Server, opened: list[Terminal | Seat], home: Path,
) -> tuple[str, Seat, Terminal]:
    """A 5+3 Lines of Action match: Bob at White over a WebSocket, Ann at Black in the terminal."""
    match_id = server.create(game="loa", seats=["open", "open"], seed=1,
                             clock={"base": 300, "increment": 3})["match"]["id"]
    bob = Seat(server, match_id, "bob")
    opened.append(bob)
    bob.hello(server.join(match_id, seat=1, name="Bob")["token"])
    terminal = Terminal(["loa", "--join", f"{server.base}/match/{match_id}"], home)
    opened.append(terminal)
    # The turn line carries both clocks.
    assert "You took seat 0 (Black)" in terminal.read_until(r"Black to move · Black 5:00 · White 5:00> ")
    bob.next("state", status="running")
    return match_id, bob, terminal


def test_a_seat_gone_too_long_is_told_and_claimed_after_a_confirmation(
    clock_server: Server, opened: list[Terminal | Seat], tmp_path: Path
) -> None:
    match_id, bob, terminal = timed_loa_with_bob(clock_server, opened, tmp_path)
    terminal.type("help")
    assert "claim       a player away too long" in terminal.read_until("Black to move")
    bob.close()
    terminal.read_until(r"White \(Bob\) has left \(the seat is kept\)\.")

    # Too soon: asked first, then the server's refusal in its words; the game goes on.
    terminal.type("claim")
    terminal.read_until(r"Claim every seat gone too long\? .* \[y/N\] ")
    terminal.type("y")
    assert "The server refused your claim:" in terminal.read_until("Black to move")
    assert clock_server.summary(match_id)["status"] == "running"

    # Two minutes on (a timed match's limit). The terminal learns the server's time from a state:
    # coming back to the match, it tells Bob gone long enough, and Black's clock has run.
    advance(clock_server, 121)
    terminal.type("quit")
    assert terminal.finish()[0] == 0
    again = Terminal(["loa", "--join", f"{clock_server.base}/match/{match_id}"], tmp_path)
    opened.append(again)
    told = again.read_until(r"Black to move · Black 2:59 · White 5:00> ")
    assert "Bob (White) has been away 2 min: type claim to win." in told
    again.type("clock")
    assert "Clocks: Black 2:5" in again.read_until("Black to move")

    # "n" waits; "y" claims the win.
    again.type("claim")
    again.read_until(r"Bob \(White\) has been away 2 min\. Claim the win\? \[y/N\] ")
    again.type("n")
    assert "You wait." in again.read_until("Black to move")
    assert clock_server.summary(match_id)["status"] == "running"
    again.type("claim")
    again.read_until(r"Claim the win\? \[y/N\] ")
    again.type("y")
    ended = again.read_until("Game over> ")
    assert "Bob (White) was gone too long." in ended
    assert "Result: Black (Ann) wins: the other side was gone too long" in ended
    summary = clock_server.summary(match_id)
    assert (summary["status"], summary["outcome"]["reason"]) == ("over", "gone")
    assert summary["outcome"]["winner"] == 0


def test_a_clock_that_runs_out_ends_the_match_at_the_terminal(
    clock_server: Server, opened: list[Terminal | Seat], tmp_path: Path
) -> None:
    match_id, bob, terminal = timed_loa_with_bob(clock_server, opened, tmp_path)
    terminal.type("b1-d3")
    # Black moved at once: 5:00 and the increment; White's clock runs.
    terminal.read_until(r"Waiting for White \(Bob\)… · Black 5:03 · White 5:00")
    bob.next("update", version=1)
    bob.send({"type": "action", "text": "a2-c2", "version": 1})
    terminal.read_until(r"Black to move · Black 5:03 · White 5:03> ")
    advance(clock_server, 304)
    ended = terminal.read_until("Game over> ")
    assert "You ran out of time." in ended
    assert "Result: White (Bob) wins: the other side ran out of time" in ended
    update = bob.until("update", lambda m: m["type"] == "update" and m["status"] == "over")
    assert update["event"] == {"version": 3, "seat": 0, "action": "Black ran out of time", "turn": 2,
                               "leaving": {"kind": "retire", "seat": 0, "why": "out-of-time"}}
    assert clock_server.summary(match_id)["outcome"]["reason"] == "out-of-time"

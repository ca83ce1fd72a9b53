"""``parlour play loa --join URL`` on the board (issue 18: "uses the same board for a seat of a
server match"): the real protocol against a real ``parlour serve``, Bob at the other seat over a
WebSocket; moves picked by keys go to the server, Bob's come back, resigning asks first."""

from __future__ import annotations

import asyncio
import queue
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from board_pilot import arrows_to
from remote_table import Seat
from server_process import WAIT, Server
from textual.pilot import Pilot

from parlour.tui.board.drawing import drawing_for
from parlour.tui.board.remote import RemoteBoardApp
from parlour.tui.remote import Event, Link, read_target, take_seat

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("board")).start()
    yield running
    running.stop()


async def until(pilot: Pilot[int], done: Callable[[], bool], what: str) -> None:
    """Waits for the board to reach a state (the server answers on its own time)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT  # only a guard against a server that never answers
    while not done():
        if loop.time() > deadline:
            raise AssertionError(f"never: {what}")
        await pilot.pause()
        await asyncio.sleep(0.01)


async def test_a_seat_of_a_server_match_on_the_board(server: Server, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # where the seat's token is kept
    match_id = server.create(game="loa", seats=["open", "open"], seed=1)["match"]["id"]
    bob = Seat(server, match_id, "bob")
    bob.hello(server.join(match_id, seat=1, name="Bob")["token"])
    target = read_target(f"{server.base}/match/{match_id}")
    link = Link(target, lambda text: None)
    link.open()
    game, seat, first = take_seat(link, target, None, None, lambda text: None)
    drawing = drawing_for(game)
    assert drawing is not None
    inbox: queue.Queue[Event] = queue.Queue()
    app = RemoteBoardApp(game, drawing, link, seat, first, inbox)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, app.remote.human_to_move, "Black to move")
            assert "White ○  Bob" in "\n".join(app.screen_lines())
            assert any("The keys are on the bottom line" in entry for entry in app.log_view.entries)
            await pilot.press(*arrows_to(app, "b1"), "enter")
            await pilot.press(*arrows_to(app, "d3"), "enter")
            update = bob.next("update", version=1)
            assert update["event"]["action"] == "b1-d3"
            bob.send({"type": "action", "text": "a3-d3", "version": 1})
            # app.version is the screen's: set once the screen has taken the news the session
            # thread read (the session's own snapshot moves first, before the log has its lines)
            await until(pilot, lambda: app.remote.human_to_move() and app.version == 2,
                        "Bob's move back on the board")
            assert "White plays a3-d3" in app.log_view.entries
            assert "A black piece is captured on d3." in app.log_view.entries
            assert app.marks["d3"] >= {"last"}
            assert "Last: White a3-d3" in "\n".join(app.screen_lines())
            await pilot.press("r")
            await until(pilot, lambda: "Resign this game?" in "\n".join(app.screen_lines()), "the question")
            await pilot.press("y")
            await until(pilot, lambda: any(entry.startswith("Result: ") for entry in app.log_view.entries),
                        "the resignation's result in the log")
            assert any(entry.startswith("Result: White (Bob) wins") for entry in app.log_view.entries)
            assert server.summary(match_id)["status"] == "over"
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running, "leaving")
        assert app.exit_status == 0
    finally:
        link.close()
        bob.close()

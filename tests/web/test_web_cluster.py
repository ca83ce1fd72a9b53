"""Playing in the browser through a cluster (issue 17): "SIGKILL of one of two server processes in
the middle of play: its matches resume on the other within 5 s (lease expiry), the browser reconnects
by itself, no acknowledged action is lost or duplicated, bots resume."

``parlour cluster up --processes 2`` runs as a person would start it (a subprocess: PostgreSQL, two
servers, HAProxy); Chromium opens the lobby at HAProxy's address, a new player creates a Lines of
Action match against a bot and plays; the server process that writes the match (its lease in
PostgreSQL names it) is killed with SIGKILL between a move of the player and the bot's reply.

Every wait is for a state (the page's, the database's) and bounded; the times measured are printed,
never asserted.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest
from server_process import ROOT, START_SECONDS, WAIT, read_line
from web_helpers import WAIT_MS, Client, OpenClient

from parlour.server.cluster import UP
from parlour.server.postgres import HOLDER
from parlour.server.services import free_port

pytestmark = pytest.mark.asyncio(loop_scope="session")

LEASE_SECONDS = 2
"""The cluster's lease: a dead writer's matches are taken over after at most this (sooner when a
client's connection finds the writer gone)."""

BOT_SECONDS = "1"
"""The lobby's thinking time for the bot (the strong bot takes all of it): long enough that the
writer is killed while the bot's reply is still due."""

SERVER = re.compile(r"^parlour cluster: server \d+ on (\S+), pid (\d+), log (\S+)")
"""The line ``parlour cluster up`` prints for each server it started."""
ACCESS = re.compile(r"HTTP/1\.1|WebSocket")
"""A line of a server's access log (left out of what the test prints)."""


@dataclass
class Cluster:
    """``parlour cluster up`` running: its output (read on by a thread once it is up), HAProxy's
    address, and the servers by their own address."""

    process: subprocess.Popen[bytes]
    dir: Path
    said: list[str] = field(default_factory=list)
    base: str = ""

    def servers(self) -> dict[str, int]:
        """Each server's address -> its process id, as the command printed them."""
        return {address: int(pid) for address, (pid, _) in self._servers().items()}

    def log(self, address: str) -> str:
        """What the server at ``address`` has logged, less the access log."""
        text = Path(self._servers()[address][1]).read_text(errors="replace")
        return "\n".join(line for line in text.splitlines() if not ACCESS.search(line))

    def _servers(self) -> dict[str, tuple[str, str]]:
        return {address: (pid, log) for text in list(self.said) for address, pid, log in SERVER.findall(text)}

    def store(self) -> str:
        """The PostgreSQL URL the servers were given (``--store``), read from a server's command line."""
        pid = next(iter(self.servers().values()))
        words = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        return words[words.index("--store") + 1]

    def output(self) -> str:
        return "\n".join(self.said)

    def read_on(self) -> None:
        """Keeps reading the command's output (a server's death is reported there) in a thread."""
        assert self.process.stdout is not None
        stdout = self.process.stdout

        def read() -> None:
            for line in stdout:
                self.said.append(line.decode(errors="replace").strip())

        threading.Thread(target=read, daemon=True).start()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    # In /tmp, open to others: PostgreSQL runs as the postgres user, which must reach its directory.
    directory = Path(tempfile.mkdtemp(prefix="parlour-web-cluster-", dir="/tmp"))
    directory.chmod(0o755)
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "cluster", "up", "--processes", "2", "--port", str(free_port()),
         "--dir", str(directory), "--lease-seconds", str(LEASE_SECONDS)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    running = Cluster(process, directory)
    try:
        while not running.base:
            text = read_line(process, START_SECONDS)
            running.said.append(text)
            if text.startswith(UP):
                running.base = text.removeprefix(UP).split()[0].rstrip("/")
            elif not text:
                pytest.fail(f"parlour cluster up never said it was up:\n{running.output()}")
        running.read_on()
        yield running
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(START_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(directory, ignore_errors=True)


def node_of(address: str) -> str:
    """The node id a server answers ``GET /api/health`` with, asked at its own address."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(f"{address}/api/health", timeout=WAIT) as answer:
        text: str = json.loads(answer.read())["node"]
    return text


async def holder(db: psycopg.AsyncConnection[tuple[str, str]], match_id: str) -> tuple[str, str]:
    """(node, address) of the live lease of ``match_id``: the process that writes it."""
    cursor = await db.execute(HOLDER, (match_id,))  # the store's own reading of its lease tables
    row = await cursor.fetchone()
    assert row is not None, f"no process holds a lease of {match_id}"
    return row


async def versions(db: psycopg.AsyncConnection[tuple[str, str]], match_id: str) -> list[int]:
    """The versions of the match's events in the store, in order (one row per committed action)."""
    cursor = await db.execute("SELECT version FROM events WHERE match_id = %s ORDER BY version", (match_id,))
    return [int(row[0]) for row in await cursor.fetchall()]


async def create_against_bot(client: Client, base: str) -> str:
    """A new player's steps in the lobby: their name, Lines of Action, themselves in seat 0 and the
    strong bot in seat 1 thinking ``BOT_SECONDS``; returns the match's id once its page is open."""
    page = client.page
    await page.goto(base + "/")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    await page.fill("#name", client.name)
    await page.click(".game-option[data-game='loa']")
    await page.select_option("#seat-rows select[data-seat='0']", "you")
    await page.select_option("#seat-rows select[data-seat='1']", "bot:strong")
    await page.select_option("#bot-seconds", BOT_SECONDS)
    await page.click("#create-button")
    await page.wait_for_url("**/match/*", timeout=WAIT_MS)
    await page.wait_for_selector("body[data-version]", state="attached")
    return page.url.rstrip("/").rsplit("/", 1)[1]


# The connection light's every change and every whole state the server sent (its answer to a hello),
# each with the browser's clock (the same machine's as the test's).
WATCH_CONNECTION_JS = """
() => {
  window.parlourConn = [];
  const light = document.getElementById("conn");
  const note = (text) => window.parlourConn.push([text, Date.now()]);
  note(light.textContent.trim());
  new MutationObserver(() => note(light.textContent.trim()))
    .observe(light, {childList: true, characterData: true, subtree: true});
  const match = window.parlourMatch;
  const receive = match.receive.bind(match);
  match.receive = (message) => {
    if (message.type === "state") note(`state ${message.version}`);
    return receive(message);
  };
}
"""

RECONNECTING_JS = """
since => window.parlourConn.some(([text, at]) => at >= since && text === "reconnecting…")
"""

RESYNCED_JS = """
since => {
  const after = window.parlourConn.filter(([, at]) => at >= since).map(([text]) => text);
  return after.includes("reconnecting…") && after[after.length - 1].startsWith("state ")
    && document.getElementById("conn").textContent.trim() === "connected";
}
"""
"""Reconnected: the light said so after saying it was reconnecting, and the server's whole state came."""


async def connection_since(client: Client, since_ms: float) -> list[tuple[str, float]]:
    seen: list[tuple[str, float]] = await client.page.evaluate(
        "since => window.parlourConn.filter(([, at]) => at >= since)", since_ms)
    return [(text, float(at)) for text, at in seen]


async def moves(client: Client) -> list[str]:
    """The page's list of moves played, as shown, less the mark of a capture (shown on the last
    move only, and only when the page saw it made)."""
    texts: list[str] = await client.page.eval_on_selector_all(
        "#moves li", "items => items.map(li => li.textContent.trim())")
    return [text.split(" ✕")[0] for text in texts]


async def play_a_move(client: Client) -> str:
    """The first legal move the page lists, played by clicking its squares; returns its text once
    the page has drawn it."""
    await client.wait_my_turn()
    version = await client.version()
    text = (await client.legal())[0]
    await client.play(text)
    await client.wait_past(version)
    return text


async def taken_over(store: str, match_id: str, survivor: str) -> float:
    """The moment (``time.time()``) the lease of ``match_id`` names ``survivor``, looked at every 20 ms
    (a bounded wait on the database's state, to print how long the take-over took)."""
    async with await psycopg.AsyncConnection.connect(store, autocommit=True) as db:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            cursor = await db.execute(HOLDER, (match_id,))
            row = await cursor.fetchone()
            if row is not None and row[1] == survivor:
                return time.time()
            await asyncio.sleep(0.02)
    raise AssertionError(f"not within {WAIT:g} s: {survivor} holds the lease of {match_id}")


def caught_by_the_page(errors: list[str]) -> list[str]:
    """The console's errors that are not Chromium's own report of a WebSocket that failed or was cut
    (what the browser prints when the server under it dies, whatever the page does about it)."""
    return [error for error in errors if "WebSocket" not in error and "ERR_" not in error]


@pytest.mark.slow
async def test_the_writer_killed_under_a_player_the_match_resumes_on_the_other_process(
    cluster: Cluster, open_client: OpenClient, tmp_path: Path,
) -> None:
    ann = await open_client("Ann")
    page = ann.page
    await page.emulate_media(reduced_motion="reduce")  # screenshots of pieces at rest, not mid-slide
    match_id = await create_against_bot(ann, cluster.base)
    await page.wait_for_selector("body[data-status='running'][data-seat='0']", state="attached")
    await page.wait_for_selector("#conn.online", state="attached")
    await page.evaluate(WATCH_CONNECTION_JS)

    mine = [await play_a_move(ann)]
    await ann.wait_version(2)  # the bot answered
    store = cluster.store()
    async with await psycopg.AsyncConnection.connect(store, autocommit=True) as db:
        node, address = await holder(db, match_id)
        servers = cluster.servers()
        assert address in servers, f"the lease names {address}, not one of {servers}\n{cluster.output()}"
        assert node_of(address) == node  # the lease's node is that process, as it says itself
        (survivor,) = set(servers) - {address}

        mine.append(await play_a_move(ann))  # version 3: the bot is to move, and thinks
        before = await moves(ann)
        await page.screenshot(path=str(tmp_path / "1-before-kill.png"))
        watching = asyncio.create_task(taken_over(store, match_id, survivor))
        killed = time.time()
        os.kill(servers[address], signal.SIGKILL)
        stored = await versions(db, match_id)
        due = stored == [1, 2, 3]  # the bot had not answered when its process died
        assert stored[:3] == [1, 2, 3], stored

        # The page says it is reconnecting (a screenshot while it still does), then is connected again.
        await page.wait_for_function(RECONNECTING_JS, arg=killed * 1000, timeout=WAIT_MS)
        if await page.locator("#conn.offline").count():
            await page.screenshot(path=str(tmp_path / "2-reconnecting.png"))
            # Drawn in the same turn as the light: the banner no longer guesses that the bot thinks.
            assert "Connection lost" in (await page.locator("#turn").inner_text()), "the banner"
        await page.wait_for_function(RESYNCED_JS, arg=killed * 1000, timeout=WAIT_MS)
        lights = await connection_since(ann, killed * 1000)
        again = next(at for text, at in lights if text == "connected") / 1000
        resynced = next(at for text, at in lights if text.startswith("state ")) / 1000
        took_over = await watching

        # The same position: every move made so far, none lost, none twice.
        assert await ann.version() >= 3
        assert (await moves(ann))[:3] == before, "the moves shown changed across the reconnection"
        assert len(before) == 3, before
        assert [mine[0] in before[0], mine[1] in before[2]] == [True, True], (mine, before)

        # The bot's reply arrives from the process that took the match over, and play goes on there.
        await ann.wait_version(4)
        replied = time.time()
        await page.screenshot(path=str(tmp_path / "3-after-reconnect.png"))
        mine.append(await play_a_move(ann))  # version 5, by clicking
        played = time.time()
        await ann.wait_version(6)  # the bot answers again
        answered = time.time()
        await ann.wait_my_turn()
        shown = await moves(ann)
        await page.screenshot(path=str(tmp_path / "4-played-on.png"))
        # Each acknowledged action stored exactly once: six events, versions 1-6, the player's at 1, 3, 5.
        assert await versions(db, match_id) == [1, 2, 3, 4, 5, 6]
        assert len(shown) == 6, shown
        assert shown[:3] == before, shown
        assert [mine[n] in shown[2 * n] for n in range(3)] == [True, True, True], (mine, shown)
        assert await holder(db, match_id) == (node_of(survivor), survivor)
    assert caught_by_the_page(ann.errors) == [], ann.errors

    steps = ", ".join(f"{text} +{at / 1000 - killed:.3f} s" for text, at in lights)
    print(f"\nkilled the writer {address}; the bot's reply was due then: {due}")
    print(f"the connection light after the kill: {steps}")
    print(f"kill -> {survivor} holds the lease: {took_over - killed:.2f} s")
    print(f"kill -> connected again: {again - killed:.2f} s; the state received: {resynced - killed:.2f} s")
    print(f"kill -> the bot's reply drawn: {replied - killed:.2f} s (its next reply, after the next move:"
          f" {answered - played:.2f} s)")
    print(f"{survivor} logged:\n{cluster.log(survivor)}")
    print(f"screenshots in {tmp_path}")

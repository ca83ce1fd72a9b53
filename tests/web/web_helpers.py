"""Helpers for the browser tests: a real ``parlour serve`` subprocess and Playwright pages that record
every console error.

Waits are bounded (``WAIT_MS``) and fail saying what was awaited; nothing asserts on time.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, ViewportSize

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/lib/chromium/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
READY = "parlour serve: listening on"
START_SECONDS = 30.0
WAIT_MS = 20_000
"""The longest any single expected page change may take before the test fails (a bound, not a timing)."""

LAPTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}


class Server:
    """``parlour serve --port 0`` on a SQLite file; the address is read from its first line."""

    def __init__(self, workdir: Path) -> None:
        self.db = workdir / "parlour.sqlite3"
        self.log = workdir / "server.log"
        self.data_home = workdir / "data"
        self.process: subprocess.Popen[bytes] | None = None
        self.base = ""

    def start(self) -> Server:
        env = {**os.environ, "XDG_DATA_HOME": str(self.data_home), "PYTHONUNBUFFERED": "1"}
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "parlour.cli", "serve", "--port", "0", "--db", str(self.db),
                 "--workers", "1"],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL,
            )
        line = self._first_line()
        output = self.log.read_text()
        assert line.startswith(READY), f"parlour serve printed {line!r}, not its address\n{output}"
        self.base = line.removeprefix(READY).split()[0].rstrip("/")
        return self

    def _first_line(self) -> str:
        assert self.process is not None and self.process.stdout is not None
        deadline = time.monotonic() + START_SECONDS
        data = b""
        while b"\n" not in data:
            left = deadline - time.monotonic()
            assert left > 0, f"parlour serve did not print its address within {START_SECONDS} s"
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                assert chunk, f"parlour serve exited early\n{self.log.read_text()}"
                data += chunk
        return data.split(b"\n", 1)[0].decode()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            result: dict[str, Any] = json.loads(answer.read())
            return result


class Client:
    """One person's browser: a context of its own, its page, and the console errors seen."""

    def __init__(self, context: BrowserContext, page: Page, name: str) -> None:
        self.context = context
        self.page = page
        self.name = name
        self.errors: list[str] = []
        page.on("console", lambda message: self._console(message.type, message.text))
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def _console(self, kind: str, text: str) -> None:
        if kind == "error":
            self.errors.append(text)

    async def version(self) -> int:
        return int(await self.page.get_attribute("body", "data-version") or -1)

    async def wait_version(self, version: int) -> None:
        """Until the page has drawn the match at ``version`` or later."""
        await self.page.wait_for_function(
            "v => Number(document.body.dataset.version) >= v", arg=version, timeout=WAIT_MS,
        )

    async def wait_past(self, version: int) -> None:
        """Until the page has drawn a version later than ``version``."""
        await self.wait_version(version + 1)

    async def wait_my_turn(self) -> None:
        await self.page.wait_for_selector("body[data-my-turn='true']", state="attached", timeout=WAIT_MS)

    async def legal(self) -> list[str]:
        """The legal actions the page lists for its seat."""
        texts: list[str] = await self.page.eval_on_selector_all(
            "#legal button", "bs => bs.map(b => b.dataset.action)",
        )
        return texts

    async def click_square(self, square: str) -> None:
        await self.page.click(f"[data-hit='{square}']", timeout=WAIT_MS)

    async def play(self, text: str) -> None:
        """Plays ``text`` with the mouse: each square of the action in turn, checking that every
        square after the first is offered as a destination when it is clicked."""
        squares = text.replace(">", "-").split("-")
        await self.click_square(squares[0])
        for square in squares[1:]:
            await self.page.wait_for_selector(f"[data-target='{square}']", state="attached", timeout=WAIT_MS)
            await self.click_square(square)

    async def match_json(self) -> dict[str, Any]:
        """The snapshot the page last received (what the server sent, untouched)."""
        snapshot: dict[str, Any] = await self.page.evaluate("window.parlourMatch.snap")
        return snapshot


async def new_client(browser: Browser, name: str, viewport: ViewportSize | None = None,
                     phone: bool = False) -> Client:
    context = await browser.new_context(
        viewport=viewport or (PHONE if phone else LAPTOP), is_mobile=phone, has_touch=phone,
    )
    context.set_default_timeout(WAIT_MS)
    page = await context.new_page()
    return Client(context, page, name)


OpenClient = Callable[..., Awaitable[Client]]
"""The ``open_client`` fixture: ``await open_client("Ann", phone=True)``."""

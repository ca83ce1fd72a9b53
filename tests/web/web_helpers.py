"""Helpers for the browser tests (the server is ``server_process.Server``): Playwright pages that record
every console error.

Waits are bounded (``WAIT_MS``) and fail saying what was awaited; nothing asserts on time.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, ViewportSize

from parlour.bots.levels import level_of

CHROMIUM = "/usr/lib/chromium/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
WAIT_MS = 20_000
"""The longest any single expected page change may take before the test fails (a bound, not a timing)."""

LAPTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}


def bot_name(game: str, kind: str, seconds: float = 1.0, players: int = 2) -> str:
    """A bot as the pages name it: by its level where it plays at one ("beginner bot": random, where a
    ladder placed the game's levels), else by its kind ("random bot")."""
    found = level_of(game, players, kind, seconds)
    return f"{found.name if found is not None else kind} bot"


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
        """Plays the legal action ``text`` with the mouse, square by square (``play_squares``), finding
        its squares in the parts the server sent with it (the test reads no notation either)."""
        snapshot = await self.match_json()
        action = next((a for a in snapshot["legal"] if a["text"] == text), None)
        assert action is not None, f"{text} is not among the legal actions the page was sent"
        parts = action["parts"]
        await self.play_squares(parts.get("path") or [parts["from"], parts["to"]])

    async def play_squares(self, squares: list[str]) -> None:
        """Clicks each square in turn, checking that every square after the first is offered as a
        destination when it is clicked."""
        await self.click_square(squares[0])
        for square in squares[1:]:
            await self.page.wait_for_selector(f"[data-target='{square}']", state="attached", timeout=WAIT_MS)
            await self.click_square(square)

    async def arrow_to(self, selector: str, limit: int = 40) -> None:
        """Presses the arrow key towards ``selector`` on the screen until it has the keyboard focus:
        the roving tab stop of a board moves by what the eye sees, whichever way the board is turned."""
        for _ in range(limit):
            if await self.page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
                return
            here = await self.page.evaluate(
                "() => { const r = document.activeElement.getBoundingClientRect();"
                " return [r.x + r.width / 2, r.y + r.height / 2]; }")
            box = await self.page.locator(selector).bounding_box()
            assert box is not None, f"{selector} is not on the screen"
            dx, dy = box["x"] + box["width"] / 2 - here[0], box["y"] + box["height"] / 2 - here[1]
            if abs(dx) >= abs(dy):
                await self.page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
            else:
                await self.page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
        raise AssertionError(f"{limit} arrow keys never reached {selector}")

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

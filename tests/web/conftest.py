"""Fixtures of the browser tests: one ``parlour serve`` and one Chromium for the whole session, and a
factory of browser contexts closed after each test."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, async_playwright
from server_process import Server
from web_helpers import CHROMIUM, CHROMIUM_ARGS, Client, OpenClient, new_client


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web-server")).start()
    yield running
    running.stop()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Browser]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: ./scripts/bootstrap installs Debian's chromium"
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        await launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def open_client(browser: Browser) -> AsyncIterator[OpenClient]:
    """``await open_client("Ann")``: a new person with a browser context of their own."""
    opened: list[Client] = []

    async def make(name: str, **kwargs: object) -> Client:
        client = await new_client(browser, name, **kwargs)  # type: ignore[arg-type]
        opened.append(client)
        return client

    yield make
    for client in opened:
        with contextlib.suppress(Exception):
            await client.context.close()

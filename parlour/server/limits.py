"""The server's limits: how much any one client (and everyone together) may ask of it.

Every limit has a default fit for a club's server, can be changed with ``parlour serve --limit
NAME=VALUE``, and is listed in ``docs/operations.md``. Rates are token buckets: a client may
spend ``burst`` at once, then ``per_minute`` more each minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from parlour.server.messages import MAX_MESSAGE, rate_limited

UNKNOWN_ADDRESS: Final = "unknown"
"""The client address counted when the transport cannot tell it (all such clients share limits)."""


def limit(default: float, help: str) -> float:
    """A limit that is a rate or a time: any number above 0."""
    return field(default=default, metadata={"help": help, "count": False})


def count(default: float, help: str) -> float:
    """A limit that counts things (a burst, a cap, a size): a whole number, at least 1."""
    return field(default=default, metadata={"help": help, "count": True})


@dataclass(frozen=True)
class Limits:
    """Every limit, with its default."""

    create_per_minute: float = limit(30, "matches one address may create a minute (after its burst)")
    create_burst: float = count(20, "matches one address may create at once")
    join_per_minute: float = limit(60, "seats one address may join a minute (after its burst)")
    join_burst: float = count(30, "seats one address may join at once")
    list_per_minute: float = limit(
        120, "pages of the lobby list one address may ask for a minute (after its burst)")
    list_burst: float = count(30, "pages of the lobby list one address may ask for at once")
    replay_per_minute: float = limit(
        30_000, "positions one address may have worked out a minute for replay pages and match records, "
                "counted in actions replayed, 1 at least per request (after its burst)")
    replay_burst: float = count(
        10_000, "positions one address may have worked out at once for replay pages and match records")
    replays_at_once: float = count(
        1, "replay pages and records worked out at once on the whole server (the others wait their turn)")
    open_per_address: float = count(20, "open (not yet started) matches one address may have created")
    open_total: float = count(2000, "open (not yet started) matches on the whole server")
    bot_matches_per_address: float = count(
        4, "unfinished matches with bots in every seat one address may have created (bots use the CPUs)")
    bot_matches_total: float = count(100, "unfinished matches with bots in every seat on the whole server")
    open_expiry_hours: float = limit(24, "hours an open match waits for its players before it expires")
    gone_minutes: float = limit(
        10, "minutes a seat of an untimed match may be without a connection before the others may claim it")
    gone_minutes_timed: float = limit(
        2, "minutes a seat of a timed match may be without a connection before the others may claim it")
    abandon_hours: float = limit(24, "hours a running match may go untouched by any person before it ends")
    connections_per_address: float = count(200, "TCP connections (HTTP and WebSocket) one address may hold")
    header_seconds: float = limit(10, "seconds a client has to send a request's headers")
    body_seconds: float = limit(30, "seconds a client has to send a request's body, once its headers are in")
    keep_alive_seconds: float = limit(5, "seconds an idle HTTP connection is kept open")
    hello_seconds: float = limit(30, "seconds a new WebSocket has to say hello or join")
    chat_per_minute: float = limit(20, "chat messages one connection may send a minute (after its burst)")
    chat_burst: float = count(5, "chat messages one connection may send at once")
    chat_address_per_minute: float = limit(
        60, "chat messages one address may send a minute, over all its connections (after its burst)")
    chat_address_burst: float = count(
        20, "chat messages one address may send at once, over all its connections")
    chat_per_match: float = count(2000, "chat messages one match may hold (then chat_full)")
    chat_list_per_minute: float = limit(
        60, "reads of a match's chat (GET …/chat) one address may make a minute (after its burst)")
    chat_list_burst: float = count(20, "reads of a match's chat one address may make at once")
    messages_per_second: float = limit(
        20, "WebSocket messages one connection may send a second (after its burst)")
    message_burst: float = count(60, "WebSocket messages one connection may send at once")
    body_bytes: float = count(
        MAX_MESSAGE, "bytes in one HTTP request body, characters in one WebSocket message")
    page_size: float = count(100, "matches in one page of the lobby list (the most a client may ask for)")
    board_characters: float = count(
        16 * 1024, "characters in the text of one board (a map) checked or saved in a game's library, or "
                   "given in a match's options")
    boards_per_hour: float = limit(10, "boards (maps) one address may save an hour (after its burst)")
    boards_burst: float = count(5, "boards (maps) one address may save at once")
    boards_total: float = count(10_000, "boards (maps) the libraries of all games may hold together")
    board_checks_per_minute: float = limit(
        60, "board checks and reads of a game's library one address may ask for a minute (after its burst)")
    board_checks_burst: float = count(
        30, "board checks and reads of a game's library one address may ask for at once")
    client_fault_logs_per_minute: float = count(
        20, "log lines about clients' mistakes a minute (the rest are counted)")

    @classmethod
    def names(cls) -> list[str]:
        return [item.name for item in dataclasses.fields(cls)]

    @classmethod
    def described(cls) -> list[tuple[str, float, str]]:
        """(name, default, help) of every limit, in order."""
        defaults = cls()
        return [(item.name, getattr(defaults, item.name), item.metadata["help"])
                for item in dataclasses.fields(cls)]

    @classmethod
    def counts(cls, name: str) -> bool:
        return any(item.name == name and item.metadata["count"] for item in dataclasses.fields(cls))

    def changed(self, settings: list[str]) -> Limits:
        """These limits with ``NAME=VALUE`` settings applied; ``ValueError`` says what is wrong."""
        values: dict[str, float] = {}
        for setting in settings:
            name, equals, text = setting.partition("=")
            name = name.strip().replace("-", "_")
            if not equals:
                raise ValueError(f"{setting!r}: write NAME=VALUE, e.g. create_per_minute=60")
            if name not in self.names():
                raise ValueError(f"no limit called {name!r} (limits: {', '.join(self.names())})")
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"{name}: {text!r} is not a number") from None
            if not math.isfinite(value) or value <= 0:
                raise ValueError(f"{name}: must be a number above 0, not {text!r}")
            if self.counts(name) and (value < 1 or not value.is_integer()):
                raise ValueError(f"{name} counts things: a whole number of at least 1, not {text!r}")
            values[name] = value
        return dataclasses.replace(self, **values)


class TokenBucket:
    """``burst`` tokens at most, refilled at ``per_second``; ``take`` spends one if there is one."""

    __slots__ = ("burst", "clock", "per_second", "stamp", "tokens")

    def __init__(self, burst: float, per_second: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.per_second = per_second
        self.tokens = burst
        self.clock = clock
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now

    def take(self, amount: float = 1) -> float:
        """0 when ``amount`` tokens were spent; else the seconds until they will be there (nothing
        spent). More than ``burst`` is charged as ``burst``: a bucket full must always pay."""
        self._refill()
        amount = min(amount, self.burst)
        if self.tokens >= amount:
            self.tokens -= amount
            return 0.0
        return (amount - self.tokens) / self.per_second

    @property
    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


MAX_ADDRESSES: Final = 100_000
"""Buckets kept at most; full buckets (clients at rest) are dropped first, so memory is bounded."""


class AddressBuckets:
    """One token bucket per client address; ``what`` names what they count in a refusal."""

    def __init__(self, burst: float, per_minute: float, what: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.per_second = per_minute / 60
        self.what = what
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}

    def spend(self, address: str, amount: float = 1) -> None:
        """``amount`` tokens of ``address``'s, or ``rate_limited`` saying when to try again (nothing
        spent)."""
        wait = self.take(address, amount)
        if wait:
            raise rate_limited(wait, self.what)

    def take(self, address: str, amount: float = 1) -> float:
        """0 when ``address`` may go on; else the seconds it must wait."""
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= MAX_ADDRESSES:
                self._forget_resting()
            bucket = self.buckets[address] = TokenBucket(self.burst, self.per_second, self.clock)
        return bucket.take(amount)

    def _forget_resting(self) -> None:
        for address in [address for address, bucket in self.buckets.items() if bucket.full]:
            del self.buckets[address]
        while len(self.buckets) >= MAX_ADDRESSES:  # all busy: forget the oldest (gives them a fresh burst)
            del self.buckets[next(iter(self.buckets))]


class Rates:
    """The per-address rates of one server: creating matches, joining seats (HTTP or WebSocket),
    listing matches (a page is built from the store: a client looping on it must not slow the others),
    replaying them (charged by the positions worked out: that is what costs CPU), saying things in a
    match's chat (over all of an address's connections), reading a match's chat, saving boards to a
    game's library, and checking boards or reading the library (a check costs CPU)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.create = AddressBuckets(limits.create_burst, limits.create_per_minute,
                                     "matches created from your address", clock)
        self.join = AddressBuckets(limits.join_burst, limits.join_per_minute,
                                   "seats joined from your address", clock)
        self.list = AddressBuckets(limits.list_burst, limits.list_per_minute,
                                   "pages of the match list asked for from your address", clock)
        self.replay = AddressBuckets(limits.replay_burst, limits.replay_per_minute,
                                     "positions of replays and records worked out for your address", clock)
        self.chat = AddressBuckets(limits.chat_address_burst, limits.chat_address_per_minute,
                                   "chat messages from your address", clock)
        self.chat_list = AddressBuckets(limits.chat_list_burst, limits.chat_list_per_minute,
                                        "reads of a match's chat from your address", clock)
        self.board_saves = AddressBuckets(limits.boards_burst, limits.boards_per_hour / 60,
                                          "boards saved from your address", clock)
        self.board_checks = AddressBuckets(limits.board_checks_burst, limits.board_checks_per_minute,
                                           "board checks and library reads from your address", clock)


class FaultLog:
    """Log lines about clients' mistakes, at most ``per_minute`` a minute (a burst of as many at
    once): a flood of bad frames must not fill the disk or drown the server's own messages. What is
    left out is counted and reported in one line once the budget allows another."""

    def __init__(self, logger: logging.Logger, per_minute: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.budget = TokenBucket(per_minute, per_minute / 60, clock)
        self.left_out = 0
        self.report: asyncio.TimerHandle | None = None

    def warning(self, message: str, *args: object) -> None:
        if self.allowed():
            self.logger.warning(message, *args)

    def allowed(self) -> bool:
        """Whether one more line may be written now; if not, it is counted."""
        wait = self.budget.take()
        if wait == 0:
            self._report()
            return True
        self.left_out += 1
        if self.report is None:
            with contextlib.suppress(RuntimeError):  # no event loop: reported with the next line
                self.report = asyncio.get_running_loop().call_later(wait, self._report_later)
        return False

    def _report_later(self) -> None:
        self.report = None
        if not self.left_out:
            return
        wait = self.budget.take()  # the report takes the place of one line
        if wait == 0:
            self._report()
        else:
            self.report = asyncio.get_running_loop().call_later(wait, self._report_later)

    def _report(self) -> None:
        if self.left_out:
            self.logger.warning("%d more client faults were not logged (at most %g lines a minute: "
                                "--limit client_fault_logs_per_minute)", self.left_out, self.budget.burst)
            self.left_out = 0

"""``parlour bench traffic``: the bytes one seat receives over a match, frame by frame.

A ``parlour serve`` process on 127.0.0.1 (started here, or one already running given by
``--url``), one match with a fixed seed: seat 0 is this client on a WebSocket, playing random
texts from the ``legal`` list it is sent; the other seats are ``bot:random``. Every frame the
seat receives is counted until the match reaches ``--actions`` recorded actions (chance
decisions included: the match's version) or ends, whichever comes first; the report says which.

Two figures: the **payload** (each message's JSON text in UTF-8: what a client must parse) and
the **wire** (the bytes the TCP connection delivered: handshake, WebSocket framing, and the
messages as sent, compressed when the server and client agree on permessage-deflate: a server
started with ``--compress``).

The client reads only what every protocol version has had (``type``, ``version``, ``status``,
``legal`` as texts or as ``{"text": …}`` objects), so the same command measures an older server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from parlour.server.bench import Parser, UsageError
from parlour.server.process import call, post, start_server, stop_server


class CountingConnection(ClientConnection):
    """A client connection that counts the bytes TCP delivers to it, before any decompression."""

    wire = 0

    def data_received(self, data: bytes) -> None:
        self.wire += len(data)
        super().data_received(data)


def build_parser() -> Parser:
    parser = Parser(
        prog="parlour bench traffic",
        description="The bytes one seat receives over one match against random bots.",
    )
    parser.add_argument("--game", default="conflict", help="the game (default conflict)")
    parser.add_argument("--players", type=int, default=2, metavar="P", help="players (default 2)")
    parser.add_argument("--actions", type=int, default=400, metavar="N",
                        help="stop once the match has N recorded actions, chance included (default 400)")
    parser.add_argument("--seed", type=int, default=2, metavar="S",
                        help="the match seed and the client's random seed (default 2: a 2-player Conflict "
                             "game that lasts past 400 actions)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON",
                        help="a rules option (its value read as JSON, else as text); repeatable")
    parser.add_argument("--source", type=Path, metavar="DIR",
                        help="start the server from the parlour package in DIR (another checkout, e.g. a "
                             "git worktree of an older commit); the client stays this one")
    parser.add_argument("--url", metavar="URL",
                        help="measure a server already running there instead of starting one")
    return parser


@dataclass
class Traffic:
    """What the seat received, by message type."""

    sizes: dict[str, list[int]] = field(default_factory=dict)
    version: int = 0
    status: str = ""
    sent: int = 0
    wire: int = 0
    parts: dict[str, int] = field(default_factory=dict)
    """Payload bytes of ``state`` and ``update`` messages by field (``view.record``, ``legal``, …)."""
    seed_by_server: bool = False
    """The server refused ``--seed`` (chance is its secret) and chose the match's seed itself."""

    def count(self, kind: str, size: int) -> None:
        self.sizes.setdefault(kind, []).append(size)

    def count_fields(self, message: dict[str, Any], prefix: str = "") -> None:
        """Each field's share of the payload, going into ``view`` and its ``content``."""
        for name, value in message.items():
            key = prefix + name
            if isinstance(value, dict) and key in ("view", "view.content"):
                self.count_fields(value, key + ".")
            else:
                self.parts[key] = self.parts.get(key, 0) + len(json.dumps(value, separators=(",", ":")))

    @property
    def total(self) -> int:
        return sum(sum(sizes) for sizes in self.sizes.values())


def read_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals:
            raise UsageError(f"--option {pair!r}: write NAME=VALUE")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    return options


def legal_texts(message: dict[str, Any]) -> list[str]:
    """The legal texts of a message: plain strings (older servers) or ``{"text": …}`` objects."""
    return [entry if isinstance(entry, str) else entry["text"] for entry in message.get("legal") or []]


async def play(base: str, args: argparse.Namespace, options: dict[str, Any]) -> Traffic:
    game, seed, actions = args.game, args.seed, args.actions
    body = {"game": game, "players": args.players, "options": options, "seed": seed, "join": 0,
            "name": "traffic", "seats": ["open"] + ["bot:random"] * (args.players - 1), "bot_seconds": 0.01}
    traffic = Traffic()
    status, created = await asyncio.to_thread(call, base, "POST", "/api/matches", body)
    if status == 400 and created["error"]["code"] == "seed_not_allowed":
        # A server that keeps chance secret (issue 13) refuses a client's seed for a game with
        # chance or hidden cards: the match then differs from run to run, and so do the figures.
        traffic.seed_by_server = True
        created = await asyncio.to_thread(post, base, "/api/matches", {**body, "seed": None})
    elif status != 201:
        raise RuntimeError(f"POST /api/matches: HTTP {status} {created}")
    match_id = created["match"]["id"]
    ws = "ws://" + base.removeprefix("http://")
    rng = random.Random(seed)
    async with connect(f"{ws}/ws/matches/{match_id}", proxy=None, max_queue=None, max_size=None,
                       open_timeout=60, ping_interval=None, create_connection=CountingConnection) as socket:
        await socket.send(json.dumps({"type": "hello", "token": created["token"]}))
        await listen(socket, traffic, rng, actions)
        assert isinstance(socket, CountingConnection)
        traffic.wire = socket.wire
    return traffic


async def listen(socket: ClientConnection, traffic: Traffic, rng: random.Random, actions: int) -> None:
    """Counts every frame; answers each offer of legal texts; stops at ``actions`` or the end."""
    answered = -1
    async for frame in socket:
        text = frame if isinstance(frame, str) else frame.decode()
        message = json.loads(text)
        kind = str(message.get("type"))
        traffic.count(kind, len(text.encode()))
        if kind == "error":
            raise RuntimeError(f"the server refused an action: {message}")
        if kind not in ("state", "update"):
            continue
        traffic.count_fields(message)
        traffic.version, traffic.status = message["version"], message["status"]
        if traffic.version >= actions or traffic.status == "over":
            return
        texts = legal_texts(message)
        if texts and traffic.version != answered:
            answered = traffic.version
            traffic.sent += 1
            await socket.send(json.dumps({"type": "action", "text": rng.choice(texts),
                                          "version": traffic.version}))


def report(game: str, players: int, actions: int, traffic: Traffic) -> None:
    ended = "the game ended" if traffic.status == "over" else f"stopped at {actions} actions"
    print(f"parlour bench traffic: {game}, {players} players, seat 0 random against bot:random: "
          f"{traffic.version} actions ({ended}), {traffic.sent} of them seat 0's")
    frames = sum(len(sizes) for sizes in traffic.sizes.values())
    print(f"  received: {traffic.total:,} bytes of payload in {frames} frames; "
          f"{traffic.wire:,} bytes on the wire")
    for kind, sizes in sorted(traffic.sizes.items()):
        print(f"  {kind:<7} {len(sizes):>5} frames, {sum(sizes):>10,} bytes: "
              f"mean {statistics.mean(sizes):,.0f}, "
              f"first {sizes[0]:,}, last {sizes[-1]:,}, largest {max(sizes):,}")
    largest = sorted(traffic.parts.items(), key=lambda item: -item[1])[:8]
    shares = ", ".join(f"{name} {size:,}" for name, size in largest)
    print(f"  largest fields of state and update messages (bytes in all): {shares}")
    if traffic.seed_by_server:
        print("  note: the server chose the match's seed (it keeps chance secret): the figures vary by run")


def main(argv: Sequence[str]) -> int:
    try:
        args = build_parser().parse_args(list(argv))
        options = read_options(args.option)
        if args.actions < 1 or args.players < 1:
            raise UsageError("--actions and --players must be at least 1")
    except UsageError as error:
        print(f"parlour bench traffic: {error}", file=sys.stderr)
        return 2
    except SystemExit as shown:
        return int(shown.code or 0)
    if args.url:
        traffic = asyncio.run(play(args.url.rstrip("/"), args, options))
    else:
        with tempfile.TemporaryDirectory(prefix="parlour-traffic-") as directory:
            process, base = start_server(Path(directory), args.source)
            try:
                traffic = asyncio.run(play(base, args, options))
            finally:
                stop_server(process)
    report(args.game, args.players, args.actions, traffic)
    return 0

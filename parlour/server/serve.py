"""``parlour serve``: the game server for browsers and terminals across the network."""

from __future__ import annotations

import argparse
import contextlib
import logging
import resource
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit, urlunsplit

import platformdirs
import uvicorn
from starlette.types import ASGIApp

from parlour.server.app import build_app
from parlour.server.leases import LEASE_SECONDS, Node
from parlour.server.limits import FaultLog, Limits
from parlour.server.process import READY
from parlour.server.storage import SQLiteStore, Store, StoreError
from parlour.server.transport import protocols

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8080


def default_db() -> Path:
    return platformdirs.user_data_path("parlour", appauthor=False) / "parlour.sqlite3"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlour serve",
        description="Serve parlour's games to browsers and terminal clients: lobby, matches, bots.",
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--db", type=Path, metavar="PATH",
                        help=f"the SQLite file that stores matches (default {default_db()})")
    parser.add_argument("--store", metavar="URL",
                        help="keep matches in PostgreSQL instead of the SQLite file:"
                             " postgresql://USER@HOST:PORT/DATABASE (libpq's URL; the tables are made"
                             " on first use)")
    parser.add_argument("--node-address", metavar="URL",
                        help="with --store: where the cluster's other processes reach this one to pass it a"
                             " client of a match it writes (default: http://HOST:PORT of --host and --port)")
    parser.add_argument("--lease-seconds", type=float, default=LEASE_SECONDS, metavar="S",
                        help="with --store: how long a match's lease lasts; a process that dies has its"
                             f" matches taken over by the others after this (default {LEASE_SECONDS:g})")
    parser.add_argument("--pubsub", metavar="URL",
                        help="with --store: spread each match's events through Redis, redis://HOST:PORT/DB,"
                             " so that a spectator is served by whichever process it reaches (default: in"
                             " memory, and a spectator is relayed to the match's writer)")
    parser.add_argument("--workers", type=int, metavar="N",
                        help="bot worker processes (default: the CPUs, at most 4)")
    parser.add_argument("--compress", action="store_true",
                        help="compress WebSocket messages (permessage-deflate) for clients that offer it: "
                             "about a quarter of the bytes, for about a fifth more server CPU an action")
    parser.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])
    parser.add_argument("--test-clock", action="store_true",
                        help="for tests only: time stands still but for POST /api/test/clock "
                             '{"advance": SECONDS}; refused unless --host is 127.0.0.1')
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                        help="change one of the limits below (may be given again for others)")
    parser.epilog = "limits (NAME default: what it bounds):\n" + "\n".join(
        f"  {name} {default:g}: {help}" for name, default, help in Limits.described()
    )
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio turns Nagle off only on sockets that say they are TCP.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.setblocking(False)
    return sock


def address(sock: socket.socket) -> str:
    """The address to open: a listening-on-all host is reached at this machine's loopback."""
    host, port = sock.getsockname()[:2]
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


MANY_FILES: Final = 1 << 16
"""Open files asked for when the hard limit is unlimited."""


def allow_many_files() -> None:
    """Raise the soft limit on open files to the hard one. Every connection is an open file: at the
    usual soft limit of 1024, five addresses at their connection cap would stop the server from
    accepting anyone (the hard limit is usually far higher, and raising up to it needs no privilege)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MANY_FILES if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # the kernel's own ceiling is lower: keep the soft one
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def server_config(
    app: ASGIApp, limits: Limits, faults: FaultLog, log_level: str, compress: bool = False
) -> uvicorn.Config:
    """uvicorn's settings, from the limits: the protocols that time request heads and count
    connections per address (``transport``, logging refusals within ``faults``, the app's budget),
    the keep-alive time and the largest WebSocket frame.

    WebSocket compression (permessage-deflate) is off unless asked for: it costs about a fifth of the
    server's CPU per action and a compression context per connection, to shrink updates of a few
    kilobytes that a club's network carries easily."""
    http, ws = protocols(limits, faults)
    return uvicorn.Config(
        app, http=http, ws=ws, ws_per_message_deflate=compress, log_level=log_level, lifespan="on",
        loop="uvloop",  # libuv's event loop: 400 busy matches, p99 171/216 ms on asyncio's, 162/145 ms on it
        timeout_graceful_shutdown=3,
        timeout_keep_alive=limits.keep_alive_seconds,  # type: ignore[arg-type]  # a float works: call_later
        # A frame may hold body_bytes characters of up to 4 UTF-8 bytes each; the app answers a longer
        # message with bad_message, and a frame above this is closed (1009) before it is held whole.
        ws_max_size=4 * int(limits.body_bytes),
    )


POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")


def open_store(url: str | None, db: Path) -> Store:
    """PostgreSQL when given its URL, else the SQLite file ``db`` (made with its directory if need be)."""
    if url is not None:
        from parlour.server.postgres import PostgresStore  # psycopg is loaded only by those who use it

        return PostgresStore(url)
    db.parent.mkdir(parents=True, exist_ok=True)
    return SQLiteStore(db)


REDIS_SCHEMES: Final = ("redis://", "rediss://", "unix://")

PUBSUB_CHECK_SECONDS: Final = 3.0
"""How long ``parlour serve --pubsub`` waits for Redis to answer at start before it gives up."""


def check_redis(url: str) -> str | None:
    """Why Redis at ``url`` cannot serve as the pub/sub (``None``: it answers PING)."""
    import redis
    from redis.exceptions import RedisError

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=PUBSUB_CHECK_SECONDS,
                                      socket_timeout=PUBSUB_CHECK_SECONDS)
    except ValueError as error:  # the URL itself
        return str(error)
    try:
        client.ping()
    except (RedisError, OSError) as error:
        return str(error) or type(error).__name__
    finally:
        client.close()
    return None


def shown_url(url: str) -> str:
    """The URL without its password, to print."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


LOOPBACK: Final = ("127.0.0.1", "localhost", "::1")
"""Hosts that only this machine reaches: a cluster on it may name its processes by their ports."""

SWITCH_INTERVAL: Final = 0.0005
"""Seconds a thread holds the interpreter lock before another waiting for it gets a turn."""


def main(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(list(argv))
    try:
        limits = Limits().changed(args.limit)
    except ValueError as error:
        parser.error(f"--limit {error}")
    if args.store is None and args.node_address is not None:
        parser.error("--node-address is for a cluster's processes, which share a --store postgresql://…")
    if args.store is not None and args.node_address is None and args.host not in LOOPBACK:
        # Every machine would call itself http://127.0.0.1:PORT: each would take the others for its
        # own dead predecessor (the same address) and relay to itself.
        parser.error(f"--host {args.host} with --store: say where the other processes reach this one,"
                     " --node-address http://THIS-MACHINE:PORT")
    if args.pubsub is not None and args.store is None:
        parser.error("--pubsub is for a cluster's processes, which share a --store postgresql://…")
    if args.pubsub is not None and not args.pubsub.startswith(REDIS_SCHEMES):
        parser.error(f"--pubsub takes a Redis URL, redis://HOST:PORT/DB, not {shown_url(args.pubsub)!r}")
    if not 0.5 <= args.lease_seconds <= 600:
        parser.error("--lease-seconds must be between 0.5 and 600")
    if args.test_clock and args.host != "127.0.0.1":
        parser.error("--test-clock lets any client move every clock: it is for tests on 127.0.0.1 only")
    from parlour.server.bots import BotPool
    from parlour.server.match import ManualTime

    # The store's writer thread needs the interpreter lock for a moment between its statements;
    # at the default 5 ms interval it waits on a busy event loop. 0.5 ms: 400 busy matches got
    # 1,900 actions a second through instead of 1,600, with p99 165 ms instead of 222 ms.
    sys.setswitchinterval(SWITCH_INTERVAL)
    if args.store is not None and not args.store.startswith(POSTGRES_SCHEMES):
        parser.error("--store takes a postgresql:// URL (without it, matches are kept in the SQLite file"
                     " of --db)")
    db = args.db if args.db is not None else default_db()
    where = str(db) if args.store is None else shown_url(args.store)
    try:
        store = open_store(args.store, db)
    except (OSError, StoreError, Exception) as error:
        print(f"parlour serve: cannot open the database {where}: {error}", file=sys.stderr)
        return 1
    pubsub = None
    if args.pubsub is not None:
        why = check_redis(args.pubsub)
        if why is not None:
            print(f"parlour serve: cannot reach Redis at {shown_url(args.pubsub)} (--pubsub): {why}",
                  file=sys.stderr)
            return 1
        from parlour.server.replica import ClusterPubSub

        pubsub = ClusterPubSub(args.pubsub)
    try:
        sock = listen(args.host, args.port)
    except OSError as error:
        print(f"parlour serve: cannot listen on {args.host}:{args.port}: {error.strerror or error}",
              file=sys.stderr)
        return 1
    allow_many_files()
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s")

    def ready() -> None:
        print(f"{READY} {address(sock)} — open it in a browser (matches stored in {where})", flush=True)

    # One budget for every log line about a client's fault, the transport's and the app's alike.
    faults = FaultLog(logging.getLogger("parlour.server"), limits.client_fault_logs_per_minute)
    leases = None
    if args.store is not None:  # one process of a cluster (perhaps the only one): each match has one writer
        from parlour.server.postgres import PostgresStore

        assert isinstance(store, PostgresStore)
        me = Node.started(args.node_address or address(sock).rstrip("/"))
        leases = store.leases(me, args.lease_seconds)
    app = build_app(store, pubsub, bots=BotPool(args.workers), on_ready=ready, limits=limits, faults=faults,
                    server_time=ManualTime() if args.test_clock else None, leases=leases)
    config = server_config(app, limits, faults, args.log_level, args.compress)
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])  # on uvloop's event loop (the config's loop)
    return 0

"""Leases: which process of a cluster is the one writer of a match (issue 17).

Every unfinished match has at most one writer in the whole cluster: the process holding its
lease. The writer keeps the match in memory (seats, presence, offers, clocks, bots, chat) exactly
as a single server does, renews its leases while it lives (well within ``seconds``), and lets a
match go when it is over (``drop``). A process that dies stops renewing; once its leases have run
out another process takes its matches (``unattended`` names them, ``take`` claims one) and loads
them from the store. A process known to be gone (its address refuses connections, or answers as
another node) need not be waited for: ``expire`` runs its leases out at once.

A lease lives as long as its node: a node's row (``nodes``) is renewed while its process lives,
its heartbeat, one write however many matches it holds (one write a process a round, not one a
match: 100,000 at 100,000 matches), and every lease row naming that node is live while the node's
row is. A node that stops renewing (or is expired) lets all its matches be taken over at once. A
lease is ended before then only by ``drop`` (or by another node taking the match once its holder
has run out).

The store fences with the lease: an append (``PostgresStore``'s ``APPEND``) locks the match's lease
row (``FOR SHARE``) and writes only if this node holds it, so only the holder may append; a
take-over (``TAKE``) waits for an append in flight to commit and then reads what it wrote. A
writer paused past its lease (SIGSTOP, a hung host) may wake up still believing it holds the
match while another took it over: its append is refused even if the version it expects is still
the stored one, and it hears ``VersionConflict`` (or, on its next ``renew``, that the match is no
longer its) and lets the match go. The expected-version check stays behind the fence (two commits
of one version fail on the events' key). Claiming a seat, and storing that an open match expired
unfilled, are fenced by the lease row the same way.

A lease's end is measured by the database's clock (PostgreSQL's ``clock_timestamp()``), never by the
processes' clocks: a lease is a moment on one clock, so processes whose clocks disagree still
agree on whether it has run out.

A server on its own (SQLite or memory store) is the only process there is: ``SoleLeases``, where
every match is always its own and none is ever unattended.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Final, Protocol

LEASE_SECONDS: Final = 3.0
"""A lease's length unless told otherwise: a dead process's matches resume elsewhere within it
(plus the time to notice and load them)."""


@dataclass(frozen=True)
class Node:
    """One server process of the cluster, for as long as it runs."""

    id: str
    """Unique per process start (a uuid4's hex): a restarted process is a new node, and does not
    inherit the leases of the one before it."""
    address: str
    """The base URL other processes reach it at (to relay connections), e.g. ``http://127.0.0.1:8081``."""

    @staticmethod
    def started(address: str) -> Node:
        """This process, started now, reached at ``address``."""
        return Node(uuid.uuid4().hex, address)


class Leases(Protocol):
    """The cluster's leases, as one node sees them. Store errors raise ``StoreError``."""

    me: Node
    seconds: float
    """A lease's length: ``take`` and ``renew`` extend it this far past the database's now."""

    async def take(self, match_id: str) -> Node:
        """The match's holder after trying to take it: ``me`` when it was free, had run out or was
        mine already (then extended), otherwise the node holding it."""
        ...

    async def renew(self, match_ids: Collection[str]) -> set[str]:
        """Extends this node's life, and with it every lease it holds; those of ``match_ids`` that
        are still mine. A match missing from the answer was taken by another node (or dropped):
        let it go."""
        ...

    async def drop(self, match_ids: Collection[str]) -> None:
        """Lets go of the matches at once (over, or let go); no-op for those not mine."""
        ...

    async def expire(self, node: Node) -> int:
        """Runs out ``node``, now, and so every lease it holds: it is known to be gone (its address
        refuses connections, or answers as another node). How many leases there were."""
        ...

    async def unattended(self, most: int) -> list[str]:
        """At most ``most`` unfinished (open or running) matches without a live lease, oldest first:
        those whose writer died (or that nobody has loaded since the cluster started)."""
        ...


@dataclass
class SoleLeases:
    """The leases of a server that is the only process (SQLite or memory store): every match is
    its own, always, and none is ever unattended."""

    me: Node = field(default_factory=lambda: Node.started("http://127.0.0.1"))
    seconds: float = LEASE_SECONDS

    async def take(self, match_id: str) -> Node:
        return self.me

    async def renew(self, match_ids: Collection[str]) -> set[str]:
        return set(match_ids)

    async def drop(self, match_ids: Collection[str]) -> None:
        return None

    async def expire(self, node: Node) -> int:
        return 0

    async def unattended(self, most: int) -> list[str]:
        return []

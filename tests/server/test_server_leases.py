"""Leases (issue 17): 'each match has exactly one writer in the whole cluster at a time (a lease in
PostgreSQL, renewed while alive)'. Two nodes on one schema of the session's PostgreSQL, each with
a store of its own (as two processes would have): one holds a match, the other is told who; a
lease renewed stays, one run out or dropped is taken over, and the loser hears so on its renewal;
a process paused (SIGSTOP) past its lease loses its match to another and cannot commit over it.

A lease lives as long as its node's row: renewing is one write for all of a node's leases, and a
node that dies (or is known gone) lets all its matches be taken over at once.

Nothing here waits for a time: a lease running out is awaited by asking again until it has."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime

import psycopg
import pytest
import pytest_asyncio
from postgres_server import PostgresServer
from test_server_storage import OPEN, RUNNING, a_match, only

from parlour.server.leases import Leases, Node, SoleLeases
from parlour.server.postgres import PostgresStore
from parlour.server.storage import Progress, StoreError

ASYNC = pytest.mark.asyncio(loop_scope="session")
WAIT = 15.0
"""Seconds a state may take to come before the test fails (a bound, not a timing)."""
LONG = 60.0
"""A lease that cannot run out during a test."""
SHORT = 0.3
"""A lease that runs out while the test asks again."""

ANN = Node("ann-node", "http://127.0.0.1:8081")
BOB = Node("bob-node", "http://127.0.0.1:8082")


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    """A schema of this test's own in the session's PostgreSQL."""
    return postgres.fresh()


@pytest_asyncio.fixture
async def stores(url: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Ann's node's store and Bob's, on the same schema."""
    ann, bob = PostgresStore(url), PostgresStore(url)
    yield ann, bob
    await ann.close()
    await bob.close()


async def until(state: Callable[[], Awaitable[bool]], what: str) -> None:
    """Asks ``state`` again and again until it holds (within WAIT, or the test fails)."""
    async def reached() -> None:
        while not await state():
            await asyncio.sleep(0.02)  # a pause between questions, not a time awaited

    try:
        await asyncio.wait_for(reached(), WAIT)
    except TimeoutError:
        pytest.fail(f"never {what}")


async def taken_by(leases: Leases, match_id: str) -> None:
    async def took() -> bool:
        return await leases.take(match_id) == leases.me

    await until(took, f"{leases.me.id} took {match_id}")


def expires(url: str, match_id: str) -> datetime:
    """Until when the match's lease lasts: its node's row's time (by the database's clock)."""
    with psycopg.connect(url, autocommit=True) as db:
        found = db.execute("SELECT nodes.expires FROM leases JOIN nodes ON nodes.id = leases.node"
                           " WHERE leases.match_id = %s", (match_id,)).fetchone()
    assert found is not None, f"match {match_id} has no lease"
    return found[0]  # type: ignore[no-any-return]


def run_out(url: str, *match_ids: str) -> None:
    """Ends leases as time would, by running out the nodes holding them (an hour ago by the
    database's clock), without waiting for it."""
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("UPDATE nodes SET expires = clock_timestamp() - interval '1 hour'"
                   " WHERE id IN (SELECT node FROM leases WHERE match_id = ANY(%s))", (list(match_ids),))


@ASYNC
async def test_one_node_holds_a_match_and_the_other_is_told_which(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """'each match has exactly one writer in the whole cluster at a time': Ann takes it; Bob's take
    answers Ann's node (with the address to relay to), and Bob's renewal of it keeps nothing."""
    ann, bob = stores[0].leases(ANN, LONG), stores[1].leases(BOB, LONG)
    assert await ann.take("m1") == ANN
    assert await bob.take("m1") == ANN
    assert await ann.take("m1") == ANN, "taking one's own lease again keeps it"
    assert await bob.renew(["m1"]) == set()
    assert await bob.take("m2") == BOB, "another match is free for Bob"
    assert await ann.take("m2") == BOB


@ASYNC
async def test_a_renewed_lease_is_extended_and_stays(
    url: str, stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """'renewed while alive': a renewal moves the end of Ann's leases later (by the database's
    clock) and answers those still hers, not the one Bob holds nor one nobody holds."""
    ann, bob = stores[0].leases(ANN, LONG), stores[1].leases(BOB, LONG)
    assert await ann.take("m1") == ANN
    assert await ann.take("m2") == ANN
    assert await bob.take("m3") == BOB
    before = expires(url, "m1")
    assert await ann.renew(["m1", "m2", "m3", "m4"]) == {"m1", "m2"}
    assert expires(url, "m1") > before
    assert await bob.take("m1") == ANN
    assert await ann.renew([]) == set()


@ASYNC
async def test_a_run_out_lease_is_taken_over_and_its_renewal_says_lost(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """'A process that dies stops renewing; after the lease runs out another process takes the
    match over': Ann stops renewing a short lease, Bob takes it once it has run out, and Ann's
    next renewal says it is no longer hers (and her take names Bob)."""
    ann, bob = stores[0].leases(ANN, SHORT), stores[1].leases(BOB, LONG)
    assert await ann.take("m1") == ANN
    await taken_by(bob, "m1")
    assert await ann.renew(["m1"]) == set()
    assert await ann.take("m1") == BOB


@ASYNC
async def test_a_run_out_lease_nobody_took_is_still_its_holder_s(
    url: str, stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """Run out but not taken: nobody else can have written the match, so Ann's renewal keeps it
    (and Bob then finds it hers)."""
    ann, bob = stores[0].leases(ANN, LONG), stores[1].leases(BOB, LONG)
    assert await ann.take("m1") == ANN
    run_out(url, "m1")
    assert await ann.renew(["m1"]) == {"m1"}
    assert await bob.take("m1") == ANN


@ASYNC
async def test_a_dropped_lease_is_free_at_once_and_only_its_holder_drops_it(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """A long lease dropped is taken by the other node at once; a drop by a node that does not
    hold the match changes nothing."""
    ann, bob = stores[0].leases(ANN, LONG), stores[1].leases(BOB, LONG)
    assert await ann.take("m1") == ANN
    assert await ann.take("m2") == ANN
    await bob.drop(["m1", "m2"])
    assert await bob.take("m1") == ANN
    await ann.drop(["m1"])
    assert await bob.take("m1") == BOB
    assert await ann.take("m2") == ANN
    await ann.drop([])


@ASYNC
async def test_a_node_known_to_be_gone_has_its_leases_run_out_at_once(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """'its matches resume on the other': Bob, finding Ann's process gone, runs out her leases
    (long as they were) and takes her matches at once; his own are untouched. Were Ann still
    alive, her renewal would keep only those nobody took meanwhile."""
    ann, bob = stores[0].leases(ANN, LONG), stores[1].leases(BOB, LONG)
    for match_id in ("m1", "m2"):
        assert await ann.take(match_id) == ANN
    assert await bob.take("m3") == BOB
    assert await bob.expire(ANN) == 2
    assert await bob.expire(ANN) == 0, "run out already"
    assert await bob.take("m1") == BOB
    assert await ann.take("m3") == BOB
    assert await ann.renew(["m1", "m2", "m3"]) == {"m2"}
    assert await bob.expire(Node("nobody", "http://127.0.0.1:1")) == 0


@ASYNC
async def test_unattended_lists_only_unfinished_matches_without_a_live_lease_oldest_first(
    url: str, stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """'its matches resume on the other': the matches to take over are the open and running ones
    whose lease is missing or run out, oldest first; never a finished one (its writer may have
    dropped its lease), never one with a live lease (anyone's)."""
    store = stores[0]
    over = Progress("over", 5, None, {"winner": 0}, updated=3.0)
    expired = Progress("expired", 0, None, None, updated=3.0)
    made = {"open": (OPEN, 10.0), "running": (RUNNING, 12.0), "over": (over, 5.0), "expired": (expired, 6.0),
            "leased": (RUNNING, 1.0), "run-out": (RUNNING, 15.0), "over-run-out": (over, 2.0),
            "older": (RUNNING, 3.0)}
    for match_id, (progress, created) in made.items():
        await store.create(a_match(match_id, created=created, progress=progress))
    ann, bob = store.leases(ANN, LONG), stores[1].leases(BOB, LONG)
    assert await ann.take("leased") == ANN
    assert await bob.take("run-out") == BOB
    assert await bob.take("over-run-out") == BOB
    assert "run-out" not in await ann.unattended(10)
    run_out(url, "run-out", "over-run-out")
    assert await ann.unattended(10) == ["older", "open", "running", "run-out"]
    assert await bob.unattended(2) == ["older", "open"]
    assert await bob.unattended(0) == []
    assert await ann.take("older") == ANN
    assert await bob.unattended(10) == ["open", "running", "run-out"]


@ASYNC
async def test_renewing_a_thousand_leases_is_one_write(
    url: str, stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """Renewing costs one write a process, not one a match: Ann holds 1,000 matches; her renewal
    answers all of them (not one Bob holds) and writes exactly one row, her node's, now later."""
    ann, bob = stores[0].leases(ANN, LONG), stores[1].leases(BOB, LONG)
    held = [f"m{index}" for index in range(1000)]
    for match_id in held:
        assert await ann.take(match_id) == ANN
    assert await bob.take("bob's") == BOB
    before = expires(url, "m999")
    with psycopg.connect(url, autocommit=True) as db:
        tally_writes(db)
        assert await ann.renew([*held, "bob's"]) == set(held)
        writes = db.execute("SELECT tab, op, node FROM tally").fetchall()
    assert writes == [("nodes", "UPDATE", ANN.id)]
    assert expires(url, "m999") > before
    assert await bob.take("m500") == ANN


def tally_writes(db: psycopg.Connection[tuple[object, ...]]) -> None:
    """From now on, every row written to ``nodes`` or ``leases`` is noted in ``tally``."""
    db.execute("CREATE TABLE tally (tab TEXT, op TEXT, node TEXT)")
    db.execute("""CREATE FUNCTION tally() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO tally VALUES (TG_TABLE_NAME, TG_OP,
                COALESCE(to_jsonb(NEW) ->> 'id', to_jsonb(NEW) ->> 'node', to_jsonb(OLD) ->> 'node'));
            RETURN NULL;
        END $$""")
    for table in ("nodes", "leases"):
        db.execute(f"CREATE TRIGGER {table}_tally AFTER INSERT OR UPDATE OR DELETE ON {table}"
                   " FOR EACH ROW EXECUTE FUNCTION tally()")


@ASYNC
async def test_a_dead_node_s_matches_are_all_taken_over_at_once(
    url: str, stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """'A process that dies stops renewing; after the lease runs out another process takes the
    match over': when Ann's node runs out, all thirty of her matches are unattended at once
    (oldest first, Bob's own not among them), Bob takes every one, and Ann's renewal keeps none."""
    store = stores[0]
    ann, bob = store.leases(ANN, LONG), stores[1].leases(BOB, LONG)
    hers = [f"m{index:02}" for index in range(30)]
    for index, match_id in enumerate(hers):
        await store.create(a_match(match_id, created=100.0 - index, progress=RUNNING))
        assert await ann.take(match_id) == ANN
    await stores[1].create(a_match("bob's", created=1.0, progress=RUNNING))  # made by Bob's process: his
    assert await bob.take("bob's") == BOB
    assert await bob.unattended(100) == []
    run_out(url, "m00")
    assert await bob.unattended(100) == hers[::-1]
    for match_id in hers:
        assert await bob.take(match_id) == BOB
    assert await ann.renew(hers) == set()
    assert await bob.unattended(100) == []


@ASYNC
async def test_a_match_let_go_unfinished_is_unattended_at_once_and_a_finished_one_leaves_no_row(
    url: str, stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """A match made is nobody's until taken; let go while unfinished (a process stopping hands its
    matches over) it is nobody's again, to be taken over at once; let go once over, its row goes."""
    store = stores[0]
    over = Progress("over", 5, None, {"winner": 0}, updated=3.0)
    await store.create(a_match("running", progress=RUNNING))
    await store.create(a_match("over", progress=over))
    ann, bob = store.leases(ANN, LONG), stores[1].leases(BOB, LONG)
    assert await bob.unattended(5) == ["running"]
    assert await ann.take("running") == ANN
    assert await ann.take("over") == ANN
    assert await bob.unattended(5) == []
    await ann.drop(["running", "over"])
    assert await bob.unattended(5) == ["running"]
    with psycopg.connect(url, autocommit=True) as db:
        rows = db.execute("SELECT match_id, node FROM leases ORDER BY match_id").fetchall()
    assert rows == [("running", "")]
    assert await bob.take("running") == BOB


@ASYNC
async def test_nodes_long_dead_and_holding_nothing_are_forgotten(
    url: str, stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """The nodes of past process starts do not pile up: a node dead over an hour that holds nothing
    is forgotten (one that still holds an unfinished match is not); the row of a finished match
    its dead writer never let go is forgotten; a forgotten node that wakes up is back at its renewal."""
    store = stores[0]
    await store.create(a_match("running", progress=RUNNING))
    await store.create(a_match("over", progress=Progress("over", 5, None, {"winner": 0}, updated=3.0)))
    ann, bob = store.leases(ANN, LONG), stores[1].leases(BOB, LONG)
    carol = store.leases(Node("carol-node", "http://127.0.0.1:8083"), LONG)
    assert await ann.take("running") == ANN
    assert await bob.take("over") == BOB
    assert await carol.take("never-made") == carol.me
    await carol.drop(["never-made"])
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("UPDATE nodes SET expires = clock_timestamp() - interval '2 hours' WHERE id <> ''")

        def nodes() -> list[str]:
            return [node for (node,) in db.execute("SELECT id FROM nodes ORDER BY id").fetchall()]

        assert await carol.unattended(5) == ["running"]
        assert nodes() == ["", ANN.id], "Carol held nothing; Bob held only a finished match"
        assert db.execute("SELECT match_id FROM leases").fetchall() == [("running",)]
        assert await bob.renew(["over"]) == set()
        assert nodes() == ["", ANN.id, BOB.id]
        assert await bob.take("running") == BOB


@ASYNC
async def test_twenty_takes_at_once_from_two_nodes_leave_exactly_one_holder(url: str) -> None:
    """'exactly one writer in the whole cluster at a time', with the takes truly at once: ten
    connections of each node take the same match together, again for several matches; every
    take answers the same node, and that node is the lease's."""
    stores = [PostgresStore(url) for _ in range(20)]
    try:
        leases = [store.leases(ANN if index % 2 else BOB, LONG) for index, store in enumerate(stores)]
        holders: set[Node] = set()
        for round_ in range(5):
            match_id = f"m{round_}"
            answers = await asyncio.wait_for(asyncio.gather(*(each.take(match_id) for each in leases)), WAIT)
            assert len(set(answers)) == 1, answers
            (holder,) = set(answers)
            holders.add(holder)
            others = [each for each in leases if each.me != holder]
            assert await others[0].renew([match_id]) == set()
            assert await others[0].take(match_id) == holder
    finally:
        for store in stores:
            await store.close()
    assert holders <= {ANN, BOB}


PAUSED = """
import asyncio, sys
from parlour.server.leases import Node
from parlour.server.postgres import PostgresStore
from parlour.server.storage import Progress, VersionConflict

async def main(url: str) -> None:
    store = PostgresStore(url)
    leases = store.leases(Node("paused-node", "http://127.0.0.1:1"), float(sys.argv[2]))
    print("took" if await leases.take("m1") == leases.me else "refused", flush=True)
    await store.append("m1", 0, [11], Progress("running", 1, 1, None))
    told = False
    while await leases.renew(["m1"]):
        if not told:
            print("renewed", flush=True)
            told = True
        await asyncio.sleep(leases.seconds / 8)
    # Woken up: first what a writer that does not know yet would do (append at its version).
    print("lost to", (await leases.take("m1")).id, flush=True)
    try:
        await store.append("m1", 1, [12], Progress("running", 2, 0, None))
        print("committed", flush=True)
    except VersionConflict:
        print("fenced", flush=True)
    await store.close()

asyncio.run(main(sys.argv[1]))
"""


async def said(process: asyncio.subprocess.Process) -> str:
    """The process's next line (within WAIT, or the test fails)."""
    assert process.stdout is not None
    try:
        line = await asyncio.wait_for(process.stdout.readline(), WAIT)
    except TimeoutError:
        pytest.fail("the paused process said nothing")
    return line.decode().strip()


@ASYNC
async def test_a_process_paused_past_its_lease_loses_its_match_and_cannot_commit_over_it(
    url: str, stores: tuple[PostgresStore, PostgresStore],
) -> None:
    """'Two processes both believing they own a match (lease expired under a paused process):
    exactly one commit per version, proven by a test that pauses a process (SIGSTOP) past its
    lease': a process takes the match, writes and renews; stopped, its lease runs out and Bob
    takes the match over and writes; continued, its renewal says the match is lost (to Bob), and
    its append at the version it knew is refused. The record holds each version once."""
    store = stores[1]
    await store.create(a_match("m1", progress=RUNNING))
    bob = store.leases(BOB, LONG)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PAUSED, url, "2",
        stdout=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL)
    try:
        assert await said(process) == "took"
        assert await said(process) == "renewed"
        assert (await bob.take("m1")).id == "paused-node"
        os.kill(process.pid, signal.SIGSTOP)
        await taken_by(bob, "m1")
        await store.append("m1", 1, [21], Progress("running", 2, 0, None))
        os.kill(process.pid, signal.SIGCONT)
        assert await said(process) == f"lost to {BOB.id}"
        assert await said(process) == "fenced"
        assert await asyncio.wait_for(process.wait(), WAIT) == 0
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGCONT)
            process.kill()
        await process.wait()
    assert (await only(store)).actions == [11, 21]
    assert await bob.renew(["m1"]) == {"m1"}


@ASYNC
async def test_a_database_made_before_leases_gets_their_table(url: str) -> None:
    """A schema made by a parlour without leases (same schema version, no lease tables): opening
    the store adds them, keeps the matches, and its unfinished ones are nobody's (unattended), as
    is a match made afterwards."""
    first = PostgresStore(url)
    await first.create(a_match("m1", progress=RUNNING))
    await first.close()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("DROP TRIGGER matches_unheld ON matches")
        db.execute("DROP FUNCTION parlour_unheld")
        db.execute("DROP TABLE leases, nodes")
    again, plain = PostgresStore(url), PostgresStore(url)
    try:
        leases = again.leases(ANN, LONG)
        assert await leases.unattended(5) == ["m1"]
        await plain.create(a_match("m2", created=200.0, progress=RUNNING))  # by a store of no node
        assert await leases.unattended(5) == ["m1", "m2"]
        await again.create(a_match("m3", created=300.0, progress=RUNNING))  # by Ann's: hers at once
        assert await leases.unattended(5) == ["m1", "m2"]
        assert await leases.renew(["m3"]) == {"m3"}
        assert await leases.take("m1") == ANN
    finally:
        await again.close()
        await plain.close()


@ASYNC
async def test_a_database_with_a_lease_a_row_timed_by_itself_gets_the_nodes(url: str) -> None:
    """A schema made while each lease was a row timed by itself (no nodes): opening the store makes
    the lease tables anew (their rows are the cluster's, not the record's), the matches kept and
    their unfinished ones nobody's."""
    first = PostgresStore(url)
    await first.create(a_match("m1", progress=RUNNING))
    await first.close()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("DROP TABLE leases, nodes")
        db.execute("CREATE TABLE leases (match_id TEXT PRIMARY KEY, node TEXT NOT NULL,"
                   " address TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL)")
        db.execute("INSERT INTO leases VALUES ('m1', 'gone-node', 'http://127.0.0.1:1',"
                   " clock_timestamp() + interval '1 hour')")
    again = PostgresStore(url)
    try:
        leases = again.leases(ANN, LONG)
        assert await leases.unattended(5) == ["m1"]
        assert await leases.take("m1") == ANN
        assert await leases.renew(["m1"]) == {"m1"}
    finally:
        await again.close()


@ASYNC
async def test_a_lost_lease_connection_is_opened_again_and_closed_with_the_store(url: str) -> None:
    """'PostgreSQL restarted … play continues when it is back': the leases' own connection, dropped
    by the database, is replaced by the next call; closing the store closes it."""
    named = f"{url}&application_name=leases-dropped"
    store = PostgresStore(named)
    try:
        leases = store.leases(ANN, LONG)
        assert await leases.take("m1") == ANN
        pids = backends(url, "leases-dropped")
        assert len(pids) == 1, pids
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("SELECT pg_terminate_backend(%s)", (pids[0],))
        assert await asyncio.wait_for(leases.renew(["m1"]), WAIT) == {"m1"}
        assert backends(url, "leases-dropped") not in ([], pids)
    finally:
        await store.close()

    async def closed() -> bool:  # a backend leaves the list a moment after its client said goodbye
        return backends(url, "leases-dropped") == []

    await until(closed, "closed the leases' connection")


def backends(url: str, name: str) -> list[int]:
    """The database's connections named ``name`` (by ``application_name``)."""
    with psycopg.connect(url, autocommit=True) as db:
        return [pid for (pid,) in db.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (name,)).fetchall()]


@ASYNC
async def test_a_lease_call_on_a_database_that_is_gone_is_a_store_error(url: str) -> None:
    """'Store errors raise StoreError (as the store does)': the schema dropped under the leases."""
    store = PostgresStore(url)
    try:
        leases = store.leases(ANN, LONG)
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("DROP TABLE leases")
        calls: list[Callable[[], Awaitable[object]]] = [
            lambda: leases.take("m1"), lambda: leases.renew(["m1"]), lambda: leases.drop(["m1"]),
            lambda: leases.expire(BOB), lambda: leases.unattended(3)]
        for call in calls:
            with pytest.raises(StoreError, match="leases"):
                await call()
    finally:
        await store.close()


def test_a_lease_lasts_some_time(url: str) -> None:
    store = PostgresStore(url)
    for wrong in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="a lease lasts some time"):
            store.leases(ANN, wrong)


@ASYNC
async def test_a_sole_server_holds_every_match_and_none_is_unattended() -> None:
    """A server on its own (SQLite or memory): every match is its own, always."""
    sole = SoleLeases(ANN)
    assert await sole.take("m1") == ANN
    assert await sole.renew(["m1", "m2"]) == {"m1", "m2"}
    await sole.drop(["m1"])
    assert await sole.take("m1") == ANN
    assert await sole.expire(BOB) == 0
    assert await sole.unattended(10) == []
    started = SoleLeases()
    assert len(started.me.id) == 32
    assert started.me != SoleLeases().me, "each start is a node of its own"
    assert started.seconds > 0


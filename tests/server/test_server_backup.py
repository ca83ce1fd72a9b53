"""``parlour db backup``: a copy of the database taken while the server plays is whole and
consistent, replaces its file atomically, and a server started on it has the matches."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from server_process import ROOT, WAIT, Server, Storage

BOTS = ["bot:random", "bot:random"]


def run_backup(db: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parlour.cli", "db", "backup", "--db", str(db), str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=WAIT, stdin=subprocess.DEVNULL, check=False,
    )


def backup(db: Path, out: Path) -> str:
    done = run_backup(db, out)
    assert done.returncode == 0, f"parlour db backup: {done.returncode}\n{done.stdout}{done.stderr}"
    return done.stdout


def played(server: Server, match_id: str, plies: int) -> int:
    """Waits (bounded) until the match has ``plies`` actions or has ended; its version then."""
    deadline = time.monotonic() + WAIT
    while True:
        summary = server.summary(match_id)
        if summary["version"] >= plies or summary["status"] == "over" or time.monotonic() > deadline:
            return int(summary["version"])
        time.sleep(0.05)


@pytest.mark.sqlite_only("parlour db backup copies a SQLite file")
def test_a_backup_taken_while_bots_play_is_whole_and_restores(storage: Storage, tmp_path: Path) -> None:
    server = storage.server(tmp_path / "live").start()
    try:
        ids = [server.create(game="mille", seats=BOTS, bot_seconds=0.01)["match"]["id"] for _ in range(3)]
        endless = server.create(game="loa", seats=BOTS, bot_seconds=0.01, options={"move_limit": 0})
        ids.append(endless["match"]["id"])
        ids.append(server.create(game="loa", seats=["open", "open"])["match"]["id"])
        assert played(server, ids[0], 10) >= 10, server.log_text()
        out = tmp_path / "copies" / "parlour-copy.sqlite3"
        out.parent.mkdir()
        for _ in range(3):  # each copy replaces the last, while the bots go on writing
            printed = backup(server.db, out)
            copy = sqlite3.connect(out)
            try:
                assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
                assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # stands alone
                stored = {match_id for (match_id,) in copy.execute("SELECT id FROM matches")}
                (events,) = copy.execute("SELECT COUNT(*) FROM events").fetchone()
                # Consistent: every match's stored version is the count of its events.
                (mismatched,) = copy.execute(
                    "SELECT COUNT(*) FROM matches WHERE version !="
                    " (SELECT COUNT(*) FROM events WHERE events.match_id = matches.id)"
                ).fetchone()
            finally:
                copy.close()
            assert stored == set(ids)
            assert events >= 10
            assert mismatched == 0
            assert f"{len(ids)} matches, {events} events" in printed, printed
        assert sorted(path.name for path in out.parent.iterdir()) == [out.name]  # no partial file left
        kept = {match_id: server.summary(match_id)["version"] for match_id in ids}
    finally:
        server.stop()
    restored = storage.server(tmp_path / "restored", name="parlour-copy")
    out.replace(restored.db)
    restored.start()
    try:
        for match_id in ids:
            # The copy was taken before the last moves: each match is there, at most as far on.
            assert restored.summary(match_id)["version"] <= kept[match_id]
        assert restored.summary(ids[4])["status"] == "open"
    finally:
        restored.stop()


def test_backup_refuses_a_missing_database_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.sqlite3"
    done = run_backup(missing, tmp_path / "out.sqlite3")
    assert done.returncode == 1
    assert "no database" in done.stderr
    assert list(tmp_path.iterdir()) == []

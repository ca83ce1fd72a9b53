"""``parlour bench server`` and ``parlour bench traffic``: smoke runs (figures printed, never asserted)."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from server_process import ROOT, WAIT

from parlour.server import bench, traffic


def test_a_short_server_bench_prints_its_figures() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "bench", "server", "--matches", "3", "--seconds", "1",
         "--warmup", "0.5", "--think", "0.01"],
        cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "action -> broadcast to the opponent: median" in result.stdout, result.stdout
    assert "server CPU:" in result.stdout, result.stdout
    assert "connections lost: 0" in result.stdout, result.stdout


def bench_server(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parlour.cli", "bench", "server", *args],
        cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=300,
    )


def test_bad_arguments_exit_with_status_2() -> None:
    for args in (["--matches", "0"], ["--think", "-1"], ["--game", "chess"], ["--seconds", "x"],
                 ["--startup", "0"], ["--keep", "x.sqlite3"], ["--startup", "5", "--flood"],
                 ["--source", "/nonexistent"], ["--cluster", "0"], ["--cluster", "2", "--flood"],
                 ["--cluster", "2", "--startup", "5"], ["--cluster", "2", "--source", str(ROOT)]):
        assert bench.main(args) == 2, args


def test_a_short_cluster_bench_prints_each_components_figures_and_stops_every_part() -> None:
    # Issue 17: "with 1 and 2 processes behind HAProxy on PostgreSQL, the action-to-broadcast
    # latency (median, p99) and each component's CPU per action". Figures, never their values.
    result = bench_server("--cluster", "2", "--matches", "4", "--seconds", "2", "--warmup", "1",
                          "--think", "0.05")
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "through HAProxy to 2 servers on PostgreSQL" in out, out
    assert re.search(r"action -> broadcast to the opponent: median \d+\.\d ms, p99 \d+\.\d ms", out), out
    assert re.search(r"actions sent: [\d,]+ in \d+\.\d s = [\d,]+ actions/s", out), out
    assert "connections lost: 0" in out, out
    parts_shown = ("servers together", "server 1", "server 2", "PostgreSQL", "Redis", "HAProxy",
                   "the whole cluster")
    for part in parts_shown:
        assert re.search(rf"^    {part} +\d+\.\d\d ms +\d+%$", out, re.MULTILINE), (part, out)
    assert re.search(r"matches each server writes \(live leases\): server 1: \d+, server 2: \d+$", out,
                     re.MULTILINE), out
    assert re.search(r"connections open to the servers: [\d,]+ from HAProxy \(server 1: \d+, "
                     r"server 2: \d+\); [\d,]+ relayed", out), out
    assert out.count("collector pauses:") == 2, out
    assert re.search(r"the logs: server 1: \d+ lines?.*; server 2: \d+ lines?.*; HAProxy: \d+ lines?", out), \
        out
    # Every part it started is stopped: PostgreSQL, Redis, both servers and HAProxy are gone, and so
    # are their files.
    parts = re.search(r"PostgreSQL pid (\d+) \(data in (\S+)\); Redis pid (\d+); server 1 pid (\d+), "
                      r"server 2 pid (\d+); HAProxy pid (\d+)", out)
    assert parts is not None, out
    started = [int(pid) for pid in (parts.group(1), *parts.group(3, 4, 5, 6))]
    # The postmaster removes its pid file (which pg_ctl stop waits for) just before it exits.
    deadline = time.monotonic() + WAIT
    while not all(map(gone, started)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in started if not gone(pid)] == [], out
    assert not Path(parts.group(2)).exists(), out


def gone(pid: int) -> bool:
    """Whether a process has exited (gone, or a zombie its parent has not reaped yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


def test_startup_bench_stores_the_matches_and_starts_the_server_on_them(tmp_path: Path) -> None:
    kept = tmp_path / "kept.sqlite3"
    result = bench_server("--startup", "300", "--keep", str(kept))
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "300 matches stored" in out, out
    assert re.search(r"ready after \d+\.\d+ s", out), out
    assert re.search(r"resident at READY \(VmRSS\): \d+ MB; peak \(VmHWM\): \d+ MB", out), out
    listed = re.search(r"GET /api/matches then: HTTP 200, (\d+) matches on the page", out)
    assert listed is not None, out
    assert int(listed.group(1)) > 0, out
    assert re.search(r"a finished match, GET /api/matches/\S+: HTTP 200, status over", out), out
    db = sqlite3.connect(kept)
    statuses = dict(db.execute("SELECT status, COUNT(*) FROM matches GROUP BY status").fetchall())
    (longest,) = db.execute("SELECT MAX(version) FROM events").fetchone()
    db.close()
    assert set(statuses) == {"over", "running"}, statuses
    assert sum(statuses.values()) == 300, statuses
    assert statuses["over"] > statuses["running"], statuses  # 90 % finished
    assert longest == 50, longest  # Lines of Action with a move limit of 50 plies

    again = bench_server("--startup", "300", "--keep", str(kept))
    assert again.returncode == 0, again.stdout + again.stderr
    assert "reusing" in again.stdout, again.stdout
    other = bench_server("--startup", "301", "--keep", str(kept))
    assert other.returncode == 2, other.stdout + other.stderr
    assert "holds 300 matches, not 301" in other.stderr, other.stderr


def test_flood_bench_measures_with_and_without_the_flooder_which_is_refused() -> None:
    result = bench_server("--flood", "--matches", "2", "--seconds", "1", "--warmup", "0.3", "--think", "0.05")
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert " without a flooder:" in out, out
    assert " with a flooder on 127.0.0.2:" in out, out
    assert out.count("action -> broadcast to the opponent: median") == 2, out
    refused = re.search(r"the flooder \(4 connections from 127\.0\.0\.2\): ([\d,]+) requests, "
                        r"([\d,]+) refused with 429", out)
    assert refused is not None, out
    # The server keeps its default limits: a client creating matches at full speed is refused.
    assert int(refused.group(2).replace(",", "")) > 0, out
    assert "p99 beside the flooder / without:" in out, out
    assert "collector pauses:" in out, out


def test_a_short_traffic_bench_counts_what_one_seat_receives() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "bench", "traffic", "--game", "loa", "--actions", "12"],
        cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "12 actions (stopped at 12 actions)" in lines[0], result.stdout
    # One state on connect, then one update per action after it: the history travels once.
    assert any(line.split()[:2] == ["state", "1"] for line in lines), result.stdout
    assert any(line.split()[0] == "update" for line in lines[2:]), result.stdout


def test_traffic_bad_arguments_exit_with_status_2() -> None:
    for args in (["--actions", "0"], ["--option", "nonsense"], ["--players", "x"]):
        assert traffic.main(args) == 2

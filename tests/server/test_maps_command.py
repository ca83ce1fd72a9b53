"""``parlour maps list | show NAME | check FILE`` (issue 16: "the same library and checks from the
terminal"): the shipped maps and those saved in a server's file (read, never written), a map's
text, and the game's check with every problem on its squares; ``check`` exits 1 on errors.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from server_process import ROOT, Storage

from parlour.cli import main
from parlour.engine import BoardProblem
from parlour.games import GAMES
from parlour.server.maps_command import problem_line
from parlour.server.storage import BoardRow, SQLiteStore

GAME = next(name for name, game in GAMES.items() if game.boards is not None)
_BOARDS = GAMES[GAME].boards
assert _BOARDS is not None
BOARDS = _BOARDS
SHIPPED = BOARDS.shipped()
FIRST = next(iter(SHIPPED))


def drawn(name: str) -> str:
    """The first shipped map under another name, its top-left square impassable."""
    lines = SHIPPED[FIRST].replace(f"name {FIRST}\n", f"name {name}\n").split("\n")
    top = lines.index("terrain") + 1
    lines[top] = "#" + lines[top][1:]
    return "\n".join(lines)


def library_file(tmp_path: Path, *names: str) -> Path:
    """A server's SQLite file with these maps saved, oldest first."""
    db = tmp_path / "parlour.sqlite3"

    async def fill() -> None:
        store = SQLiteStore(db)
        try:
            for when, name in enumerate(names):
                board = BoardRow(GAME, name, drawn(name), 20, 20, "Ann", 1_764_000_000.0 + when, "127.0.0.1")
                assert await store.add_board(board, 100) == "saved"
        finally:
            await store.close()

    asyncio.run(fill())
    return db


def test_list_shows_the_shipped_maps_then_the_saved_ones_newest_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = library_file(tmp_path, "older", "newer")
    assert main(["maps", "list", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [line.split()[0] for line in lines[:-1]]
    assert names == [*SHIPPED, "newer", "older"]
    recommended = next(line for line in lines if line.startswith(BOARDS.recommended + " "))
    assert "recommended" in recommended
    assert "20x20" in lines[len(SHIPPED)]
    assert "by Ann" in lines[len(SHIPPED)]
    assert "2025-11-24" in lines[len(SHIPPED)]  # the saved time, as a date (1764000001 s)
    assert lines[-1] == f"{len(SHIPPED) + 2} {BOARDS.noun}s (2 saved in {db})"


def test_list_without_a_database_shows_the_shipped_maps_and_makes_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere.sqlite3"
    assert main(["maps", "list", "--db", str(missing)]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()[:-1]] == list(SHIPPED)
    assert f"none saved: there is no database {missing}" in out
    assert not missing.exists(), "read only: a mistyped path must not become a database"


def test_show_prints_a_shipped_or_saved_map_s_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = library_file(tmp_path, "mine")
    assert main(["maps", "show", FIRST, "--db", str(db)]) == 0
    assert capsys.readouterr().out == SHIPPED[FIRST]
    assert main(["maps", "show", "mine", "--db", str(db)]) == 0
    assert capsys.readouterr().out.rstrip("\n") == drawn("mine").rstrip("\n")
    assert main(["maps", "show", "nobody-s", "--db", str(db)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no map called 'nobody-s'" in captured.err


def test_check_passes_a_good_map_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.cmap"
    good.write_text(drawn("good"))
    assert main(["maps", "check", str(good)]) == 0
    assert capsys.readouterr().out == f"{good}: ok: {BOARDS.noun} 'good', 20x20, 0 warnings\n"


def test_check_exits_1_and_prints_every_problem_with_its_squares(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cmap"
    text = drawn("bad").replace("base 2 p5", "base 2 p6")
    bad.write_text(text)
    # Through the real command, as a person types it: the exit status is the point.
    done = subprocess.run([sys.executable, "-m", "parlour.cli", "maps", "check", str(bad)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    problems = BOARDS.check(text)
    errors = [problem for problem in problems if problem.is_error]
    assert len(errors) >= 2, "a base on a square that is no base, and a base square no line names"
    for problem in errors:
        assert f"{bad}: error: {problem_line(problem)}" in lines
    assert any("square p6" in line for line in lines), lines
    assert any("square p5" in line for line in lines), lines
    assert lines[-1].startswith(f"{bad}: {len(errors)} errors")
    assert lines[-1].endswith("cannot be used")


def test_check_reads_standard_input_and_says_where_a_problem_is() -> None:
    done = subprocess.run([sys.executable, "-m", "parlour.cli", "maps", "check", "-"], input="not a map\n",
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith("-: error: ")
    problem = BoardProblem("error", "CON-12 item 6", "two mines on one square", ("c3", "g7"), 12)
    assert problem_line(problem) == "line 12, squares c3 g7: two mines on one square (CON-12 item 6)"
    assert problem_line(BoardProblem("warning", "CON-13", "far", ("e5",))) == "square e5: far (CON-13)"


def test_a_missing_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["maps", "check", str(tmp_path / "nothing.cmap")]) == 1
    assert "nothing.cmap" in capsys.readouterr().err


def test_a_file_that_is_not_text_or_a_database_that_is_not_one_is_said_in_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "photo.cmap"
    binary.write_bytes(b"\xff\xfe garbage")
    assert main(["maps", "check", str(binary)]) == 1
    said = capsys.readouterr().err.strip()
    assert said == f"parlour maps: {binary} is not a map: not UTF-8 text (byte 0xff at offset 0)"
    assert main(["maps", "list", "--db", str(binary)]) == 1
    said = capsys.readouterr().err.strip()
    assert said == f"parlour maps: cannot read the saved maps in {binary}: file is not a database"


@pytest.mark.sqlite_only("parlour maps --db reads the server's SQLite file")
def test_list_and_show_read_the_file_of_a_running_server(
    storage: Storage, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = storage.server(tmp_path).start()
    try:
        body = {"name": "live", "text": drawn("live")}
        status, answer = server.call("POST", f"/api/games/{GAME}/boards", body)
        assert status == 201, answer
        # The server holds the file (WAL, its writer alive): the command reads the latest commit.
        assert main(["maps", "list", "--db", str(server.db)]) == 0
        assert [line.split()[0] for line in capsys.readouterr().out.splitlines()[:-1]] == [*SHIPPED, "live"]
        assert main(["maps", "show", "live", "--db", str(server.db)]) == 0
        assert capsys.readouterr().out.rstrip("\n") == drawn("live").rstrip("\n")
        assert server.call("GET", f"/api/games/{GAME}/boards/live")[0] == 200, "the server goes on"
    finally:
        server.stop()

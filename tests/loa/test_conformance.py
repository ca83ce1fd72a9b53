"""The CS61B staff test scripts (LOA-90 to LOA-97), run against ``parlour loa`` by the harness.

Each ``*-1.in`` file in ``conformance/`` is one test. The harness itself is checked further down
against small fake programs: it must fail a program the course's harness would fail (LOA-93).
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
CONFORMANCE = HERE / "conformance"


def _load_harness() -> ModuleType:
    # Loaded by path under its own name: tests/ has no packages, and another directory's
    # module called "harness" must not shadow this one.
    spec = importlib.util.spec_from_file_location("parlour_loa_harness", HERE / "harness.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


harness = _load_harness()
SCRIPTS = sorted(CONFORMANCE.glob("*-1.in"))


def _uses_the_ai(path: Path) -> bool:
    return any(d.startswith(("move", "remote")) for d in harness.parse_script(path).directives)


def test_every_kept_test_is_here() -> None:
    """LOA-97: the thirteen kept tests (SOURCES.txt lists their files)."""
    names = {path.name.removesuffix("-1.in") for path in SCRIPTS}
    assert names == {
        "ai-v-staff", "ai2", "full-game1", "illegals", "init", "limit", "simplemoves",
        "someMoves", "someMoves2", "win1", "win3", "winnable1", "winnable2",
    }


@pytest.mark.parametrize(
    "script",
    [pytest.param(p, marks=[pytest.mark.slow] if _uses_the_ai(p) else []) for p in SCRIPTS],
    ids=[p.name.removesuffix("-1.in") for p in SCRIPTS],
)
def test_staff_script(script: Path, tmp_path: Path) -> None:
    """LOA-90 to LOA-97: the script passes the staff harness's checks and comparison."""
    report = harness.run_test(script, cwd=tmp_path)
    assert report.ok, report.explain()


# --- the harness itself ---------------------------------------------------------------------


def test_script_parsing() -> None:
    """LOA-91: comments before the command line are skipped, the rest is kept as is."""
    script = harness.parse_script(CONFORMANCE / "ai-v-staff-1.in")
    assert script.command == ["java", "-ea", "loa.Main"]
    assert script.steps == [
        (False, "seed 129384\n"),
        (False, "manual white\n"),
        (False, "auto black\n"),
        (True, "move"),
        (True, "remote move/win"),
    ]
    assert harness.parse_script(CONFORMANCE / "illegals-1.in").steps[-1] == (False, "quit")


def test_a_line_before_the_command_line_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad-1.in"
    path.write_text("dump\n#* java -ea loa.Main\n")
    with pytest.raises(harness.HarnessFailure):
        harness.parse_script(path)


def test_command_line_replacement() -> None:
    """LOA-96: the course's programs become parlour's; options after them are kept."""
    launcher = ("parlour", "loa", "--time=0.4")
    assert harness.program_command(["java", "-ea", "loa.Main"], launcher) == list(launcher)
    assert harness.program_command(["java", "loa.Main"], launcher) == list(launcher)
    assert harness.program_command(["staff-loa", "--strict"], launcher) == [*launcher, "--strict"]
    with pytest.raises(harness.HarnessFailure):
        harness.program_command(["python", "loa.py"], launcher)


def test_expected_output_filter() -> None:
    """LOA-94: comments, trailing blanks and empty lines do not count; nor a final newline."""
    assert harness.filter_expected("===  \n# note\n\n    - b - # x\n===") == ["===", "    - b -", "==="]
    assert harness.filter_expected("a\nb\n") == harness.filter_expected("a\nb")


def test_messages_are_cleaned() -> None:
    """LOA-92: runs of spaces collapse and the message is right-trimmed."""
    assert harness.classify("*   White   wins.  ") == ("result", "* White wins.")
    assert harness.classify(" * b1-d3") == ("move", "b1-d3")
    with pytest.raises(harness.HarnessFailure):
        harness.classify("* hello")


FAKE = textwrap.dedent(
    """
    import sys, time
    mode = sys.argv[1]
    out = sys.stdout
    if mode == "traceback":
        sys.stderr.write("Traceback (most recent call last):\\n  oops\\n")
    if mode == "status":
        sys.exit(3)
    if mode == "chatty":
        out.write("x\\n" * 3001)
    if mode == "stubborn":
        sys.stdin.read()
        time.sleep(30)
    if mode == "silent":
        time.sleep(30)
    out.write("b> b> ===\\n    - b \\nNext move: black\\n===\\n")
    if mode == "move":
        out.write("w> * b1-d3\\n")
    out.write("w> *   White   wins.  \\n-> ")
    out.flush()
    sys.stdin.read()
    """
)


def _fake_test(tmp_path: Path, mode: str, directives: str, expected: str) -> Any:
    fake = tmp_path / "fake.py"
    fake.write_text(FAKE)
    (tmp_path / "t-1.in").write_text(f"#* staff-loa\ndump\n{directives}")
    (tmp_path / "t-1.std").write_text(expected)
    return harness.run_test(tmp_path / "t-1.in", launcher=[sys.executable, str(fake), mode], cwd=tmp_path)


DUMP = "===\n    - b\nNext move: black\n===\n"


def test_a_well_behaved_program_passes(tmp_path: Path) -> None:
    """LOA-92: prompts are cut off, the dump is written, the result written by #*win+."""
    report = _fake_test(tmp_path, "ok", "#*win+\n", DUMP + "* White wins.\n")
    assert report.ok, report.explain()


@pytest.mark.parametrize(
    ("mode", "directives", "problem"),
    [
        ("traceback", "", "traceback"),
        ("status", "", "exit status 3"),
        ("chatty", "", "more than 3000 lines"),
        ("move", "#*win+\n", "expected a result"),
        ("ok", "#*move\n", "expected a move"),
        ("ok", "#*frobnicate\n", "unknown directive"),
        ("silent", "#*time 0.5 1\n#*move/win\n", "limit"),
        ("ok", "#*remote move/win\n", "one program"),
    ],
)
def test_the_harness_fails_what_the_course_failed(
    tmp_path: Path, mode: str, directives: str, problem: str
) -> None:
    """LOA-93: tracebacks, bad status, too much output, wrong messages, bad directives, timeouts."""
    report = _fake_test(tmp_path, mode, directives, DUMP + "* White wins.\n")
    assert not report.ok
    assert problem in "\n".join(report.failures), report.explain()


def test_a_program_that_does_not_exit_fails(tmp_path: Path) -> None:
    """LOA-91: after its input is closed the program must exit by itself within 5 s."""
    report = _fake_test(tmp_path, "stubborn", "", "")
    assert not report.ok
    assert "did not exit" in report.failures[0]


def test_a_different_output_fails(tmp_path: Path) -> None:
    """LOA-94: the filtered output must equal the filtered .std file."""
    report = _fake_test(tmp_path, "ok", "#*win+\n", DUMP.replace("black", "white") + "* White wins.\n")
    assert not report.ok
    assert "differs" in report.failures[0]

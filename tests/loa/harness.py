"""A runner for the CS61B Lines of Action test scripts, with the staff harness's semantics.

``specs/loa.md`` LOA-90 to LOA-96 (and ``conformance/README.md``) describe the course's harness;
this module follows them: script parsing and directives, the output filter, the failures, the
comparison and the replacement of the command line. Time limits are the harness's protocol
limits (a program that stops answering fails), not assertions on speed.

Run it by hand with ``python tests/loa/harness.py tests/loa/conformance/*-1.in``.
"""

from __future__ import annotations

import difflib
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

DIRECTIVE: Final = re.compile(r"^\s*#\*\s*(.*?)\s*$")  # LOA-91
PROMPT: Final = re.compile(r"^.*> *")  # LOA-92 step 1
MESSAGE: Final = re.compile(r"^\s*\*")
MOVE: Final = re.compile(r"\s*\*\s*([a-hA-H][1-8]-[a-hA-H][1-8])")
RESULT: Final = re.compile(r"\s*\*\s*((?:Black|White)\s+wins\.|Tie game\.)\s*$")
TRACEBACK: Final = "Traceback (most recent call last)"  # LOA-93 (Java: "Exception in thread")

MESSAGE_LIMIT: Final = 10.0  # LOA-95: seconds for one wait for a message
DIRECTIVE_LIMIT: Final = 60.0  # LOA-95: seconds for all the waits of one directive
WIN_LIMIT: Final = 5.0  # LOA-91: #*win+ waits at most this long
EXIT_LIMIT: Final = 5.0  # LOA-91: after its input is closed, the program must exit within this
MAX_LINES: Final = 3000  # LOA-93: on standard output or on standard error
MAX_WAITING: Final = 100  # LOA-92: messages waiting for a directive

# LOA-96: the programs a script may name, replaced by parlour's program.
PROGRAM_NAMES: Final = (("java", "-ea", "loa.Main"), ("java", "loa.Main"), ("staff-loa",))
PARLOUR_LOA: Final = (sys.executable, "-m", "parlour.cli", "loa", "--time=0.4")


class HarnessFailure(Exception):
    """The test fails (LOA-93): a timeout, a wrong message, a bad script, a misbehaving program."""


@dataclass
class Script:
    """A parsed ``.in`` file: the command line, then lines to send and directives, in order."""

    path: Path
    command: list[str]
    steps: list[tuple[bool, str]]  # (is a directive, the directive's text or the raw line)

    @property
    def directives(self) -> list[str]:
        return [text for is_directive, text in self.steps if is_directive]


def parse_script(path: Path) -> Script:
    """LOA-91: blank or ``#`` lines until the command line, then lines and directives."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for index, line in enumerate(lines):
        match = DIRECTIVE.match(line.rstrip("\r\n"))
        if match:
            steps = []
            for later in lines[index + 1 :]:
                directive = DIRECTIVE.match(later.rstrip("\r\n"))
                steps.append((True, " ".join(directive[1].split())) if directive else (False, later))
            return Script(path, match[1].split(), steps)
        if line.strip() and not line.lstrip().startswith("#"):
            raise HarnessFailure(f"{path.name}: a line before the command line: {line.rstrip()!r}")
    raise HarnessFailure(f"{path.name}: no command line (#* ...)")


def program_command(words: Sequence[str], launcher: Sequence[str] = PARLOUR_LOA) -> list[str]:
    """LOA-96: the script's program becomes ``launcher``; the options after it are kept."""
    for name in PROGRAM_NAMES:
        if tuple(words[: len(name)]) == name:
            return [*launcher, *words[len(name) :]]
    raise HarnessFailure(f"unknown program on the command line: {' '.join(words)!r}")


def filter_expected(text: str) -> list[str]:
    """LOA-94: drop ``#`` to the end of a line and trailing blanks, then empty lines.

    Comparing lists of lines also ignores a missing final newline (``illegals-1.std``)."""
    lines = (line.split("#", 1)[0].rstrip(" \t") for line in text.split("\n"))
    return [line for line in lines if line]


def clean_message(text: str) -> str:
    """LOA-92: runs of spaces collapsed, right-trimmed, as a written message."""
    return re.sub(r" +", " ", text).rstrip()


class Program:
    """One running program: its pipes, the threads reading them and its filtered output.

    The stdout thread applies the filter of LOA-92 and queues, in stream order, the lines to
    write and the messages; the directives take them from the queue, so the output file keeps
    the order in which the program printed (a result written by ``+`` sits where it came).
    """

    def __init__(self, name: str, argv: list[str], cwd: Path | None = None) -> None:
        self.name = name
        self.argv = argv
        self.output: list[str] = []
        self.stderr_lines: list[str] = []
        self.problems: list[str] = []  # found by the reader threads
        self.events: queue.Queue[tuple[str, str]] = queue.Queue()
        self.waiting = 0  # messages queued and not yet taken
        self.lock = threading.Lock()
        self.in_dump = False
        try:
            self.process = subprocess.Popen(
                argv,
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except OSError as error:
            raise HarnessFailure(f"{name}: cannot start {argv}: {error}") from None
        self.readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    # --- the reader threads -----------------------------------------------------------------

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        for count, raw in enumerate(iter(self.process.stdout.readline, b""), 1):
            if count > MAX_LINES:
                self._fail(f"more than {MAX_LINES} lines on standard output")
                break
            self._filter(raw.decode("utf-8", "replace").rstrip("\n").rstrip("\r"))
        self.events.put(("eof", ""))

    def _filter(self, line: str) -> None:
        """LOA-92, steps 1 to 5."""
        line = PROMPT.sub("", line, count=1)
        if self.in_dump:
            self.events.put(("write", line))
            self.in_dump = not line.startswith("===")
        elif MESSAGE.match(line):
            with self.lock:
                self.waiting += 1
                too_many = self.waiting > MAX_WAITING
            if too_many:
                self._fail(f"more than {MAX_WAITING} messages waiting for a directive")
            self.events.put(("message", line))
        elif line.startswith("==="):
            self.events.put(("write", line))
            self.in_dump = True

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for raw in iter(self.process.stderr.readline, b""):
            line = raw.decode("utf-8", "replace")
            self.stderr_lines.append(line)
            if TRACEBACK in line:
                with self.lock:
                    self.problems.append("a Python traceback on standard error")
            if len(self.stderr_lines) > MAX_LINES:
                self._fail(f"more than {MAX_LINES} lines on standard error")
                break

    def _fail(self, problem: str) -> None:
        with self.lock:
            self.problems.append(problem)
        self.kill()

    # --- what the directives use --------------------------------------------------------------

    def send(self, text: str) -> None:
        """One script line (or a relayed move) to the program's standard input."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(text.encode("utf-8"))
            self.process.stdin.flush()
        except (OSError, ValueError):
            pass  # the program has ended (e.g. after quit): its exit status tells

    def next_message(self, limit: float, deadline: float | None = None) -> str:
        """The program's next message, writing the dump lines before it to the output.

        ``limit`` bounds this wait, ``deadline`` (a ``time.monotonic()`` value) the directive.
        """
        started = time.monotonic()
        end = started + limit
        if deadline is not None:
            end = min(end, deadline)
        while True:
            self.check()
            remaining = end - time.monotonic()
            if remaining <= 0:
                which = "per-directive" if deadline is not None and end == deadline else "per-message"
                raise HarnessFailure(
                    f"{self.name}: no message within the {which} limit "
                    f"(waited {time.monotonic() - started:.1f} s)"
                )
            try:
                kind, text = self.events.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                continue
            if kind == "write":
                self.output.append(text)
            elif kind == "message":
                with self.lock:
                    self.waiting -= 1
                return text
            else:
                self.events.put((kind, text))  # keep the end of output visible to later waits
                self.check()
                with suppress(subprocess.TimeoutExpired):
                    self.process.wait(1)
                raise HarnessFailure(
                    f"{self.name}: the output ended while a message was awaited "
                    f"(exit status {self.process.returncode})"
                )

    def check(self) -> None:
        with self.lock:
            if self.problems:
                raise HarnessFailure(f"{self.name}: {self.problems[0]}")

    def finish(self) -> None:
        """Closes the input; the program must exit by itself with status 0 (LOA-91, LOA-93)."""
        if self.process.stdin is not None:
            with suppress(OSError):
                self.process.stdin.close()
        try:
            status = self.process.wait(EXIT_LIMIT)
        except subprocess.TimeoutExpired:
            self.kill()
            raise HarnessFailure(
                f"{self.name}: did not exit within {EXIT_LIMIT:.0f} s of its input closing"
            ) from None
        for reader in self.readers:
            reader.join(EXIT_LIMIT)
        self.drain()
        self.check()
        if status != 0:
            raise HarnessFailure(f"{self.name}: exit status {status}")

    def drain(self) -> None:
        """Writes the rest of the output; messages nobody took are dropped (LOA-92)."""
        while True:
            try:
                kind, text = self.events.get_nowait()
            except queue.Empty:
                return
            if kind == "write":
                self.output.append(text)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()

    def close(self) -> None:
        """Releases everything, whatever happened."""
        self.kill()
        self.process.wait()
        for reader in self.readers:
            reader.join(1)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                with suppress(OSError):
                    stream.close()


def classify(message: str) -> tuple[str, str]:
    """("move", MOVE) or ("result", the cleaned line); anything else fails (LOA-92)."""
    move = MOVE.match(message)
    if move:
        return "move", move[1]
    if RESULT.match(message):
        return "result", clean_message(message)
    raise HarnessFailure(f"malformed move or win message: {message!r}")


class Runner:
    """Runs the scripts of one test against their programs (one, or two for ``remote`` games)."""

    def __init__(self, scripts: list[Script], programs: list[Program]) -> None:
        self.scripts = scripts
        self.programs = programs
        self.message_limit = MESSAGE_LIMIT
        self.directive_limit = DIRECTIVE_LIMIT
        self.position = [0] * len(scripts)  # the next step of each script
        self.remote_seen = [0] * len(scripts)  # remote directives met by each script
        self.games_played = 0

    def run(self) -> None:
        if len(self.scripts) == 2:
            # The second program's opening lines (its seed) go in before the first program's
            # moves reach it; its own #*remote then joins the game the first script plays.
            self.advance(1, until_directive=True)
        for index in range(len(self.scripts)):
            self.advance(index)

    def advance(self, index: int, until_directive: bool = False) -> None:
        script, program = self.scripts[index], self.programs[index]
        while self.position[index] < len(script.steps):
            is_directive, text = script.steps[self.position[index]]
            if is_directive and until_directive:
                return
            self.position[index] += 1
            if is_directive:
                self.directive(index, text)
            else:
                program.send(text)

    def other(self, index: int) -> Program | None:
        return self.programs[1 - index] if len(self.programs) == 2 else None

    def directive(self, index: int, text: str) -> None:
        """LOA-91's directives."""
        program = self.programs[index]
        deadline = time.monotonic() + self.directive_limit
        words = text.split()
        if text == "move":
            kind, move = classify(program.next_message(self.message_limit, deadline))
            if kind != "move":
                raise HarnessFailure(f"{program.name}: expected a move, got {move!r}")
            other = self.other(index)
            if other is not None:
                other.send(move + "\n")
        elif text in ("move/win", "move/win+"):
            while True:
                kind, result = classify(program.next_message(self.message_limit, deadline))
                if kind == "result":
                    if text.endswith("+"):
                        program.output.append(result)
                    return
        elif text == "win+":
            kind, result = classify(program.next_message(min(WIN_LIMIT, self.message_limit)))
            if kind != "result":
                raise HarnessFailure(f"{program.name}: expected a result, got the move {result!r}")
            program.output.append(result)
        elif text in ("remote move/win", "remote move/win+"):
            self.remote(index, deadline)
        elif words[:1] == ["time"] and len(words) == 3:
            try:
                self.message_limit, self.directive_limit = float(words[1]), float(words[2])
            except ValueError:
                raise HarnessFailure(f"bad directive: #*{text}") from None
        else:
            raise HarnessFailure(f"unknown directive: #*{text}")

    def remote(self, index: int, deadline: float) -> None:
        """A game between the two programs, relaying moves until both report a result.

        The k-th remote directive of either script is the k-th game: the script that reaches it
        first plays it, the other's directive then has nothing left to do.
        """
        game = self.remote_seen[index]
        self.remote_seen[index] += 1
        if game < self.games_played:
            return
        other = self.other(index)
        if other is None:
            raise HarnessFailure("#*remote in a test with one program")
        this = self.programs[index]
        results: dict[str, str] = {}
        while len(results) < 2:
            for speaker, listener in ((other, this), (this, other)):
                if speaker.name in results:
                    continue
                kind, text = classify(speaker.next_message(self.message_limit, deadline))
                if kind == "move":
                    listener.send(text + "\n")
                else:
                    results[speaker.name] = text
        self.games_played += 1
        if len(set(results.values())) != 1:
            raise HarnessFailure(f"the programs disagree on the result: {results}")


@dataclass
class Report:
    """What one test did: its failures (empty when it passed) and the outputs compared."""

    name: str
    failures: list[str] = field(default_factory=list)
    outputs: list[list[str]] = field(default_factory=list)
    expected: list[list[str]] = field(default_factory=list)
    stderr: list[list[str]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures

    def explain(self) -> str:
        lines = [f"{self.name}: {'passed' if self.ok else 'FAILED'} in {self.seconds:.1f} s"]
        lines += [f"  {failure}" for failure in self.failures]
        for number, errors in enumerate(self.stderr, 1):
            if errors:
                lines.append(f"  standard error of program {number} (last lines):")
                lines += [f"    {line.rstrip()}" for line in errors[-15:]]
        return "\n".join(lines)


def run_test(
    path: Path,
    launcher: Sequence[str] = PARLOUR_LOA,
    cwd: Path | None = None,
) -> Report:
    """Runs ``NAME-1.in`` (with ``NAME-2.in`` if there is one) and compares with the ``.std`` files."""
    started = time.monotonic()
    report = Report(path.name.removesuffix("-1.in"))
    paths = [path]
    second = path.with_name(path.name.removesuffix("-1.in") + "-2.in")
    if path.name.endswith("-1.in") and second.exists():
        paths.append(second)
    programs: list[Program] = []
    try:
        scripts = [parse_script(p) for p in paths]
        for number, script in enumerate(scripts, 1):
            programs.append(Program(f"program {number}", program_command(script.command, launcher), cwd))
        Runner(scripts, programs).run()
        for program in programs:
            program.finish()
    except HarnessFailure as failure:
        report.failures.append(str(failure))
    finally:
        for program in programs:
            program.close()
    report.outputs = [program.output for program in programs]
    report.stderr = [program.stderr_lines for program in programs]
    if report.ok:
        for script_path, output in zip(paths, report.outputs, strict=True):
            expected_path = script_path.with_suffix(".std")
            expected = filter_expected(expected_path.read_text(encoding="utf-8"))
            report.expected.append(expected)
            got = filter_expected("\n".join(output))
            if got != expected:
                diff = difflib.unified_diff(expected, got, expected_path.name, "output", lineterm="")
                report.failures.append(f"output differs from {expected_path.name}:\n" + "\n".join(diff))
    report.seconds = time.monotonic() - started
    return report


def main(argv: list[str]) -> int:
    """Runs the given ``*-1.in`` scripts and prints a line (and the failures) for each."""
    failed = 0
    for name in argv:
        report = run_test(Path(name))
        print(report.explain(), flush=True)
        failed += not report.ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The layers of DESIGN.md ("Layers"), kept honest by reading every module's imports (AST).

Two rules: a layer never imports one above it, and nothing outside ``parlour/games/`` names a
game (by importing its package, or by a game's name as a dict key, in a comparison or as a
subscript): what a game declares decides what applies to it, never a table of names.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from parlour.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "parlour"

# What each layer may import, as in DESIGN.md's table ("package" is parlour/__init__.py).
MAY_IMPORT: dict[str, frozenset[str]] = {
    "engine": frozenset({"engine"}),
    "games": frozenset({"engine", "games"}),
    "bots": frozenset({"engine", "games", "bots"}),
    "tui": frozenset({"engine", "games", "bots", "tui"}),
    "server": frozenset({"engine", "games", "bots", "server"}),
    "bench": frozenset({"engine", "games", "bots", "tui", "server", "bench"}),
    "cli": frozenset({"engine", "games", "bots", "tui", "server", "bench", "cli", "web"}),
    "web": frozenset(),  # static files: its __init__ only marks the package data
    "package": frozenset(),
}

# The programs named after their games may name them: `parlour loa` (the CS61B text program),
# `parlour mille` (the BSD screen) and the two sub-commands in cli.py that start them.
GAME_PROGRAMS: tuple[tuple[str, str], ...] = (
    ("parlour/tui/loa_program.py", "loa"),
    ("parlour/tui/mille/", "mille"),
    ("parlour/cli.py", "loa"),
    ("parlour/cli.py", "mille"),
)

REGISTRY = "parlour/games/__init__.py"


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    what: str
    game: str = ""
    """The game named, for a finding that names one."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def game_names() -> frozenset[str]:
    """Every registered game's name, and every game package's (they may differ)."""
    packages = {path.parent.name for path in (PACKAGE / "games").glob("*/__init__.py")}
    return frozenset(GAMES) | packages


def module_name(path: str) -> str:
    """``parlour/bots/greedy.py`` → ``parlour.bots.greedy``; a package's ``__init__`` is the package."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str:
    """The layer of a dotted module name under ``parlour``."""
    parts = module.split(".")
    if len(parts) == 1:
        return "package"
    return parts[1]


def imported_modules(tree: ast.AST, path: str) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of every parlour module ``tree`` imports, lazy imports included.

    ``from X import Y`` yields ``X.Y``: Y may be a module (``from parlour.games import loa``)."""
    package = module_name(path).split(".")
    if not path.endswith("__init__.py"):
        package.pop()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def upward_imports(tree: ast.AST, path: str) -> Iterator[Finding]:
    """Imports of a layer that ``path``'s layer may not use, and a game package's imports of
    another game."""
    own = module_name(path)
    layer = layer_of(own)
    for line, target in imported_modules(tree, path):
        if target.split(".")[0] != "parlour":
            continue
        used = layer_of(target)
        if used not in MAY_IMPORT[layer]:
            yield Finding(path, line, f"{layer} imports {target} ({used} is not below it)")
        elif used == "games" and layer == "games" and path != REGISTRY and not _same_game(own, target):
            yield Finding(path, line, f"a game package imports {target} (only the engine and itself)")


def _same_game(module: str, target: str) -> bool:
    return target.split(".")[:3] == module.split(".")[:3]


def names_of_games(tree: ast.AST, path: str, games: frozenset[str]) -> Iterator[Finding]:
    """Where a module names a game: imports its package, or uses its name as a dict key, in a
    comparison, as a subscript or a ``case``."""
    for line, target in imported_modules(tree, path):
        parts = target.split(".")
        if parts[:2] == ["parlour", "games"] and len(parts) > 2 and parts[2] in games:
            yield Finding(path, line, f"imports the game package {'.'.join(parts[:3])}", parts[2])
    for node in ast.walk(tree):
        for constant, how in _game_words(node):
            if constant.value in games:
                word = constant.value
                yield Finding(path, constant.lineno, f"names the game {word!r} ({how})", word)


def _game_words(node: ast.AST) -> Iterator[tuple[ast.Constant, str]]:
    """The string constants that ``node`` uses as a key, a compared value or a subscript."""
    if isinstance(node, ast.Dict):
        for key in node.keys:
            yield from ((word, "dict key") for word in _texts_in(key))
    elif isinstance(node, ast.Compare):
        for operand in (node.left, *node.comparators):
            yield from ((word, "comparison") for word in _texts_in(operand))
    elif isinstance(node, ast.Subscript):
        yield from ((word, "subscript") for word in _texts_in(node.slice))
    elif isinstance(node, ast.MatchValue):
        yield from ((word, "case") for word in _texts_in(node.value))


def _texts_in(node: ast.expr | None) -> list[ast.Constant]:
    """A string constant, or the string constants of a literal tuple, list or set."""
    elements = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [e for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def allowed(finding: Finding) -> bool:
    return any(finding.path.startswith(prefix) and finding.game == game for prefix, game in GAME_PROGRAMS)


@cache
def modules() -> tuple[tuple[str, ast.AST], ...]:
    """Every module of the package, parsed once for both checks."""
    parsed = []
    for file in sorted(PACKAGE.rglob("*.py")):
        path = file.relative_to(ROOT).as_posix()
        parsed.append((path, ast.parse(file.read_text(encoding="utf-8"), filename=path)))
    return tuple(parsed)


def layer_findings() -> list[Finding]:
    found = (finding for path, tree in modules() for finding in upward_imports(tree, path))
    return list(dict.fromkeys(found))  # one line of ``from X import a, b`` is one finding


def game_findings() -> list[Finding]:
    games = game_names()
    found: list[Finding] = []
    for path, tree in modules():
        if path.startswith("parlour/games/"):
            continue  # the games themselves and the registry
        found += [finding for finding in names_of_games(tree, path, games) if not allowed(finding)]
    return list(dict.fromkeys(found))


def test_no_layer_imports_one_above_it() -> None:
    found = layer_findings()
    assert not found, "imports against the layers of DESIGN.md:\n" + "\n".join(map(str, found))


def test_no_module_outside_the_games_names_a_game() -> None:
    found = game_findings()
    assert not found, "a game named outside parlour/games/:\n" + "\n".join(map(str, found))


# --- the reader itself: each kind of finding on a small made-up module ------------------------


def scan(source: str, path: str) -> list[str]:
    tree = ast.parse(source)
    found = list(upward_imports(tree, path))
    if not path.startswith("parlour/games/"):
        found += names_of_games(tree, path, frozenset({"loa", "mille"}))
    return [finding.what for finding in found]


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        ("parlour/engine/x.py", "from parlour.games import GAMES", "engine imports parlour.games.GAMES"),
        ("parlour/bots/x.py", "def f():\n    import parlour.server.app", "bots imports parlour.server.app"),
        ("parlour/tui/x.py", "from ..server import lobby", "tui imports parlour.server.lobby"),
        ("parlour/games/loa/x.py", "from parlour.bots import make_bot", "games imports parlour.bots"),
        ("parlour/games/loa/x.py", "from parlour.games.mille import cards", "a game package imports"),
        ("parlour/bots/x.py", "from parlour.games.loa.rules import LoaState", "package parlour.games.loa"),
        ("parlour/bots/x.py", "KINDS = {'loa': 1}", "'loa' (dict key)"),
        ("parlour/bench.py", "if name == 'mille':\n    pass", "'mille' (comparison)"),
        ("parlour/bench.py", "ok = name in ('x', 'loa')", "'loa' (comparison)"),
        ("parlour/server/x.py", "depth = DEPTHS['loa']", "'loa' (subscript)"),
        ("parlour/tui/x.py", "match name:\n    case 'mille':\n        pass", "'mille' (case)"),
    ],
)
def test_the_reader_finds_each_kind(path: str, source: str, expected: str) -> None:
    assert any(expected in what for what in scan(source, path)), scan(source, path)


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("parlour/games/loa/rules.py", "from parlour.engine import State\nfrom .notation import parse"),
        ("parlour/bots/x.py", "from parlour.games import get_game\ngame = get_game(name)"),
        ("parlour/cli.py", "from parlour.bench import main"),
        ("parlour/server/x.py", "print('loa')\nlabel = {'title': 'mille'}"),
    ],
)
def test_the_reader_passes_what_the_layers_allow(path: str, source: str) -> None:
    assert scan(source, path) == []


def test_the_game_programs_are_allowed_only_their_own_game() -> None:
    assert allowed(Finding("parlour/tui/loa_program.py", 1, "imports parlour.games.loa", "loa"))
    assert not allowed(Finding("parlour/tui/loa_program.py", 1, "imports parlour.games.mille", "mille"))
    assert allowed(Finding("parlour/tui/mille/app.py", 1, "imports parlour.games.mille", "mille"))
    assert not allowed(Finding("parlour/tui/play.py", 1, "names the game 'loa' (comparison)", "loa"))

"""Which bots a game gets follows from what it declares and what its package provides (issue 12,
"Declared capabilities"): no table of game names decides it."""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import sys
import textwrap
from pathlib import Path

import pytest

import parlour.games
from parlour import bench
from parlour.bots import bot_kinds, make_bot, provided
from parlour.bots.alphabeta import AlphaBetaBot
from parlour.bots.by_players import ByPlayers
from parlour.bots.determinised import DeterminisedBot
from parlour.bots.expectimax import ExpectimaxBot, RollBot
from parlour.bots.greedy import GreedyBot
from parlour.bots.paranoid import ParanoidBot
from parlour.bots.random_bot import RandomBot
from parlour.engine import Benchmark, ParlourError, game_part
from parlour.games import get_game
from parlour.games.biloba.classic import ClassicBilobaBot
from parlour.games.mille.classic import ClassicMilleBot

_packages = itertools.count()


@pytest.mark.parametrize(
    ("game", "kinds"),
    [
        ("loa", ["random", "greedy", "strong"]),
        ("biloba", ["random", "greedy", "strong", "classic"]),
        ("mille", ["random", "greedy", "strong", "classic"]),
        ("conflict", ["random", "greedy", "strong"]),
    ],
)
def test_kinds_follow_from_the_package(game: str, kinds: list[str]) -> None:
    # Every package has an evaluator.py; Biloba and Mille also a classic.py.
    assert bot_kinds(game) == kinds
    assert game_part(get_game(game), "evaluator") is not None
    assert (game_part(get_game(game), "classic") is not None) == ("classic" in kinds)


def test_strong_search_follows_from_the_declarations() -> None:
    # Perfect information, no chance, two players: alpha-beta.
    assert type(make_bot("loa", "strong")) is AlphaBetaBot
    # Two to four players: alpha-beta for two, paranoid for three and four.
    biloba = make_bot("biloba", "strong")
    assert isinstance(biloba, ByPlayers)
    assert {players: type(bot) for players, bot in biloba.bots.items()} == {
        2: AlphaBetaBot, 3: ParanoidBot, 4: ParanoidBot}
    # Hidden information (and chance): determinised playouts, before chance decides.
    assert get_game("mille").info.hidden_information
    assert get_game("mille").info.chance
    assert type(make_bot("mille", "strong")) is DeterminisedBot
    # Chance without hidden information, two to four players: expectimax whatever the count.
    assert type(make_bot("conflict", "strong")) is ExpectimaxBot


def test_greedy_judges_whole_turns_where_the_evaluator_says_so() -> None:
    # CON-28: during a roll the mover makes several decisions; the evaluator declares it.
    conflict, loa = provided("conflict").evaluator, provided("loa").evaluator
    assert conflict is not None
    assert loa is not None
    assert conflict().turn_of_decisions
    assert not loa().turn_of_decisions
    assert type(make_bot("conflict", "greedy")) is RollBot
    assert type(make_bot("loa", "greedy")) is GreedyBot


def test_classic_comes_from_the_package() -> None:
    assert type(make_bot("biloba", "classic", seed=3)) is ClassicBilobaBot
    assert type(make_bot("mille", "classic", seed=3)) is ClassicMilleBot


def _package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parts: dict[str, str]) -> str:
    """A game package made for the test: Nim (from ``test_alphabeta_generic``) under a name of
    its own, registered, with the given extra modules; returns the game's name."""
    name = f"nim_package_{next(_packages)}"
    root = tmp_path / name
    root.mkdir()
    (root / "__init__.py").write_text(textwrap.dedent(f"""
        import dataclasses

        from test_alphabeta_generic import Nim


        class PackagedNim(Nim):
            info = dataclasses.replace(Nim.info, name={name!r})
    """))
    for part, text in parts.items():
        (root / f"{part}.py").write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    game = importlib.import_module(name).PackagedNim()
    monkeypatch.setitem(parlour.games.GAMES, name, game)
    return name


def test_a_package_without_parts_has_only_the_random_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = _package(tmp_path, monkeypatch, {})
    assert bot_kinds(name) == ["random"]
    assert type(make_bot(name, "random")) is RandomBot
    assert bench.benchmark_of(get_game(name)) == Benchmark()


def test_a_game_defined_outside_any_package_has_no_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    from test_alphabeta_generic import Nim

    game = Nim()
    monkeypatch.setitem(parlour.games.GAMES, game.info.name, game)
    assert game_part(game, "evaluator") is None
    assert bot_kinds(game.info.name) == ["random"]


def test_an_evaluator_and_a_classic_player_found_by_convention(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = _package(tmp_path, monkeypatch, {
        "evaluator": """
            from parlour.engine import NullEvaluator

            EVALUATOR = NullEvaluator
        """,
        "classic": """
            from parlour.bots.random_bot import RandomBot

            CLASSIC = RandomBot
        """,
        "bench": """
            from parlour.engine import Benchmark

            BENCHMARK = Benchmark(perft_depth=6, reference_perft=(3, 9))
        """,
    })
    assert bot_kinds(name) == ["random", "greedy", "strong", "classic"]
    assert type(make_bot(name, "strong")) is AlphaBetaBot  # Nim: two players, no chance
    assert type(make_bot(name, "greedy")) is GreedyBot
    classic = make_bot(name, "classic", seed=5)
    assert type(classic) is RandomBot
    assert classic.name == "classic"
    assert bench.read_plan([name]).depth == 6


def test_a_part_that_breaks_the_convention_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = _package(tmp_path, monkeypatch, {"evaluator": "NIM_EVALUATOR = None\n"})
    with pytest.raises(ParlourError, match=rf"{name}\.evaluator defines no callable EVALUATOR"):
        bot_kinds(name)


def test_hidden_information_needs_playouts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = _package(tmp_path, monkeypatch, {"evaluator": """
        from parlour.engine import NullEvaluator

        EVALUATOR = NullEvaluator
    """})
    hidden = get_game(name)
    monkeypatch.setattr(type(hidden), "info", dataclasses.replace(hidden.info, hidden_information=True))
    with pytest.raises(ParlourError, match="cannot play out sampled deals"):
        make_bot(name, "strong")
    assert sys.modules[f"{name}.evaluator"] is game_part(hidden, "evaluator")

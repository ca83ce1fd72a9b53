"""A match as people read it from its stored row alone, without replaying it: the seats' names,
the lobby's summary, the seats as clients see them, and the result in one line."""

from __future__ import annotations

import contextlib
import functools
import json
from typing import Any

from parlour.bots.levels import LevelsError, level_of
from parlour.engine import JSONDict
from parlour.games import get_game
from parlour.server.boards import shown_options
from parlour.server.storage import MatchRow, Progress, SeatRecord


@functools.lru_cache(maxsize=256)
def _seat_names(game: str, players: int, options: str) -> tuple[str, ...]:
    return tuple(get_game(game).new(players, json.loads(options)).seat_names())


def seat_names_of(row: MatchRow) -> tuple[str, ...]:
    """The seats' display names of a stored match, without replaying it (cached per set-up)."""
    if row.start is not None:  # a given position may decide the seats: build it (rare)
        return tuple(get_game(row.game).new(row.players, row.options, 0, row.start).seat_names())
    return _seat_names(row.game, row.players, json.dumps(row.options, sort_keys=True))


def summary_json(
    row: MatchRow, progress: Progress, seat_names: tuple[str, ...], present: list[int] | None = None,
    watching: int = 0,
) -> dict[str, Any]:
    """A match as the lobby lists it, from its row and progress: the same for a match in memory
    and one read from the store (``present``: connections per seat; ``None``: nobody connected;
    ``watching``: spectators' connections). ``updated``: the time of its last change (a file from
    before progress was kept may say 0: its creation then)."""
    info = get_game(row.game).info
    return {
        "id": row.id,
        "game": info.name,
        "title": info.title,
        "players": row.players,
        "options": shown_options(row.game, row.options),
        "status": progress.status,
        "version": progress.version,
        "to_move": progress.to_move,
        "outcome": progress.outcome,
        "result": result_words(progress.outcome, seat_names, row.seats),
        "created": row.created,
        "updated": progress.updated or row.created,
        "watching": watching,
        "url": f"/match/{row.id}",
        "ws": f"/ws/matches/{row.id}",
        "seats": seats_json(row.seats, seat_names, present, levels=bot_levels(row)),
        "clock": row.clock,
    }


def bot_levels(row: MatchRow) -> list[str | None]:
    """Per seat, the level its bot plays at (its kind at the match's bot time is one of the game's
    levels: "club"), or ``None`` (a person, an open seat, a bot at no level, or a levels file that
    cannot be read: the page then names the kind, as before levels)."""
    levels: list[str | None] = []
    for seat in row.seats:
        found = None
        if seat.kind == "bot" and seat.bot is not None:
            with contextlib.suppress(LevelsError):
                found = level_of(row.game, row.players, seat.bot, row.bot_seconds)
        levels.append(found.name if found is not None else None)
    return levels


def result_words(
    outcome: JSONDict | None, seat_names: tuple[str, ...], seats: list[SeatRecord]
) -> str | None:
    """The result in one line for people: who won (with the player's name or bot kind), why, in
    the game's words, and the scores where the game keeps them ("White (Ann) wins: the other
    side resigned", "Draw: agreed at the table", "… · Player 1 5575, Player 2 3250")."""
    if outcome is None:
        return None
    winner = outcome.get("winner")
    head = "Draw" if winner is None else f"{seat_label(winner, seat_names, seats)} wins"
    line = f"{head}: {outcome.get('words') or outcome.get('reason')}"
    scores = outcome.get("scores") or []
    if scores:
        line += " · " + ", ".join(f"{seat_label(seat, seat_names, seats)} {score_text(score)}"
                                  for seat, score in enumerate(scores))
    return line


def seat_label(seat: int, seat_names: tuple[str, ...], seats: list[SeatRecord]) -> str:
    """A seat as people call it: its name, with who plays it ("White (Ann)", "Red (bot:strong)")."""
    record = seats[seat]
    player = record.name if record.kind == "person" else f"bot:{record.bot}" if record.kind == "bot" else None
    return f"{seat_names[seat]} ({player})" if player else seat_names[seat]


def score_text(score: float) -> str:
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


def seats_json(
    seats: list[SeatRecord], seat_names: tuple[str, ...], present: list[int] | None,
    away: list[float | None] | None = None, levels: list[str | None] | None = None,
) -> list[dict[str, Any]]:
    """The seats as clients see them; ``away`` (a live match's, not the lobby's): per seat, since
    when no connection holds it; ``levels`` (``bot_levels``): the level each bot plays at."""
    shown: list[dict[str, Any]] = [
        {
            "seat": index,
            "name": seat_names[index],
            "kind": seat.kind,
            "player": seat.name,
            "bot": seat.bot,
            "level": levels[index] if levels is not None else None,
            "connected": seat.kind == "bot" or (present is not None and present[index] > 0),
        }
        for index, seat in enumerate(seats)
    ]
    if away is not None:
        for seat, since in zip(shown, away, strict=True):
            seat["away_since"] = since
    return shown

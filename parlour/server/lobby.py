"""The lobby: the games on offer, creating matches, and bringing every stored match back to life."""

from __future__ import annotations

import logging
import math
import secrets
from typing import Any, Final

from parlour.bots import DEFAULT_BOT, KINDS, bot_kinds
from parlour.engine import Game, ParlourError, State
from parlour.games import GAMES, get_game
from parlour.server import collector
from parlour.server.bots import BotPool
from parlour.server.limits import Limits
from parlour.server.match import Match
from parlour.server.messages import ProtocolError, json_kind, read_name
from parlour.server.pubsub import PubSub
from parlour.server.storage import MatchRow, SeatRecord, Store, StoreError

log = logging.getLogger("parlour.server")

DEFAULT_BOT_SECONDS: Final = 1.0
BOT_SECONDS_RANGE: Final = (0.01, 60.0)


def game_json(game: Game[State], help_page: str | None) -> dict[str, Any]:
    """A game's declaration for ``GET /api/games``: all from ``GameInfo`` and the bot registry,
    and the address of its rules page (``None`` when the game has none)."""
    info = game.info
    kinds = bot_kinds(info.name)
    return {
        "name": info.name,
        "title": info.title,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "default_players": info.default_players,
        "chance": info.chance,
        "hidden_information": info.hidden_information,
        "seat_names": [info.seat_name(seat) for seat in range(info.max_players)],
        "end_reasons": dict(info.end_reasons),
        "listed": info.listed,
        "options": [
            {"name": option.name, "default": option.default, "help": option.help,
             "choices": list(option.choices), "minimum": option.minimum}
            for option in info.options
        ],
        "bots": [{"kind": kind, "summary": KINDS[kind].summary} for kind in kinds],
        "default_bot": DEFAULT_BOT if DEFAULT_BOT in kinds else (kinds[-1] if kinds else None),
        "help": help_page,
    }


class Lobby:
    """Every match this server holds, by id."""

    def __init__(self, store: Store, pubsub: PubSub, bots: BotPool, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.pubsub = pubsub
        self.bots = bots
        self.matches: dict[str, Match] = {}

    async def load(self) -> None:
        """Replays every stored match and starts the unfinished ones (their bots included)."""
        for row in await self.store.load_all():
            try:
                match = Match(row, get_game(row.game), self.store, self.pubsub, self.bots)
            except Exception as error:  # one damaged or unknown match must not keep the server down
                log.error("match %s cannot be resumed: %s", row.id, error)
                continue
            self.matches[row.id] = match
            match.start()
        collector.loaded()

    async def close(self) -> None:
        for match in self.matches.values():
            await match.stop()

    async def get(self, match_id: str) -> Match:
        """The match ``match_id`` (async: a finished one may have to be read from the store)."""
        match = self.matches.get(match_id)
        if match is None:
            raise ProtocolError("no_match", f"there is no match {match_id[:40]!r}", 404)
        return match

    async def page(self, query: list[tuple[str, str]]) -> dict[str, Any]:
        """One page of ``GET /api/matches`` from its query parameters, in order, a name possibly
        repeated (``docs/protocol.md``)."""
        include_over = dict(query).get("all", "").lower() in ("1", "true", "yes")
        chosen = [m for m in self.matches.values() if include_over or m.status != "over"]
        chosen.sort(key=lambda match: (match.row.created, match.id), reverse=True)
        return {"matches": [match.summary() for match in chosen]}

    async def create(self, body: Any, address: str = "unknown") -> tuple[Match, int | None, str | None]:
        """A new match from a ``POST /api/matches`` body; with ``join``, the creator's seat and token."""
        if not isinstance(body, dict):
            raise ProtocolError("bad_request", f"the body must be a JSON object, not {json_kind(body)}")
        name = body.get("game")
        if not isinstance(name, str):
            raise ProtocolError("bad_request", 'say which game: {"game": "' + next(iter(GAMES)) + '", …}')
        if name not in GAMES:
            listed = ", ".join(sorted(known for known, game in GAMES.items() if game.info.listed))
            raise ProtocolError("unknown_game", f"no game {name[:40]!r} (games: {listed})", 404)
        game = get_game(name)
        players, options = body.get("players"), body.get("options", {})
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise ProtocolError("bad_request", f'"players" must be a whole number, not {json_kind(players)}')
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ProtocolError("bad_request", f'"options" must be an object, not {json_kind(options)}')
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(62)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ProtocolError("bad_request", '"seed" must be a whole number from 0 to 2**63 - 1')
        try:
            state = game.new(players, options, seed)
        except ParlourError as error:
            raise ProtocolError("bad_option", str(error)) from None
        seats = read_seats(game, state.players, body.get("seats"))
        bot_seconds = read_bot_seconds(body.get("bot_seconds", DEFAULT_BOT_SECONDS))
        join, join_name = body.get("join"), read_name(body.get("name"))
        if join is not None:
            if isinstance(join, bool) or not isinstance(join, int):
                raise ProtocolError("bad_request", f'"join" must be a seat number, not {json_kind(join)}')
            if not 0 <= join < state.players or seats[join].kind != "open":
                raise ProtocolError("bad_seat", f'"join": seat {join} is not an open seat of this match')
        row = MatchRow(
            id=self._new_id(), game=name, players=state.players, options=dict(state.options), seed=seed,
            seats=seats, bot_seconds=bot_seconds,
        )
        match = Match(row, game, self.store, self.pubsub, self.bots)
        try:
            await self.store.create(row)
        except StoreError as error:
            log.error("creating a match: %s", error)
            raise ProtocolError("internal", "the match could not be stored", 500) from None
        self.matches[row.id] = match
        seat = token = None
        if join is not None:
            seat, token = await match.claim(join, join_name)
        match.start()
        collector.settled()
        return match, seat, token

    def _new_id(self) -> str:
        while True:
            match_id = secrets.token_urlsafe(8)
            if match_id not in self.matches:
                return match_id


def read_seats(game: Game[State], players: int, given: Any) -> list[SeatRecord]:
    """``"open"`` or ``"bot:KIND"`` (``"bot"``: the default bot) per seat; all open when absent."""
    if given is None:
        return [SeatRecord("open") for _ in range(players)]
    if not isinstance(given, list) or len(given) != players:
        raise ProtocolError("bad_seat", f'"seats" must list {players} entries, one per seat')
    kinds = bot_kinds(game.info.name)
    seats = []
    for index, text in enumerate(given):
        if text == "open":
            seats.append(SeatRecord("open"))
            continue
        if not isinstance(text, str) or not (text == "bot" or text.startswith("bot:")):
            shown = str(text)[:40]
            raise ProtocolError("bad_seat", f'seat {index} must be "open" or "bot:KIND", not {shown!r}')
        kind = text.removeprefix("bot:") if text != "bot" else (DEFAULT_BOT if DEFAULT_BOT in kinds else "")
        if kind not in kinds:
            raise ProtocolError("bad_seat", f"seat {index}: no bot {kind[:40]!r} for {game.info.title} "
                                            f"(bots: {', '.join(kinds) or 'none'})")
        seats.append(SeatRecord("bot", bot=kind))
    return seats


def read_bot_seconds(value: Any) -> float:
    low, high = BOT_SECONDS_RANGE
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not low <= value <= high:
        raise ProtocolError("bad_request", f'"bot_seconds" must be a number from {low:g} to {high:g}')
    return float(value)

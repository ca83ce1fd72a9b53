"""The game server: an HTTP lobby and one WebSocket per client, over the engine contract.

``docs/protocol.md`` is the wire protocol. Modules: ``storage`` (the append-only event store),
``pubsub`` (fan-out of match events), ``match`` (one writer per match), ``bots`` (bot seats in
worker processes), ``lobby`` (creating, joining and resuming matches), ``messages`` (what goes on
the wire), ``app`` (Starlette routes), ``serve`` (the ``parlour serve`` command) and ``bench``
(``parlour bench server``).
"""

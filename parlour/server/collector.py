"""The garbage collector on a server: no full collection long enough to stall every match.

Nearly everything a server holds lives as long as the server or its match (states, events,
connections); the collector's full passes walk it all and stall the event loop. ``loaded`` and
``settled`` move what exists into the permanent generation (``gc.freeze``) so that passes only
walk what is new.
"""

from __future__ import annotations

import gc


def loaded() -> None:
    """Every stored match is back in memory: freeze what the start-up made."""
    gc.collect()
    gc.freeze()


def settled() -> None:
    """A match was created or finished (called by the lobby); what it made may be frozen."""

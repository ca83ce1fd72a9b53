"""The garbage collector on a server: no collection long enough to stall every match.

Nearly everything a server holds lives as long as the server or its match (states, events,
connections), or waits for the next message (each connection's pending futures and coroutines,
renewed about once a second per player). CPython's collections walk every tracked object of the
generations they collect, so on a busy server full collections stalled every match for 150-400 ms,
and with 1,000 matches the young ones still took 35-50 ms: each walked the 30,000-50,000 waiting
objects that had survived the last second. The policy here keeps every walk short: whatever
survives any collection is moved to the permanent generation (``gc.freeze``, a constant-time
splice), so a collection walks only what was made since the previous one. Frozen objects are
still freed by reference counting when dropped; what freezing gives up is finding *cycles* among
them (the full collections of a server with 400 busy matches freed some 50 objects a second). So
that they cannot pile up for ever, once the process's peak memory has doubled since they were
last examined, and not sooner than five minutes after that, the next ``settled`` call examines
them: one full collection over everything, a pause proportional to the heap (about 100 ms with
400 matches playing on a small machine). A server pays it as its heap doubles, then when its
uncollected garbage alone has doubled it (at the rate above, hours). The peak memory is the
measure because it costs a system call, where counting the frozen objects walks them all (16 ms a
million).
"""

from __future__ import annotations

import gc
import resource
import time
from dataclasses import dataclass
from typing import Any, Final

REGROWTH: Final = 2.0
"""Examine the frozen objects again once the peak memory is this many times what it was last time …"""
EXAMINE_SECONDS: Final = 300.0
"""… and this long after the last time (a server that fills up examines once, not at each doubling)."""


@dataclass
class _Policy:
    installed: bool = False
    examined_at: float = 0.0
    examined: int = 0
    """The process's peak resident memory (KiB) at the last full examination."""


_policy = _Policy()


def loaded() -> None:
    """Every stored match the server keeps in memory is loaded: collect, freeze, and from now on
    freeze the survivors of every collection as they come."""
    _examine()
    if not _policy.installed:
        gc.callbacks.append(_after_collection)
        _policy.installed = True


def settled() -> None:
    """A match was created or finished (the lobby calls this): the moment for the rare full
    examination of the frozen objects, when the peak memory has doubled since the last one."""
    if not _policy.installed or time.monotonic() - _policy.examined_at < EXAMINE_SECONDS:
        return
    if _peak_memory() > REGROWTH * _policy.examined:
        _examine()


def _examine() -> None:
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _policy.examined = _peak_memory()
    _policy.examined_at = time.monotonic()


def _peak_memory() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _after_collection(phase: str, info: dict[str, Any]) -> None:
    """After any collection the young garbage it found is gone: freezing the survivors now
    freezes no young garbage, and the next collection walks only what is made from here."""
    if phase == "stop":
        gc.freeze()

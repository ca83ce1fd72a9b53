"""The garbage collector on a server: no full collection long enough to stall every match.

Nearly everything a server holds lives as long as the server or its match (states, events,
connections). CPython's full collections walk every tracked object that is not frozen, so on a
busy server each one stalled every match for 150-400 ms. The policy here keeps the walked part
small: whatever has survived a young collection is moved to the permanent generation
(``gc.freeze``) at most once a second, so a full collection only walks the survivors of the last
second. Frozen objects are still freed by reference counting when dropped; what freezing gives up
is finding *cycles* among them (the full collections of a server with 400 busy matches freed
some 50 objects a second). So that they cannot pile up for ever, once the process's peak memory
has doubled since they were last examined, and not sooner than five minutes after that, the
next ``settled`` call examines them: one full collection over everything, a pause proportional
to the heap (about 100 ms with 400 matches playing on a small machine). A server pays it as its
heap doubles, then when its uncollected garbage alone has doubled it (at the rate above, hours).
The peak memory is the measure because it costs a system call, where counting the frozen objects
walks them all (16 ms a million).
"""

from __future__ import annotations

import gc
import resource
import time
from dataclasses import dataclass
from typing import Any, Final

FREEZE_SECONDS: Final = 1.0
"""Freeze at most this often: a full collection then walks at most about a second's survivors."""
REGROWTH: Final = 2.0
"""Examine the frozen objects again once the peak memory is this many times what it was last time …"""
EXAMINE_SECONDS: Final = 300.0
"""… and this long after the last time (a server that fills up examines once, not at each doubling)."""


@dataclass
class _Policy:
    installed: bool = False
    frozen_at: float = 0.0
    examined_at: float = 0.0
    examined: int = 0
    """The process's peak resident memory (KiB) at the last full examination."""


_policy = _Policy()


def loaded() -> None:
    """Every stored match the server keeps in memory is loaded: collect, freeze, and from now on
    freeze the survivors of young collections as they come."""
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
    _policy.frozen_at = _policy.examined_at = time.monotonic()


def _peak_memory() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _after_collection(phase: str, info: dict[str, Any]) -> None:
    """After a collection of the two older generations, young garbage is gone and the survivors
    sit in the oldest generation: freezing them now freezes no young garbage."""
    if phase != "stop" or info["generation"] < 1:
        return
    now = time.monotonic()
    if now - _policy.frozen_at >= FREEZE_SECONDS:
        _policy.frozen_at = now
        gc.freeze()

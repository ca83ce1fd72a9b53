"""Child processes that end with the process that started them, even when it is killed outright.

Linux's ``prctl(PR_SET_PDEATHSIG)`` has the kernel send a child a signal when the thread that
started it ends. Without it a worker pool whose parent is killed alone (``kill PID``, SIGKILL)
plays its games, or runs its service, on for nobody. Elsewhere there is no such call and these
do nothing.
"""

from __future__ import annotations

import ctypes
import os
import signal
from collections.abc import Callable
from typing import Final

PR_SET_PDEATHSIG: Final = 1
"""prctl(2): the signal the kernel sends a process when the thread that started it ends."""


def prctl() -> Callable[..., int] | None:
    """libc's ``prctl``, looked up in this process (a child between fork and exec must not load
    anything, so a ``preexec_fn`` is handed it ready); ``None`` where there is none."""
    try:
        found: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return found


def die_with_parent(parent: int, how: signal.Signals = signal.SIGTERM) -> None:
    """A worker's first step (a pool's ``initializer``, with ``os.getpid()`` of the parent as
    ``parent``): it is sent ``how`` when its parent ends, and ends at once when the parent ended
    before this call."""
    call = prctl()
    if call is None:
        return
    call(PR_SET_PDEATHSIG, how)
    if os.getppid() != parent:
        os._exit(1)

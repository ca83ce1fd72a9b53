"""The server's collector policy (``parlour.server.collector``): after start-up, whatever survives
any collection is frozen, so the next collection walks only what was made since; garbage cycles
are still collected while young. Run in a child process: the policy is process-wide."""

from __future__ import annotations

import subprocess
import sys

CHILD = """
import gc
from parlour.server import collector

collector.loaded()
gc.disable()                                      # this test makes the collections itself
waiting = [[index] for index in range(5000)]      # alive: survives, then is frozen
frozen = gc.get_freeze_count()
gc.collect(0)                                     # a young collection, as the interpreter makes them
print(gc.get_freeze_count() - frozen >= 5000)     # the survivors were frozen
print(len(gc.get_objects(0)) + len(gc.get_objects(1)) + len(gc.get_objects(2)) < 1000)

class Node:
    pass

def cycle():
    a, b = Node(), Node()
    a.other, b.other = b, a

for _ in range(100):
    cycle()                                       # young garbage cycles
print(gc.collect(0) >= 200)                       # found while young, not frozen
"""


def test_survivors_of_any_collection_are_frozen_and_young_cycles_collected() -> None:
    result = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["True", "True", "True"], result.stdout + result.stderr

"""Snapshot benchmark: µs to take and to restore a World's snapshot, and its size.

Two scenes, each stepped a second first so that contacts, riders and grounded
bodies are in the snapshot:

- the adventure level as its learning environment plays it
  (``ecs_arcade/Adventure-v0``: tile layers, player, enemies, coins);
- 2,000 crates falling onto the platformer's tiers (``benchmarks.scenes``).

Prints the best and median of ``--rounds`` for ``world.snapshot()`` and
``world.restore(data)``, the snapshot's size, and the ms of one physics step
of the same World for scale (a restore makes the next step read every collider
anew: that step is timed too).

    python -m benchmarks.snapshots
    python -m benchmarks.snapshots --rounds 50
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Sequence

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import gymnasium  # noqa: E402

import examples.envs  # noqa: E402,F401  (registers the environments)
from benchmarks.scenes import build_world, platformer  # noqa: E402
from components import Transform  # noqa: E402
from ecs import World  # noqa: E402

DT = 1 / 60


def times(action: Callable[[], object], rounds: int) -> list[float]:
    """µs for each of ``rounds`` calls of ``action``."""
    spent = []
    for _ in range(rounds):
        began = time.perf_counter()
        action()
        spent.append((time.perf_counter() - began) * 1e6)
    return spent


def adventure_world() -> World:
    """The adventure level one second into an episode."""
    env = gymnasium.make("ecs_arcade/Adventure-v0")
    env.reset(seed=0)
    for _ in range(15):  # 15 actions × 4 physics steps
        env.step(0)
    world: World = env.unwrapped.scene.world  # type: ignore[attr-defined]
    return world


def crates_world() -> World:
    """2,000 crates one second after being dropped onto the platformer's tiers."""
    world = build_world(platformer(2000), continuous=True)[0]
    for _ in range(60):
        world.step(DT)
    return world


def measure(name: str, world: World, rounds: int) -> str:
    """One table row: snapshot and restore µs (best, median), KiB, and step ms before and after a restore."""
    data = world.snapshot()
    taken = times(world.snapshot, rounds)
    step = min(times(lambda: world.step(DT), 10)) / 1000
    restored = times(lambda: world.restore(data), rounds)
    world.restore(data)
    after = times(lambda: world.step(DT), 1)[0] / 1000
    return (f"| {name} | {len(world.get_component(Transform))} | {min(taken):,.0f} | {statistics.median(taken):,.0f} | "
            f"{min(restored):,.0f} | {statistics.median(restored):,.0f} | {len(data) / 1024:,.0f} | "
            f"{step:.2f} | {after:.2f} |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=20, help="calls of each, timed one by one (default 20)")
    rounds = parser.parse_args(argv).rounds
    print("| scene | placed entities | snapshot µs (best) | (median) | restore µs (best) | (median) | KiB | "
          "step ms | first step after restore ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(measure("adventure level", adventure_world(), rounds))
    print(measure("2,000 crates", crates_world(), rounds))


if __name__ == "__main__":
    main()

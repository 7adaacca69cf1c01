"""Would a vector environment of K worlds in one table pay? K small scenes stepped as K Worlds
in turn (what ``SyncVectorEnv`` of our environments does) against one World holding the K copies
far apart (what stepping K worlds through the compiled core at once could at best save: one
pass of each stage for all of them instead of K).

Scenes: ``benchmarks.scenes``' platformer and shooter at 40 bodies each, about an environment's
size. Prints ms per physics step for both, per copy, and the ratio.

    python -m benchmarks.batched
    python -m benchmarks.batched --copies 1 8 32 --bodies 40 --steps 200
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import replace

from benchmarks.scenes import Layout, build_world, platformer, shooter
from ecs import World

DT = 1 / 60
GAP = 100_000.0  # px between copies: far beyond any scene, so copies never meet


def side_by_side(layout: Layout, copies: int) -> Layout:
    """``copies`` copies of ``layout``, each GAP px right of the one before."""
    def moved(box: tuple[float, float, float, float], index: int) -> tuple[float, float, float, float]:
        return (box[0] + index * GAP, box[1], box[2], box[3])

    indices = range(copies)
    return replace(layout, inside=None,
                   pieces=[replace(piece, box=moved(piece.box, i)) for i in indices for piece in layout.pieces],
                   movers=[replace(mover, box=moved(mover.box, i)) for i in indices for mover in layout.movers],
                   coins=[moved(coin, i) for i in indices for coin in layout.coins])


def ms_per_step(worlds: list[World], steps: int) -> float:
    """ms to step every World in ``worlds`` once, averaged over ``steps`` after one warm-up step."""
    for world in worlds:
        world.step(DT)
    began = time.perf_counter()
    for _ in range(steps):
        for world in worlds:
            world.step(DT)
    return (time.perf_counter() - began) / steps * 1000


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--bodies", type=int, default=40, help="moving bodies per copy (default 40)")
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args(argv)
    print("| scene | copies | K Worlds ms/step | per copy | one World ms/step | per copy | K Worlds / one World |")
    print("|---|---|---|---|---|---|---|")
    for name, make in (("platformer", platformer), ("shooter", shooter)):
        layout = make(args.bodies)
        for copies in args.copies:
            apart = ms_per_step([build_world(layout, True)[0] for _ in range(copies)], args.steps)
            together = ms_per_step([build_world(side_by_side(layout, copies), True)[0]], args.steps)
            print(f"| {name} | {copies} | {apart:.2f} | {apart / copies:.3f} | {together:.2f} | "
                  f"{together / copies:.3f} | {apart / together:.1f} |")


if __name__ == "__main__":
    main()

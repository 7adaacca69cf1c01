"""Particles: ms per frame to move and to draw N live particles, headless.

One Emitter in an 800×480 scene keeps N particles alive (a burst of N with
lifetimes of 100 s, moving under gravity and spreading over the screen); each
frame is one physics step of the scene (the ParticleSystem among the scene's
systems) and one drawing of the scene (sprites, particles, text) into a
Surface. Prints the median and 95th percentile of ``--frames`` frames for
each N, for the step, the drawing and both.

    python -m benchmarks.particles
    python -m benchmarks.particles --counts 1000 10000 50000 --frames 200
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from components import Emitter, Transform  # noqa: E402
from ecs import Scene, World  # noqa: E402

DT = 1 / 60
SIZE = (800, 480)


def frames(count: int, frames: int) -> tuple[list[float], list[float]]:
    """ms of each frame's step and drawing with ``count`` particles live."""
    scene = Scene(World())
    scene.world.create_entity(Transform((400, 240)), Emitter(
        burst=count, capacity=max(count, 1), speed=(10, 200), lifetime=100, gravity=(0, 20), seed=1,
        colors=((255, 240, 150), (255, 120, 40)), alpha=(1, 0.2), size=(3, 1)))
    screen = pygame.Surface(SIZE)
    steps, draws = [], []
    for _ in range(frames + 5):  # the first five warm up
        began = time.perf_counter()
        scene.update(DT)
        stepped = time.perf_counter()
        screen.fill((20, 24, 40))
        scene.draw(screen, 1.0)
        drawn = time.perf_counter()
        steps.append((stepped - began) * 1000)
        draws.append((drawn - stepped) * 1000)
    assert scene.particles.drawn > 0
    return steps[5:], draws[5:]


def p95(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.95)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counts", type=int, nargs="+", default=[1000, 10_000, 50_000])
    parser.add_argument("--frames", type=int, default=120)
    args = parser.parse_args(argv)
    print("| particles | step ms (median) | draw ms (median) | frame ms (median) | frame ms (95th) |")
    print("|---|---|---|---|---|")
    for count in args.counts:
        steps, draws = frames(count, args.frames)
        total = [a + b for a, b in zip(steps, draws)]
        print(f"| {count:,} | {statistics.median(steps):.2f} | {statistics.median(draws):.2f} | "
              f"{statistics.median(total):.2f} | {p95(total):.2f} |")


if __name__ == "__main__":
    main()

"""Arena: N bouncing boxes and balls in a closed room, debug overlay on.

For seeing speed: the overlay's panel shows the frame rate and how long each
system (Movement, Collision, Response, the renderer…) took last frame, with
every collider outlined and every contact normal drawn. Bodies are perfectly
elastic and there is no gravity, as in benchmarks/arena.py.

Controls: F1 toggles the overlay, Esc quits.

    python -m examples.arena --count 500
    python -m examples.arena --headless --frames 300 --screenshot arena.png
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence

from examples.common import parse_args

from components import Collider, ColliderType, Physics, Shape, Sprite, Transform  # noqa: E402
from ecs import Game, World  # noqa: E402

WIDTH, HEIGHT = 800, 600
WALL = 20


def build(world: World, count: int, seed: int = 7) -> None:
    """Walls, then ``count`` bodies on a jittered grid with random velocities."""
    for x, y, w, h in [(0, 0, WIDTH, WALL), (0, HEIGHT - WALL, WIDTH, WALL),
                       (0, WALL, WALL, HEIGHT - 2 * WALL), (WIDTH - WALL, WALL, WALL, HEIGHT - 2 * WALL)]:
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC), Sprite((70, 78, 96)))
    rng = random.Random(seed)
    inner_w, inner_h = WIDTH - 2 * WALL, HEIGHT - 2 * WALL
    spacing = math.sqrt(inner_w * inner_h / max(count, 1))
    size = max(3.0, min(12.0, spacing * 0.45))
    columns = max(1, int(inner_w // spacing))
    for i in range(count):
        row, col = divmod(i, columns)
        x = WALL + col * spacing + (spacing - size) / 2
        y = WALL + row * spacing + (spacing - size) / 2
        shape = Shape.CIRCLE if i % 3 == 0 else Shape.BOX
        world.create_entity(
            Transform((x, y)), Collider((size, size), shape=shape),
            Physics(velocity=(rng.uniform(-200, 200), rng.uniform(-200, 200)), elasticity=1.0),
            Sprite((rng.randint(120, 255), rng.randint(120, 255), rng.randint(120, 255))))


def _count(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--count", type=int, default=300, help="number of bodies (default 300)")


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(__doc__, argv, extra=_count)
    if args.count < 0:
        raise SystemExit("--count must be >= 0")
    world = World()
    game = Game(world, size=(WIDTH, HEIGHT), title="arena", headless=args.headless, debug=True)
    build(world, args.count)
    game.run(frames=args.frames, screenshot=args.screenshot)
    game.close()


if __name__ == "__main__":
    main()

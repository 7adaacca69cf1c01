"""Momentum: the three demos of Luke Godfrey's *Rectangle Collisions*, side by side.

A box sliding at 150 px/s hits a box at rest, in three lanes:
completely inelastic (they leave together at 75 px/s), completely elastic
(the left box stops, the right one leaves at 150 px/s) and the left box
twice as massive, elastic (50 and 200 px/s). Walls close each lane, so the
elastic lanes keep exchanging momentum.

Controls: F1 debug overlay, Esc quits.

    python -m examples.momentum
    python -m examples.momentum --headless --frames 300 --screenshot momentum.png
"""

from __future__ import annotations

from collections.abc import Sequence

from examples.common import Label, parse_args

from components import Collider, ColliderType, Physics, Sprite, Transform  # noqa: E402
from ecs import Game, World  # noqa: E402

LANES = [
    ("completely inelastic (e = 0)", 1.0, 0.0),
    ("completely elastic (e = 1)", 1.0, 1.0),
    ("left box twice as massive (e = 1)", 2.0, 1.0),
]
WIDTH, LANE_HEIGHT = 800, 150


def build(world: World, game: Game | None = None) -> None:
    """Three lanes, each with a moving box, a box at rest and two end walls."""
    for lane, (title, left_mass, elasticity) in enumerate(LANES):
        top = 30 + lane * LANE_HEIGHT
        floor_y = top + 100
        for x in (20, WIDTH - 40):
            world.create_entity(Transform((x, top + 20)), Collider((20, 80), type=ColliderType.STATIC),
                                Sprite((90, 96, 110)))
        world.create_entity(Transform((20, floor_y)), Collider((WIDTH - 40, 6), type=ColliderType.STATIC),
                            Sprite((60, 64, 76)))
        size = 40 if left_mass == 1.0 else 50
        world.create_entity(Transform((80, floor_y - size)), Collider((size, size)),
                            Physics(velocity=(150, 0), mass=left_mass, elasticity=elasticity),
                            Sprite((240, 120, 80)))
        world.create_entity(Transform((380, floor_y - 40)), Collider((40, 40)),
                            Physics(mass=1.0, elasticity=elasticity), Sprite((90, 170, 240)))
        if game is not None:
            game.add_draw_system(Label(title, (50, top)), priority=0)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(__doc__, argv)
    game = Game(size=(WIDTH, 30 + LANE_HEIGHT * len(LANES)), title="momentum", headless=args.headless)
    build(game.world, game)
    game.run(frames=args.frames, screenshot=args.screenshot)
    game.close()


if __name__ == "__main__":
    main()

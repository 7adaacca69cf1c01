"""Platformer: run, jump, ride a moving platform, push crates, collect coins.

Shows a player driven by its own PlayerControlSystem (a few lines reading
Input), jumping only when Touching.down says it stands on something; a
moving platform (a STATIC collider with a velocity, turned around by a
PatrolSystem) that carries the player; crates of different masses that the
player pushes (heavier ones move slower); and coins (TRIGGER colliders)
removed by a collision handler that also counts the score.

Controls: arrow keys or A/D to run, Space/Up/W to jump, F1 debug overlay, Esc quits.
Headless runs play a short scripted demo: ride the lift up through a column of
coins, hop at the top and land back on the moving lift.

    python -m examples.platformer
    python -m examples.platformer --headless --frames 300 --screenshot platformer.png
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import esper
import pygame

from examples.common import Autoplay, Label, parse_args

from components import Collider, ColliderType, Physics, Shape, Sprite, Touching, Transform  # noqa: E402
from ecs import Contact, Game, Input, World  # noqa: E402

TILE = 32
LEVEL = [
    "#########################",
    "#.......................#",
    "#.......................#",
    "#..o.o.o........o.o.o...#",
    "#.#####.............###.#",
    "#.......................#",
    "#...........o.o.........#",
    "#..........#####........#",
    "#..o.o............o.....#",
    "#.......................#",
    "#...........o.....o.....#",
    "#.......................#",
    "#.......c.C...........c.#",
    "#########...............#",
    "#########################",
]
RUN_SPEED = 220.0  # px/s
JUMP_SPEED = 560.0  # px/s
GRAVITY = 1400.0  # px/s²


@dataclass(slots=True)
class Player:
    """Marks the entity the PlayerControlSystem drives."""


@dataclass(slots=True)
class Patrol:
    """Turn the entity around when it leaves [low, high] px along ``axis``."""

    low: float
    high: float
    axis: int = 0


class PlayerControlSystem(esper.Processor):
    """Run with the arrow keys; jump only when standing on something."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        keys = self.world.resource(Input)
        for _, (_, physics, touching) in self.world.get_components(Player, Physics, Touching):
            run = keys.axis(pygame.K_LEFT, pygame.K_RIGHT) or keys.axis(pygame.K_a, pygame.K_d)
            physics.velocity.x = run * RUN_SPEED
            jump = any(keys.was_pressed(k) for k in (pygame.K_SPACE, pygame.K_UP, pygame.K_w))
            if jump and touching.down:
                physics.velocity.y = -JUMP_SPEED


class PatrolSystem(esper.Processor):
    """Reverse a patrolling entity's velocity at the ends of its range."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        for _, (patrol, transform, physics) in self.world.get_components(Patrol, Transform, Physics):
            where, speed = transform.position[patrol.axis], physics.velocity[patrol.axis]
            if (where <= patrol.low and speed < 0) or (where >= patrol.high and speed > 0):
                physics.velocity[patrol.axis] = -speed


def build(world: World) -> dict[str, int]:
    """Tiles, player, crates, coins and a moving platform; returns a score box."""
    state = {"score": 0, "player": 0}
    for row, line in enumerate(LEVEL):
        for col, cell in enumerate(line):
            x, y = col * TILE, row * TILE
            if cell == "#":
                world.create_entity(Transform((x, y)), Collider((TILE, TILE), type=ColliderType.STATIC),
                                    Sprite((70, 78, 96)))
            elif cell == "o":
                world.create_entity(Transform((x + 8, y + 8)),
                                    Collider((16, 16), type=ColliderType.TRIGGER, shape=Shape.CIRCLE),
                                    Sprite((250, 210, 60)))
            elif cell in "cC":
                size, mass, color = (28, 1.0, (190, 130, 70)) if cell == "c" else (30, 4.0, (140, 90, 50))
                world.create_entity(Transform((x + 2, y + TILE - size)), Collider((size, size)),
                                    Physics(mass=mass, friction=0.6), Sprite(color))
    # A lift from the floor up to the ledges; the player starts standing on it.
    lift_top = 14 * TILE - 12
    world.create_entity(Transform((17 * TILE, lift_top)), Collider((3 * TILE, 12), type=ColliderType.STATIC),
                        Physics(velocity=(0, -80)), Patrol(5 * TILE, lift_top, axis=1), Sprite((120, 220, 160)))
    state["player"] = world.create_entity(
        Transform((18 * TILE + 5, lift_top - 30)), Collider((22, 30)), Physics(mass=1.0), Touching(),
        Player(), Sprite((90, 200, 250)))
    # A shuttle along the top corridor.
    world.create_entity(Transform((9 * TILE, 9 * TILE)), Collider((2 * TILE, 12), type=ColliderType.STATIC),
                        Physics(velocity=(80, 0)), Patrol(6 * TILE, 11 * TILE - 4), Sprite((120, 220, 160)))

    def collect(contact: Contact) -> None:
        if state["player"] in (contact.a, contact.b) and contact.trigger:
            coin = contact.b if contact.a == state["player"] else contact.a
            if world.entity_exists(coin):
                world.delete_entity(coin)
                state["score"] += 1

    world.on_collision(collect)
    world.add_system(PlayerControlSystem(world), priority=400)  # before Movement
    world.add_system(PatrolSystem(world), priority=350)
    return state


# The headless demo: ride the lift up through the coins, hop at the top,
# land back on the lift and ride it down.
DEMO = {
    170: [(pygame.K_SPACE, True)], 172: [(pygame.K_SPACE, False)],
}


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(__doc__, argv)
    world = World(gravity=(0, GRAVITY))
    game = Game(world, size=(len(LEVEL[0]) * TILE, len(LEVEL) * TILE), title="platformer",
                headless=args.headless)
    state = build(world)
    if args.headless:
        world.add_system(Autoplay(DEMO), priority=1000)
    game.add_draw_system(Label(lambda: f"coins: {state['score']}", (40, 40), size=28), priority=0)
    game.add_draw_system(Label("arrows run, space jumps, F1 debug", (40, 68)), priority=0)
    game.run(frames=args.frames, screenshot=args.screenshot)
    game.close()


if __name__ == "__main__":
    main()

"""Crack: boxes sliding along a floor and a wall built from flush tiles.

The crack problem of Sacred Software's *Collisions, Part 1*: a box pressed against a surface
made of separate tiles can catch on the seams between them. Here gravity
presses boxes onto a floor of 16 px tiles (left) and sideways into a wall of
16 px tiles (right) while they slide along it at different speeds, with no
friction. Their trails stay straight and their speeds stay constant: no
snag. Boxes that reach the end start over.

Controls: F1 debug overlay (shows the contact normals), Esc quits.

    python -m examples.crack
    python -m examples.crack --headless --frames 300 --screenshot crack.png
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import esper
import pygame
from pygame import Vector2

from examples.common import Label, parse_args

from components import Collider, ColliderType, Physics, Sprite, Transform  # noqa: E402
from ecs import Game, World  # noqa: E402

TILE = 16
WIDTH, HEIGHT = 800, 480
SPEEDS = [90.0, 180.0, 300.0]  # px/s along the surface


class Trails(esper.Processor):
    """Draws where each box has been, and its speed along its surface."""

    def __init__(self, world: World, boxes: list[tuple[int, int]]) -> None:
        self.world, self.boxes = world, boxes  # (entity, axis it slides along)
        self.points = {entity: deque(maxlen=120) for entity, _ in boxes}
        self.font = pygame.font.Font(None, 18)

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        for entity, axis in self.boxes:
            transform = self.world.component_for_entity(entity, Transform)
            centre = transform.position + Vector2(6, 6)
            trail = self.points[entity]
            if trail and centre.distance_to(trail[-1]) > 100:
                trail.clear()  # it started over
            trail.append(Vector2(centre))
            if len(trail) > 1:
                pygame.draw.lines(surface, (110, 200, 250), False, list(trail), 2)
            speed = self.world.component_for_entity(entity, Physics).velocity[axis]
            text = self.font.render(f"{abs(speed):.0f} px/s", True, (230, 230, 230))
            surface.blit(text, centre + (Vector2(-20, -26) if axis == 0 else Vector2(-70, -4)))


class Wrap(esper.Processor):
    """Send boxes that slid off the end back to the start."""

    def __init__(self, world: World, boxes: list[tuple[int, int]], starts: dict[int, Vector2]) -> None:
        self.world, self.boxes, self.starts = world, boxes, starts

    def process(self, dt: float) -> None:
        for entity, axis in self.boxes:
            transform = self.world.component_for_entity(entity, Transform)
            if transform.position[axis] > (390 if axis == 0 else 420):
                transform.position.update(self.starts[entity])
                transform.previous_position.update(self.starts[entity])


def build(world: World) -> tuple[list[tuple[int, int]], dict[int, Vector2]]:
    """Three tiled floors and three tiled walls, one box pressed against each."""
    boxes, starts = [], {}
    for lane, speed in enumerate(SPEEDS):
        floor_y = 140 + lane * 120
        for i in range(24):
            world.create_entity(Transform((20 + i * TILE, floor_y)), Collider((TILE, TILE), type=ColliderType.STATIC),
                                Sprite((70 + 25 * (i % 2), 78, 96)))
        start = Vector2(30, floor_y - 12)  # resting on the floor, sliding right
        entity = world.create_entity(Transform(start), Collider((12, 12)), Physics(velocity=(speed, 0)),
                                     Sprite((250, 150, 80)))
        boxes.append((entity, 0))
        starts[entity] = Vector2(start)
        wall_x = 560 + lane * 80
        for i in range(26):
            world.create_entity(Transform((wall_x, 20 + i * TILE)), Collider((TILE, TILE), type=ColliderType.STATIC),
                                Sprite((70 + 25 * (i % 2), 78, 96)))
        start = Vector2(wall_x - 12, 24)  # against the wall (pushed right), sliding down
        entity = world.create_entity(Transform(start), Collider((12, 12)),
                                     Physics(velocity=(0, speed), gravity_scale=0.0), Sprite((250, 150, 80)))
        boxes.append((entity, 1))
        starts[entity] = Vector2(start)
    world.add_system(Wrap(world, boxes, starts), priority=-5)
    world.add_system(PushRight(world, [e for e, axis in boxes if axis == 1]), priority=400)
    return boxes, starts


class PushRight(esper.Processor):
    """Sideways gravity (900 px/s²) for the wall sliders: presses them into the wall."""

    def __init__(self, world: World, entities: list[int]) -> None:
        self.world, self.entities = world, entities

    def process(self, dt: float) -> None:
        for entity in self.entities:
            self.world.component_for_entity(entity, Physics).velocity.x += 900 * dt


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(__doc__, argv)
    world = World(gravity=(0, 900))
    game = Game(world, size=(WIDTH, HEIGHT), title="crack", headless=args.headless)
    boxes, _ = build(world)
    game.add_draw_system(Trails(world, boxes), priority=50)
    game.add_draw_system(Label("floors of 16 px tiles, gravity down", (20, 40)), priority=0)
    game.add_draw_system(Label("walls of 16 px tiles,\npushed right", (430, 440)), priority=0)
    game.run(frames=args.frames, screenshot=args.screenshot)
    game.close()


if __name__ == "__main__":
    main()

"""Shooter: top-down, no gravity; bullets on their own layer, a radar, line of sight.

Shows collision layers doing a game's bookkeeping: bullets sit on their own
layer and their mask leaves out the ship and other bullets, so they never
hit the shooter or each other however they bounce; enemies near the ship
are counted by a radar ring (a TRIGGER following the ship) with
``on_collision_begin`` / ``on_collision_end`` between the radar's and the
enemies' layers; a hit is handled by ``on_collision_begin`` between bullets
and enemies. A ray from the ship to the nearest enemy tells whether a wall
blocks the line of sight; the debug overlay draws it (green: in sight).

Controls: arrows or WASD move, the mouse aims, click or Space fires, F1 the
debug overlay, Esc quits. Headless runs fly a short pattern with the overlay
on, firing at whatever enemy is in sight.

    python -m examples.shooter
    python -m examples.shooter --headless --frames 300 --screenshot shooter.png
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import esper
import pygame
from pygame import Vector2

from examples.common import Label, parse_args

from components import ALL, Collider, ColliderType, Physics, Shape, Sprite, Transform  # noqa: E402
from ecs import Contact, Game, Gizmos, Input, World  # noqa: E402

WIDTH, HEIGHT = 800, 600
SHIP_SPEED = 260.0  # px/s
BULLET_SPEED = 900.0  # px/s
ENEMY_SPEED = 70.0  # px/s
RADAR = 150.0  # px: the radar ring's radius

# Layers (collider categories).
WALLS, SHIP, BULLETS, ENEMIES, SENSORS = 1, 2, 4, 8, 16


@dataclass(slots=True)
class Ship:
    """The player's ship; ``cooldown`` (s) until it may fire again; ``auto``
    flies and fires by itself (headless demo)."""

    cooldown: float = 0.0
    auto: bool = False
    clock: float = 0.0


@dataclass(slots=True)
class Bullet:
    """A bullet; it disappears after ``life`` seconds."""

    life: float = 1.5


@dataclass(slots=True)
class Enemy:
    """Drifts toward the ship."""


@dataclass(slots=True)
class Radar:
    """A ring following ``ship``, counting the enemies inside it."""

    ship: int
    inside: int = 0


class ShipSystem(esper.Processor):
    """Fly from the keys (or a pattern) and fire at the mouse (or at the
    enemy in sight)."""

    def __init__(self, world: World, sight: LineOfSight) -> None:
        self.world, self.sight = world, sight

    def process(self, dt: float) -> None:
        keys = self.world.resource(Input)
        for entity, (ship, transform, physics) in self.world.get_components(Ship, Transform, Physics):
            ship.cooldown = max(0.0, ship.cooldown - dt)
            ship.clock += dt
            centre = transform.position + Vector2(10, 10)
            if ship.auto:
                physics.velocity.update(Vector2(1, 0).rotate(ship.clock * 60) * SHIP_SPEED * 0.6)
                target, fire = self.sight.target, self.sight.clear
            else:
                steer = Vector2(keys.axis(pygame.K_LEFT, pygame.K_RIGHT) or keys.axis(pygame.K_a, pygame.K_d),
                                keys.axis(pygame.K_UP, pygame.K_DOWN) or keys.axis(pygame.K_w, pygame.K_s))
                physics.velocity.update(steer.normalize() * SHIP_SPEED if steer else Vector2())
                target = keys.mouse_world_position
                fire = 1 in keys.mouse_buttons or keys.is_held(pygame.K_SPACE)
            if fire and ship.cooldown == 0.0 and target is not None and target != centre:
                ship.cooldown = 0.15
                fire_bullet(self.world, centre, (Vector2(target) - centre).normalize())


class BulletSystem(esper.Processor):
    """Age bullets; remove the old ones."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        for entity, bullet in self.world.get_component(Bullet):
            bullet.life -= dt
            if bullet.life <= 0.0 and self.world.entity_exists(entity):
                self.world.delete_entity(entity)


class EnemySystem(esper.Processor):
    """Steer enemies toward the ship; keep the radar on the ship."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        ships = [t.position + Vector2(10, 10) for _, (_, t) in self.world.get_components(Ship, Transform)]
        if not ships:
            return
        for _, (_, transform, physics) in self.world.get_components(Enemy, Transform, Physics):
            toward = ships[0] - (transform.position + Vector2(12, 12))
            if toward:
                physics.velocity.update(physics.velocity.lerp(toward.normalize() * ENEMY_SPEED, 0.05))
        for _, (radar, transform) in self.world.get_components(Radar, Transform):
            ship = self.world.component_for_entity(radar.ship, Transform).position
            transform.position.update(ship + Vector2(10, 10) - Vector2(RADAR, RADAR))


class LineOfSight(esper.Processor):
    """After each step: a ray from the ship to the nearest enemy; ``clear``
    when the first thing it meets is that enemy, not a wall. The ray is
    drawn through the world's Gizmos (the debug overlay shows it)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.target: Vector2 | None = None
        self.clear = False

    def process(self, dt: float) -> None:
        self.target, self.clear = None, False
        ships = [t.position + Vector2(10, 10) for _, (_, t) in self.world.get_components(Ship, Transform)]
        enemies = [(e, t.position + Vector2(12, 12)) for e, (_, t) in self.world.get_components(Enemy, Transform)]
        if not ships or not enemies:
            return
        eye = ships[0]
        nearest, where = min(enemies, key=lambda item: (item[1].distance_squared_to(eye), item[0]))
        hits = self.world.raycast(eye, where, mask=WALLS | ENEMIES)
        self.target, self.clear = where, bool(hits) and hits[0].entity == nearest
        gizmos = self.world.resources.get(Gizmos)
        if gizmos is not None:
            end = where if self.clear or not hits else hits[0].point
            gizmos.line(eye, end, (90, 220, 120) if self.clear else (255, 80, 80))


def fire_bullet(world: World, centre: Vector2, direction: Vector2) -> int:
    """A 4 px bullet from ``centre`` toward ``direction``: on the bullets'
    layer, meeting neither the ship nor other bullets; it bounces off walls."""
    return world.create_entity(
        Transform(centre - Vector2(2, 2) + direction * 14),
        Collider((4, 4), category=BULLETS, mask=ALL & ~(SHIP | BULLETS | SENSORS)),
        Physics(velocity=direction * BULLET_SPEED, mass=0.05, elasticity=1.0), Bullet(),
        Sprite((255, 240, 150)))


def build(world: World, auto: bool, seed: int = 3) -> dict[str, int]:
    """Walls, pillars, the ship, its radar and a few enemies; returns the
    score box."""
    state = {"kills": 0, "hits": 0}
    for x, y, w, h in [(0, 0, WIDTH, 20), (0, HEIGHT - 20, WIDTH, 20), (0, 0, 20, HEIGHT), (WIDTH - 20, 0, 20, HEIGHT),
                       (250, 150, 40, 120), (520, 330, 40, 120), (330, 420, 140, 30), (330, 120, 140, 30)]:
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC), Sprite((70, 78, 96)))
    ship = world.create_entity(Transform((WIDTH / 2 - 10, HEIGHT / 2 - 10)),
                               Collider((20, 20), shape=Shape.CIRCLE, category=SHIP), Physics(mass=5.0),
                               Ship(auto=auto), Sprite((90, 200, 250)))
    world.create_entity(Transform((WIDTH / 2 - RADAR, HEIGHT / 2 - RADAR)),  # centred on the ship
                        Collider((2 * RADAR, 2 * RADAR), type=ColliderType.TRIGGER,
                                                    shape=Shape.CIRCLE, category=SENSORS, mask=ENEMIES),
                        Radar(ship))
    rng = random.Random(seed)
    for i in range(8):
        angle = i * math.tau / 8 + rng.uniform(-0.2, 0.2)
        spot = Vector2(WIDTH / 2, HEIGHT / 2) + Vector2(330, 0).rotate_rad(angle).elementwise() * Vector2(1, 0.75)
        world.create_entity(Transform(spot - Vector2(12, 12)), Collider((24, 24), shape=Shape.CIRCLE, category=ENEMIES),
                            Physics(mass=1.0, elasticity=0.5), Enemy(), Sprite((230, 90, 110)))

    @world.on_collision_begin(between=(BULLETS, ENEMIES))
    def hit(contact: Contact) -> None:
        if not (world.entity_exists(contact.a) and world.entity_exists(contact.b)):
            return  # another bullet got this enemy in the same step (or this bullet hit another)
        world.delete_entity(contact.a)
        world.delete_entity(contact.b)
        state["kills"] += 1

    @world.on_collision_begin(between=(SHIP, ENEMIES))
    def bumped(contact: Contact) -> None:
        state["hits"] += 1

    radar = next(e for e, _ in world.get_component(Radar))

    @world.on_collision_begin(between=(SENSORS, ENEMIES))
    def entered(contact: Contact) -> None:
        world.component_for_entity(radar, Radar).inside += 1

    @world.on_collision_end(between=(SENSORS, ENEMIES))
    def left(contact: Contact) -> None:
        world.component_for_entity(radar, Radar).inside -= 1

    sight = LineOfSight(world)
    world.add_system(ShipSystem(world, sight), priority=400)
    world.add_system(EnemySystem(world), priority=390)
    world.add_system(BulletSystem(world), priority=380)
    world.add_system(sight, priority=-10)
    state["radar"] = radar
    return state


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(__doc__, argv)
    world = World()
    game = Game(world, size=(WIDTH, HEIGHT), title="shooter", headless=args.headless, debug=args.headless)
    state = build(world, auto=args.headless)
    radar = world.component_for_entity(state["radar"], Radar)
    game.add_draw_system(Label(lambda: f"kills {state['kills']}   enemies on radar {radar.inside}   "
                                       f"bumps {state['hits']}", (30, 28)), priority=0)
    game.run(frames=args.frames, screenshot=args.screenshot)
    game.close()


if __name__ == "__main__":
    main()

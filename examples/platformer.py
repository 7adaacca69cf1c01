"""Platformer: run, jump, ramps, one-way platforms, a lift, a crusher, crates, coins and an enemy.

Shows a player driven by its own PlayerControlSystem (a few lines reading
Input), jumping only when Touching.down says it stands on something, and
dropping through a one-way platform (a STATIC collider with
``sides=Side.TOP``) with Down + jump, by clearing the platforms' layer from
its mask; a moving platform (a STATIC collider with a velocity, turned
around by a PatrolSystem) that carries the player; crates of different
masses that the player pushes; coins (TRIGGER colliders) collected with
``on_collision_begin``; and an enemy that turns round at walls and at the
edge of a ledge, which it sees with a raycast (drawn in the debug overlay),
and is stomped from above. Layers keep coins and enemies apart. Ramps are
STATIC triangles (``Shape.TRIANGLE_BOTTOM_RIGHT`` rises to the right, "/";
``TRIANGLE_BOTTOM_LEFT`` to the left, "\\"), and the player's
``Physics(ground_snap=8)`` keeps it on them running downhill. A crusher (a
STATIC block that slams down and rises again) squeezes the player against
the floor: ``World.on_crush`` hears it and respawns the player on the lift.

Controls: arrow keys or A/D to run, Space/Up/W to jump, Down + jump to drop
through a one-way platform, F1 debug overlay, Esc quits. Headless runs play
a short scripted demo: jump from the rising lift onto a one-way platform,
drop through it into the pit, and run left up the ramp under the crusher.

    python -m examples.platformer
    python -m examples.platformer --headless --frames 300 --screenshot platformer.png
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import esper
import pygame

from examples.common import Autoplay, Label, parse_args

from components import ALL, Collider, ColliderType, Physics, Shape, Side, Sprite, Touching, Transform  # noqa: E402
from ecs import Contact, Game, Gizmos, Input, World  # noqa: E402

TILE = 32
LEVEL = [
    "#########################",
    "#.......................#",
    "#.......................#",
    "#..o.o.o........o.o.o...#",
    "#.#####.............###.#",
    "#.......................#",
    "#..........co.oC........#",
    "#..........#####........#",
    "#..o.o............o.....#",
    "#.......................#",
    "#.----......o----.o.....#",
    "#.......................#",
    "#..e...................c#",
    "#########\\........../#\\.#",
    "#########################",
]
RAMPS = {"/": Shape.TRIANGLE_BOTTOM_RIGHT, "\\": Shape.TRIANGLE_BOTTOM_LEFT}
RUN_SPEED = 220.0  # px/s
CRUSHER_DELAY = 4.45  # s before the crusher first slams (the demo runs under it then)
JUMP_SPEED = 560.0  # px/s
GRAVITY = 1400.0  # px/s²

# Layers (collider categories): what meets what.
WALLS, PLATFORMS, PLAYER, ENEMY, COIN = 1, 2, 4, 8, 16


@dataclass(slots=True)
class Player:
    """Marks the entity the PlayerControlSystem drives; ``through`` is the
    one-way platform it is dropping through, if any."""

    through: int | None = None


@dataclass(slots=True)
class Patrol:
    """Turn the entity around when it leaves [low, high] px along ``axis``."""

    low: float
    high: float
    axis: int = 0


@dataclass(slots=True)
class Crusher:
    """A block that waits ``wait`` s at ``top`` (px, y of its top), slams down
    at ``slam`` px/s to ``bottom``, waits, and rises at ``rise`` px/s.
    ``timer`` (s) counts down the current wait; ``falling`` says which way
    it goes next."""

    top: float
    bottom: float
    slam: float = 600.0
    rise: float = 60.0
    wait: float = 1.0
    timer: float = 1.0
    falling: bool = True


@dataclass(slots=True)
class Walker:
    """Walks ``speed`` px/s along x, turning round at walls and ledges."""

    speed: float = 70.0
    direction: int = 1


class PlayerControlSystem(esper.Processor):
    """Run with the arrow keys; jump only when standing on something; Down +
    jump on a one-way platform drops through it."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        keys = self.world.resource(Input)
        for entity, (player, physics, touching, collider) in self.world.get_components(
                Player, Physics, Touching, Collider):
            run = keys.axis(pygame.K_LEFT, pygame.K_RIGHT) or keys.axis(pygame.K_a, pygame.K_d)
            physics.velocity.x = run * RUN_SPEED
            jump = any(keys.was_pressed(k) for k in (pygame.K_SPACE, pygame.K_UP, pygame.K_w))
            down = keys.is_held(pygame.K_DOWN) or keys.is_held(pygame.K_s)
            if jump and touching.down and down and self._on_one_way(touching.ground):
                collider.mask = ALL & ~PLATFORMS  # fall through: the platforms are not met
                player.through = touching.ground
            elif jump and touching.down:
                physics.velocity.y = -JUMP_SPEED
            if player.through is not None and self._below(entity, player.through):
                collider.mask = ALL  # through it: platforms stop the player again
                player.through = None

    def _on_one_way(self, ground: int | None) -> bool:
        collider = None if ground is None else self.world.try_component(ground, Collider)
        return collider is not None and collider.sides is not Side.ALL

    def _below(self, entity: int, platform: int) -> bool:
        """Whether the entity's top is below the platform's bottom (or the
        platform is gone)."""
        shape = self.world.try_component(platform, Collider)
        if shape is None:
            return True
        bottom = self.world.component_for_entity(platform, Transform).position.y + shape.offset.y + shape.size.y
        collider = self.world.component_for_entity(entity, Collider)
        return self.world.component_for_entity(entity, Transform).position.y + collider.offset.y >= bottom


class PatrolSystem(esper.Processor):
    """Reverse a patrolling entity's velocity at the ends of its range."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        for _, (patrol, transform, physics) in self.world.get_components(Patrol, Transform, Physics):
            where, speed = transform.position[patrol.axis], physics.velocity[patrol.axis]
            if (where <= patrol.low and speed < 0) or (where >= patrol.high and speed > 0):
                physics.velocity[patrol.axis] = -speed


class CrusherSystem(esper.Processor):
    """Drive crushers: wait, slam down, wait, rise, by setting the velocity a
    STATIC block moves with (so what it hits sees a moving wall), never past
    its ends (the last step's speed is what is left of the way)."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        for _, (crusher, transform, physics) in self.world.get_components(Crusher, Transform, Physics):
            y = transform.position.y
            if crusher.timer > 0.0:
                crusher.timer -= dt
                physics.velocity.y = 0.0
            elif crusher.falling:
                physics.velocity.y = min(crusher.slam, (crusher.bottom - y) / dt) if dt else 0.0
                if y >= crusher.bottom:
                    crusher.falling, crusher.timer, physics.velocity.y = False, crusher.wait, 0.0
            else:
                physics.velocity.y = -min(crusher.rise, (y - crusher.top) / dt) if dt else 0.0
                if y <= crusher.top:
                    crusher.falling, crusher.timer, physics.velocity.y = True, crusher.wait, 0.0


class WalkerSystem(esper.Processor):
    """Walk enemies along; turn them at walls and where a ray cast down just
    ahead of their front foot finds no floor (the ray goes to the overlay)."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        gizmos = self.world.resources.get(Gizmos)
        for _, (walker, transform, collider, physics, touching) in self.world.get_components(
                Walker, Transform, Collider, Physics, Touching):
            if (walker.direction > 0 and touching.right) or (walker.direction < 0 and touching.left):
                walker.direction = -walker.direction
            left = transform.position.x + collider.offset.x
            front = left + collider.size.x + 2 if walker.direction > 0 else left - 2
            foot = transform.position.y + collider.offset.y + collider.size.y
            start, end = (front, foot - 2), (front, foot + 10)
            floor = self.world.raycast(start, end, mask=WALLS | PLATFORMS)
            if touching.down and not floor:
                walker.direction = -walker.direction
            physics.velocity.x = walker.direction * walker.speed
            if gizmos is not None:
                gizmos.line(start, end, (90, 220, 120) if floor else (255, 80, 80))


def build(world: World) -> dict[str, int]:
    """Tiles, player, crates, coins, an enemy and a moving platform; returns
    a score box."""
    state = {"score": 0, "player": 0}
    start = _tiles(world)
    # A lift from the floor up to the ledges; the player starts standing on it.
    lift_top = 14 * TILE - 12
    world.create_entity(Transform((17 * TILE, lift_top)), Collider((3 * TILE, 12), type=ColliderType.STATIC),
                        Physics(velocity=(0, -80)), Patrol(5 * TILE, lift_top, axis=1), Sprite((120, 220, 160)))
    spawn = (18 * TILE + 5, lift_top - 30)
    state["player"] = world.create_entity(
        Transform(spawn), Collider((22, 30), category=PLAYER), Physics(mass=1.0, ground_snap=8.0), Touching(),
        Player(), Sprite((90, 200, 250)))
    # A shuttle along the top corridor.
    world.create_entity(Transform((9 * TILE, 9 * TILE)), Collider((2 * TILE, 12), type=ColliderType.STATIC),
                        Physics(velocity=(80, 0)), Patrol(6 * TILE, 11 * TILE - 4), Sprite((120, 220, 160)))
    # A crusher over the lower floor: its bottom stops 10 px above the floor,
    # too little for the 30 px player, who is crushed and respawned.
    world.create_entity(Transform((11 * TILE, 11 * TILE)), Collider((2 * TILE, 24), type=ColliderType.STATIC),
                        Physics(), Crusher(top=11 * TILE, bottom=14 * TILE - 24 - 10, timer=CRUSHER_DELAY),
                        Sprite((200, 110, 90)))
    for x, y in start["enemies"]:
        world.create_entity(Transform((x + 4, y + 8)), Collider((24, 24), category=ENEMY, mask=ALL & ~COIN),
                            Physics(mass=2.0), Touching(), Walker(), Sprite((230, 90, 110)))

    @world.on_collision_begin(between=(PLAYER, COIN))
    def collect(contact: Contact) -> None:
        world.delete_entity(contact.b)
        state["score"] += 1

    @world.on_collision_begin(between=(PLAYER, ENEMY))
    def meet(contact: Contact) -> None:
        player = world.component_for_entity(contact.a, Physics)
        if contact.normal.y > 0.5:  # the enemy is below: stomped
            world.delete_entity(contact.b)
            player.velocity.y = -0.6 * JUMP_SPEED
            state["score"] += 5
        else:  # hit from the side: back to the start
            respawn(contact.a)

    @world.on_crush
    def crushed(entity: int) -> None:
        if entity == state["player"]:
            respawn(entity)

    def respawn(player: int) -> None:
        transform = world.component_for_entity(player, Transform)
        transform.position.update(spawn)
        transform.previous_position.update(spawn)  # a jump, not a glide across the screen
        world.component_for_entity(player, Physics).velocity.update(0, 0)

    world.add_system(PlayerControlSystem(world), priority=400)  # before Movement
    world.add_system(WalkerSystem(world), priority=390)
    world.add_system(PatrolSystem(world), priority=350)
    world.add_system(CrusherSystem(world), priority=350)
    return state


def _tiles(world: World) -> dict[str, list[tuple[int, int]]]:
    """The level's tiles, one-way platforms, coins and crates; returns the
    enemies' cells (px)."""
    found: dict[str, list[tuple[int, int]]] = {"enemies": []}
    for row, line in enumerate(LEVEL):
        for col, cell in enumerate(line):
            x, y = col * TILE, row * TILE
            if cell == "#":
                world.create_entity(Transform((x, y)), Collider((TILE, TILE), type=ColliderType.STATIC),
                                    Sprite((70, 78, 96)))
            elif cell in RAMPS:
                world.create_entity(Transform((x, y)), Collider((TILE, TILE), type=ColliderType.STATIC,
                                                                shape=RAMPS[cell]), Sprite((70, 78, 96)))
            elif cell == "-":
                world.create_entity(Transform((x, y)), Collider((TILE, 8), type=ColliderType.STATIC, sides=Side.TOP,
                                                                category=PLATFORMS), Sprite((150, 120, 200)))
            elif cell == "o":
                world.create_entity(Transform((x + 8, y + 8)),
                                    Collider((16, 16), type=ColliderType.TRIGGER, shape=Shape.CIRCLE, category=COIN),
                                    Sprite((250, 210, 60)))
            elif cell in "cC":
                size, mass, color = (28, 1.0, (190, 130, 70)) if cell == "c" else (30, 4.0, (140, 90, 50))
                world.create_entity(Transform((x + 2, y + TILE - size)), Collider((size, size)),
                                    Physics(mass=mass, friction=0.6), Sprite(color))
            elif cell == "e":
                found["enemies"].append((x, y))
    return found


# The headless demo: jump left off the rising lift onto the one-way
# platform, drop through it into the pit, run left up the ramp and back
# down it, under the crusher as it slams: crushed, back on the lift.
DEMO = {
    40: [(pygame.K_LEFT, True), (pygame.K_SPACE, True)], 42: [(pygame.K_SPACE, False)],
    62: [(pygame.K_LEFT, False)],
    110: [(pygame.K_DOWN, True), (pygame.K_SPACE, True)], 112: [(pygame.K_SPACE, False), (pygame.K_DOWN, False)],
    150: [(pygame.K_LEFT, True)], 230: [(pygame.K_LEFT, False)],
    240: [(pygame.K_RIGHT, True)], 280: [(pygame.K_RIGHT, False)],
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
    game.add_draw_system(Label("arrows run, space jumps, down + space drops, F1 debug", (40, 68)), priority=0)
    game.run(frames=args.frames, screenshot=args.screenshot)
    game.close()


if __name__ == "__main__":
    main()

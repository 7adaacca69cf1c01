"""Game-like scenes: a platformer crowd, a shooter, the level and the arena, ours against pymunk.

Each scene is built once as a ``Layout`` (same seed, sizes, positions and
velocities for both engines) and stepped by this framework (the swept
pipeline, the default; ``--discrete`` adds the discrete one) and by pymunk in
the same process, their rounds interleaved, each engine timed after one
warm-up step and ``ecs.freeze_loaded`` as in ``benchmarks.arena``: compare
ratios within one run, never absolute times across runs. For each scene
and N it prints our ms/step and pymunk's, the ratio, the bodies that left
the closed level (ours / pymunk), the coin pickups each engine's begin
handler heard, and our time per system and stage (``World.timings``,
ms/step).

- **platformer**: gravity (0, 980) px/s², N crates 8–16 px (μ 0.5,
  elasticity 0, ``Physics()`` defaults otherwise) raining at up to
  ±100 px/s sideways and 200 px/s down on tiers of STATIC ledges, each tier
  a run of solid ledges with a ramp at each end (``TRIANGLE_BOTTOM_RIGHT``
  "/" and ``TRIANGLE_BOTTOM_LEFT`` "\\", 32×24 px: 36.9°, steeper than
  μ 0.5 holds, so crates slide off) and one-way ledges (``Side.TOP``), with
  gaps between them, inside a closed box.
- **shooter**: no gravity, N bullets 4×4 px at 600–1,500 px/s in random
  directions, elasticity 1, on a bullet layer whose mask leaves out bullets,
  in a closed arena with a lattice of 32×32 STATIC obstacles, and N/2 coin
  TRIGGERs (8×8 px, on a coin layer meeting only bullets) scattered, a
  ``world.on_collision_begin`` handler counting pickups.
- **level**: ``benchmarks.level``'s scene, 2,500 STATIC tiles and 300 crates
  (``--level-tiles``, ``--level-crates``), whatever the N.
- **arena**: ``benchmarks.arena``'s scene at N, ±200 px/s.

pymunk gets the same shapes (bodies with infinite moment: ours don't
rotate). It combines a pair's friction and elasticity by multiplying the
shapes' values where we take the smaller friction and the larger
elasticity, so every pymunk shape gets the square root of the scene's
value: each pair then has μ 0.5 (or 0) and elasticity 1 (or 0), as ours.
Layers are ``pymunk.ShapeFilter``s with the same category and mask bits;
coins are sensors on the static body, counted by a ``begin`` callback
between the bullets' and the coins' collision types. One-way ledges have a
collision type of their own, and a ``pre_solve`` callback between crates and
them drops the contact (``arbiter.process_collision = False``) unless the
crate's bottom, where it was when the step began (its position less
velocity × dt: pymunk moves bodies before finding contacts), was above the
ledge's top (within ONE_WAY_SLOP px, the sinking pymunk's soft contacts
allow a crate under a pile): our rule, "stops only a body entirely outside
it when the step began".

    pip install -e .[bench]
    python -m benchmarks.scenes                               # every scene at N = 2,000
    python -m benchmarks.scenes --counts 200 2000 --discrete  # both pipelines, two sizes
    python -m benchmarks.scenes --scenes platformer shooter --counts 10000 --steps 10
    python -m benchmarks.scenes --no-pymunk                   # ours only
    python -m benchmarks.scenes --churn                       # a body replaced before each step

``--churn`` times, instead, what a game that makes and deletes entities pays: before each step
the oldest mover is deleted and a new one like it made where it was, with its velocity (a
bullet spent and one fired), in both engines; ms per step, the entities made and deleted
included.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from benchmarks import arena, level
from benchmarks.arena import STAGES, WALL, Result, best_of, stage_label, time_space, time_steps
from components import ALL, Collider, ColliderType, Physics, Shape, Side, Transform
from ecs import World, freeze_loaded

if TYPE_CHECKING:
    import pymunk

DT = 1.0 / 60.0
GRAVITY = 980.0

Box = tuple[float, float, float, float]  # left, top, width, height (px)

#: Layers of the shooter (category bits, as in the README's "Layers and masks").
BULLET, COIN = 2, 4

#: Platformer geometry (px): a tier's height, a spawn cell, the repeating
#: stretch of ledges, a ledge's thickness and a ramp's box.
TIER, CELL, STRETCH, LEDGE, RAMP_W, RAMP_H = 96.0, 24.0, 256.0, 8.0, 32.0, 24.0

#: How far (px) a crate's bottom may sit below a one-way ledge's top and still
#: be stopped by it in pymunk, whose contacts let a crate under a pile sink in.
ONE_WAY_SLOP = 4.0

#: pymunk collision types: movers, one-way ledges, coins.
MOVER_TYPE, ONE_WAY_TYPE, COIN_TYPE = 1, 2, 3


@dataclass(frozen=True)
class Piece:
    """A STATIC piece of level: its box, the shape in it and the faces that stop bodies."""

    box: Box
    shape: Shape = Shape.BOX
    sides: Side = Side.ALL


@dataclass(frozen=True)
class Mover:
    """A SOLID body with Physics: its box (top-left corner and size) and velocity (px/s)."""

    box: Box
    velocity: tuple[float, float]


@dataclass
class Layout:
    """One scene as both engines build it. ``gravity`` is px/s² downward;
    every mover has ``elasticity`` and ``friction`` (μ) and the layers
    ``category``/``mask``; ``coins`` are TRIGGERs on the COIN layer meeting
    only bullets; ``inside`` is the closed level's inside (a body whose
    centre leaves it escaped), None when the level is open."""

    gravity: float
    pieces: list[Piece]
    movers: list[Mover]
    elasticity: float
    friction: float
    inside: Box | None
    category: int = 1
    mask: int = ALL
    coins: list[Box] = field(default_factory=list)


@dataclass
class Outcome(Result):
    """One engine's round on a scene: ``Result`` (ms/step, escaped, stages),
    the coin pickups its begin handler heard (warm-up step included) and the
    movers' centres at the end (px)."""

    pickups: int = 0
    centres: list[tuple[float, float]] = field(default_factory=list)


def walls(width: float, height: float) -> list[Piece]:
    """A closed box's four walls, WALL px thick, around (0, 0)–(width, height)."""
    return [Piece(box) for box in ((-WALL, -WALL, width + 2 * WALL, WALL), (-WALL, height, width + 2 * WALL, WALL),
                                   (-WALL, 0, WALL, height), (width, 0, WALL, height))]


def clipped(box: Box, width: float) -> Box | None:
    """``box`` cut to 0 ≤ x ≤ width, or None when less than LEDGE px of it is left."""
    x, y, w, h = box
    left, right = max(x, 0.0), min(x + w, width)
    return (left, y, right - left, h) if right - left >= LEDGE else None


def tier_pieces(top: float, offset: float, width: float) -> list[Piece]:
    """One tier's ledges, their tops at ``top``: every STRETCH px from
    ``offset``, a solid ledge 128 px long with a ramp on each end (rising
    toward its middle), a 32 px gap, a one-way ledge 64 px long, a 32 px gap."""
    pieces = []
    x = offset - STRETCH
    while x < width:
        for box, sides in (((x, top, 128.0, LEDGE), Side.ALL), ((x + 160, top, 64.0, LEDGE), Side.TOP)):
            cut = clipped(box, width)
            if cut is not None:
                pieces.append(Piece(cut, sides=sides))
        for left, shape in ((x, Shape.TRIANGLE_BOTTOM_RIGHT), (x + 128 - RAMP_W, Shape.TRIANGLE_BOTTOM_LEFT)):
            if 0 <= left and left + RAMP_W <= width:
                pieces.append(Piece((left, top - RAMP_H, RAMP_W, RAMP_H), shape))
        x += STRETCH
    return pieces


def platformer(count: int, seed: int = 1) -> Layout:
    """N crates in two rows of CELL px cells above each tier's ledges, tiers
    TIER px apart (alternate tiers shifted half a stretch, so gaps don't line
    up), the box about square: width ≈ √(1,152·N) px, a multiple of STRETCH,
    which makes the tiers' height match it."""
    rng = random.Random(seed)
    width = STRETCH * max(2, math.ceil(math.sqrt(1152 * count) / STRETCH))
    columns = int(width // CELL)
    tiers = max(1, math.ceil(count / (2 * columns)))
    height = (tiers + 1) * TIER
    pieces = walls(width, height)
    movers: list[Mover] = []
    for tier in range(tiers):
        top = (tier + 1) * TIER
        pieces += tier_pieces(top, (tier % 2) * STRETCH / 2, width)
        for cell in range(min(2 * columns, count - len(movers))):
            row, column = divmod(cell, columns)
            # the cells span the tier from the ledge above's bottom to 40 px above this
            # tier's ledge, clear of its ramps' tops (RAMP_H above it)
            cell_x, cell_y = column * CELL, top - TIER + LEDGE + row * CELL
            w, h = rng.uniform(8, 16), rng.uniform(8, 16)
            corner = (cell_x + rng.uniform(0.5, CELL - 0.5 - w), cell_y + rng.uniform(0.5, CELL - 0.5 - h))
            movers.append(Mover((*corner, w, h), (rng.uniform(-100, 100), rng.uniform(0, 200))))
    return Layout(GRAVITY, pieces, movers, elasticity=0.0, friction=0.5, inside=(0.0, 0.0, width, height))


def overlaps(a: Box, b: Box, margin: float = 0.0) -> bool:
    """Whether two boxes overlap once ``b`` is grown by ``margin`` px on each side."""
    return (a[0] < b[0] + b[2] + margin and b[0] - margin < a[0] + a[2]
            and a[1] < b[1] + b[3] + margin and b[1] - margin < a[1] + a[3])


def shooter(count: int, seed: int = 1) -> Layout:
    """N bullets on a jittered grid of CELL px cells (none in an obstacle), a
    32×32 obstacle every 160 px each way, N/2 coins at random places clear of
    the obstacles; the arena's side grows with √N until the free cells hold N."""
    rng = random.Random(seed)
    per_row = math.ceil(math.sqrt(count))
    while True:
        side = per_row * CELL
        obstacles = [(x, y, 32.0, 32.0) for x in range_of(64.0, side - 32, 160.0)
                     for y in range_of(64.0, side - 32, 160.0)]
        cells = [(column * CELL, row * CELL) for row in range(per_row) for column in range(per_row)
                 if not any(overlaps((column * CELL, row * CELL, CELL, CELL), box) for box in obstacles)]
        if len(cells) >= count:
            break
        per_row += 1
    movers = []
    for x, y in cells[:count]:
        angle, speed = rng.uniform(0, 2 * math.pi), rng.uniform(600, 1500)
        corner = (x + rng.uniform(0.5, CELL - 4.5), y + rng.uniform(0.5, CELL - 4.5))
        movers.append(Mover((*corner, 4.0, 4.0), (speed * math.cos(angle), speed * math.sin(angle))))
    coins: list[Box] = []
    while len(coins) < count // 2:
        coin = (rng.uniform(0, side - 8), rng.uniform(0, side - 8), 8.0, 8.0)
        if not any(overlaps(coin, box, 2.0) for box in obstacles):
            coins.append(coin)
    pieces = walls(side, side) + [Piece(box) for box in obstacles]
    return Layout(0.0, pieces, movers, elasticity=1.0, friction=0.0, inside=(0.0, 0.0, side, side),
                  category=BULLET, mask=ALL & ~BULLET, coins=coins)


def range_of(start: float, stop: float, step: float) -> list[float]:
    """start, start + step, … while below ``stop``."""
    return [start + i * step for i in range(max(0, math.ceil((stop - start) / step)))]


def level_scene(tiles: int, crates: int) -> Layout:
    """``benchmarks.level``'s scene: its tiles and its 8×8 crates (μ 0.5, no
    bounce), open (crates fall out through its gaps)."""
    movers = [Mover((x, y, level.CRATE, level.CRATE), (vx, 0.0)) for x, y, vx in level.crates(crates)]
    return Layout(level.GRAVITY, [Piece(box) for box in level.level(tiles)], movers,
                  elasticity=0.0, friction=0.5, inside=None)


def arena_scene(count: int, speed: float = 200.0) -> Layout:
    """``benchmarks.arena``'s scene: 8×8 elastic boxes in a closed square."""
    scene = arena.make_scene(count, speed)
    movers = [Mover((x, y, arena.BOX, arena.BOX), v) for (x, y), v in zip(scene.corners, scene.velocities)]
    return Layout(0.0, [Piece(box) for box in arena.wall_boxes(scene.side)], movers,
                  elasticity=1.0, friction=0.0, inside=(0.0, 0.0, scene.side, scene.side))


def centre(box: Box) -> tuple[float, float]:
    """A box's centre (px)."""
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def escaped(centres: list[tuple[float, float]], inside: Box | None) -> int:
    """Bodies whose centre is outside ``inside`` (0 for an open level)."""
    if inside is None:
        return 0
    x0, y0, w, h = inside
    return sum(1 for x, y in centres if not (x0 <= x <= x0 + w and y0 <= y <= y0 + h))


def build_world(layout: Layout, continuous: bool) -> tuple[World, list[tuple[Transform, Box]], list[int]]:
    """The layout as a World, the movers' Transforms with their boxes, and
    the pickup count its begin handler keeps."""
    world = World(gravity=(0.0, layout.gravity), continuous=continuous)
    for piece in layout.pieces:
        x, y, w, h = piece.box
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC, shape=piece.shape,
                                                        sides=piece.sides))
    for x, y, w, h in layout.coins:
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.TRIGGER, category=COIN, mask=BULLET))
    movers = []
    for mover in layout.movers:
        transform = Transform(mover.box[:2])
        movers.append((transform, mover.box))
        world.create_entity(transform, Collider(mover.box[2:], category=layout.category, mask=layout.mask),
                            Physics(mover.velocity, elasticity=layout.elasticity, friction=layout.friction))
    pickups = [0]
    if layout.coins:
        def picked(_contact: object) -> None:
            pickups[0] += 1
        world.on_collision_begin(picked, between=(BULLET, COIN))
    return world, movers, pickups


def run_ours(layout: Layout, steps: int, continuous: bool = True) -> Outcome:
    """ms/step, escapes, stage times, pickups and end centres for this framework."""
    world, movers, pickups = build_world(layout, continuous)
    ms, stages = time_steps(world, steps)
    centres = [centre((t.position.x, t.position.y, box[2], box[3])) for t, box in movers]
    world.close()
    return Outcome(ms, escaped(centres, layout.inside), stages, pickups[0], centres)


def vertices(piece: Piece) -> list[tuple[float, float]]:
    """The corners of a piece's shape (px): its box, or the triangle holding
    the corner its name gives."""
    x, y, w, h = piece.box
    corners = {"top_left": (x, y), "top_right": (x + w, y), "bottom_left": (x, y + h), "bottom_right": (x + w, y + h)}
    if not piece.shape.triangle:
        return [corners["top_left"], corners["top_right"], corners["bottom_right"], corners["bottom_left"]]
    vertical, horizontal = piece.shape.value.removeprefix("triangle_").split("_")
    right_angle = f"{vertical}_{horizontal}"
    across = f"{'top' if vertical == 'bottom' else 'bottom'}_{horizontal}"  # along the vertical leg
    along = f"{vertical}_{'left' if horizontal == 'right' else 'right'}"  # along the horizontal leg
    return [corners[right_angle], corners[across], corners[along]]


def one_way_rule(arbiter: pymunk.Arbiter, _space: pymunk.Space, _data: object) -> None:
    """pre_solve between a mover and a one-way ledge (Side.TOP): keep the
    contact only if the mover's bottom was above the ledge's top when the
    step began (y grows downward; a shape's bb.top is its largest y)."""
    mover, ledge = arbiter.shapes
    assert mover.body is not None  # a shape in a space has a body
    bottom_then = mover.bb.top - mover.body.velocity.y * DT
    if bottom_then > ledge.bb.bottom + ONE_WAY_SLOP:
        arbiter.process_collision = False


def build_space(layout: Layout) -> tuple[pymunk.Space, list[pymunk.Body], list[int]]:
    """The layout as a pymunk Space (see the module docstring for how
    materials, layers, coins and one-way ledges are modelled), its movers'
    bodies, and the pickup count its begin callback keeps."""
    import pymunk

    space = pymunk.Space()
    space.gravity = (0.0, layout.gravity)
    friction, elasticity = math.sqrt(layout.friction), math.sqrt(layout.elasticity)
    for piece in layout.pieces:
        shape = pymunk.Poly(space.static_body, vertices(piece))
        shape.friction, shape.elasticity = friction, elasticity
        if piece.sides is not Side.ALL:
            shape.collision_type = ONE_WAY_TYPE
        space.add(shape)
    for coin in layout.coins:
        sensor = pymunk.Poly(space.static_body, vertices(Piece(coin)))
        sensor.sensor, sensor.collision_type = True, COIN_TYPE
        sensor.filter = pymunk.ShapeFilter(categories=COIN, mask=BULLET)
        space.add(sensor)
    bodies = []
    for mover in layout.movers:
        body = pymunk.Body(1.0, math.inf)
        body.position, body.velocity = centre(mover.box), mover.velocity
        shape = pymunk.Poly.create_box(body, mover.box[2:])
        shape.friction, shape.elasticity, shape.collision_type = friction, elasticity, MOVER_TYPE
        shape.filter = pymunk.ShapeFilter(categories=layout.category, mask=layout.mask)
        space.add(body, shape)
        bodies.append(body)
    pickups = [0]

    def picked(_arbiter: pymunk.Arbiter, _space: pymunk.Space, _data: object) -> None:
        pickups[0] += 1

    space.on_collision(MOVER_TYPE, ONE_WAY_TYPE, pre_solve=one_way_rule)
    space.on_collision(MOVER_TYPE, COIN_TYPE, begin=picked)
    return space, bodies, pickups


def run_pymunk(layout: Layout, steps: int) -> Outcome:
    """ms/step, escapes, pickups and end centres for pymunk on the same scene."""
    space, bodies, pickups = build_space(layout)
    ms = time_space(space, steps)
    centres = [(b.position.x, b.position.y) for b in bodies]
    return Outcome(ms, escaped(centres, layout.inside), {}, pickups[0], centres)


def churn_ours(layout: Layout, steps: int) -> Result:
    """ms/step of ours with one mover replaced before each step (``--churn``)."""
    world, _, _ = build_world(layout, True)
    world.step(DT)
    freeze_loaded()
    movers = sorted(entity for entity, _ in world.get_component(Physics))
    start = time.perf_counter()
    for _ in range(steps):
        spent = movers.pop(0)
        place, shape, body = (world.component_for_entity(spent, kind) for kind in (Transform, Collider, Physics))
        world.delete_entity(spent, immediate=True)
        movers.append(world.create_entity(Transform(place.position), Collider(shape.size, category=shape.category,
                                                                              mask=shape.mask),
                                          Physics(body.velocity, elasticity=body.elasticity, friction=body.friction)))
        world.step(DT)
    ms = (time.perf_counter() - start) / steps * 1000
    world.close()
    return Result(ms, 0)


def churn_pymunk(layout: Layout, steps: int) -> Result:
    """ms/step of pymunk with one mover replaced before each step, as ``churn_ours``."""
    import pymunk

    space, bodies, _ = build_space(layout)
    space.step(DT)
    freeze_loaded()
    sizes = [mover.box[2:] for mover in layout.movers]
    start = time.perf_counter()
    for _ in range(steps):
        spent, size = bodies.pop(0), sizes.pop(0)
        (shape,) = spent.shapes
        space.remove(spent, shape)
        body = pymunk.Body(1.0, math.inf)
        body.position, body.velocity = spent.position, spent.velocity
        made = pymunk.Poly.create_box(body, size)
        made.friction, made.elasticity, made.collision_type = shape.friction, shape.elasticity, shape.collision_type
        made.filter = shape.filter
        space.add(body, made)
        bodies.append(body)
        sizes.append(size)
        space.step(DT)
    return Result((time.perf_counter() - start) / steps * 1000, 0)


#: The scenes by name: each makes its Layout for N (the level ignores N).
SCENES: dict[str, Callable[[int, argparse.Namespace], Layout]] = {
    "platformer": lambda count, _args: platformer(count),
    "shooter": lambda count, _args: shooter(count),
    "level": lambda _count, args: level_scene(args.level_tiles, args.level_crates),
    "arena": lambda count, _args: arena_scene(count),
}


def measure(layout: Layout, steps: int, rounds: int, discrete: bool, pymunk: bool) -> dict[str, Outcome]:
    """Each engine's best of ``rounds`` rounds on one layout, rounds interleaved."""
    runs: dict[str, Callable[[], Outcome]] = {"swept": lambda: run_ours(layout, steps)}
    if pymunk:
        runs["pymunk"] = lambda: run_pymunk(layout, steps)
    if discrete:
        runs["discrete"] = lambda: run_ours(layout, steps, continuous=False)
    return best_of(runs, rounds)


def header(discrete: bool) -> str:
    """The table's heading row."""
    line = ("| scene | N | ours ms/step | pymunk ms/step | ours/pymunk | escaped ours / pymunk | "
            "pickups ours / pymunk | " + " | ".join(stage_label(name) for name in STAGES) + " |")
    return line + (" discrete ms/step | escaped discrete |" if discrete else "")


def both(ours: int, theirs: int | None) -> str:
    """A count each engine kept, ``ours / theirs`` ("–" for pymunk's when it didn't run)."""
    return f"{ours} / {'–' if theirs is None else theirs}"


def row(scene: str, layout: Layout, best: dict[str, Outcome]) -> str:
    """One table row: ours, pymunk, ratio, escapes, pickups, stage times (and the discrete pipeline)."""
    ours, theirs = best["swept"], best.get("pymunk")
    closed = layout.inside is not None
    escapes = both(ours.escaped, None if theirs is None else theirs.escaped) if closed else "– (open)"
    pickups = both(ours.pickups, None if theirs is None else theirs.pickups) if layout.coins else "–"
    versus = f"{theirs.ms:.2f} | {ours.ms / theirs.ms:.1f}x" if theirs is not None else "– | –"
    stages = " | ".join(f"{ours.stages[name]:.2f}" for name in STAGES)
    line = f"| {scene} | {len(layout.movers)} | {ours.ms:.2f} | {versus} | {escapes} | {pickups} | {stages} |"
    if "discrete" in best:
        line += f" {best['discrete'].ms:.2f} | {best['discrete'].escaped if closed else '–'} |"
    return line


def main(argv: list[str] | None = None) -> None:
    """Print one table: a row for each scene at each N."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[2000], help="N, bodies per scene (default 2000)")
    parser.add_argument("--scenes", nargs="+", choices=list(SCENES), default=list(SCENES))
    parser.add_argument("--steps", type=int, default=20, help="timed steps per round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per engine; the best is shown")
    parser.add_argument("--discrete", action="store_true", help="also time the discrete pipeline")
    parser.add_argument("--no-pymunk", action="store_true", help="time this framework only")
    parser.add_argument("--level-tiles", type=int, default=2500, help="the level scene's tiles (default 2500)")
    parser.add_argument("--level-crates", type=int, default=300, help="the level scene's crates (default 300)")
    parser.add_argument("--churn", action="store_true", help="time steps with a body replaced before each instead")
    args = parser.parse_args(argv)
    if min(args.counts) < 1 or args.steps < 1 or args.rounds < 1:
        parser.error("--counts, --steps and --rounds must be at least 1")
    if args.churn:
        print(f"\nscenes, a mover replaced before each step: best of {args.rounds} rounds of {args.steps} steps")
        print("| scene | N | ours ms/step | pymunk ms/step | ours/pymunk |\n|---|---|---|---|---|")
        for count in args.counts:
            for scene in dict.fromkeys(args.scenes):
                layout = SCENES[scene](count, args)
                runs: dict[str, Callable[[], Result]] = {"ours": lambda: churn_ours(layout, args.steps)}
                if not args.no_pymunk:
                    runs["pymunk"] = lambda: churn_pymunk(layout, args.steps)
                best = best_of(runs, args.rounds)
                theirs = best.get("pymunk")
                versus = "– | –" if theirs is None else f"{theirs.ms:.2f} | {best['ours'].ms / theirs.ms:.1f}x"
                print(f"| {scene} | {len(layout.movers)} | {best['ours'].ms:.2f} | {versus} |", flush=True)
        return
    print(f"\nscenes: dt=1/60, best of {args.rounds} rounds of {args.steps} steps; stages in ms/step; "
          f"level: {args.level_tiles} tiles, {args.level_crates} crates at every N")
    title = header(args.discrete)
    print(title)
    print("|---" * (title.count("|") - 1) + "|")
    done: set[str] = set()
    for count in args.counts:
        for scene in args.scenes:
            if scene == "level" and scene in done:
                continue  # the same scene at every N
            done.add(scene)
            layout = SCENES[scene](count, args)
            best = measure(layout, args.steps, args.rounds, args.discrete, not args.no_pymunk)
            print(row(scene, layout, best), flush=True)


if __name__ == "__main__":
    main()

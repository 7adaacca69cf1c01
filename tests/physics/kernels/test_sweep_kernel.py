"""The sweep stage's kernel (systems.physics._kernels.sweep), compiled and as plain Python.

The sweep kernel has one source, run compiled by numba or by the interpreter (its plain copy,
``systems.physics._kernels.plain``); the two must compute the same step, bit for bit: random
scenes with every feature the sweeps see are stepped through both in one process, and every
position, velocity and contact must be the same float after every step. (With
``ECS_ARCADE_JIT=0`` there is no compiled copy: those comparisons are skipped, the behaviour
tests run on the plain one.)
"""

import dataclasses
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from components import ALL, Collider, ColliderType, Physics, Shape, Side, Transform
from ecs import World
from helpers import counted
from systems.physics._kernels import background, jit
from systems.physics._kernels import cells as kernel_cells
from systems.physics._kernels import push as push_kernel
from systems.physics._kernels import sweep as sweep_kernel
from systems.physics._kernels import table as kernel_table
from systems.physics._kernels.plain import NAME, own, plain

compiled_only = pytest.mark.skipif(not jit.COMPILED, reason="no compiled copy to compare (ECS_ARCADE_JIT=0 or no numba)")

SIDE = 240.0  # px, inside of the arena
WALL = 60.0  # px, thicker than a body moves in a step at the speeds drawn here

scenes = st.fixed_dictionaries({
    "bodies": st.lists(st.tuples(
        st.floats(0, SIDE - 16), st.floats(0, SIDE - 16),  # top-left, px
        st.sampled_from([4.0, 8.0, 12.5]), st.sampled_from([4.0, 8.0, 16.0]),  # size, px
        st.floats(-3000, 3000), st.floats(-3000, 3000),  # velocity, px/s
        st.sampled_from(["solid", "solid", "solid", "static", "kinematic", "trigger", "coin", "lift", "ledge"]),
        # mass, elasticity (0: rows collided at once), friction
        st.floats(0.2, 5), st.just(0.0) | st.floats(0.05, 1), st.sampled_from([0.0, 0.3, 1.0]),
    ), min_size=2, max_size=40),
    "subdivisions": st.sampled_from([2, 4, 32]),
    "steps": st.integers(1, 12),
    "layers": st.booleans(),
    "gravity": st.sampled_from([(0.0, 0.0), (0.0, 980.0), (250.0, 700.0), (0.0, -400.0)]),  # px/s²
    "filtered": st.booleans(),
})

#: Layers a scene with ``layers`` puts its bodies on, in turn: (category, mask).
LAYERS = ((1, ALL), (2, ALL & ~2), (4, 1 | 4), (2, 1))


def build(scene: dict, compiled: bool) -> World:
    """The arena of ``scene`` in a new World, swept by the compiled kernel or its plain copy."""
    world = World(gravity=scene.get("gravity", (0.0, 0.0)))
    world.response.resolver.kernels = own() if compiled else plain()
    world.response.resolver.max_subdivisions = scene["subdivisions"]
    for x, y, w, h in ((-WALL, -WALL, SIDE + 2 * WALL, WALL), (-WALL, SIDE, SIDE + 2 * WALL, WALL),
                       (-WALL, 0, WALL, SIDE), (SIDE, 0, WALL, SIDE)):
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC))
    for i, (x, y, w, h, vx, vy, kind, mass, elasticity, friction) in enumerate(scene["bodies"]):
        category, mask = LAYERS[i % len(LAYERS)] if scene.get("layers") else (1, ALL)
        kind_of = {"static": ColliderType.STATIC, "lift": ColliderType.STATIC, "ledge": ColliderType.STATIC,
                   "trigger": ColliderType.TRIGGER, "coin": ColliderType.TRIGGER}
        # a ledge is one-way: its top face only, or another face in turn
        sides = (Side.TOP, Side.LEFT, Side.BOTTOM | Side.RIGHT)[i % 3] if kind == "ledge" else Side.ALL
        collider = Collider((w, h), type=kind_of.get(kind, ColliderType.SOLID), category=category, mask=mask,
                            sides=sides)
        if kind in ("static", "kinematic", "coin", "ledge"):  # kinematic: a SOLID without Physics, moved by user code
            world.create_entity(Transform((x, y)), collider)
        elif kind == "lift":  # a moving platform: riders landed on it are carried
            world.create_entity(Transform((x, y)), collider,
                                Physics((vx / 20, vy / 20), gravity_scale=0.0, elasticity=elasticity))
        else:  # a SOLID, or a TRIGGER that flies (a bullet's hit box)
            world.create_entity(Transform((x, y)), collider,
                                Physics((vx, vy), mass=mass, elasticity=elasticity, friction=friction))
    return world


def snapshot(world: World, asked: list[tuple[int, int]]) -> list[str]:
    """Every position, velocity and contact, the crushed bodies and the
    pairs the collision filter was ``asked`` about, as exact reprs."""
    rows = [repr(asked)]
    for entity, transform in sorted(world.get_component(Transform)):
        physics = world.try_component(entity, Physics)
        velocity = None if physics is None else (physics.velocity.x, physics.velocity.y)
        rows.append(repr((entity, transform.position.x, transform.position.y, velocity)))
    rows.append(repr(world.response.crushed))
    for c in world.contacts:
        rows.append(repr((c.a, c.b, c.normal.x, c.normal.y, c.depth, c.time, c.surface, c.point.x, c.point.y,
                          c.trigger)))
    return rows


def step_both(scene: dict, kinematic_speed: float = 0.0) -> tuple[list[list[str]], list[list[str]]]:
    """Snapshots after every step of ``scene`` through the plain copy and the compiled kernel."""
    runs = []
    for compiled in (False, True):
        world = build(scene, compiled)
        # user code moving its kinematic bodies and inner STATICs (doors, pistons)
        movers = [e for e, (_, c) in world.get_components(Transform, Collider)
                  if not world.has_component(e, Physics) and c.size.x < SIDE]
        shots = []
        asked: list[tuple[int, int]] = []
        if scene.get("filtered"):  # a rule masks can't express: pairs whose ids add up to a multiple of 3 pass
            world.collision_filter(lambda a, b: asked.append((a, b)) or (a + b) % 3 != 0)
        for _ in range(scene["steps"]):
            for entity in movers:
                world.component_for_entity(entity, Transform).position.x += kinematic_speed / 60
            world.step(1 / 60)
            shots.append(snapshot(world, asked))
        runs.append(shots)
    return runs[0], runs[1]


@pytest.fixture
def kernel_calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the calls of the kernels the stages run (unless a Sweeper is given its own)."""
    calls: Counter[str] = Counter()
    kernels = counted(background.kernels(), calls)
    monkeypatch.setattr(background, "kernels", lambda: kernels)
    return calls


@given(scenes)
# Found by the long profile: a box 1/64 px below the arena's top wall, pushed
# sideways into the left wall by a box that holds still, is tested against
# the top wall it doesn't touch (same gap before and now: the kernel once
# computed its entry time first and divided by zero).
@example({"bodies": [(0.0, 0.0, 4.0, 4.0, 0.0, 0.0, "solid", 1.0, 1.0, 0.0),
                     (0.0, 0.015625, 4.0, 4.0, 0.0, -1.0, "solid", 1.0, 1.0, 0.0)],
          "subdivisions": 2, "steps": 1})
# Found by the long profile: two boxes overlapping at rest and a flying TRIGGER
# on one of them; a pile is made of bodies a pile may push, never a TRIGGER.
@example({"bodies": [(177.0, 179.0, 4.0, 4.0, 0.0, 0.0, "solid", 1.0, 1.0, 0.0),
                     (180.0, 182.0, 4.0, 4.0, 0.0, 0.0, "solid", 1.0, 1.0, 0.0),
                     (180.0, 182.0, 4.0, 4.0, 0.0, 0.0, "trigger", 1.0, 1.0, 0.0)],
          "subdivisions": 2, "steps": 1})
@compiled_only
def test_the_compiled_kernel_matches_its_plain_copy_bit_for_bit(scene: dict) -> None:
    # Any difference, even in the last bit of one coordinate or a signed
    # zero, fails: one source, compiled or not, one result.
    plain_run, compiled_run = step_both(scene, kinematic_speed=90.0)
    assert compiled_run == plain_run


@compiled_only
def test_a_dense_fast_arena_matches_compiled_and_plain() -> None:
    # 120 boxes at up to 3,000 px/s in a 240 px arena: hundreds of impacts a
    # step, bodies frozen at the bound of 4, re-sweeps that leave their
    # filed boxes, pins against the walls.
    import random

    rng = random.Random(7)
    bodies = [(rng.uniform(0, SIDE - 16), rng.uniform(0, SIDE - 16), 8.0, 8.0, rng.uniform(-3000, 3000),
               rng.uniform(-3000, 3000), "solid", rng.choice([1.0, 3.0]), rng.choice([0.5, 1.0]),
               rng.choice([0.0, 0.3])) for _ in range(120)]
    scene = {"bodies": bodies, "subdivisions": 4, "steps": 20}
    plain_run, compiled_run = step_both(scene)
    assert compiled_run == plain_run


@pytest.mark.parametrize("change", ["nothing", "gravity", "circle", "trigger", "no_bounce", "layers", "one_way",
                                    "filter", "discrete"])
def test_every_step_runs_the_core_s_kernels(change: str, kernel_calls: Counter[str]) -> None:
    # Every feature of a scene goes through the one sweep kernel and the push-out kernel (the
    # discrete pipeline's run of the sweep kernel only sets up the run's grid and partners).
    world = World(gravity=(0, 980)) if change == "gravity" else World(continuous=change != "discrete")
    world.create_entity(Transform((0, 100)), Collider((200, 20), type=ColliderType.STATIC,
                                                       sides=Side.TOP if change == "one_way" else Side.ALL))
    collider = Collider((10, 10), shape=Shape.CIRCLE if change == "circle" else Shape.BOX,
                        type=ColliderType.TRIGGER if change == "trigger" else ColliderType.SOLID,
                        category=2 if change == "layers" else 1)
    ball = world.create_entity(Transform((50, 0)), collider,
                               Physics((0, 600), elasticity=0.0 if change == "no_bounce" else 0.5))
    if change == "filter":
        world.collision_filter(lambda a, b: True)
    for _ in range(20):
        world.step(1 / 60)
    assert kernel_calls["run_sweeps"] == kernel_calls["push_out"] == 20
    if change in ("nothing", "gravity", "no_bounce", "filter"):  # it landed on the floor
        assert world.component_for_entity(ball, Transform).position.y <= 90.0 + 1e-9


@pytest.mark.parametrize("compiled", [True, False])
def test_a_piston_crushes_a_box_against_a_wall(compiled: bool) -> None:
    # A STATIC moved by user code presses a box into the right wall (x = 240):
    # squeezed between two things that won't yield, the box is crushed.
    if compiled and not jit.COMPILED:
        pytest.skip("no compiled copy (ECS_ARCADE_JIT=0 or no numba)")
    scene = {"bodies": [(150.0, 100.0, 16.0, 16.0, 0.0, 0.0, "static", 1.0, 1.0, 0.0),
                        (200.0, 104.0, 8.0, 8.0, 300.0, 0.0, "solid", 1.0, 0.5, 0.0)],
             "subdivisions": 32, "steps": 40}
    world = build(scene, compiled)
    piston, box = 5, 6  # after the four walls
    crushed: list[int] = []
    world.on_crush(crushed.append)
    for _ in range(40):
        world.component_for_entity(piston, Transform).position.x += 4.0
        world.step(1 / 60)
    assert crushed and crushed[0] == box


@pytest.mark.parametrize("compiled", [True, False])
def test_a_body_the_sweeps_crush_stops_with_no_velocity_left(compiled: bool) -> None:
    # The piston above, 4 px a step, and the box at 300 px/s (5 px a step,
    # e = 0.5) into the right wall: from the step it is first crushed, in
    # the sweeps, it stops, velocity and all (kept, a velocity would still
    # drive it into what squeezes it, and under gravity grow every step).
    if compiled and not jit.COMPILED:
        pytest.skip("no compiled copy (ECS_ARCADE_JIT=0 or no numba)")
    world = build({"bodies": [(150.0, 100.0, 16.0, 16.0, 0.0, 0.0, "static", 1.0, 1.0, 0.0),
                              (200.0, 104.0, 8.0, 8.0, 300.0, 0.0, "solid", 1.0, 0.5, 0.0)],
                   "subdivisions": 32}, compiled)
    piston, box = 5, 6
    for _ in range(40):
        world.component_for_entity(piston, Transform).position.x += 4.0
        world.step(1 / 60)
        if box in world.response.crushed:
            break
    assert world.response.crushed == [box]
    assert world.component_for_entity(box, Physics).velocity == (0, 0)


@pytest.mark.parametrize("compiled", [True, False])
def test_a_body_crushed_after_a_swept_impact_is_centred_in_the_gap(compiled: bool) -> None:
    # A box spawned inside a wall (right face x = 42) and still moving into
    # it, nearer its right face (8.5 px) than its bottom (55 - 45.5 = 9.5 px):
    # the sweeps record that contact, push-out pushes the box out into a
    # gap of 6 px (another STATIC's left face is at x = 48), too narrow for
    # its 8 px, so it is crushed and its centre put midway between the faces:
    # x = (42 + 48) / 2 - 4 = 41. Centring must see the contact the sweeps
    # recorded as well as push-out's (else the box ends pressed on one face).
    if compiled and not jit.COMPILED:
        pytest.skip("no compiled copy (ECS_ARCADE_JIT=0 or no numba)")
    world = World()
    world.response.resolver.kernels = own() if compiled else plain()
    world.create_entity(Transform((2.0, 15.0)), Collider((40.0, 40.0), type=ColliderType.STATIC))
    world.create_entity(Transform((48.0, 42.0)), Collider((16.0, 8.0), type=ColliderType.STATIC))
    box = world.create_entity(Transform((33.5, 45.5)), Collider((8.0, 8.0)), Physics((-600.0, -30.0), elasticity=0.5))
    crushed: list[int] = []
    world.on_crush(crushed.append)
    world.step(1 / 60)
    assert crushed == [box]
    position = world.component_for_entity(box, Transform).position
    assert position.x == pytest.approx(41.0, abs=1e-9)
    assert position.y == pytest.approx(45.5 - 30.0 / 60, abs=1e-9)  # free along y: -30 px/s for 1/60 s
    assert sorted((c.a, c.b) for c in world.contacts) == [(1, box), (2, box)]


def test_a_pile_spawned_on_one_spot_spreads_the_same_compiled_and_not() -> None:
    # 30 boxes spawned within 2 px of one spot, beside 30 scattered ones:
    # the first steps relax a pile before push-out, the later ones don't.
    # Push-out after the kernel tests only the pairs the kernel found
    # overlapping, except after a pile was relaxed; both copies must end
    # the same, and the pile must spread.
    import random

    rng = random.Random(3)
    piled = [(100.0 + rng.uniform(0, 2), 100.0 + rng.uniform(0, 2), 8.0, 8.0, rng.uniform(-200, 200),
              rng.uniform(-200, 200), "solid", 1.0, 1.0, 0.0) for _ in range(30)]
    scattered = [(rng.uniform(0, SIDE - 16), rng.uniform(0, SIDE - 16), 8.0, 8.0, rng.uniform(-900, 900),
                  rng.uniform(-900, 900), "solid", 1.0, 0.5, 0.0) for _ in range(30)]
    scene = {"bodies": piled + scattered, "subdivisions": 32, "steps": 15}
    if jit.COMPILED:
        plain_run, compiled_run = step_both(scene)
        assert compiled_run == plain_run
    world = build(scene, jit.COMPILED)
    for _ in range(15):
        world.step(1 / 60)
    corners = [world.component_for_entity(e, Transform).position for e in range(5, 35)]
    overlapping = sum(1 for i, a in enumerate(corners) for b in corners[i + 1:]
                      if abs(a.x - b.x) < 8 - 0.01 and abs(a.y - b.y) < 8 - 0.01)
    assert overlapping < 30 * 29 / 2 / 10  # from every pair overlapping to few


def test_a_full_contact_table_is_retried_with_a_bigger_one() -> None:
    # Three rows of four 4 px boxes, 1 px apart, neighbours closing at
    # 2 × 60 px/s: each gap closes at t = 1 / 120 s, mid-step, so a step has
    # six impacts and six contacts. A table of 8 slots is kept at most half
    # full, so it holds 4 pairs: the fifth overflows, and the step must be
    # run again with a bigger table, to the same result.
    scene = {"bodies": [(x, y, 4.0, 4.0, v, 0.0, "solid", 1.0, 1.0, 0.0)
                        for y in (100.0, 106.0, 112.0) for x, v in ((98.0, 60.0), (103.0, -60.0),
                                                                     (108.0, 60.0), (113.0, -60.0))],
             "subdivisions": 4, "steps": 1}
    expected = build(scene, jit.COMPILED)
    expected.step(1 / 60)
    statuses = []
    real = own().run_sweeps

    def first_with_8_slots(*args):  # type: ignore[no-untyped-def]
        buffers, filing, last = args[-3:]
        if not statuses:  # (level geometry's filing, kept for the buffers given, is filed anew in these)
            capacity, _, rows = sweep_kernel.buffer_sizes(buffers)
            buffers = sweep_kernel.make_buffers(capacity, 8, rows)
        status, contacts, events, unasked = real(*args[:-3], buffers, filing, last)
        statuses.append(status.copy())
        return status, contacts, events, unasked

    world = build(scene, jit.COMPILED)
    world.response.resolver.kernels = dataclasses.replace(own(), run_sweeps=first_with_8_slots)
    world.step(1 / 60)
    assert len(statuses) == 2
    assert statuses[0][kernel_table.OVERFLOW] == kernel_table.FULL_TABLE
    assert statuses[0][kernel_table.CONTACTS] == 4 and statuses[0][kernel_table.OCCUPIED] <= 4
    assert statuses[1][kernel_table.OVERFLOW] == 0 and statuses[1][kernel_table.CONTACTS] == 6
    assert len(world.contacts) == 6
    assert snapshot(world, []) == snapshot(expected, [])


def test_the_last_step_s_contacts_taken_out_leave_the_contact_table_empty() -> None:
    # A run starts by emptying the hash table of contacts by pair: the last step's keys taken
    # out, last first, must leave no slot used, whatever chains their probes made.
    world = World(gravity=(0, 900))
    world.create_entity(Transform((0, 200)), Collider((400, 16), type=ColliderType.STATIC))
    for k in range(120):  # (a pile: crates on the floor and on each other, many contacts a step)
        world.create_entity(Transform((20 + 30 * (k % 12), 20 + 16 * (k // 12))), Collider((12, 12)), Physics())
    for _ in range(40):
        world.step(1 / 60)
    resolver = world.response.resolver
    counts = resolver._tables.filing(resolver._buffers)[3].copy()
    index, contacts = resolver._buffers[5].copy(), resolver._buffers[3]
    assert counts[sweep_kernel.KEPT_CONTACTS] == len(world.contacts) > 100
    assert (index[:, 2] != kernel_table.EMPTY).sum() == counts[sweep_kernel.KEPT_CONTACTS]
    plain()  # (the helpers as plain Python: the copy under plain.NAME where they compile)
    helpers = sys.modules[f"{NAME}.sweep"] if jit.COMPILED else sweep_kernel
    helpers._clear_index(index, contacts, counts)
    assert (index[:, 2] == kernel_table.EMPTY).all() and counts[sweep_kernel.KEPT_CONTACTS] == -1
    world.close()


def test_the_last_push_out_s_rounds_taken_out_leave_the_rounds_table_empty() -> None:
    # Push-out counts the rounds each pair was pushed in a hash table it empties at its start
    # by taking out the keys the last push-out logged, last first: none may be left, and a
    # step that pushes pairs apart (a crowd poured into one spot) logs every key it made.
    world = World(gravity=(0, 900))
    world.create_entity(Transform((0, 200)), Collider((400, 16), type=ColliderType.STATIC))
    for k in range(150):
        world.create_entity(Transform((150 + k % 5, 150 - k)), Collider((12, 12)), Physics())
    counts = []
    for _ in range(3):
        world.step(1 / 60)
        rounds, log = world.response.resolver._buffers[-1][0], world.response.resolver._buffers[-1][8]
        counts.append(int(log[1][0]))
        assert (rounds[:, 2] != kernel_table.EMPTY).sum() == counts[-1]
    assert max(counts) > 10
    plain()  # (the helpers as plain Python: the copy under plain.NAME where they compile)
    helpers = sys.modules[f"{NAME}.push"] if jit.COMPILED else push_kernel
    rounds, log = rounds.copy(), (log[0].copy(), log[1].copy())
    helpers._clear_rounds(rounds, log)
    assert (rounds[:, 2] == kernel_table.EMPTY).all() and log[1][0] == 0
    world.close()


@given(st.lists(st.integers(-2**40, 2**40), max_size=200), st.integers(0, 200))
def test_the_kernel_sorts_rows_in_place(values: list[int], count: int) -> None:
    # Heapsort of the first ``count``; the rest of the buffer is left alone.
    import numpy as np

    count = min(count, len(values))
    out = np.array(values, np.int64)
    kernel_cells._sort(out, count)
    assert out.tolist() == sorted(values[:count]) + values[count:]


@pytest.mark.parametrize("rows", [1, 3, 2004])
def test_an_aligned_table_starts_each_row_on_a_cache_line(rows):
    table = kernel_table.aligned_table(rows, kernel_table.FLOAT_COLUMNS)
    ints = kernel_table.aligned_table(rows, kernel_table.INT_COLUMNS, np.int64)
    for array in (table, ints):
        assert array.shape == (rows, array.shape[1]) and not array.any()
        assert all(array[row].ctypes.data % 64 == 0 for row in range(rows))


def test_a_table_of_rows_that_are_not_whole_cache_lines_is_refused():
    with pytest.raises(ValueError, match="columns"):
        kernel_table.aligned_table(4, 28)


def test_a_crate_on_a_level_far_larger_than_its_movers_lands_through_the_sweep_kernel(
        kernel_calls: Counter[str]) -> None:
    # One crate falls on a row of 400 16 px tiles, level geometry 400 times the movers: the
    # sweep kernel takes every step, and the crate comes to rest on the tiles' top, y = 100.
    world = World(gravity=(0, 980))
    for i in range(400):
        world.create_entity(Transform((16.0 * i, 100.0)), Collider((16, 16), type=ColliderType.STATIC))
    crate = world.create_entity(Transform((20.0, 80.0)), Collider((8, 8)), Physics())
    for _ in range(30):
        world.step(1 / 60)
    assert kernel_calls["run_sweeps"] >= 30  # (more where a buffer overflowed and the run was repeated)
    assert world.component_for_entity(crate, Transform).position.y == pytest.approx(92.0)  # resting on y = 100

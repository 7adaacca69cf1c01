"""The kernels' narrow phase (systems.physics._kernels.shapes) against the reference
(systems.physics._shapes.narrowphase): on random pairs of every two shapes, ``sweep``,
``overlap`` and ``contact_point`` give the same floats bit for bit (signed zeros too), or
both find nothing. And scenes of every shape step the same through the compiled sweep kernel
and its plain copy.

Coordinates are drawn mostly on a coarse grid, so that shapes often touch exactly, sit
flush, start inside each other or on one spot, and motions are often zero or along an
axis: the cases where a rounding or a tie-break would show.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygame import Vector2

from components import Collider, ColliderType, Physics, Shape, Transform
from ecs import World
from systems.physics._kernels import jit
from systems.physics._kernels import shapes as kernel
from systems.physics._kernels.plain import own, plain
from systems.physics._shapes import narrowphase, triangle
from systems.physics._shapes.geometry import TIES

SHAPES = [Shape(value) for value in kernel.SHAPE_VALUES]
ROUND = (Shape.BOX, Shape.CIRCLE)  # the shapes a moving body has (triangles are STATIC)

# px: on a grid of quarter px mostly (exact touching), anywhere sometimes.
coordinate = st.one_of(st.integers(-40, 40).map(lambda q: q / 4), st.floats(-10, 10, allow_subnormal=False))
length = st.one_of(st.integers(1, 48).map(lambda q: q / 4), st.floats(0.25, 12, allow_subnormal=False))
move = st.one_of(st.just(0.0), st.integers(-80, 80).map(lambda q: q / 4), st.floats(-20, 20, allow_subnormal=False))


@st.composite
def boxes(draw: Any, shape: Shape) -> tuple[float, float, float, float]:
    """A box for ``shape``: square for a circle."""
    width = draw(length)
    height = width if shape is Shape.CIRCLE else draw(length)
    return draw(coordinate), draw(coordinate), width, height


Pair = tuple[Shape, tuple[float, float, float, float], Shape, tuple[float, float, float, float]]


@st.composite
def pairs(draw: Any) -> Pair:
    """Two shapes, not both triangles, and their boxes."""
    shape_a = draw(st.sampled_from(SHAPES))
    shape_b = draw(st.sampled_from(ROUND if shape_a.triangle else SHAPES))
    if draw(st.booleans()):
        shape_a, shape_b = shape_b, shape_a
    return shape_a, draw(boxes(shape_a)), shape_b, draw(boxes(shape_b))


def same(kernel_floats: tuple[float, ...], reference: tuple[float, ...]) -> bool:
    """Bit for bit (signed zeros and all)."""
    return [float(v).hex() for v in kernel_floats] == [float(v).hex() for v in reference]


def code(shape: Shape) -> int:
    return kernel.SHAPE_VALUES.index(shape.value)


@settings(max_examples=1000, deadline=None)
@given(pairs(), move, move)
def test_sweep_matches_the_reference(pair: Pair, move_x: float, move_y: float) -> None:
    shape_a, box_a, shape_b, box_b = pair
    motion = (move_x, move_y) if shape_a is Shape.BOX and shape_b is Shape.BOX else Vector2(move_x, move_y)
    expected = narrowphase.sweep(box_a, shape_a, box_b, shape_b, motion)
    hit, time, nx, ny, surface = kernel.sweep(box_a, code(shape_a), box_b, code(shape_b), move_x, move_y)
    assert hit == (expected is not None)
    if expected is not None:
        assert same((time, nx, ny, surface), (expected.time, *expected.normal, expected.surface))


@settings(max_examples=1000, deadline=None)
@given(pairs(), move, move, move, move, st.integers(0, 255))
def test_overlap_matches_the_reference(pair: Pair, ax: float, ay: float, bx: float, by: float, tie: int) -> None:
    shape_a, box_a, shape_b, box_b = pair
    # (each moved to where it is from (ax, ay), (bx, by) away; the triangle keeps still or moves)
    before_a = (box_a[0] - ax, box_a[1] - ay, box_a[2], box_a[3])
    before_b = (box_b[0] - bx, box_b[1] - by, box_b[2], box_b[3])
    tie_x, tie_y = TIES[tie]
    expected = narrowphase.overlap(box_a, shape_a, before_a, box_b, shape_b, before_b, (tie_x, tie_y))
    found, nx, ny, depth, entry, surface = kernel.overlap(box_a, code(shape_a), before_a, box_b, code(shape_b),
                                                          before_b, tie_x, tie_y)
    assert found == (expected is not None)
    if expected is not None:
        assert same((nx, ny, depth, entry, surface), (*expected.normal, expected.depth, expected.entry,
                                                      expected.surface))


@settings(max_examples=1000, deadline=None)
@given(pairs(), st.integers(0, 255), st.integers(0, 7))
def test_contact_point_matches_the_reference(pair: Pair, tie: int, pick: int) -> None:
    shape_a, box_a, shape_b, box_b = pair
    # The normals contacts have: along an axis, a triangle's slope, or any unit direction.
    if pick < 4:
        normal = Vector2(((1, 0), (-1, 0), (0, 1), (0, -1))[pick])
    elif pick < 6 and (shape_a.triangle or shape_b.triangle):
        slope = shape_b if shape_b.triangle else shape_a
        tri = box_b if shape_b.triangle else box_a
        normal = -triangle.hypotenuse_normal(tri, narrowphase.CORNERS[slope])
        normal = normal if shape_b.triangle else -normal
    else:
        normal = Vector2(TIES[tie])
    expected = narrowphase.contact_point(box_a, shape_a, box_b, shape_b, normal)
    point = kernel.contact_point(box_a, code(shape_a), box_b, code(shape_b), normal.x, normal.y)
    assert same(point, tuple(expected))


# Cases hypothesis need not find: a circle whose centre starts inside a box or
# a triangle, discs on one spot, a box resting on a ramp's foot.
@pytest.mark.parametrize("case", [
    (Shape.CIRCLE, (4.0, 4.0, 4.0, 4.0), Shape.BOX, (0.0, 0.0, 16.0, 16.0), (0.0, 0.0)),
    (Shape.CIRCLE, (0.0, 0.0, 8.0, 8.0), Shape.CIRCLE, (0.0, 0.0, 8.0, 8.0), (0.0, 0.0)),
    (Shape.CIRCLE, (10.0, 10.0, 4.0, 4.0), Shape.TRIANGLE_BOTTOM_RIGHT, (0.0, 0.0, 16.0, 16.0), (3.0, -1.0)),
    (Shape.BOX, (-4.0, 8.0, 8.0, 8.0), Shape.TRIANGLE_BOTTOM_RIGHT, (0.0, 0.0, 16.0, 16.0), (4.0, 0.0)),
    (Shape.TRIANGLE_TOP_LEFT, (0.0, 0.0, 16.0, 8.0), Shape.CIRCLE, (2.0, 2.0, 4.0, 4.0), (-1.0, -1.0)),
])
def test_degenerate_pairs_match_the_reference(case: tuple[Any, ...]) -> None:
    shape_a, box_a, shape_b, box_b, (move_x, move_y) = case
    before_a = (box_a[0] - move_x, box_a[1] - move_y, box_a[2], box_a[3])
    expected = narrowphase.overlap(box_a, shape_a, before_a, box_b, shape_b, box_b, (0.0, 1.0))
    found = kernel.overlap(box_a, code(shape_a), before_a, box_b, code(shape_b), box_b, 0.0, 1.0)
    assert expected is not None and found[0]
    assert same(found[1:], (*expected.normal, expected.depth, expected.entry, expected.surface))
    hit = narrowphase.sweep(before_a, shape_a, box_b, shape_b, Vector2(move_x, move_y))
    swept = kernel.sweep(before_a, code(shape_a), box_b, code(shape_b), move_x, move_y)
    assert swept[0] == (hit is not None)
    if hit is not None:
        assert same(swept[1:], (hit.time, *hit.normal, hit.surface))


SIDE = 160.0  # px, inside of the arena

shaped_scenes = st.fixed_dictionaries({
    "bodies": st.lists(st.tuples(
        st.floats(0, SIDE - 16), st.floats(0, SIDE - 16),  # top-left, px
        st.sampled_from([4.0, 8.0, 12.5]), st.sampled_from([4.0, 8.0, 16.0]),  # size, px (a circle: the first)
        st.floats(-2000, 2000), st.floats(-2000, 2000),  # velocity, px/s
        st.sampled_from(SHAPES),  # a triangle is a STATIC
        st.sampled_from(["solid", "solid", "static", "kinematic"]),
        st.floats(0.2, 5), st.floats(0.05, 1), st.sampled_from([0.0, 0.3, 1.0]),  # mass, elasticity, friction
    ), min_size=2, max_size=24),
    "steps": st.integers(1, 10),
    "gravity": st.sampled_from([(0.0, 0.0), (0.0, 980.0), (250.0, 700.0)]),  # px/s²: ramps and slopes under load
})


def shaped_world(scene: dict[str, Any], compiled: bool) -> World:
    """An arena of boxes, circles and triangles, swept by the compiled kernel or its plain copy."""
    world = World(gravity=scene.get("gravity", (0.0, 0.0)))
    world.response.resolver.kernels = own() if compiled else plain()
    for x, y, w, h in ((-40, -40, SIDE + 80, 40), (-40, SIDE, SIDE + 80, 40), (-40, 0, 40, SIDE), (SIDE, 0, 40, SIDE)):
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC))
    for x, y, w, h, vx, vy, shape, kind, mass, elasticity, friction in scene["bodies"]:
        size = (w, w) if shape is Shape.CIRCLE else (w, h)
        if kind == "static" or shape.triangle:
            world.create_entity(Transform((x, y)), Collider(size, type=ColliderType.STATIC, shape=shape))
        elif kind == "kinematic":
            world.create_entity(Transform((x, y)), Collider(size, shape=shape))
        else:
            world.create_entity(Transform((x, y)), Collider(size, shape=shape),
                                Physics((vx, vy), mass=mass, elasticity=elasticity, friction=friction))
    return world


def shots(scene: dict[str, Any], compiled: bool) -> list[str]:
    """Every position, velocity and contact after each step, as exact reprs."""
    world, rows = shaped_world(scene, compiled), []
    for _ in range(scene["steps"]):
        world.step(1 / 60)
        for entity, transform in sorted(world.get_component(Transform)):
            physics = world.try_component(entity, Physics)
            velocity = None if physics is None else (physics.velocity.x, physics.velocity.y)
            rows.append(repr((entity, transform.position.x, transform.position.y, velocity)))
        rows.append(repr(sorted(world.response.crushed)))
        rows += [repr((c.a, c.b, c.normal.x, c.normal.y, c.depth, c.time, c.surface, c.point.x, c.point.y))
                 for c in world.contacts]
    return rows


@pytest.mark.skipif(not jit.COMPILED, reason="no compiled copy to compare (ECS_ARCADE_JIT=0 or no numba)")
@settings(max_examples=60, deadline=None)
@given(shaped_scenes)
def test_shaped_scenes_step_the_same_compiled_and_as_plain_python(scene: dict[str, Any]) -> None:
    assert shots(scene, True) == shots(scene, False)

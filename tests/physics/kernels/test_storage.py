"""Vector2s read and written where pygame keeps them (``systems.physics._kernels.storage``).

What the compiled reads give must be what Python reads, bit for bit (NaN, infinities and
-0.0 included: the step's check looks for them); a write must land in the vectors picked and
nowhere else; and a step must come out the same whether the stages read through the kernels
or from Python (where the layout doesn't hold, or the kernels are not compiled).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
import math
import pickle
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygame import Vector2

from benchmarks import scenes
from components import Collider, Physics, Transform
from ecs import World
from systems.physics._bodies.table import VectorList, read_vectors
from systems.physics._kernels import background, jit, storage as kernel_storage
from systems.physics._kernels.plain import Kernels, own, plain
from systems.physics._stages import storage

compiled_only = pytest.mark.skipif(not jit.COMPILED, reason="the kernels are not compiled (ECS_ARCADE_JIT or no numba)")
doubles = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True)


def bits(values: np.ndarray) -> list[int]:
    return np.ascontiguousarray(values, float).view(np.int64).ravel().tolist()


def bits_of(vectors: list[Vector2]) -> list[int]:
    return [struct.unpack("<q", struct.pack("<d", value))[0] for vector in vectors for value in vector]


def compiled() -> Kernels:
    """The compiled kernels (compiled, or loaded from the cache, here)."""
    background.compile_here()
    return own()


def test_this_pygame_keeps_a_vector2_where_the_kernels_read_it() -> None:
    # The layout every read below relies on; if a pygame release changed it, the stages would
    # read from Python (correct, slower) and this test says so.
    assert kernel_storage.layout_holds()


@compiled_only
def test_the_compiled_kernels_read_vectors_through_it() -> None:
    assert compiled().gather is not None and plain().gather is None


@compiled_only
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(doubles, doubles), min_size=storage.FEW, max_size=storage.FEW + 40))
def test_a_compiled_read_gives_the_bits_python_reads(pairs: list[tuple[float, float]]) -> None:
    vectors = VectorList(Vector2(x, y) for x, y in pairs)
    if pairs:
        vectors[0].x = -0.0  # (changed in place, as Movement changes them)
    read = storage.gathered(vectors, compiled())
    assert read is not None and read.shape == (len(pairs), 2)
    assert bits(read) == bits(read_vectors(vectors)) == bits_of(vectors)


@compiled_only
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(doubles, doubles), min_size=storage.FEW, max_size=storage.FEW + 30), st.data())
def test_a_compiled_write_sets_the_vectors_picked_and_no_other(pairs: list[tuple[float, float]],
                                                                data: st.DataObject) -> None:
    vectors = VectorList(Vector2(x, y) for x, y in pairs)
    before = bits_of(vectors)
    picks = sorted(data.draw(st.sets(st.integers(0, len(pairs) - 1))))
    values = np.array(data.draw(st.lists(st.tuples(doubles, doubles), min_size=len(picks), max_size=len(picks))),
                      float).reshape(-1, 2)
    storage.write(vectors, np.array(picks, np.int64), values, compiled())
    expected = list(before)
    for pick, row in zip(picks, values.tolist()):
        expected[2 * pick:2 * pick + 2] = bits(np.array(row))
    assert bits_of(vectors) == expected


def test_a_write_from_python_sets_the_same_vectors() -> None:
    vectors = VectorList([Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)])
    storage.write(vectors, np.array([2, 0], np.int64), np.array([[-0.0, math.inf], [7.5, -8.25]]), plain())
    assert [tuple(v) for v in vectors] == [(7.5, -8.25), (3, 4), (-0.0, math.inf)]
    assert math.copysign(1.0, vectors[2].x) == -1.0
    assert storage.gathered(vectors, plain()) is None  # (the plain copy reads nothing itself)


@compiled_only
def test_a_plain_list_or_a_short_one_is_read_from_python() -> None:
    # Only a VectorList keeps its addresses, so only one is read by address; and only a long one.
    many = [Vector2(k, -k) for k in range(storage.FEW)]
    assert storage.gathered(many, compiled()) is None
    assert storage.gathered(VectorList(many[1:]), compiled()) is None
    assert storage.gathered(VectorList(many), compiled()) is not None
    assert bits(storage.read(many)) == bits(np.array([[k, -k] for k in range(storage.FEW)], float))


@compiled_only
@pytest.mark.parametrize("scene", ["platformer", "shooter", "arena"])
def test_a_step_is_the_same_read_through_the_kernels_or_from_python(monkeypatch: pytest.MonkeyPatch,
                                                                    scene: str) -> None:
    compiled()
    layouts = {"platformer": lambda: scenes.platformer(150), "shooter": lambda: scenes.shooter(150),
               "arena": lambda: scenes.arena_scene(150)}
    results = []
    from_python = dataclasses.replace(own(), coordinates=None, gather=None, scatter=None, move_bodies=None)
    for kernels in (own(), from_python):
        monkeypatch.setattr(background, "kernels", lambda kernels=kernels: kernels)
        world, _, _ = scenes.build_world(layouts[scene](), True)
        for _ in range(40):
            world.step(1 / 60)
        results.append((bits_of([transform.position for _, transform in world.get_component(Transform)]),
                        bits_of([body.velocity for _, body in world.get_component(Physics)])))
        world.close()
    assert results[0] == results[1]


@pytest.mark.parametrize("picks, values", [(["end"], [[1.0, 2.0]]), ([-1], [[1.0, 2.0]]), ([0, 1], [[1.0, 2.0]]),
                                           ([0], [[1.0, 2.0, 3.0]])])
def test_a_write_outside_the_list_is_refused_before_anything_is_written(picks: list[object],
                                                                        values: list[list[float]]) -> None:
    # The compiled write goes to memory by address: a pick past the list, or values of the wrong
    # shape, must be an error, never a write somewhere else.
    for count in (3, storage.FEW):  # from Python, and by address
        vectors = VectorList([Vector2(k, k) for k in range(count)])
        rows = np.array([count if pick == "end" else pick for pick in picks], np.int64)
        for kernels in (compiled() if jit.COMPILED else plain(), plain()):
            with pytest.raises((IndexError, ValueError)):
                storage.write(vectors, rows, np.array(values, float), kernels)
            assert [tuple(v) for v in vectors] == [(k, k) for k in range(count)]


@pytest.mark.parametrize("duplicate", [copy.copy, copy.deepcopy, lambda vectors: pickle.loads(pickle.dumps(vectors))])
def test_a_copied_vector_list_never_keeps_the_addresses_of_the_original(
        duplicate: Callable[[VectorList], VectorList]) -> None:
    # A copy holds other vectors (or will be read again): the addresses must be found anew.
    vectors = VectorList([Vector2(1, 2), Vector2(3, 4)])
    vectors.addresses = np.array([1, 2], np.int64)  # (as a read would leave them)
    copied = duplicate(vectors)
    assert isinstance(copied, VectorList) and copied.addresses is None
    assert [tuple(v) for v in copied] == [(1, 2), (3, 4)]


@compiled_only
def test_vectors_assigned_between_steps_are_the_ones_read_and_written_by_address() -> None:
    # Enough bodies for the compiled reads and writes (storage.FEW). An assigned vector is a new
    # object: the lists, and the addresses found for them, are made again, so the step moves the
    # new vectors, and the old ones, no longer the components', are left alone.
    compiled()
    world = World()
    bodies = [world.create_entity(Transform((40.0 * k, 0.0)), Collider((8, 8)), Physics((60.0, 0.0)))
              for k in range(storage.FEW + 6)]
    world.step(1 / 60)
    chosen = bodies[7]
    transform, physics = world.component_for_entity(chosen, Transform), world.component_for_entity(chosen, Physics)
    old_position, old_velocity = transform.position, physics.velocity
    transform.position = (1000.0, 500.0)
    physics.velocity = (-120.0, 30.0)
    world.step(1 / 60)
    assert tuple(transform.position) == (1000.0 - 120.0 / 60, 500.0 + 30.0 / 60)  # x += v·dt
    assert tuple(old_position) == (40.0 * 7 + 1.0, 0.0) and tuple(old_velocity) == (60.0, 0.0)
    assert world.component_for_entity(bodies[8], Transform).position.x == 40.0 * 8 + 2.0
    world.close()


def addresses_of(vectors: list[Vector2]) -> np.ndarray:
    """Where each vector's coordinates are (the compiled ``coordinates``)."""
    found = np.empty(len(vectors), np.int64)
    compiled().coordinates(np.fromiter(map(id, vectors), np.int64, len(vectors)), kernel_storage.HEADER, found)
    return found


@compiled_only
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(doubles, doubles, doubles, doubles), min_size=1, max_size=40), st.data())
def test_a_compiled_comparison_finds_exactly_the_rows_whose_vectors_differ_from_what_was_seen(
        rows: list[tuple[float, float, float, float]], data: st.DataObject) -> None:
    # Two vectors a row, compared where they are against what was seen: a row differs when any
    # coordinate is not == its seen value (so a NaN always differs and -0.0 equals 0.0), as the
    # comparison from Python decides.
    vectors = [VectorList(Vector2(row[2 * k], row[2 * k + 1]) for row in rows) for k in range(2)]
    seen = np.array(rows, float)
    for index in sorted(data.draw(st.sets(st.integers(0, len(rows) - 1)))):
        seen[index, data.draw(st.integers(0, 3))] = data.draw(doubles)
    columns = np.column_stack([addresses_of(listed) for listed in vectors])
    out = np.empty(len(rows), np.int64)
    count = compiled().differing(columns, seen, out)
    now = np.array([[*a, *b] for a, b in zip(*vectors)], float)
    assert out[:count].tolist() == [i for i in range(len(rows)) if any(now[i] != seen[i])]


@compiled_only
@pytest.mark.parametrize("seen_shape, out_size", [((3, 3), 3), ((2, 4), 3), ((3, 4), 2)])
def test_a_comparison_of_the_wrong_shapes_is_refused(seen_shape: tuple[int, int], out_size: int) -> None:
    # It reads memory by address and writes rows to ``out``: every shape is checked first.
    vectors = VectorList([Vector2(k, k) for k in range(3)])
    columns = np.column_stack([addresses_of(vectors)] * 2)
    with pytest.raises(ValueError, match="differing"):
        compiled().differing(columns, np.zeros(seen_shape), np.empty(out_size, np.int64))


@compiled_only
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(doubles | st.sampled_from([0.0, -0.0, 1e-300]), doubles), min_size=1, max_size=40),
       st.data())
def test_the_compiled_check_of_vectors_where_they_are_decides_as_python_does(
        pairs: list[tuple[float, float]], data: st.DataObject) -> None:
    # The step's check: every coordinate finite, and those of the sizes (from ``sizes_from``
    # on) above 0, read where they are; the answer of the definition, for NaN, infinities, 0,
    # -0.0 and the smallest doubles too.
    vectors = VectorList(Vector2(x, y) for x, y in pairs)
    sizes_from = data.draw(st.integers(0, len(pairs)))
    expected = (all(math.isfinite(x) and math.isfinite(y) for x, y in pairs)
                and all(x > 0.0 and y > 0.0 for x, y in pairs[sizes_from:]))
    assert compiled().all_good(addresses_of(vectors), sizes_from) is expected

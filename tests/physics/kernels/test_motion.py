"""Movement's rule over every body at once (``systems.physics._kernels.motion.move_bodies``).

The kernel writes to the components' vectors by address: it must write the bits the rule
gives for one body from Python (``advance``, which Movement calls where the kernel doesn't
run), each vector it is given and no other, and refuse arrays that don't match
before writing anything. (That the rule is semi-implicit Euler with the caps, to the bit of
pygame's own vector arithmetic, is ``tests/physics/test_movement.py``.)
"""

from __future__ import annotations

import importlib
import math
import struct
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygame import Vector2

from components import limits
from systems.physics._bodies.table import VectorList
from systems.physics._kernels import background, jit, motion
from systems.physics._kernels import storage as kernel_storage
from systems.physics._kernels.plain import NAME, Kernels, own, plain
from systems.physics._stages import move

compiled_only = pytest.mark.skipif(not jit.COMPILED, reason="the kernels are not compiled (ECS_ARCADE_JIT or no numba)")
places = st.one_of(st.floats(-1e4, 1e4), st.sampled_from([0.0, -0.0]))
speeds = st.one_of(st.floats(-1e4, 1e4), st.floats(-limits.MAX_SPEED, limits.MAX_SPEED), st.sampled_from([0.0, -0.0]))
caps = st.one_of(st.just(math.inf), st.floats(1e-9, 3e3), st.floats(1.0, limits.MAX_SPEED))
bodies = st.lists(st.tuples(places, places, speeds, speeds, st.sampled_from([0.0, 1.0, -2.5]), caps,
                            st.sampled_from([0.0, 0.25, 4.0])), min_size=1, max_size=40)
pulls = st.sampled_from([0.0, -0.0, 15.0, -5.0, 1e6])


def bits(vectors: list[Vector2]) -> list[int]:
    return [struct.unpack("<q", struct.pack("<d", value))[0] for vector in vectors for value in vector]


def compiled() -> Kernels:
    """The compiled kernels (compiled, or loaded from the cache, here)."""
    background.compile_here()
    return own()


def coordinates(vectors: list[Vector2]) -> np.ndarray:
    """Where each vector's coordinates are (``storage.coordinates``, in the copy imported here)."""
    found = np.empty(len(vectors), np.int64)
    kernel_storage.coordinates(np.array([id(vector) for vector in vectors], np.int64), kernel_storage.HEADER, found)
    return found


def lists(specs: list[tuple[float, ...]]) -> tuple[VectorList, VectorList, VectorList]:
    return (VectorList(Vector2(x, y) for x, y, *_ in specs), VectorList(Vector2(7.0, 7.0) for _ in specs),
            VectorList(Vector2(vx, vy) for _, _, vx, vy, *_ in specs))


@compiled_only
@settings(max_examples=60, deadline=None)
@given(bodies, st.booleans(), pulls, pulls, st.sampled_from([1 / 60, 1 / 120, 0.25, 1.0]))
def test_the_kernel_writes_what_the_rule_gives_each_body_from_python(specs: list[tuple[float, ...]], pulled: bool,
                                                                      gx: float, gy: float, dt: float) -> None:
    kernels, rule = compiled(), move._advance
    if kernels.move_bodies is None:
        pytest.skip("pygame keeps its vectors otherwise here (storage.layout_holds): no kernel to compare")
    positions, previous, velocities = lists(specs)
    scales, caps = np.array([spec[4] for spec in specs]), np.array([spec[5] for spec in specs])
    dampings = np.array([spec[6] for spec in specs])
    located = [coordinates(vectors) for vectors in (positions, previous, velocities)]
    kernels.move_bodies(*located, scales, dampings, caps, pulled, gx, gy, limits.MAX_SPEED, dt)
    expected = [rule(x, y, vx, vy, pulled, gx, gy, scale, damping, cap, limits.MAX_SPEED, dt)
                for x, y, vx, vy, scale, cap, damping in specs]
    assert bits(positions) == bits([Vector2(x, y) for x, y, _, _ in expected])
    assert bits(velocities) == bits([Vector2(vx, vy) for _, _, vx, vy in expected])
    assert bits(previous) == bits([Vector2(x, y) for x, y, *_ in specs])


def copies() -> list[ModuleType]:
    """The motion module of each copy of the kernels here: the plain one (its loads and stores
    through ctypes), and the compiled one where it is."""
    plain()  # (loads the plain copy beside a compiled one)
    return [importlib.import_module(f"{NAME}.motion") if jit.COMPILED else motion] + ([motion] if jit.COMPILED else [])


@pytest.mark.parametrize("short", ["previous", "velocities", "scales", "dampings", "caps"])
def test_arrays_of_other_lengths_are_refused_before_anything_is_written(short: str) -> None:
    # By address: a shorter array would send the loop past its end, into other memory.
    if not kernel_storage.layout_holds():
        pytest.skip("pygame keeps its vectors otherwise here (storage.layout_holds): no addresses to pass")
    for module in copies():
        positions, previous, velocities = lists([(1.0, 2.0, 3.0, 4.0), (5.0, 6.0, 7.0, 8.0)])
        arrays = {"positions": coordinates(positions), "previous": coordinates(previous),
                  "velocities": coordinates(velocities)}
        arrays |= {"scales": np.ones(2), "dampings": np.zeros(2), "caps": np.full(2, math.inf)}
        arrays[short] = arrays[short][:1]
        with pytest.raises(ValueError, match="one position"):
            module.move_bodies(*arrays.values(), True, 0.0, 10.0, limits.MAX_SPEED, 0.5)
        assert [tuple(v) for v in positions] == [(1.0, 2.0), (5.0, 6.0)]
        assert [tuple(v) for v in velocities] == [(3.0, 4.0), (7.0, 8.0)]
        assert [tuple(v) for v in previous] == [(7.0, 7.0), (7.0, 7.0)]


def test_the_rule_calls_no_other_kernel_function() -> None:
    # The move stage runs advance's Python original where numba compiled it, which would call
    # the compiled dispatcher of any kernel function it called, at a dispatcher's cost a call.
    rule = move._advance
    assert not hasattr(rule, "py_func") and rule.__code__ is getattr(motion.advance, "py_func", motion.advance).__code__
    assert set(rule.__code__.co_names) <= {"math", "sqrt", "hypot", "inf"}


def test_the_rule_from_python_is_semi_implicit_euler_with_the_cap() -> None:
    # One body at 300 px/s falling under 600 px/s² for 0.5 s: v = 300 + 300, then x += v·dt.
    advance = move._advance
    assert advance(0.0, 10.0, 0.0, 300.0, True, 0.0, 300.0, 1.0, 0.0, math.inf, limits.MAX_SPEED, 0.5) == (
        0.0, 10.0 + 600.0 * 0.5, 0.0, 600.0)
    # Damped by 2/s over 0.5 s after gravity: 600 px/s times 1 / (1 + 2·0.5) = 300 px/s.
    assert advance(0.0, 10.0, 0.0, 300.0, True, 0.0, 300.0, 1.0, 2.0, math.inf, limits.MAX_SPEED, 0.5) == (
        0.0, 10.0 + 300.0 * 0.5, 0.0, 300.0)
    # Capped at 500 px/s along its 3-4-5 velocity, then moved by it.
    assert advance(0.0, 0.0, 600.0, 800.0, False, 0.0, 0.0, 1.0, 0.0, 500.0, limits.MAX_SPEED, 1.0) == (
        300.0, 400.0, 300.0, 400.0)

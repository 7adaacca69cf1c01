"""The kernels compiled in the background: the game runs meanwhile on their plain copy, and
nothing changes when the compiled copy takes over.

The switch is driven here by a stand-in for the background process (``FakeProcess``), which
"finishes" at a chosen step; the kernels themselves come from the disk cache, or are compiled
in this process on a cold one (as the first test of a fresh checkout compiles them anyway).
Bit-identity across the switch is what the README promises of the two modes, compiled or not:
a step's results do not depend on which code computed them, so neither on when that changed.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import logging
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Collider, ColliderType, Physics, Transform
from ecs import Game, World
from helpers import counted
from systems.physics._kernels import background, jit
from systems.physics._kernels.plain import own, plain

compiled_only = pytest.mark.skipif(not jit.COMPILED, reason="the kernels are not compiled (ECS_ARCADE_JIT or no numba)")


class FakeProcess:
    """Stands in for the background compile: still running until ``finish`` sets its exit status."""

    def __init__(self) -> None:
        self.code: int | None = None

    def poll(self) -> int | None:
        return self.code

    def wait(self, timeout: float | None = None) -> int:
        assert self.code is not None, "the test forgot to finish the fake process"
        return self.code


@pytest.fixture
def state() -> Iterator[None]:
    """The module's switch, restored after the test (it is the process's)."""
    saved = (background._state, background._process, background._errors, background._began)
    yield
    background._state, background._process, background._errors, background._began = saved


def compiling(process: FakeProcess) -> None:
    """Put the switch where ``start`` leaves it on a cold cache, with ``process`` compiling."""
    background._state = background._State.COMPILING
    background._process = process  # type: ignore[assignment]
    background._errors = io.BytesIO(b"")  # type: ignore[assignment]


def arena(seed: int, n: int = 24) -> World:
    """Elastic boxes in a walled 200 px room, no gravity: the compiled broad phase and sweep both run."""
    world = World()
    for x, y, w, h in ((-20, -20, 240, 20), (-20, 200, 240, 20), (-20, 0, 20, 200), (200, 0, 20, 200)):
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC))
    rng = np.random.default_rng(seed)
    for x, y, vx, vy in zip(rng.uniform(0, 190, n), rng.uniform(0, 190, n), rng.uniform(-900, 900, n),
                            rng.uniform(-900, 900, n)):
        world.create_entity(Transform((float(x), float(y))), Collider((8, 8)),
                            Physics((float(vx), float(vy)), elasticity=1.0))
    return world


def crates(seed: int, n: int = 24, tiles: int = 1) -> World:
    """Crates with the default materials falling on a floor of ``tiles`` tiles: gravity, rows, friction."""
    world = World(gravity=(0, 900))
    for k in range(tiles):
        world.create_entity(Transform((-50 + 400 / tiles * k, 200)), Collider((400 / tiles, 20),
                                                                               type=ColliderType.STATIC))
    rng = np.random.default_rng(seed)
    for x, y in zip(rng.uniform(0, 280, n), rng.uniform(0, 150, n)):
        world.create_entity(Transform((float(x), float(y))), Collider((10, 10)), Physics(friction=0.5))
    return world


def state_of(world: World) -> list[tuple[int, str, str, str, str]]:
    """Every body's position and velocity (px, px/s) as exact floats."""
    rows = []
    for entity, transform in sorted(world.get_component(Transform)):
        physics = world.try_component(entity, Physics)
        vx, vy = (physics.velocity.x, physics.velocity.y) if physics is not None else (0.0, 0.0)
        rows.append((entity, transform.position.x.hex(), transform.position.y.hex(), vx.hex(), vy.hex()))
    return rows


def counting(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[str], Counter[str]]:
    """Count the calls the stages make to each copy of the kernels: (compiled, plain)."""
    compiled: Counter[str] = Counter()
    python: Counter[str] = Counter()
    compiled_copy, plain_copy = counted(own(), compiled), counted(plain(), python)
    monkeypatch.setattr(background, "own", lambda: compiled_copy)
    monkeypatch.setattr(background, "plain", lambda: plain_copy)
    return compiled, python


def run(make: Callable[[int], World], seed: int, steps: int, switch_at: int | None) -> list[Any]:
    """The scene's state after each of ``steps`` steps, the background compile finishing before
    step ``switch_at`` (None: never, the plain copy throughout)."""
    background._load()  # what the background process leaves: the kernels in the disk cache (compiled here if cold)
    process = FakeProcess()
    compiling(process)
    world = make(seed)
    states = []
    for step in range(steps):
        if step == switch_at:
            process.code = 0
        world.step(1 / 60)
        states.append(state_of(world))
    world.close()
    return states


@compiled_only
@pytest.mark.parametrize("make", [arena, crates])
def test_the_kernels_taking_over_mid_run_changes_no_bit(state: None, monkeypatch: pytest.MonkeyPatch,
                                                        caplog: pytest.LogCaptureFixture,
                                                        make: Callable[[int], World]) -> None:
    compiled, python = counting(monkeypatch)
    reference = run(make, 3, 40, None)
    assert not compiled and python["run_sweeps"] >= 40  # while compiling, the plain copy runs
    python.clear()
    with caplog.at_level(logging.WARNING, logger="ecs_arcade"):
        switched = run(make, 3, 40, 15)
    assert background.kernels().compiled
    assert compiled["grid_pairs"] == 40 - 15  # from the switch on, every step's pairs come from the kernel
    assert compiled["run_sweeps"] >= 40 - 15  # (more when a buffer overflowed and the run was repeated)
    assert 15 <= python["run_sweeps"] and not python["grid_pairs"]  # (the grid finds pairs before it)
    assert switched == reference
    lines = [record.getMessage() for record in caplog.records if record.name == "ecs_arcade"]
    assert len(lines) == 1 and "compiled" in lines[0] and "now run" in lines[0]


@compiled_only
@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 12), st.integers(2, 16))
def test_the_step_the_kernels_take_over_at_changes_no_bit(seed: int, switch_at: int, n: int) -> None:
    saved = (background._state, background._process, background._errors)
    try:
        reference = run(lambda s: arena(s, n), seed, 12, None)
        assert run(lambda s: arena(s, n), seed, 12, switch_at) == reference
    finally:
        background._state, background._process, background._errors = saved


@compiled_only
def test_the_entry_points_hold_every_call_the_stages_make(state: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # The background process compiles ``entry_points``; a call of other argument types would
    # compile again at the switch, freezing the game: every type the stages pass must be listed.
    background._state = background._State.READY
    listed: dict[Any, set[tuple[Any, ...]]] = {}
    for kernel, signature in background.entry_points():
        listed.setdefault(kernel, set()).add(signature)
    seen: dict[Any, set[tuple[Any, ...]]] = {kernel: set() for kernel in listed}

    def recorded(kernel: Any) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            seen[kernel].add(tuple(kernel.typeof_pyval(value) for value in args))
            return kernel(*args)
        return call

    copy = own()
    names = [field.name for field in dataclasses.fields(copy)  # every entry point this copy has
             if field.name != "compiled" and getattr(copy, field.name) is not None]
    recording = dataclasses.replace(copy, **{name: recorded(getattr(copy, name)) for name in names})
    monkeypatch.setattr(background, "own", lambda: recording)
    for make in (arena, crates, functools.partial(crates, tiles=80)):
        world = make(5, 80)  # (past storage.FEW: the storage kernels run too; with 80 tiles, on level geometry)
        for _ in range(10):
            world.step(1 / 60)
            world.collision.bodies[5]  # (a Body made, as handlers and queries make them: its partners)
        world.close()
    for kernel, signatures in seen.items():
        assert signatures, f"{kernel.py_func.__name__} was never called: the scenes don't test it"
        assert signatures <= listed[kernel], f"{kernel.py_func.__name__}: {signatures - listed[kernel]} not listed"


def test_kernels_not_compiled_run_as_plain_python_from_the_start() -> None:
    # ECS_ARCADE_JIT=0 (or no numba): the package's own copy is plain Python, nothing compiles.
    if not jit.COMPILED:
        assert background.kernels() is own() is plain() and not own().compiled
        background.start()
        assert not background.compiling() and background.kernels() is own()
    else:
        assert own().compiled and not plain().compiled


@compiled_only
def test_a_failed_background_compile_leaves_the_plain_copy_with_one_line(state: None,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    process = FakeProcess()
    compiling(process)
    background._errors = io.BytesIO(b"Traceback (most recent call last):\n  ...\nMemoryError: out of memory\n")
    assert background.kernels() is plain() and background.compiling()
    process.code = 1
    with caplog.at_level(logging.WARNING, logger="ecs_arcade"):
        assert background.kernels() is plain()
        assert background.kernels() is plain() and not background.compiling()
    lines = [record.getMessage() for record in caplog.records if record.name == "ecs_arcade"]
    assert len(lines) == 1 and "exit status 1" in lines[0] and "MemoryError: out of memory" in lines[0]


@compiled_only
def test_start_on_a_cold_cache_compiles_in_a_process_of_its_own_and_says_so(
        state: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    started: list[list[str]] = []

    def popen(command: list[str], **options: Any) -> FakeProcess:
        started.append(command)
        return FakeProcess()

    background._state = background._State.UNKNOWN
    monkeypatch.setattr(background, "cached", lambda: False)
    monkeypatch.setattr(subprocess, "Popen", popen)
    with caplog.at_level(logging.WARNING, logger="ecs_arcade"):
        background.start()
        background.start()  # once per process
    assert started == [[sys.executable, "-m", "systems.physics._kernels"]]
    assert background.compiling() and background.kernels() is plain()
    lines = [record.getMessage() for record in caplog.records if record.name == "ecs_arcade"]
    assert len(lines) == 1 and "in the background" in lines[0]


@compiled_only
def test_a_background_compile_that_cached_nothing_leaves_the_plain_copy(state: None, monkeypatch: pytest.MonkeyPatch,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    # (a folder numba cannot write to, and no other cache folder): loading would compile here.
    process = FakeProcess()
    compiling(process)
    background._errors = io.BytesIO(b"NumbaWarning: Cannot cache compiled function as it uses ...\n")
    monkeypatch.setattr(background, "cached", lambda: False)
    process.code = 0
    with caplog.at_level(logging.WARNING, logger="ecs_arcade"):
        assert background.kernels() is plain() and not background.compiling()
    lines = [record.getMessage() for record in caplog.records if record.name == "ecs_arcade"]
    assert len(lines) == 1 and "could not cache" in lines[0] and "Cannot cache" in lines[0]


@compiled_only
def test_a_process_that_cannot_start_leaves_the_compile_to_the_first_step(
        state: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def popen(*args: Any, **options: Any) -> None:
        raise OSError(2, "No such file or directory")

    background._state = background._State.UNKNOWN
    monkeypatch.setattr(background, "cached", lambda: False)
    monkeypatch.setattr(subprocess, "Popen", popen)
    with caplog.at_level(logging.WARNING, logger="ecs_arcade"):
        background.start()
    assert background._state is background._State.UNKNOWN and not background.compiling()
    lines = [record.getMessage() for record in caplog.records if record.name == "ecs_arcade"]
    assert len(lines) == 1 and "could not start" in lines[0] and "No such file" in lines[0]


@compiled_only
def test_start_on_a_warm_cache_starts_nothing(state: None, monkeypatch: pytest.MonkeyPatch) -> None:
    def popen(*args: Any, **options: Any) -> None:
        raise AssertionError("nothing to compile: no process")

    background._state = background._State.UNKNOWN
    monkeypatch.setattr(background, "cached", lambda: True)
    monkeypatch.setattr(subprocess, "Popen", popen)
    background.start()
    assert not background.compiling() and background.kernels().compiled


def corner(game: Game) -> pygame.Surface:
    """The bottom-left corner of the screen, where the notice goes (one frame drawn)."""
    game.run(frames=1)
    size = game.screen.get_size()
    return game.screen.subsurface((0, size[1] - 40, size[0] // 2, 40)).copy()


def test_a_window_shows_a_line_while_the_kernels_compile_and_not_after(state: None) -> None:
    process = FakeProcess()
    compiling(process)
    game = Game(size=(320, 240), headless=True)
    assert not game.show_notices  # headless: the console line only, screenshots unchanged
    quiet = pygame.image.tobytes(corner(game), "RGB")
    game.show_notices = True  # as a window has it
    shown = pygame.image.tobytes(corner(game), "RGB")
    assert shown != quiet
    process.code = 0
    if jit.COMPILED:
        background._load()  # (in the cache, as the background process leaves them)
        game.run(frames=1)  # the switch: the kernels are loaded
        assert pygame.image.tobytes(corner(game), "RGB") == quiet
    game.close()


def test_a_cold_compile_splits_the_entry_points_between_two_processes() -> None:
    # Each entry point is compiled by one of the two processes (the sweep kernel, about half the
    # work, apart): none twice, none left for the end.
    names = {kernel.py_func.__name__ for kernel, _ in background.entry_points()} if jit.COMPILED else None
    first, second = map(set, background._PARTS)
    assert first and second and not first & second
    if names is not None:
        assert first | second == names

"""The kernels compiled in the background: the game runs meanwhile, and nothing changes when they take over.

The switch is driven here by a stand-in for the background process (``FakeProcess``), which
"finishes" at a chosen step; the kernels themselves come from the disk cache, or are compiled
in this process on a cold one (as the first test of a fresh checkout compiles them anyway).
Bit-identity across the switch is what the README promises of the two modes, compiled or not:
a step's results do not depend on which code computed them, so neither on when that changed.
"""

from __future__ import annotations

import io
import logging
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Collider, ColliderType, Physics, Transform
from ecs import Game, World
from systems.physics._kernels import background, boxes, jit, pairs, sweep
from systems.physics._stages import collide, found

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


def crates(seed: int, n: int = 24) -> World:
    """Crates with the default materials falling on a floor (gravity: the compiled broad phase, Python sweep)."""
    world = World(gravity=(0, 900))
    world.create_entity(Transform((-50, 200)), Collider((400, 20), type=ColliderType.STATIC))
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


def counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the calls the stages make to each kernel (through to the kernel)."""
    calls = {"grid_pairs": 0, "run_sweeps": 0}

    def counted(name: str, kernel: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            calls[name] += 1
            return kernel(*args)
        return call

    monkeypatch.setattr(collide, "grid_pairs", counted("grid_pairs", pairs.grid_pairs))
    monkeypatch.setattr(sweep, "run_sweeps", counted("run_sweeps", sweep.run_sweeps))
    return calls


def run(make: Callable[[int], World], seed: int, steps: int, switch_at: int | None) -> list[Any]:
    """The scene's state after each of ``steps`` steps, the background compile finishing before
    step ``switch_at`` (None: never, the reference throughout)."""
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
    calls = counting(monkeypatch)
    reference = run(make, 3, 40, None)
    assert calls == {"grid_pairs": 0, "run_sweeps": 0}  # while compiling, no kernel is called
    with caplog.at_level(logging.WARNING, logger="ecs_arcade"):
        switched = run(make, 3, 40, 15)
    assert background.use_kernels()
    assert calls["grid_pairs"] == 40 - 15  # from the switch on, every step's pairs come from the kernel
    if make is arena:
        assert calls["run_sweeps"] >= 40 - 15  # (more when a buffer overflowed and the run was repeated)
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

    monkeypatch.setattr(collide, "grid_pairs", recorded(pairs.grid_pairs))
    monkeypatch.setattr(found, "group_by_row", recorded(pairs.group_by_row))
    monkeypatch.setattr(sweep, "run_sweeps", recorded(sweep.run_sweeps))
    monkeypatch.setattr(boxes, "overlapping", recorded(boxes.overlapping))
    for make in (arena, crates):
        world = make(5)
        for _ in range(10):
            world.step(1 / 60)
        world.close()
    for kernel, signatures in seen.items():
        assert signatures, f"{kernel.py_func.__name__} was never called: the scenes don't test it"
        assert signatures <= listed[kernel], f"{kernel.py_func.__name__}: {signatures - listed[kernel]} not listed"


def test_the_kernels_are_never_used_when_off_and_always_when_plain_python() -> None:
    # ECS_ARCADE_JIT=0 (or no numba) runs the reference, ECS_ARCADE_JIT=python the kernels' source.
    if not jit.ENABLED:
        assert not background.use_kernels()
        background.start()
        assert not background.use_kernels() and not background.compiling()
    elif not jit.COMPILED:
        assert background.use_kernels()


@compiled_only
def test_a_failed_background_compile_leaves_the_reference_with_one_line(state: None,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    process = FakeProcess()
    compiling(process)
    background._errors = io.BytesIO(b"Traceback (most recent call last):\n  ...\nMemoryError: out of memory\n")
    assert not background.use_kernels() and background.compiling()
    process.code = 1
    with caplog.at_level(logging.WARNING, logger="ecs_arcade"):
        assert not background.use_kernels()
        assert not background.use_kernels() and not background.compiling()
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
    assert started == [[sys.executable, "-m", "systems.physics._kernels.background"]]
    assert background.compiling() and not background.use_kernels()
    lines = [record.getMessage() for record in caplog.records if record.name == "ecs_arcade"]
    assert len(lines) == 1 and "in the background" in lines[0]


@compiled_only
def test_a_background_compile_that_cached_nothing_leaves_the_reference(state: None, monkeypatch: pytest.MonkeyPatch,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    # (a folder numba cannot write to, and no other cache folder): loading would compile here.
    process = FakeProcess()
    compiling(process)
    background._errors = io.BytesIO(b"NumbaWarning: Cannot cache compiled function as it uses ...\n")
    monkeypatch.setattr(background, "cached", lambda: False)
    process.code = 0
    with caplog.at_level(logging.WARNING, logger="ecs_arcade"):
        assert not background.use_kernels() and not background.compiling()
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
    assert not background.compiling() and background.use_kernels()


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

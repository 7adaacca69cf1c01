"""Small scene builders shared by the tests."""

from __future__ import annotations

import dataclasses
import os
import struct
import subprocess
import sys
import wave
from collections import Counter
from pathlib import Path
from typing import Any

from pygame import Vector2

from components import Collider, ColliderType, Physics, Side, Transform
from ecs import World
from systems.physics._kernels.plain import Kernels

DT = 1.0 / 60.0
ROOT = Path(__file__).resolve().parents[1]


def box(world: World, x: float, y: float, w: float = 10.0, h: float | None = None, **physics) -> int:
    """A SOLID box with Physics at (x, y)."""
    return world.create_entity(
        Transform((x, y)), Collider((w, w if h is None else h)), Physics(**physics)
    )


def wall(world: World, x: float, y: float, w: float, h: float, **physics) -> int:
    """A STATIC box; with keyword arguments it also gets a Physics surface."""
    components: list = [Transform((x, y)), Collider((w, h), type=ColliderType.STATIC)]
    if physics:
        components.append(Physics(**physics))
    return world.create_entity(*components)


def tile_room(world: World, rng: Any, ledges: int) -> None:
    """A 320 × 240 px room walled with separate 16 px STATIC tiles, and ``ledges`` 32 × 8 STATIC
    ledges placed by ``rng`` (a ``random.Random``), every other one one-way (``Side.TOP``)."""
    for x in range(0, 320, 16):
        for y in (-16, 240):
            world.create_entity(Transform((x, y)), Collider((16, 16), type=ColliderType.STATIC))
    for y in range(0, 240, 16):
        for x in (-16, 320):
            world.create_entity(Transform((x, y)), Collider((16, 16), type=ColliderType.STATIC))
    for k in range(ledges):
        world.create_entity(Transform((rng.uniform(0, 280), rng.uniform(60, 220))),
                            Collider((32, 8), type=ColliderType.STATIC, sides=Side.TOP if k % 2 else Side.ALL))


def position(world: World, entity: int):
    return world.component_for_entity(entity, Transform).position


def velocity(world: World, entity: int):
    return world.component_for_entity(entity, Physics).velocity


def run(world: World, steps: int, dt: float = DT) -> None:
    for _ in range(steps):
        world.step(dt)


def kinetic_energy(world: World, entities: list[int]) -> float:
    """Σ ½·m·v² over ``entities``."""
    return sum(0.5 * world.component_for_entity(e, Physics).mass * velocity(world, e).length_squared()
               for e in entities)


def momentum(world: World, entities: list[int]):
    """Σ m·v over ``entities``, a Vector2."""
    total = Vector2()
    for e in entities:
        total += velocity(world, e) * world.component_for_entity(e, Physics).mass
    return total


def write_wav(path: Path, seconds: float = 0.05, rate: int = 22050) -> Path:
    """A short mono 16-bit sawtooth WAV file at ``path`` (``seconds`` long, ``rate`` Hz)."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"".join(struct.pack("<h", (i % 50) * 400 - 10000) for i in range(int(seconds * rate))))
    return path


def state_lines(world: World) -> list[str]:
    """Every body's position and velocity, and every field of the step's contacts, as exact
    hex floats: what two runs of one scene must agree on, bit for bit."""
    lines = [f"{e} {t.position.x.hex()} {t.position.y.hex()} {p.velocity.x.hex()} {p.velocity.y.hex()}"
             for e, (t, p) in sorted(world.get_components(Transform, Physics))]
    lines += [f"{c.a} {c.b} {c.normal.x.hex()} {c.normal.y.hex()} {c.depth.hex()} {c.time.hex()} "
              f"{c.surface.hex()} {c.point.x.hex()} {c.point.y.hex()} {c.trigger}" for c in world.contacts]
    return lines


def mode_environment(mode: str) -> dict[str, str]:
    """The environment of a headless Python process whose kernels run in ``mode``
    (``ECS_ARCADE_JIT``, read at import), with the project and these helpers importable."""
    return {**os.environ, "ECS_ARCADE_JIT": mode, "PYTHONPATH": os.pathsep.join((str(ROOT), str(ROOT / "tests"))),
            "SDL_VIDEODRIVER": "dummy"}


def run_in_mode(script: str, mode: str, *args: str) -> list[str]:
    """The lines the Python ``script`` prints, run with ``args`` in a process of its own whose
    kernels run in ``mode``."""
    done = subprocess.run([sys.executable, "-c", script, *args], env=mode_environment(mode), capture_output=True,
                          text=True, check=True, cwd=ROOT)
    return done.stdout.splitlines()


def counted(kernels: Kernels, calls: Counter[str]) -> Kernels:
    """``kernels`` with every call of an entry point counted in ``calls``, by its name."""

    def count(name: str) -> Any:
        kernel = getattr(kernels, name)

        def call(*args: Any) -> Any:
            calls[name] += 1
            return kernel(*args)

        return call

    names = ("grid_pairs", "group_by_row", "level_cells", "run_sweeps", "push_out", "crush", "snap_to_ground")
    return dataclasses.replace(kernels, **{name: count(name) for name in names})

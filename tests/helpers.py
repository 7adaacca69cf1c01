"""Small scene builders shared by the tests."""

from __future__ import annotations

import struct
import wave
from pathlib import Path

from pygame import Vector2

from components import Collider, ColliderType, Physics, Transform
from ecs import World

DT = 1.0 / 60.0


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

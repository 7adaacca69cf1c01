"""Emitter: a source of particles (sparks, dust, smoke) kept as arrays, not entities."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray
from pygame import Vector2

from components import limits
from components._checks import (
    Check, Validated, VectorLike, any_bool, finite_number, finite_vector, non_negative_size, number_in,
    rgb, vector_within, whole_number,
)

__all__ = ["Emitter", "Particles"]

Color = tuple[int, int, int]

#: The arrays of one emitter's particles, one entry per particle.
COLUMNS = ("x", "y", "vx", "vy", "age", "life")


class Particles:
    """The live particles of one Emitter, as arrays (px, px/s, s) in
    ``columns``: position ``x``, ``y``, velocity ``vx``, ``vy``, ``age`` and
    ``life`` (the age it dies at). The first ``count`` entries are live. ``rng`` draws every new
    particle's spread (numpy's PCG64 from the Emitter's seed); ``carry`` is
    the fraction of a particle the rate has owed since the last emission."""

    def __init__(self, capacity: int, seed: int) -> None:
        self.columns: dict[str, NDArray[np.float64]] = {name: np.zeros(capacity) for name in COLUMNS}
        self.count = 0
        self.carry = 0.0
        self.rng = np.random.Generator(np.random.PCG64(seed))

    def live(self, name: str) -> NDArray[np.float64]:
        """The live part of column ``name`` (one of ``COLUMNS``): a view, writes go through."""
        return self.columns[name][:self.count]

    # A snapshot keeps the live particles, not the empty rest of the arrays.
    def __getstate__(self) -> dict[str, Any]:
        return {"capacity": len(self.columns["x"]), "count": self.count, "carry": self.carry, "rng": self.rng,
                "live": {name: column[:self.count].copy() for name, column in self.columns.items()}}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.count, self.carry, self.rng = state["count"], state["carry"], state["rng"]
        self.columns = {name: np.zeros(state["capacity"]) for name in COLUMNS}
        for name, live in state["live"].items():
            self.columns[name][:self.count] = live

    def reseed(self, seed: int) -> None:
        """Draw from ``seed`` from now on."""
        self.rng = np.random.Generator(np.random.PCG64(seed))

    def resize(self, capacity: int) -> None:
        """Make room for ``capacity`` particles (the live ones beyond it are dropped)."""
        self.count = min(self.count, capacity)
        for name, column in self.columns.items():
            grown = np.zeros(capacity)
            grown[:self.count] = column[:self.count]
            self.columns[name] = grown


def _pair(low: float, high: float, unit: str = "") -> Check:
    """A check for a (first, last) pair of finite numbers in [low, high]."""
    within = number_in(low, high, unit)

    def check(name: str, value: object) -> tuple[float, float]:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = (value, value)
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise ValueError(f"{name} must be a number or a (first, last) pair of numbers, got {value!r}")
        return (within(f"{name}[0]", value[0]), within(f"{name}[1]", value[1]))
    return check


def _spread(low: float, high: float, unit: str) -> Check:
    """A (least, most) pair for a random draw: least <= most."""
    pair = _pair(low, high, unit)

    def check(name: str, value: object) -> tuple[float, float]:
        least, most = pair(name, value)
        if least > most:
            raise ValueError(f"{name} must be (least, most) with least <= most, got {value!r}")
        return (least, most)
    return check


def _colors(name: str, value: object) -> tuple[Color, Color]:
    """One (r, g, b) colour for a whole life, or a (first, last) pair of them."""
    if isinstance(value, (tuple, list)) and len(value) == 3 and all(isinstance(c, int) for c in value):
        color = rgb(name, value)
        return (color, color)
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ValueError(f"{name} must be an (r, g, b) colour or a (first, last) pair of them, got {value!r}")
    return (rgb(f"{name}[0]", value[0]), rgb(f"{name}[1]", value[1]))


def _bounce(name: str, value: object) -> float | None:
    return None if value is None else number_in(0.0, 1.0)(name, value)


def _capacity(name: str, value: object) -> int:
    count = whole_number(name, value, 1)
    if count > limits.MAX_PARTICLES:
        raise ValueError(f"{name} must be an int in [1, {limits.MAX_PARTICLES:,}], got {value!r}")
    return count


def _layer(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an int, got {value!r}")
    return value


@dataclass(slots=True)
class Emitter(Validated):
    """Emits particles from the entity's Transform; the ParticleSystem moves
    them on the fixed step and the particle renderer draws them through the
    camera, each a square that changes colour, opacity and size over its life.

    - ``rate``: particles per second, in [0, 1e6]; ``burst``: particles
      emitted at the next step at once (then set back to 0); ``active``:
      False stops the rate (a burst still fires; live ones play out).
    - ``lifetime``: (least, most) s, each particle's drawn uniformly, in (0, 1e6].
    - ``speed``: (least, most) px/s; ``angle``: degrees clockwise on screen
      from +x (-90 is up); ``spread``: degrees around ``angle``, in [0, 360].
    - ``gravity``: (x, y) px/s² on the particles (not the World's).
    - ``colors``, ``alpha`` ([0, 1]), ``size`` (px, [0, 1e4]): (first, last)
      over a particle's life, linearly; one value holds all life long.
    - ``offset``: px from the Transform to the centre of the spawn box;
      ``area``: its (w, h) px, 0 a point.
    - ``bounce``: None, particles go through everything; else they bounce off
      STATIC colliders' boxes keeping this share of their speed, in [0, 1].
    - ``capacity``: most live particles, in [1, 1,000,000]: new ones beyond it are
      not emitted. ``layer``: emitters are drawn in layer order, over the
      sprites. ``seed``: the random draws (same seed, same particles; set
      anew, the draws start over from it).
    - ``particles``: the live particles (``Particles``), kept by the system.
    """

    rate: float = 0.0
    burst: int = 0
    lifetime: tuple[float, float] = (1.0, 1.0)
    speed: tuple[float, float] = (50.0, 100.0)
    angle: float = -90.0
    spread: float = 360.0
    gravity: Vector2 = field(default_factory=Vector2)
    colors: tuple[Color, Color] = ((255, 255, 255), (255, 255, 255))
    alpha: tuple[float, float] = (1.0, 0.0)
    size: tuple[float, float] = (2.0, 2.0)
    offset: Vector2 = field(default_factory=Vector2)
    area: Vector2 = field(default_factory=Vector2)
    bounce: float | None = None
    capacity: int = 10_000
    layer: int = 0
    active: bool = True
    seed: int = 0
    particles: Particles = field(init=False)

    _checks: ClassVar[dict[str, Check]] = {
        "rate": number_in(0.0, 1e6, " particles/s"),
        "burst": lambda name, value: whole_number(name, value, 0),
        "lifetime": _spread(1e-6, limits.MAX_FRAME_DURATION, " s"),
        "speed": _spread(0.0, limits.MAX_SPEED, " px/s"),
        "angle": finite_number,
        "spread": number_in(0.0, 360.0, " degrees"),
        "gravity": vector_within(limits.MAX_ACCELERATION, " px/s²"),
        "colors": _colors,
        "alpha": _pair(0.0, 1.0),
        "size": _pair(0.0, 1e4, " px"),
        "offset": finite_vector,
        "area": non_negative_size,
        "bounce": _bounce,
        "capacity": _capacity,
        "layer": _layer,
        "active": any_bool,
        "seed": lambda name, value: whole_number(name, value, 0),
    }

    if TYPE_CHECKING:  # the dataclass's __init__ as type checkers should see it: pairs are converted
        def __init__(self, rate: float = ..., burst: int = ..., lifetime: float | tuple[float, float] = ...,
                     speed: float | tuple[float, float] = ..., angle: float = ..., spread: float = ...,
                     gravity: VectorLike = ..., colors: Color | tuple[Color, Color] = ...,
                     alpha: float | tuple[float, float] = ..., size: float | tuple[float, float] = ...,
                     offset: VectorLike = ..., area: VectorLike = ..., bounce: float | None = ...,
                     capacity: int = ..., layer: int = ..., active: bool = ..., seed: int = ...) -> None: ...

    def __post_init__(self) -> None:
        self.particles = Particles(self.capacity, self.seed)

    def _agree(self, name: str, value: Any) -> None:
        particles = getattr(self, "particles", None)
        if name == "capacity" and particles is not None:
            particles.resize(value)
        if name == "seed" and particles is not None:  # a new seed starts its draws over
            particles.reseed(value)

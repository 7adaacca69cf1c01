"""Physics: velocity and the material an entity is made of."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from pygame import Vector2

from components import limits
from components._checks import Check, Validated, VectorLike, at_least, finite_number, number_in, positive, vector_within

__all__ = ["Physics"]


def _positive(name: str, value: object) -> float:
    return positive(name, finite_number(name, value))


def _non_negative(name: str, value: object) -> float:
    return at_least(name, finite_number(name, value), 0.0)


def _speed_cap(name: str, value: object) -> float | None:
    """None, or a speed in (0, ``limits.MAX_SPEED``]: a larger cap would let
    a body past the world's (Movement applies the body's cap in its place)."""
    if value is None:
        return None
    speed = _positive(name, value)
    if speed > limits.MAX_SPEED:
        raise ValueError(f"{name} must be in (0, {limits.MAX_SPEED:g}] px/s or None, got {value!r}")
    return speed


@dataclass(slots=True)
class Physics(Validated):
    """Velocity and material of a moving body.

    - ``velocity``: px/s, a ``pygame.Vector2``, each component within ±1e9.
      While the body stands on a moving STATIC platform, its velocity along
      the contact normal is relative to the platform (see the README's moving platforms).
    - ``mass``: 1e-6 to 1e6, any unit; only ratios between bodies matter.
    - ``elasticity``: 0 to 10; 0.0 gives no bounce, 1.0 a perfect bounce
      (values above 1 add energy, like a pinball bumper). A pair uses the
      larger.
    - ``friction``: >= 0, Coulomb's coefficient mu; a pair uses the smaller.
      A collider without Physics (a bare floor or wall) brings no material:
      against it the pair uses this body's elasticity and friction, so a
      crate with friction 0.4 sliding at v px/s on a bare floor stops after
      v²/(2·0.4·g) px.
    - ``gravity_scale``: multiplies the world's gravity (0 floats, -1 rises),
      within ±1e3.
    - ``max_speed``: px/s cap on the speed, in (0, 1e9], or None for the
      world's cap (1e9 px/s; see ``components.limits``): a terminal speed,
      which Movement clamps the velocity to at the start of each step. An
      impact later in the step can leave the body faster until the next
      step clamps it again.
    - ``damping``: 1/s, 0 to 1e6: linear damping, as Box2D's. Each step,
      after gravity, Movement multiplies the velocity by 1 / (1 + damping·dt),
      the stable (Padé) form of v·e^(−damping·t): air drag, a puck's or a
      rolling ball's slowing on a table seen from above. A body falling
      under gravity g tends to the terminal speed g / damping. 0 (the
      default) never slows it. A STATIC is not damped.
    - ``ground_snap``: px, >= 0. A body that had ground below it last step
      and is not leaving it (a jump) is moved down by up to this much onto
      the ground at the end of the step: it walks down ramps and off their
      foot instead of flying off. 0 (the default) never snaps.

    Every field is checked when set, at construction and later alike.
    """

    velocity: Vector2 = field(default_factory=Vector2)
    mass: float = 1.0
    elasticity: float = 0.0
    friction: float = 0.0
    gravity_scale: float = 1.0
    max_speed: float | None = None
    ground_snap: float = 0.0
    damping: float = 0.0

    _checks: ClassVar[dict[str, Check]] = {
        "velocity": vector_within(limits.MAX_SPEED, " px/s"),
        "mass": number_in(limits.MIN_MASS, limits.MAX_MASS),
        "elasticity": number_in(0.0, limits.MAX_ELASTICITY),
        "friction": _non_negative,
        "gravity_scale": number_in(-limits.MAX_GRAVITY_SCALE, limits.MAX_GRAVITY_SCALE),
        "max_speed": _speed_cap,
        "ground_snap": number_in(0.0, limits.MAX_SIZE, " px"),
        "damping": number_in(0.0, limits.MAX_DAMPING, " 1/s"),
    }

    if TYPE_CHECKING:  # the dataclass's __init__ as type checkers should see it: a pair is converted
        def __init__(self, velocity: VectorLike = ..., mass: float = ..., elasticity: float = ...,
                     friction: float = ..., gravity_scale: float = ..., max_speed: float | None = ...,
                     ground_snap: float = ..., damping: float = ...) -> None: ...

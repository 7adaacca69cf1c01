"""Physics: velocity and the material an entity is made of."""

from __future__ import annotations

from dataclasses import dataclass, field

from pygame import Vector2

from components._checks import at_least, finite_number, finite_vector, positive

__all__ = ["Physics"]


@dataclass(slots=True)
class Physics:
    """Velocity and material of a moving body.

    - ``velocity``: px/s, a ``pygame.Vector2``.
    - ``mass``: > 0, any unit; only ratios between bodies matter.
    - ``elasticity``: >= 0; 0.0 gives no bounce, 1.0 a perfect bounce (values
      above 1 add energy, like a pinball bumper). A pair uses the larger.
    - ``friction``: >= 0, Coulomb's coefficient mu; a pair uses the smaller.
      A collider without Physics (a bare floor or wall) brings no material:
      against it the pair uses this body's elasticity and friction, so a
      crate with friction 0.4 sliding at v px/s on a bare floor stops after
      v²/(2·0.4·g) px.
    - ``gravity_scale``: multiplies the world's gravity (0 floats, -1 rises).
    - ``max_speed``: px/s cap on the speed, or None for no cap.
    """

    velocity: Vector2 = field(default_factory=Vector2)
    mass: float = 1.0
    elasticity: float = 0.0
    friction: float = 0.0
    gravity_scale: float = 1.0
    max_speed: float | None = None

    def __post_init__(self) -> None:
        self.velocity = finite_vector("velocity", self.velocity)
        self.mass = positive("mass", finite_number("mass", self.mass))
        self.elasticity = at_least("elasticity", finite_number("elasticity", self.elasticity), 0.0)
        self.friction = at_least("friction", finite_number("friction", self.friction), 0.0)
        self.gravity_scale = finite_number("gravity_scale", self.gravity_scale)
        if self.max_speed is not None:
            self.max_speed = positive("max_speed", finite_number("max_speed", self.max_speed))

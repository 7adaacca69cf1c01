"""Response: push overlapping bodies apart and exchange their momentum, in named stages."""

from __future__ import annotations

from collections.abc import Mapping

import esper
from pygame import Vector2

from components import Touching
from components._checks import any_bool
from systems.physics.collision import CollisionSystem
from systems.physics._shapes.contact import Contact
from systems.physics._stages.board import board
from systems.physics._stages.contacts import record
from systems.physics._stages.context import begin_step
from systems.physics._stages.memory import Memory, checked_gravity
from systems.physics._stages.resolve import Resolver
from systems.physics._solver.resolution import CollisionFilter
from systems._world import WorldLike

__all__ = ["ResponseSystem"]


class ResponseSystem(esper.Processor):
    """Resolve the step's collisions and exchange momentum.

    Each step runs these stages in order over one ``StepContext``
    (``systems.physics._stages``), each timed in ``World.timings`` as
    ``"ResponseSystem.<stage>"``:

    - ``board``: the bodies Movement carried on platforms learn how far and how fast.
    - ``sweep`` (``continuous`` only): moving bodies are swept along their
      paths and stopped or bounced at their time of impact.
    - ``push_out``: overlaps left over (bodies spawned inside each other, or
      any pipeline with ``continuous=False``) are pushed apart, at most
      ``max_iterations`` times per pair and step; momentum is exchanged along
      the normal with Coulomb friction along the tangent. Contacts approaching
      slower than 2·|gravity|·dt·s (px/s, ``gravity`` in px/s², s the larger gravity scale of
      the pair's bodies gravity pulls) are resting and don't bounce.
      The sweep, push-out, crushing and ground snapping run in the compiled
      core (``resolver``, with the bound on impacts per body and step,
      ``max_subdivisions``).
    - ``crush``: a body squeezed between colliders that won't yield is put between them.
    - ``ground``: walkers with ``Physics.ground_snap`` are kept on the ground.
    - ``contacts``: the step's contacts (made when first read), the grounded
      and crushed bodies and the riders for the next step (see
      the README's moving platforms) are kept, and Touching components set.

    TRIGGER pairs are only recorded. What lives across steps (gravity, riders,
    grounded, crushed) is in ``memory``, shared with Movement: built by hand,
    pass ``memory=movement.memory``.
    """

    def __init__(self, world: WorldLike, collision: CollisionSystem, max_iterations: int = 8,
                 continuous: bool = False, max_subdivisions: int = 32,
                 gravity: tuple[float, float] | Vector2 | None = None, memory: Memory | None = None) -> None:
        if max_iterations < 1:
            raise ValueError(f"max_iterations must be >= 1, got {max_iterations!r}")
        self.world = world
        self.collision = collision
        self.memory = Memory() if memory is None else memory
        if gravity is not None:
            self.memory.gravity = checked_gravity(gravity)
        self.max_iterations = max_iterations
        self.continuous = any_bool("continuous", continuous)  # ("False" would be truthy)
        self.filters: list[CollisionFilter] = []
        self.resolver = Resolver(max_subdivisions)

    def process(self, dt: float) -> None:
        """Resolve every collision of this step and record the contacts."""
        memory = self.memory
        step = begin_step(dt, memory.gravity, self.continuous, self.max_iterations, self.collision, self.filters,
                          self.world.check_vectors)
        # Each stage's time, filed under this system's name as World._run files it.
        timed, name = self.world.timed, type(self).__name__
        with timed(f"{name}.board"):
            board(step, memory.rides)
        self.resolver.run(step, memory, timed, name)  # timed as the sweep, push_out, crush and ground stages
        with timed(f"{name}.contacts"):
            record(step, memory, dict(self.world.get_component(Touching)))

    @property
    def gravity(self) -> Vector2:
        """Gravity (px/s²), the one Movement applies (``memory.gravity``)."""
        return self.memory.gravity

    @gravity.setter
    def gravity(self, value: tuple[float, float] | Vector2) -> None:
        self.memory.gravity = checked_gravity(value)

    @property
    def contacts(self) -> list[Contact]:
        """This step's contacts (between steps, the last step's), ordered by
        time, then entity ids; a new list each step.

        Made when first read: a step that resolves thousands of impacts and
        whose contacts nobody reads makes no ``Contact`` objects.
        """
        return self.memory.contacts()

    @contacts.setter
    def contacts(self, contacts: list[Contact]) -> None:
        self.memory.replace_contacts(contacts)

    @property
    def grounded(self) -> Mapping[int, Vector2]:
        """Entities with ground below them last step, each with the unit normal of that ground
        (a read-only mapping, made when first read)."""
        return self.memory.grounded

    @property
    def crushed(self) -> list[int]:
        """The entities crushed last step, in order (see ``World.on_crush``)."""
        return self.memory.crushed

"""The step context: what one step's stages hand each other, made fresh every step.

``ResponseSystem.process`` builds a ``StepContext`` from the World's settings and the
collide stage's latest results (its ``Found``), then passes it explicitly to each stage in
order (board, sweep, push-out, crush, ground, contacts). Stages read what they need from
it and write their results into it; it is dropped at the end of the step. What lives
across steps is in ``Memory`` (``systems.physics._stages.memory``) and, for the broad
phase, in ``Collide``: the grid, which stages change only through ``Found.widen``,
``file_wider`` and ``file_rows_wider``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pygame import Vector2

from systems.physics._stages.collide import Collide
from systems.physics._stages.found import Found
from systems.physics._solver.resolution import CollisionFilter, Resolution

__all__ = ["StepContext", "begin_step"]



@dataclass(slots=True)
class StepContext:
    """One step of Response.

    Set when the step begins: ``dt`` (s), ``gravity`` (px/s², the World's), ``up`` (unit
    vector against gravity, zero without it), ``continuous`` (whether moving bodies are
    swept), ``max_iterations`` (times push-out may resolve one pair), ``collision`` (what
    the collide stage's latest run found: this step's bodies and candidate pairs, made
    fresh by that run), ``settle_kinematic`` (the collide stage's, called last in a step:
    the one thing a stage asks of what it keeps across steps), ``state`` (the step's
    ``Resolution``: rest speed, filters, one-way faces; crushed bodies and
    contacts as the stages find them) and ``check_vectors`` (the World's check of every
    vector, ``WorldLike.check_vectors``, made again once the collision filters, the game's
    code, have run). Filled by the stages: ``riders`` (board: the rows of
    the bodies Movement carried this step, and a row each of their platform's displacement
    (px) and frame (px/s)).
    """

    dt: float
    gravity: Vector2
    up: Vector2
    continuous: bool
    max_iterations: int
    collision: Found
    settle_kinematic: Callable[[], None]
    state: Resolution
    check_vectors: Callable[[], None]
    riders: tuple[np.ndarray, np.ndarray] | None = None


def begin_step(dt: float, gravity: Vector2, continuous: bool, max_iterations: int, collision: Collide,
               filters: Sequence[CollisionFilter], check_vectors: Callable[[], None]) -> StepContext:
    """The context of a step of ``dt`` s under ``gravity`` (px/s²), over what ``collision``
    found in its latest run, with a copy of the collision ``filters`` as they are now and the
    World's ``check_vectors``."""
    found = collision.found
    up = -gravity.normalize() if gravity.length_squared() else Vector2()
    # Approaching slower than gravity adds in two steps is resting contact. Push-out's contacts
    # come after the step's move (the discrete pipeline's, and a resting contact the sweeps
    # passed over, within their slop): push-out gives friction's part of that move back.
    state = Resolution(2.0 * gravity.length() * dt, up, list(filters), dt)
    return StepContext(dt, gravity, up, continuous, max_iterations, found, collision.settle_kinematic, state,
                       check_vectors)

"""Collision: the system that gathers the colliders and finds the pairs that may touch.

``CollisionSystem`` is the collide stage (``systems.physics._stages.collide``) run as a
system; what it keeps across steps is the stage's, and what it found in the latest run
is its ``found`` (``systems.physics._stages.found``), which the properties here read."""

from __future__ import annotations

import esper
import numpy as np

from systems._world import WorldLike
from systems.physics._bodies.body import Body
from systems.physics._bodies.table import Columns, Geometry
from systems.physics._stages.collide import Collide

__all__ = ["CollisionSystem"]


class CollisionSystem(Collide, esper.Processor):
    """The collide stage (``Collide``: the broad phase over every collider's
    swept bounds) run as a system, at ``COLLISION_PRIORITY``; Response
    resolves the bodies and pairs it finds. ``cell_size`` (px, or None to
    choose it from the typical moving collider) is the broad phase's grid
    cell. ``pairs``, ``pair_rows()``, ``columns``, ``filed_boxes()``,
    ``geometry_read()``, ``kinds``, ``layered``, ``one_way`` and ``statics()``
    are those of the latest run (``found``); ``bodies``, ``grid`` and
    ``steps`` are kept across steps."""

    def __init__(self, world: WorldLike, cell_size: float | None = None) -> None:
        Collide.__init__(self, world, cell_size)

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """The latest run's candidate pairs of entities (a < b)."""
        return self.found.pairs

    def pair_rows(self) -> np.ndarray:
        """``pairs`` as rows of ``columns`` (an (m, 2) int array, a < b)."""
        return self.found.pair_rows()

    @property
    def columns(self) -> Columns:
        """The latest run's colliders' components, in entity order."""
        return self.found.columns

    def filed_boxes(self) -> np.ndarray:
        """Every body's box as filed in the grid (px), an (n, 4) array in
        the order of ``columns``."""
        return self.found.filed_boxes()

    def geometry_read(self) -> tuple[np.ndarray, Geometry]:
        """The ``Geometry`` the latest run read of the bodies that move, and
        their rows of ``columns``."""
        return self.found.geometry_read()

    @property
    def kinds(self) -> int:
        """Every body's kind bits together (``systems.physics._bodies.kinds``)."""
        return self.found.kinds

    @property
    def layered(self) -> bool:
        """Whether any collider uses layers."""
        return self.found.layered

    @property
    def one_way(self) -> bool:
        """Whether any collider has one-way faces."""
        return self.found.one_way

    def statics(self) -> list[Body]:
        """The Bodies of the latest run's STATIC colliders, in entity order."""
        return self.found.statics()

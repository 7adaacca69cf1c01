"""A run's body table started: each body's row laid out from its components as read.

The resolve stage (``systems.physics._stages.resolve``) reads the bodies' components into
arrays, a field of every body at a time (``systems.physics._bodies.table.Arrays``), and this
kernel lays them out a row per body (``table``), as a run starts them: the box at the start
of the step, the path's origin and motion, the materials and the codes, with the float
operations of ``Body``. It writes a row at a time, so each row's cache lines are written
once; NumPy would write a column at a time, passing over the whole table once per column.
"""

from __future__ import annotations

from typing import Any

from .jit import kernel as _kernel
from .shapes import BOX
from .table import (
    BEFORE_X, BEFORE_Y, BOUNDS_VERSION, CATEGORY, ELASTICITY, ENTITY, FILED_H, FILED_W, FILED_X, FILED_Y, FLAGS,
    FRICTION, HEIGHT, INV_MASS, MASK, MOTION_X, MOTION_Y, MOVED, NOT_BOX, OFFSET_X, OFFSET_Y, ORIGIN_X, ORIGIN_Y,
    PHYSICS, PINNER, POS_X, POS_Y, RIDE, SHAPE, SIDES, SPAN_X0, SPAN_Y0, STATIC, TRIGGER, VEL_X, VEL_Y, WIDTH,
)

__all__ = ["CATEGORY_CODE", "MASK_CODE", "SHAPE_CODE", "SIDES_CODE", "TRIGGER_CODE", "start_rows"]

# A collider's codes, a column each (an (n, 5) int array, made by the resolve stage): its
# shape's (``shapes``), 1 if it is a TRIGGER, its faces that stop bodies (components.Side
# bits), its category and its mask.
SHAPE_CODE, TRIGGER_CODE, SIDES_CODE, CATEGORY_CODE, MASK_CODE = range(5)


@_kernel
def start_rows(table: Any, ints: Any, rows: Any, start: Any, now: Any, offset: Any, size: Any, velocity: Any,
               inverse_mass: Any, elasticity: Any, friction: Any, static: Any, physics: Any, moved: Any,
               codes: Any, entities: Any, filed: Any) -> None:
    """Write body i's row ``rows[i]`` of the float and int tables (``table``, ``ints``):
    its position at the start of the step and now, its collider's offset and size (px, each
    (n, 2)), velocity (px/s), inverse mass, elasticity and friction, whether it is STATIC,
    has Physics and moved this step (bools), its ``codes``, its entity and the box it is
    filed under (px, (n, 4)). Every other column starts at 0 (gravity's scale, ground
    snapping's reach and a rider's carry are the stage's to fill), the pinners and ride at
    -1, the bounds out of date and the span empty (filed nowhere yet)."""
    for i in range(rows.shape[0]):
        row = rows[i]
        table[row, :] = 0.0
        ints[row, :] = 0
        table[row, FILED_X], table[row, FILED_Y] = filed[i, 0], filed[i, 1]
        table[row, FILED_W], table[row, FILED_H] = filed[i, 2], filed[i, 3]
        table[row, BEFORE_X], table[row, BEFORE_Y] = start[i, 0] + offset[i, 0], start[i, 1] + offset[i, 1]
        table[row, WIDTH], table[row, HEIGHT] = size[i, 0], size[i, 1]
        table[row, OFFSET_X], table[row, OFFSET_Y] = offset[i, 0], offset[i, 1]
        table[row, ORIGIN_X], table[row, ORIGIN_Y] = start[i, 0], start[i, 1]
        table[row, MOTION_X], table[row, MOTION_Y] = now[i, 0] - start[i, 0], now[i, 1] - start[i, 1]
        table[row, INV_MASS] = inverse_mass[i]
        table[row, VEL_X], table[row, VEL_Y] = velocity[i, 0], velocity[i, 1]
        table[row, ELASTICITY], table[row, FRICTION] = elasticity[i], friction[i]
        table[row, POS_X], table[row, POS_Y] = now[i, 0], now[i, 1]
        flags = STATIC if static[i] else 0
        if moved[i]:
            flags |= MOVED
        if physics[i]:
            flags |= PHYSICS
        if codes[i, SHAPE_CODE] != BOX:
            flags |= NOT_BOX
        if codes[i, TRIGGER_CODE]:
            flags |= TRIGGER
        ints[row, FLAGS] = flags
        ints[row, SHAPE], ints[row, SIDES] = codes[i, SHAPE_CODE], codes[i, SIDES_CODE]
        ints[row, CATEGORY], ints[row, MASK] = codes[i, CATEGORY_CODE], codes[i, MASK_CODE]
        ints[row, BOUNDS_VERSION] = -1
        for column in range(PINNER, RIDE + 1):
            ints[row, column] = -1
        ints[row, ENTITY] = entities[i]
        ints[row, SPAN_X0], ints[row, SPAN_Y0] = 1, 1

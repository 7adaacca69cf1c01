"""Piles: bodies spawned on top of each other, spread apart over a few steps.

A pile is a group of movers linked by two or more pairs that were already
inside each other when the step began (an isolated pair, or a box spawned
1 px into the floor, is left to the ordinary push-out, which resolves it
exactly). One after another, exact pushes jam such a pile: equal boxes
creep toward a perfect packing over hundreds of steps while the overlaps
only move around. So the pile is relaxed first by a few Jacobi passes (as in
position-based dynamics): every overlapping pair with a pile body is pushed
apart at once, each body by the sum of its shares, a little past flush, and
a body moved joins the pile for the next pass. The pile expands under its
own pressure, several layers a step.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from pygame import Vector2

from systems.physics._bodies.body import Body
from systems.physics._shapes.geometry import Box, axis_overlap, boxes_touch, tie_direction
from systems.physics._shapes.narrowphase import overlap
from systems.physics._solver.resolution import RESOLVE_SLOP, Resolution, push_share

__all__ = ["PILE_GAP", "PILE_PASSES", "PILE_WORK", "find_piles", "relax_pile"]

#: Pairs of a pile are pushed apart this fraction of the smaller body's size
#: beyond flush, which unjams the packing.
PILE_GAP = 0.25

#: Jacobi passes per step, and the pair tests they may make in all: a pile
#: of thousands takes fewer passes a step, so each step's work stays bounded.
PILE_PASSES = 12
PILE_WORK = 80_000

_ZERO = Vector2()

Settled = dict[tuple[int, int], tuple[Body, Body, Vector2, float, float]]


def relax_pile(state: Resolution, bodies: dict[int, Body], pairs: list[tuple[int, int]],
               statics: Callable[[], list[Body]], links: list[tuple[int, int]] | None = None) -> None:
    """Spread this step's piles (see the module's docstring) before push-out.
    ``statics()`` gives the STATIC bodies, in entity order; ``links`` the pairs
    of ``pairs`` of two movers that were inside each other when the step
    began (what a pile is made of, ``find_piles``), when the caller has
    them already.

    A body with a STATIC within its own size of its box is not moved by the
    passes: its partners take the whole push, as against the STATIC. Every
    other body moves at most its own size in all, so it can reach no STATIC:
    pile pressure never drives a body into or through a wall (ordinary
    push-out settles those exactly). Contacts are recorded, and momentum
    exchanged, once per pair in ``state``.
    """
    if links is None:
        links = [(a.entity, b.entity) for a, b in _candidates(bodies, pairs)
                 if not (a.static or b.static) and _overlapped_before(a, b)]
    pile = find_piles(links)
    if not pile:
        return
    walls = _StaticIndex(statics(), max(max(bodies[e].box[2], bodies[e].box[3]) for e in pile))
    moved: dict[int, Vector2] = {}
    settled: Settled = {}
    touching = len(_near(bodies, pairs, pile))
    for _ in range(max(1, min(PILE_PASSES, PILE_WORK // max(touching, 1)))):
        moves = _pile_pass(state, _near(bodies, pairs, pile), pile, walls, settled)
        pile = set()
        for entity in sorted(moves):
            body = bodies[entity]
            total = moved.get(entity, _ZERO) + moves[entity]
            reach = max(body.box[2], body.box[3])
            if total.length_squared() > reach * reach:
                total.scale_to_length(reach)
            step = total - moved.get(entity, _ZERO)
            if step.length_squared() > 0.0:
                moved[entity] = total
                body.transform.position.update(body.transform.position + step)
                body.sync()
                pile.add(entity)
        if not pile:
            break
    for key in sorted(settled):
        a, b, normal, depth, surface = settled[key]
        state.settle(a, b, normal, (a.static, b.static), depth, surface)


def _candidates(bodies: dict[int, Body], pairs: list[tuple[int, int]]) -> list[tuple[Body, Body]]:
    """The pairs a pile's passes may push: no TRIGGER, not two STATICs."""
    return [(bodies[a], bodies[b]) for a, b in pairs
            if not (bodies[a].trigger or bodies[b].trigger or (bodies[a].static and bodies[b].static))]


def _near(bodies: dict[int, Body], pairs: list[tuple[int, int]], pile: set[int]) -> list[tuple[Body, Body]]:
    """``_candidates`` with a body in ``pile``, ascending (only their Bodies
    are looked up: the others are not needed). Ascending whatever the order
    of ``pairs``: a pass adds each body's shares up in this order, and a
    float sum's last bits depend on it; the grid lists pairs cell by cell,
    the compiled broad phase by rows ascending."""
    return _candidates(bodies, sorted([(a, b) for a, b in pairs if a in pile or b in pile]))


def _pile_pass(state: Resolution, candidates: list[tuple[Body, Body]], pile: set[int],
               walls: _StaticIndex, settled: Settled) -> dict[int, Vector2]:
    """One Jacobi pass of ``relax_pile`` over the ``candidates`` with a body
    in ``pile``: the move (px) of every body pushed; STATICs and bodies near
    them stay put, their partners taking the push."""
    moves: dict[int, Vector2] = {}
    for a, b in candidates:
        fixed_a, fixed_b = a.static or walls.near(a), b.static or walls.near(b)
        if fixed_a and fixed_b:
            continue
        contact = overlap(a.box, a.shape, a.before, b.box, b.shape, b.before, tie_direction(a.entity, b.entity))
        if contact is None or not state.permits(a, b, contact.normal):
            continue
        share = push_share(a, b, fixed_a, fixed_b)
        gap = PILE_GAP * min(a.box[2], a.box[3], b.box[2], b.box[3])
        push = contact.normal * (contact.depth + gap)
        for body, move, fixed in ((a, push * -share, fixed_a), (b, push * (1.0 - share), fixed_b)):
            if not fixed and (move.x or move.y):
                moves[body.entity] = moves.get(body.entity, _ZERO) + move
        settled.setdefault((a.entity, b.entity), (a, b, contact.normal, contact.depth, contact.surface))
    return moves


class _StaticIndex:
    """The STATIC boxes of the world bucketed in square cells (large ones in
    a list, as in the broad phase), to tell which bodies have one near."""

    def __init__(self, statics: list[Body], cell: float) -> None:
        self.cell = max(cell, 1.0)
        self.cells: dict[tuple[int, int], list[Box]] = {}
        self.large: list[Box] = []
        self.verdicts: dict[int, bool] = {}
        for body in statics:
            first_x, first_y, last_x, last_y = self._span(body.box)
            if (last_x - first_x + 1) * (last_y - first_y + 1) > 64:
                self.large.append(body.box)
                continue
            for cx in range(first_x, last_x + 1):
                for cy in range(first_y, last_y + 1):
                    self.cells.setdefault((cx, cy), []).append(body.box)

    def _span(self, box: Box) -> tuple[int, int, int, int]:
        x, y, w, h = box
        return (math.floor(x / self.cell), math.floor(y / self.cell),
                math.floor((x + w) / self.cell), math.floor((y + h) / self.cell))

    def near(self, body: Body) -> bool:
        """Whether a STATIC touches ``body``'s box grown by its own size."""
        verdict = self.verdicts.get(body.entity)
        if verdict is None:
            x, y, w, h = body.box
            size = max(w, h)
            grown = (x - size, y - size, w + 2 * size, h + 2 * size)
            first_x, first_y, last_x, last_y = self._span(grown)
            nearby = [box for cx in range(first_x, last_x + 1) for cy in range(first_y, last_y + 1)
                      for box in self.cells.get((cx, cy), ())]
            verdict = any(boxes_touch(grown, box) for box in nearby + self.large)
            self.verdicts[body.entity] = verdict
        return verdict


def find_piles(links: list[tuple[int, int]]) -> set[int]:
    """Entities in groups joined by two or more of ``links`` (union-find)."""
    parent: dict[int, int] = {}

    def root(entity: int) -> int:
        while parent.setdefault(entity, entity) != entity:
            parent[entity] = parent[parent[entity]]
            entity = parent[entity]
        return entity

    for a, b in links:
        parent[root(a)] = root(b)
    size: dict[int, int] = {}
    for a, _ in links:
        size[root(a)] = size.get(root(a), 0) + 1
    return {entity for entity in parent if size.get(root(entity), 0) > 1}


def _overlapped_before(a: Body, b: Body) -> bool:
    """Whether the pair's boxes overlapped by more than RESOLVE_SLOP on both
    axes when the step began."""
    before_a, before_b = a.before, b.before
    return (axis_overlap(before_a, before_b, 0) > RESOLVE_SLOP
            and axis_overlap(before_a, before_b, 1) > RESOLVE_SLOP)

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

from collections.abc import Callable

from pygame import Vector2

from systems.collision import Body
from systems.geometry import Box, axis_overlap, boxes_touch, tie_direction, union_box
from systems.narrowphase import overlap
from systems.resolution import RESOLVE_SLOP, Resolution, push_share

__all__ = ["PILE_GAP", "PILE_PASSES", "relax_pile"]

#: Pairs of a pile are pushed apart this fraction of the smaller body's size
#: beyond flush, which unjams the packing.
PILE_GAP = 0.2

#: Jacobi passes per step.
PILE_PASSES = 12

_ZERO = Vector2()

Settled = dict[tuple[int, int], tuple[Body, Body, Vector2, float]]


def relax_pile(state: Resolution, bodies: dict[int, Body], pairs: list[tuple[int, int]],
               query: Callable[[Box], list[int]]) -> None:
    """Spread this step's piles (see the module's docstring) before push-out.

    A pile body with a STATIC within its own size of its box (``query``
    finds the entities near a box, e.g. the broad phase's) is not moved by
    the passes: its partners take the whole push, as against the STATIC.
    Every other body moves at most its own size in all, so it can reach no
    STATIC; pile pressure never drives a body into or through a wall
    (ordinary push-out settles those exactly). Contacts are recorded, and
    momentum exchanged, once per pair in ``state``.
    """
    candidates = [(bodies[a], bodies[b]) for a, b in pairs
                  if not (bodies[a].trigger or bodies[b].trigger or (bodies[a].static and bodies[b].static))]
    links = [(a.entity, b.entity) for a, b in candidates if not (a.static or b.static) and _overlapped_before(a, b)]
    pile = _piles(links)
    if not pile:
        return
    walled = _near_statics([bodies[e] for e in sorted(pile)], bodies, query)
    moved: dict[int, Vector2] = {}
    settled: Settled = {}
    for _ in range(PILE_PASSES):
        moves = _pile_pass(candidates, pile, walled, settled)
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
        a, b, normal, depth = settled[key]
        state.settle(a, b, normal, (a.static, b.static), depth)


def _pile_pass(candidates: list[tuple[Body, Body]], pile: set[int], walled: set[int],
               settled: Settled) -> dict[int, Vector2]:
    """One Jacobi pass of ``relax_pile``: the move (px) of every body pushed;
    STATICs and ``walled`` bodies stay put, their partners taking the push."""
    moves: dict[int, Vector2] = {}
    for a, b in candidates:
        if a.entity not in pile and b.entity not in pile:
            continue
        fixed_a, fixed_b = a.static or a.entity in walled, b.static or b.entity in walled
        if fixed_a and fixed_b:
            continue
        contact = overlap(a.box, a.round, a.before, b.box, b.round, b.before, tie_direction(a.entity, b.entity))
        if contact is None:
            continue
        share = push_share(a, b, fixed_a, fixed_b)
        gap = PILE_GAP * min(a.box[2], a.box[3], b.box[2], b.box[3])
        push = contact.normal * (contact.depth + gap)
        for body, move, fixed in ((a, push * -share, fixed_a), (b, push * (1.0 - share), fixed_b)):
            if not fixed and (move.x or move.y):
                moves[body.entity] = moves.get(body.entity, _ZERO) + move
        settled.setdefault((a.entity, b.entity), (a, b, contact.normal, contact.depth))
    return moves


def _near_statics(members: list[Body], bodies: dict[int, Body], query: Callable[[Box], list[int]]) -> set[int]:
    """The ``members`` with a STATIC within their own size of their box (one
    query around the whole pile, then a test per member)."""
    reach = max(max(body.box[2], body.box[3]) for body in members)
    around = members[0].box
    for body in members[1:]:
        around = union_box(around, body.box)
    around = (around[0] - reach, around[1] - reach, around[2] + 2 * reach, around[3] + 2 * reach)
    statics = [bodies[e].box for e in query(around) if e in bodies and bodies[e].static]
    near = set()
    for body in members:
        x, y, w, h = body.box
        size = max(w, h)
        grown = (x - size, y - size, w + 2 * size, h + 2 * size)
        if any(boxes_touch(grown, box) for box in statics):
            near.add(body.entity)
    return near


def _piles(links: list[tuple[int, int]]) -> set[int]:
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
    return all(axis_overlap(before_a, before_b, axis) > RESOLVE_SLOP for axis in (0, 1))

"""Continuous collision: sweep every moving body along its path in the step.

The timeslice subdivision of Sacred Software, *Collisions, Part 1*, for many moving bodies: every candidate
pair is swept in relative motion (``systems.physics._shapes.narrowphase.sweep``); impacts are
taken earliest first, then larger contact surface, then entity ids. At an
impact both bodies are placed at their contact positions, momentum and
friction are exchanged along the contact normal, and the bodies it changed
are swept again through the rest of the step with their new velocities.
Nothing tunnels, whatever the speed. A row of boxes touching end to end,
struck without bouncing, is collided all at once (``systems.physics._stages.rows``).

Under gravity an impact exchanges momentum at the velocity the body has
when it hits, not at the end of the step. Movement integrates by
semi-implicit Euler (v += g·dt, then x += v·dt), whose positions are those of
the exact parabola half a step later: the chord of the step, along which a
body is swept, goes from the parabola at τ + dt/2 to τ + 3dt/2, so at
fraction t of it the body's true velocity is v − g·dt·(½ − t), v being its
velocity for the step (after gravity). The impact reflects that; the rest of
the step then adds back the g·dt·(½ − t) the velocity at the end of the step
stands for (``_lag``). So an elastic bounce keeps the integrator's energy,
½v² − g·x + ½·dt·g·v, to O(g²·dt²) per bounce (a ball with e = 1 returns to
within g·dt²/8 px of its height), and e < 1 scales it by e². Where the
impact leaves the pair at rest along the normal, the rest of the step's
gravity never lifts one off the other; where it would carry them into each
other, the contact takes it up, with friction (``_support``): a body resting
on a floor still loses μ·g·dt of sliding speed a step, and keeps zero
velocity along the normal. A resting contact (approaching at the
Resolution's rest_speed or slower) bounces nothing and is settled at the
step's velocity, as before; once a contact holds a body, its velocity is
true for the rest of the step (``Path.free``). The compiled kernel
(``systems.physics._stages.compiled_sweep``) computes the same steps bit for bit, and runs
instead of this one whenever the kernels do, unless level geometry outnumbers the moving bodies
(``LEVEL_PER_MOVER``); this one is the reference its property tests compare it with.
"""

from __future__ import annotations

import heapq
import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from pygame import Vector2

from systems.physics._bodies.body import Body
from systems.physics._stages.found import Found
from systems.physics._shapes.geometry import Box, boxes_overlap, swept_apart, tie_direction, union_box
from systems.physics._shapes.contact import Shapes
from systems.physics._shapes.narrowphase import overlap, sweep
from systems.physics._solver.resolution import RESTING_SPEED, Resolution, contact_velocities, exchange
from systems.physics._stages.rows import Row, find_row, settle_row
from systems.physics._stages.compiled_sweep import Swept, ask_filters, covers, sweep_compiled

__all__ = ["Sweeper"]

log = logging.getLogger(__name__)

#: px. An impact that would carry two bodies less than this far into each
#: other over the rest of the step is left to push-out. Bodies touching in a
#: row (a Newton's cradle, a pile) otherwise trade ever smaller impacts that
#: converge only geometrically. Matches the push-out's RESOLVE_SLOP.
SWEEP_SLOP = 0.01

# (time, -surface, a, b, tiebreak, version of a, version of b, normal)
Impact = tuple[float, float, int, int, int, int, int, Vector2]

_NO_VERDICTS = np.zeros((0, 3), np.int64)

#: Pieces of level geometry per moving body beyond which this sweep runs instead of the kernel,
#: whose tables read and file every body every step where this one looks only at the movers'
#: pairs (the crossover is measured in benchmarks/README.md, "Level geometry"). The two give the
#: same floats.
LEVEL_PER_MOVER = 16


@dataclass(slots=True, eq=False)
class Path:
    """A body's straight path through the rest of the step.

    At step fraction ``start`` the body's transform was at ``origin`` (px);
    it moves ``motion`` px per whole step from there. ``version`` changes
    whenever the path does, which retires impacts computed on the old one.
    ``bounds`` is the collider's box (px) over the path from ``start`` to
    the end of the step, as computed for path ``bounds_version`` (see
    ``_remaining_bounds``).
    """

    origin: Vector2
    start: float
    motion: Vector2
    version: int = 0
    impacts: int = 0
    bounds: tuple[float, float, float, float] | None = None
    bounds_version: int = -1
    free: bool = True

    def at(self, time: float) -> Vector2:
        """Position (px) of the transform at step fraction ``time``."""
        return self.origin + self.motion * (time - self.start)


class Sweeper:
    """The sweep stage: resolves one step's impacts in time order.

    ``max_subdivisions`` bounds the impacts one body takes part in per step
    (Sacred Software's article uses 32); a body that reaches it stops where it is for the
    rest of the step, and a single warning is logged.
    """

    def __init__(self, max_subdivisions: int = 32) -> None:
        if max_subdivisions < 1:
            raise ValueError(f"max_subdivisions must be >= 1, got {max_subdivisions!r}")
        self.max_subdivisions = max_subdivisions
        self.compiled = True
        self._buffers: tuple[Any, ...] | None = None  # the compiled kernel's, as large as a step has needed
        self._warned = False

    def run(self, collision: Found, state: Resolution, dt: float, gravity: Vector2,
            riders: list[Body] | None = None) -> tuple[list[tuple[int, int]], Swept | None]:
        """Sweep all candidate pairs of this step and resolve their impacts
        (``gravity``: px/s², Movement's; ``riders``: the bodies carried on platforms this step).
        Returns the pairs first met on changed paths and, when the compiled stage ran,
        what it found for push-out (also kept as ``met`` and ``swept`` until the next run)."""
        self.collision, self.state, self.dt = collision, state, dt
        # px/s: the velocity gravity adds in a step (see _lag).
        self.pull = gravity * dt
        self.paths: dict[int, Path] = {}
        self.met: list[tuple[int, int]] = []  # pairs first met by a changed path (see Found.widen)
        self.swept: Swept | None = None  # what the compiled stage found for push-out, when it ran
        verdicts = ask_filters(collision, state) if state.filters else _NO_VERDICTS
        level = len(collision.level)
        if self.compiled and covers() and level <= LEVEL_PER_MOVER * max(len(collision.columns.entities) - level, 1):
            self.swept = sweep_compiled(collision, state, dt, self.pull, riders or [], verdicts,
                                        self.max_subdivisions, self._buffers)
            self._buffers = self.swept.buffers  # met: self.swept.met(), made only when asked for
            if self.swept.frozen is not None:
                self._warn_frozen(self.swept.frozen)
            return self.met, self.swept
        self.queue: list[Impact] = []
        self.tiebreak = itertools.count()
        bodies = collision.bodies
        for a, b in collision.pairs:
            body_a, body_b = bodies[a], bodies[b]
            if body_a.moved or body_b.moved:
                self._schedule(body_a, body_b, 0.0, body_a.before, body_b.before)
        while self.queue:
            time, surface, a, b, _, version_a, version_b, normal = heapq.heappop(self.queue)
            path_a, path_b = self.paths[a], self.paths[b]
            if path_a.version == version_a and path_b.version == version_b:
                self._impact(bodies[a], bodies[b], path_a, path_b, time, normal, -surface)
        for entity, path in self.paths.items():
            if path.version:  # an untouched path ends where Movement put the body
                body = bodies[entity]
                body.transform.position.update(path.at(1.0))
                body.sync()
        return self.met, self.swept

    def _path(self, body: Body) -> Path:
        """The body's path, made on first use from where Movement took it."""
        path = self.paths.get(body.entity)
        if path is None:
            start = body.transform.previous_position
            path = Path(Vector2(start), 0.0, body.transform.position - start)
            self.paths[body.entity] = path
        return path

    def _schedule(self, a: Body, b: Body, now: float, box_a: Box, box_b: Box) -> None:
        """Queue the first impact of a and b after step fraction ``now``,
        where their boxes (px) are ``box_a`` and ``box_b``."""
        if a.static and b.static:
            return
        paths = self.paths
        path_a = paths.get(a.entity) or self._path(a)
        path_b = paths.get(b.entity) or self._path(b)
        # (motion_a - motion_b)·(1 - now), in scalars: the same operations as
        # with Vector2s, without making two for each of the step's many sweeps.
        motion_a, motion_b, rest = path_a.motion, path_b.motion, 1.0 - now
        relative = ((motion_a[0] - motion_b[0]) * rest, (motion_a[1] - motion_b[1]) * rest)
        if relative[0] == 0.0 and relative[1] == 0.0:
            return
        if swept_apart(box_a, relative, box_b, SWEEP_SLOP):
            return  # nearly half the pairs re-swept after a fast impact: cheaper than the sweep
        hit = sweep(box_a, a.shape, box_b, b.shape, relative)
        if hit is not None:
            time, normal, surface = now + hit.time * (1.0 - now), hit.normal, hit.surface
        else:
            # Already inside each other (an impact too slight to resolve let
            # them drift in, or they were put there): if still closing along
            # the push-out normal, that is an impact now, however deep, or a
            # fast body would carry on through a wall it started in.
            if not boxes_overlap(box_a, box_b):
                return
            inside = overlap(box_a, a.shape, a.before, box_b, b.shape, b.before,
                             tie_direction(a.entity, b.entity))
            if inside is None or relative[0] * inside.normal[0] + relative[1] * inside.normal[1] <= 0.0:
                return
            time, normal, surface = now, inside.normal, inside.surface
        heapq.heappush(self.queue, (time, -surface, a.entity, b.entity, next(self.tiebreak),
                                    path_a.version, path_b.version, normal))

    def _impact(self, a: Body, b: Body, path_a: Path, path_b: Path, time: float, normal: Vector2,
                surface: float) -> None:
        """Resolve one impact at step fraction ``time`` (touching faces
        ``surface`` px long) and re-sweep who changed."""
        approach = (path_a.motion - path_b.motion).dot(normal)
        if a.trigger or b.trigger:  # reported if they really go into each other, never resolved
            if approach * (1.0 - time) > SWEEP_SLOP and self.state.permits(a, b, normal):
                self.state.record(a.entity, b.entity, normal, 0.0, True, self._shapes(a, b, time), time, surface)
            return
        frozen_a = path_a.impacts >= self.max_subdivisions
        frozen_b = path_b.impacts >= self.max_subdivisions
        if approach * (1.0 - time) <= SWEEP_SLOP or (frozen_a and frozen_b):
            return  # grazing, too slight to matter, or both already stopped
        if not self.state.permits(a, b, normal):
            return  # a one-way face from behind, or a filter lets them pass
        for path in (path_a, path_b):
            path.origin = path.at(time)
            path.start = time
        held = self.state.holds(a, b, normal)
        if self._squeezed(a, b, time, normal, held):
            self._crush(a, b, path_a, path_b, time)
            return
        if not (held[0] or held[1] or frozen_a or frozen_b):
            row = find_row(a, b, normal, self._box_at_time(time), self._frozen, self.collision, self.state,
                           SWEEP_SLOP)
            if row is not None:
                self._settle_row(row, normal, time)
                return
        motions = (Vector2(path_a.motion), Vector2(path_b.motion))
        lags = self._lags(a, b, path_a, path_b, time, normal)
        for body, lag in zip((a, b), lags):
            if lag is not None:  # the velocity it hits with (see the module's docstring)
                body.physics.velocity -= lag  # type: ignore[union-attr]  # (_lag: it has Physics)
        # A frozen body keeps its place for the rest of the step, but its
        # momentum counts by its real mass: it must not act as a support.
        self.state.settle(a, b, normal, (held[0] or frozen_a, held[1] or frozen_b), approach * (1.0 - time),
                          surface, time, self._shapes(a, b, time))
        if self.pull:
            self._support(a, b, (path_a, path_b), normal, lags)
        for body, path, frozen in ((a, path_a, frozen_a), (b, path_b, frozen_b)):
            if body.physics is not None and not body.static and not frozen:
                # A rider's path is its own motion plus its platform's carry.
                path.motion = body.physics.velocity * self.dt + body.carry
        # A body without Physics (moved by user code) has no velocity to
        # change: stop the part of its motion that still drives it in.
        still = (path_a.motion - path_b.motion).dot(normal)
        if still > 0.0:
            if not (a.static or frozen_a):
                path_a.motion -= normal * still
            elif not (b.static or frozen_b):
                path_b.motion += normal * still
        for body, path, motion in ((a, path_a, motions[0]), (b, path_b, motions[1])):
            self._changed(body, path, motion, time)

    def _lags(self, a: Body, b: Body, path_a: Path, path_b: Path, time: float,
              normal: Vector2) -> tuple[Vector2 | None, Vector2 | None]:
        """What each body's velocity (px/s) holds beyond its true velocity
        at step fraction ``time`` (see ``_lag``), for an impact along
        ``normal`` (a->b) that bounces; None for both at a resting contact
        (approaching at the Resolution's rest_speed or slower: it bounces
        nothing, and stops the approach of the whole step, as before)."""
        velocity_a, velocity_b = contact_velocities(a, b, normal, self.state.up)
        if not self.pull or (velocity_a - velocity_b).dot(normal) <= self.state.rest_speed:
            return None, None
        return self._lag(a, path_a, time), self._lag(b, path_b, time)

    def _lag(self, body: Body, path: Path, time: float) -> Vector2 | None:
        """Gravity's g·dt·(½ − time) (px/s), which the body's velocity holds
        beyond its true velocity at step fraction ``time`` while it flies
        free (see the module's docstring); None where gravity does not move
        it (no Physics, STATIC, not SOLID, a gravity_scale of 0) or once a
        contact holds it this step (``Path.free``)."""
        physics = body.physics
        if physics is None or body.static or not body.inverse_mass or not physics.gravity_scale or not path.free:
            return None
        lag: Vector2 = self.pull * (physics.gravity_scale * (0.5 - time))
        return lag

    def _support(self, a: Body, b: Body, paths: tuple[Path, Path], normal: Vector2,
                 lags: tuple[Vector2 | None, Vector2 | None]) -> None:
        """After an impact along ``normal`` (a->b) was settled at the bodies'
        true velocities, give back to each its lag (``_lags``), which gravity
        adds by the end of the step. Where the impact left the pair at rest
        along the normal, the part of it that would part them is not given
        back (gravity alone never lifts a body off what it landed on); where
        it drives them into each other, the contact takes it up as a resting
        contact does, with friction. Either way the contact now holds them:
        for the rest of the step their velocities are true (``Path.free``)."""
        up = self.state.up
        velocity_a, velocity_b = contact_velocities(a, b, normal, up)
        rests = abs((velocity_b - velocity_a).dot(normal)) <= RESTING_SPEED
        zero = Vector2()
        parting = ((lags[1] or zero) - (lags[0] or zero)).dot(normal)
        for body, lag in zip((a, b), lags):
            if lag is not None:
                if rests and parting > 0.0:
                    lag = lag - normal * lag.dot(normal)
                body.physics.velocity += lag  # type: ignore[union-attr]  # (_lag: it has Physics)
        velocity_a, velocity_b = contact_velocities(a, b, normal, up)
        if (velocity_a - velocity_b).dot(normal) > RESTING_SPEED:
            rests = True
            exchange(a, b, normal, self.state.held_axes(a, -normal), self.state.held_axes(b, normal),
                     self.state.rest_speed, up)
        if rests:
            paths[0].free = paths[1].free = False

    def _changed(self, body: Body, path: Path, motion: Vector2, time: float) -> None:
        """After an impact at step fraction ``time``: if the body's path no
        longer moves by ``motion``, retire the impacts computed on the old
        one (a new version), count the impact (freezing the body at the
        bound) and sweep it again."""
        if path.motion == motion:
            return
        path.version += 1
        path.impacts += 1
        if path.impacts >= self.max_subdivisions:
            self._freeze(body, path)
        self._resweep(body, path, time)

    def _frozen(self, body: Body) -> bool:
        """Whether the body reached the bound on impacts this step."""
        path = self.paths.get(body.entity)
        return path is not None and path.impacts >= self.max_subdivisions

    def _box_at_time(self, time: float) -> Callable[[Body], Box]:
        """A body's box (px) at step fraction ``time``, on its path."""
        return lambda body: _box_at(body, self._path(body), time)

    def _settle_row(self, row: Row, normal: Vector2, time: float) -> None:
        """Resolve a row of boxes struck at step fraction ``time`` at once
        (see ``systems.physics._stages.rows``) and re-sweep those it changed."""
        paths = [self._path(body) for body in row.bodies]
        for path in paths:
            path.origin = path.at(time)
            path.start = time
        motions = [Vector2(path.motion) for path in paths]
        settle_row(row, normal, self._box_at_time(time), self.state, time, self.dt)
        for body, path, motion in zip(row.bodies, paths, motions):
            assert body.physics is not None  # rows hold bodies with Physics only
            path.motion = body.physics.velocity * self.dt + body.carry
            self._changed(body, path, motion, time)

    def _squeezed(self, a: Body, b: Body, time: float, normal: Vector2, held: tuple[bool, bool]) -> bool:
        """Whether, at step fraction ``time``, a body of the pair that is not
        STATIC is pushed by one that holds still (``held``: a STATIC, or a
        body pinned against one) into a STATIC on its far side, touching it
        (within SWEEP_SLOP), while the two close on each other: pressed
        between them. A body pinned earlier in the step and since bounced
        away (a ball rattling in a slot) is not, nor one that its own motion
        (gravity, its velocity) carries into a corner of surfaces that stay
        apart (a box come to rest between a wall and a ramp): it could leave
        the way it came, so nothing squeezes it (``_closing``)."""
        for body, pusher, push, pusher_holds in ((a, b, -normal, held[1]), (b, a, normal, held[0])):
            if body.static or not pusher_holds:
                continue
            x, y, w, h = _box_at(body, self.paths[body.entity], time)
            reach = (x + push.x * SWEEP_SLOP, y + push.y * SWEEP_SLOP, w, h)
            for entity in self.collision.candidates(body, reach):
                other = self.collision.bodies[entity]
                if not other.static or other.trigger or other is a or other is b:
                    continue
                pressed = overlap(reach, body.shape, body.before,
                                  _box_at(other, self._path(other), time), other.shape, other.before)
                if (pressed is not None and pressed.normal.dot(push) > 0.5
                        and _closing(self._path(pusher).motion, self._path(other).motion, push)):
                    return True
        return False

    def _crush(self, a: Body, b: Body, path_a: Path, path_b: Path, time: float) -> None:
        """The pair's body that is not STATIC is squeezed between things that
        won't yield (see ``_squeezed``).
        It is crushed and stops where it is, its velocity too (kept, gravity
        would add to it every step it stays crushed, and whatever frees it
        would let it go at that speed: energy from nowhere); the push-out
        then leaves it overlapping, centred (see ``Resolution.push_apart``),
        instead of trading impacts with both sides until the subdivision
        bound."""
        for body, path in ((a, path_a), (b, path_b)):
            if body.static:
                continue
            self.state.crushed.add(body.entity)
            if body.physics is not None and body.inverse_mass:
                body.physics.velocity.update(0.0, 0.0)
            if path.motion:
                path.motion = Vector2()
                path.version += 1
                self._resweep(body, path, time)

    def _shapes(self, a: Body, b: Body, time: float) -> Shapes:
        """The shapes of a and b at step fraction ``time``."""
        return _box_at(a, self.paths[a.entity], time), a.shape, _box_at(b, self.paths[b.entity], time), b.shape

    def _freeze(self, body: Body, path: Path) -> None:
        """Stop a body that reached the subdivision bound where it is."""
        self._warn_frozen(body.entity)
        if not body.static:
            path.motion = Vector2()

    def _warn_frozen(self, entity: int) -> None:
        if not self._warned:
            self._warned = True
            log.warning(
                "entity %d took part in %d impacts in one step; it stops where it is "
                "for the rest of the step (warned once per World)",
                entity, self.max_subdivisions,
            )

    def _resweep(self, body: Body, path: Path, now: float) -> None:
        """Schedule the impacts of a changed path with the body's neighbours.

        A neighbour whose box, over what is left of its own path, stays
        apart from the box this body sweeps through the rest of the step
        (by more than SWEEP_SLOP, far above rounding) cannot meet it: it is
        not swept (most of a fast body's neighbours). A path no impact has
        changed is bounded by the swept box the broad phase filed."""
        bodies, paths, filed = self.collision.bodies, self.paths, self.collision.grid.boxes
        mine = _box_at(body, path, now)
        reach = union_box(mine, _box_at(body, path, 1.0))
        candidates, met = self.collision.widen(body, reach)
        self.met += met
        x, y, w, h = reach
        left, top, right, bottom = x - SWEEP_SLOP, y - SWEEP_SLOP, x + w + SWEEP_SLOP, y + h + SWEEP_SLOP
        for entity in candidates:
            other_path = paths.get(entity)
            if other_path is None or not other_path.version:
                ox, oy, ow, oh = filed[entity]
            else:
                ox, oy, ow, oh = _remaining_bounds(bodies[entity], other_path)
            if ox > right or oy > bottom or ox + ow < left or oy + oh < top:
                continue
            other = bodies[entity]
            theirs = _box_at(other, other_path or self._path(other), now)
            if body.entity < entity:
                self._schedule(body, other, now, mine, theirs)
            else:
                self._schedule(other, body, now, theirs, mine)


def _closing(pusher: Vector2, anvil: Vector2, push: Vector2) -> bool:
    """Whether a pusher moving ``pusher`` px a step closes on an anvil (the
    STATIC on the pressed body's far side) moving ``anvil`` px a step, along
    ``push`` (unit, pusher to body). Where the two do not close, they leave
    the body the room it has (it came in, it can go out): no squeeze. Still
    bodies have exactly zero motion, so any closing at all counts."""
    return (pusher.x - anvil.x) * push.x + (pusher.y - anvil.y) * push.y > 0.0


def _remaining_bounds(body: Body, path: Path) -> tuple[float, float, float, float]:
    """The box (px) holding the body's collider all along its path from the
    path's start to the end of the step, kept until the path changes (an
    impact that only moves its start keeps it: the old box still holds the
    rest of the same line)."""
    if path.bounds is None or path.bounds_version != path.version:
        path.bounds = union_box(_box_at(body, path, path.start), _box_at(body, path, 1.0))
        path.bounds_version = path.version
    return path.bounds


def _box_at(body: Body, path: Path, time: float) -> tuple[float, float, float, float]:
    """The body's collider box (px) at step fraction ``time``."""
    if time == 0.0:
        return body.before  # every path starts where the step started
    # ``path.at(time)`` in scalars: the same operations, without two Vector2s
    # (read by index, cheaper than pygame's ``x`` lookup).
    origin, motion, elapsed = path.origin, path.motion, time - path.start
    offset, box = body.collider.offset, body.box
    return (origin[0] + motion[0] * elapsed + offset[0], origin[1] + motion[1] * elapsed + offset[1], box[2], box[3])

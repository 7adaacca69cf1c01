"""World: one isolated esper world with the collision pipeline installed."""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import esper
from pygame import Vector2

from components import ALL
from components import limits
from components._checks import area_size, vector_within
from ecs import snapshot
from ecs._vectors import VectorCheck
from ecs.events import Between, CollisionEvents, CollisionHandler, StepErrors, Subscription
from ecs.input import Input
from systems.game.camera import Camera, Views
from systems.physics.collision import CollisionSystem
from systems.physics._shapes.contact import Contact
from systems.physics.movement import MovementSystem
from systems.physics._solver.resolution import CollisionFilter
from systems.physics.queries import RayHit, SpatialQueries
from systems.physics.response import ResponseSystem
from systems.physics._stages.memory import Memory, checked_gravity

__all__ = [
    "World", "System", "CollisionHandler",
    "MOVEMENT_PRIORITY", "COLLISION_PRIORITY", "RESPONSE_PRIORITY", "EVENTS_PRIORITY",
]

C = TypeVar("C")
R = TypeVar("R")
if TYPE_CHECKING:  # (typing has them from Python 3.11; annotations are not evaluated)
    from typing import TypeVarTuple, Unpack
    A = TypeVarTuple("A")

#: Priorities of the built-in systems (as in esper, higher runs first); the
#: slots between them and what a system placed there sees:
#:
#: - above 300: before Movement. Set velocities here (player control, AI):
#:   this step moves by them.
#: - 201..299: after Movement, before Collision: bodies are at their new
#:   positions, nothing is resolved yet; moves made here are collided.
#: - 101..199: after Collision, before Response. Collision's pairs are there
#:   to read; a system here may still move bodies: Collision then runs again
#:   right before Response, which resolves the world as it is.
#: - 51..99: after Response, before the collision handlers: positions are
#:   final and ``world.contacts`` holds this step's contacts.
#: - 50 and below (0 is the default): after the collision handlers.
MOVEMENT_PRIORITY = 300
COLLISION_PRIORITY = 200
RESPONSE_PRIORITY = 100
EVENTS_PRIORITY = 50

_world_ids = itertools.count(1)

#: esper 3 keeps the current world in its module's globals, shared by every
#: thread: one re-entrant lock guards them. Each World method holds it while
#: it switches esper to its own world and calls it, and ``step`` holds it for
#: the whole step, so no other thread can switch esper to another World in
#: the middle of one. Re-entrant, because a system or a handler may use a
#: second World (or this one) on the same thread.
_ESPER = threading.RLock()
#: Names of Worlds garbage collected while another thread held ``_ESPER``:
#: deleted from esper by the next World to take the lock in ``step`` or
#: ``close`` (a finaliser must not wait for a lock).
_orphans: list[str] = []


class System(Protocol):
    """Anything with a ``process(dt)`` method can be added to a World."""

    def process(self, dt: float) -> None: ...


#: Resources a Scene puts in its World and holds itself: never in a snapshot.
_SCENE_OWNED = (Camera, Input, Views)


class World:
    """An isolated esper world with Movement, Collision and Response installed.

    esper 3 keeps its worlds as module-level contexts; every method here
    switches to this world's own context first, so two Worlds never see each
    other's entities, and holds a lock shared by every World meanwhile, so
    Worlds may be used on different threads (one World by one thread at a
    time; see ``step``). Method names follow esper's. ``gravity`` is in px/s².
    ``continuous`` (default) sweeps moving bodies along their paths so that
    nothing tunnels; False keeps the discrete pipeline, where bodies are only
    tested where each step leaves them (cheaper, fine when nothing is fast).
    """

    def __init__(self, gravity: tuple[float, float] | Vector2 = (0.0, 0.0), continuous: bool = True) -> None:
        self.name = f"ecs.World-{next(_world_ids)}"
        self.resources: dict[type, Any] = {}
        self._vectors = VectorCheck()  # the vectors ``step`` checks before anything moves
        self.closed = False
        # What the physics keeps across steps (gravity, riders, grounded, crushed): one, shared.
        memory = Memory(gravity=checked_gravity(gravity))
        self.movement = MovementSystem(self, memory=memory)
        self.collision = CollisionSystem(self)
        self.response = ResponseSystem(self, self.collision, continuous=continuous, memory=memory)
        self.events = CollisionEvents(self)
        #: What this step's systems, handlers and filters raised (None between steps).
        self._errors: StepErrors | None = None
        self.systems: list[tuple[int, Any]] = []
        self.timings: dict[str, float] = {}
        self.add_system(self.movement, MOVEMENT_PRIORITY)
        self.add_system(self.collision, COLLISION_PRIORITY)
        self.add_system(self.response, RESPONSE_PRIORITY)
        self.add_system(self.events, EVENTS_PRIORITY)

    def on_collision(self, handler: CollisionHandler | None = None, *,
                     between: Between | None = None) -> Any:
        """Call ``handler(contact)`` for every contact of every step, after
        Response. With ``between=(category_a, category_b)``, only for pairs
        with one collider on a layer of each, the contact oriented so that
        ``.a`` is on ``category_a`` (normal flipped to match); without it,
        contacts keep ``a < b``. Kept by a strong reference; returns the
        handler, and works as a decorator, with or without ``between``."""
        return self._subscribe(self.events.every, handler, between)

    def on_collision_begin(self, handler: CollisionHandler | None = None, *,
                           between: Between | None = None) -> Any:
        """Call ``handler(contact)`` the first step a pair touches (TRIGGER
        contacts included): a coin picked up, a zone entered. Pairs already
        touching when the first begin or end handler is added begin at its
        first step. ``between`` as for ``on_collision``."""
        return self._subscribe(self.events.begin, handler, between)

    def on_collision_end(self, handler: CollisionHandler | None = None, *,
                         between: Between | None = None) -> Any:
        """Call ``handler(contact)`` the first step a pair no longer touches,
        also when one of its entities was deleted or lost its Collider, so
        begins and ends balance; ``contact`` is its last (depth 0).
        ``between`` as for ``on_collision``."""
        return self._subscribe(self.events.end, handler, between)

    def on_crush(self, handler: Callable[[int], Any] | None = None) -> Any:
        """Call ``handler(entity)`` once per step for each SOLID body crushed:
        squeezed between colliders that won't yield (two STATICs closing on
        it, a lift rising into a ceiling, a wall of pinned boxes) so that no
        push-out can separate it. A crushed body is never pushed out through
        a STATIC; without a handler it is left overlapping, and the step goes
        on. Works as a decorator; returns the handler."""
        return _add_handler(self.events.crush, handler, self.on_crush)

    def collision_filter(self, handler: CollisionFilter | None = None) -> Any:
        """Call ``handler(a, b)`` (entity ids) before a pair is resolved, once
        per pair and step (the swept pipeline asks about each of the step's
        candidate pairs first, in entity order, then about pairs met mid-step
        as they meet); returning ``False`` lets the
        pair pass through each other this step: no push, no momentum, no
        contact, no Touching flag (a bullet and its shooter). Works as a
        decorator; returns the handler. A filter that raises lets the pair
        be resolved as if it had not been asked, and the step raises its
        exception once complete (see ``step``)."""
        if handler is None:
            return self.collision_filter
        if not callable(handler):
            raise ValueError(f"handler must be callable, got {handler!r}")
        self.response.filters.append(_GuardedFilter(handler, self))
        return handler

    def remove_collision_handler(self, handler: Callable[..., Any]) -> None:
        """Stop calling ``handler`` (a collision handler of any kind, or a
        collision filter)."""
        for subscriptions in (self.events.begin, self.events.every, self.events.end):
            subscriptions[:] = [s for s in subscriptions if s.handler is not handler]
        self.events.crush[:] = [h for h in self.events.crush if h is not handler]
        self.response.filters[:] = [f for f in self.response.filters
                                    if f is not handler and getattr(f, "handler", None) is not handler]

    def _subscribe(self, subscriptions: list[Subscription], handler: CollisionHandler | None,
                   between: Between | None) -> Any:
        """Add a handler, or return a decorator that will (``between`` is
        checked at once either way)."""
        if between is not None:
            if (not isinstance(between, tuple) or len(between) != 2
                    or not all(isinstance(c, int) and not isinstance(c, bool) and 0 < c <= ALL for c in between)):
                raise ValueError(f"between must be a pair of categories (int layer bits), got {between!r}")
        if handler is None:
            return lambda function: self._subscribe(subscriptions, function, between)
        if not callable(handler):
            raise ValueError(f"handler must be callable, got {handler!r}")
        subscriptions.append(Subscription(handler, between))
        return handler

    def raycast(self, start: Point, end: Point, mask: int = ALL, triggers: bool = False) -> list[RayHit]:
        """Every collider the segment from ``start`` to ``end`` (px) crosses,
        ordered by ``fraction`` then entity: ``RayHit(entity, point, normal,
        fraction)`` with ``point = start + fraction·(end − start)`` on the
        collider's surface and ``normal`` the unit surface normal there,
        pointing out of it. A segment starting inside a collider reports it
        at fraction 0 with normal −direction. Colliders whose category is
        not in ``mask`` are skipped, and TRIGGERs unless ``triggers``."""
        first, last = self._segment(start, end)
        return self._queries().raycast(first, last, _query_mask(mask), triggers)

    def cast_box(self, size: Point, start: Point, end: Point, mask: int = ALL,
                 triggers: bool = False) -> list[RayHit]:
        """``raycast`` for an axis-aligned box of ``size`` (px) whose top-left
        corner moves from ``start`` to ``end`` (swept AABB): ``fraction`` is
        the time of impact, ``point`` the box's top-left then, ``normal`` the
        face hit, pointing out of the collider."""
        box = _size("size", size)
        first, last = self._segment(start, end)
        return self._queries().cast_box(box, first, last, _query_mask(mask), triggers)

    def query_point(self, point: Point, mask: int = ALL, triggers: bool = True) -> list[int]:
        """Entities whose colliders contain ``point`` (px; edges don't count),
        sorted; ``mask`` and ``triggers`` as for ``raycast``."""
        where = _coordinates("point", point)
        return self._queries().query_point(where, _query_mask(mask), triggers)

    def query_box(self, position: Point, size: Point, mask: int = ALL, triggers: bool = True) -> list[int]:
        """Entities whose colliders overlap the box at ``position`` (top-left,
        px) of ``size`` (touching doesn't count), sorted."""
        where, box = _coordinates("position", position), _size("size", size)
        return self._queries().query_box(where, box, _query_mask(mask), triggers)

    def _segment(self, start: Point, end: Point) -> tuple[Vector2, Vector2]:
        first, last = _coordinates("start", start), _coordinates("end", end)
        if first == last:
            raise ValueError(f"a query segment needs length: start and end are both {tuple(first)}")
        return first, last

    def _queries(self) -> SpatialQueries:
        self.collision.sync()  # (through this World's methods, each under the lock)
        return SpatialQueries(self.collision)

    def snapshot(self, resources: Iterable[type] = ()) -> bytes:
        """The World's whole simulation state as bytes (``ecs.snapshot``):
        every entity and component, the ids to come, pending deletions, the
        physics' state kept across steps, the events' memory of touching
        pairs, and the resources of the types named in ``resources`` (a
        score, a wave counter; the camera and input are the game's, not the
        simulation's). ``restore`` brings it back; stepping on then gives the
        same floats as never having stopped, in this process or another."""
        kinds = list(resources)
        missing = [kind for kind in kinds if kind not in self.resources]
        if missing:
            raise ValueError(f"resources: {self.name} holds no resource of type {missing[0]!r}")
        owned = [kind for kind in kinds if kind in _SCENE_OWNED]
        if owned:  # a restore would put a new one in the World while the scene draws and reads the old
            raise ValueError(f"resources: a {owned[0].__name__} is the scene's (scene.camera, scene.input, "
                             f"scene.views hold it), not the simulation's: it can't be kept in a snapshot; "
                             f"save what you need of it yourself (camera.position) and set it back")
        with _ESPER:
            self._enter()
            state = {"continuous": self.response.continuous, **snapshot.esper_state()}
        memory = self.movement.memory
        state["memory"] = {"gravity": memory.gravity, "rides": memory.rides, "grounded": memory.grounded,
                           "crushed": memory.crushed, "squeezes": memory.squeezes, "contacts": memory.contacts(),
                           "warned": (memory.warned_overlap, memory.warned_crush)}
        state["touching"] = self.events.touching
        state["resources"] = {kind: self.resources[kind] for kind in kinds}
        shared = {kind: resource for kind, resource in self.resources.items() if kind not in state["resources"]}
        return snapshot.pack(state, self.name, shared)

    def restore(self, data: bytes) -> None:
        """Bring back the state ``snapshot`` made. Bytes that are not a
        snapshot, of another format version, corrupted, or of a World with
        the other pipeline raise ``SnapshotError`` (a ValueError) and leave
        the World as it was. Systems and handlers are code, not state: they
        stay as this World has them."""
        state = snapshot.unpack(data, self.resources)
        if state["continuous"] != self.response.continuous:
            raise snapshot.SnapshotError(f"a snapshot of a World with continuous={state['continuous']} "
                                         f"cannot be restored into {self.name} (continuous={self.response.continuous})")
        with _ESPER:
            self._enter()
            snapshot.replace_esper_state(state["entities"], state["next_entity"], state["pending"])
        memory, saved = self.movement.memory, state["memory"]
        memory.gravity, memory.rides, memory.grounded = saved["gravity"], saved["rides"], saved["grounded"]
        memory.crushed, memory.squeezes = saved["crushed"], saved["squeezes"]
        memory.warned_overlap, memory.warned_crush = saved["warned"]
        memory.replace_contacts(saved["contacts"])
        self.events.touching = state["touching"]
        self.resources.update(state["resources"])

    def insert_resource(self, resource: Any) -> None:
        """Store a world-wide singleton (Bevy's resources), keyed by its type."""
        self.resources[type(resource)] = resource

    def resource(self, resource_type: type[C]) -> C:
        """The resource of that type (KeyError if none was inserted)."""
        resource: C = self.resources[resource_type]
        return resource

    def close(self) -> None:
        """Delete this world's esper context and everything in it.

        esper keeps every world in a module-level map until it is deleted, so
        a game that makes a World per level or scene should close the old
        one; a World that is garbage collected closes itself.
        """
        self.closed = True
        with _ESPER:
            _delete_contexts([self.name])

    def __reduce__(self) -> Any:
        # A copy would own the same esper context and delete it when collected: a World is
        # never pickled (a snapshot holds its state; a component that holds the World, such as
        # a tween's on_done=world.delete_entity, is refused by name).
        raise TypeError(f"{self.name} cannot be pickled or copied (world.snapshot() keeps its state, but nothing "
                        f"that holds the World itself, such as a bound method like world.delete_entity)")

    def __del__(self) -> None:
        # A finaliser may run on any thread, at any allocation: it never
        # waits for the lock, it leaves the name for the next step or close.
        if getattr(self, "closed", True):
            return
        self.closed = True
        if not _ESPER.acquire(blocking=False):
            _orphans.append(self.name)
            return
        try:
            _delete_contexts([self.name])
        except Exception:  # interpreter shutdown: esper may already be gone
            pass
        finally:
            _ESPER.release()

    def _enter(self) -> None:
        """Make this world esper's current context (every method starts so,
        holding ``_ESPER``)."""
        if self.closed:
            raise RuntimeError(f"{self.name} is closed: it has no entities or systems any more")
        if esper.current_world != self.name:
            esper.switch_world(self.name)

    @property
    def gravity(self) -> Vector2:
        """Gravity in px/s² applied by Movement and read by Response: the World's own vector, so
        ``world.gravity.y = 500`` takes effect at the next step, as assigning does. Each component
        is within ±``components.limits.MAX_ACCELERATION``: checked when assigned, and (a change in
        place) by ``check_vectors``."""
        return self.movement.memory.gravity

    @gravity.setter
    def gravity(self, value: tuple[float, float] | Vector2) -> None:
        self.movement.memory.gravity = checked_gravity(value)

    @property
    def contacts(self) -> list[Contact]:
        """Contacts resolved in the current (or, between steps, the last) step."""
        return self.response.contacts

    def add_system(self, system: System, priority: int = 0) -> None:
        """Plug in a system; higher priority runs first, equal priorities in
        the order added (esper's rule; see the priority constants). Like
        esper, any object with a ``process(dt)`` method is accepted."""
        if isinstance(system, type):
            raise TypeError(f"add_system takes a system, not its class: add_system({system.__name__}(...)), "
                            f"got {system!r}")
        if not callable(getattr(system, "process", None)):
            raise ValueError(f"system must have a process(dt) method, got {system!r}")
        if isinstance(priority, bool) or not isinstance(priority, (int, float)) or not math.isfinite(priority):
            raise ValueError(f"priority must be a finite number (higher runs first), got {priority!r}")
        if hasattr(system, "priority") or isinstance(system, esper.Processor):
            system.priority = priority
        self.systems.append((priority, system))
        self.systems.sort(key=lambda item: -item[0])

    def remove_system(self, system: Any) -> None:
        """Remove a system, given the instance or its class."""
        self.systems = [(p, s) for p, s in self.systems if s is not system and type(s) is not system]

    def check_vectors(self) -> None:
        """Raise ``ValueError`` naming the entity and the field if a vector of the components
        is bad: a Transform's position or previous position, a Physics' velocity or a
        Collider's offset or size not finite, a size not above 0, a CIRCLE's size not square,
        or the World's gravity beyond its limits (a vector changed in place, which no assignment
        check sees). ``step`` makes this check
        before the physics reads the components, and again after the game's code that runs
        inside it (systems between the physics systems, the collision filters)."""
        self._vectors.check(self)
        gravity = self.movement.memory.gravity
        if not (abs(gravity.x) <= limits.MAX_ACCELERATION and abs(gravity.y) <= limits.MAX_ACCELERATION):
            try:  # (false for a NaN too) the assignment's check names the component and the limit
                checked_gravity(gravity)
            except ValueError as error:
                raise ValueError(f"World.{error}, set in place since the last step") from None

    def step(self, dt: float) -> None:
        """Run every system once with ``dt`` seconds (0 to 1 s); each
        system's time (ms) is kept in ``timings`` under its class name, and
        the stages systems time (see ``timed``) under theirs.

        Each system runs with this World as esper's current world, whatever
        the system or handler before it touched. A system, collision
        handler or collision filter that raises does not stop the step: the
        other systems and handlers run (a filter's pair is resolved), the
        step completes, then the first exception is raised again, with a
        note naming where it came from and a note for each later one. The
        World is left as a step without the failing call would leave it
        (what the call did before it raised stays done). A bad ``dt`` raises
        before anything runs; a vector made bad in place (between steps, or by
        a system) raises at the next physics system, before the physics moves
        or resolves anything with it, and the step stops there; an exception
        that is not an ``Exception`` (``KeyboardInterrupt``) stops the step
        where it is, with a note for the exception the step had kept, if any.

        Thread safety: the step holds a lock shared by every World, so
        Worlds may be stepped (and built) on different threads; they take
        turns. A World and its components belong to one thread at a time,
        and esper's module functions are safe only inside a step (in a
        system or handler) or while no other thread uses a World. A system
        or handler that waits for another thread which uses any World
        deadlocks: that thread waits for the lock this step holds.
        """
        if isinstance(dt, bool) or not isinstance(dt, (int, float)) or not 0 <= dt <= limits.MAX_STEP:
            raise ValueError(f"dt must be a number of seconds in [0, {limits.MAX_STEP:g}], got {dt!r}")
        with _ESPER:
            if self._errors is not None:
                raise RuntimeError(f"{self.name}.step() was called during its own step (by a system, handler or "
                                   f"filter); a step runs every system once: step again after it returns")
            if _orphans:
                _delete_contexts([])
            self._enter()
            esper.clear_dead_entities()
            self.timings.clear()
            errors = self._errors = StepErrors(self.name)
            try:
                self._run_systems(dt, errors)
            except BaseException as stop:  # what stops the step where it is (KeyboardInterrupt): _run keeps the rest
                errors.note_on(stop)
                raise
            finally:
                self._errors = None
            errors.raise_first()

    def _run_systems(self, dt: float, errors: StepErrors) -> None:
        """Run each system in turn, collecting what they raise in ``errors``. Before the
        physics reads the components, their vectors are checked (``VectorCheck``): at the
        first physics system, and again at one that follows a system of the game's, which may
        have written them in place (a velocity set to NaN before Movement would move the body
        there, and reach the core); a bad one stops the step there, before the physics moves
        or resolves anything with it."""
        collided = stale = False
        physics = (self.movement, self.collision, self.response)
        unchecked = True  # (the vectors were written since the last check: between steps, or by a system)
        for _, system in list(self.systems):  # a list changed mid-step counts from the next step
            own = any(system is each for each in physics)
            if unchecked and own:
                self.check_vectors()
                unchecked = False
            if system is self.response and stale:
                # A system ran after Collision and may have moved bodies:
                # find the pairs again, so Response sees the world as it is.
                self._run(self.collision, dt, errors)
            self._run(system, dt, errors)
            unchecked |= not own
            if system is self.collision:
                collided, stale = True, False
            elif collided:
                stale = True

    def timed(self, stage: str) -> _Timed:
        """Add the time (ms) spent in the ``with`` block to ``timings[stage]``.

        Systems time their stages with it, named ``"<system class>.<stage>"``
        (``"ResponseSystem.sweep"``), so the debug overlay and the benchmarks
        show where a step goes; a stage's time is also part of its system's.
        """
        return _Timed(self.timings, stage)

    def _run(self, system: System, dt: float, errors: StepErrors) -> None:
        """Run one system with this World current, adding its time (ms) to
        ``timings`` (under its class name, listed before the stages it
        times) and what it raises to ``errors``."""
        name = type(system).__name__
        self.timings.setdefault(name, 0.0)
        start = time.perf_counter()
        self._enter()  # a system or handler before may have used another World
        errors.call(system.process, (dt,), f"{name}.process")
        self.timings[name] += (time.perf_counter() - start) * 1000

    def _esper(self, function: Callable[[Unpack[A]], R], *args: Unpack[A]) -> R:
        """esper's ``function`` called on this world, holding ``_ESPER``
        (every public method that reads or writes entities goes through it)."""
        with _ESPER:
            if self.closed or esper.current_world != self.name:  # (``_enter``'s tests, inline: this is hot)
                self._enter()
            return function(*args)

    def create_entity(self, *components: Any) -> int:
        """Create an entity with the given components and return its id."""
        for component in components:
            _refuse_class(component)
        return self._esper(esper.create_entity, *components)

    def delete_entity(self, entity: int, immediate: bool = False) -> None:
        """Delete an entity (at the start of the next step unless immediate). One waiting to be
        deleted may be deleted again (two collision handlers may both delete a bullet): again
        later does nothing more, at once deletes it now. An entity not in this World (deleted
        at once already, or never made) raises ``KeyError`` naming it, here rather than at the
        next step."""
        self._esper(_delete_entity, entity, immediate)

    def entity_exists(self, entity: int) -> bool:
        """Whether the entity exists and is not waiting to be deleted."""
        return self._esper(esper.entity_exists, entity)

    def add_component(self, entity: int, component: Any) -> None:
        """Add (or replace) a component of an entity (``KeyError`` naming it if it is not in this World)."""
        _refuse_class(component)
        self._esper(_add_component, entity, component)

    def remove_component(self, entity: int, component_type: type[C]) -> C:
        """Remove and return an entity's component of that type (``KeyError`` naming both if missing)."""
        return self._esper(_with_names, esper.remove_component, entity, component_type)

    def component_for_entity(self, entity: int, component_type: type[C]) -> C:
        """An entity's component of that type (``KeyError`` naming both if missing)."""
        return self._esper(_with_names, esper.component_for_entity, entity, component_type)

    def try_component(self, entity: int, component_type: type[C]) -> C | None:
        """An entity's component of that type, or None."""
        return self._esper(esper.try_component, entity, component_type)

    def has_component(self, entity: int, component_type: type) -> bool:
        """Whether the entity has a component of that type."""
        return self._esper(esper.has_component, entity, component_type)

    def get_component(self, component_type: type[C]) -> list[tuple[int, C]]:
        """Every (entity, component) pair of that type."""
        return self._esper(esper.get_component, component_type)

    def get_components(self, *component_types: type) -> list[tuple[int, tuple[Any, ...]]]:
        """Every (entity, (components...)) holding all those types."""
        every: Callable[..., list[tuple[int, tuple[Any, ...]]]] = esper.get_components  # (one of its overloads)
        return self._esper(every, *component_types)


def _refuse_class(component: Any) -> None:
    """Raise ``TypeError`` for a component class given where a component is expected (esper
    would keep the class itself as the entity's component, and no system would ever see it)."""
    if isinstance(component, type):
        raise TypeError(f"got the class {component.__name__}, not a component: make one, e.g. "
                        f"{component.__name__}(...)")


def _missing(entity: int, component_type: type | None = None) -> str:
    """Why ``entity`` has no ``component_type`` in the current world (``KeyError``'s message)."""
    if entity not in esper._entities:  # noqa: SLF001
        return f"entity {entity!r} is not in this World (deleted, or never made); World.entity_exists tells"
    return f"entity {entity!r} has no {getattr(component_type, '__name__', component_type)} component"


def _with_names(function: Callable[[int, type[C]], R], entity: int, component_type: type[C]) -> R:
    """esper's ``function(entity, component_type)``, its ``KeyError`` naming both."""
    try:
        return function(entity, component_type)
    except KeyError:
        raise KeyError(_missing(entity, component_type)) from None


def _add_component(entity: int, component: Any) -> None:
    """esper's ``add_component``, refusing an entity not in the current world by name (esper
    raises ``KeyError`` with the bare id)."""
    if entity not in esper._entities:  # noqa: SLF001
        raise KeyError(_missing(entity))
    esper.add_component(entity, component)


def _delete_entity(entity: int, immediate: bool) -> None:
    """esper's ``delete_entity`` in the current world (``World.delete_entity``). esper would
    leave an entity deleted at once while it waits to be deleted, or one it doesn't hold, in
    its list of entities to delete, and raise at the next step's start, every step after."""
    if entity not in esper._entities:  # noqa: SLF001
        raise KeyError(_missing(entity))
    if immediate:
        esper._dead_entities.discard(entity)  # noqa: SLF001 (deleted now, not again at the next step)
    esper.delete_entity(entity, immediate)


class _Timed:
    """``World.timed``'s context manager: a class, not a generator, because
    a step enters one for every stage (a generator-based one costs about four
    times as much)."""

    __slots__ = ("timings", "stage", "start")

    def __init__(self, timings: dict[str, float], stage: str) -> None:
        self.timings, self.stage, self.start = timings, stage, 0.0

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exception: object) -> None:
        elapsed = (time.perf_counter() - self.start) * 1000
        self.timings[self.stage] = self.timings.get(self.stage, 0.0) + elapsed


def _delete_contexts(names: list[str]) -> None:
    """Delete the esper contexts of closed Worlds: ``names`` and those left
    by finalisers in ``_orphans`` (the caller holds ``_ESPER``)."""
    names = list(names)
    while _orphans:  # (pop, not copy then clear: a finaliser may append in between)
        names.append(_orphans.pop())
    existing = esper.list_worlds()
    for name in names:
        if name not in existing:
            continue
        if esper.current_world == name:
            esper.switch_world("default")
        esper.delete_world(name)


Point = tuple[float, float] | Vector2
_coordinates = vector_within(limits.MAX_COORDINATE, " px")
_size = area_size(limits.MAX_SIZE)


def _query_mask(mask: object) -> int:
    """A query's mask: an int of 32 layer bits."""
    if isinstance(mask, bool) or not isinstance(mask, int) or not 0 <= mask <= ALL:
        raise ValueError(f"mask must be an int of 32 layer bits in [0, {ALL}], got {mask!r}")
    return mask


class _GuardedFilter:
    """A collision filter that, if it raises, answers None (not False:
    resolve the pair, as if it had not been asked) and leaves the exception
    in the step's ``StepErrors`` (asked outside a step, it raises)."""

    __slots__ = ("handler", "world")

    def __init__(self, handler: CollisionFilter, world: World) -> None:
        self.handler = handler
        self.world = world

    def __call__(self, a: int, b: int) -> object:
        errors = self.world._errors
        if errors is None:
            return self.handler(a, b)
        return errors.call(self.handler, (a, b), "collision filter {name} (pair {0}, {1})")


def _add_handler(handlers: list[Any], handler: Callable[..., Any] | None, decorator: Callable[..., Any]) -> Any:
    """Append ``handler`` to ``handlers`` and return it, or, without one,
    return ``decorator`` (the method itself, used as ``@world.on_crush``)."""
    if handler is None:
        return decorator
    if not callable(handler):
        raise ValueError(f"handler must be callable, got {handler!r}")
    handlers.append(handler)
    return handler

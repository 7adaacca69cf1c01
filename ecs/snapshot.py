"""Snapshots: a World's whole simulation state as bytes, and back (``World.snapshot``,
``World.restore``).

A snapshot holds every entity and its components, the entity ids to come, the deletions
still pending, what the physics keeps from step to step (``Memory``: gravity, riders,
grounded, crushed, squeezes, the last step's contacts), the collision events' memory of
touching pairs, and the resources the caller names. ``unpack`` checks the bytes first (the
format's mark, its version, a SHA-256 of the rest) and the World checks that the pipeline
matches, before anything is replaced: a refused snapshot leaves the World untouched.
The collide stage reads everything anew from the components on the next step; stepping
on gives the same floats as never having stopped, because no result of a step depends on
the order in which the broad phase happens to list its pairs.

The World's other resources (its camera, input, timers) are not kept: a component that
refers to one (a Tween of the camera) refers, once restored, to the restoring World's
resource of the same type.

Surfaces (a Sprite's image, an Animation's frames) are kept as their RGBA pixels; one
surface shared by many components is kept once and shared again after loading. The payload
is a pickle: load only snapshots your own program made (a pickle from elsewhere can run code).
"""

from __future__ import annotations

import contextvars
import copyreg
import hashlib
import io
import itertools
import pickle
import struct
from collections.abc import Callable
from typing import Any

import esper
import pygame

__all__ = ["FORMAT", "SnapshotError", "esper_state", "pack", "replace_esper_state", "unpack"]

#: Bumped whenever what a snapshot holds, or how, changes.
FORMAT = 3
_MARK = b"ecs-arcade snapshot\n"
_HEADER = struct.Struct("<H32s")  # format version, SHA-256 of the payload


class SnapshotError(ValueError):
    """A snapshot that cannot be loaded: not one, another format version, corrupted, or made
    by a World with another pipeline. The World it was loaded into is left as it was."""


def pack(state: dict[str, Any], where: str, shared: dict[type, Any]) -> bytes:
    """``state`` (plain data and components) as snapshot bytes: the mark, the format
    version, a SHA-256 of the payload, then the payload. ``where`` names the World.
    ``shared`` are the World's resources the snapshot does not keep: a component
    that refers to one (a Tween of the camera) refers, once restored, to the
    restoring World's resource of that type."""
    try:
        data = _pickled(state, shared)
    except _UNPICKLABLE as error:
        raise SnapshotError(f"snapshot of {where}: {_culprit(state, shared)} cannot be kept: {error} (a "
                            f"callback it holds, such as a tween's on_done, must be a module-level function: not a "
                            f"lambda, a nested function or a bound method)") from error
    return _MARK + _HEADER.pack(FORMAT, hashlib.sha256(data).digest()) + data


_UNPICKLABLE = (pickle.PicklingError, TypeError, AttributeError)


def _pickled(value: object, shared: dict[type, Any]) -> bytes:
    """``value`` pickled, Surfaces as their pixels and the ``shared`` resources (and the
    objects a resource lists in its ``snapshot_shared()``, such as a scene's other cameras)
    as references. (Through the dispatch table, which pickle consults only for those
    types: a ``persistent_id`` called for every object made a snapshot several times slower.)"""
    payload = io.BytesIO()
    pickler = pickle.Pickler(payload, protocol=5)
    pickler.dispatch_table = {**copyreg.dispatch_table, pygame.Surface: _reduce_surface}
    references: dict[int, tuple[type, int | None]] = {}
    for kind, resource in shared.items():
        if kind.__module__ == "builtins":  # an int or a str may be the very object a component holds
            continue
        references[id(resource)] = (kind, None)
        listed = getattr(resource, "snapshot_shared", None)
        for index, held in enumerate(listed() if callable(listed) else ()):
            references[id(held)] = (kind, index)
    for kind in {type(obj) for obj in _alive(shared, references)}:
        pickler.dispatch_table[kind] = _by_reference(references)
    pickler.dump(value)
    return payload.getvalue()


def _alive(shared: dict[type, Any], references: dict[int, tuple[type, int | None]]) -> list[Any]:
    """The objects ``references`` names (the shared resources and what they list)."""
    found = []
    for kind, resource in shared.items():
        if id(resource) in references:
            found.append(resource)
            listed = getattr(resource, "snapshot_shared", None)
            found.extend(listed() if callable(listed) else ())
    return found


def _by_reference(references: dict[int, tuple[type, int | None]]) -> Callable[[Any], Any]:
    """A reduce function pickling the objects of ``references`` as (resource type, index in its
    ``snapshot_shared()`` or None for the resource itself), any other object as usual."""
    def reduce(obj: Any) -> Any:
        reference = references.get(id(obj))
        if reference is not None:
            return _restoring_resource, reference
        return obj.__reduce_ex__(5)
    return reduce


#: The resources of the World being restored into, while its snapshot is unpickled.
_RESTORING: contextvars.ContextVar[dict[type, Any]] = contextvars.ContextVar("ecs_arcade_restoring")


def _restoring_resource(kind: type, index: int | None = None) -> Any:
    """The restoring World's resource of type ``kind``, or the ``index``-th object it lists
    in ``snapshot_shared()`` (what ``_by_reference`` kept)."""
    resources = _RESTORING.get({})
    if kind not in resources:
        raise SnapshotError(f"the snapshot refers to the World's {kind.__name__} resource, which this World "
                            f"does not hold")
    if index is None:
        return resources[kind]
    listed = list(resources[kind].snapshot_shared())
    if index >= len(listed):
        raise SnapshotError(f"the snapshot refers to object {index} of the World's {kind.__name__} resource, "
                            f"which holds {len(listed)}")
    return listed[index]


def _culprit(state: dict[str, Any], shared: dict[type, Any]) -> str:
    """Names the first component (with its entity) or resource in ``state`` that won't pickle."""
    for entity, components in state["entities"]:
        for component in components:
            try:
                _pickled(component, shared)
            except _UNPICKLABLE:
                return f"entity {entity}'s {type(component).__name__} component"
    for kind, resource in state["resources"].items():
        try:
            _pickled(resource, shared)
        except _UNPICKLABLE:
            return f"the {kind.__name__} resource"
    return "the physics' state"


def unpack(data: object, resources: dict[type, Any]) -> dict[str, Any]:
    """The state snapshot bytes hold, after checking their mark, version and digest
    (``SnapshotError`` if any is wrong); what referred to a resource the snapshot
    did not keep refers to the one of ``resources`` of that type."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise SnapshotError(f"a snapshot is bytes, got {type(data).__name__}")
    data = bytes(data)
    if not data.startswith(_MARK) or len(data) < len(_MARK) + _HEADER.size:
        raise SnapshotError("not an ecs-arcade snapshot (its first bytes are not the snapshot mark)")
    version, digest = _HEADER.unpack_from(data, len(_MARK))
    if version != FORMAT:
        raise SnapshotError(f"snapshot format {version}, but this version of ecs-arcade reads format {FORMAT}")
    payload = data[len(_MARK) + _HEADER.size:]
    if hashlib.sha256(payload).digest() != digest:
        raise SnapshotError("snapshot corrupted: its contents do not match their SHA-256")
    token = _RESTORING.set(resources)
    try:
        state: dict[str, Any] = pickle.loads(payload)
    except SnapshotError:
        raise
    except Exception as error:  # a component class this program no longer has, or renamed
        raise SnapshotError(f"snapshot could not be read: {type(error).__name__}: {error}") from error
    finally:
        _RESTORING.reset(token)
    return state


def esper_state() -> dict[str, Any]:
    """The current esper world's entities (each with its components, by
    type, in the order they were added), the next entity id and the
    deletions pending. esper 3 keeps these in module globals and has no
    public way to list every entity or to read its id counter without
    consuming it; the World is the one place that reaches them."""
    database: dict[int, dict[type, Any]] = esper._entities  # noqa: SLF001
    counter: itertools.count[int] = esper._entity_count  # noqa: SLF001
    return {"entities": [(entity, list(components.values())) for entity, components in sorted(database.items())],
            "next_entity": counter.__reduce__()[1][0],
            "pending": sorted(esper._dead_entities)}  # noqa: SLF001


def replace_esper_state(entities: list[tuple[int, list[Any]]], next_entity: int, pending: list[int]) -> None:
    """Make the current esper world hold exactly ``entities`` (with their
    ids), the id counter at ``next_entity`` and ``pending`` deletions."""
    esper.clear_database()
    for entity, components in entities:
        esper._entity_count = itertools.count(entity)  # noqa: SLF001 (create_entity takes the next id)
        esper.create_entity(*components)
    esper._entity_count = itertools.count(next_entity)  # noqa: SLF001
    for entity in pending:
        esper.delete_entity(entity)


def _reduce_surface(surface: pygame.Surface) -> tuple[Any, tuple[bytes, tuple[int, int]]]:
    """A Surface as its RGBA pixels and size (pickle's reduce protocol)."""
    return _surface, (pygame.image.tobytes(surface, "RGBA"), surface.get_size())


def _surface(pixels: bytes, size: tuple[int, int]) -> pygame.Surface:
    """The Surface ``_reduce_surface`` kept."""
    return pygame.image.frombytes(pixels, size, "RGBA")


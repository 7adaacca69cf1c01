"""Body: one collider as the collision pipeline sees it during a step, and
Bodies, the mapping of a step's Bodies, each made when first looked up."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, overload

from pygame import Vector2

from components import Collider, Physics, Shape, Transform
from systems.physics._shapes.geometry import Box

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

__all__ = ["Bodies", "Body"]

_T = TypeVar("_T")


@dataclass(slots=True, eq=False)
class Body:
    """One collider as the collision pipeline sees it during a step.

    ``box`` is its box now (px; call ``sync`` after moving the transform) and
    ``before`` its box at the start of the step; ``shape`` its collider's
    Shape (a circle is the disc inscribed in the box, a triangle half of
    it). ``moved`` tells whether
    Movement (or a user system) changed the position this step.
    ``inverse_mass`` is 1/mass, 0 for STATIC colliders and for SOLIDs without
    Physics (they have no velocity for a collision to change). ``neighbours``
    are the entities the broad phase paired it with. A Body is made when
    Response or a handler first looks it up in a step (see ``Bodies``), from
    its components as they are then.
    """

    entity: int
    transform: Transform
    collider: Collider
    physics: Physics | None
    shape: Shape = Shape.BOX
    static: bool = False
    trigger: bool = False
    inverse_mass: float = 0.0
    moved: bool = False
    box: Box = (0.0, 0.0, 0.0, 0.0)
    neighbours: list[int] = field(default_factory=list)
    _before: Box | None = None

    @property
    def before(self) -> Box:
        """The box at the start of the step (computed when first asked)."""
        if self._before is None:
            start, offset, size = self.transform.previous_position, self.collider.offset, self.box
            self._before = (start[0] + offset[0], start[1] + offset[1], size[2], size[3])
        return self._before

    def sync(self) -> None:
        """Recompute ``box`` from the transform after the position changed."""
        position = self.transform.position
        offset = self.collider.offset
        self.box = (position[0] + offset[0], position[1] + offset[1], self.box[2], self.box[3])


class Bodies(dict[int, Body]):
    """entity -> ``Body`` for this step's colliders, each Body made when it
    is first looked up (``bodies[entity]``, ``get``).

    A step whose pairs and sweeps run as compiled kernels needs Bodies only
    for the few bodies push-out, contacts and handlers look at; reading a
    Body costs about a microsecond, so they are not made for the others.
    ``in`` and ``len`` count every collider; iterating, comparing or copying
    makes every Body, in entity order. A Body is read from its components
    when it is made: one first looked up after the step, by a handler or a
    later system, has its box where the body is then. Collision keeps one
    ``Bodies`` and starts it afresh each step (``restart``), so a reference
    kept from an earlier step still looks up this step's Bodies. It is
    read-only: the pipeline's own record, not a dict to edit.
    """

    def __init__(self, make: Callable[[int], Body] | None = None) -> None:
        super().__init__()
        self._make = make
        self._rows: dict[int, int] = {}  # entity -> row of Collision's columns

    def restart(self, rows: dict[int, int]) -> None:
        """Forget the Bodies made so far: from now on, the colliders of
        ``rows`` (entity -> row of Collision's columns) are looked up."""
        dict.clear(self)
        self._rows = rows

    def __missing__(self, entity: int) -> Body:
        if self._make is None or entity not in self._rows:
            raise KeyError(entity)
        body = self._make(entity)
        dict.__setitem__(self, entity, body)
        return body

    @overload
    def get(self, entity: int, default: None = None, /) -> Body | None: ...
    @overload
    def get(self, entity: int, default: Body, /) -> Body: ...
    @overload
    def get(self, entity: int, default: _T, /) -> Body | _T: ...

    def get(self, entity: int, default: object = None, /) -> object:
        """The Body of ``entity``, or ``default`` if it has no collider."""
        body = dict.get(self, entity)
        if body is not None:
            return body
        return self[entity] if entity in self._rows else default

    def made(self) -> list[Body]:
        """The Bodies made so far this step."""
        return list(super().values())

    def __contains__(self, entity: object) -> bool:
        return entity in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[int]:
        self._fill()
        return super().__iter__()

    def __reversed__(self) -> Iterator[int]:
        self._fill()
        return super().__reversed__()

    def keys(self) -> dict_keys[int, Body]:
        self._fill()
        return super().keys()

    def values(self) -> dict_values[int, Body]:
        self._fill()
        return super().values()

    def items(self) -> dict_items[int, Body]:
        self._fill()
        return super().items()

    def copy(self) -> dict[int, Body]:
        """Every Body, as a plain dict."""
        self._fill()
        return dict(self)

    def __eq__(self, other: object) -> bool:
        self._fill()
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        self._fill()
        return super().__ne__(other)

    def __repr__(self) -> str:
        self._fill()
        return f"Bodies({super().__repr__()})"

    def __reduce__(self) -> tuple[type[dict[int, Body]], tuple[dict[int, Body]]]:
        return dict, (self.copy(),)  # pickled as the plain dict of every Body

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("Collision's bodies are read-only: change the components instead")

    __setitem__ = __delitem__ = pop = popitem = setdefault = update = clear = __ior__ = _read_only
    __or__ = __ror__ = _read_only

    def _fill(self) -> None:
        """Make every Body not made yet, and keep them in entity order."""
        if super().__len__() < len(self._rows):
            made = [self[entity] for entity in self._rows]
            dict.clear(self)
            dict.update(self, zip(self._rows, made))

"""Validation helpers shared by the component dataclasses.

Every check raises ``ValueError`` naming the offending field, so a typo in a
scene fails at construction instead of turning into NaN three seconds later.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Union

from pygame import Vector2


def finite_number(field: str, value: object) -> float:
    """Return ``value`` as a float, or raise if it is not a finite real number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{field} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{field} must be finite, got {value!r}")
    return number


def whole_number(field: str, value: object, least: int = 0, unit: str = "") -> int:
    """Return ``value`` if it is an int (not a bool) >= ``least``, else raise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{field} must be an int >= {least}{unit}, got {value!r}")
    return value


def finite_vector(field: str, value: object) -> Vector2:
    """Return ``value`` (a pair or a Vector2) as a new Vector2 of finite numbers."""
    if isinstance(value, Vector2):
        pair: Sequence[object] = (value.x, value.y)
    elif isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2:
        pair = value
    else:
        raise ValueError(f"{field} must be a pair of numbers (x, y), got {value!r}")
    x = finite_number(f"{field}.x", pair[0])
    y = finite_number(f"{field}.y", pair[1])
    return Vector2(x, y)


def at_least(field: str, value: float, minimum: float) -> float:
    """Raise unless ``value >= minimum``."""
    if value < minimum:
        raise ValueError(f"{field} must be >= {minimum}, got {value!r}")
    return value


def positive(field: str, value: float) -> float:
    """Raise unless ``value > 0``."""
    if value <= 0:
        raise ValueError(f"{field} must be > 0, got {value!r}")
    return value


Check = Callable[[str, Any], Any]


class Validated:
    """Mixin for component dataclasses: every assignment to a field is checked.

    A subclass maps field names to checks in ``_checks``; each check takes
    the field name and the value and returns the value to store (converted,
    e.g. a pair to a new Vector2) or raises ``ValueError`` naming the field.
    The dataclass's own ``__init__`` assigns through here too, so
    construction and later assignment (``physics.mass = -1``) fail alike;
    the bad value is never stored. In-place changes to a stored vector
    (``transform.position.x = nan``) bypass this; ``World.step`` catches
    those before it moves anything.
    """

    __slots__ = ()
    _checks: ClassVar[dict[str, Check]] = {}
    #: The stamp of the last value that changes only by assignment (not a Vector2)
    #: assigned to a component of this class (a list: set in place; see ``assignments``).
    _assigned: ClassVar[list[int]] = [0]
    #: The stamp of the last Vector2 assigned to one: each a new object in its field.
    _replaced: ClassVar[list[int]] = [0]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if Validated in cls.__bases__:  # a component class has its own stamps; a subclass of one shares them
            cls._assigned, cls._replaced = [0], [0]

    def __setattr__(self, name: str, value: Any) -> None:
        check = self._checks.get(name)
        if check is not None:
            value = check(name, value)
            self._agree(name, value)
        # A field's first value, set as the component is made, is not stamped: nothing kept
        # before the component existed can hold it, and an entity given it is a new list of
        # components for every stage (a bullet spawned leaves a level's kept tiles alone).
        again = hasattr(self, name)
        object.__setattr__(self, name, value)
        # Stamped after the value is stored, with a number never handed out before (one C call,
        # atomic under the GIL): an assignment on another thread can't bring back a stamp a
        # reader has already seen, as a ``+= 1`` interrupted between its read and its write could.
        if again:
            (self._replaced if isinstance(value, Vector2) else self._assigned)[0] = next(_STAMPS)

    def set_in_place(self, name: str, value: object) -> None:
        """Check ``value`` for the vector field ``name`` as assigning it would (the same
        ``ValueError`` naming the field), then write it into the Vector2 the field holds. The
        object stays the same, so the lists of vectors a step keeps stay true: for code that
        sets a vector every frame (``systems.game.tween``)."""
        check = self._checks.get(name)
        checked = check(name, value) if check is not None else value
        self._agree(name, checked)
        getattr(self, name).update(checked)

    def _agree(self, name: str, value: Any) -> None:
        """Raise ``ValueError`` if ``value`` for ``name`` contradicts another
        field already set (e.g. a circle's size must be square)."""



#: Every assignment's stamp, process-wide: a stamp changes whenever something is assigned.
_STAMPS = itertools.count(1)


def assignments(kind: type[Validated]) -> int:
    """A stamp that changes whenever a value other than a Vector2 is assigned to a ``kind``
    component (its subclasses' included) in this process, once it is made: the stamp of the
    last such assignment (0 before any). Making a component stamps nothing: what a stage
    keeps holds only components that existed, and one added to an entity changes esper's
    lists, which the stage compares by identity.

    In ``Collider`` and ``Physics`` every field but the Vector2s holds an
    immutable value (a number, an enum member, None), which changes only by
    assignment: while the stamp stays the same, none of them changed, and a
    stage that reads them for every body (masses, collider types, layers)
    can keep what it read (Bevy's change detection, by class). A Vector2
    changes in place, unseen, and is read every time instead.
    """
    return kind._assigned[0]


def replacements(kind: type[Validated]) -> int:
    """A stamp that changes whenever a Vector2 is assigned to a ``kind`` component (its
    subclasses' included), as ``assignments`` does for the other fields. Assignment stores a
    new Vector2 (a pair is converted, a Vector2 copied), so while the stamp stays the same
    every vector field of every such component holds the object it held: a list of them
    stays true, though their values change in place."""
    return kind._replaced[0]


#: What a vector field accepts when set: a Vector2, or an (x, y) pair it is
#: converted from. (The dataclasses' ``__init__`` is declared with it for
#: type checkers; reading the field always gives a Vector2.)
VectorLike = Union[Vector2, tuple[float, float]]

def rgb(field: str, value: object) -> tuple[int, int, int]:
    """``value`` as an (r, g, b) colour of three ints in 0..255, else raise naming ``field``."""
    if (not isinstance(value, (tuple, list)) or len(value) != 3
            or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)):
        raise ValueError(f"{field} must be (r, g, b) ints in 0..255, got {value!r}")
    return (value[0], value[1], value[2])


def any_bool(field: str, value: object) -> bool:
    """Return ``value`` if it is a bool, else raise."""
    if not isinstance(value, bool):
        raise ValueError(f"{field} must be a bool, got {value!r}")
    return value


def non_negative_size(field: str, value: object) -> Vector2:
    """A finite (w, h) pair of px, neither negative."""
    size = finite_vector(field, value)
    at_least(f"{field}.x", size.x, 0.0)
    at_least(f"{field}.y", size.y, 0.0)
    return size


def number_in(low: float, high: float, unit: str = "") -> Check:
    """A check for a finite number in [low, high] (``unit`` for the message)."""
    def check(field: str, value: object) -> float:
        number = finite_number(field, value)
        if not low <= number <= high:
            raise ValueError(f"{field} must be in [{low:g}, {high:g}]{unit}, got {value!r}")
        return number
    return check


def vector_within(limit: float, unit: str = "") -> Check:
    """A check for a pair of finite numbers each within ±``limit``."""
    def check(field: str, value: object) -> Vector2:
        vector = finite_vector(field, value)
        for axis in ("x", "y"):
            if abs(getattr(vector, axis)) > limit:
                raise ValueError(f"{field}.{axis} must be within ±{limit:g}{unit}, got {getattr(vector, axis)!r}")
        return vector
    return check


def area_size(limit: float) -> Check:
    """A check for a (w, h) size in px with both in (0, ``limit``]."""
    def check(field: str, value: object) -> Vector2:
        size = finite_vector(field, value)
        for axis in ("x", "y"):
            if not 0.0 < getattr(size, axis) <= limit:
                raise ValueError(f"{field}.{axis} must be in (0, {limit:g}] px (a collider needs an "
                                 f"area: use a 1 px box for a point), got {getattr(size, axis)!r}")
        return size
    return check


def member_of(kind: type[Any]) -> Check:
    """A check that the value is a member of the enum ``kind``; the error lists the members,
    and for a string that names one (``"circle"``) says which."""
    members = ", ".join(f"{kind.__name__}.{member.name}" for member in kind)

    def check(field: str, value: object) -> Any:
        if not isinstance(value, kind):
            hint = ""
            if isinstance(value, str) and value.upper() in kind.__members__:
                hint = f" (did you mean {kind.__name__}.{value.upper()}?)"
            raise ValueError(f"{field} must be a {kind.__name__} ({members}), got {value!r}{hint}")
        return value
    return check

"""Tween and Tweens: a number or a pair of a component eased to a value over time."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Union

from pygame import Vector2

from components import limits
from components._checks import Check, Validated, any_bool, finite_number, finite_vector, number_in, whole_number
from components.easing import Ease, check_ease

__all__ = ["Tween", "Tweens", "Value"]

#: What a tween moves: a number, or a pair (a Vector2 field such as a position).
Value = Union[float, Vector2]


def _value(name: str, value: object) -> Value | None:
    """A finite number, a pair of them (kept as a Vector2), or None (for ``start``)."""
    if value is None and name == "start":
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return finite_number(name, value)
    if isinstance(value, (Vector2, Sequence)) and not isinstance(value, str):
        return finite_vector(name, value)
    raise ValueError(f"{name} must be a number or an (x, y) pair{' or None' if name == 'start' else ''}, "
                     f"got {value!r}")


def _target(name: str, value: object) -> object:
    if value is None or isinstance(value, (int, float, str, bool)):
        raise ValueError(f"{name} must be a component type (Transform, Sprite...) or an object (a camera), "
                         f"got {value!r}")
    return value


def _path(name: str, value: object) -> str:
    parts = value.split(".") if isinstance(value, str) else []
    if not parts or not all(part.isidentifier() for part in parts) or len(parts) > 2 or (
            len(parts) == 2 and parts[1] not in ("x", "y")):
        raise ValueError(f"{name} must name a field, or a vector field's x or y ('position.x'), got {value!r}")
    return str(value)


def _callback(name: str, value: object) -> Callable[[int], None] | None:
    if value is not None and not callable(value):
        raise ValueError(f"{name} must be a function of the entity, or None, got {value!r}")
    return value


def _kind(target: object, name: str) -> str | None:
    """What field ``name`` of ``target`` holds: "pair" (a Vector2), "number" (a float), "other"
    (nothing a tween can ease: an int, a bool, a colour), or None if there is no such field.
    For a dataclass type, from the field's declared type; for an object, from its value."""
    if isinstance(target, type) and dataclasses.is_dataclass(target):
        declared = {each.name: str(each.type) for each in dataclasses.fields(target)}.get(name)
        if declared is None:
            return None
        return "pair" if "Vector2" in declared else "number" if declared == "float" else "other"
    if not hasattr(target, name):
        return None
    value = getattr(target, name)
    if isinstance(value, Vector2):
        return "pair"
    return "number" if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)) else "other"


@dataclass(slots=True)
class Tween(Validated):
    """Eases one field from where it is to ``to`` over ``duration`` seconds.

    - ``target``: a component type (the entity's ``Transform``, ``Sprite``...)
      or an object (the scene's ``camera``); ``field``: its field, or a vector
      field's ``x`` or ``y`` (``"position.x"``).
    - ``to``: the end value, a number or an (x, y) pair for a vector field;
      ``start``: the value at the beginning, or None (the default) for the
      field's value when the tween begins.
    - ``duration``: seconds of one play, in (0, 1e6]; ``delay``: seconds
      before it begins, in [0, 1e6].
    - ``ease``: a name of ``components.easing.EASES`` (``"out_quad"``) or a
      function of t in [0, 1] giving 0 at 0 and 1 at 1.
    - ``repeat``: plays after the first (-1: forever); ``yoyo``: each play
      goes to ``to`` and back, taking twice ``duration``.
    - ``on_done``: called with the entity when the last play ends. (For a
      snapshot, a function defined at a module's top level is kept by name;
      one holding the World, such as ``world.delete_entity``, is refused.)
    - ``elapsed``: seconds since the tween was started (the TweenSystem
      keeps it; the delay counts).
    """

    target: Any
    field: str
    to: Value
    duration: float
    ease: str | Ease = "linear"
    start: Value | None = None
    delay: float = 0.0
    repeat: int = 0
    yoyo: bool = False
    on_done: Callable[[int], None] | None = None
    elapsed: float = dataclasses.field(default=0.0)

    _checks: ClassVar[dict[str, Check]] = {
        "target": _target,
        "field": _path,
        "to": _value,
        "duration": number_in(1e-9, limits.MAX_FRAME_DURATION, " s"),
        "ease": check_ease,
        "start": _value,
        "delay": number_in(0.0, limits.MAX_FRAME_DURATION, " s"),
        "repeat": lambda name, value: whole_number(name, value, -1, " (-1: forever)"),
        "yoyo": any_bool,
        "on_done": _callback,
        "elapsed": number_in(0.0, float("inf"), " s"),
    }

    if TYPE_CHECKING:  # the dataclass's __init__ as type checkers should see it
        def __init__(self, target: Any, field: str, to: float | tuple[float, float] | Vector2, duration: float,
                     ease: str | Ease = ..., start: float | tuple[float, float] | Vector2 | None = ...,
                     delay: float = ..., repeat: int = ..., yoyo: bool = ...,
                     on_done: Callable[[int], None] | None = ..., elapsed: float = ...) -> None: ...

    def _agree(self, name: str, value: Any) -> None:
        mine = {key: value if key == name else getattr(self, key, None) for key in ("target", "field", "to", "start")}
        target, path, to, start = mine["target"], mine["field"], mine["to"], mine["start"]
        if target is not None and path is not None:
            field_name, *axis = path.split(".")
            owner = target.__name__ if isinstance(target, type) else type(target).__name__
            kind = _kind(target, field_name)
            if kind is None:
                raise ValueError(f"{name}: {owner} has no field {field_name!r} to tween")
            if kind == "other" or (axis and kind != "pair"):
                raise ValueError(f"{name}: {owner}.{path} is not a number or a pair of numbers: it cannot be tweened")
            pair = kind == "pair" and not axis
            for end_name, end in (("to", to), ("start", start)):
                if end is not None and isinstance(end, Vector2) != pair:
                    raise ValueError(f"{name}: {owner}.{path} is {'a pair' if pair else 'one number'}, "
                                     f"got {end_name}={end!r}")
        if start is not None and to is not None and isinstance(start, Vector2) != isinstance(to, Vector2):
            raise ValueError(f"{name}: start and to must both be numbers or both pairs, got {start!r} and {to!r}")

    @property
    def length(self) -> float:
        """Seconds from the end of the delay to the end of the last play (inf: forever)."""
        if self.repeat < 0:
            return float("inf")
        return self.duration * (2 if self.yoyo else 1) * (self.repeat + 1)


def _tracks(name: str, value: object) -> list[list[Tween]]:
    """Each item a Tween or a sequence of them (played one after the other)."""
    if isinstance(value, Tween) or isinstance(value, str) or not isinstance(value, Sequence):
        raise ValueError(f"{name} must be a list of tracks, each a Tween or a list of Tweens, got {value!r}")
    tracks = []
    for index, track in enumerate(value):
        chain = [track] if isinstance(track, Tween) else track
        if isinstance(chain, str) or not isinstance(chain, Sequence) or not all(
                isinstance(each, Tween) for each in chain):
            raise ValueError(f"{name}[{index}] must be a Tween or a list of Tweens, got {track!r}")
        tracks.append(list(chain))
    return tracks


@dataclass(slots=True)
class Tweens(Validated):
    """The tweens playing on an entity: ``tracks``, a list whose items play at
    the same time; each is a ``Tween``, or a list of Tweens played one after
    the other (the time one ends early in a step goes to the next). The
    TweenSystem removes a track when its last tween ends, and the component
    when no track is left: add a new ``Tweens`` to play more.

    ``Tweens([Tween(Transform, "position.y", to=80, duration=0.5, yoyo=True,
    repeat=-1), [Tween(camera, "zoom", to=2, duration=0.3), Tween(camera,
    "zoom", to=1, duration=0.3)]])``: a bob forever, and a zoom in and out.
    """

    tracks: list[list[Tween]] = field(default_factory=list)

    _checks: ClassVar[dict[str, Check]] = {"tracks": _tracks}

    if TYPE_CHECKING:
        def __init__(self, tracks: Sequence[Tween | Sequence[Tween]] = ...) -> None: ...

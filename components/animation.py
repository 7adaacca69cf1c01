"""Animation clips and the Animator component that plays them on a Sprite."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import pygame

from components import limits
from components._checks import Check, Validated, any_bool, number_in

__all__ = ["Animation", "Animator"]

_duration = number_in(0.0, limits.MAX_FRAME_DURATION, " s")


def _frames(name: str, value: object) -> tuple[pygame.Surface, ...]:
    if isinstance(value, (pygame.Surface, str, bytes)) or not isinstance(value, Iterable):
        raise ValueError(f"{name} must be a sequence of one or more pygame.Surface, got {value!r}")
    frames = tuple(value)
    if not frames or not all(isinstance(frame, pygame.Surface) for frame in frames):
        raise ValueError(f"{name} must be one or more pygame.Surface, got {frames!r}")
    return frames


def _one_duration(name: str, value: object) -> float:
    seconds = _duration(name, value)
    if seconds == 0:
        raise ValueError(f"{name} must be > 0 s, got {value!r}")
    return float(seconds)


def _durations(name: str, value: object) -> float | tuple[float, ...]:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _one_duration(name, value)
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise ValueError(f"{name} must be seconds per frame: one number, or one per frame, got {value!r}")
    return tuple(_one_duration(f"{name}[{index}]", seconds) for index, seconds in enumerate(value))


@dataclass(slots=True)
class Animation(Validated):
    """A sequence of frames shown one after another (a clip, shared by entities).

    - ``frames``: the images (``pygame.Surface``), at least one; kept as a tuple.
    - ``durations``: seconds each frame shows, in (0, 1e6]
      (``limits.MAX_FRAME_DURATION``): one number for every frame or one per
      frame (a hold on the last frame of a jump…).
    - ``loop``: True starts over after the last frame; False stops on it.

    Every field is checked when set, at construction and later alike.
    """

    frames: Sequence[pygame.Surface]
    durations: float | Sequence[float] = 0.1
    loop: bool = True

    _checks: ClassVar[dict[str, Check]] = {
        "frames": _frames,
        "durations": _durations,
        "loop": any_bool,
    }

    def _agree(self, name: str, value: Any) -> None:
        frames = value if name == "frames" else getattr(self, "frames", None)
        durations = value if name == "durations" else getattr(self, "durations", None)
        if frames is not None and isinstance(durations, tuple) and len(durations) != len(frames):
            raise ValueError(f"{_about(name, 'durations')}durations must give one duration per frame ({len(frames)}), "
                             f"got {len(durations)}")

    @property
    def frame_durations(self) -> tuple[float, ...]:
        """Seconds each frame shows, one per frame."""
        if isinstance(self.durations, (int, float)):
            return (float(self.durations),) * len(self.frames)
        return tuple(self.durations)

    @property
    def length(self) -> float:
        """Seconds from the first frame to the end of the last."""
        return math.fsum(self.frame_durations)


def _about(name: str, field: str) -> str:
    """A message's prefix naming the field being set, when the error is about another."""
    return "" if name == field else f"{name}: "


def _animations(name: str, value: object) -> dict[str, Animation]:
    if (not isinstance(value, dict) or not value
            or not all(isinstance(key, str) and isinstance(clip, Animation) for key, clip in value.items())):
        raise ValueError(f"{name} must map names (str) to Animation, at least one, got {value!r}")
    return value


def _current(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{name} must be the name of an animation (a str), got {value!r}")
    return value


def _frame(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a frame index (an int >= 0), got {value!r}")
    return value


#: The Animator's fields that together say which frame plays: checked against each other when one is set.
_PLACE = frozenset(("animations", "current", "frame"))


@dataclass(slots=True)
class Animator(Validated):
    """Plays one of its named animations on the entity's Sprite.

    - ``animations``: name (str) -> Animation (e.g. "idle", "run", "jump").
    - ``current``: the name playing, one of ``animations``; empty picks the first.
    - ``frame``: index of the frame showing, within ``current``'s frames;
      ``time``: seconds it has shown, in [0, 1e6].
    - ``speed``: playback rate in [0, 1000] (2.0 twice as fast, 0 frozen).
    - ``finished``: True once a non-looping animation reached its end.

    The AnimationSystem advances it each physics step and sets the
    Sprite's image; a system deciding what the entity does calls ``play``.
    Every field is checked when set (``current`` must leave ``frame`` within
    the new animation: switch with ``play``, which starts at frame 0).
    """

    animations: dict[str, Animation]
    current: str = ""
    frame: int = 0
    time: float = 0.0
    speed: float = 1.0
    finished: bool = field(default=False)

    _checks: ClassVar[dict[str, Check]] = {
        "animations": _animations,
        "current": _current,
        "frame": _frame,
        "time": number_in(0.0, limits.MAX_FRAME_DURATION, " s"),
        "speed": number_in(0.0, limits.MAX_PLAYBACK_SPEED),
        "finished": any_bool,
    }

    if TYPE_CHECKING:  # the dataclass's __init__ as type checkers should see it
        def __init__(self, animations: dict[str, Animation], current: str = ..., frame: int = ...,
                     time: float = ..., speed: float = ..., finished: bool = ...) -> None: ...

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "current" and value == "" and getattr(self, "animations", None):
            value = next(iter(self.animations))  # empty picks the first
        Validated.__setattr__(self, name, value)

    def _agree(self, name: str, value: Any) -> None:
        if name not in _PLACE:
            return  # time, speed and finished do not bear on which frame plays
        animations = value if name == "animations" else getattr(self, "animations", None)
        current = value if name == "current" else getattr(self, "current", None)
        frame = value if name == "frame" else getattr(self, "frame", None)
        if animations is None or current is None:
            return
        if current not in animations:
            raise ValueError(f"{_about(name, 'current')}current must name one of {sorted(animations)}, "
                             f"got {current!r}")
        count = len(animations[current].frames)
        if frame is not None and frame >= count:
            raise ValueError(f"{_about(name, 'frame')}frame {frame} is past the last frame of {current!r} ({count} frames); "
                             f"play(name) switches from frame 0")

    @property
    def image(self) -> pygame.Surface:
        """The frame showing now."""
        return self.animations[self.current].frames[self.frame]

    def play(self, name: str, restart: bool = False) -> None:
        """Switch to animation ``name`` from its first frame; playing it
        already carries on unless ``restart``."""
        if name not in self.animations:
            raise ValueError(f"no animation named {name!r}; have {sorted(self.animations)}")
        if name != self.current or restart:
            self.frame = 0
            self.current = name
            self.time = 0.0
            self.finished = False

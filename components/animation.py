"""Animation clips and the Animator component that plays them on a Sprite."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame

from components._checks import finite_number, positive

__all__ = ["Animation", "Animator"]


@dataclass(slots=True)
class Animation:
    """A sequence of frames shown one after another (a clip, shared by entities).

    - ``frames``: the images (``pygame.Surface``), at least one.
    - ``durations``: seconds each frame shows, > 0: one number for every
      frame or one per frame (a hold on the last frame of a jump…).
    - ``loop``: True starts over after the last frame; False stops on it.
    """

    frames: Sequence[pygame.Surface]
    durations: float | Sequence[float] = 0.1
    loop: bool = True

    def __post_init__(self) -> None:
        self.frames = tuple(self.frames)
        if not self.frames or not all(isinstance(f, pygame.Surface) for f in self.frames):
            raise ValueError(f"frames must be one or more pygame.Surface, got {self.frames!r}")
        if isinstance(self.durations, (int, float)):
            self.durations = (self.durations,) * len(self.frames)
        self.durations = tuple(positive(f"durations[{i}]", finite_number(f"durations[{i}]", d))
                               for i, d in enumerate(self.durations))
        if len(self.durations) != len(self.frames):
            raise ValueError(f"durations must give one duration per frame ({len(self.frames)}), "
                             f"got {len(self.durations)}")
        if not isinstance(self.loop, bool):
            raise ValueError(f"loop must be a bool, got {self.loop!r}")

    @property
    def frame_durations(self) -> tuple[float, ...]:
        """Seconds each frame shows, one per frame."""
        if isinstance(self.durations, (int, float)):  # only before __post_init__ ran
            return (float(self.durations),) * len(self.frames)
        return tuple(self.durations)

    @property
    def length(self) -> float:
        """Seconds from the first frame to the end of the last."""
        return math.fsum(self.frame_durations)


@dataclass(slots=True)
class Animator:
    """Plays one of its named animations on the entity's Sprite.

    - ``animations``: name -> Animation (e.g. "idle", "run", "jump").
    - ``current``: the name playing; empty picks the first.
    - ``frame``: index of the frame showing; ``time``: seconds it has shown.
    - ``speed``: playback rate, >= 0 (2.0 twice as fast, 0 frozen).
    - ``finished``: True once a non-looping animation reached its end.

    The AnimationSystem advances it each physics step and sets the
    Sprite's image; a system deciding what the entity does calls ``play``.
    """

    animations: dict[str, Animation]
    current: str = ""
    frame: int = 0
    time: float = 0.0
    speed: float = 1.0
    finished: bool = field(default=False)

    def __post_init__(self) -> None:
        if not self.animations or not all(isinstance(a, Animation) for a in self.animations.values()):
            raise ValueError(f"animations must map names to Animation, got {self.animations!r}")
        if not self.current:
            self.current = next(iter(self.animations))
        if self.current not in self.animations:
            raise ValueError(f"current must name one of {sorted(self.animations)}, got {self.current!r}")
        self.speed = finite_number("speed", self.speed)
        if self.speed < 0:
            raise ValueError(f"speed must be >= 0, got {self.speed!r}")

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
            self.current = name
            self.frame = 0
            self.time = 0.0
            self.finished = False

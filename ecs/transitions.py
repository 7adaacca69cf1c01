"""Transitions: how the screen goes from one scene to the next when the
stack changes (``game.replace(level, transition=Fade(0.5))``).

A transition is a description (duration, easing, colour or side) that the
``Game`` plays on its fixed step; one instance may be reused for any number
of changes. The Game gives ``draw`` two *views*: ``old`` draws the stack as
it was before the change, ``new`` the stack as it is now, each into the
surface it is handed (the background, then the scenes, as a plain frame
would). A transition of your own subclasses ``Transition`` and overrides
``draw``.

What the Game does around a transition (hook moments, who steps, where the
input goes, changes asked for meanwhile) is told in ``Game``'s docstring.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from components._checks import rgb
from components.easing import Ease, check_ease, curve

__all__ = ["CrossFade", "Fade", "SIDES", "Slide", "Transition", "View"]

#: Draws one side of a transition (the stack before or after the change) into a surface.
View = Callable[[pygame.Surface], None]

#: The sides a ``Slide`` may come in from, with the direction (x, y) pointing from the screen to them.
SIDES: dict[str, tuple[int, int]] = {"left": (-1, 0), "right": (1, 0), "top": (0, -1), "bottom": (0, 1)}


def _duration(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"duration must be a finite number of seconds > 0, got {value!r}")
    return float(value)


def _opacity(fraction: float) -> int:
    """A surface alpha (0..255) for ``fraction`` of fully opaque, clamped
    (an overshooting ease such as "out_back" leaves [0, 1])."""
    return round(255 * min(1.0, max(0.0, fraction)))


@dataclass(frozen=True)
class Transition(ABC):
    """Base of the transitions: ``duration`` in seconds (finite, > 0) and
    ``ease``, the name of a curve of ``components.easing.EASES`` or a
    function of t in [0, 1] (default "linear").

    The Game plays it for ``count_steps(step)`` fixed steps and draws it at
    progress ``eased(t)``, t in [0, 1] being the time played over the
    duration (interpolated between steps like the scenes are).
    """

    duration: float
    ease: str | Ease = field(default="linear", kw_only=True)
    # Off-screen surfaces reused frame to frame (by index), not part of the description.
    _scratch: dict[int, pygame.Surface] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "duration", _duration(self.duration))
        object.__setattr__(self, "ease", check_ease("ease", self.ease))

    def count_steps(self, step: float) -> int:
        """How many fixed steps of ``step`` seconds it lasts: the duration
        rounded to whole steps, at least one (0.5 s at 60 Hz: 30)."""
        return max(1, round(self.duration / step))

    def eased(self, t: float) -> float:
        """The progress drawn at ``t`` (0 at the start, 1 at the end) through ``ease``."""
        return curve(self.ease)(t)

    @abstractmethod
    def draw(self, screen: pygame.Surface, progress: float, old: View, new: View) -> None:
        """Draw the transition at ``progress`` (the eased time, 0 to 1; an
        overshooting ease may leave that range) into ``screen``."""

    def scratch_surface(self, index: int, size: tuple[int, int]) -> pygame.Surface:
        """Off-screen surface number ``index`` of ``size`` px, kept between frames."""
        surface = self._scratch.get(index)
        if surface is None or surface.get_size() != size:
            surface = self._scratch[index] = pygame.Surface(size)
        return surface


@dataclass(frozen=True)
class Fade(Transition):
    """Fade to ``color`` (r, g, b) and back: over the first half the old
    scenes are covered more and more, over the second half the new ones
    are uncovered. At progress p the colour's opacity is 2p for p < 1/2
    (old scenes under it) and 2(1 - p) after (new scenes under it): fully
    the colour at the middle. ``Fade(0.5)`` at 60 Hz: the colour's alpha is
    255 * k / 15 after step k <= 15."""

    color: tuple[int, int, int] = field(default=(0, 0, 0), kw_only=True)

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "color", rgb("color", self.color))

    def draw(self, screen: pygame.Surface, progress: float, old: View, new: View) -> None:
        if progress < 0.5:
            old(screen)
            cover = 2 * progress
        else:
            new(screen)
            cover = 2 * (1 - progress)
        veil = self.scratch_surface(0, screen.get_size())
        veil.fill(self.color)
        veil.set_alpha(_opacity(cover))
        screen.blit(veil, (0, 0))


@dataclass(frozen=True)
class CrossFade(Transition):
    """The new scenes drawn over the old ones with opacity = progress."""

    def draw(self, screen: pygame.Surface, progress: float, old: View, new: View) -> None:
        old(screen)
        layer = self.scratch_surface(0, screen.get_size())
        new(layer)
        layer.set_alpha(_opacity(progress))
        screen.blit(layer, (0, 0))


@dataclass(frozen=True)
class Slide(Transition):
    """The new scenes slide in from ``side`` ("left", "right", "top" or
    "bottom"; default "right"), pushing the old ones out the other side.
    At progress p, with the screen W px wide, coming from the right: the
    new scenes' left edge is at x = round(W * (1 - p)), the old ones' at
    that minus W (so they always touch)."""

    side: str = field(default="right", kw_only=True)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.side not in SIDES:
            raise ValueError(f"side must be one of {', '.join(SIDES)}, got {self.side!r}")

    def draw(self, screen: pygame.Surface, progress: float, old: View, new: View) -> None:
        size = screen.get_size()
        dx, dy = SIDES[self.side]
        span = size[0] if dx else size[1]
        shift = round(span * (1 - progress))  # px from the new scenes' resting place
        before, after = self.scratch_surface(0, size), self.scratch_surface(1, size)
        old(before)
        new(after)
        screen.fill((0, 0, 0))  # an overshooting ease uncovers an edge
        screen.blit(before, (dx * (shift - span), dy * (shift - span)))
        screen.blit(after, (dx * shift, dy * shift))

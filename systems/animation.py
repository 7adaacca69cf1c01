"""Animation: step Animators with the fixed timestep and show their frames."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import esper

from components import Animation, Animator, Sprite

if TYPE_CHECKING:
    from ecs.world import World

__all__ = ["ANIMATION_PRIORITY", "AnimationSystem", "advance"]

#: The AnimationSystem's priority: after Response and the user's systems at 0,
#: so an animation chosen this step shows this step.
ANIMATION_PRIORITY = -100

#: Relative slack on frame ends: six steps of 1/60 s add up to a hair under
#: 0.1 s in floating point, and a 0.1 s frame must still last exactly six.
SLACK = 1e-9


def advance(animation: Animation, frame: int, time: float, dt: float) -> tuple[int, float, bool]:
    """(frame, time into it, finished) after ``dt`` more seconds of ``animation``
    from ``frame`` with ``time`` seconds already shown."""
    durations = animation.frame_durations
    time += dt
    if animation.loop and time > animation.length:  # whole loops change nothing
        time = math.fmod(time, animation.length)
    while time >= durations[frame] * (1 - SLACK):
        if frame + 1 == len(durations):
            if not animation.loop:
                return frame, durations[frame], True
            time -= durations[frame]
            frame = 0
        else:
            time -= durations[frame]
            frame += 1
    return frame, max(time, 0.0), False


class AnimationSystem(esper.Processor):
    """Advance every Animator by the step and put its frame on the Sprite.

    Runs at ``ANIMATION_PRIORITY`` with the physics step, so animations are
    as deterministic as the physics; ``Animator.speed`` scales its time.
    """

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        for _, (animator, sprite) in self.world.get_components(Animator, Sprite):
            if not animator.finished:
                animation = animator.animations[animator.current]
                animator.frame, animator.time, animator.finished = advance(
                    animation, animator.frame, animator.time, dt * animator.speed)
            sprite.image = animator.image

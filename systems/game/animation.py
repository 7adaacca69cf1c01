"""Animation: step Animators with the fixed timestep and show their frames."""

from __future__ import annotations

import math

import esper

from components import Animation, Animator, Sprite
from systems._world import WorldLike

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

    def __init__(self, world: WorldLike) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        for entity, (animator, sprite) in self.world.get_components(Animator, Sprite):
            animation = _playing(entity, animator)
            if not animator.finished:
                frame, animator.time, finished = advance(animation, animator.frame, animator.time,
                                                         dt * animator.speed)
                # Checked fields cost a check per assignment: set only what changed.
                if frame != animator.frame:
                    animator.frame = frame
                if finished:
                    animator.finished = True
            image = animation.frames[animator.frame]
            if sprite.image is not image:
                sprite.image = image


def _playing(entity: int, animator: Animator) -> Animation:
    """The Animation ``animator`` plays; ``ValueError`` naming ``entity`` if
    its ``animations`` dict was changed in place under it (fields set on the
    Animator are checked when set)."""
    animation = animator.animations.get(animator.current)
    if not isinstance(animation, Animation) or animator.frame >= len(animation.frames):
        raise ValueError(f"entity {entity}: Animator plays {animator.current!r} at frame {animator.frame}, "
                         f"which its animations (changed in place) no longer hold: {sorted(animator.animations)}")
    return animation

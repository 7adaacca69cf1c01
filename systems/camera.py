"""Camera: which part of the world is on screen, and the system that moves it.

The ``Camera`` is a world resource (``world.resource(Camera)``): the render,
text and debug systems draw through it, and ``Input`` turns the mouse into
world coordinates with it. ``CameraSystem`` runs with the fixed step and
moves it after the target entity.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

import esper
import pygame
from pygame import Vector2

from components import Collider, Transform
from components._checks import at_least, finite_number, finite_vector, positive

if TYPE_CHECKING:
    from ecs.world import World

__all__ = ["CAMERA_PRIORITY", "Camera", "CameraSystem", "clamp_axis", "follow_axis"]

#: The CameraSystem's priority: after every system that moves entities.
CAMERA_PRIORITY = -200

Box = tuple[float, float, float, float]


# Dead-zone camera (Itay Keren, "Scroll Back: The Theory and Practice of
# Cameras in Side-Scrollers", 2015: camera-window).
def follow_axis(low: float, extent: float, target: float, dead_zone: float) -> float:
    """Where the view's low edge (px) must go along one axis so that
    ``target`` (px) lies inside a ``dead_zone`` px wide window centred in a
    view ``extent`` px wide; ``low`` itself when it already does."""
    centre = low + extent / 2
    half = dead_zone / 2
    if target < centre - half:
        return target + half - extent / 2
    if target > centre + half:
        return target - half - extent / 2
    return low


def clamp_axis(low: float, extent: float, bound_low: float, bound_extent: float) -> float:
    """Keep a view [low, low + extent] inside [bound_low, bound_low + bound_extent]
    along one axis; a view wider than the bounds is centred on them."""
    if extent >= bound_extent:
        return bound_low + (bound_extent - extent) / 2
    return min(max(low, bound_low), bound_low + bound_extent - extent)


class Camera:
    """The view: where it looks, how far it zooms, whom it follows.

    - ``position``: world px at the view's top-left after the latest step;
      ``previous_position`` where it was a step before. Frames are drawn
      between the two with the same interpolation as sprites.
    - ``size``: (w, h) screen px of the viewport (the Game sets the window's).
    - ``zoom``: > 0; 2.0 draws each world px as 2×2 screen px, 0.5 shows
      twice as much; fractional values work.
    - ``target``: entity to follow (the centre of its Collider, or its
      position), or None. ``dead_zone``: (w, h) world px window, centred in
      the view, inside which the target moves without moving the camera.
    - ``smoothing``: seconds; 0 snaps to the target, otherwise each step
      closes 1 − e^(−dt/smoothing) of the gap, so the camera lags the same
      whatever the step or frame rate.
    - ``bounds``: (x, y, w, h) world px the view stays inside (the level), or None.

    ``shake(amplitude, duration)`` jolts the drawn view; ``world_to_screen``
    and ``screen_to_world`` convert points through the view last drawn.
    """

    def __init__(self, size: tuple[float, float] | Vector2 = (800, 600), *,
                 position: tuple[float, float] | Vector2 = (0.0, 0.0), zoom: float = 1.0,
                 target: int | None = None, dead_zone: tuple[float, float] | Vector2 = (0.0, 0.0),
                 smoothing: float = 0.0, bounds: Box | None = None, seed: int = 0) -> None:
        self.size = finite_vector("size", size)
        self.position = finite_vector("position", position)
        self.previous_position = Vector2(self.position)
        self.zoom = zoom
        self.target = target
        self.dead_zone = finite_vector("dead_zone", dead_zone)
        self.smoothing = at_least("smoothing", finite_number("smoothing", smoothing), 0.0)
        self.bounds = bounds
        self.view = Vector2(self.position)  # top-left of the frame being drawn, world px
        self.shake_offset = Vector2()  # screen px
        self._shake = (0.0, 0.0, 0.0)  # amplitude px, time left s, duration s
        self._random = random.Random(seed)
        self._placed = False

    @property
    def zoom(self) -> float:
        """Screen px per world px, > 0."""
        return self._zoom

    @zoom.setter
    def zoom(self, value: float) -> None:
        self._zoom = positive("zoom", finite_number("zoom", value))

    @property
    def bounds(self) -> Box | None:
        """(x, y, w, h) world px the view keeps inside, or None."""
        return self._bounds

    @bounds.setter
    def bounds(self, value: Box | None) -> None:
        if value is not None:
            if len(value) != 4:
                raise ValueError(f"bounds must be (x, y, w, h) or None, got {value!r}")
            x, y, w, h = (finite_number(f"bounds[{i}]", v) for i, v in enumerate(value))
            value = (x, y, at_least("bounds width", w, 0.0), at_least("bounds height", h, 0.0))
        self._bounds = value

    @property
    def view_size(self) -> Vector2:
        """(w, h) world px the view shows: ``size / zoom``."""
        return self.size / self._zoom

    def center_on(self, point: tuple[float, float] | Vector2) -> None:
        """Look at ``point`` (world px) at once, without smoothing, within bounds."""
        self.position = Vector2(point) - self.view_size / 2
        self._clamp()
        self.previous_position = Vector2(self.position)
        self.view = Vector2(self.position)
        self._placed = True

    def follow(self, point: tuple[float, float] | Vector2, dt: float) -> None:
        """Move one step of ``dt`` seconds toward keeping ``point`` (world px)
        inside the dead zone, smoothed, then clamp to the bounds. The first
        call jumps straight there."""
        if not self._placed:
            self.center_on(point)
        self.previous_position = Vector2(self.position)
        extent = self.view_size
        blend = 1.0 if self.smoothing == 0 else 1.0 - math.exp(-dt / self.smoothing)
        for axis in (0, 1):
            goal = follow_axis(self.position[axis], extent[axis], point[axis], self.dead_zone[axis])
            self.position[axis] += (goal - self.position[axis]) * blend
        self._clamp()

    def _clamp(self) -> None:
        if self._bounds is None:
            return
        extent = self.view_size
        for axis in (0, 1):
            self.position[axis] = clamp_axis(self.position[axis], extent[axis],
                                             self._bounds[axis], self._bounds[axis + 2])

    # Screen shake with quadratic decay (Squirrel Eiserloh, "Juicing Your
    # Cameras With Math", GDC 2016: shake grows with trauma squared).
    def shake(self, amplitude: float, duration: float) -> None:
        """Jolt the drawn view by up to ``amplitude`` screen px, fading to
        nothing over ``duration`` seconds; a stronger shake replaces a weaker one."""
        amplitude = at_least("amplitude", finite_number("amplitude", amplitude), 0.0)
        duration = positive("duration", finite_number("duration", duration))
        current, left, total = self._shake
        if amplitude >= current * (left / total if total else 0.0) ** 2:
            self._shake = (amplitude, duration, duration)

    def update_shake(self, dt: float) -> None:
        """Advance the shake by ``dt`` seconds and pick this step's offset."""
        amplitude, left, total = self._shake
        left = max(0.0, left - dt)
        self._shake = (amplitude, left, total)
        strength = amplitude * (left / total) ** 2 if total else 0.0
        if strength > 0:
            self.shake_offset = Vector2(self._random.uniform(-1, 1), self._random.uniform(-1, 1)) * strength
        else:
            self.shake_offset = Vector2()

    def interpolate(self, alpha: float) -> None:
        """Place the view for a frame drawn ``alpha`` (0..1) of the way from the
        previous step to the latest; draw systems call this first."""
        self.view = self.previous_position.lerp(self.position, alpha) + self.shake_offset / self._zoom

    def world_to_screen(self, point: tuple[float, float] | Vector2) -> Vector2:
        """Screen px of a world point, through the view last drawn."""
        return (Vector2(point) - self.view) * self._zoom

    def screen_to_world(self, point: tuple[float, float] | Vector2) -> Vector2:
        """World px of a screen point, through the view last drawn."""
        return Vector2(point) / self._zoom + self.view

    def screen_rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """Screen rectangle of a world box. Each edge is rounded on its own, so
        boxes that touch in the world touch on screen, at any zoom."""
        zoom, view = self._zoom, self.view
        left, top = round((x - view.x) * zoom), round((y - view.y) * zoom)
        right, bottom = round((x + w - view.x) * zoom), round((y + h - view.y) * zoom)
        return pygame.Rect(left, top, right - left, bottom - top)

    def visible_box(self) -> Box:
        """(x, y, w, h) world px of the view last drawn."""
        extent = self.view_size
        return (self.view.x, self.view.y, extent.x, extent.y)


class CameraSystem(esper.Processor):
    """Each step, move the world's Camera after its target and advance its shake.

    Runs at ``CAMERA_PRIORITY`` (after everything that moves entities). The
    target point is the centre of the target's Collider, else its
    Transform position; a target that no longer exists is let go.
    """

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        camera: Camera | None = self.world.resources.get(Camera)
        if camera is None:
            return
        camera.previous_position = Vector2(camera.position)
        if camera.target is not None:
            if self.world.entity_exists(camera.target):
                camera.follow(target_point(self.world, camera.target), dt)
            else:
                camera.target = None
        camera.update_shake(dt)


def target_point(world: World, entity: int) -> Vector2:
    """World px the camera centres on for ``entity``: its collider's centre."""
    transform = world.component_for_entity(entity, Transform)
    collider = world.try_component(entity, Collider)
    if collider is None:
        return Vector2(transform.position)
    return transform.position + collider.offset + collider.size / 2

"""Camera: which part of the world is on screen, and the system that moves it.

The ``Camera`` is a world resource (``world.resource(Camera)``): the render,
text and debug systems draw through it, and ``Input`` turns the mouse into
world coordinates with it. ``CameraSystem`` runs with the fixed step and
moves it after the target entity.

Also the screen geometry those draw systems share, so that nothing drawn
costs more than the screen shows or lands where it should not: rectangles
clamped to what pygame.Rect holds (``screen_rect``), the parts of a scaled
image that are on screen (``visible_parts``) and shapes drawn only where
they meet the screen (``draw_shape_clipped``).
"""

from __future__ import annotations

import math
import random
from typing import ClassVar

import esper
import pygame
from pygame import Vector2

from components import Collider, Shape, Transform, limits
from components._checks import (Check, Validated, VectorLike, at_least, finite_number, finite_vector,
                                non_negative_size, number_in, positive, rgb, vector_within)
from systems.physics._shapes.narrowphase import CORNERS
from systems.physics._shapes.triangle import triangle_vertices
from systems._world import WorldLike

__all__ = [
    "CAMERA_PRIORITY", "Camera", "CameraSystem", "Views", "clamp_axis", "clip_polygon", "draw_clipped", "draw_overlay",
    "draw_shape_clipped", "follow_axis", "screen_int", "screen_rect", "visible_parts",
]

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


def screen_int(value: float) -> int:
    """``value`` (screen px) rounded and clamped to ±``limits.MAX_SCREEN_COORDINATE``:
    pygame.Rect wraps ints past 32 bits round, and NaN has no int."""
    bound = limits.MAX_SCREEN_COORDINATE
    if not value > -bound:  # NaN too: far off, never drawn over the screen
        return -bound
    return bound if value > bound else round(value)


def screen_rect(left: float, top: float, right: float, bottom: float) -> pygame.Rect:
    """The pygame.Rect between these edges (screen px), each rounded on its
    own and clamped to ±2**30 px, so a box far off screen stays off screen
    and a huge one still covers it (pygame.Rect would wrap its ints round)."""
    x0, y0, x1, y1 = (screen_int(edge) for edge in (left, top, right, bottom))
    return pygame.Rect(x0, y0, max(0, x1 - x0), max(0, y1 - y0))


#: Image px [s0, s1) drawn stretched over screen px [d0, d1), along one axis.
Span = tuple[int, int, int, int]


def _visible_spans(start: float, extent: float, clip_low: int, clip_high: int, pixels: int) -> list[Span]:
    """Along one axis, an image ``pixels`` px long stretched over [start,
    start + extent) screen px: the image px that land in [clip_low,
    clip_high), as spans each stretched evenly. One span, reaching at most
    an image px past the clip each side; but where an image px is wider
    than the clip (a 64 px image stretched over a million), one span per
    visible image px (three at most), each cut to the clip, so that no span
    is drawn more than three clips long."""
    low, high = max(start, clip_low), min(start + extent, clip_high)
    if not high > low or pixels <= 0:
        return []
    scale = pixels / extent  # image px per screen px
    first = max(0, math.floor((low - start) * scale))
    last = min(pixels, math.ceil((high - start) * scale))
    if extent / pixels <= clip_high - clip_low:
        d0, d1 = round(start + first / scale), round(start + last / scale)
        return [(first, last, d0, d1)] if d1 > d0 else []
    spans = []
    for pixel in range(first, last):
        d0 = round(max(start + pixel / scale, clip_low))
        d1 = round(min(start + (pixel + 1) / scale, clip_high))
        if d1 > d0:
            spans.append((pixel, pixel + 1, d0, d1))
    return spans


def visible_parts(image_size: tuple[int, int], box: Box,
                  clip: pygame.Rect) -> list[tuple[pygame.Rect, pygame.Rect]]:
    """For an image of ``image_size`` px stretched over ``box`` (x, y, w, h
    screen px, floats): the parts of the image that land inside ``clip``,
    each with the screen rectangle it is stretched over; none when nothing
    shows. Usually one part; see ``_visible_spans`` for more. Scaling only
    these bounds a frame's work by the screen, not by the zoom or the
    stretch: a text or image larger than the screen is cut before it is
    scaled, and each part is drawn at most three times the clip's size."""
    columns = _visible_spans(box[0], box[2], clip.left, clip.right, image_size[0])
    rows = _visible_spans(box[1], box[3], clip.top, clip.bottom, image_size[1])
    return [(pygame.Rect(sx0, sy0, sx1 - sx0, sy1 - sy0), pygame.Rect(dx0, dy0, dx1 - dx0, dy1 - dy0))
            for sx0, sx1, dx0, dx1 in columns for sy0, sy1, dy0, dy1 in rows]


#: Screen px. A shape drawn larger than this each way is drawn only where
#: it meets the surface's clip: pygame fills a polygon and draws an ellipse
#: over every row of its whole height, on screen or not (a 10**7 px
#: circle's outline takes 40 s, a filled triangle 2**31 px high a minute).
LARGE_SHAPE = 4096

Point = tuple[float, float]


# Sutherland–Hodgman polygon clipping (Ivan Sutherland and Gary Hodgman,
# "Reentrant Polygon Clipping", CACM 1974), one clip edge at a time.
def _clip_side(points: list[Point], axis: int, bound: float, keep_below: bool) -> list[Point]:
    """The part of polygon ``points`` on one side of the line where
    coordinate ``axis`` equals ``bound``: below it if ``keep_below``, else above."""
    kept: list[Point] = []
    for index, current in enumerate(points):
        previous = points[index - 1]
        inside, was_inside = ((point[axis] <= bound) == keep_below or point[axis] == bound
                              for point in (current, previous))
        if inside != was_inside:
            t = (bound - previous[axis]) / (current[axis] - previous[axis])
            kept.append((previous[0] + t * (current[0] - previous[0]), previous[1] + t * (current[1] - previous[1])))
        if inside:
            kept.append(current)
    return kept


def clip_polygon(points: list[Point], clip: pygame.Rect) -> list[Point]:
    """Polygon ``points`` (screen px, convex or not) cut to ``clip``."""
    for axis, bound, keep_below in ((0, clip.left, False), (0, clip.right, True),
                                    (1, clip.top, False), (1, clip.bottom, True)):
        points = _clip_side(points, axis, bound, keep_below)
        if not points:
            break
    return points


def _ellipse_crossings(box: Box, axis: int, line: float) -> tuple[float, float] | None:
    """Where the line at coordinate ``line`` along ``axis`` crosses the
    ellipse inscribed in ``box``: the two coordinates along the other axis,
    or None when it misses."""
    other = 1 - axis
    centre, radius = box[axis] + box[axis + 2] / 2, box[axis + 2] / 2
    across = 1.0 - ((line - centre) / radius) ** 2
    if across < 0:
        return None
    half = box[other + 2] / 2 * math.sqrt(across)
    middle = box[other] + box[other + 2] / 2
    return middle - half, middle + half


def _large_ellipse(surface: pygame.Surface, color: tuple[int, ...], box: Box, width: int) -> None:
    """The ellipse inscribed in ``box`` drawn within the clip only: filled row
    by row, or its outline as the points where each row and each column of
    the clip crosses it (both, so that steep and flat arcs have no gaps)."""
    clip = surface.get_clip()
    low, high = (clip.left, clip.top), (clip.right, clip.bottom)
    for axis in ((1,) if width == 0 else (0, 1)):
        other = 1 - axis
        for line in range(low[axis], high[axis]):
            crossing = _ellipse_crossings(box, axis, line + 0.5)
            if crossing is None:
                continue
            if width == 0:
                start, end = max(low[other], round(crossing[0])), min(high[other], round(crossing[1]))
                if end > start:
                    surface.fill(color, (start, line, end - start, 1))
                continue
            for at in crossing:
                if low[other] <= at < high[other]:
                    spot = [0, 0]
                    spot[axis], spot[other] = line, math.floor(at)
                    surface.fill(color, (spot[0], spot[1], width, width))


def draw_clipped(surface: pygame.Surface, color: tuple[int, ...], outline: list[Point] | None, box: Box,
                 width: int = 0) -> None:
    """Draw polygon ``outline`` (screen px), or with None the ellipse
    inscribed in ``box`` (x, y, w, h screen px, the polygon's bounds
    otherwise); ``width`` px of outline, 0 to fill. A shape up to
    ``LARGE_SHAPE`` px is drawn by pygame as is; a larger one only where it
    meets the clip, at a cost bounded by the clip's size."""
    small = box[2] <= LARGE_SHAPE and box[3] <= LARGE_SHAPE
    if outline is None:
        if small:
            pygame.draw.ellipse(surface, color, screen_rect(box[0], box[1], box[0] + box[2], box[1] + box[3]), width)
        else:
            _large_ellipse(surface, color, box, width)
        return
    if width == 0 and not small:
        outline = clip_polygon(outline, surface.get_clip())
        if len(outline) < 3:
            return
    pygame.draw.polygon(surface, color, outline, width)


def draw_shape_clipped(surface: pygame.Surface, color: tuple[int, ...], shape: Shape, rect: pygame.Rect,
                       width: int = 0) -> None:
    """Draw ``shape`` filling screen ``rect``: the box, its inscribed circle
    or its triangle half; ``width`` px of outline, 0 to fill. Shapes up to
    ``LARGE_SHAPE`` px are drawn as pygame draws them; larger ones cost only
    what lands in the surface's clip (``draw_clipped``)."""
    box = (float(rect.x), float(rect.y), float(rect.width), float(rect.height))
    if shape is Shape.CIRCLE:
        draw_clipped(surface, color, None, box, width)
    elif shape in CORNERS:
        corners = [(point.x, point.y) for point in triangle_vertices(box, CORNERS[shape])]
        draw_clipped(surface, color, corners, box, width)
    elif width == 0 or (rect.width <= LARGE_SHAPE and rect.height <= LARGE_SHAPE):
        pygame.draw.rect(surface, color, rect, width)  # a fill is clipped by pygame; a small outline is cheap
    else:  # the outline pygame.draw.rect draws, inside the rect, as a polygon: its lines are clipped
        right, bottom = rect.right - 1, rect.bottom - 1
        draw_clipped(surface, color, [(rect.x, rect.y), (right, rect.y), (right, bottom), (rect.x, bottom)],
                     box, width)


def _viewport(name: str, value: object) -> Vector2:
    size = non_negative_size(name, value)
    for axis in ("x", "y"):
        if getattr(size, axis) > limits.MAX_VIEWPORT:
            raise ValueError(f"{name}.{axis} must be in [0, {limits.MAX_VIEWPORT:g}] screen px, "
                             f"got {getattr(size, axis)!r}")
    return size


def _dead_zone(name: str, value: object) -> Vector2:
    size = non_negative_size(name, value)
    for axis in ("x", "y"):
        if getattr(size, axis) > limits.MAX_SIZE:
            raise ValueError(f"{name}.{axis} must be in [0, {limits.MAX_SIZE:g}] px, got {getattr(size, axis)!r}")
    return size


def _target(name: str, value: object) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise ValueError(f"{name} must be an entity id (an int >= 0) or None, got {value!r}")
    return value


def _smoothing(name: str, value: object) -> float:
    return at_least(name, finite_number(name, value), 0.0)


def _bounds(name: str, value: object) -> Box | None:
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list, pygame.Rect)) or len(value) != 4:
        raise ValueError(f"{name} must be (x, y, w, h) world px or None, got {value!r}")
    box = tuple(finite_number(f"{name}[{index}]", number) for index, number in enumerate(value))
    for index, part in enumerate("xywh"):
        low, high = (-limits.MAX_COORDINATE, limits.MAX_COORDINATE) if index < 2 else (0.0, 2 * limits.MAX_COORDINATE)
        if not low <= box[index] <= high:
            raise ValueError(f"{name} {part} must be in [{low:g}, {high:g}] px, got {value[index]!r}")
    return (box[0], box[1], box[2], box[3])


def _finite_now(name: str, vector: Vector2) -> None:
    """Raise if a vector changed in place (``camera.position.x = nan``) is not finite."""
    if not (math.isfinite(vector.x) and math.isfinite(vector.y)):
        raise ValueError(f"camera {name} must be finite, got {tuple(vector)} (changed in place)")


class Camera(Validated):
    """The view: where it looks, how far it zooms, whom it follows.

    - ``position``: world px at the view's top-left after the latest step;
      ``previous_position`` where it was a step before. Frames are drawn
      between the two with the same interpolation as sprites. Set within
      ±1e12 px (following a body it may go further; it stays finite).
    - ``size``: (w, h) screen px of the viewport, each in [0, 65536] (the
      Game sets the window's).
    - ``zoom``: in [1/64, 64]; 2.0 draws each world px as 2×2 screen px,
      0.5 shows twice as much; fractional values work.
    - ``target``: entity to follow (the centre of its Collider, or its
      position), or None. ``dead_zone``: (w, h) world px window, each >= 0,
      centred in the view, inside which the target moves without moving
      the camera.
    - ``smoothing``: seconds, >= 0; 0 snaps to the target, otherwise each
      step closes 1 − e^(−dt/smoothing) of the gap, so the camera lags the
      same whatever the step or frame rate.
    - ``bounds``: (x, y, w, h) world px the view stays inside (the level), or
      None; x and y within ±1e12, w and h in [0, 2e12].

    Every field is checked when set (``ValueError`` naming it), and the
    vectors changed in place (``camera.dead_zone.update(40, 48)``) are
    checked again each step and each frame. The ranges are in
    ``components.limits``.

    ``shake(amplitude, duration)`` jolts the drawn view, at random from
    ``seed`` (an int: the same seed shakes alike every run); ``world_to_screen``
    and ``screen_to_world`` convert points through the view last drawn.
    ``fade_out``, ``fade_in`` and ``flash`` lay a colour over the view (the
    scene draws it over everything), its opacity changing linearly on the
    fixed step.
    """

    _checks: ClassVar[dict[str, Check]] = {
        "size": _viewport,
        "position": vector_within(limits.MAX_COORDINATE, " px"),
        "previous_position": vector_within(limits.MAX_COORDINATE, " px"),
        "zoom": number_in(limits.MIN_ZOOM, limits.MAX_ZOOM),
        "target": _target,
        "dead_zone": _dead_zone,
        "smoothing": _smoothing,
        "bounds": _bounds,
    }

    size: Vector2
    position: Vector2
    previous_position: Vector2
    zoom: float
    target: int | None
    dead_zone: Vector2
    smoothing: float
    bounds: Box | None

    def __init__(self, size: VectorLike = (800, 600), *, position: VectorLike = (0.0, 0.0),
                 zoom: float = 1.0, target: int | None = None, dead_zone: VectorLike = (0.0, 0.0),
                 smoothing: float = 0.0, bounds: Box | None = None, seed: int = 0) -> None:
        self.size = size  # type: ignore[assignment]  # checked and converted to a Vector2
        self.position = position  # type: ignore[assignment]
        self.previous_position = Vector2(self.position)
        self.zoom = zoom
        self.target = target
        self.dead_zone = dead_zone  # type: ignore[assignment]
        self.smoothing = smoothing
        self.bounds = bounds
        self.view = Vector2(self.position)  # top-left of the frame being drawn, world px
        self.shake_offset = Vector2()  # screen px
        self._shake = (0.0, 0.0, 0.0)  # amplitude px, time left s, duration s
        # The colour laid over the view: (r, g, b), opacity at the start and at the end of the
        # fade, time left s, duration s; and the opacity after the latest step and the one before.
        self._overlay: tuple[tuple[int, int, int], float, float, float, float] = ((0, 0, 0), 0.0, 0.0, 0.0, 0.0)
        self.overlay_alpha = self.previous_overlay_alpha = 0.0
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an int, got {seed!r}")
        self._random = random.Random(seed)
        self._placed = False

    def check(self) -> None:
        """Raise ``ValueError`` if a vector changed in place left its range:
        ``size`` and ``dead_zone`` as when set, the positions finite. The
        CameraSystem calls this each step and ``interpolate`` each frame."""
        self._checks["size"]("camera size", self.size)
        self._checks["dead_zone"]("camera dead_zone", self.dead_zone)
        _finite_now("position", self.position)
        _finite_now("previous_position", self.previous_position)

    @property
    def view_size(self) -> Vector2:
        """(w, h) world px the view shows: ``size / zoom``."""
        return self.size / self.zoom

    def center_on(self, point: VectorLike) -> None:
        """Look at ``point`` (world px, finite) at once, without smoothing, within bounds."""
        self.position.update(finite_vector("point", point) - self.view_size / 2)
        self._clamp()
        self.previous_position.update(self.position)
        self.view = Vector2(self.position)
        self._placed = True

    def follow(self, point: VectorLike, dt: float) -> None:
        """Move one step of ``dt`` seconds toward keeping ``point`` (world px)
        inside the dead zone, smoothed, then clamp to the bounds. The first
        call jumps straight there."""
        point = finite_vector("point", point)
        dt = at_least("dt", finite_number("dt", dt), 0.0)
        if not self._placed:
            self.center_on(point)
        self.previous_position.update(self.position)
        extent = self.view_size
        blend = 1.0 if self.smoothing == 0 else 1.0 - math.exp(-dt / self.smoothing)
        for axis in (0, 1):
            goal = follow_axis(self.position[axis], extent[axis], point[axis], self.dead_zone[axis])
            self.position[axis] += (goal - self.position[axis]) * blend
        self._clamp()

    def _clamp(self) -> None:
        if self.bounds is None:
            return
        extent = self.view_size
        for axis in (0, 1):
            self.position[axis] = clamp_axis(self.position[axis], extent[axis],
                                             self.bounds[axis], self.bounds[axis + 2])

    # Screen shake with quadratic decay (Squirrel Eiserloh, "Juicing Your
    # Cameras With Math", GDC 2016: shake grows with trauma squared).
    def shake(self, amplitude: float, duration: float) -> None:
        """Jolt the drawn view by up to ``amplitude`` screen px (in [0, 1e4]),
        fading to nothing over ``duration`` seconds (finite, > 0); a stronger
        shake replaces a weaker one."""
        amplitude = number_in(0.0, limits.MAX_SHAKE, " screen px")("amplitude", amplitude)
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

    def fade_out(self, seconds: float, color: tuple[int, int, int] = (0, 0, 0)) -> None:
        """Cover the view with ``color`` over ``seconds`` (finite, > 0), from
        how covered it is now; it stays covered until ``fade_in``."""
        self._fade(seconds, color, self.overlay_alpha, 1.0)

    def fade_in(self, seconds: float, color: tuple[int, int, int] | None = None) -> None:
        """Uncover the view over ``seconds`` (finite, > 0): from how covered
        it is now, in the colour covering it; or, if nothing covers it, out of
        ``color`` (black unless given), fully covered at first."""
        if self.overlay_alpha > 0:
            self._fade(seconds, color if color is not None else self._overlay[0], self.overlay_alpha, 0.0)
        else:
            self._fade(seconds, color if color is not None else (0, 0, 0), 1.0, 0.0)

    def flash(self, seconds: float, color: tuple[int, int, int] = (255, 255, 255)) -> None:
        """Cover the view with ``color`` at once and uncover it over ``seconds`` (a hit, a lightning)."""
        self._fade(seconds, color, 1.0, 0.0)

    def _fade(self, seconds: float, color: tuple[int, int, int], start: float, end: float) -> None:
        duration = positive("seconds", finite_number("seconds", seconds))
        self._overlay = (rgb("color", color), start, end, duration, duration)
        self.overlay_alpha = start

    def update_overlay(self, dt: float) -> None:
        """Advance a fade or flash by ``dt`` seconds (linearly in opacity)."""
        color, start, end, left, total = self._overlay
        left = max(0.0, left - dt)
        self._overlay = (color, start, end, left, total)
        self.previous_overlay_alpha = self.overlay_alpha
        self.overlay_alpha = end if left <= total * 1e-9 else start + (end - start) * (1 - left / total)

    def overlay(self, alpha: float) -> tuple[tuple[int, int, int], float]:
        """The colour over the view and its opacity (0..1) for a frame drawn
        ``alpha`` of the way from the previous step to the latest."""
        return self._overlay[0], self.previous_overlay_alpha + (self.overlay_alpha - self.previous_overlay_alpha) * alpha

    def interpolate(self, alpha: float) -> None:
        """Place the view for a frame drawn ``alpha`` (0..1) of the way from the
        previous step to the latest; draw systems call this first."""
        self.check()
        self.view = self.previous_position.lerp(self.position, alpha) + self.shake_offset / self.zoom

    def world_to_screen(self, point: VectorLike) -> Vector2:
        """Screen px of a world point, through the view last drawn."""
        return (Vector2(point) - self.view) * self.zoom

    def screen_to_world(self, point: VectorLike) -> Vector2:
        """World px of a screen point, through the view last drawn."""
        return Vector2(point) / self.zoom + self.view

    def screen_rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """Screen rectangle of a world box. Each edge is rounded on its own, so
        boxes that touch in the world touch on screen, at any zoom; edges are
        clamped to ±2**30 px, so a box far off screen stays off screen."""
        zoom, view = self.zoom, self.view
        return screen_rect((x - view.x) * zoom, (y - view.y) * zoom, (x + w - view.x) * zoom,
                           (y + h - view.y) * zoom)

    def visible_box(self) -> Box:
        """(x, y, w, h) world px of the view last drawn."""
        extent = self.view_size
        return (self.view.x, self.view.y, extent.x, extent.y)


class CameraSystem(esper.Processor):
    """Each step, move the world's Camera (and those of ``Views``) after its target and advance its
    shake and fade.

    Runs at ``CAMERA_PRIORITY`` (after everything that moves entities). The
    target point is the centre of the target's Collider, else its
    Transform position; a target that no longer exists is let go.
    """

    def __init__(self, world: WorldLike) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        main: Camera | None = self.world.resources.get(Camera)
        views: Views | None = self.world.resources.get(Views)
        for camera in ([main] if main is not None else []) + ([] if views is None else views.cameras):
            camera.check()
            camera.previous_position.update(camera.position)
            if camera.target is not None:
                if self.world.entity_exists(camera.target):
                    camera.follow(target_point(self.world, camera.target), dt)
                else:
                    camera.target = None
            camera.update_shake(dt)
            camera.update_overlay(dt)


class Views:
    """A World resource: the cameras of a scene's other views (a second
    player's half of the screen, a minimap), which the CameraSystem moves
    as it moves the main one. ``Scene.add_view`` fills it."""

    def __init__(self) -> None:
        self.cameras: list[Camera] = []

    def snapshot_shared(self) -> list[Camera]:
        """The cameras a snapshot refers to by their place here (a tween of a minimap's
        zoom, restored, tweens the restoring scene's minimap)."""
        return self.cameras


def draw_overlay(surface: pygame.Surface, camera: Camera, alpha: float) -> None:
    """Lay ``camera``'s fade or flash colour over all of ``surface``, at its opacity for ``alpha``."""
    color, opacity = camera.overlay(alpha)
    if opacity <= 0:
        return
    veil = pygame.Surface(surface.get_size())
    veil.fill(color)
    veil.set_alpha(round(opacity * 255))
    surface.blit(veil, (0, 0))


def target_point(world: WorldLike, entity: int) -> Vector2:
    """World px the camera centres on for ``entity``: its collider's centre."""
    transform = world.component_for_entity(entity, Transform)
    collider = world.try_component(entity, Collider)
    if collider is None:
        return Vector2(transform.position)
    return transform.position + collider.offset + collider.size / 2

"""Debug overlay: colliders, contact normals, frame rate and system times."""

from __future__ import annotations

from collections.abc import Callable

import esper
import pygame

from components import Collider, ColliderType, Transform
from components._checks import finite_vector, rgb
from components.text import load_font, printable
from systems.game.camera import Camera, draw_shape_clipped
from systems._world import WorldLike

__all__ = ["DebugOverlay", "Gizmos"]

COLORS = {
    ColliderType.STATIC: (120, 140, 170),
    ColliderType.SOLID: (90, 220, 120),
    ColliderType.TRIGGER: (240, 210, 60),
}
NORMAL_COLOR = (255, 80, 80)
NORMAL_LENGTH = 14  # px


class Gizmos:
    """Debug lines drawn by the overlay (Bevy's gizmos): a world resource.

    A system calls ``world.resource(Gizmos).line(start, end, color)`` (world
    px) each step it wants a line seen, e.g. a line of sight; the overlay
    draws the lines of every step since the last frame, when it is shown,
    then forgets them. Nothing is drawn, or kept, without an overlay.
    """

    def __init__(self) -> None:
        self.lines: list[tuple[pygame.Vector2, pygame.Vector2, tuple[int, int, int]]] = []

    def line(self, start: tuple[float, float] | pygame.Vector2, end: tuple[float, float] | pygame.Vector2,
             color: tuple[int, int, int] = (255, 255, 255)) -> None:
        """Draw a line from ``start`` to ``end`` (world px, finite) on the next
        frame, in ``color`` ((r, g, b), 0..255); ``ValueError`` naming the
        argument otherwise, here rather than when the frame is drawn."""
        self.lines.append((finite_vector("start", start), finite_vector("end", end), rgb("color", color)))

    def clear(self) -> None:
        """Forget every line."""
        self.lines.clear()


class DebugOverlay(esper.Processor):
    """A draw system showing what the physics sees.

    Collider outlines coloured by type (STATIC blue-grey, SOLID green,
    TRIGGER yellow), each contact's normal as a red line from the middle of
    the two colliders' overlap, and a panel with the frame rate and how long
    each system took last frame (ms), and the lines of the world's ``Gizmos``
    resource. ``stats`` returns the panel's
    (label, value) rows; ``visible`` toggles it (the Game binds F1). World
    shapes are drawn through the world's ``Camera`` resource, like sprites.
    """

    def __init__(self, world: WorldLike, stats: Callable[[], list[tuple[str, str]]], visible: bool = False) -> None:
        if not callable(stats):
            raise ValueError(f"stats must be a callable returning (label, value) rows, got {stats!r}")
        if not isinstance(visible, bool):
            raise ValueError(f"visible must be a bool, got {visible!r}")
        self.world = world
        self.stats = stats
        self.visible = visible
        self.font = load_font(None, 18)

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        """Draw the overlay if visible; forget the Gizmos lines either way."""
        if not self.visible:
            gizmos = self.world.resources.get(Gizmos)
            if gizmos is not None:
                gizmos.clear()
            return
        camera = self.world.resources.get(Camera) or Camera(surface.get_size())
        for entity, (transform, collider) in self.world.get_components(Transform, Collider):
            where = transform.previous_position.lerp(transform.position, alpha) + collider.offset
            rect = camera.screen_rect(where.x, where.y, collider.size.x, collider.size.y)
            rect.size = (max(1, rect.width), max(1, rect.height))
            if rect.colliderect(surface.get_clip()):  # off screen: nothing to draw, nothing to pay
                draw_shape_clipped(surface, COLORS[collider.type], collider.shape, rect, 1)
        for contact in self.world.contacts:
            point = camera.world_to_screen(contact.point)
            pygame.draw.line(surface, NORMAL_COLOR, point, point + contact.normal * NORMAL_LENGTH, 2)
            pygame.draw.circle(surface, NORMAL_COLOR, point, 2)
        gizmos = self.world.resources.get(Gizmos)
        if gizmos is not None:
            for start, end, color in gizmos.lines:
                pygame.draw.line(surface, color, camera.world_to_screen(start), camera.world_to_screen(end), 1)
        self._panel(surface)
        if gizmos is not None:
            gizmos.clear()

    def _panel(self, surface: pygame.Surface) -> None:
        rows = self.stats()
        height = 6 + 16 * len(rows)
        panel = pygame.Surface((230, height), pygame.SRCALPHA)
        panel.fill((0, 0, 0, 170))
        for row, (label, value) in enumerate(rows):
            panel.blit(self.font.render(printable(label[:80]), True, (200, 200, 200)), (6, 4 + 16 * row))
            panel.blit(self.font.render(printable(value[:80]), True, (255, 255, 255)), (150, 4 + 16 * row))
        surface.blit(panel, (surface.get_width() - 236, 6))

"""Debug overlay: colliders, contact normals, frame rate and system times."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import esper
import pygame

from components import Collider, ColliderType, Shape, Transform
from systems.camera import Camera

if TYPE_CHECKING:
    from ecs.world import World

__all__ = ["DebugOverlay"]

COLORS = {
    ColliderType.STATIC: (120, 140, 170),
    ColliderType.SOLID: (90, 220, 120),
    ColliderType.TRIGGER: (240, 210, 60),
}
NORMAL_COLOR = (255, 80, 80)
NORMAL_LENGTH = 14  # px


class DebugOverlay(esper.Processor):
    """A draw system showing what the physics sees.

    Collider outlines coloured by type (STATIC blue-grey, SOLID green,
    TRIGGER yellow), each contact's normal as a red line from the middle of
    the two colliders' overlap, and a panel with the frame rate and how long
    each system took last frame (ms). ``stats`` returns the panel's
    (label, value) rows; ``visible`` toggles it (the Game binds F1). World
    shapes are drawn through the world's ``Camera`` resource, like sprites.
    """

    def __init__(self, world: World, stats: Callable[[], list[tuple[str, str]]], visible: bool = False) -> None:
        self.world = world
        self.stats = stats
        self.visible = visible
        self.font = pygame.font.Font(None, 18)

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        """Draw the overlay if visible."""
        if not self.visible:
            return
        camera = self.world.resources.get(Camera) or Camera(surface.get_size())
        for entity, (transform, collider) in self.world.get_components(Transform, Collider):
            where = transform.previous_position.lerp(transform.position, alpha) + collider.offset
            rect = camera.screen_rect(where.x, where.y, collider.size.x, collider.size.y)
            rect.size = (max(1, rect.width), max(1, rect.height))
            color = COLORS[collider.type]
            if collider.shape is Shape.CIRCLE:
                pygame.draw.ellipse(surface, color, rect, 1)
            else:
                pygame.draw.rect(surface, color, rect, 1)
        for contact in self.world.contacts:
            point = self._contact_point(contact.a, contact.b)
            if point is not None:
                point = camera.world_to_screen(point)
                pygame.draw.line(surface, NORMAL_COLOR, point, point + contact.normal * NORMAL_LENGTH, 2)
                pygame.draw.circle(surface, NORMAL_COLOR, point, 2)
        self._panel(surface)

    def _contact_point(self, a: int, b: int) -> pygame.Vector2 | None:
        """Middle of the overlap (or gap) of the two colliders' boxes."""
        boxes = []
        for entity in (a, b):
            transform = self.world.try_component(entity, Transform)
            collider = self.world.try_component(entity, Collider)
            if transform is None or collider is None:
                return None
            low = transform.position + collider.offset
            boxes.append((low, low + collider.size))
        (a_low, a_high), (b_low, b_high) = boxes
        return pygame.Vector2(
            (max(a_low.x, b_low.x) + min(a_high.x, b_high.x)) / 2,
            (max(a_low.y, b_low.y) + min(a_high.y, b_high.y)) / 2,
        )

    def _panel(self, surface: pygame.Surface) -> None:
        rows = self.stats()
        height = 6 + 16 * len(rows)
        panel = pygame.Surface((230, height), pygame.SRCALPHA)
        panel.fill((0, 0, 0, 170))
        for row, (label, value) in enumerate(rows):
            panel.blit(self.font.render(label, True, (200, 200, 200)), (6, 4 + 16 * row))
            panel.blit(self.font.render(value, True, (255, 255, 255)), (150, 4 + 16 * row))
        surface.blit(panel, (surface.get_width() - 236, 6))

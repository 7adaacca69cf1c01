"""Render: draw sprites once per frame, between the last two physics states."""

from __future__ import annotations

from typing import TYPE_CHECKING

import esper
import pygame

from components import Collider, Shape, Sprite, Transform

if TYPE_CHECKING:
    from ecs.world import World

__all__ = ["RenderSystem"]


class RenderSystem(esper.Processor):
    """Draw every entity with Transform and Sprite, lower layers first.

    A draw system (see ``Game.add_draw_system``): ``process(surface, alpha)``
    runs once per frame, not once per physics step, and places each sprite at
    ``previous_position + (position − previous_position) · alpha`` so motion
    stays smooth when the frame rate and the physics rate differ. Sprites without a size take their
    Collider's; ``camera`` (px) is subtracted from every position.
    """

    def __init__(self, world: World) -> None:
        self.world = world
        self.camera = pygame.Vector2()

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        """Draw all visible sprites onto ``surface``."""
        rows = []
        for entity, (transform, sprite) in self.world.get_components(Transform, Sprite):
            if sprite.visible:
                rows.append((sprite.layer, entity, transform, sprite))
        rows.sort(key=lambda row: (row[0], row[1]))
        for _, entity, transform, sprite in rows:
            collider = self.world.try_component(entity, Collider)
            size = sprite.size or (collider.size if collider else pygame.Vector2())
            where = transform.previous_position.lerp(transform.position, alpha)
            where += sprite.offset - self.camera
            rect = pygame.Rect(round(where.x), round(where.y), round(size.x), round(size.y))
            if sprite.image is not None:
                surface.blit(sprite.image, rect)
            elif collider is not None and collider.shape is Shape.CIRCLE:
                pygame.draw.ellipse(surface, sprite.color, rect)
            else:
                pygame.draw.rect(surface, sprite.color, rect)


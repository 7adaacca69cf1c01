"""Render: draw the sprites in view once per frame, between the last two physics states."""

from __future__ import annotations

from typing import TYPE_CHECKING

import esper
import pygame

from components import Collider, Physics, Shape, Sprite, Transform
from systems.broadphase import SpatialGrid
from systems.camera import Box, Camera
from systems.narrowphase import CORNERS
from systems.triangle import triangle_vertices

if TYPE_CHECKING:
    from ecs.world import World

__all__ = ["ImageCache", "RenderSystem", "draw_shape", "sprite_box"]


class ImageCache:
    """Scaled and flipped copies of images, kept while they are drawn.

    ``get`` returns ``image`` at ``size`` px, mirrored as asked, transforming
    it only the first time; ``next_frame`` forgets whatever was not used since
    the previous call, so the cache holds about one frame's worth of images.
    """

    def __init__(self) -> None:
        self._kept: dict[tuple[int, int, int, bool, bool], tuple[pygame.Surface, pygame.Surface]] = {}
        self._used: dict[tuple[int, int, int, bool, bool], tuple[pygame.Surface, pygame.Surface]] = {}

    def get(self, image: pygame.Surface, size: tuple[int, int], flip_x: bool, flip_y: bool) -> pygame.Surface:
        """``image`` scaled to ``size`` and flipped; the image itself when unchanged."""
        if not (flip_x or flip_y) and size == image.get_size():
            return image
        key = (id(image), size[0], size[1], flip_x, flip_y)
        entry = self._used.get(key) or self._kept.get(key)
        if entry is None or entry[0] is not image:  # a new image reusing a freed id
            result = image
            if flip_x or flip_y:
                result = pygame.transform.flip(result, flip_x, flip_y)
            if size != image.get_size():
                result = pygame.transform.scale(result, (max(0, size[0]), max(0, size[1])))
            entry = (image, result)
        self._used[key] = entry
        return entry[1]

    def next_frame(self) -> None:
        """Drop the images not drawn since the last call."""
        self._kept, self._used = self._used, {}


def sprite_box(world: World, entity: int, transform: Transform, sprite: Sprite, alpha: float = 1.0) -> Box:
    """(x, y, w, h) world px a sprite covers, ``alpha`` of the way from its
    previous position to its position: the image's size, else ``size``,
    else the Collider's."""
    where = transform.previous_position.lerp(transform.position, alpha) if alpha != 1.0 else transform.position
    w: float
    h: float
    if sprite.image is not None:
        w, h = sprite.image.get_size()
    elif sprite.size is not None:
        w, h = sprite.size
    else:
        collider = world.try_component(entity, Collider)
        w, h = (collider.size.x, collider.size.y) if collider is not None else (0.0, 0.0)
    return (where.x + sprite.offset.x, where.y + sprite.offset.y, w, h)


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


class RenderSystem(esper.Processor):
    """Draw every entity with Transform and Sprite that the Camera sees, lower layers first.

    A draw system (see ``Game.add_draw_system``): ``process(surface, alpha)``
    runs once per frame, not once per physics step, and places each sprite at
    ``previous_position + (position − previous_position) · alpha`` so motion
    stays smooth when the frame rate and the physics rate differ. Positions
    go through the world's ``Camera`` resource (none: world px are screen px);
    with a zoom, images are scaled (and cached while in use).

    Only sprites in view are drawn. Sprites of entities without Physics are
    filed once in a grid of ``cell_size`` px cells, where they stand, each
    time entities or components are added or removed; a frame looks only at
    the cells the view covers. Sprites with Physics move, and are tested
    against the view each frame. Moving a sprite without Physics from your
    own code? Call ``refresh()``. ``drawn`` counts the sprites drawn last frame.
    """

    def __init__(self, world: World, cell_size: float = 256.0) -> None:
        self.world = world
        self.grid = SpatialGrid(cell_size)
        self.images = ImageCache()
        self.drawn = 0
        self._moving: list[tuple[int, Transform, Sprite]] = []
        self._still: dict[int, tuple[Transform, Sprite]] = {}
        self._sources: tuple[object, object] | None = None
        self._fallback = Camera()

    def refresh(self) -> None:
        """File every still sprite anew before the next frame."""
        self._sources = None

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        """Draw the visible sprites onto ``surface``."""
        camera = self.world.resources.get(Camera)
        if camera is None:  # no camera: world px are screen px, the view is the surface
            camera = self._fallback
            camera.size.update(surface.get_size())
            camera.interpolate(alpha)
        self._index()
        view = camera.visible_box()
        rows = []
        for entity in self.grid.query(view):
            transform, sprite = self._still[entity]
            box = sprite_box(self.world, entity, transform, sprite)
            if sprite.visible and _overlaps(box, view):
                rows.append((sprite.layer, entity, sprite, box))
        for entity, transform, sprite in self._moving:
            box = sprite_box(self.world, entity, transform, sprite, alpha)
            if sprite.visible and _overlaps(box, view):
                rows.append((sprite.layer, entity, sprite, box))
        rows.sort(key=lambda row: (row[0], row[1]))
        for _, entity, sprite, box in rows:
            self._draw(surface, camera, entity, sprite, box)
        self.drawn = len(rows)
        self.images.next_frame()

    def _draw(self, surface: pygame.Surface, camera: Camera, entity: int, sprite: Sprite, box: Box) -> None:
        rect = camera.screen_rect(*box)
        if sprite.image is not None:
            image = self.images.get(sprite.image, rect.size, sprite.flip_x, sprite.flip_y)
            surface.blit(image, rect)
            return
        collider = self.world.try_component(entity, Collider)
        draw_shape(surface, sprite.color, Shape.BOX if collider is None else collider.shape, rect)

    def _index(self) -> None:
        """Re-file the sprites when esper's component lists changed (esper
        hands back the same cached lists until something is added or removed)."""
        sources = (self.world.get_components(Transform, Sprite), self.world.get_component(Physics))
        if self._sources is not None and all(new is old for new, old in zip(sources, self._sources)):
            return
        self._sources = sources
        moving = {entity for entity, _ in sources[1]}
        for entity in list(self._still):
            self.grid.remove(entity)
        self._still.clear()
        self._moving = []
        for entity, (transform, sprite) in sources[0]:
            if entity in moving:
                self._moving.append((entity, transform, sprite))
            else:
                self._still[entity] = (transform, sprite)
                self.grid.insert(entity, sprite_box(self.world, entity, transform, sprite))


def draw_shape(surface: pygame.Surface, color: tuple[int, ...], shape: Shape,
               rect: pygame.Rect, width: int = 0) -> None:
    """Draw ``shape`` filling screen ``rect``: the box, its inscribed circle
    or its triangle half; ``width`` px of outline, 0 to fill."""
    if shape is Shape.CIRCLE:
        pygame.draw.ellipse(surface, color, rect, width)
    elif shape in CORNERS:
        points = triangle_vertices((rect.x, rect.y, rect.width, rect.height), CORNERS[shape])
        pygame.draw.polygon(surface, color, points, width)
    else:
        pygame.draw.rect(surface, color, rect, width)

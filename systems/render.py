"""Render: draw the sprites and tile chunks in view once per frame, between the last two physics states."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import esper
import pygame
from pygame import Vector2

from components import Collider, Physics, Shape, Sprite, Transform
from components.sprite import TileChunks
from systems.broadphase import SpatialGrid
from systems.camera import Box, Camera, draw_shape_clipped, visible_parts

if TYPE_CHECKING:
    from ecs.world import World

__all__ = ["ImageCache", "RenderSystem", "draw_shape", "sprite_box"]


ImageKey = tuple[int, int, int, bool, bool, tuple[int, int, int, int]]


class ImageCache:
    """Scaled and flipped copies of images, kept while they are drawn.

    ``get`` returns ``image`` mirrored as asked, then the ``source`` part of
    it scaled to ``size`` px, transforming it only the first time;
    ``next_frame`` forgets whatever was not used since the previous call, so
    the cache holds about one frame's worth of images.
    """

    def __init__(self) -> None:
        self._kept: dict[ImageKey, tuple[pygame.Surface, pygame.Surface]] = {}
        self._used: dict[ImageKey, tuple[pygame.Surface, pygame.Surface]] = {}

    def get(self, image: pygame.Surface, size: tuple[int, int], flip_x: bool, flip_y: bool,
            source: pygame.Rect | None = None) -> pygame.Surface:
        """``image`` flipped, then its ``source`` part (px of the flipped
        image; all of it by default) scaled to ``size``; the image itself
        when nothing changes."""
        whole = (0, 0, image.get_width(), image.get_height())
        area = whole if source is None else (source.x, source.y, source.w, source.h)
        if not (flip_x or flip_y) and area == whole and size == image.get_size():
            return image
        key = (id(image), size[0], size[1], flip_x, flip_y, area)
        entry = self._used.get(key) or self._kept.get(key)
        if entry is None or entry[0] is not image:  # a new image reusing a freed id
            result = image
            if flip_x or flip_y:
                result = pygame.transform.flip(result, flip_x, flip_y)
            if area != whole:
                result = result.subsurface(area)
            if size != result.get_size():
                result = pygame.transform.scale(result, (max(0, size[0]), max(0, size[1])))
            entry = (image, result)
        self._used[key] = entry
        return entry[1]

    def next_frame(self) -> None:
        """Drop the images not drawn since the last call."""
        self._kept, self._used = self._used, {}


def sprite_box(world: World, entity: int, transform: Transform, sprite: Sprite, alpha: float = 1.0) -> Box:
    """(x, y, w, h) world px a sprite covers, ``alpha`` of the way from its
    previous position to its position: ``size`` if set (an image is scaled
    to it), else the image's size, else the Collider's."""
    return _box(transform, sprite, world.try_component(entity, Collider), alpha)


def _box(transform: Transform, sprite: Sprite, collider: Collider | None, alpha: float = 1.0) -> Box:
    where = transform.previous_position.lerp(transform.position, alpha) if alpha != 1.0 else transform.position
    w: float
    h: float
    if sprite.size is not None:
        w, h = sprite.size
    elif sprite.image is not None:
        w, h = sprite.image.get_size()
    elif collider is not None:
        w, h = collider.size
    else:
        w = h = 0.0
    offset = sprite.offset
    return (where.x + offset.x, where.y + offset.y, w, h)


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


#: What a still sprite's box depends on, as it was when filed: position,
#: offset, image, size, Collider size.
_Seen = tuple[Vector2, Vector2, "pygame.Surface | None", "Vector2 | None", "Vector2 | None"]
#: A still sprite as filed: its components, the box it was filed under, what that came from.
_Still = tuple[Transform, Sprite, "Collider | None", Box, _Seen]
#: One thing to draw: (layer, entity, (row, column) of a chunk or (), box, sprite or None, chunk image or None).
_Row = tuple[int, int, tuple[int, ...], Box, "Sprite | None", "pygame.Surface | None"]


class RenderSystem(esper.Processor):
    """Draw every entity with Transform and Sprite (or TileChunks) that the
    Camera sees, lower layers first.

    A draw system (see ``Game.add_draw_system``): ``process(surface, alpha)``
    runs once per frame, not once per physics step, and places each sprite at
    ``previous_position + (position − previous_position) · alpha`` so motion
    stays smooth when the frame rate and the physics rate differ. Positions
    go through the world's ``Camera`` resource (none: world px are screen px);
    with a zoom, images are scaled (and cached while in use).

    Only sprites in view are drawn. Sprites of entities without Physics are
    filed in a grid of ``cell_size`` px cells and a frame looks only at the
    cells the view covers; each frame re-files those whose box changed (a
    door or a cloud moved by your own system is drawn where it is; a sprite
    that stayed put costs a comparison of its position, offset, image and
    sizes, a fraction of a microsecond). Sprites with
    Physics are tested against the view each frame. ``drawn`` counts the
    sprites and chunks drawn last frame.

    A ``TileChunks`` entity draws the chunks in view, asking its ``render``
    for a chunk the first time it is in view; chunks farther than half a
    view beyond each edge of the view are let go (``images`` keeps the rest).
    """

    def __init__(self, world: World, cell_size: float = 256.0) -> None:
        self.world = world
        self.grid = SpatialGrid(cell_size)
        self.images = ImageCache()
        self.drawn = 0
        self._moving: list[tuple[int, Transform, Sprite, Collider | None]] = []
        self._still: dict[int, _Still] = {}
        self._sources: tuple[object, ...] | None = None
        self._fallback = Camera()

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        """Draw the visible sprites onto ``surface``."""
        camera = self.world.resources.get(Camera)
        if camera is None:  # no camera: world px are screen px, the view is the surface
            camera = self._fallback
            camera.size.update(surface.get_size())
            camera.interpolate(alpha)
        self._index()
        self._refile()
        view = camera.visible_box()
        rows: list[_Row] = []
        for entity in self.grid.query(view):
            _, sprite, _, box, _ = self._still[entity]
            if sprite.visible and _overlaps(box, view):
                rows.append((sprite.layer, entity, (), box, sprite, None))
        for entity, transform, sprite, collider in self._moving:
            box = _box(transform, sprite, collider, alpha)
            if sprite.visible and _overlaps(box, view):
                rows.append((sprite.layer, entity, (), box, sprite, None))
        for entity, (transform, tiles) in self.world.get_components(Transform, TileChunks):
            if tiles.visible:
                rows.extend(_chunks_in_view(entity, transform.position, tiles, view))
        rows.sort(key=lambda row: (row[0], row[1], row[2]))
        for _, entity, _, box, drawn, image in rows:
            self._draw(surface, camera, entity, drawn, image, box)
        self.drawn = len(rows)
        self.images.next_frame()

    def _draw(self, surface: pygame.Surface, camera: Camera, entity: int, sprite: Sprite | None,
              image: pygame.Surface | None, box: Box) -> None:
        rect = camera.screen_rect(*box)
        if sprite is None or sprite.image is not None:
            picture = image if sprite is None else sprite.image
            flip_x, flip_y = (False, False) if sprite is None else (sprite.flip_x, sprite.flip_y)
            assert picture is not None
            # Only the parts on screen are scaled: a zoomed or stretched image
            # costs what the screen shows, not its size at that scale.
            box = (rect.x, rect.y, rect.w, rect.h)
            for source, dest in visible_parts(picture.get_size(), box, surface.get_clip()):
                surface.blit(self.images.get(picture, dest.size, flip_x, flip_y, source), dest)
            return
        collider = self.world.try_component(entity, Collider)
        draw_shape(surface, sprite.color, Shape.BOX if collider is None else collider.shape, rect)

    def _index(self) -> None:
        """Sort the sprites into still and moving anew when esper's component
        lists changed (esper hands back the same cached lists until something
        is added or removed)."""
        sources = (self.world.get_components(Transform, Sprite), self.world.get_component(Physics),
                   self.world.get_component(Collider))
        if self._sources is not None and all(new is old for new, old in zip(sources, self._sources)):
            return
        self._sources = sources
        moving = {entity for entity, _ in sources[1]}
        colliders = dict(sources[2])
        for entity in list(self._still):
            self.grid.remove(entity)
        self._still.clear()
        self._moving = []
        for entity, (transform, sprite) in sources[0]:
            collider = colliders.get(entity)
            if entity in moving:
                self._moving.append((entity, transform, sprite, collider))
            else:
                self._file(entity, transform, sprite, collider)

    def _refile(self) -> None:
        """File again the still sprites whose box changed since they were
        filed: each one's position, offset, image, size and Collider size
        compared with a copy (pygame compares vectors in C), stopping at the
        first difference, as the collision system compares level geometry."""
        for entity, (transform, sprite, collider, _, seen) in self._still.items():
            if (transform.position == seen[0] and sprite.offset == seen[1] and sprite.image is seen[2]
                    and sprite.size == seen[3] and (collider is None or collider.size == seen[4])):
                continue
            self.grid.remove(entity)
            self._file(entity, transform, sprite, collider)

    def _file(self, entity: int, transform: Transform, sprite: Sprite, collider: Collider | None) -> None:
        """File a still sprite in the grid under its box, with what it depends on."""
        box = _box(transform, sprite, collider)
        seen = (Vector2(transform.position), Vector2(sprite.offset), sprite.image,
                None if sprite.size is None else Vector2(sprite.size),
                None if collider is None else Vector2(collider.size))
        self._still[entity] = (transform, sprite, collider, box, seen)
        self.grid.insert(entity, box)


def _chunks_in_view(entity: int, origin: Vector2, tiles: TileChunks, view: Box) -> list[_Row]:
    """Rows for the chunks of ``tiles`` (top-left at ``origin``) that ``view``
    overlaps, each rendered if it is not kept; then let go of those outside
    the view grown by half its size on every side."""
    w, h = tiles.chunk_size
    rows: list[_Row] = []
    (first_column, last_column), (first_row, last_row) = (
        _span(view[axis] - origin[axis], view[axis + 2], tiles.chunk_size[axis]) for axis in (0, 1))
    if (last_column - first_column) * (last_row - first_row) <= len(tiles.chunks):
        keys = [(c, r) for r in range(first_row, last_row) for c in range(first_column, last_column)
                if (c, r) in tiles.chunks]
    else:  # zoomed far out: fewer chunks in the map than places in view
        keys = [(c, r) for c, r in tiles.chunks if first_column <= c < last_column and first_row <= r < last_row]
    for column, row in sorted(keys, key=lambda key: (key[1], key[0])):
        image = tiles.images.get((column, row))
        if image is None:
            image = tiles.images[(column, row)] = tiles.render(column, row)
        box = (origin.x + column * w, origin.y + row * h, float(image.get_width()), float(image.get_height()))
        rows.append((tiles.layer, entity, (row, column), box, None, image))
    keep = (view[0] - view[2] / 2, view[1] - view[3] / 2, view[2] * 2, view[3] * 2)
    for key in [key for key in tiles.images
                if not _overlaps((origin.x + key[0] * w, origin.y + key[1] * h, w, h), keep)]:
        del tiles.images[key]
    return rows


def _span(start: float, length: float, size: int) -> tuple[int, int]:
    """The chunks [first, last) of ``size`` px from 0 that [start, start + length) px overlaps."""
    return max(0, math.floor(start / size)), max(0, math.ceil((start + length) / size))


def draw_shape(surface: pygame.Surface, color: tuple[int, ...], shape: Shape,
               rect: pygame.Rect, width: int = 0) -> None:
    """Draw ``shape`` filling screen ``rect``: the box, its inscribed circle
    or its triangle half; ``width`` px of outline, 0 to fill. A shape larger
    than the screen costs only what lands on it (``draw_shape_clipped``)."""
    draw_shape_clipped(surface, color, shape, rect, width)

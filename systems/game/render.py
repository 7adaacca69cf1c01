"""Render: draw the sprites and tile chunks in view once per frame, between the last two physics states."""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import NoReturn

import esper
import pygame
from pygame import Vector2

from components import Collider, Physics, Shape, Sprite, Transform
from components.sprite import TileChunks
from systems.physics._broad.grid import SpatialGrid
from systems.game.camera import Box, Camera, draw_shape_clipped, visible_parts
from systems._world import WorldLike

__all__ = ["ImageCache", "RenderSystem", "draw_shape", "sprite_box"]


ImageKey = tuple[int, int, int, bool, bool, tuple[int, int, int, int]]
FinishKey = tuple[int, float, "tuple[int, int, int] | None", int]

#: The parallax of a sprite drawn with the world (moving with the camera as it does).
WORLD = Vector2(1, 1)

#: A turned sprite is drawn through one transformed copy of its whole image,
#: which must fit in this many screen px (a larger one is drawn unturned, only
#: its part on screen made).
MAX_TURNED_PIXELS = 1 << 24


class ImageCache:
    """Scaled and flipped copies of images, kept while they are drawn.

    ``get`` returns ``image`` mirrored as asked, then the ``source`` part of
    it scaled to ``size`` px, transforming it only the first time (and
    ``finish`` the tinted, turned, faded copy of one);
    ``next_frame`` forgets whatever was not used since the previous call, so
    the cache holds about one frame's worth of images.
    """

    def __init__(self) -> None:
        self._kept: dict[ImageKey, tuple[pygame.Surface, pygame.Surface]] = {}
        self._used: dict[ImageKey, tuple[pygame.Surface, pygame.Surface]] = {}
        self._finished_kept: dict[FinishKey, tuple[pygame.Surface, pygame.Surface]] = {}
        self._finished_used: dict[FinishKey, tuple[pygame.Surface, pygame.Surface]] = {}

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

    def finish(self, picture: pygame.Surface, angle: float, tint: tuple[int, int, int] | None,
               alpha: float) -> pygame.Surface:
        """``picture`` tinted (its colours multiplied by ``tint``), turned
        ``angle`` degrees clockwise and faded to ``alpha`` in [0, 1]; made
        the first time only, like ``get``; ``picture`` itself when none applies."""
        opacity = round(alpha * 255)
        if angle % 360 == 0 and tint is None and opacity == 255:
            return picture
        key = (id(picture), angle % 360, tint, opacity)
        entry = self._finished_used.get(key) or self._finished_kept.get(key)
        if entry is None or entry[0] is not picture:
            result = picture
            if tint is not None or angle % 360 or not picture.get_flags() & pygame.SRCALPHA:
                # A copy with an alpha channel: tinting must not touch the cached image, and a
                # turned image's corners must be see-through (convert_alpha needs a window).
                result = pygame.Surface(picture.get_size(), pygame.SRCALPHA)
                result.blit(picture, (0, 0))
            if tint is not None:
                result.fill(tint, special_flags=pygame.BLEND_RGB_MULT)
            if angle % 360:
                result = pygame.transform.rotate(result, -angle)  # pygame turns counter-clockwise
            if opacity < 255:
                result.set_alpha(opacity)
            entry = (picture, result)
        self._finished_used[key] = entry
        return entry[1]

    def next_frame(self) -> None:
        """Drop the images not drawn since the last call."""
        self._kept, self._used = self._used, {}
        self._finished_kept, self._finished_used = self._finished_used, {}


def sprite_box(world: WorldLike, entity: int, transform: Transform, sprite: Sprite, alpha: float = 1.0) -> Box:
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


def _reach(box: Box, sprite: Sprite) -> Box:
    """The world px ``box`` covers once ``sprite`` scales and turns it about its centre (its bounds)."""
    return _turned(box, sprite.scale, sprite.angle)


def _turned(box: Box, scale: float, angle: float) -> Box:
    """The bounds of ``box`` scaled by ``scale`` and turned ``angle`` degrees about its centre."""
    turn = math.radians(angle % 360)
    if scale == 1 and not turn:
        return box
    x, y, w, h = box
    w, h = w * scale, h * scale
    if turn:
        c, s = abs(math.cos(turn)), abs(math.sin(turn))
        w, h = w * c + h * s, w * s + h * c
    return (x + box[2] / 2 - w / 2, y + box[3] / 2 - h / 2, w, h)


def _shifted(box: Box, parallax: Vector2, view: Box) -> Box:
    """``box`` where the camera draws it as if it were in the world: a sprite
    with parallax f moves on screen by f of the camera's motion, so it sits
    (1 - f) of the view's offset further along."""
    if parallax == WORLD:
        return box
    return (box[0] + view[0] * (1 - parallax.x), box[1] + view[1] * (1 - parallax.y), box[2], box[3])


def _drawable(box: Box) -> bool:
    """Whether ``box`` is finite and its size >= 0 (a vector changed in place may leave it not)."""
    return math.isfinite(box[0] + box[1] + box[2] + box[3]) and box[2] >= 0 and box[3] >= 0


def _refuse(entity: int, drawn: Sprite | TileChunks, box: Box) -> NoReturn:
    """Raise ``ValueError`` naming the entity and the field of ``drawn`` (a Sprite or TileChunks)
    whose vector, changed in place, put it at ``box`` (px): each field's own check, as an
    assignment would have made it. The Transform is the step's to check (``World.check_vectors``)."""
    kind = type(drawn).__name__
    for field in ("size", "offset", "parallax"):
        check = drawn._checks.get(field)
        value = getattr(drawn, field, None)
        if check is None or value is None:
            continue
        try:
            check(f"{kind}.{field}", value)
        except ValueError as error:
            raise ValueError(f"entity {entity}: {error} (set in place since it was assigned)") from None
    raise ValueError(f"entity {entity}: its {kind} would be drawn at {box}, which is not finite (where its "
                     f"Transform or Collider is, or a vector set in place since the last step)")


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


#: A TileChunks' kept chunk images and their details, by (column, row) (see TileChunks).
_Store = tuple[dict[tuple[int, int], pygame.Surface], dict[tuple[int, int], tuple[int, int, int]]]
#: What a still sprite's box depends on, copied when it was filed: position, offset, image, size,
#: and (angle, scale, parallax).
_Seen = tuple[Vector2, Vector2, "pygame.Surface | None", "Vector2 | None", tuple[float, float, Vector2]]
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
    filed in a grid of ``cell_size`` px cells, and only those in the cells the
    view covers are drawn; each frame re-files those whose box changed, so a
    door or a cloud moved by your own system is drawn where it is with no call
    to make. That check is O(still sprites) a frame: every still sprite's
    position, offset, image and size (and Collider size) is compared with a
    copy made when it was filed. Sprites with Physics are tested against the
    view each frame. ``drawn`` counts the sprites and chunks drawn last frame.

    A ``TileChunks`` entity draws the chunks in view, asking its ``render``
    for a chunk the first time it is in view; chunks farther than half a
    view beyond each edge of the view are let go (``images`` keeps the rest).
    Zoomed out below 1, a chunk is kept reduced by the largest power of two
    ≤ 1/zoom (the full-size image let go), so the images kept stay within a
    few screens' worth of px at any zoom: the kept chunks cover at most the
    view grown by half on each side plus a chunk, at fewer than 2·zoom
    image px per world px along each axis.
    """

    def __init__(self, world: WorldLike, cell_size: float = 256.0) -> None:
        self.world = world
        self.grid = SpatialGrid(cell_size)
        self.images = ImageCache()
        self.drawn = 0
        self._moving: list[tuple[int, Transform, Sprite, Collider | None]] = []
        self._still = _StillSprites()
        self._sources: tuple[object, ...] | None = None
        self._fallback = Camera()
        # The chunk images kept for the cameras of other views: camera id -> entity -> (images, details).
        self._views: dict[int, dict[int, _Store]] = {}

    def forget_view(self, camera: Camera) -> None:
        """Let go of the chunk images kept for ``camera``'s view (its view was removed)."""
        self._views.pop(id(camera), None)

    def refresh(self) -> None:
        """Nothing to do: still sprites are re-filed by themselves when they
        move (kept so that games written for older versions still run)."""

    def process(self, surface: pygame.Surface, alpha: float, camera: Camera | None = None,
                layers: Collection[int] | None = None) -> None:
        """Draw the visible sprites onto ``surface``, through ``camera`` (by
        default the world's Camera resource; another one draws a second view,
        keeping its own tile chunks at its own level of detail), only those
        whose layer is in ``layers`` if given."""
        own = camera is None
        camera = camera or self.world.resources.get(Camera)
        if camera is None:  # no camera: world px are screen px, the view is the surface
            camera = self._fallback
            camera.size.update(surface.get_size())
            camera.interpolate(alpha)
        self._index()
        self._refile()
        view = camera.visible_box()
        rows: list[_Row] = []
        for entity in self.grid.query(view):
            sprite, box = self._still.boxes[entity]
            if sprite.visible and _overlaps(_reach(box, sprite), view):
                rows.append((sprite.layer, entity, (), box, sprite, None))
        for entity, transform, sprite, collider in self._moving:
            box = _shifted(_box(transform, sprite, collider, alpha), sprite.parallax, view)
            if not _drawable(box):
                _refuse(entity, sprite, box)
            if sprite.visible and _overlaps(_reach(box, sprite), view):
                rows.append((sprite.layer, entity, (), box, sprite, None))
        stores = self._views.setdefault(id(camera), {}) if not own else None
        if stores:  # let go of the chunk images of TileChunks no longer in the world
            for gone in stores.keys() - {entity for entity, _ in self.world.get_component(TileChunks)}:
                del stores[gone]
        for entity, (transform, tiles) in self.world.get_components(Transform, TileChunks):
            if tiles.visible:
                corner = _shifted((*transform.position, 0, 0), tiles.parallax, view)
                if not _drawable(corner):
                    _refuse(entity, tiles, corner)
                origin = Vector2(corner[:2])
                store = (tiles.images, tiles.details) if stores is None else stores.setdefault(entity, ({}, {}))
                rows.extend(_chunks_in_view(entity, origin, tiles, view, camera.zoom, store))
        if layers is not None:
            rows = [row for row in rows if row[0] in layers]
        rows.sort(key=lambda row: (row[0], row[1], row[2]))
        for _, entity, _, box, drawn, image in rows:
            self._draw(surface, camera, entity, drawn, image, box)
        self.drawn = len(rows)
        if own:  # once a frame: a second view's images are kept with the first's until the next
            self.images.next_frame()

    def _draw(self, surface: pygame.Surface, camera: Camera, entity: int, sprite: Sprite | None,
              image: pygame.Surface | None, box: Box) -> None:
        if sprite is not None and sprite.transformed:
            self._draw_transformed(surface, camera, entity, sprite, box)
            return
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

    def _draw_transformed(self, surface: pygame.Surface, camera: Camera, entity: int, sprite: Sprite,
                          box: Box) -> None:
        """Draw ``sprite`` scaled, turned, tinted and faded about the centre of ``box``. Unturned
        (or turned but too large to turn whole), only the part on screen is made."""
        rect = camera.screen_rect(*_turned(box, sprite.scale, 0.0))
        if rect.w <= 0 or rect.h <= 0 or sprite.alpha == 0:
            return
        if sprite.angle % 360 == 0 or rect.w * rect.h > MAX_TURNED_PIXELS:
            self._draw_unturned(surface, entity, sprite, rect)
            return
        if sprite.image is not None:
            picture = self.images.get(sprite.image, rect.size, sprite.flip_x, sprite.flip_y)
        else:  # a shape: drawn into a picture of its own to be turned and faded
            picture = pygame.Surface(rect.size, pygame.SRCALPHA)
            draw_shape(picture, sprite.color, self._shape(entity), picture.get_rect())
        finished = self.images.finish(picture, sprite.angle, sprite.tint, sprite.alpha)
        surface.blit(finished, finished.get_rect(center=rect.center))

    def _draw_unturned(self, surface: pygame.Surface, entity: int, sprite: Sprite, rect: pygame.Rect) -> None:
        """Draw ``sprite`` tinted and faded into screen ``rect``, making only what the clip shows."""
        if sprite.image is not None:
            for source, dest in visible_parts(sprite.image.get_size(), (rect.x, rect.y, rect.w, rect.h),
                                              surface.get_clip()):
                part = self.images.get(sprite.image, dest.size, sprite.flip_x, sprite.flip_y, source)
                surface.blit(self.images.finish(part, 0.0, sprite.tint, sprite.alpha), dest)
            return
        shown = rect.clip(surface.get_clip())
        if shown.w and shown.h:
            picture = pygame.Surface(shown.size, pygame.SRCALPHA)
            draw_shape(picture, sprite.color, self._shape(entity), rect.move(-shown.x, -shown.y))
            picture.set_alpha(round(sprite.alpha * 255))
            surface.blit(picture, shown)

    def _shape(self, entity: int) -> Shape:
        """The shape a colour sprite fills: its Collider's, or a box."""
        collider = self.world.try_component(entity, Collider)
        return Shape.BOX if collider is None else collider.shape

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
        for entity in self._still.boxes:
            self.grid.remove(entity)
        self._still = _StillSprites()
        self._moving = []
        for entity, (transform, sprite) in sources[0]:
            collider = colliders.get(entity)
            if entity in moving or sprite.parallax != WORLD:  # (the grid files world boxes)
                self._moving.append((entity, transform, sprite, collider))
            else:
                self._still.add(entity, transform, sprite, collider)
        for index in range(len(self._still.entities)):
            self._file(index)

    def _refile(self) -> None:
        """File again the still sprites whose box changed since they were filed
        (sort them all anew if one was given a parallax)."""
        changed = self._still.changed()
        if any(self._still.sprites[index].parallax != WORLD for index in changed):
            self._sources = None
            self._index()
            return
        for index in changed:
            self.grid.remove(self._still.entities[index])
            self._file(index)

    def _file(self, index: int) -> None:
        """File the ``index``-th still sprite in the grid under its box."""
        still = self._still
        entity, sprite = still.entities[index], still.sprites[index]
        box = _box(still.transforms[index], sprite, still.colliders.get(index))
        if not _drawable(box):
            _refuse(entity, sprite, box)
        still.boxes[entity] = (sprite, box)
        self.grid.insert(entity, _reach(box, sprite))


class _StillSprites:
    """The still sprites in parallel lists, with copies of what each one's
    box depends on as it was when filed: position, offset, image and size of
    every sprite, and the Collider's size of those with a Collider."""

    def __init__(self) -> None:
        self.entities: list[int] = []
        self.transforms: list[Transform] = []
        self.sprites: list[Sprite] = []
        self.seen: list[_Seen] = []
        self.colliders: dict[int, Collider] = {}  # sprite index -> its Collider, for those with one
        self.collider_sizes: dict[int, Vector2] = {}  # sprite index -> the Collider's size when filed
        self.boxes: dict[int, tuple[Sprite, Box]] = {}  # entity -> (sprite, box filed under)

    def add(self, entity: int, transform: Transform, sprite: Sprite, collider: Collider | None) -> None:
        index = len(self.entities)
        self.entities.append(entity)
        self.transforms.append(transform)
        self.sprites.append(sprite)
        self.seen.append(_copies(transform, sprite))
        if collider is not None:
            self.colliders[index] = collider
            self.collider_sizes[index] = Vector2(collider.size)

    def changed(self) -> list[int]:
        """Indices of the sprites whose box changed since last looked at, each
        then remembered as it is."""
        # One pass of plain comparisons stopping at the first difference: this
        # beat building lists with map(attrgetter) and comparing them in C.
        moved = [index for index, (transform, sprite, (position, offset, image, size, turn))
                 in enumerate(zip(self.transforms, self.sprites, self.seen))
                 if not (transform.position == position and sprite.offset == offset
                         and sprite.image is image and sprite.size == size
                         and (sprite.angle, sprite.scale, sprite.parallax) == turn)]
        moved.extend(index for index, collider in self.colliders.items()
                     if collider.size != self.collider_sizes[index])
        for index in moved:
            self.seen[index] = _copies(self.transforms[index], self.sprites[index])
            if index in self.colliders:
                self.collider_sizes[index] = Vector2(self.colliders[index].size)
        return sorted(set(moved))


def _copies(transform: Transform, sprite: Sprite) -> _Seen:
    return (Vector2(transform.position), Vector2(sprite.offset), sprite.image,
            None if sprite.size is None else Vector2(sprite.size),
            (sprite.angle, sprite.scale, Vector2(sprite.parallax)))


def _chunks_in_view(entity: int, origin: Vector2, tiles: TileChunks, view: Box, zoom: float,
                    store: _Store) -> list[_Row]:
    """Rows for the chunks of ``tiles`` (top-left at ``origin``) that ``view``
    overlaps, each made (or reduced) at the level of detail of ``zoom`` if
    ``store`` (images, details) does not keep it at it; then let go of those
    outside the view grown by half its size on every side, and of those at
    another level not drawn."""
    images, details = store
    w, h = tiles.chunk_size
    divisor = _divisor(zoom)
    rows: list[_Row] = []
    (first_column, last_column), (first_row, last_row) = (
        _span(view[axis] - origin[axis], view[axis + 2], tiles.chunk_size[axis]) for axis in (0, 1))
    if (last_column - first_column) * (last_row - first_row) <= len(tiles.chunks):
        keys = [(c, r) for r in range(first_row, last_row) for c in range(first_column, last_column)
                if (c, r) in tiles.chunks]
    else:  # zoomed far out: fewer chunks in the map than places in view
        keys = [(c, r) for c, r in tiles.chunks if first_column <= c < last_column and first_row <= r < last_row]
    for column, row in sorted(keys, key=lambda key: (key[1], key[0])):
        image, (_, full_w, full_h) = _chunk_image(tiles, (column, row), divisor, store)
        box = (origin.x + column * w, origin.y + row * h, float(full_w), float(full_h))
        rows.append((tiles.layer, entity, (row, column), box, None, image))
    drawn = set(keys)
    keep = (view[0] - view[2] / 2, view[1] - view[3] / 2, view[2] * 2, view[3] * 2)
    for key in [key for key in images
                if not _overlaps((origin.x + key[0] * w, origin.y + key[1] * h, w, h), keep)
                or (details.get(key, (0, 0, 0))[0] != divisor and key not in drawn)]:
        del images[key]
        details.pop(key, None)
    return rows


def _divisor(zoom: float) -> int:
    """The largest power of two ≤ 1/``zoom`` (1 from zoom 1 up): a chunk
    reduced that much still has at least one image px per screen px."""
    divisor = 1
    while divisor * 2 * zoom <= 1.0:
        divisor *= 2
    return divisor


def _chunk_image(tiles: TileChunks, key: tuple[int, int], divisor: int,
                 store: _Store) -> tuple[pygame.Surface, tuple[int, int, int]]:
    """Chunk ``key``'s image at 1/``divisor`` of its size, and its details:
    the kept one, or the kept one reduced further, or rendered and reduced
    (the full-size image is let go once reduced, so memory follows the zoom)."""
    images, details = store
    image, detail = images.get(key), details.get(key)
    if image is not None and detail is not None and detail[0] == divisor:
        return image, detail
    if image is None or detail is None or detail[0] > divisor:  # none kept, or too coarse
        image = tiles.render(*key)
        detail = (1, image.get_width(), image.get_height())
    if detail[0] != divisor:
        image = _reduce(image, detail[0] / divisor)
    detail = (divisor, detail[1], detail[2])
    images[key], details[key] = image, detail
    return image, detail


def _reduce(image: pygame.Surface, scale: float) -> pygame.Surface:
    """``image`` scaled by ``scale`` (< 1; sizes rounded up, at least 1 px),
    averaging px where pygame can (24 and 32 bit images), keeping its alpha."""
    size = (max(1, math.ceil(image.get_width() * scale)), max(1, math.ceil(image.get_height() * scale)))
    if image.get_bitsize() in (24, 32):
        reduced = pygame.transform.smoothscale(image, size)
    else:
        reduced = pygame.transform.scale(image, size)
    alpha = image.get_alpha()
    if alpha is not None:
        reduced.set_alpha(alpha)
    return reduced


def _span(start: float, length: float, size: int) -> tuple[int, int]:
    """The chunks [first, last) of ``size`` px from 0 that [start, start + length) px overlaps."""
    return max(0, math.floor(start / size)), max(0, math.ceil((start + length) / size))


def draw_shape(surface: pygame.Surface, color: tuple[int, ...], shape: Shape,
               rect: pygame.Rect, width: int = 0) -> None:
    """Draw ``shape`` filling screen ``rect``: the box, its inscribed circle
    or its triangle half; ``width`` px of outline, 0 to fill. A shape larger
    than the screen costs only what lands on it (``draw_shape_clipped``)."""
    draw_shape_clipped(surface, color, shape, rect, width)

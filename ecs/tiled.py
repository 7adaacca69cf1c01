"""Tiled maps: load a .tmx level (the Tiled editor's format) into a World with pytmx.

``load_map(world, path)`` turns a map into entities:

- every visible tile layer into sprites of pre-rendered chunks (``chunk_size``
  tiles square), so a frame blits a handful of images, not one per tile;
- the solid tiles into STATIC colliders merged into as few rectangles as the
  map allows (``systems.tilemerge``), so a 200×50 level costs the collision
  pipeline a few hundred bodies, and a body slides along merged tiles as it
  would along single ones;
- every object of the object layers into whatever entity the factory for its
  class makes (``factories={"coin": make_coin}``).

Which tiles are solid, in the tileset's tile properties (Tiled: Tileset
editor → tile → Custom Properties):

- ``solid`` (bool; the name is ``solid_property``): collides on every side.
  Alternatively name tile layers in ``collision_layers``: every tile drawn
  in them is solid (such layers are usually hidden in Tiled).
- ``one_way`` (bool): a platform landed on from above and passed through
  from below and the sides.
- ``ramp`` (string: ``bottom_left``, ``bottom_right``, ``top_left`` or
  ``top_right``, the corner holding the right angle): a right-triangle slope.

One-way platforms and ramps are never merged: each tile is its own collider,
made by ``tile_collider``: a one-way tile is a STATIC box with
``sides=Side.TOP``, a ramp a STATIC triangle (``Shape.TRIANGLE_BOTTOM_LEFT``
for ``bottom_left``, and so on) filling the tile.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import pygame
import pytmx
from pytmx.util_pygame import handle_transformation
from pygame import Vector2

from components import Collider, ColliderType, Shape, Side, Sprite, Transform
from ecs.images import load_image
from ecs.world import World
from systems.tilemerge import merge_tiles

__all__ = [
    "MapObject", "ONE_WAY", "ObjectFactory", "RAMP", "RAMP_CORNERS", "SOLID", "TileMap", "load_map",
    "tile_collider",
]

#: Tile property names understood by the loader (see the module docstring).
SOLID = "solid"
ONE_WAY = "one_way"
RAMP = "ramp"
RAMP_CORNERS = ("bottom_left", "bottom_right", "top_left", "top_right")


@dataclass(slots=True)
class MapObject:
    """One object of a Tiled object layer, in world px (y down, top-left origin).

    ``kind`` is the object's class (Tiled 1.9 and later; ``type`` before);
    ``properties`` its custom properties, typed as in Tiled; ``image`` the
    tile image of a tile object, else None; ``points`` the world px points of
    a polyline or polygon (a patrol path), else empty. ``layer`` names its
    object layer. Rotation is kept in ``rotation`` (degrees) but not applied.
    """

    id: int
    name: str
    kind: str
    x: float
    y: float
    width: float
    height: float
    layer: str
    properties: dict[str, Any] = field(default_factory=dict)
    image: pygame.Surface | None = None
    points: tuple[Vector2, ...] = ()
    rotation: float = 0.0

    @property
    def position(self) -> Vector2:
        """Top-left, world px."""
        return Vector2(self.x, self.y)

    @property
    def size(self) -> Vector2:
        """(w, h) px."""
        return Vector2(self.width, self.height)


#: ``factory(world, obj)`` creates the entity for a map object and returns
#: its id (or None if it made nothing).
ObjectFactory = Callable[[World, MapObject], "int | None"]


@dataclass(slots=True)
class TileMap:
    """A loaded map; ``load_map`` also inserts it as a world resource.

    - ``columns``, ``rows``: size in tiles; ``tile_size``: (w, h) px.
    - ``properties``: the map's custom properties (Map → Map Properties).
    - ``background``: the map's background colour, or None.
    - ``solid_tiles``: tiles that collide; ``colliders``: the entities made
      for them (fewer when merged); ``chunks``: the sprite entities drawing
      the tile layers.
    - ``objects``: every map object; ``entities``: the entities the
      factories made, by object kind.
    - ``tiled``: the ``pytmx.TiledMap``, for anything else in the file.
    """

    path: str
    columns: int
    rows: int
    tile_size: tuple[int, int]
    properties: dict[str, Any]
    background: tuple[int, int, int] | None
    tiled: Any
    solid_tiles: int = 0
    colliders: list[int] = field(default_factory=list)
    chunks: list[int] = field(default_factory=list)
    objects: list[MapObject] = field(default_factory=list)
    entities: dict[str, list[int]] = field(default_factory=dict)

    @property
    def size(self) -> Vector2:
        """(w, h) of the map in px."""
        return Vector2(self.columns * self.tile_size[0], self.rows * self.tile_size[1])

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(0, 0, w, h) px: the camera's bounds for this level."""
        return (0.0, 0.0, self.size.x, self.size.y)


def tile_collider(kind: str, size: tuple[float, float], value: object = True) -> Collider:
    """The STATIC Collider for colliding tiles: ``kind`` SOLID for a merged
    rectangle ``size`` (w, h) px, ONE_WAY or RAMP (``value`` a corner of
    RAMP_CORNERS) for a single tile. The one place that maps tile
    properties to collider features."""
    if kind == SOLID:
        return Collider(Vector2(size), type=ColliderType.STATIC)
    if kind == ONE_WAY:
        return Collider(Vector2(size), type=ColliderType.STATIC, sides=Side.TOP)
    if kind == RAMP:
        if value not in RAMP_CORNERS:
            raise ValueError(f"a ramp's corner must be one of {RAMP_CORNERS}, got {value!r}")
        return Collider(Vector2(size), type=ColliderType.STATIC, shape=Shape[f"TRIANGLE_{str(value).upper()}"])
    raise ValueError(f"kind must be {SOLID!r}, {ONE_WAY!r} or {RAMP!r}, got {kind!r}")


def load_map(world: World, path: str | os.PathLike[str], *,
             factories: Mapping[str, ObjectFactory] | None = None,
             collision_layers: Collection[str] = (), solid_property: str = SOLID,
             merge: bool = True, chunk_size: int = 16) -> TileMap:
    """Load the Tiled map at ``path`` into ``world`` and return its TileMap.

    Tile layers are drawn in the map's order behind the sprites (Sprite
    layers −n … −1 for n tile layers); a layer property ``draw_layer`` (int)
    puts it elsewhere, e.g. 10 for a foreground in front of everything.
    ``merge=False`` makes one collider per solid tile (to compare, or debug).
    Objects whose kind has no factory are listed in ``objects`` only.
    """
    if not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1 (tiles), got {chunk_size!r}")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no map file at {os.fspath(path)!r}")
    tiled = pytmx.TiledMap(os.fspath(path), image_loader=_image_loader)
    tile_map = TileMap(os.fspath(path), tiled.width, tiled.height, (tiled.tilewidth, tiled.tileheight),
                       dict(tiled.properties), _colour(tiled.background_color), tiled)
    _add_colliders(world, tile_map, set(collision_layers), solid_property, merge)
    _add_chunks(world, tile_map, chunk_size)
    _add_objects(world, tile_map, factories or {})
    world.insert_resource(tile_map)
    return tile_map


def _image_loader(filename: str, colorkey: str | None, **_: object) -> Callable[..., pygame.Surface]:
    """pytmx's image-loader hook: the tileset image loaded once, tiles cut out
    as subsurfaces (no copies), flipped as the map asks. Works with or
    without a window."""
    image = load_image(filename)
    if colorkey:
        image = image.convert() if pygame.display.get_surface() is not None else image.copy()
        image.set_colorkey(pygame.Color(f"#{colorkey.lstrip('#')}"))

    def load(rect: tuple[int, int, int, int] | None = None, flags: Any = None) -> pygame.Surface:
        tile = image.subsurface(rect) if rect else image
        if flags is not None and any(flags):
            tile = handle_transformation(tile, flags)
        return tile

    return load


def _colour(value: str | None) -> tuple[int, int, int] | None:
    """Tiled writes #rrggbb or #aarrggbb."""
    if not value:
        return None
    digits = value.lstrip("#")[-6:]
    return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))


def _tile_layers(tiled: Any) -> list[Any]:
    return [layer for layer in tiled.layers if isinstance(layer, pytmx.TiledTileLayer)]


def _collision_kind(properties: Mapping[str, Any] | None, solid_property: str,
                    whole_layer: bool) -> tuple[str, object] | None:
    """How a tile with these properties collides: (kind, value) or None."""
    properties = properties or {}
    if properties.get(RAMP):
        corner = properties[RAMP]
        if corner not in RAMP_CORNERS:
            raise ValueError(f"tile property {RAMP!r} must be one of {RAMP_CORNERS}, got {corner!r}")
        return (RAMP, corner)
    if properties.get(ONE_WAY):
        return (ONE_WAY, True)
    if whole_layer or properties.get(solid_property):
        return (SOLID, True)
    return None


def _add_colliders(world: World, tile_map: TileMap, collision_layers: set[str], solid_property: str,
                   merge: bool) -> None:
    """Mark the colliding tiles of every tile layer, merge the solid ones, make the entities."""
    tiled = tile_map.tiled
    solid = [[False] * tile_map.columns for _ in range(tile_map.rows)]
    single: list[tuple[int, int, str, object]] = []  # one-way and ramp tiles: never merged
    for layer in _tile_layers(tiled):
        whole = layer.name in collision_layers
        kinds: dict[int, tuple[str, object] | None] = {}
        for y, row in enumerate(layer.data):
            for x, gid in enumerate(row):
                if not gid:
                    continue
                if gid not in kinds:
                    kinds[gid] = _collision_kind(tiled.get_tile_properties_by_gid(gid), solid_property, whole)
                kind = kinds[gid]
                if kind is not None and kind[0] == SOLID:
                    solid[y][x] = True
                elif kind is not None:
                    single.append((x, y, kind[0], kind[1]))
    tile_map.solid_tiles = sum(map(sum, solid))
    w, h = tile_map.tile_size
    if merge:
        rects = merge_tiles(solid)
    else:
        rects = [(x, y, 1, 1) for y, row in enumerate(solid) for x, cell in enumerate(row) if cell]
    for x, y, columns, rows in rects:
        tile_map.colliders.append(world.create_entity(
            Transform(Vector2(x * w, y * h)), tile_collider(SOLID, (columns * w, rows * h))))
    for x, y, name, value in single:
        tile_map.colliders.append(world.create_entity(Transform(Vector2(x * w, y * h)),
                                                      tile_collider(name, (w, h), value)))


def _add_chunks(world: World, tile_map: TileMap, chunk_size: int) -> None:
    """One sprite per non-empty chunk of each visible tile layer."""
    tiled = tile_map.tiled
    layers = _tile_layers(tiled)
    w, h = tile_map.tile_size
    for index, layer in enumerate(layers):
        if not layer.visible:
            continue
        draw_layer = int(layer.properties.get("draw_layer", index - len(layers)))
        for cy in range(math.ceil(tile_map.rows / chunk_size)):
            for cx in range(math.ceil(tile_map.columns / chunk_size)):
                image = _render_chunk(tiled, layer, cx * chunk_size, cy * chunk_size, chunk_size, (w, h))
                if image is None:
                    continue
                if layer.opacity < 1:
                    image.set_alpha(round(layer.opacity * 255))
                position = Vector2(cx * chunk_size * w + layer.offsetx, cy * chunk_size * h + layer.offsety)
                tile_map.chunks.append(world.create_entity(Transform(position), Sprite(image=image,
                                                                                       layer=draw_layer)))


def _render_chunk(tiled: Any, layer: Any, left: int, top: int, chunk_size: int,
                  tile: tuple[int, int]) -> pygame.Surface | None:
    """The tiles of ``layer`` from column ``left``, row ``top`` drawn on one
    image (tiles taller than the grid sit on its bottom, as in Tiled, and
    are clipped to the chunk), or None if there are none."""
    w, h = tile
    rows = layer.data[top:top + chunk_size]
    image = None
    for y, row in enumerate(rows):
        for x, gid in enumerate(row[left:left + chunk_size]):
            picture = tiled.images[gid] if gid else None
            if picture is None:
                continue
            if image is None:
                width = min(chunk_size, len(row) - left) * w
                image = pygame.Surface((width, len(rows) * h), pygame.SRCALPHA)
            image.blit(picture, (x * w, y * h + h - picture.get_height()))
    return image


def _add_objects(world: World, tile_map: TileMap, factories: Mapping[str, ObjectFactory]) -> None:
    """A MapObject for every object, and an entity from its kind's factory."""
    for layer in tile_map.tiled.layers:
        if not isinstance(layer, pytmx.TiledObjectGroup):
            continue
        dx, dy = layer.offsetx, layer.offsety
        for obj in layer:
            kind = getattr(obj, "class", None) or obj.type or ""
            points = tuple(Vector2(p.x + dx, p.y + dy) for p in getattr(obj, "points", ()))
            item = MapObject(obj.id, obj.name or "", kind, obj.x + dx, obj.y + dy, obj.width, obj.height,
                             layer.name or "", dict(obj.properties), obj.image, points, obj.rotation)
            tile_map.objects.append(item)
            factory = factories.get(kind)
            if factory is not None:
                entity = factory(world, item)
                if entity is not None:
                    tile_map.entities.setdefault(kind, []).append(entity)

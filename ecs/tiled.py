"""Tiled maps: load a .tmx level (the Tiled editor's format) into a World with pytmx.

``load_map(world, path)`` turns a map into entities:

- every visible tile layer into one entity with a ``TileChunks`` component:
  the layer cut into chunks of ``chunk_size`` tiles square, each drawn on
  one image when it first comes into view and let go once far from it, so
  a frame blits a handful of images and a map of any size costs the memory
  of what is on screen;
- its animated tiles (Tiled's tile animations) into entities with a
  ``Sprite`` and an ``Animator``, played on the fixed step by the scene's
  AnimationSystem, all in step as in Tiled: the chunks are pictures made
  once, so animated tiles are left out of them. Like tiles side by side
  share one entity (a block of up to ``chunk_size`` tiles a side, its
  frames the tile's repeated), so a lake costs a few entities, not one
  per tile. Flipped or turned tiles show their frames flipped alike;
- every visible image layer into an entity with a ``Sprite`` of its image
  at the layer's offset (a repeated one, Tiled's ``repeatx``/``repeaty``,
  into ``TileChunks`` of the image across the map);
- the solid tiles into STATIC colliders merged into as few rectangles as the
  map allows (``merge_tiles``: the exact minimum partition), so a 200×50 level costs the collision
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
- ``category`` and ``mask`` (ints, as ``Collider``'s): the collision layers
  of the tile's collider; a tile without them takes its tile layer's
  ``category`` and ``mask`` properties, else 1 and ``ALL``.

A bool property may also be the string ``true`` or ``false`` (a property
left untyped in Tiled); anything else is refused.

Tiles mirrored or turned in Tiled (the flip bits of their gid) collide as
drawn: a ramp's corner and a one-way tile's stopping face are flipped with
the image. Tiled flips the diagonal first (swapping x and y), then
horizontally, then vertically (the TMX format's "Tile Flipping").

One-way platforms and ramps are never merged: each tile is its own collider,
made by ``tile_collider``: a one-way tile is a STATIC box stopping bodies on
one side (``Side.TOP`` unless flipped), a ramp a STATIC triangle
(``Shape.TRIANGLE_BOTTOM_LEFT`` for ``bottom_left``, and so on) filling the
tile. Solid tiles merge only with solid tiles of the same category and mask.

Tile and image layers are drawn in the file's order, with Tiled's layer
attributes: ``offsetx``/``offsety``, ``opacity``, ``visible``, and
``parallaxx``/``parallaxy`` (Tiled 1.5: the scroll factors of ``Sprite``'s
and ``TileChunks``'s ``parallax``, in [0, 100]). Groups apply theirs to
their layers: offsets add, opacities and parallax factors multiply, a hidden
group hides them (object layers take only their own offset). The renderer
shifts a layer by (1 − factor) · the camera's top-left, where Tiled's
editor uses the view's centre less the map's parallax origin: in the game
such a layer sits (1 − factor) · half a view up and left of where Tiled
previews it (less the origin), a constant to allow for when placing it.

Every error names the file and, where there is one, the layer, the tile or
the object; a load that fails (a malformed file, a bad property, a factory
that raises) deletes every entity it made, so the World is as it was.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from numbers import Integral
from typing import Any
from xml.etree import ElementTree

import pygame
import pytmx
from pytmx.pytmx import unpack_gids
from pytmx.util_pygame import handle_transformation
from pygame import Vector2

from components import ALL, Animation, Animator, Collider, ColliderType, Shape, Side, Sprite, Transform
from components.limits import MAX_PARALLAX
from components.sprite import TileChunks
from ecs.images import load_image
from ecs.world import World
from systems.game._tilemerge import merge_tiles

__all__ = [
    "CATEGORY", "MASK", "MapError", "MapObject", "ONE_WAY", "ObjectFactory", "RAMP", "RAMP_CORNERS", "SOLID", "TileMap",
    "load_map", "tile_collider",
]

_log = logging.getLogger("ecs_arcade")


class MapError(ValueError):
    """A malformed map, tileset, image or property; the message names the
    file and the layer, tile or object. (A factory's own exception is raised
    as it is, with a note naming the object.)"""


class _MissingFile(MapError, FileNotFoundError):
    """A file the map names that is not there: a MapError (naming the map and
    the layer) that is also a FileNotFoundError, as other missing files are."""


#: Tile property names understood by the loader (see the module docstring).
SOLID = "solid"
ONE_WAY = "one_way"
RAMP = "ramp"
CATEGORY = "category"
MASK = "mask"
RAMP_CORNERS = ("bottom_left", "bottom_right", "top_left", "top_right")

@dataclass(slots=True)
class MapObject:
    """One object of a Tiled object layer, in world px (y down, top-left origin).

    ``kind`` is the object's class (Tiled 1.9 and later; ``type`` before);
    ``properties`` its custom properties, typed as in Tiled; ``image`` the
    tile image of a tile object, else None; ``points`` the world px points of
    a polyline or polygon (a patrol path), else empty. ``layer`` names its
    object layer. Rotation is kept in ``rotation`` (degrees) but not applied.
    A point object (Tiled's Insert Point) has width and height 0: ``box``
    gives it a size of your choosing.
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

    @property
    def is_point(self) -> bool:
        """Whether the object is a point: no width, no height, no points."""
        return self.width == 0 and self.height == 0 and not self.points

    def box(self, default_size: tuple[float, float]) -> tuple[Vector2, Vector2]:
        """(top-left, size) world px of the object's box; a point object
        gets a box of ``default_size`` (w, h) px centred on its point."""
        if not self.is_point:
            return self.position, self.size
        size = Vector2(default_size)
        return self.position - size / 2, size

    def describe(self) -> str:
        """How errors name it: id, name, class and layer."""
        name = f" {self.name!r}" if self.name else ""
        return f"object {self.id}{name} (class {self.kind!r}) in layer {self.layer!r}"


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
      for them (fewer when merged).
    - ``layers``: the entities drawing the visible tile layers (a
      ``TileChunks`` each, in map order); ``chunks``: their non-empty chunks
      as (entity, column, row).
    - ``animated``: the entities showing the animated tiles of those layers
      (``Sprite`` and ``Animator`` each; a block of like tiles shares one).
    - ``image_layers``: the entities drawing the visible image layers (a
      ``Sprite`` each, or a ``TileChunks`` for a repeated image), in map order.
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
    layers: list[int] = field(default_factory=list)
    chunks: list[tuple[int, int, int]] = field(default_factory=list)
    animated: list[int] = field(default_factory=list)
    image_layers: list[int] = field(default_factory=list)
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


def tile_collider(kind: str, size: tuple[float, float], value: object = True, *,
                  category: int = 1, mask: int = ALL) -> Collider:
    """The STATIC Collider for colliding tiles: ``kind`` SOLID for a merged
    rectangle ``size`` (w, h) px, ONE_WAY (``value`` the ``Side`` that stops
    bodies; True is ``Side.TOP``) or RAMP (``value`` a corner of
    RAMP_CORNERS) for a single tile; on layers ``category``, meeting
    ``mask``. The one place that maps tile properties to collider features."""
    if kind == SOLID:
        return Collider(Vector2(size), type=ColliderType.STATIC, category=category, mask=mask)
    if kind == ONE_WAY:
        side = Side.TOP if value is True else value
        if not isinstance(side, Side) or side not in (Side.TOP, Side.BOTTOM, Side.LEFT, Side.RIGHT):
            raise ValueError(f"a one-way tile's value must be True or one Side, got {value!r}")
        return Collider(Vector2(size), type=ColliderType.STATIC, sides=side, category=category, mask=mask)
    if kind == RAMP:
        if value not in RAMP_CORNERS:
            raise ValueError(f"a ramp's corner must be one of {RAMP_CORNERS}, got {value!r}")
        return Collider(Vector2(size), type=ColliderType.STATIC, shape=Shape[f"TRIANGLE_{str(value).upper()}"],
                        category=category, mask=mask)
    raise ValueError(f"kind must be {SOLID!r}, {ONE_WAY!r} or {RAMP!r}, got {kind!r}")


def load_map(world: World, path: str | os.PathLike[str], *,
             factories: Mapping[str, ObjectFactory] | None = None,
             collision_layers: Collection[str] = (), solid_property: str = SOLID,
             merge: bool = True, chunk_size: int = 16) -> TileMap:
    """Load the Tiled map at ``path`` into ``world`` and return its TileMap.

    Tile and image layers are drawn in the map's order behind the sprites
    (layers −n … −1 for n of them, hidden ones counted); a layer property
    ``draw_layer`` (int) puts one elsewhere, e.g. 10 for a foreground in
    front of everything. A layer's animated tiles are drawn on its layer.
    ``merge=False`` makes one collider per solid tile (to compare, or debug).
    Objects whose kind has no factory are listed in ``objects`` only.

    Raises FileNotFoundError for a missing map, tileset (.tsx) or image (an
    image layer's is also a MapError naming the layer), and MapError (a
    ValueError) for anything malformed: not XML, not a map, an infinite map,
    a gid no tileset holds, bad tile data (naming the layer), a bad tile or
    layer property, a bad layer attribute (parallax, offset, opacity), an
    animation frame of no tile or of 0 ms. An exception a factory raises is raised as it is, with a
    note (``add_note``) naming the file and the object. Either way the World
    is left as it was.
    """
    if not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1 (tiles), got {chunk_size!r}")
    collision_layers = _layer_names(collision_layers)
    name = os.fspath(path)
    tiled, used, root = _parse(name)
    _check_named_layers(name, tiled, collision_layers)
    tile_map = TileMap(name, tiled.width, tiled.height, (tiled.tilewidth, tiled.tileheight),
                       dict(tiled.properties), _colour(tiled.background_color), tiled)
    solid, single = _collision_plan(tile_map, used, collision_layers, solid_property)
    drawn = _draw_plan(tile_map, root, used)
    first = _next_entity(world)
    try:
        _add_colliders(world, tile_map, solid, single, merge)
        _add_layers(world, tile_map, drawn, chunk_size)
        _add_objects(world, tile_map, factories or {})
    except BaseException:
        _delete_since(world, first)
        raise
    world.insert_resource(tile_map)
    return tile_map


def _layer_names(collision_layers: object) -> set[str]:
    """``load_map``'s ``collision_layers`` as a set of names (None: none); a single str is
    refused, since it would be read as its letters."""
    if collision_layers is None:
        return set()
    if isinstance(collision_layers, str) or not isinstance(collision_layers, Collection):
        raise ValueError(f"collision_layers must be a collection of tile layer names (a list, a tuple, a set), "
                         f"got {collision_layers!r}")
    if not all(isinstance(layer, str) for layer in collision_layers):
        raise ValueError(f"collision_layers must hold tile layer names (str), got {collision_layers!r}")
    return set(collision_layers)


def _check_named_layers(path: str, tiled: Any, names: set[str]) -> None:
    """Each layer ``collision_layers`` names must be a tile layer of the map (a misspelt name
    would make nothing solid, silently)."""
    layers = [layer.name for layer in _tile_layers(tiled)]
    missing = sorted(names.difference(layers))
    if missing:
        raise MapError(f"{path}: collision_layers names {', '.join(map(repr, missing))}, which the map has no tile "
                       f"layer of (its tile layers: {', '.join(map(repr, layers)) or 'none'})")


def _next_entity(world: World) -> int:
    """The id the world's next entity will have (esper counts up, never reusing ids)."""
    marker = world.create_entity()
    world.delete_entity(marker, immediate=True)
    return marker + 1


def _delete_since(world: World, first: int) -> None:
    """Delete every entity made since ``first`` was the next id."""
    last = _next_entity(world)
    for entity in range(first, last):
        if world.entity_exists(entity):
            world.delete_entity(entity, immediate=True)


# ----------------------------------------------------------------------------- reading the file


def _parse(path: str) -> tuple[Any, list[set[int]], ElementTree.Element]:
    """The pytmx map of the file at ``path``, the gids each of its tile
    layers uses (read once, here) and the file's XML root (for what pytmx
    leaves out: the layers' order among kinds, groups), or an error naming
    the file."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no map file at {path!r}")
    root = _xml_root(path, "map", "a Tiled map (.tmx)")
    if root.get("infinite", "0") != "0":
        raise MapError(f"{path}: infinite maps are not supported: their tiles are stored in chunks "
                         f"around an unbounded plane; in Tiled, untick Map → Map Properties → Infinite "
                         f"to give the map a fixed size")
    if root.get("orientation", "orthogonal") != "orthogonal":
        raise MapError(f"{path}: only orthogonal maps are supported, this one is {root.get('orientation')!r}")
    for tileset in root.iter("tileset"):
        source = tileset.get("source")
        if source:
            tsx = os.path.join(os.path.dirname(path), source)
            if not os.path.isfile(tsx):
                raise FileNotFoundError(f"{path}: no tileset file {source!r} (looked for {tsx!r})")
            _xml_root(tsx, "tileset", f"a Tiled tileset (.tsx) used by {path}")
    for node in root.iter("imagelayer"):
        _check_image_layer(path, node)
    tiled = pytmx.TiledMap(image_loader=_image_loader(path))
    tiled.filename = path
    try:
        tiled.parse_xml(root)
    except (FileNotFoundError, MapError):
        raise
    except Exception as error:  # pytmx raises bare Exceptions, ValueErrors and zlib errors alike
        raise MapError(f"{path}: {_failing_layer(root) or ''}{type(error).__name__}: {error}") from error
    if tiled.width < 1 or tiled.height < 1 or tiled.tilewidth < 1 or tiled.tileheight < 1:
        raise MapError(f"{path}: the map must be at least 1×1 tiles of at least 1×1 px, "
                         f"got {tiled.width}×{tiled.height} tiles of {tiled.tilewidth}×{tiled.tileheight} px")
    return tiled, [_check_layer(path, tiled, layer) for layer in _tile_layers(tiled)], root


def _check_image_layer(path: str, node: ElementTree.Element) -> None:
    """An image layer's image file must exist (MapError naming the layer and
    the file if not). Tiled leaves out <image> until an image is chosen;
    pytmx needs one, so an empty one is added: such a layer draws nothing."""
    image = node.find("image")
    if image is None:
        image = ElementTree.SubElement(node, "image", source="")
    source = image.get("source")
    if source:
        full = os.path.join(os.path.dirname(path), source)
        if not os.path.isfile(full):
            raise _MissingFile(f"{path}: image layer {node.get('name', '')!r}: no image file {source!r} "
                               f"(looked for {full!r})")


def _failing_layer(root: ElementTree.Element) -> str | None:
    """``layer 'name': `` for the first tile layer whose data pytmx cannot
    decode (bad base64 or zlib, a word in CSV), found by decoding each
    layer's <data> again, else None (the fault is elsewhere)."""
    for node in root.iter("layer"):
        data = node.find("data")
        where = f"layer {node.get('name', '')!r}: "
        if data is None:
            return where + "no <data>: "
        try:
            for _ in unpack_gids(text=(data.text or "").strip(), encoding=data.get("encoding"),
                                 compression=data.get("compression")):
                pass
        except Exception:  # whatever pytmx's decoding raises, as in _parse
            compression = f", {data.get('compression')}" if data.get("compression") else ""
            return where + f"its tile data ({data.get('encoding') or 'xml'}{compression}) cannot be read: "
    return None


def _xml_root(path: str, tag: str, what: str) -> ElementTree.Element:
    """The root element of the XML file at ``path``, which must be ``<tag>``."""
    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as error:
        raise MapError(f"{path}: not a well-formed XML file ({error}); is it truncated?") from error
    if root.tag != tag:
        raise MapError(f"{path}: not {what}: its root element is <{root.tag}>, not <{tag}>")
    return root


def _image_loader(map_path: str) -> Callable[..., Callable[..., pygame.Surface]]:
    """pytmx's image-loader hook: each tileset image loaded once, tiles cut
    out as subsurfaces (no copies), flipped as the map asks; errors name the
    image and the map. Works with or without a window."""

    def open_image(filename: str, colorkey: str | None, **_: object) -> Callable[..., pygame.Surface]:
        try:
            image = load_image(filename)
        except FileNotFoundError as error:
            raise FileNotFoundError(f"{map_path}: no image file {filename!r}") from error
        except (pygame.error, ValueError) as error:
            raise MapError(f"{map_path}: cannot read the image {filename!r}: {error}") from error
        if colorkey:
            image = image.convert() if pygame.display.get_surface() is not None else image.copy()
            image.set_colorkey(pygame.Color(f"#{colorkey.lstrip('#')}"))

        def load(rect: tuple[int, int, int, int] | None = None, flags: Any = None) -> pygame.Surface:
            if rect and not image.get_rect().contains(rect):
                raise MapError(f"{map_path}: the image {filename!r} ({image.get_width()}×{image.get_height()} px) "
                             f"has no tile at {rect}: the tileset's size does not match its image")
            tile = image.subsurface(rect) if rect else image
            if flags is not None and any(flags):
                tile = handle_transformation(tile, flags)
            return tile

        return load

    return open_image


def _colour(value: str | None) -> tuple[int, int, int] | None:
    """Tiled writes #rrggbb or #aarrggbb."""
    if not value:
        return None
    digits = value.lstrip("#")[-6:]
    return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))


def _tile_layers(tiled: Any) -> list[Any]:
    return [layer for layer in tiled.layers if isinstance(layer, pytmx.TiledTileLayer)]


def _check_layer(path: str, tiled: Any, layer: Any) -> set[int]:
    """A layer's data must fill the map, and each gid be a tile of a tileset;
    returns the gids it uses."""
    where = f"{path}: layer {layer.name!r}"
    count = sum(len(row) for row in layer.data)
    if len(layer.data) != tiled.height or any(len(row) != tiled.width for row in layer.data):
        raise MapError(f"{where} has {count} tiles, the map {tiled.width}×{tiled.height} = "
                         f"{tiled.width * tiled.height}")
    used = set(chain.from_iterable(layer.data))
    unknown = sorted(gid for gid in used if gid and (gid >= len(tiled.images) or tiled.images[gid] is None))
    if unknown:
        gid = unknown[0]
        y = next(y for y, row in enumerate(layer.data) if gid in row)
        x = layer.data[y].index(gid)
        ranges = ", ".join(f"{ts.firstgid}–{ts.firstgid + ts.tilecount - 1} ({ts.name!r})" for ts in tiled.tilesets)
        raise MapError(f"{where}: tile ({x}, {y}) has gid {tiled.tiledgidmap.get(gid, gid)}, which no "
                         f"tileset holds (tilesets: {ranges or 'none'})")
    return used


# ----------------------------------------------------------------------------- which tiles collide


#: How a tile collides: (kind, value, category, mask), value a ramp corner or a one-way Side.
Kind = tuple[str, object, int, int]


def _flip(vector: tuple[int, int], flags: Any) -> tuple[int, int]:
    """A direction from the tile's centre (a corner (±1, ±1) or a face's
    outward normal) as the tile's flip bits turn it: diagonal first (x and y
    swap), then horizontal (x negated), then vertical (y negated)."""
    x, y = vector
    if flags and flags.flipped_diagonally:
        x, y = y, x
    if flags and flags.flipped_horizontally:
        x = -x
    if flags and flags.flipped_vertically:
        y = -y
    return (x, y)


_FACES = {Side.TOP: (0, -1), Side.BOTTOM: (0, 1), Side.LEFT: (-1, 0), Side.RIGHT: (1, 0)}


def _flipped_corner(corner: str, flags: Any) -> str:
    vertical, horizontal = corner.split("_")
    x, y = _flip((1 if horizontal == "right" else -1, 1 if vertical == "bottom" else -1), flags)
    return f"{'bottom' if y > 0 else 'top'}_{'right' if x > 0 else 'left'}"


def _flipped_side(flags: Any) -> Side:
    normal = _flip(_FACES[Side.TOP], flags)
    return next(side for side, face in _FACES.items() if face == normal)


def _flag(where: str, name: str, value: object) -> bool:
    """A bool property: a bool, or the string true or false (an untyped property)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise MapError(f"{where}: property {name!r} must be a bool (true or false), got {value!r}")


def _layer_bits(where: str, name: str, value: object, least: int) -> int:
    """A category or mask property: an int of 32 layer bits in [least, ALL],
    or a decimal string of one (an untyped property, as for bools)."""
    number = value
    if isinstance(value, str) and value.strip().isdecimal():
        number = int(value.strip())
    if isinstance(number, bool) or not isinstance(number, int) or not least <= number <= ALL:
        raise MapError(f"{where}: property {name!r} must be an int in [{least}, {ALL}] (32 layer bits; "
                         f"type int in Tiled, or decimal digits), got {value!r}")
    return number


def _filter(where: str, properties: Mapping[str, Any], default: tuple[int, int]) -> tuple[int, int]:
    """(category, mask) from ``properties``, each else its ``default``."""
    category = properties.get(CATEGORY)
    mask = properties.get(MASK)
    return (default[0] if category is None else _layer_bits(where, CATEGORY, category, 1),
            default[1] if mask is None else _layer_bits(where, MASK, mask, 0))


def _tile_name(tiled: Any, gid: int) -> str:
    """How errors name a tile: its id in its tileset, and its gid."""
    tiled_gid = tiled.tiledgidmap.get(gid, gid)
    tileset = max((ts for ts in tiled.tilesets if ts.firstgid <= tiled_gid), key=lambda ts: ts.firstgid,
                  default=None)
    if tileset is None:
        return f"gid {tiled_gid}"
    return f"tile {tiled_gid - tileset.firstgid} of tileset {tileset.name!r} (gid {tiled_gid})"


def _collision_kind(where: str, properties: Mapping[str, Any] | None, flags: Any, solid_property: str,
                    whole_layer: bool, layer_filter: tuple[int, int]) -> Kind | None:
    """How a tile with these properties and flip bits collides, or None."""
    properties = properties or {}
    category, mask = _filter(where, properties, layer_filter)
    corner = properties.get(RAMP)
    if corner:
        if corner not in RAMP_CORNERS:
            raise MapError(f"{where}: property {RAMP!r} must be one of {RAMP_CORNERS}, got {corner!r}")
        return (RAMP, _flipped_corner(corner, flags), category, mask)
    if ONE_WAY in properties and _flag(where, ONE_WAY, properties[ONE_WAY]):
        return (ONE_WAY, _flipped_side(flags), category, mask)
    solid = solid_property in properties and _flag(where, solid_property, properties[solid_property])
    if whole_layer or solid:
        return (SOLID, True, category, mask)
    return None


def _gid_flags(tiled: Any) -> dict[int, Any]:
    """pytmx's gid -> the flip bits of the Tiled gid it stands for."""
    return {entry[0]: entry[1] for entry in tiled.imagemap.values() if isinstance(entry, tuple)}


def _layer_kinds(tile_map: TileMap, layer: Any, used: set[int], whole: bool, solid_property: str,
                 flags: Mapping[int, Any]) -> dict[int, Kind]:
    """How each gid ``used`` in ``layer`` collides (gids that don't are left out)."""
    tiled = tile_map.tiled
    where = f"{tile_map.path}: layer {layer.name!r}"
    layer_filter = _filter(where, layer.properties, (1, ALL))
    kinds = {}
    for gid in used - {0}:
        kind = _collision_kind(f"{where}, {_tile_name(tiled, gid)}", tiled.get_tile_properties_by_gid(gid),
                               flags.get(gid), solid_property, whole, layer_filter)
        if kind is not None:
            kinds[gid] = kind
    return kinds


#: A tile that is its own collider: (column, row, kind).
Single = tuple[int, int, Kind]


def _collision_plan(tile_map: TileMap, used: list[set[int]], collision_layers: set[str],
                    solid_property: str) -> tuple[tuple[list[bytes], list[tuple[int, int]]], list[Single]]:
    """The solid tiles as rows of labels (0 none; an upper layer's tile wins
    a cell) with each label's (category, mask), and the one-way and ramp
    tiles. Reads the whole map, changes nothing: errors come before any entity."""
    tiled = tile_map.tiled
    flags = _gid_flags(tiled)
    groups: dict[tuple[int, int], int] = {}
    rows: list[bytes] = []
    single: list[Single] = []
    for layer, gids in zip(_tile_layers(tiled), used):
        kinds = _layer_kinds(tile_map, layer, gids, layer.name in collision_layers, solid_property, flags)
        table = bytearray(len(tiled.images) + 1)  # gid -> label of its (category, mask), 0 not solid
        for gid, kind in kinds.items():
            if kind[0] == SOLID:
                table[gid] = _label(tile_map.path, groups, (kind[2], kind[3]))
        if any(table):
            labels = [bytes(map(table.__getitem__, row)) for row in layer.data]
            rows = labels if not rows else [_over(below, above) for below, above in zip(rows, labels)]
        others = {gid: kind for gid, kind in kinds.items() if kind[0] != SOLID}
        if others:
            single.extend((x, y, others[gid]) for y, row in enumerate(layer.data)
                          for x, gid in enumerate(row) if gid in others)
    order = sorted(groups, key=groups.__getitem__)
    return (rows, order), single


def _label(path: str, groups: dict[tuple[int, int], int], pair: tuple[int, int]) -> int:
    """The merge label (1..255) of a (category, mask) pair, a new one if unseen."""
    if pair not in groups:
        if len(groups) == 255:
            raise MapError(f"{path}: solid tiles use more than 255 different (category, mask) pairs")
        groups[pair] = len(groups) + 1
    return groups[pair]


def _over(below: bytes, above: bytes) -> bytes:
    """Two rows of labels, ``above`` winning where it has one."""
    return bytes(a or b for b, a in zip(below, above))


def _add_colliders(world: World, tile_map: TileMap, solid: tuple[list[bytes], list[tuple[int, int]]],
                   single: list[Single], merge: bool) -> None:
    """Merge the solid tiles, make the entities of every colliding tile."""
    rows, groups = solid
    tile_map.solid_tiles = sum(len(row) - row.count(0) for row in rows)
    w, h = tile_map.tile_size
    if merge:
        rects = merge_tiles(rows)
    else:
        rects = [(x, y, 1, 1) for y, row in enumerate(rows) for x, cell in enumerate(row) if cell]
    for x, y, columns, height in rects:
        category, mask = groups[rows[y][x] - 1]
        tile_map.colliders.append(world.create_entity(
            Transform(Vector2(x * w, y * h)),
            tile_collider(SOLID, (columns * w, height * h), category=category, mask=mask)))
    for x, y, (name, value, category, mask) in single:
        tile_map.colliders.append(world.create_entity(
            Transform(Vector2(x * w, y * h)), tile_collider(name, (w, h), value, category=category, mask=mask)))


# ----------------------------------------------------------------------------- the layers as Tiled draws them


@dataclass(frozen=True, slots=True)
class _Placement:
    """How a layer is drawn once the groups holding it are applied:
    ``offset`` (x, y) px, its own plus its groups'; ``parallax`` (x, y)
    scroll factors in [0, 100], its own times its groups'; ``visible``
    unless it or a group is hidden; ``opacity`` in [0, 1], its own times its
    groups'."""

    offset: tuple[float, float] = (0.0, 0.0)
    parallax: tuple[float, float] = (1.0, 1.0)
    visible: bool = True
    opacity: float = 1.0


#: The XML elements of the layers that are drawn or hold layers, and how errors name them.
_LAYER_KINDS = {"layer": "layer", "imagelayer": "image layer", "group": "group"}


def _layer_nodes(path: str, root: ElementTree.Element) -> list[tuple[ElementTree.Element, _Placement]]:
    """The tile and image layers in the order Tiled draws them (the file's,
    groups opened where they stand), each with its _Placement. Read from the
    XML: pytmx lists layers kind by kind and keeps no group's children."""
    out: list[tuple[ElementTree.Element, _Placement]] = []

    def walk(parent: ElementTree.Element, outer: _Placement) -> None:
        for node in parent:
            if node.tag in _LAYER_KINDS:
                placement = _place(path, node, outer)
                if node.tag == "group":
                    walk(node, placement)
                else:
                    out.append((node, placement))

    walk(root, _Placement())
    return out


def _place(path: str, node: ElementTree.Element, outer: _Placement) -> _Placement:
    """The _Placement of layer or group ``node`` inside groups placed ``outer``."""
    where = f"{path}: {_LAYER_KINDS[node.tag]} {node.get('name', '')!r}"
    dx, dy = (_number(where, name, node.get(name, "0")) for name in ("offsetx", "offsety"))
    fx, fy = (_number(where, name, node.get(name, "1"), (0.0, MAX_PARALLAX)) for name in ("parallaxx", "parallaxy"))
    parallax = (outer.parallax[0] * fx, outer.parallax[1] * fy)
    if max(parallax) > MAX_PARALLAX:
        raise MapError(f"{where}: its parallax factors times its groups' come to ({parallax[0]:g}, {parallax[1]:g}), "
                       f"over {MAX_PARALLAX:g}")
    opacity = _number(where, "opacity", node.get("opacity", "1"), (0.0, 1.0))
    return _Placement((outer.offset[0] + dx, outer.offset[1] + dy), parallax,
                      outer.visible and node.get("visible", "1") != "0", outer.opacity * opacity)


def _number(where: str, name: str, text: str, bounds: tuple[float, float] | None = None) -> float:
    """Attribute ``name``'s number: finite, and within ``bounds`` (low, high) if given."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    low, high = bounds or (-math.inf, math.inf)
    if not (math.isfinite(value) and low <= value <= high):  # NaN fails every comparison
        wanted = f"a number in [{low:g}, {high:g}]" if bounds else "a finite number"
        raise MapError(f"{where}: attribute {name!r} must be {wanted}, got {text!r}")
    return value


@dataclass(frozen=True, slots=True)
class _Drawn:
    """A visible layer to draw: ``layer`` pytmx's (TiledTileLayer or
    TiledImageLayer), ``node`` its XML element, ``draw_layer`` the Sprite
    layer it is drawn on, ``placement`` its _Placement, and (tile layers)
    ``clips``: the Animation of each animated tile it holds, by gid."""

    layer: Any
    node: ElementTree.Element
    draw_layer: int
    placement: _Placement
    clips: Mapping[int, Animation]


def _draw_plan(tile_map: TileMap, root: ElementTree.Element, used: list[set[int]]) -> list[_Drawn]:
    """The visible tile and image layers in drawing order. Layer i of n
    (hidden ones counted) is drawn on Sprite layer i − n unless its property
    ``draw_layer`` says otherwise. Reads everything, changes nothing: errors
    come before any entity. ``used``: the gids of each tile layer."""
    tiled = tile_map.tiled
    nodes = _layer_nodes(tile_map.path, root)
    # pytmx's layers of each kind are in the file's order too: pair them up.
    tile_nodes = [node for node, _ in nodes if node.tag == "layer"]
    image_nodes = [node for node, _ in nodes if node.tag == "imagelayer"]
    images = [layer for layer in tiled.layers if isinstance(layer, pytmx.TiledImageLayer)]
    layer_of = {id(node): (layer, gids) for node, layer, gids in
                zip(tile_nodes, _tile_layers(tiled), used, strict=True)}
    layer_of.update({id(node): (layer, set()) for node, layer in zip(image_nodes, images, strict=True)})
    flags = _gid_flags(tiled)
    out = []
    for index, (node, placement) in enumerate(nodes):
        layer, gids = layer_of[id(node)]
        draw_layer = _draw_layer(tile_map.path, node, layer, index - len(nodes))
        if placement.visible:
            clips = _clips(tile_map, layer, gids, flags) if gids else {}
            out.append(_Drawn(layer, node, draw_layer, placement, clips))
    return out


def _draw_layer(path: str, node: ElementTree.Element, layer: Any, default: int) -> int:
    """The Sprite layer a layer is drawn on: its property ``draw_layer``, else ``default``."""
    draw_layer = layer.properties.get("draw_layer", default)
    if isinstance(draw_layer, bool) or not isinstance(draw_layer, int):
        raise MapError(f"{path}: {_LAYER_KINDS[node.tag]} {layer.name!r}: property 'draw_layer' must be an int "
                       f"(type int in Tiled), got {draw_layer!r}")
    return draw_layer


def _add_layers(world: World, tile_map: TileMap, drawn: list[_Drawn], chunk_size: int) -> None:
    """The entities drawing each visible layer, in drawing order."""
    for item in drawn:
        if item.node.tag == "layer":
            _add_tile_layer(world, tile_map, item, chunk_size)
        else:
            _add_image_layer(world, tile_map, item)


# ----------------------------------------------------------------------------- tile layers


def _add_tile_layer(world: World, tile_map: TileMap, drawn: _Drawn, chunk_size: int) -> None:
    """One entity for the layer's still tiles, its chunks drawn when first in
    view, and the entities of its animated tiles (``_add_animated``)."""
    w, h = tile_map.tile_size
    layer, placement = drawn.layer, drawn.placement
    animated = frozenset(drawn.clips)
    chunks = _occupied(layer.data, chunk_size, animated)
    painter = _ChunkPainter(layer.data, tile_map.tiled.images, (w, h), tile_map.columns, chunk_size,
                            placement.opacity, animated)
    entity = world.create_entity(
        Transform(Vector2(placement.offset)),
        TileChunks((chunk_size * w, chunk_size * h), chunks, painter, layer=drawn.draw_layer,
                   parallax=Vector2(placement.parallax)))
    tile_map.layers.append(entity)
    tile_map.chunks.extend((entity, column, row) for column, row in sorted(chunks, key=lambda c: (c[1], c[0])))
    if animated:
        _add_animated(world, tile_map, drawn, chunk_size)


def _occupied(data: list[list[int]], chunk_size: int, animated: Collection[int]) -> frozenset[tuple[int, int]]:
    """The (column, row) of the chunks holding at least one still tile
    (animated tiles are entities of their own, not painted)."""
    chunks: set[tuple[int, int]] = set()
    for y, row in enumerate(data):
        for column, left in enumerate(range(0, len(row), chunk_size)):
            part = row[left:left + chunk_size]
            still = any(gid and gid not in animated for gid in part) if animated else any(part)
            if still:
                chunks.add((column, y // chunk_size))
    return frozenset(chunks)


@dataclass(frozen=True)
class _ChunkPainter:
    """``painter(column, row)``: the tiles of chunk (column, row) of a tile
    layer drawn on one image (tiles taller than the grid sit on its bottom,
    as in Tiled, and are clipped to the chunk) at the layer's opacity. A
    class holding the layer's data, not a closure over the map, so that a
    World's snapshot can keep it (``World.snapshot``).

    ``gids``: the layer's tile ids, a list per row (the layer's own lists:
    the parse read every row once already); ``images``: each tile id's
    image (None for none); ``tile``: (w, h) px of a tile; ``width``: the
    map's width in tiles; ``chunk_size``: tiles per chunk side;
    ``opacity``: 0 to 1; ``animated``: the gids left out (drawn by entities
    of their own)."""

    gids: list[list[int]]
    images: list[pygame.Surface | None]
    tile: tuple[int, int]
    width: int
    chunk_size: int
    opacity: float
    animated: frozenset[int] = frozenset()

    def __call__(self, column: int, row: int) -> pygame.Surface:
        (w, h), size = self.tile, self.chunk_size
        left, top = column * size, row * size
        rows = self.gids[top:top + size]
        image = pygame.Surface((min(size, self.width - left) * w, len(rows) * h), pygame.SRCALPHA)
        for y, gids in enumerate(rows):
            for x, gid in enumerate(gids[left:left + size]):
                picture = self.images[gid] if gid and gid not in self.animated else None
                if picture is not None:
                    image.blit(picture, (x * w, y * h + h - picture.get_height()))
        if self.opacity < 1:
            image.set_alpha(round(self.opacity * 255))
        return image


# ----------------------------------------------------------------------------- animated tiles


def _clips(tile_map: TileMap, layer: Any, gids: set[int], flags: Mapping[int, Any]) -> dict[int, Animation]:
    """The Animation of each animated tile among ``gids`` (Tiled's tile
    animation, which pytmx puts in the tile's properties as ``frames``)."""
    tiled = tile_map.tiled
    out = {}
    for gid in sorted(gids - {0}):
        frames = (tiled.get_tile_properties_by_gid(gid) or {}).get("frames")
        if frames:
            where = f"{tile_map.path}: layer {layer.name!r}, {_tile_name(tiled, gid)}"
            out[gid] = _clip(where, tiled, frames, flags.get(gid))
    return out


def _clip(where: str, tiled: Any, frames: list[Any], flags: Any) -> Animation:
    """A tile's animation: ``frames`` pytmx's AnimationFrame(gid, duration
    ms), each frame's image turned by the placed tile's flip bits as the
    chunks' tiles are (``handle_transformation``), durations in s."""
    images = []
    for index, frame in enumerate(frames):
        image = tiled.images[frame.gid] if 0 < frame.gid < len(tiled.images) else None
        if image is None:
            raise MapError(f"{where}: frame {index} of its animation shows {_tile_name(tiled, frame.gid)}, "
                           f"which its tileset's image does not hold")
        images.append(handle_transformation(image, flags) if flags is not None and any(flags) else image)
    try:
        return Animation(images, tuple(frame.duration / 1000 for frame in frames))
    except ValueError as error:
        raise MapError(f"{where}: its animation's frame durations must be > 0 ms, got "
                       f"{[frame.duration for frame in frames]} ({error})") from error


def _add_animated(world: World, tile_map: TileMap, drawn: _Drawn, chunk_size: int) -> None:
    """An entity with Transform, Sprite and Animator (played by the scene's
    AnimationSystem on the fixed step, all in step, as in Tiled) for each
    block of like animated tiles: a 40×20 lake is 6 entities, not 800
    (``chunk_size`` 16)."""
    (w, h), placement, clips = tile_map.tile_size, drawn.placement, drawn.clips
    cells = {(x, y): gid for y, row in enumerate(drawn.layer.data) for x, gid in enumerate(row) if gid in clips}
    grid_sized = {gid for gid, clip in clips.items() if all(f.get_size() == (w, h) for f in clip.frames)}
    made: dict[tuple[int, int, int], Animation] = {}
    for x, y, columns, rows, gid in _blocks(cells, grid_sized, chunk_size):
        key = (gid, columns, rows)
        if key not in made:
            made[key] = _tiled_clip(clips[gid], columns, rows)
        clip = made[key]
        first = clip.frames[0]
        # Bottom-left on the block's cells, as the chunk painter puts a tall tile.
        position = Vector2(placement.offset) + (x * w, (y + rows) * h - first.get_height())
        tile_map.animated.append(world.create_entity(
            Transform(position),
            Sprite(image=first, layer=drawn.draw_layer, parallax=Vector2(placement.parallax),
                   alpha=placement.opacity),
            Animator({"tile": clip})))


#: A block of like animated tiles: (column, row, columns, rows, gid).
_Block = tuple[int, int, int, int, int]


def _blocks(cells: Mapping[tuple[int, int], int], mergeable: Collection[int], limit: int) -> list[_Block]:
    """Cover ``cells`` ((column, row) -> gid) with rectangles of one gid,
    at most ``limit`` tiles a side (so a block's frames cost at most a
    chunk's px each): greedily, a run along the row, then down while the
    rows below repeat it. Gids not in ``mergeable`` (tiles not of the
    grid's size) are blocks of one."""
    taken: set[tuple[int, int]] = set()
    out = []
    for (x, y), gid in sorted(cells.items(), key=lambda item: (item[0][1], item[0][0])):
        if (x, y) in taken:
            continue
        columns = rows = 1
        if gid in mergeable:
            while columns < limit and cells.get((x + columns, y)) == gid and (x + columns, y) not in taken:
                columns += 1
            while rows < limit and all(cells.get((x + i, y + rows)) == gid and (x + i, y + rows) not in taken
                                       for i in range(columns)):
                rows += 1
        taken.update((x + i, y + j) for i in range(columns) for j in range(rows))
        out.append((x, y, columns, rows, gid))
    return out


def _tiled_clip(clip: Animation, columns: int, rows: int) -> Animation:
    """``clip`` with each frame repeated ``columns`` × ``rows`` times (itself for 1 × 1)."""
    if columns == rows == 1:
        return clip
    frames = []
    for frame in clip.frames:
        w, h = frame.get_size()
        picture = pygame.Surface((columns * w, rows * h), pygame.SRCALPHA)
        picture.blits([(frame, (x * w, y * h)) for y in range(rows) for x in range(columns)], doreturn=False)
        frames.append(picture)
    return Animation(frames, clip.durations)


# ----------------------------------------------------------------------------- image layers


def _add_image_layer(world: World, tile_map: TileMap, drawn: _Drawn) -> None:
    """An entity drawing the layer's image at its offset: a Sprite, or
    TileChunks when the image repeats (Tiled's ``repeatx``/``repeaty``).
    A layer with no image chosen draws nothing."""
    image = drawn.layer.image
    if image is None or 0 in image.get_size():
        return
    placement = drawn.placement
    repeat = (drawn.node.get("repeatx", "0") == "1", drawn.node.get("repeaty", "0") == "1")
    if any(repeat):
        entity = world.create_entity(*_repeated(tile_map, image, drawn, repeat))
    else:
        entity = world.create_entity(
            Transform(Vector2(placement.offset)),
            Sprite(image=image, layer=drawn.draw_layer, parallax=Vector2(placement.parallax),
                   alpha=placement.opacity))
    tile_map.image_layers.append(entity)


def _repeated(tile_map: TileMap, image: pygame.Surface, drawn: _Drawn,
              repeat: tuple[bool, bool]) -> tuple[Transform, TileChunks]:
    """A repeated image as chunks of one image each (made when in view, like
    a tile layer's). Along a repeated axis the copies run from at or before
    the map's edge to past its far edge as the layer's parallax shows it
    (max(1, factor) · the map's size, and one image more), so a camera kept
    within the map's bounds never sees their end."""
    placement, size = drawn.placement, image.get_size()
    origin, counts = [], []
    for axis in (0, 1):
        start = placement.offset[axis]
        count = 1
        if repeat[axis]:
            start = start % size[axis] - size[axis]  # in (−size, 0]: the first copy starts at or before the edge
            reach = max(1.0, placement.parallax[axis]) * tile_map.size[axis] + size[axis]
            count = math.ceil((reach - start) / size[axis])
        origin.append(start)
        counts.append(count)
    if placement.opacity < 1:
        image = image.copy()
        image.set_alpha(round(placement.opacity * 255))
    chunks = frozenset((column, row) for column in range(counts[0]) for row in range(counts[1]))
    return (Transform(Vector2(origin)),
            TileChunks(size, chunks, _Repeat(image), layer=drawn.draw_layer, parallax=Vector2(placement.parallax)))


@dataclass(frozen=True)
class _Repeat:
    """``painter(column, row)``: the same image for every chunk (a repeated
    image layer); a class, not a closure, so a World's snapshot keeps it."""

    image: pygame.Surface

    def __call__(self, column: int, row: int) -> pygame.Surface:
        return self.image


# ----------------------------------------------------------------------------- objects


def _map_objects(tile_map: TileMap) -> Iterator[MapObject]:
    """Every object of every object layer, in world px."""
    for layer in tile_map.tiled.layers:
        if not isinstance(layer, pytmx.TiledObjectGroup):
            continue
        dx, dy = layer.offsetx, layer.offsety
        for obj in layer:
            kind = getattr(obj, "class", None) or obj.type or ""
            points = tuple(Vector2(p.x + dx, p.y + dy) for p in getattr(obj, "points", ()))
            yield MapObject(obj.id, obj.name or "", kind, obj.x + dx, obj.y + dy, obj.width, obj.height,
                            layer.name or "", dict(obj.properties), obj.image, points, obj.rotation)


def _add_objects(world: World, tile_map: TileMap, factories: Mapping[str, ObjectFactory]) -> None:
    """A MapObject for every object, and an entity from its kind's factory; a factory whose
    kind no object has is named in the log (a misspelt class makes nothing, silently)."""
    kinds = set()
    for item in _map_objects(tile_map):
        kinds.add(item.kind)
        tile_map.objects.append(item)
        factory = factories.get(item.kind)
        if factory is None:
            continue
        try:
            entity = factory(world, item)
        except Exception as error:
            # The game's own error, as it is (a NameError stays a NameError),
            # with a note saying which object of which file it was making.
            error.add_note(f"{tile_map.path}: {item.describe()} at ({item.x:g}, {item.y:g})"
                           f"{', a point' if item.is_point else ''}: raised by its factory "
                           f"{getattr(factory, '__name__', factory)!s}")
            raise
        if entity is None:
            continue
        if not isinstance(entity, Integral) or isinstance(entity, bool):
            maker = getattr(factory, "__name__", factory)
            raise TypeError(f"{tile_map.path}: {item.describe()}: its factory {maker!s} returned {entity!r}; a "
                            f"factory returns an entity id (int) or None")
        tile_map.entities.setdefault(item.kind, []).append(int(entity))
    unused = sorted(set(factories).difference(kinds))
    if unused:
        _log.warning("%s: no object has the class %s that a factory was given for (the map's object classes: %s)",
                     tile_map.path, ", ".join(map(repr, unused)), ", ".join(map(repr, sorted(kinds))) or "none")

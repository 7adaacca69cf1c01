"""Tiled maps: hand-written .tmx files loaded into worlds."""

import re

import pygame
import pytest
from pygame import Vector2

from components import ALL, Collider, ColliderType, Physics, Shape, Side, Transform
from components.sprite import TileChunks
from ecs import Game, World
from ecs.tiled import MapError, TileMap, load_map

# The tileset: five 16×16 tiles in a row. gid 1 stone and gid 2 grass are
# solid; gid 3 a flower (a 4×4 dot on a transparent tile); gid 4 a plank
# (its top 4 px) marked one_way; gid 5 a ramp tile (its corner set per
# test), drawn as the stone triangle x <= y: the right angle bottom-left.
STONE, GRASS, FLOWER, PLANK = (120, 120, 130), (60, 170, 70), (240, 200, 40), (150, 100, 50)


def tileset_image(folder):
    image = pygame.Surface((80, 16), pygame.SRCALPHA)
    image.fill(STONE, (0, 0, 16, 16))
    image.fill(GRASS, (16, 0, 16, 16))
    image.fill(FLOWER, (32 + 6, 6, 4, 4))
    image.fill(PLANK, (48, 0, 16, 4))
    for y in range(16):
        image.fill(STONE, (64, y, y + 1, 1))
    pygame.image.save(image, str(folder / "tiles.png"))


def tmx(folder, layers, objects="", ramp="bottom_left", name="map.tmx"):
    """Write a map of the layers given as (name, rows of gids, visible)."""
    tileset_image(folder)
    width, height = len(layers[0][1][0]), len(layers[0][1])
    body = []
    for index, (layer, rows, visible) in enumerate(layers, start=1):
        csv = ",\n".join(",".join(str(gid) for gid in row) for row in rows)
        body.append(f'<layer id="{index}" name="{layer}" width="{width}" height="{height}"'
                    f'{"" if visible else " visible=" + chr(34) + "0" + chr(34)}>'
                    f'<data encoding="csv">\n{csv}\n</data></layer>')
    text = f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down"
     width="{width}" height="{height}" tilewidth="16" tileheight="16" infinite="0"
     backgroundcolor="#336699" nextlayerid="9" nextobjectid="9">
 <properties>
  <property name="title" value="Test"/>
  <property name="time_limit" type="int" value="90"/>
  <property name="night" type="bool" value="true"/>
 </properties>
 <tileset firstgid="1" name="tiles" tilewidth="16" tileheight="16" tilecount="5" columns="5">
  <image source="tiles.png" width="80" height="16"/>
  <tile id="0"><properties><property name="solid" type="bool" value="true"/></properties></tile>
  <tile id="1"><properties><property name="solid" type="bool" value="true"/></properties></tile>
  <tile id="3"><properties><property name="one_way" type="bool" value="true"/></properties></tile>
  <tile id="4"><properties><property name="ramp" value="{ramp}"/></properties></tile>
 </tileset>
 {"".join(body)}
 {objects}
</map>"""
    path = folder / name
    path.write_text(text)
    return path


_ = 0
GROUND = [
    [_, _, _, _, _, _, _, _, _, _],
    [_, _, _, _, _, _, _, _, _, _],
    [1, _, _, _, _, _, _, _, _, _],
    [1, _, _, _, _, _, _, _, _, 1],
    [1, _, _, _, _, _, _, _, _, 1],
    [2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
]
DECO = [[3 if (x, y) == (4, 4) else 0 for x in range(10)] for y in range(6)]
HIDDEN = [[3 if (x, y) in ((6, 1), (7, 1)) else 0 for x in range(10)] for y in range(6)]
OBJECTS = """
 <objectgroup id="4" name="things" offsetx="0" offsety="0">
  <object id="1" class="coin" x="40" y="60" width="8" height="8"/>
  <object id="2" type="coin" x="56" y="60" width="8" height="8"/>
  <object id="3" name="hero" class="player" x="20" y="40" width="12" height="16">
   <properties><property name="speed" type="float" value="120.5"/></properties>
  </object>
  <object id="4" class="sign" x="70" y="64" width="10" height="10"/>
  <object id="5" class="path" x="100" y="20"><polyline points="0,0 30,0 30,10"/></object>
 </objectgroup>"""


def boxes(world, entities):
    out = []
    for entity in entities:
        position = world.component_for_entity(entity, Transform).position
        collider = world.component_for_entity(entity, Collider)
        assert collider.type is ColliderType.STATIC
        out.append((position.x, position.y, collider.size.x, collider.size.y))
    return sorted(out)


def test_a_map_becomes_merged_colliders_chunk_sprites_and_objects(tmp_path):
    path = tmx(tmp_path, [("ground", GROUND, True), ("deco", DECO, True), ("collision", HIDDEN, False)], OBJECTS)
    world = World()

    def coin(world, obj):
        return world.create_entity(Transform(obj.position), Collider(obj.size, type=ColliderType.TRIGGER))

    def player(world, obj):
        return world.create_entity(Transform(obj.position), Collider(obj.size),
                                   Physics(velocity=(obj.properties["speed"], 0)))

    tile_map = load_map(world, path, factories={"coin": coin, "player": player}, chunk_size=4)
    assert world.resource(TileMap) is tile_map
    assert (tile_map.columns, tile_map.rows, tile_map.tile_size) == (10, 6, (16, 16))
    assert tile_map.bounds == (0, 0, 160, 96)
    assert tile_map.properties == {"title": "Test", "time_limit": 90, "night": True}
    assert tile_map.background == (0x33, 0x66, 0x99)
    # The ground is a U: column 0 rows 2–5, column 9 rows 3–5, row 5. Two
    # concave corners, at (1, 5) and (9, 5), facing no other: 2 + 1 = 3
    # rectangles, the floor one long strip. 3 + 2 + 10 = 15 tiles before.
    assert tile_map.solid_tiles == 15
    assert boxes(world, tile_map.colliders) == [(0, 32, 16, 48), (0, 80, 160, 16), (144, 48, 16, 32)]
    # Chunks of 4×4 tiles: the ground fills 5 of its 3×2 chunks (cols 4–7 of
    # rows 0–3 are empty), the flower one; the hidden layer has no entity.
    ground, deco = tile_map.layers
    assert sorted(tile_map.chunks) == sorted([(ground, 0, 0), (ground, 2, 0), (ground, 0, 1), (ground, 1, 1),
                                              (ground, 2, 1), (deco, 1, 1)])
    layers = [world.component_for_entity(e, TileChunks).layer for e in tile_map.layers]
    assert layers == [-3, -2]  # three tile layers: behind the sprites, in map order
    assert all(not world.component_for_entity(e, TileChunks).images for e in tile_map.layers)  # none drawn yet
    # Objects: both spellings of the class, typed properties, the rest kept.
    assert [o.kind for o in tile_map.objects] == ["coin", "coin", "player", "sign", "path"]
    assert sorted(tile_map.entities) == ["coin", "player"] and len(tile_map.entities["coin"]) == 2
    hero = tile_map.entities["player"][0]
    assert world.component_for_entity(hero, Physics).velocity == Vector2(120.5, 0)
    assert world.component_for_entity(hero, Transform).position == Vector2(20, 40)
    assert tile_map.objects[2].name == "hero"
    assert tile_map.objects[4].points == (Vector2(100, 20), Vector2(130, 20), Vector2(130, 30))


def test_tiles_of_a_named_collision_layer_are_solid_whatever_they_are(tmp_path):
    path = tmx(tmp_path, [("ground", GROUND, True), ("deco", DECO, True), ("collision", HIDDEN, False)])
    world = World()
    tile_map = load_map(world, path, collision_layers=["collision"])
    # The two hidden flower tiles at (6, 1) and (7, 1) join as one 32×16 box;
    # the hidden layer is not drawn, the flower layer is (and does not collide).
    assert tile_map.solid_tiles == 17
    assert (96, 16, 32, 16) in boxes(world, tile_map.colliders) and len(tile_map.colliders) == 4
    assert len(tile_map.chunks) == 2


@pytest.mark.parametrize("layers, error, message", [
    (["Collision"], MapError, r"collision_layers names 'Collision', which the map has no tile layer of \(its tile "
                              r"layers: 'ground', 'deco', 'collision'\)"),
    (["collision", "walls"], MapError, r"names 'walls'"),
    ("collision", ValueError, r"^collision_layers must be a collection of tile layer names"),
    ([3], ValueError, r"^collision_layers must hold tile layer names"),
])
def test_collision_layers_naming_no_tile_layer_are_refused_and_nothing_is_made(tmp_path, layers, error, message):
    # Found by a trial game: a misspelt layer made nothing solid, silently, and walls were walkable.
    path = tmx(tmp_path, [("ground", GROUND, True), ("deco", DECO, True), ("collision", HIDDEN, False)])
    world = World()
    with pytest.raises(error, match=message):
        load_map(world, path, collision_layers=layers)
    assert world.get_component(Collider) == []
    assert load_map(world, path, collision_layers=None).solid_tiles == 15  # (None: no layer is solid whole)


def test_a_factory_that_returns_no_entity_id_is_refused_and_one_for_no_object_class_is_logged(tmp_path, caplog):
    path = tmx(tmp_path, [("ground", GROUND, True)], OBJECTS)
    world = World()
    with pytest.raises(TypeError, match=r"map.tmx: .*coin.*its factory <lambda> returned 'coin'; a factory returns "
                                        r"an entity id \(int\) or None"):
        load_map(world, path, factories={"coin": lambda world, item: "coin"})
    assert world.get_component(Collider) == []  # (the load made nothing: it was undone)
    with caplog.at_level("WARNING", logger="ecs_arcade"):
        load_map(world, path, factories={"coins": lambda world, item: None, "player": lambda world, item: None})
    assert re.search(r"map.tmx: no object has the class 'coins' that a factory was given for \(the map's object "
                     r"classes: 'coin', 'path', 'player', 'sign'\)", caplog.text)


def test_one_way_tiles_become_top_only_platforms_and_ramp_tiles_triangles(tmp_path):
    ground = [row[:] for row in GROUND]
    ground[4][3] = 4  # a plank, on its own: a 16 px STATIC box stopping only from above
    world = World()
    tile_map = load_map(world, tmx(tmp_path, [("ground", ground, True)]))
    planks = [c for _, c in world.get_component(Collider) if c.sides is Side.TOP]
    assert len(planks) == 1 and planks[0].type is ColliderType.STATIC and tuple(planks[0].size) == (16, 16)
    # The plank fills an empty cell: the 15 solid tiles still merge into 3, plus the plank.
    assert tile_map.solid_tiles == 15 and len(tile_map.colliders) == 4
    ground[4][3] = 5  # a ramp: one STATIC triangle filling its 16 px cell, named by its corner
    for corner in ("bottom_left", "bottom_right", "top_left", "top_right"):
        world = World()
        tile_map = load_map(world, tmx(tmp_path, [("ground", ground, True)], ramp=corner))
        ramps = [(e, c) for e, c in world.get_component(Collider) if c.shape.triangle]
        assert [c.shape for _, c in ramps] == [Shape[f"TRIANGLE_{corner.upper()}"]]
        assert ramps[0][1].type is ColliderType.STATIC and ramps[0][0] in tile_map.colliders
        assert boxes(world, [ramps[0][0]]) == [(48, 64, 16, 16)]
    with pytest.raises(ValueError, match="'ramp' must be one of"):
        load_map(World(), tmx(tmp_path, [("ground", ground, True)], ramp="sideways"))
    with pytest.raises(FileNotFoundError):
        load_map(World(), tmp_path / "nothing.tmx")


def test_tile_layers_are_drawn_through_the_camera(tmp_path):
    path = tmx(tmp_path, [("ground", GROUND, True), ("deco", DECO, True)])
    game = Game(size=(160, 96), headless=True, background=(0, 0, 0))
    load_map(game.world, path, chunk_size=4)
    game.frame(0.0)
    assert game.screen.get_at((8, 88))[:3] == GRASS  # row 5
    assert game.screen.get_at((4, 40))[:3] == STONE  # column 0, row 2
    assert game.screen.get_at((4 * 16 + 8, 4 * 16 + 8))[:3] == FLOWER
    assert game.screen.get_at((4 * 16 + 2, 4 * 16 + 2))[:3] == (0, 0, 0)  # transparent around it
    game.camera.zoom = 2
    game.frame(0.0)
    assert game.screen.get_at((8, 40 * 2))[:3] == STONE  # world (4, 40) → screen (8, 80)
    game.close()


@pytest.mark.parametrize("continuous", [True, False], ids=["continuous", "discrete"])
def test_a_body_slides_along_merged_and_single_tiles_exactly_alike(tmp_path, continuous):
    floor = [[0] * 40, [0] * 40, [2] * 40]  # 40 grass tiles: one strip merged, forty alone
    path = tmx(tmp_path, [("ground", floor, True)])
    trails = []
    for merge in (True, False):
        world = World(gravity=(0, 980), continuous=continuous)
        tile_map = load_map(world, path, merge=merge)
        assert len(tile_map.colliders) == (1 if merge else 40)
        # Dropped onto the floor's top (y 32) while sliding right at 200 px/s
        # (tile colliders have no Physics: friction 0, so nothing slows it).
        box = world.create_entity(Transform((3, 14)), Collider((12, 12)), Physics(velocity=(200, 0)))
        trail = []
        for _step in range(150):
            world.step(1 / 60)
            transform = world.component_for_entity(box, Transform)
            velocity = world.component_for_entity(box, Physics).velocity
            trail.append((transform.position.x, transform.position.y, velocity.x, velocity.y))
        trails.append(trail)
    assert trails[0] == trails[1]  # bit for bit, step by step
    # 2.5 s at 200 px/s: from x 3 to 503, across 31 seams, never caught on one.
    x, y, vx, _ = trails[0][-1]
    assert (x, vx) == (pytest.approx(503), 200) and y == pytest.approx(20, abs=0.3)


# Tiled's flip bits on a gid (TMX format, "Tile Flipping"): horizontal,
# vertical, diagonal (x and y swapped, applied first).
H, V, D = 0x80000000, 0x40000000, 0x20000000
# A corner or face as a direction from the tile's centre, x right, y down:
# bottom_left (-1, +1); the plank's stopping face, the top, (0, -1). D swaps
# x and y, then H negates x, then V negates y:
#   ramp (-1, +1): H (+1, +1) V (-1, -1) HV (+1, -1) D (+1, -1) DH (-1, -1)
#   DV (+1, +1) DHV (-1, +1); plank (0, -1): H (0, -1) V (0, +1) HV (0, +1)
#   D (-1, 0) DH (+1, 0) DV (-1, 0) DHV (+1, 0).
FLIPS = [
    (0, "bottom_left", Side.TOP), (H, "bottom_right", Side.TOP), (V, "top_left", Side.BOTTOM),
    (H | V, "top_right", Side.BOTTOM), (D, "top_right", Side.LEFT), (D | H, "top_left", Side.RIGHT),
    (D | V, "bottom_right", Side.LEFT), (D | H | V, "bottom_left", Side.RIGHT),
]
FACE_PIXEL = {Side.TOP: (8, 1), Side.BOTTOM: (8, 14), Side.LEFT: (1, 8), Side.RIGHT: (14, 8)}


@pytest.mark.parametrize("bits, corner, side", FLIPS, ids=["none", "h", "v", "hv", "d", "dh", "dv", "dhv"])
def test_flipped_ramps_and_planks_collide_as_they_are_drawn(tmp_path, bits, corner, side):
    # A ramp at tile (1, 1) and a plank at (3, 1) of a 5×3 map, both flipped alike.
    rows = [[0] * 5, [0, 5 | bits, 0, 4 | bits, 0], [0] * 5]
    game = Game(size=(80, 48), headless=True, background=(0, 0, 0))
    tile_map = load_map(game.world, tmx(tmp_path, [("ground", rows, True)]))
    colliders = {tuple(game.world.component_for_entity(e, Transform).position):
                 game.world.component_for_entity(e, Collider) for e in tile_map.colliders}
    assert colliders[(16, 16)].shape is Shape[f"TRIANGLE_{corner.upper()}"]
    assert colliders[(48, 16)].sides is side and colliders[(48, 16)].shape is Shape.BOX
    game.frame(0.0)
    # Drawn as it collides: stone 2 px in from the ramp's right-angle
    # corner, nothing 2 px in from the opposite one; plank on the stopping face.
    vertical, horizontal = corner.split("_")
    x, y = (13 if horizontal == "right" else 2), (13 if vertical == "bottom" else 2)
    assert game.screen.get_at((16 + x, 16 + y))[:3] == STONE
    assert game.screen.get_at((16 + 15 - x, 16 + 15 - y))[:3] == (0, 0, 0)
    face = FACE_PIXEL[side]
    assert game.screen.get_at((48 + face[0], 16 + face[1]))[:3] == PLANK
    assert game.screen.get_at((48 + 15 - face[0], 16 + 15 - face[1]))[:3] == (0, 0, 0)
    game.close()


@pytest.mark.parametrize("continuous", [True, False], ids=["continuous", "discrete"])
def test_a_plank_flipped_upside_down_stops_from_below_and_lets_through_from_above(tmp_path, continuous):
    # Upside-down planks at tiles (1, 1) and (2, 1): x 16–48, y 16–32, the
    # stopping face the bottom one at y 32.
    rows = [[0] * 4, [0, 4 | V, 4 | V, 0], [0] * 4, [0] * 4]
    world = World(continuous=continuous)
    tile_map = load_map(world, tmx(tmp_path, [("ground", rows, True)]))
    assert len(tile_map.colliders) == 2  # one-way tiles are never merged
    # Rising at 300 px/s with its top at y 40, under the face: stopped with
    # its top at 32. Falling at 300 px/s from y 0, above the plank: passes,
    # 300 · 0.2 = 60 px down.
    riser = world.create_entity(Transform((20, 40)), Collider((8, 8)), Physics(velocity=(0, -300)))
    faller = world.create_entity(Transform((36, 0)), Collider((8, 8)), Physics(velocity=(0, 300)))
    for _ in range(12):  # 0.2 s: 60 px of travel each
        world.step(1 / 60)
    assert world.component_for_entity(riser, Transform).position.y == pytest.approx(32)
    assert world.component_for_entity(faller, Transform).position.y == pytest.approx(60)


@pytest.mark.parametrize("continuous", [True, False], ids=["continuous", "discrete"])
def test_a_platform_layers_category_lets_a_body_drop_through_by_its_mask(tmp_path, continuous):
    # The README's drop-through recipe on a loaded level: the planks' layer
    # puts them on category 4; a body clearing 4 from its mask falls through.
    rows = [[0] * 4, [0] * 4, [4] * 4, [0] * 4]  # plank tops at y 32
    path = tmx(tmp_path, [("platforms", rows, True)])
    path.write_text(path.read_text().replace(
        'name="platforms" width="4" height="4">',
        'name="platforms" width="4" height="4"><properties><property name="category" type="int" value="4"/>'
        '</properties>'))
    ends = []
    for mask in (ALL, ALL & ~4):
        world = World(gravity=(0, 980), continuous=continuous)
        tile_map = load_map(world, path)
        assert {world.component_for_entity(e, Collider).category for e in tile_map.colliders} == {4}
        body = world.create_entity(Transform((4, 0)), Collider((8, 8), mask=mask), Physics())
        for _ in range(30):  # 0.5 s: free fall would cover ½ · 980 · 0.5² ≈ 122 px
            world.step(1 / 60)
        ends.append(world.component_for_entity(body, Transform).position.y)
    assert ends[0] == pytest.approx(24, abs=0.5)  # landed: its bottom on the plank's top, 32
    assert ends[1] > 100  # fell through

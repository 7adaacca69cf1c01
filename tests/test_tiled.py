"""Tiled maps: hand-written .tmx files loaded into worlds."""

import pygame
import pytest
from pygame import Vector2

from components import Collider, ColliderType, Physics, Shape, Side, Sprite, Transform
from ecs import Game, World
from ecs.tiled import TileMap, load_map

# The tileset: four 16×16 tiles in a row. gid 1 stone and gid 2 grass are
# solid; gid 3 a flower (a 4×4 dot on a transparent tile); gid 4 a plank
# marked one_way; gid 5 a ramp tile (its corner set per test).
STONE, GRASS, FLOWER, PLANK = (120, 120, 130), (60, 170, 70), (240, 200, 40), (150, 100, 50)


def tileset_image(folder):
    image = pygame.Surface((80, 16), pygame.SRCALPHA)
    image.fill(STONE, (0, 0, 16, 16))
    image.fill(GRASS, (16, 0, 16, 16))
    image.fill(FLOWER, (32 + 6, 6, 4, 4))
    image.fill(PLANK, (48, 0, 16, 4))
    image.fill(STONE, (64, 0, 16, 16))
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
    # rows 0–3 are empty), the flower one; the hidden layer none.
    assert len(tile_map.chunks) == 6
    layers = sorted(world.component_for_entity(e, Sprite).layer for e in tile_map.chunks)
    assert layers == [-3] * 5 + [-2]  # three tile layers: behind the sprites, in map order
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

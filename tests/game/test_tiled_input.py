"""Tiled maps that are broken, hostile or unusual: every error names the file
and the layer, tile or object, and a failed load leaves the World as it was."""

import re

import pytest
from pygame import Vector2
from test_tiled import GROUND, tileset_image, tmx

from components import ALL, Collider, ColliderType, Transform
from ecs import World
from ecs.tiled import MapError, TileMap, load_map

_ = 0


def entities(world):
    return sorted(entity for entity, _ in world.get_component(Transform))


def write(path, text):
    path.write_text(text)
    return path


def with_tile_property(folder, name, type_, value, layer_properties="", gid_row=(1, 1, 0, 2)):
    """A 4×1 map of gids ``gid_row`` whose tile gid 1 has one property (and
    is solid, unless that property says whether it is)."""
    tileset_image(folder)
    typed = f' type="{type_}"' if type_ else ""
    solid = "" if name in ("solid", "one_way") else '<property name="solid" type="bool" value="true"/>'
    props = f"<properties>{layer_properties}</properties>" if layer_properties else ""
    return write(folder / "map.tmx", f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="4" height="1" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="tiles" tilewidth="16" tileheight="16" tilecount="5" columns="5">
  <image source="tiles.png" width="80" height="16"/>
  <tile id="0"><properties><property name="{name}"{typed} value="{value}"/>{solid}</properties></tile>
  <tile id="1"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="4" height="1">{props}<data encoding="csv">{",".join(map(str, gid_row))}</data></layer>
</map>""")


def test_a_truncated_map_names_its_file_and_leaves_the_world_alone(tmp_path):
    path = tmx(tmp_path, [("ground", GROUND, True)])
    text = path.read_text()
    path.write_text(text[:len(text) // 2])
    world = World()
    keep = world.create_entity(Transform((1, 2)))
    with pytest.raises(MapError, match=re.escape(str(path)) + ".*not a well-formed XML file"):
        load_map(world, path)  # MapError: a ValueError
    assert entities(world) == [keep] and TileMap not in world.resources


@pytest.mark.parametrize("data, what", [
    ('<data encoding="base64" compression="zlib">AAAA!!</data>', r"\(base64, zlib\) cannot be read: error"),
    ('<data encoding="csv">0,0,x,0</data>', r"\(csv\) cannot be read: ValueError"),
])
def test_unreadable_tile_data_names_its_layer(tmp_path, data, what):
    # Two layers, the second broken: the error names "back", not "ground".
    path = tmx(tmp_path, [("ground", GROUND, True), ("back", GROUND, True)])
    text = path.read_text()
    start = text.index("<data", text.index('name="back"'))
    path.write_text(text[:start] + data + text[text.index("</data>", start) + len("</data>"):])
    world = World()
    with pytest.raises(MapError, match=re.escape(str(path)) + r": layer 'back': its tile data " + what):
        load_map(world, path)
    assert entities(world) == []


def test_xml_that_is_not_a_map_is_refused_not_loaded_empty(tmp_path):
    path = write(tmp_path / "level.tmx", '<?xml version="1.0"?><svg width="10" height="10"/>')
    with pytest.raises(ValueError, match=re.escape(str(path)) + r": not a Tiled map.*<svg>"):
        load_map(World(), path)


def test_a_corrupt_tileset_image_names_the_image_and_the_map(tmp_path):
    path = tmx(tmp_path, [("ground", GROUND, True)])
    (tmp_path / "tiles.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"not really" * 10)
    with pytest.raises(ValueError, match=re.escape(str(path)) + ".*cannot read the image.*tiles.png"):
        load_map(World(), path)
    (tmp_path / "tiles.png").unlink()
    with pytest.raises(FileNotFoundError, match=re.escape(str(path)) + ".*no image file.*tiles.png"):
        load_map(World(), path)


def test_a_missing_external_tileset_is_file_not_found_naming_both_files(tmp_path):
    path = tmx(tmp_path, [("ground", GROUND, True)])
    text = re.sub(r'<tileset firstgid="1".*?</tileset>', '<tileset firstgid="1" source="gone.tsx"/>',
                  path.read_text(), flags=re.S)
    path.write_text(text)
    with pytest.raises(FileNotFoundError, match=re.escape(str(path)) + ".*'gone.tsx'"):
        load_map(World(), path)
    write(tmp_path / "gone.tsx", '<?xml version="1.0"?><tileset name="t" tilewidth="16"')  # truncated
    with pytest.raises(ValueError, match=re.escape(str(tmp_path / "gone.tsx")) + ".*not a well-formed"):
        load_map(World(), path)


def test_an_infinite_map_is_refused_saying_why(tmp_path):
    path = tmx(tmp_path, [("ground", GROUND, True)])
    path.write_text(path.read_text().replace('infinite="0"', 'infinite="1"'))
    with pytest.raises(ValueError, match=re.escape(str(path)) + ": infinite maps are not supported.*Infinite"):
        load_map(World(), path)


def test_a_gid_no_tileset_holds_names_the_layer_and_the_tile(tmp_path):
    ground = [row[:] for row in GROUND]
    ground[3][6] = 9  # the tileset holds gids 1–5
    path = tmx(tmp_path, [("ground", ground, True)])
    with pytest.raises(ValueError, match=re.escape(str(path)) + r": layer 'ground': tile \(6, 3\) has gid 9, "
                                                                r"which no tileset holds \(tilesets: 1–5"):
        load_map(World(), path)


def test_layer_data_that_does_not_fill_the_map_is_refused(tmp_path):
    path = tmx(tmp_path, [("ground", GROUND, True)])
    path.write_text(path.read_text().replace("2,2,2,2,2,2,2,2,2,2", "2,2,2"))
    with pytest.raises(ValueError, match=re.escape(str(path)) + r": layer 'ground' has 53 tiles, the map 10×6 = 60"):
        load_map(World(), path)


@pytest.mark.parametrize("type_, value, solid", [("bool", "false", False), ("bool", "true", True),
                                                 ("", "false", False), ("", "true", True), ("", "False", False)])
def test_a_solid_property_of_false_does_not_collide_however_it_is_typed(tmp_path, type_, value, solid):
    # Gids 1 1 0 2: gid 2 is solid; gid 1 as the property says. Solid: a
    # 2-tile strip and a lone tile (32 + 16 px); not: the lone tile only.
    world = World()
    tile_map = load_map(world, with_tile_property(tmp_path, "solid", type_, value))
    widths = sorted(world.component_for_entity(e, Collider).size.x for e in tile_map.colliders)
    assert widths == ([16, 32] if solid else [16])


@pytest.mark.parametrize("name", ["solid", "one_way"])
def test_a_bool_property_that_is_neither_true_nor_false_names_the_file_layer_and_tile(tmp_path, name):
    path = with_tile_property(tmp_path, name, "", "yes")
    with pytest.raises(ValueError, match=re.escape(str(path)) + r": layer 'ground', tile 0 of tileset 'tiles' "
                                       rf"\(gid 1\): property '{name}' must be a bool \(true or false\), got 'yes'"):
        load_map(World(), path)


def test_a_bad_draw_layer_property_names_the_layer(tmp_path):
    path = with_tile_property(tmp_path, "x", "", "1", '<property name="draw_layer" value="front"/>')
    with pytest.raises(ValueError, match=re.escape(str(path)) + ": layer 'ground': property 'draw_layer' must be"):
        load_map(World(), path)


POINT_COIN = """
 <objectgroup id="4" name="things">
  <object id="1" class="coin" x="40" y="60" width="8" height="8"/>
  <object id="7" name="gold" class="coin" x="96" y="40"><point/></object>
 </objectgroup>"""


def readme_make_coin(world, obj):
    return world.create_entity(Transform(obj.position), Collider(obj.size, type=ColliderType.TRIGGER))


def test_a_factory_that_raises_names_the_object_and_the_load_is_undone(tmp_path):
    path = tmx(tmp_path, [("ground", GROUND, True)], POINT_COIN)
    world = World()
    keep = world.create_entity(Transform((1, 2)), Collider((4, 4)))
    earlier = TileMap("earlier.tmx", 1, 1, (16, 16), {}, None, None)
    world.insert_resource(earlier)
    made = []

    def make_coin(world, obj):  # the README's, on the point coin: a Collider of size (0, 0)
        made.append(world.create_entity(Transform(obj.position)))  # a helper entity, made first
        return readme_make_coin(world, obj)

    with pytest.raises(ValueError, match=r"size.x must be in") as raised:
        load_map(world, path, factories={"coin": make_coin})
    # The Collider's own error, as it is, with a note naming the file and object.
    assert type(raised.value) is ValueError and not isinstance(raised.value, MapError)
    assert raised.value.__notes__ == [f"{path}: object 7 'gold' (class 'coin') in layer 'things' at (96, 40), "
                                      f"a point: raised by its factory make_coin"]
    # The colliders, the tile layer, the first coin and both helpers are gone.
    assert len(made) == 2 and not any(world.entity_exists(e) for e in made)
    assert entities(world) == [keep] and world.resource(TileMap) is earlier
    world.step(1 / 60)  # and the world still steps


def test_a_bug_in_a_factory_is_raised_as_itself_not_as_a_bad_map(tmp_path):
    # A NameError in the game's own code is not a malformed map: a game
    # catching MapError (a ValueError) to skip bad levels must not hide it.
    path = tmx(tmp_path, [("ground", GROUND, True)], POINT_COIN)
    world = World()
    keep = world.create_entity(Transform((1, 2)))

    def make_coin(world, obj):
        world.create_entity(Transform(obj.position))
        return undefined_helper(obj)  # type: ignore[name-defined]  # noqa: F821

    with pytest.raises(NameError, match="undefined_helper") as raised:
        load_map(world, path, factories={"coin": make_coin})
    # The first coin in the file, object 1, is where it fails.
    assert raised.value.__notes__ == [f"{path}: object 1 (class 'coin') in layer 'things' at (40, 60): "
                                      f"raised by its factory make_coin"]
    assert entities(world) == [keep] and TileMap not in world.resources


def test_point_objects_get_the_size_the_factory_asks_for_centred_on_the_point(tmp_path):
    def make_coin(world, obj):
        position, size = obj.box(default_size=(8, 8))
        return world.create_entity(Transform(position), Collider(size, type=ColliderType.TRIGGER))

    world = World()
    tile_map = load_map(world, tmx(tmp_path, [("ground", GROUND, True)], POINT_COIN), factories={"coin": make_coin})
    sized, point = tile_map.entities["coin"]
    assert not tile_map.objects[0].is_point and tile_map.objects[1].is_point
    assert world.component_for_entity(sized, Transform).position == Vector2(40, 60)  # its own box
    # The point (96, 40) with an 8×8 box centred on it: top-left (92, 36).
    assert world.component_for_entity(point, Transform).position == Vector2(92, 36)
    assert world.component_for_entity(point, Collider).size == Vector2(8, 8)


def filters(world, tile_map):
    out = []
    for entity in tile_map.colliders:
        collider = world.component_for_entity(entity, Collider)
        out.append((world.component_for_entity(entity, Transform).position.x, collider.size.x,
                    collider.category, collider.mask))
    return sorted(out)


def test_category_and_mask_come_from_the_tile_else_its_layer_and_split_merges(tmp_path):
    # Gids 1 1 0 2 in a row: gid 1 on category 4, gid 2 not; a row of 1 1 2 2
    # would be one strip if categories were ignored: here it is two.
    world = World()
    tile_map = load_map(world, with_tile_property(tmp_path, "category", "int", 4, gid_row=(1, 1, 2, 2)))
    assert filters(world, tile_map) == [(0, 32, 4, ALL), (32, 32, 1, ALL)]
    # The layer's category and mask for every tile without its own.
    world = World()
    layer = '<property name="category" type="int" value="8"/><property name="mask" type="int" value="3"/>'
    tile_map = load_map(world, with_tile_property(tmp_path, "category", "int", 4, layer, gid_row=(1, 1, 2, 2)))
    assert filters(world, tile_map) == [(0, 32, 4, 3), (32, 32, 8, 3)]


def test_untyped_decimal_category_and_mask_are_read_as_ints(tmp_path):
    # Untyped properties are strings in Tiled, as "true" is for a bool: "4"
    # is category 4, as in the typed case above.
    world = World()
    layer = '<property name="mask" value="3"/>'
    tile_map = load_map(world, with_tile_property(tmp_path, "category", "", "4", layer, gid_row=(1, 1, 2, 2)))
    assert filters(world, tile_map) == [(0, 32, 4, 3), (32, 32, 1, 3)]


@pytest.mark.parametrize("name, type_, value", [("category", "int", 0), ("category", "", "0"), ("mask", "", "-1"),
                                                ("mask", "", "4294967296"), ("category", "", "0x4"),
                                                ("mask", "int", 2 ** 32), ("mask", "bool", "true")])
def test_a_bad_category_or_mask_names_the_file_layer_and_tile(tmp_path, name, type_, value):
    path = with_tile_property(tmp_path, name, type_, value)
    with pytest.raises(ValueError, match=re.escape(str(path)) + rf": layer 'ground', tile 0 of tileset 'tiles' "
                                                                rf"\(gid 1\): property '{name}' must be an int"):
        load_map(World(), path)
    layer = f'<property name="{name}"{f" type={chr(34)}{type_}{chr(34)}" if type_ else ""} value="{value}"/>'
    path = with_tile_property(tmp_path, "x", "", "1", layer)
    with pytest.raises(ValueError, match=re.escape(str(path)) + rf": layer 'ground': property '{name}' must be"):
        load_map(World(), path)


class Rows(list):
    """A layer's row that counts how often it is read through."""

    reads = 0

    def __iter__(self):
        Rows.reads += 1
        return super().__iter__()


def test_each_layer_is_read_for_its_gids_once(tmp_path, monkeypatch):
    # Parsing collects the set of gids each layer uses (checked against the
    # tilesets, then asked how each collides). After it, GROUND's rows (gids
    # 1 and 2 solid, no one-way or ramp tile) are read once more each, for
    # the merge's labels: 6 reads, not 12 with the gids collected again.
    import ecs.tiled

    parse = ecs.tiled._parse

    def counted(path):
        result = parse(path)
        tiled = result[0] if isinstance(result, tuple) else result
        for layer in ecs.tiled._tile_layers(tiled):
            layer.data[:] = [Rows(row) for row in layer.data]
        Rows.reads = 0
        return result

    monkeypatch.setattr(ecs.tiled, "_parse", counted)
    load_map(World(), tmx(tmp_path, [("ground", GROUND, True)]))
    assert Rows.reads == 6

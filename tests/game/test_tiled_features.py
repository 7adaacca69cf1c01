"""Tiled map features: animated tiles, image layers, parallax, collision
categories from properties. Small hand-written .tmx files; expected values
worked out by hand in the comments."""

import re

import pygame
import pytest
from pygame import Vector2

from components import Animator, Collider, Side, Sprite, Transform
from components.sprite import TileChunks
from ecs import Game, World
from ecs.tiled import MapError, load_map

# The tileset: six 16×16 tiles in a row. Tiles 0–3 and 5 are filled with one
# colour; tile 4 is white on its left half only (to see flips).
RED, GREEN, BLUE, YELLOW, WHITE, GREY = (200, 40, 40), (40, 200, 40), (40, 40, 200), (230, 220, 40), \
    (255, 255, 255), (120, 120, 120)
BLACK = (0, 0, 0)
H, V, D = 0x80000000, 0x40000000, 0x20000000  # Tiled's flip bits on a gid


def tileset_image(folder):
    image = pygame.Surface((96, 16), pygame.SRCALPHA)
    for index, colour in enumerate((RED, GREEN, BLUE, YELLOW, None, GREY)):
        if colour:
            image.fill(colour, (index * 16, 0, 16, 16))
    image.fill(WHITE, (64, 0, 8, 16))
    pygame.image.save(image, str(folder / "tiles.png"))


def picture(folder, name, size, colours):
    """An image of vertical stripes of ``colours``, equal widths, saved as ``name``."""
    image = pygame.Surface(size, pygame.SRCALPHA)
    stripe = size[0] // len(colours)
    for index, colour in enumerate(colours):
        image.fill(colour, (index * stripe, 0, stripe, size[1]))
    pygame.image.save(image, str(folder / name))


def layer(name, rows, attributes="", properties=""):
    """A tile layer's XML: ``rows`` of gids (flip bits allowed)."""
    csv = ",\n".join(",".join(str(gid) for gid in row) for row in rows)
    props = f"<properties>{properties}</properties>" if properties else ""
    return (f'<layer name="{name}" width="{len(rows[0])}" height="{len(rows)}" {attributes}>{props}'
            f'<data encoding="csv">\n{csv}\n</data></layer>')


def write_map(folder, body, tiles="", size=(6, 4)):
    """A map of ``size`` tiles with the layers ``body`` (XML) and the tile
    elements ``tiles`` in its tileset."""
    tileset_image(folder)
    path = folder / "map.tmx"
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="{size[0]}" height="{size[1]}" tilewidth="16" tileheight="16"
     infinite="0">
 <tileset firstgid="1" name="tiles" tilewidth="16" tileheight="16" tilecount="6" columns="6">
  <image source="tiles.png" width="96" height="16"/>
  {tiles}
 </tileset>
 {body}
</map>""")
    return path


def animation(tile, frames):
    """Tile ``tile``'s animation: (tile id, duration ms) frames."""
    inner = "".join(f'<frame tileid="{tile_id}" duration="{ms}"/>' for tile_id, ms in frames)
    return f'<tile id="{tile}"><animation>{inner}</animation></tile>'


def empty(width=6, height=4):
    return [[0] * width for _ in range(height)]


def with_cells(cells, width=6, height=4):
    """Rows of gids with ``cells`` {(x, y): gid} set."""
    rows = empty(width, height)
    for (x, y), gid in cells.items():
        rows[y][x] = gid
    return rows


def headless_game(size=(96, 64)):
    return Game(size=size, headless=True, background=BLACK)


def colour(game, point):
    return tuple(game.screen.get_at(point)[:3])


def entities(world):
    return sorted(entity for entity, _ in world.get_component(Transform))


# --------------------------------------------------------------------------- animated tiles


def test_an_animated_tile_shows_each_frame_from_the_step_its_durations_say(tmp_path):
    # Tile 0 (red, never shown) animates green 100 ms, blue 100 ms, yellow
    # 200 ms: at 60 steps a second, green for steps 0–5, blue from step 6,
    # yellow from step 12, green again from step 24 (the loop is 400 ms).
    tiles = animation(0, [(1, 100), (2, 100), (3, 200)])
    path = write_map(tmp_path, layer("ground", with_cells({(2, 1): 1, (0, 0): 6})), tiles)
    game = headless_game()
    tile_map = load_map(game.world, path, chunk_size=2)
    (tile,) = tile_map.animated
    assert game.world.component_for_entity(tile, Transform).position == Vector2(32, 16)
    assert game.world.component_for_entity(tile, Sprite).layer == -1  # its layer's draw layer
    assert game.world.has_component(tile, Animator)
    # The animated tile is not painted in the chunks: chunk (1, 0) holds it alone and is not made.
    (ground,) = tile_map.layers
    assert tile_map.chunks == [(ground, 0, 0)]
    seen = []
    for _ in range(26):
        game.frame(1 / 60)  # headless: one step, then draw
        seen.append(colour(game, (2 * 16 + 8, 16 + 8)))
    expected = [GREEN if steps < 6 else BLUE if steps < 12 else YELLOW if steps < 24 else GREEN
                for steps in range(1, 27)]
    assert seen == expected
    assert colour(game, (8, 8)) == GREY  # the still tile, drawn from its chunk
    game.close()


def test_like_animated_tiles_share_one_entity_per_block(tmp_path):
    # A 3×2 pond of the animated tile at (1, 1)–(3, 2), and one more at
    # (5, 0): two entities, the pond's image 48×32 px with the frame in
    # every cell; both change frame at step 6.
    tiles = animation(0, [(1, 100), (2, 100)])
    cells = {(x, y): 1 for x in (1, 2, 3) for y in (1, 2)} | {(5, 0): 1}
    game = headless_game()
    tile_map = load_map(game.world, write_map(tmp_path, layer("water", with_cells(cells)), tiles))
    assert len(tile_map.animated) == 2
    sprites = {tuple(game.world.component_for_entity(e, Transform).position):
               game.world.component_for_entity(e, Sprite) for e in tile_map.animated}
    assert sprites.keys() == {(16, 16), (80, 0)}
    assert sprites[(16, 16)].image.get_size() == (48, 32)
    for _ in range(6):
        game.frame(1 / 60)
    assert [colour(game, p) for p in ((20, 20), (60, 44), (88, 8))] == [BLUE] * 3
    assert colour(game, (8, 8)) == BLACK
    game.close()


@pytest.mark.parametrize("bits, white, dark", [(0, (2, 8), (13, 8)), (H, (13, 8), (2, 8)), (D, (8, 2), (8, 13)),
                                               (V | D, (8, 13), (8, 2)), (H | D, (8, 2), (8, 13))],
                         ids=["none", "h", "d", "vd", "hd"])
def test_flipped_animated_tiles_are_turned_as_the_chunks_turn_still_tiles(tmp_path, bits, white, dark):
    # Tile 5 animates tile 4 (white left half) then blue. Placed flipped at
    # (1, 0); the still tile 4 flipped alike at (3, 0): the white half lands
    # on the same side of both. D swaps x and y (left half -> top half),
    # then H mirrors left-right, V top-bottom: D·H -> top, D·V -> bottom.
    tiles = animation(5, [(4, 100), (2, 100)])
    game = headless_game()
    load_map(game.world, write_map(tmp_path, layer("ground", with_cells({(1, 0): 6 | bits, (3, 0): 5 | bits})),
                                   tiles))
    game.frame(0.0, alpha=1.0)
    for left in (16, 48):
        assert colour(game, (left + white[0], white[1])) == WHITE
        assert colour(game, (left + dark[0], dark[1])) == BLACK
    game.close()


def test_a_tall_animated_tile_sits_on_the_bottom_of_its_cell(tmp_path):
    # A tileset of 16×32 tiles on a 16 px grid: like a tall still tile, the
    # animated one stands on its cell's bottom (row 2: y 32–48), its top at y 16.
    image = pygame.Surface((32, 32), pygame.SRCALPHA)
    image.fill(RED, (0, 0, 16, 32))
    image.fill(GREEN, (16, 0, 16, 32))
    pygame.image.save(image, str(tmp_path / "tall.png"))
    path = tmp_path / "map.tmx"
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="4" height="3" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="tall" tilewidth="16" tileheight="32" tilecount="2" columns="2">
  <image source="tall.png" width="32" height="32"/>{animation(0, [(1, 100), (0, 100)])}
 </tileset>
 {layer("trees", [[0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 1, 0]])}
</map>""")
    world = World()
    tile_map = load_map(world, path)
    positions = sorted(tuple(world.component_for_entity(e, Transform).position) for e in tile_map.animated)
    assert positions == [(16, 16), (32, 16)]  # not merged: not of the grid's size


@pytest.mark.parametrize("frames, message", [
    ([(1, 0)], r"its animation's frame durations must be > 0 ms, got \[0\]"),
    ([(1, 100), (9, 100)], r"frame 1 of its animation shows tile 9 of tileset 'tiles' \(gid 10\), which its "
                           r"tileset's image does not hold"),
])
def test_a_bad_animation_names_the_file_layer_and_tile_and_leaves_the_world_alone(tmp_path, frames, message):
    path = write_map(tmp_path, layer("ground", with_cells({(1, 1): 1})), animation(0, frames))
    world = World()
    world.create_entity(Transform((1, 2)))
    before = entities(world)
    with pytest.raises(MapError, match=re.escape(f"{path}: layer 'ground', tile 0 of tileset 'tiles' (gid 1): ")
                       + message):
        load_map(world, path)
    assert entities(world) == before


def test_animated_tiles_survive_a_snapshot(tmp_path):
    tiles = animation(0, [(1, 100), (2, 100)])
    world = World()
    path = write_map(tmp_path, layer("ground", with_cells({(1, 1): 1})) + image_layer("pic", "pic.png"), tiles)
    picture(tmp_path, "pic.png", (8, 8), [BLUE])
    tile_map = load_map(world, path)
    copy = World()
    copy.restore(world.snapshot())
    (tile,) = tile_map.animated
    assert copy.component_for_entity(tile, Animator).animations["tile"].durations == (0.1, 0.1)
    assert copy.component_for_entity(tile_map.image_layers[0], Sprite).image.get_size() == (8, 8)


# --------------------------------------------------------------------------- image layers


def image_layer(name, source, attributes=""):
    return f'<imagelayer name="{name}" {attributes}><image source="{source}" width="16" height="16"/></imagelayer>'


def test_an_image_layer_is_drawn_at_its_offset_in_map_order_among_the_tile_layers(tmp_path):
    # back (red tile at cell (0, 0)), the picture (16×16 blue at offset
    # (8, 4): x 8–24, y 4–20), front (green tile at cell (1, 1): x 16–32,
    # y 16–32): layers -3, -2, -1. Blue over red, green over blue.
    picture(tmp_path, "pic.png", (16, 16), [BLUE])
    body = (layer("back", with_cells({(0, 0): 1})) + image_layer("pic", "pic.png", 'offsetx="8" offsety="4"')
            + layer("front", with_cells({(1, 1): 2})))
    game = headless_game()
    tile_map = load_map(game.world, write_map(tmp_path, body))
    (pic,) = tile_map.image_layers
    assert game.world.component_for_entity(pic, Transform).position == Vector2(8, 4)
    assert game.world.component_for_entity(pic, Sprite).layer == -2
    assert [game.world.component_for_entity(e, TileChunks).layer for e in tile_map.layers] == [-3, -1]
    game.frame(0.0, alpha=1.0)
    assert colour(game, (4, 2)) == RED
    assert colour(game, (10, 6)) == BLUE
    assert colour(game, (20, 10)) == BLUE
    assert colour(game, (20, 18)) == GREEN
    assert colour(game, (26, 6)) == BLACK
    game.close()


def test_a_repeated_image_layer_covers_the_map_along_its_axis(tmp_path):
    # An 8×8 image, blue then yellow 4 px halves, offset x 3, repeatx: copies
    # start every 8 px from x 3 - 8 = -5, so x 1 is the yellow half of the
    # first copy, x 3 blue, x 7 yellow, x 91 (3 + 88) blue; below y 8 nothing.
    picture(tmp_path, "stripes.png", (8, 8), [BLUE, YELLOW])
    body = layer("ground", empty()) + image_layer("sky", "stripes.png", 'offsetx="3" repeatx="1"')
    game = headless_game()
    tile_map = load_map(game.world, write_map(tmp_path, body))
    assert game.world.has_component(tile_map.image_layers[0], TileChunks)
    game.frame(0.0, alpha=1.0)
    assert [colour(game, (x, 2)) for x in (1, 3, 7, 91, 95)] == [YELLOW, BLUE, YELLOW, BLUE, YELLOW]
    assert colour(game, (3, 10)) == BLACK
    game.close()


def test_a_missing_image_names_the_file_and_the_layer_and_leaves_the_world_alone(tmp_path):
    body = layer("ground", with_cells({(0, 0): 1})) + image_layer("sky", "nowhere.png")
    path = write_map(tmp_path, body)
    world = World()
    world.create_entity(Transform((1, 2)))
    before = entities(world)
    with pytest.raises(MapError, match=re.escape(f"{path}: image layer 'sky': no image file 'nowhere.png'")) as caught:
        load_map(world, path)
    assert isinstance(caught.value, FileNotFoundError)  # as a missing tileset image is
    assert entities(world) == before


def test_an_image_layer_without_an_image_draws_nothing(tmp_path):
    # Tiled writes no <image> until one is chosen.
    body = layer("ground", with_cells({(0, 0): 1})) + '<imagelayer name="empty"/>'
    tile_map = load_map(World(), write_map(tmp_path, body))
    assert tile_map.image_layers == [] and len(tile_map.layers) == 1


# --------------------------------------------------------------------------- parallax


def test_a_layers_parallax_scrolls_it_by_its_factor_of_the_camera(tmp_path):
    # A green tile at cell (4, 2), world (64, 32), on a layer with parallax
    # (0.5, 0.25); the camera at (32, 16): drawn at x 64 - 0.5 · 32 = 48,
    # y 32 - 0.25 · 16 = 28 (a plain layer's would be at (32, 16)).
    body = layer("hills", with_cells({(4, 2): 2}), 'parallaxx="0.5" parallaxy="0.25"')
    game = headless_game()
    tile_map = load_map(game.world, write_map(tmp_path, body))
    assert game.world.component_for_entity(tile_map.layers[0], TileChunks).parallax == Vector2(0.5, 0.25)
    game.camera.position.update(32, 16)
    game.camera.previous_position.update(32, 16)
    game.frame(0.0, alpha=1.0)
    assert colour(game, (49, 29)) == GREEN and colour(game, (63, 43)) == GREEN
    assert colour(game, (47, 29)) == BLACK and colour(game, (49, 27)) == BLACK
    game.close()


def test_groups_multiply_parallax_add_offsets_and_hide_their_layers(tmp_path):
    # Group (parallax 0.5, offset (2, 3)) holding a layer of parallax (0.5, 2)
    # and an image layer, and a hidden group: (0.25, 1), offset (2, 3).
    picture(tmp_path, "pic.png", (8, 8), [BLUE])
    animated = animation(0, [(1, 100), (2, 100)])
    body = (layer("base", empty())
            + '<group name="far" parallaxx="0.5" parallaxy="0.5" offsetx="2" offsety="3">'
            + layer("hills", with_cells({(1, 1): 1, (2, 1): 3}), 'parallaxx="0.5" parallaxy="2"')
            + image_layer("sky", "pic.png") + "</group>"
            + '<group name="off" visible="0">' + layer("hidden", with_cells({(0, 0): 2})) + "</group>")
    world = World()
    tile_map = load_map(world, write_map(tmp_path, body, animated))
    base, hills = tile_map.layers  # the hidden group's layer is not drawn
    chunks = world.component_for_entity(hills, TileChunks)
    assert chunks.parallax == Vector2(0.25, 1) and chunks.layer == -3  # base -4, hills -3, sky -2, hidden -1
    assert world.component_for_entity(hills, Transform).position == Vector2(2, 3)
    (tile,) = tile_map.animated
    assert world.component_for_entity(tile, Sprite).parallax == Vector2(0.25, 1)
    assert world.component_for_entity(tile, Transform).position == Vector2(18, 19)
    (sky,) = tile_map.image_layers
    assert world.component_for_entity(sky, Sprite).parallax == Vector2(0.5, 0.5)
    assert world.component_for_entity(sky, Transform).position == Vector2(2, 3)
    assert world.component_for_entity(sky, Sprite).layer == -2


@pytest.mark.parametrize("attributes, name, value", [
    ('parallaxx="abc"', "parallaxx", "abc"), ('parallaxy="-0.5"', "parallaxy", "-0.5"),
    ('parallaxx="101"', "parallaxx", "101"), ('parallaxx="nan"', "parallaxx", "nan"),
    ('parallaxy="inf"', "parallaxy", "inf"),
])
def test_a_bad_parallax_names_the_file_and_the_layer_and_leaves_the_world_alone(tmp_path, attributes, name, value):
    world = World()
    world.create_entity(Transform((1, 2)))
    before = entities(world)
    path = write_map(tmp_path, layer("hills", with_cells({(0, 0): 1}), attributes))
    with pytest.raises(MapError, match=re.escape(f"{path}: layer 'hills': attribute '{name}' must be a number in "
                                                 f"[0, 100], got '{value}'")):
        load_map(world, path)
    picture(tmp_path, "pic.png", (8, 8), [BLUE])
    path = write_map(tmp_path, image_layer("sky", "pic.png", attributes))
    with pytest.raises(MapError, match=re.escape(f"{path}: image layer 'sky': attribute '{name}'")):
        load_map(world, path)
    path = write_map(tmp_path, f'<group name="far" {attributes}>{layer("hills", empty())}</group>')
    with pytest.raises(MapError, match=re.escape(f"{path}: group 'far': attribute '{name}'")):
        load_map(world, path)
    assert entities(world) == before


QUOTED_20 = 'parallaxx="20"'


def test_parallax_multiplied_past_100_names_the_layer(tmp_path):
    # 20 · 20 = 400: each factor is fine, their product is not.
    body = f'<group name="far" parallaxx="20">{layer("hills", empty(), attributes=QUOTED_20)}</group>'
    path = write_map(tmp_path, body)
    with pytest.raises(MapError, match=re.escape(f"{path}: layer 'hills': its parallax factors times its groups' "
                                                 f"come to (400, 1), over 100")):
        load_map(World(), path)


# --------------------------------------------------------------------------- collision categories


def solid(tile, *properties):
    inner = "".join(f'<property name="{name}" type="{type_}" value="{value}"/>' for name, type_, value in properties)
    return f'<tile id="{tile}"><properties>{inner}</properties></tile>'


ALL_SIDES = Side.ALL.value


def filters(world, entities_):
    out = []
    for entity in entities_:
        collider = world.component_for_entity(entity, Collider)
        position = world.component_for_entity(entity, Transform).position
        out.append((position.x, position.y, collider.size.x, collider.size.y, collider.category, collider.mask,
                    collider.sides.value))
    return sorted(out)


def test_categories_and_masks_from_tile_and_layer_properties_keep_tiles_apart(tmp_path):
    # Layer "ground": category 2, mask 5 for its tiles. Tile 0 (red) solid
    # with its own category 8; tile 1 (green) solid, the layer's; tile 3
    # (yellow) a one-way plank, the layer's too. A 2×2 square of red over
    # green (rows 2–3, columns 0–1) and green beside it (columns 2–3): not
    # one 4×2 box but red 32×16 on top, green below and beside it merged
    # into its own rectangles; the plank alone.
    tiles = (solid(0, ("solid", "bool", "true"), ("category", "int", "8"))
             + solid(1, ("solid", "bool", "true")) + solid(3, ("one_way", "bool", "true")))
    rows = with_cells({(0, 2): 1, (1, 2): 1, (2, 2): 2, (3, 2): 2, (0, 3): 2, (1, 3): 2, (2, 3): 2, (3, 3): 2,
                       (5, 0): 4})
    properties = '<property name="category" type="int" value="2"/><property name="mask" type="int" value="5"/>'
    world = World()
    tile_map = load_map(world, write_map(tmp_path, layer("ground", rows, properties=properties), tiles))
    out = filters(world, tile_map.colliders)
    assert (0, 32, 32, 16, 8, 5, ALL_SIDES) in out  # the red pair, alone on category 8
    assert (80, 0, 16, 16, 2, 5, Side.TOP.value) in out  # the plank, on the layer's category
    greens = [row for row in out if row[4] == 2 and row[6] == ALL_SIDES]
    assert sum(w * h for _, _, w, h, *_ in greens) == 6 * 16 * 16 and len(greens) == 2  # an L: two boxes
    assert all(not (y == 32 and x < 32) for x, y, *_ in greens)  # none holds a red cell
    assert len(out) == 4


def test_a_tile_layers_mask_alone_keeps_category_1(tmp_path):
    tiles = solid(0, ("solid", "bool", "true"))
    world = World()
    tile_map = load_map(world, write_map(tmp_path, layer("ground", with_cells({(0, 0): 1, (1, 0): 1}),
                                                         properties='<property name="mask" value="6"/>'), tiles))
    assert filters(world, tile_map.colliders) == [(0, 0, 32, 16, 1, 6, ALL_SIDES)]

"""The sprite renderer: what it draws where, and what it keeps."""

import pygame
import pytest

from components import Collider, Physics, Sprite, Transform
from components.sprite import TileChunks
from ecs import World
from ecs.tiled import load_map
from systems.game.camera import Camera
from systems.game.render import RenderSystem

RED, BLUE, BLACK = (255, 0, 0), (0, 0, 255), (0, 0, 0)


def draw(renderer, size=(100, 100), flags=pygame.SRCALPHA):
    """A frame on a new surface, transparent unless ``flags`` say otherwise."""
    surface = pygame.Surface(size, flags)
    renderer.process(surface, 1.0)
    return surface


def test_a_sprite_without_physics_moved_by_a_system_is_drawn_where_it_is():
    world = World()
    renderer = RenderSystem(world, cell_size=32)
    door = world.create_entity(Transform((4, 4)), Sprite(RED, size=(8, 8)))
    assert draw(renderer).get_at((8, 8))[:3] == RED
    # A system moves it 3 cells (96 px) right, in place and by assignment alike.
    world.component_for_entity(door, Transform).position.x += 48
    world.component_for_entity(door, Transform).position = (4 + 96, 4 + 50)
    surface = draw(renderer, (200, 100))
    assert surface.get_at((8, 8))[:3] == BLACK and surface.get_at((104, 58))[:3] == RED
    # Filed far left of the view, then widened to reach into it: 400 px wide
    # from x −300 covers x 0..100 of the view.
    cloud = world.create_entity(Transform((-300, 80)), Sprite(BLUE, size=(8, 8)))
    assert draw(renderer).get_at((50, 84))[:3] == BLACK
    world.component_for_entity(cloud, Sprite).size = (400, 8)
    assert draw(renderer).get_at((50, 84))[:3] == BLUE


def test_an_image_sprite_is_drawn_at_the_size_asked_for():
    world = World()
    renderer = RenderSystem(world)
    image = pygame.Surface((10, 5))
    image.fill(RED)
    image.fill(BLUE, (0, 0, 5, 5))  # left half blue: shows the flip
    sprite = world.create_entity(Transform((10, 20)), Sprite(image=image, size=(40, 20)))
    surface = draw(renderer)
    # Scaled ×4 both ways: x 10..50, y 20..40; the blue half x 10..30.
    assert surface.get_bounding_rect(min_alpha=1) == pygame.Rect(10, 20, 40, 20)
    assert surface.get_at((29, 39))[:3] == BLUE and surface.get_at((30, 20))[:3] == RED
    world.component_for_entity(sprite, Sprite).flip_x = True
    surface = draw(renderer)
    assert surface.get_at((29, 39))[:3] == RED and surface.get_at((30, 20))[:3] == BLUE
    # With no size the image keeps its own 10×5 px, whatever the Collider's size.
    world.add_component(sprite, Collider((30, 30)))
    world.component_for_entity(sprite, Sprite).size = None
    assert draw(renderer).get_bounding_rect(min_alpha=1) == pygame.Rect(10, 20, 10, 5)


def test_moving_sprites_with_physics_are_drawn_between_their_steps():
    world = World()
    renderer = RenderSystem(world)
    ball = world.create_entity(Transform((0, 0)), Sprite(RED, size=(4, 4)), Physics(gravity_scale=0))
    transform = world.component_for_entity(ball, Transform)
    transform.previous_position.update(0, 0)
    transform.position.update(40, 0)
    surface = pygame.Surface((100, 100), pygame.SRCALPHA)
    renderer.process(surface, 0.5)  # half way: x 20..24
    assert surface.get_bounding_rect(min_alpha=1) == pygame.Rect(20, 0, 4, 4)


def stone_map(folder, columns, rows):
    """A map filled with 16 px stone tiles."""
    image = pygame.Surface((16, 16))
    image.fill((120, 120, 130))
    pygame.image.save(image, str(folder / "stone.png"))
    csv = ",\n".join(",".join(["1"] * columns) for _ in range(rows))
    path = folder / "big.tmx"
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="{columns}" height="{rows}" tilewidth="16" tileheight="16"
     infinite="0">
 <tileset firstgid="1" name="stone" tilewidth="16" tileheight="16" tilecount="1" columns="1">
  <image source="stone.png" width="16" height="16"/>
 </tileset>
 <layer id="1" name="rock" width="{columns}" height="{rows}"><data encoding="csv">{csv}</data></layer>
</map>""")
    return path


def test_tile_chunks_are_made_when_first_in_view_and_let_go_when_far(tmp_path):
    # 64×48 tiles of 16 px in chunks of 4 tiles: 16×12 chunks of 64 px.
    world = World()
    tile_map = load_map(world, stone_map(tmp_path, 64, 48), chunk_size=4)
    (layer,) = tile_map.layers
    tiles = world.component_for_entity(layer, TileChunks)
    assert len(tiles.chunks) == 16 * 12 and len(tile_map.chunks) == 16 * 12
    assert tiles.images == {}  # nothing drawn at load
    made = []

    def counted(column, row, paint=tiles.render):
        made.append((column, row))
        return paint(column, row)

    tiles.render = counted
    camera = Camera((160, 96))
    world.insert_resource(camera)
    renderer = RenderSystem(world)
    surface = draw(renderer, (160, 96))
    # The view x 0..160, y 0..96 overlaps chunk columns 0–2 (0..192) and rows 0–1 (0..128).
    in_view = {(c, r) for c in range(3) for r in range(2)}
    assert set(tiles.images) == in_view and sorted(made) == sorted(in_view)
    assert surface.get_at((159, 95))[:3] == (120, 120, 130)
    draw(renderer, (160, 96))
    assert len(made) == 6  # kept while in view: made once
    # Looking at x 600..760, y 400..496: columns 9–11 (576..768), rows 6–7
    # (384..512). Kept: within half a view (80, 48 px) of it, x 520..840,
    # y 352..544: columns 8–13, rows 5–8; the first six are far, let go.
    camera.center_on((680, 448))
    draw(renderer, (160, 96))
    assert set(tiles.images) == {(c, r) for c in range(9, 12) for r in range(6, 8)}
    assert len(made) == 12
    # Back: the first six are made again (they were released).
    camera.center_on((80, 48))
    draw(renderer, (160, 96))
    assert set(tiles.images) == in_view and len(made) == 18
    # Zoomed out to 1/8: the view, 1,280×768 px centred on the map's centre
    # (512, 384), holds the whole 1,024×768 px map: all 192 chunks, the six
    # kept ones not made again.
    camera.zoom = 0.125
    camera.center_on((512, 384))
    draw(renderer, (160, 96))
    assert set(tiles.images) == tiles.chunks and len(made) == 18 + 192 - 6


@pytest.mark.parametrize("opacity, expected", [(1.0, 130), (0.5, 65)])
def test_a_tile_layer_is_drawn_at_its_opacity(tmp_path, opacity, expected):
    path = stone_map(tmp_path, 4, 4)
    path.write_text(path.read_text().replace('name="rock"', f'name="rock" opacity="{opacity}"'))
    world = World()
    load_map(world, path)
    # Stone (120, 120, 130) over black at alpha round(255 · opacity): 130 · 128/255 → 65.
    assert draw(RenderSystem(world), (64, 64), 0).get_at((10, 10))[2] == pytest.approx(expected, abs=1)


def test_zoomed_out_chunks_are_kept_reduced_so_memory_follows_the_screen_not_the_map(tmp_path):
    # 100×100 tiles of 16 px in chunks of 4 tiles: 25×25 chunks of 64 px, a
    # 1,600 px square map. At zoom 1/64 a 320×240 screen shows 20,480×15,360
    # world px: all of it. Full size, the 625 chunks would keep
    # 625 · 64 · 64 · 4 B = 10,240,000 B for a screen of 320 · 240 · 4 = 307,200 B.
    world = World()
    tile_map = load_map(world, stone_map(tmp_path, 100, 100), chunk_size=4)
    tiles = world.component_for_entity(tile_map.layers[0], TileChunks)
    camera = Camera((320, 240), zoom=1 / 64)
    camera.center_on((800, 800))
    world.insert_resource(camera)
    renderer = RenderSystem(world)
    surface = draw(renderer, (320, 240), 0)
    # Reduced by 64 (the largest power of two ≤ 1/zoom): each chunk 64 px →
    # 1×1 px, the map 25×25 px of 4 bytes: 2,500 B, less than one screen.
    kept = sum(image.get_width() * image.get_height() * image.get_bytesize() for image in tiles.images.values())
    assert len(tiles.images) == 625 and kept == 25 * 25 * 4 <= 320 * 240 * 4
    assert set(tiles.details.values()) == {(64, 64, 64)}
    # The map, 1,600 / 64 = 25 screen px square, centred: x and y 148..172 on screen.
    assert surface.get_at((160, 120))[:3] == (120, 120, 130) and surface.get_at((140, 120))[:3] == BLACK
    # Zoomed in to 1/4: the view 1,280×960 px around (800, 800); the chunks
    # drawn are made again at 1/4 (16×16 px), those at 1/64 not drawn are let go.
    camera.zoom = 1 / 4
    camera.center_on((800, 800))
    draw(renderer, (320, 240), 0)
    assert {detail[0] for detail in tiles.details.values()} == {4}
    # x 160..1440 overlaps chunk columns 160 // 64 = 2 to ⌈1440 / 64⌉ = 23
    # (exclusive), y 320..1280 rows 5 to 20: 21 × 15 chunks.
    assert len(tiles.images) == 21 * 15


def test_refresh_is_kept_and_does_nothing(tmp_path):
    # Games written for versions that needed it still run: still sprites are
    # re-filed by themselves.
    world = World()
    renderer = RenderSystem(world)
    door = world.create_entity(Transform((4, 4)), Sprite(RED, size=(8, 8)))
    draw(renderer)
    world.component_for_entity(door, Transform).position.x += 40
    renderer.refresh()
    assert draw(renderer).get_at((48, 8))[:3] == RED


@pytest.mark.parametrize("moving", [False, True], ids=["still", "with Physics"])
@pytest.mark.parametrize("field, axis_value, message", [
    ("size", -5.0, r"Sprite.size.x must be >= 0"),
    ("size", float("nan"), "Sprite.size.x must be finite"),
    ("size", float("inf"), "Sprite.size.x must be finite"),
    ("offset", float("nan"), "Sprite.offset.x must be finite"),
    ("parallax", float("nan"), "Sprite.parallax.x must be finite"),
])
def test_a_sprite_vector_made_bad_in_place_is_refused_naming_the_entity_and_field(moving, field, axis_value,
                                                                                 message):
    # Assignment checks these; set in place they used to crash the frame naming nothing
    # ("cannot convert float NaN to integer"), or (a negative size) draw nothing, silently.
    world = World()
    renderer = RenderSystem(world, cell_size=32)
    extra = (Physics(),) if moving else ()
    good = world.create_entity(Transform((4, 4)), Sprite(BLUE, size=(8, 8)))
    bad = world.create_entity(Transform((20, 20)), Sprite(RED, size=(8, 8)), *extra)
    assert draw(renderer).get_at((24, 24))[:3] == RED
    getattr(world.component_for_entity(bad, Sprite), field).x = axis_value
    with pytest.raises(ValueError, match=f"^entity {bad}: {message}"):
        draw(renderer)
    world.component_for_entity(bad, Sprite).visible = False
    getattr(world.component_for_entity(bad, Sprite), field).x = 1.0 if field == "parallax" else 8.0
    assert draw(renderer).get_at((8, 8))[:3] == BLUE and good != bad


def test_tile_chunks_with_a_parallax_made_bad_in_place_are_refused_naming_the_entity():
    world = World()
    renderer = RenderSystem(world)
    chunk = pygame.Surface((16, 16))
    chunk.fill(RED)
    tiles = world.create_entity(Transform((0, 0)), TileChunks((16, 16), frozenset({(0, 0)}), lambda c, r: chunk))
    assert draw(renderer).get_at((4, 4))[:3] == RED
    world.component_for_entity(tiles, TileChunks).parallax.y = float("inf")
    with pytest.raises(ValueError, match=f"^entity {tiles}: TileChunks.parallax.y must be finite"):
        draw(renderer)

"""Sprite transforms and parallax: pixels where rotation, scale, alpha and tint put them,
worked out from the geometry and from how pygame blends; parallax offsets for a camera
position; bad values named."""

import math

import pygame
import pytest

from components import Sprite, Transform
from components.sprite import TileChunks
from ecs import World
from systems.game.camera import Camera
from systems.game.render import RenderSystem

RED, BLUE, WHITE, BLACK = (255, 0, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0)


def frame(world: World, size=(100, 100)) -> pygame.Surface:
    """One frame of ``world``'s sprites on black."""
    surface = pygame.Surface(size)
    RenderSystem(world).process(surface, 1.0)
    return surface


def halves(width: int, height: int) -> pygame.Surface:
    """An image whose left half is red and right half blue."""
    image = pygame.Surface((width, height))
    image.fill(RED)
    image.fill(BLUE, (width // 2, 0, width - width // 2, height))
    return image


def test_scale_grows_the_sprite_about_its_centre():
    world = World()
    world.create_entity(Transform((20, 20)), Sprite(WHITE, size=(10, 10), scale=2.0))
    surface = frame(world)
    # 10×10 at (20, 20), centre (25, 25): doubled it covers 15..35.
    assert surface.get_at((15, 15))[:3] == WHITE and surface.get_at((34, 34))[:3] == WHITE
    assert surface.get_at((14, 25))[:3] == BLACK and surface.get_at((35, 25))[:3] == BLACK


def test_a_quarter_turn_clockwise_puts_the_left_half_on_top():
    world = World()
    # 40×10 at (30, 45): centre (50, 50). Turned 90° clockwise it stands 10 wide and 40 tall
    # about the same centre, x 45..55 and y 30..70; its left (red) end goes up.
    world.create_entity(Transform((30, 45)), Sprite(image=halves(40, 10), angle=90))
    surface = frame(world)
    assert surface.get_at((50, 35))[:3] == RED and surface.get_at((50, 65))[:3] == BLUE
    assert surface.get_at((35, 50))[:3] == BLACK and surface.get_at((65, 50))[:3] == BLACK  # where it lay
    assert surface.get_at((46, 31))[:3] == RED and surface.get_at((53, 68))[:3] == BLUE


def test_a_sprite_whose_box_misses_the_view_is_drawn_when_turning_or_scaling_brings_it_in():
    world = World()
    # 200×4 at (-50, -62): centre (50, -60), above the 100×100 view. Turned 90° it stands 4 wide
    # and 200 tall about that centre: x 48..52, y -160..40.
    bar = world.create_entity(Transform((-50, -62)), Sprite(WHITE, size=(200, 4)))
    assert frame(world).get_at((50, 20))[:3] == BLACK
    world.component_for_entity(bar, Sprite).angle = 90
    assert frame(world).get_at((50, 20))[:3] == WHITE and frame(world).get_at((50, 41))[:3] == BLACK
    # 10×10 centred at (-20, 50), left of the view; scaled 5× it spans x -45..5.
    box = world.create_entity(Transform((-25, 45)), Sprite(WHITE, size=(10, 10)))
    assert frame(world).get_at((2, 50))[:3] == BLACK
    world.component_for_entity(box, Sprite).scale = 5.0
    assert frame(world).get_at((2, 50))[:3] == WHITE and frame(world).get_at((6, 50))[:3] == BLACK


def test_alpha_blends_with_what_is_under_it():
    world = World()
    world.create_entity(Transform((10, 10)), Sprite(WHITE, size=(20, 20), alpha=0.5))
    world.create_entity(Transform((50, 10)), Sprite(image=halves(20, 20), alpha=0.25))
    surface = frame(world)
    # Over black, an opacity of round(0.5·255) = 128 leaves 255·128/255 = 128 of each channel.
    assert surface.get_at((20, 20))[:3] == pytest.approx((128, 128, 128), abs=1)
    assert surface.get_at((52, 20))[:3] == pytest.approx((64, 0, 0), abs=1)  # round(0.25·255) = 64
    world_hidden = World()
    world_hidden.create_entity(Transform((10, 10)), Sprite(WHITE, size=(20, 20), alpha=0.0))
    assert frame(world_hidden).get_at((20, 20))[:3] == BLACK


def test_tint_multiplies_the_image_colours():
    image = pygame.Surface((10, 10))
    image.fill((200, 100, 50))
    world = World()
    world.create_entity(Transform((0, 0)), Sprite(image=image, tint=(128, 255, 0)))
    # Each channel times tint/255: 200·128/255 = 100.4, 100·255/255, 50·0.
    assert frame(world).get_at((5, 5))[:3] == pytest.approx((100, 100, 0), abs=1)


def test_parallax_moves_a_sprite_by_its_share_of_the_cameras_motion():
    world = World()
    camera = Camera(position=(100, 0))
    world.insert_resource(camera)
    for y, factor in ((10, (1, 1)), (30, (0.5, 1)), (50, (0, 0))):
        world.create_entity(Transform((120, y)), Sprite(WHITE, size=(4, 4), parallax=factor))
    surface = frame(world)

    def left_edge(y: int) -> int:
        return next(x for x in range(100) if surface.get_at((x, y + 1))[:3] == WHITE)

    # On screen: x − f·100. The world's sprite at 20, the half-speed one at 70, the fixed one at 120
    # (off the 100 px screen); move the fixed one to 60 and it is drawn there whatever the camera.
    assert left_edge(10) == 20 and left_edge(30) == 70
    assert all(surface.get_at((x, 51))[:3] == BLACK for x in range(100))


def test_a_still_sprite_given_a_parallax_later_is_drawn_by_it():
    world = World()
    world.insert_resource(Camera(position=(40, 0)))
    hill = world.create_entity(Transform((50, 10)), Sprite(WHITE, size=(4, 4)))
    renderer = RenderSystem(world)
    surface = pygame.Surface((100, 100))
    renderer.process(surface, 1.0)
    assert surface.get_at((11, 11))[:3] == WHITE  # 50 − 40
    world.component_for_entity(hill, Sprite).parallax = (0.25, 1)
    surface.fill(BLACK)
    renderer.process(surface, 1.0)
    assert surface.get_at((41, 11))[:3] == WHITE and surface.get_at((11, 11))[:3] == BLACK  # 50 − 10


def test_tile_chunks_scroll_by_their_parallax():
    picture = pygame.Surface((16, 16))
    picture.fill(BLUE)
    world = World()
    world.insert_resource(Camera(position=(64, 0)))
    world.create_entity(Transform((64, 0)), TileChunks((16, 16), frozenset({(0, 0)}), lambda c, r: picture,
                                                      parallax=(0.5, 0.5)))
    surface = frame(world)
    # Chunk (0, 0) at world x 64: on screen at 64 − 0.5·64 = 32.
    assert surface.get_at((32, 0))[:3] == BLUE and surface.get_at((31, 0))[:3] == BLACK
    assert surface.get_at((47, 15))[:3] == BLUE and surface.get_at((48, 15))[:3] == BLACK


@pytest.mark.parametrize("options, message", [
    ({"angle": math.inf}, "angle must be finite"),
    ({"scale": -0.5}, r"scale must be in \[0, 1000\]"),
    ({"alpha": 1.5}, r"alpha must be in \[0, 1\]"),
    ({"tint": (255, 0)}, r"tint must be \(r, g, b\)"),
    ({"tint": (255, 0, 256)}, r"tint must be \(r, g, b\)"),
    ({"parallax": (0.5, -1)}, r"parallax.y must be in \[0, 100\]"),
])
def test_bad_transforms_are_refused_naming_the_field(options, message):
    with pytest.raises(ValueError, match=message):
        Sprite(**options)


def test_huge_faded_or_turned_sprites_cost_only_what_is_on_screen():
    world = World()
    world.insert_resource(Camera(zoom=8.0))
    # 2,000 px at zoom 8 is 16,000 screen px a side: only the 100×100 on screen is made.
    world.create_entity(Transform((0, 0)), Sprite(WHITE, size=(2000, 2000), alpha=0.5))
    assert frame(world).get_at((50, 50))[:3] == pytest.approx((128, 128, 128), abs=1)
    # A 64 px image 100 times larger at zoom 8 is too large to turn whole: drawn unturned, the part
    # on screen only. Its centre (32, 32) is at screen 256, so the screen sees its left (red) half.
    world.create_entity(Transform((0, 0)), Sprite(image=halves(64, 64), scale=100, angle=10, layer=1))
    assert frame(world).get_at((50, 50))[:3] == RED

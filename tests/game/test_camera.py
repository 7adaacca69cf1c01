"""Camera: dead zone, clamping, smoothing, zoom, shake, culling; drawing through it."""

import math

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pygame import Vector2

from components import Collider, Physics, Sprite, Transform
from ecs import Camera, Game, World

STEP = 1 / 60


def test_target_inside_the_dead_zone_leaves_the_camera_still_and_outside_drags_it():
    # View 200×100 at (0, 0): centre (100, 50); a 40×20 dead zone spans
    # x 80..120 and y 40..60.
    camera = Camera((200, 100), dead_zone=(40, 20))
    camera.center_on((100, 50))
    assert camera.position == Vector2(0, 0)
    camera.follow((110, 55), STEP)
    assert camera.position == Vector2(0, 0)  # inside: no movement
    # x 150 is 30 past the zone's right edge 120: the view's left edge moves
    # so that 150 sits on it: 150 − 20 − 100 = 30. y 70 is 10 below 60: 70 − 10 − 50 = 10.
    camera.follow((150, 70), STEP)
    assert camera.position == Vector2(30, 10)
    # Back left to x 40, past the zone's left edge at 30 + 80 = 110: 40 + 20 − 100 = −40.
    camera.follow((40, 55), STEP)
    assert camera.position == Vector2(-40, 10)


def test_bounds_clamp_the_view_and_centre_a_level_smaller_than_it():
    camera = Camera((200, 100), bounds=(0, 0, 300, 100))
    camera.center_on((0, 0))
    assert camera.position == Vector2(0, 0)  # would be (−100, −50); the level starts at 0
    camera.follow((1000, 50), STEP)
    # Wants 1000 − 100 = 900; the view's right edge stops at the level's 300: 300 − 200.
    assert camera.position == Vector2(100, 0)
    camera.bounds = (0, 0, 150, 80)  # narrower and shorter than the 200×100 view
    camera.follow((1000, 50), STEP)
    assert camera.position == Vector2((150 - 200) / 2, (80 - 100) / 2)  # centred: (−25, −10)
    camera.zoom = 2  # now the view is 100×50 world px and fits: right edge at 150
    camera.follow((1000, 50), STEP)
    # x wants 1000 − 50 and stops at 150 − 100; y 50 − 25 = 25 is within 0..80 − 50.
    assert camera.position == Vector2(50, 25)


def test_smoothing_closes_the_same_gap_in_the_same_time_whatever_the_step():
    # Dead zone 0 and a target 100 px right of the view's centre: the goal is
    # fixed at x = 100 and each step closes 1 − e^(−dt/τ) of the gap, so the
    # gap after t seconds is 100·e^(−t/τ) for any split of t into steps.
    gaps = []
    for steps in (1, 2, 6):
        camera = Camera((200, 100), smoothing=0.1)
        camera.center_on((100, 50))
        for _ in range(steps):
            camera.follow((200, 50), 0.1 / steps)
        gaps.append(100 - camera.position.x)
    assert gaps == pytest.approx([100 / math.e] * 3, rel=1e-12)


def test_zoom_shows_less_of_the_world_and_points_round_trip():
    camera = Camera((200, 100), zoom=2, position=(30, 40))
    camera.interpolate(1.0)
    assert camera.view_size == Vector2(100, 50)
    assert camera.visible_box() == (30, 40, 100, 50)
    assert camera.world_to_screen((40, 45)) == Vector2(20, 10)  # (10, 5) world px into the view, ×2
    assert camera.screen_to_world((200, 100)) == Vector2(130, 90)
    with pytest.raises(ValueError, match="zoom"):
        camera.zoom = 0


@given(zoom=st.floats(0.25, 4), x=st.floats(-1e4, 1e4), y=st.floats(-1e4, 1e4),
       px=st.floats(-1e4, 1e4), py=st.floats(-1e4, 1e4))
def test_world_to_screen_and_back_is_the_identity(zoom, x, y, px, py):
    camera = Camera((320, 240), zoom=zoom, position=(x, y))
    camera.interpolate(1.0)
    back = camera.screen_to_world(camera.world_to_screen((px, py)))
    assert back.x == pytest.approx(px, abs=1e-6) and back.y == pytest.approx(py, abs=1e-6)
    screen = camera.world_to_screen(camera.screen_to_world((px, py)))
    assert screen.x == pytest.approx(px, abs=1e-6) and screen.y == pytest.approx(py, abs=1e-6)


@given(zoom=st.floats(0.3, 3.7), x=st.floats(-500, 500), left=st.floats(-500, 500), width=st.floats(1, 64))
def test_boxes_that_touch_in_the_world_touch_on_screen(zoom, x, left, width):
    camera = Camera((320, 240), zoom=zoom, position=(x, 0))
    camera.interpolate(1.0)
    first = camera.screen_rect(left, 0, width, 10)
    second = camera.screen_rect(left + width, 0, width, 10)
    assert first.right == second.left  # no gap, no overlap: tiles stay seamless


def test_shake_fades_to_nothing_and_is_the_same_every_run():
    offsets = []
    for _ in range(2):
        camera = Camera((200, 100))
        camera.shake(8, 0.5)
        run = []
        for step in range(40):
            camera.update_shake(STEP)
            left = max(0.0, 0.5 - (step + 1) * STEP)
            # Each axis is uniform in ±strength, strength = 8·(left/0.5)².
            assert abs(camera.shake_offset.x) <= 8 * (left / 0.5) ** 2 + 1e-12
            run.append(Vector2(camera.shake_offset))
        offsets.append(run)
        assert camera.shake_offset == Vector2()  # 40 steps > 0.5 s: over
    assert offsets[0] == offsets[1] and any(offsets[0])
    with pytest.raises(ValueError, match="duration"):
        Camera().shake(4, 0)


def make_game(size=(100, 80)):
    return Game(World(), size=size, headless=True, background=(0, 0, 0))


def test_culling_draws_only_the_sprites_in_view():
    game = make_game()
    # 30 columns × 10 rows of 8×8 sprites, 20 px apart.
    for column in range(30):
        for row in range(10):
            game.world.create_entity(Transform((column * 20, row * 20)), Sprite((255, 0, 0), size=(8, 8)))
    mover = game.world.create_entity(Transform((1000, 1000)), Sprite((0, 255, 0), size=(8, 8)),
                                     Physics(velocity=(0, 0)))
    game.camera.position.update(105, 35)
    game.camera.previous_position.update(105, 35)
    game.frame(0.0)
    # The view covers x 105..205, y 35..115. A column at 20c shows when
    # 20c < 205 and 20c + 8 > 105: c = 5..10 (six); a row when 20r < 115 and
    # 20r + 8 > 35: r = 2..5 (four). 6 × 4 = 24 of 300, and not the mover.
    assert game.renderer.drawn == 24
    assert game.screen.get_at((0, 5))[:3] == (255, 0, 0)  # sprite (100, 40) at screen (−5, 5)
    assert game.screen.get_at((2, 5))[:3] == (255, 0, 0)  # its columns −5..2: three show
    assert game.screen.get_at((3, 5))[:3] == (0, 0, 0)
    assert game.screen.get_at((0, 4))[:3] == (0, 0, 0)
    # The mover is tested each frame: brought into view, it is drawn.
    game.world.component_for_entity(mover, Transform).position.update(150, 50)
    game.world.component_for_entity(mover, Transform).previous_position.update(150, 50)
    game.frame(0.0)
    assert game.renderer.drawn == 25
    assert game.screen.get_at((150 - 105 + 1, 50 - 35 + 1))[:3] == (0, 255, 0)


def test_camera_follows_a_moving_target_and_draws_it_where_it_is():
    game = make_game(size=(100, 80))
    player = game.world.create_entity(Transform((40, 30)), Collider((10, 10)), Physics(velocity=(600, 0)),
                                      Sprite((0, 255, 0)))
    game.camera.target = player
    game.camera.dead_zone.update(20, 20)
    game.run(frames=30)  # 30 steps of 10 px: x = 340
    x = game.world.component_for_entity(player, Transform).position.x
    assert x == pytest.approx(340)
    # The centre x + 5 = 345 rides on the dead zone's right edge, 10 px right
    # of the view's centre: the view's left edge is 345 − 10 − 50 = 285.
    assert game.camera.position.x == pytest.approx(285)
    green = [px for px in range(100) if game.screen.get_at((px, 35))[:3] == (0, 255, 0)]
    assert (green[0], green[-1]) == (340 - 285, 340 - 285 + 9)


def test_zoom_scales_sprites_and_flip_mirrors_images():
    game = make_game(size=(100, 80))
    game.camera.zoom = 2
    game.world.create_entity(Transform((5, 5)), Sprite((255, 0, 0), size=(10, 10)))
    image = pygame.Surface((4, 2))
    image.fill((255, 0, 0), (0, 0, 2, 2))
    image.fill((0, 0, 255), (2, 0, 2, 2))
    game.world.create_entity(Transform((20, 20)), Sprite(image=image, flip_x=True))
    game.frame(0.0)
    red = [px for px in range(100) if game.screen.get_at((px, 15))[:3] == (255, 0, 0)]
    assert (red[0], red[-1]) == (10, 29)  # world 5..15 → screen 10..30
    # The 4×2 image at (20, 20) becomes 8×4 at (40, 40); mirrored, blue comes first.
    assert game.screen.get_at((41, 41))[:3] == (0, 0, 255)
    assert game.screen.get_at((46, 41))[:3] == (255, 0, 0)
    assert game.screen.get_at((48, 41))[:3] == (0, 0, 0)


def test_a_renderer_without_a_camera_draws_the_whole_surface():
    from systems import RenderSystem

    world = World()
    world.create_entity(Transform((1500, 900)), Sprite((255, 0, 0), size=(10, 10)))
    renderer = RenderSystem(world)
    surface = pygame.Surface((1600, 1000))
    renderer.process(surface, 1.0)
    assert renderer.drawn == 1 and surface.get_at((1505, 905))[:3] == (255, 0, 0)

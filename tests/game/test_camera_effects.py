"""Camera fades and flashes (opacity linear in time on the fixed step, drawn over everything),
and extra views: split screen and a minimap through cameras of their own."""

import pygame
import pytest

from components import Sprite, Transform
from ecs import Camera, Scene, World

DT = 1 / 60
WHITE, BLACK, RED, BLUE = (255, 255, 255), (0, 0, 0), (255, 0, 0), (0, 0, 255)


def white_scene() -> Scene:
    """A scene whose whole 40×30 screen is one white sprite."""
    scene = Scene(World())
    scene.world.create_entity(Transform((0, 0)), Sprite(WHITE, size=(40, 30)))
    return scene


def drawn(scene: Scene, size=(40, 30)) -> pygame.Surface:
    surface = pygame.Surface(size)
    scene.draw(surface, 1.0)
    return surface


def test_a_fade_out_covers_the_view_linearly_and_stays_until_a_fade_in():
    scene = white_scene()
    scene.camera.fade_out(0.5)
    levels = []
    for step in range(40):
        scene.update(DT)
        levels.append(scene.camera.overlay_alpha)
    assert levels[14] == pytest.approx(0.5) and levels[29] == 1.0 and levels[39] == 1.0
    # Half way: black at opacity round(0.5·255) = 128 over white leaves 255·(255 − 128)/255 = 127.
    scene.camera.fade_out(0.5)  # from covered, covered it stays
    for _ in range(15):
        scene.update(DT)
    assert drawn(scene).get_at((20, 15))[:3] == BLACK
    scene.camera.fade_in(0.25)
    for _ in range(15):
        scene.update(DT)
    assert scene.camera.overlay_alpha == 0.0 and drawn(scene).get_at((20, 15))[:3] == WHITE


def test_half_way_through_a_fade_the_screen_is_half_covered():
    scene = white_scene()
    scene.camera.fade_out(0.5)
    for _ in range(15):
        scene.update(DT)
    assert drawn(scene).get_at((20, 15))[:3] == pytest.approx((127, 127, 127), abs=1)


def test_a_flash_starts_full_and_clears_over_its_time():
    scene = Scene(World())  # black screen
    scene.camera.flash(0.2, color=RED)
    assert drawn(scene).get_at((5, 5))[:3] == RED
    for _ in range(6):  # 0.1 s of 0.2: half clear
        scene.update(DT)
    assert scene.camera.overlay_alpha == pytest.approx(0.5)
    assert drawn(scene).get_at((5, 5))[:3] == pytest.approx((128, 0, 0), abs=1)
    for _ in range(6):
        scene.update(DT)
    assert drawn(scene).get_at((5, 5))[:3] == BLACK


def test_split_screen_each_half_follows_its_own_player():
    scene = Scene(World())
    one = scene.world.create_entity(Transform((100, 100)), Sprite(RED, size=(10, 10)))
    two = scene.world.create_entity(Transform((1000, 100)), Sprite(BLUE, size=(10, 10)))
    scene.area = (0, 0, 100, 100)
    scene.camera.target = one
    scene.add_view(Camera(target=two), (100, 0, 100, 100))
    surface = pygame.Surface((200, 100))
    scene.draw(surface, 1.0)  # sizes the cameras to their areas
    scene.update(DT)
    surface.fill(BLACK)
    scene.draw(surface, 1.0)
    # Each camera centres its player's box centre in its 100×100 half: the red box at (45..55)
    # of the left half, the blue one at (145..155) of the screen.
    assert surface.get_at((50, 50))[:3] == RED and surface.get_at((150, 50))[:3] == BLUE
    assert surface.get_at((60, 50))[:3] == BLACK and surface.get_at((140, 50))[:3] == BLACK


def test_a_minimap_draws_the_world_small_in_its_corner():
    scene = Scene(World())
    scene.world.create_entity(Transform((1000, 500)), Sprite(BLUE, size=(100, 100)))
    minimap = scene.add_view(Camera(zoom=0.1), (150, 0, 50, 50))
    surface = pygame.Surface((200, 100))
    scene.draw(surface, 1.0)
    # Looking from (0, 0) at a tenth, its 50×50 px show world 0..500 each way: the box at
    # (1000, 500) is beyond, and neither view shows it.
    assert all(surface.get_at((x, y))[:3] == BLACK for x in range(200) for y in range(100))
    minimap.position.update(900, 450)
    minimap.previous_position.update(900, 450)
    surface.fill(BLACK)
    scene.draw(surface, 1.0)
    # Now the box is at ((1000 − 900)·0.1, (500 − 450)·0.1) = (10, 5) of the minimap: x 160..170.
    assert surface.get_at((160, 5))[:3] == BLUE and surface.get_at((169, 14))[:3] == BLUE
    assert surface.get_at((171, 5))[:3] == BLACK
    scene.remove_view(minimap)
    surface.fill(BLACK)
    scene.draw(surface, 1.0)
    assert surface.get_at((160, 5))[:3] == BLACK


@pytest.mark.parametrize("call, message", [
    (lambda scene: scene.camera.fade_out(0), "seconds must be > 0"),
    (lambda scene: scene.add_view(Camera(), (0, 0, 5, 5), layers=[1.5]), "layers must be a collection of ints"),
    (lambda scene: scene.camera.flash(1, color=(255, 0)), r"color must be \(r, g, b\)"),
    (lambda scene: scene.add_view(Camera(), (0, 0, 0, 10)), r"area must be \(x, y, w, h\)"),
    (lambda scene: scene.add_view("camera", (0, 0, 10, 10)), "camera must be a Camera"),
    (lambda scene: setattr(scene, "area", (0, 0, 10)), r"area must be \(x, y, w, h\)"),
    (lambda scene: scene.remove_view(Camera()), "has no view through"),
])
def test_bad_effects_and_views_are_refused_naming_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call(Scene(World()))


def test_a_view_has_its_background_and_layers_and_the_main_fade_covers_it():
    scene = Scene(World())
    scene.world.create_entity(Transform((0, 0)), Sprite(RED, size=(200, 100), layer=-5))  # far backdrop
    scene.world.create_entity(Transform((5, 5)), Sprite(BLUE, size=(10, 10)))
    scene.add_view(Camera(), (100, 0, 100, 100), background=(0, 255, 0), layers=range(0, 10))
    surface = pygame.Surface((200, 100))
    scene.draw(surface, 1.0)
    # Main view: red backdrop with the blue box; the view: its green background and the box, no backdrop.
    assert surface.get_at((50, 50))[:3] == RED and surface.get_at((150, 50))[:3] == (0, 255, 0)
    assert surface.get_at((107, 7))[:3] == BLUE
    scene.camera.fade_out(0.1)
    for _ in range(6):
        scene.update(DT)
    surface.fill(BLACK)
    scene.draw(surface, 1.0)
    assert surface.get_at((50, 50))[:3] == BLACK and surface.get_at((150, 50))[:3] == BLACK


def test_views_keep_their_particle_shades_between_frames_and_their_tiles_go_with_them():
    from components import Emitter
    from components.sprite import TileChunks

    scene = Scene(World())
    scene.world.create_entity(Transform((10, 10)), Emitter(burst=5, lifetime=10, speed=0))
    picture = pygame.Surface((16, 16))
    scene.world.create_entity(Transform((0, 0)), TileChunks((16, 16), frozenset({(0, 0)}), lambda c, r: picture))
    mini = scene.add_view(Camera(zoom=0.5), (20, 0, 20, 20))
    scene.update(DT)
    surface = pygame.Surface((40, 30))
    shades = []
    for _ in range(3):
        scene.draw(surface, 1.0)
        shades.append({id(images) for images in scene.particles._shades.values()})
    assert len(shades[1]) == 2 and shades[1] == shades[2]  # one set of shades per zoom, made once
    assert id(mini) in scene.renderer._views
    scene.remove_view(mini)
    assert id(mini) not in scene.renderer._views

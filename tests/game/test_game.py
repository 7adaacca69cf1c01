"""Game: quitting, drawing once per frame between physics states, input, overlay."""

import gc
import weakref

import pygame
import pytest

from components import Collider, Physics, Sprite, Transform
from ecs import Game, Input, Scene, World

STEP = 1 / 60


def make_game(**options):
    return Game(World(), size=(120, 60), headless=True, **options)


def post_key(kind, key):
    pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))


@pytest.mark.parametrize("event", [
    pygame.event.Event(pygame.QUIT),
    pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0),
])
def test_window_close_or_escape_quits_cleanly(event):
    game = make_game()
    pygame.event.clear()

    class QuitLater:
        def process(self, dt):
            if game.steps == 5:
                pygame.event.post(event)

    game.world.add_system(QuitLater())
    game.run(frames=100)
    assert game.frames == 7 and not game.running  # posted during frame 6, seen in frame 7
    game.close()
    assert not pygame.display.get_init()


def test_draw_systems_run_once_per_frame_whatever_the_step_count():
    game = make_game()
    draws = []

    class Count:
        def process(self, surface, alpha):
            draws.append(alpha)

    game.add_draw_system(Count())
    for elapsed in (0.0, STEP, 3 * STEP, STEP / 2):
        game.frame(elapsed)
    assert len(draws) == 4 and game.steps == 4
    assert draws[-1] == pytest.approx(0.5)


def test_sprites_are_drawn_between_the_last_two_physics_states():
    game = make_game(background=(0, 0, 0))
    game.world.create_entity(Transform((0, 20)), Collider((10, 10)), Physics(velocity=(1200, 0)),
                             Sprite((255, 0, 0)))
    game.frame(STEP * 1.5)  # one step: x from 0 to 20, then half a step left over
    red = [x for x in range(120) if game.screen.get_at((x, 25))[:3] == (255, 0, 0)]
    assert (red[0], red[-1]) == (10, 19)  # drawn at 0 + 20·0.5 = 10, 10 px wide


def test_input_comes_from_events_and_presses_last_until_a_step():
    game = make_game()
    keys = game.world.resource(Input)
    assert keys is game.input
    post_key(pygame.KEYDOWN, pygame.K_SPACE)
    game.frame(0.0)  # no step this frame: the press must not be lost
    assert keys.is_held(pygame.K_SPACE) and keys.was_pressed(pygame.K_SPACE)
    game.frame(STEP)
    assert keys.is_held(pygame.K_SPACE) and not keys.was_pressed(pygame.K_SPACE)
    post_key(pygame.KEYUP, pygame.K_SPACE)
    game.frame(STEP)
    assert not keys.is_held(pygame.K_SPACE)
    assert keys.axis(pygame.K_LEFT, pygame.K_RIGHT) == 0


def test_f1_toggles_the_debug_overlay_and_its_panel_lists_system_times():
    game = make_game()
    assert not game.debug.visible
    post_key(pygame.KEYDOWN, pygame.K_F1)
    game.frame(STEP)
    assert game.debug.visible
    rows = game.debug_stats()
    names = [name for name, _ in rows]
    for name in ("FPS", "MovementSystem", "CollisionSystem", "ResponseSystem", "RenderSystem"):
        assert name in names
    # Stages follow their system, indented: Response's boarding, sweep, push-out, crushing, ground and contact lists.
    response = names.index("ResponseSystem")
    assert names[response + 1:response + 7] == ["  board", "  sweep", "  push_out", "  crush", "  ground", "  contacts"]


def test_layers_draw_in_order_and_images_replace_colours():
    game = make_game(background=(0, 0, 0))
    image = pygame.Surface((10, 10))
    image.fill((0, 0, 255))
    top = game.world.create_entity(Transform((0, 0)), Sprite((255, 0, 0), size=(20, 20), layer=2))
    game.world.create_entity(Transform((5, 5)), Sprite((0, 255, 0), size=(20, 20), layer=1))
    game.world.create_entity(Transform((40, 0)), Sprite(image=image, layer=0))
    game.frame(0.0)
    assert game.screen.get_at((10, 10))[:3] == (255, 0, 0)  # layer 2 over layer 1
    assert game.screen.get_at((22, 22))[:3] == (0, 255, 0)
    assert game.screen.get_at((45, 5))[:3] == (0, 0, 255)  # the image, not the default white
    with pytest.raises(ValueError, match="color"):
        Sprite((300, 0, 0))
    with pytest.raises(ValueError, match="layer"):
        Sprite(layer=1.5)
    assert game.world.entity_exists(top)


def test_run_counts_frames_per_call_not_in_total():
    game = make_game()
    game.run(frames=3)
    game.run(frames=3)  # three more, not "until three in all"
    assert (game.frames, game.steps) == (6, 6)
    game.close()


def test_headless_screenshot_shows_the_state_after_the_last_step(tmp_path):
    game = make_game(background=(0, 0, 0))
    # 600 px/s is 10 px per step: the 8 px box never overlaps where it was a step before.
    box = game.world.create_entity(Transform((0, 20)), Collider((8, 8)), Physics(velocity=(600, 0)),
                                   Sprite((255, 0, 0)))
    shot = tmp_path / "shot.png"
    game.run(frames=5, screenshot=str(shot))
    image = pygame.image.load(str(shot))
    x = game.world.component_for_entity(box, Transform).position.x
    assert x == pytest.approx(50)  # five steps of 10 px
    red = [px for px in range(120) if image.get_at((px, 24))[:3] == (255, 0, 0)]
    assert (red[0], red[-1]) == (50, 57)  # drawn at 50, 8 px wide: not at 40, one step behind
    game.close()


def test_importing_the_framework_prints_nothing():
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    for module in ("components", "systems", "ecs"):
        out = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                             env=env, check=True)
        assert out.stdout == "" and out.stderr == "", module


@pytest.mark.parametrize("shape, filled, empty", [
    ("TRIANGLE_BOTTOM_RIGHT", (35, 5), (5, 5)),  # "/": the right angle at (40, 40)
    ("TRIANGLE_BOTTOM_LEFT", (5, 5), (35, 5)),  # "\": the right angle at (0, 40)
    ("TRIANGLE_TOP_LEFT", (5, 35), (35, 35)),
    ("TRIANGLE_TOP_RIGHT", (35, 35), (5, 35)),
])
def test_triangles_are_drawn_as_the_half_box_they_collide_with(shape, filled, empty):
    # A 40 px triangle at (0, 0), drawn by its Sprite and outlined by the
    # debug overlay: the half holding the right-angle corner is filled (a
    # point 5 px from that corner's vertical edge, 5 px from the box's far
    # edge, lies inside); the opposite corner's point lies outside.
    from components import ColliderType, Shape
    from systems.game.debug import COLORS

    game = Game(World(), size=(400, 200), headless=True, background=(0, 0, 0))  # the overlay's panel is top right
    game.world.create_entity(Transform((0, 0)), Collider((40, 40), type=ColliderType.STATIC, shape=Shape[shape]),
                             Sprite((255, 0, 0)))
    game.frame(0.0)
    assert game.screen.get_at(filled)[:3] == (255, 0, 0)
    assert game.screen.get_at(empty)[:3] == (0, 0, 0)
    game.debug.visible = True
    game.frame(0.0)
    # The overlay outlines the hypotenuse, which passes through the box's centre.
    assert game.screen.get_at((20, 20))[:3] == COLORS[ColliderType.STATIC][:3]
    game.close()


class _Level(Scene):
    """A scene that holds a reference cycle, as a scene subscribing its own
    method to its World does (World -> handler -> scene -> World)."""

    def enter(self):
        self.world.create_entity(Transform((0, 0)), Collider((8, 8)), Physics(velocity=(60, 0)))
        self.world.on_collision(self.hit)

    def hit(self, contact):
        pass


def test_a_scene_is_frozen_after_its_first_step_and_freed_once_replaced():
    game = Game(scene=_Level(), size=(120, 60), headless=True)
    first = game.scene
    transform = first.world.get_component(Transform)[0][1]
    assert any(o is transform for o in gc.get_objects())  # tracked by the collector, not frozen yet
    game.frame(STEP)
    # After the scene's first step, what was loaded is out of the collector's sight...
    assert gc.get_freeze_count() > 0
    assert not any(o is transform for o in gc.get_objects())
    gone = weakref.ref(first)
    del first, transform
    game.replace(_Level())
    game.frame(STEP)
    # ...but a scene dropped since is a cycle the next freeze collects: it doesn't leak.
    assert gone() is None
    game.close()
    assert gc.get_freeze_count() == 0


def test_freeze_on_enter_false_leaves_the_collector_alone():
    gc.unfreeze()
    game = Game(scene=_Level(), size=(120, 60), headless=True, freeze_on_enter=False)
    game.frame(STEP)
    assert gc.get_freeze_count() == 0
    game.close()


@pytest.mark.parametrize("name", ["headless", "debug", "freeze_on_enter"])
def test_a_game_flag_that_is_not_a_bool_is_refused_naming_it(name):
    # Game(debug=1) used to reach the overlay, whose error named "visible".
    flags = {"headless": True, name: 1}
    with pytest.raises(ValueError, match=f"^{name} must be a bool"):
        Game(**flags)


@pytest.mark.parametrize("options, message", [
    ({"world": (640, 480)}, "world must be an ecs.World"),  # the size given where the World goes
    ({"title": 5}, "title must be a str"),
    ({"background": (300, 0, 0)}, r"background must be \(r, g, b\)"),
    ({"background": "red"}, r"background must be \(r, g, b\)"),
    ({"fps": -1}, "fps must be an int >= 0"),
    ({"clock": 5}, "clock must be a function"),
    ({"debug_key": "a"}, "debug_key must be a pygame key code"),
    ({"max_steps_per_frame": 0}, "max_steps_per_frame"),
    ({"scene": Scene(background=(0, 0, 0))}, None),  # (fine: checked by the Scene)
])
def test_a_game_option_pygame_would_refuse_later_or_never_is_refused_naming_it(options, message):
    # Each used to fail later naming nothing (a tuple "has no attribute 'insert_resource'",
    # pygame's "invalid color argument" at the first frame, a clock "not callable" in run), or
    # never (F1 bound to "a" toggles nothing; fps=-1 ran uncapped).
    if message is None:
        Game(headless=True, **options).close()
        return
    with pytest.raises(ValueError, match=message):
        Game(headless=True, **options)


@pytest.mark.parametrize("arguments, message", [
    ({"frames": "3"}, "frames must be an int >= 0"),  # used to fail inside, naming an int and a str
    ({"frames": -1}, "frames must be an int >= 0"),  # used to run nothing, silently
    ({"frames": 1.5}, "frames must be an int >= 0"),  # used to run 2 frames
    ({"frames": True}, "frames must be an int >= 0"),
    ({"frames": 1, "screenshot": "shot.xyz"}, "screenshot must be a path ending in one of .png"),  # (was a TGA)
])
def test_run_refuses_bad_arguments_before_any_frame(arguments, message, tmp_path):
    game = make_game()
    with pytest.raises(ValueError, match=message):
        game.run(**{**arguments, **({"screenshot": str(tmp_path / arguments["screenshot"])}
                                     if "screenshot" in arguments else {})})
    assert game.frames == 0 and not list(tmp_path.iterdir())
    game.run(frames=1, screenshot=tmp_path / "shot.PNG")  # a Path, any case of a known extension
    assert game.frames == 1 and pygame.image.load(tmp_path / "shot.PNG").get_size() == game.screen.get_size()
    game.close()


def test_a_closed_game_says_so_when_used():
    # It used to be pygame's "video system not initialized".
    game = make_game()
    game.run(frames=1)
    game.close()
    for use in (lambda: game.run(frames=1), game.advance, game.draw, lambda: game.frame(STEP)):
        with pytest.raises(RuntimeError, match="this Game is closed"):
            use()
    game.close()  # closing twice is harmless


def test_a_background_assigned_later_is_checked_and_the_old_one_kept():
    scene = Scene(background=(10, 20, 30))
    game = Game(scene=scene, size=(40, 30), headless=True)
    for owner in (scene, game):
        kept = owner.background
        with pytest.raises(ValueError, match="background must be"):
            owner.background = (0, 0, 256)
        assert owner.background == kept
    with pytest.raises(ValueError, match="background must be"):
        Scene(background=(1, 2))
    scene.background = None  # the Game's, again
    game.run(frames=1)
    assert game.screen.get_at((5, 5))[:3] == game.background
    game.close()


def test_games_drawing_into_screens_of_their_own_open_no_window_and_keep_their_own_pictures():
    pygame.display.quit()
    worlds = [World(gravity=(0, 900.0)) for _ in range(2)]
    screens = [pygame.Surface((40, 30)), pygame.Surface((64, 48))]
    games = [Game(world, screen=screen, freeze_on_enter=False) for world, screen in zip(worlds, screens)]
    for world, colour in zip(worlds, ((255, 0, 0), (0, 0, 255))):
        world.create_entity(Transform((0, 0)), Physics(), Sprite(colour, size=(8, 8)))
    for _ in range(3):
        for game in games:
            game.advance()  # one step each, nothing drawn yet
    assert [game.steps for game in games] == [3, 3] and screens[0].get_at((2, 2)) != (255, 0, 0, 255)
    for game, colour in zip(games, ((255, 0, 0), (0, 0, 255))):
        game.draw()
        fallen = 900.0 * STEP * STEP * 3 * 4 / 2  # semi-implicit Euler after 3 steps: g·dt²·n(n+1)/2
        assert game.screen.get_at((2, int(fallen) + 2))[:3] == colour and game.headless
    assert not pygame.display.get_init() and screens[1].get_size() == (64, 48)
    for game in games:
        game.close()


def test_a_screen_that_is_not_a_surface_is_refused():
    with pytest.raises(ValueError, match="screen must be a pygame.Surface"):
        Game(World(), screen=(40, 30))

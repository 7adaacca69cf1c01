"""Scenes: the stack's order and hooks, who steps, who is drawn, who hears the keys."""

import pygame
import pytest

from ecs import Game, Scene, World

STEP = 1 / 60


class Logged(Scene):
    """Records its hooks and steps in a shared log; fills the screen with its colour."""

    def __init__(self, name, log, color=None, rect=None, transparent=False):
        super().__init__()
        self.name, self.log, self.steps, self.alphas = name, log, 0, []
        self.transparent = transparent
        scene = self

        class Paint:
            def process(self, surface, alpha):
                scene.alphas.append(alpha)
                if color:
                    surface.fill(color, rect)

        self.add_draw_system(Paint())

    def enter(self):
        self.log.append(f"{self.name} enter")

    def exit(self):
        self.log.append(f"{self.name} exit")

    def pause(self):
        self.log.append(f"{self.name} pause")

    def resume(self):
        self.log.append(f"{self.name} resume")

    def update(self, dt):
        self.steps += 1
        super().update(dt)


def key(kind, code):
    pygame.event.post(pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0))


def test_push_pop_and_replace_call_the_hooks_in_order_and_the_last_pop_ends_the_game():
    log = []
    level = Logged("level", log)
    game = Game(scene=level, size=(80, 60), headless=True)
    pause = Logged("pause", log, transparent=True)
    game.push(pause)
    assert game.scenes == [level, pause] and game.scene is pause and game.world is pause.world
    game.pop()
    assert game.scene is level and pause._game is None
    game.replace(Logged("over", log))
    game.run(frames=1)
    assert game.running is False and game.frames == 1
    game.pop()
    assert log == ["level enter", "level pause", "pause enter", "pause exit", "level resume",
                   "level exit", "over enter", "over exit"]
    assert game.scenes == [] and not game.running
    game.run(frames=5)  # nothing left to run
    assert game.frames == 1
    game.close()


def test_a_scene_already_on_the_stack_is_refused_by_push_and_replace_and_nothing_changes():
    # Found by a trial game: pushing the level twice ran its enter twice on one World (its tile
    # colliders and HUD built again), and replacing the top with itself a third time.
    log = []
    level, pause = Logged("level", log), Logged("pause", log)
    game = Game(scene=level, size=(80, 60), headless=True)
    game.push(pause)
    for change in (lambda: game.push(pause), lambda: game.push(level), lambda: game.replace(pause),
                   lambda: game.replace(level)):
        with pytest.raises(ValueError, match=r"Logged is already on the scene stack"):
            change()
    assert game.scenes == [level, pause] and log == ["level enter", "level pause", "pause enter"]
    game.pop()
    game.push(pause)  # (popped, it may come back: its enter runs again, as for any scene pushed)
    assert game.scenes == [level, pause] and log[-2:] == ["level pause", "pause enter"]
    game.close()


def test_two_pushes_of_one_scene_asked_for_in_a_step_enter_it_once():
    log = []
    level, pause = Logged("level", log), Logged("pause", log)
    game = Game(scene=level, size=(80, 60), headless=True)

    class PushTwice:
        def process(self, dt):
            if not game.scenes[1:]:
                game.push(pause)
                game.push(pause)  # (both wait for the step's end: the second is refused there)

    level.world.add_system(PushTwice())
    with pytest.raises(ValueError, match=r"push: this Logged is already on the scene stack"):
        game.frame(STEP)
    assert game.scenes == [level, pause] and log.count("pause enter") == 1
    game.close()


@pytest.mark.parametrize("size", [(-640, 480), (0, 0), (640,), (640.5, 480), (True, 480), "640x480"])
def test_a_window_size_that_is_not_two_whole_pixels_counts_is_refused_naming_size(size):
    with pytest.raises(ValueError, match=r"^size must be \(width, height\)"):
        Game(size=size, headless=True)


def test_only_the_top_scene_steps_and_a_transparent_top_is_drawn_over_the_frozen_scene_below():
    log = []
    level = Logged("level", log, color=(255, 0, 0))
    pause = Logged("pause", log, color=(0, 0, 255), rect=pygame.Rect(10, 10, 20, 20), transparent=True)
    game = Game(scene=level, size=(80, 60), headless=True)
    game.frame(STEP)
    game.push(pause)
    game.frame(STEP * 2.5)  # two steps, half a step left over: alpha 0.5
    assert (level.steps, pause.steps) == (1, 2)
    assert level.alphas[-1] == 1.0 and pause.alphas[-1] == pytest.approx(0.5)  # frozen: as its last step left it
    assert game.screen.get_at((0, 0))[:3] == (255, 0, 0)  # the level under…
    assert game.screen.get_at((15, 15))[:3] == (0, 0, 255)  # …the pause drawn over it
    game.replace(Logged("menu", log, color=(0, 255, 0), rect=pygame.Rect(10, 10, 20, 20)))
    drawn = len(level.alphas)
    game.frame(STEP)
    assert len(level.alphas) == drawn  # an opaque top hides the level: not drawn at all
    assert game.screen.get_at((0, 0))[:3] == game.background
    game.close()


def test_keys_go_to_the_top_scene_and_a_key_released_while_covered_is_not_stuck():
    log = []
    level = Logged("level", log)
    game = Game(scene=level, size=(80, 60), headless=True)
    key(pygame.KEYDOWN, pygame.K_RIGHT)
    game.frame(STEP)
    assert level.input.is_held(pygame.K_RIGHT)
    pause = Logged("pause", log, transparent=True)
    game.push(pause)
    assert pause.input.is_held(pygame.K_RIGHT) and not pause.input.was_pressed(pygame.K_RIGHT)
    key(pygame.KEYUP, pygame.K_RIGHT)
    key(pygame.KEYDOWN, pygame.K_p)
    game.frame(0.0)
    assert pause.input.was_pressed(pygame.K_p) and not level.input.was_pressed(pygame.K_p)
    assert level.input.is_held(pygame.K_RIGHT)  # the covered level heard nothing…
    game.pop()
    assert not level.input.is_held(pygame.K_RIGHT)  # …and comes back to what is down now
    assert level.input.is_held(pygame.K_p) and not level.input.was_pressed(pygame.K_p)
    game.close()


def test_a_change_asked_for_during_a_step_takes_effect_after_it():
    log = []
    level = Logged("level", log)
    pause = Logged("pause", log, transparent=True)
    game = Game(scene=level, size=(80, 60), headless=True)

    class PauseAtOnce:
        def process(self, dt):
            if level.steps == 1 and game.scene is level:
                game.push(pause)
                log.append("asked")  # the level's step is not cut short

    level.world.add_system(PauseAtOnce(), priority=-1)
    game.frame(STEP * 3)  # three steps: the level's, then two of the pause's
    assert (level.steps, pause.steps) == (1, 2)
    assert log == ["level enter", "asked", "level pause", "pause enter"]
    game.close()


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="world or a scene"):
        Game(World(), scene=Scene(), headless=True)
    game = Game(size=(40, 30), headless=True)
    with pytest.raises(ValueError, match="Scene"):
        game.push(World())
    with pytest.raises(RuntimeError, match="not on a Game"):
        Scene().game
    game.close()

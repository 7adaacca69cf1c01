"""Transitions: what is drawn at each step (alphas, offsets), when the hooks
are called, who steps and hears input meanwhile, changes asked for meanwhile."""

import pygame
import pytest

from ecs import CrossFade, Fade, Game, Scene, Slide, Transition

STEP = 1 / 60
RED, BLUE, GREEN = (255, 0, 0), (0, 0, 255), (0, 255, 0)


class Painted(Scene):
    """Fills the screen with its colour (and ``mark``, a rect, in green);
    logs its hooks with the Game's step count; counts its updates."""

    def __init__(self, name, log, color, mark=None, live=False):
        super().__init__()
        self.name, self.log, self.updates = name, log, 0
        self.steps_in_transitions = live

        class Paint:
            def process(self, surface, alpha):
                surface.fill(color)
                if mark is not None:
                    surface.fill(GREEN, mark)

        self.add_draw_system(Paint())

    def _note(self, hook):
        self.log.append((f"{self.name} {hook}", self.game.steps))

    def enter(self):
        self._note("enter")

    def exit(self):
        self._note("exit")

    def pause(self):
        self._note("pause")

    def resume(self):
        self._note("resume")

    def update(self, dt):
        self.updates += 1
        super().update(dt)


def make_game(log, color=RED, size=(80, 60), **options):
    first = Painted("a", log, color, **options)
    return Game(scene=first, screen=pygame.Surface(size), freeze_on_enter=False), first


def pixel(game, x=5, y=5):
    return tuple(game.screen.get_at((x, y)))[:3]


def close_to(color, expected):
    return all(abs(got - want) <= 1 for got, want in zip(color, expected))


def steps(game, count):
    for _ in range(count):
        game.advance()


def test_fade_darkens_the_old_scene_over_the_first_half_then_uncovers_the_new_one():
    log = []
    game, red = make_game(log)
    blue = Painted("b", log, BLUE)
    fade = Fade(0.5)  # 30 steps: black's alpha = 255 * k / 15 after step k <= 15, 255 * (30 - k) / 15 after
    assert fade.count_steps(STEP) == 30
    game.replace(blue, transition=fade)
    assert game.scene is blue and game.transition is fade
    game.draw()
    assert pixel(game) == RED  # not started: uncovered
    steps(game, 5)
    game.draw()
    assert close_to(pixel(game), (170, 0, 0))  # alpha 255 * 5/15 = 85: red * (1 - 85/255)
    steps(game, 3)
    game.draw(alpha=0.5)  # halfway from step 7 to step 8: t = 7.5/30 = 0.25, alpha 127.5 -> 128
    assert close_to(pixel(game), (127.5, 0, 0))
    steps(game, 7)
    game.draw()  # 15 steps: the middle
    assert pixel(game) == (0, 0, 0)
    steps(game, 5)
    game.draw()  # 20 steps: alpha 255 * 10/15 = 170 over blue
    assert close_to(pixel(game), (0, 0, 85))
    steps(game, 9)
    game.draw()  # 29 steps: alpha 17, still playing
    assert close_to(pixel(game), (0, 0, 238)) and game.transition is fade and red._game is game
    game.advance()  # 30: over
    game.draw()
    assert pixel(game) == BLUE and game.transition is None and red._game is None
    game.close()


def test_fade_to_a_colour_with_an_ease():
    game, _ = make_game([])
    game.replace(Painted("b", [], BLUE), transition=Fade(1.0, color=(255, 255, 255), ease="in_quad"))
    steps(game, 15)  # t = 15/60 = 0.25, eased 0.0625: white's opacity 0.125, alpha round(31.875) = 32
    game.draw()
    assert close_to(pixel(game), (255, 32, 32))
    game.close()


def test_replace_enters_the_new_scene_at_the_start_and_exits_the_old_at_the_end_neither_stepping():
    log = []
    game, red = make_game(log)
    game.advance()
    blue = Painted("b", log, BLUE)
    game.replace(blue, transition=Fade(0.5))
    steps(game, 29)
    assert log == [("a enter", 0), ("b enter", 1)]
    assert (red.updates, blue.updates) == (1, 0)  # the old frozen, the new waiting to be shown
    game.advance()  # step 31 of the game, 30 of the transition
    assert log[-1] == ("a exit", 31) and game.scenes == [blue] and blue.updates == 0
    game.advance()
    assert blue.updates == 1  # steps from the first step after the transition
    game.close()


def test_a_live_scene_steps_during_the_transition():
    log = []
    game, red = make_game(log)
    blue = Painted("b", log, BLUE, live=True)
    game.replace(blue, transition=CrossFade(0.1))  # 6 steps
    steps(game, 6)
    assert (red.updates, blue.updates) == (0, 6) and game.transition is None
    game.close()


def test_push_and_pop_call_their_hooks_at_the_start_and_the_exit_at_the_end():
    log = []
    game, red = make_game(log)
    pause = Painted("p", log, BLUE)
    game.push(pause, transition=Slide(0.1))
    assert log == [("a enter", 0), ("a pause", 0), ("p enter", 0)] and game.scenes == [red, pause]
    steps(game, 6)
    game.pop(transition=Slide(0.1, side="left"))
    assert log[-1] == ("a resume", 6) and game.scenes == [red] and pause._game is game
    steps(game, 5)
    assert log[-1] == ("a resume", 6)
    game.advance()
    assert log[-1] == ("p exit", 12) and pause._game is None and red.updates == 0
    game.close()


def test_a_change_asked_for_during_a_transition_waits_for_its_end_then_plays_its_own():
    log = []
    game, red = make_game(log)

    class Eager(Painted):
        def enter(self):
            super().enter()
            self.game.push(Painted("c", log, GREEN))  # asked at the start of b's transition

    blue = Eager("b", log, BLUE)
    game.replace(blue, transition=Fade(0.1))  # 6 steps
    steps(game, 3)
    game.replace(Painted("d", log, BLUE), transition=CrossFade(0.05))  # 3 steps, after the push
    assert [name for name, _ in log] == ["a enter", "b enter"] and game.scene is blue
    steps(game, 3)
    assert log[2:] == [("a exit", 6), ("b pause", 6), ("c enter", 6), ("d enter", 6)]
    assert isinstance(game.transition, CrossFade)  # d's, started at once: c exits at its end
    steps(game, 3)
    assert log[-1] == ("c exit", 9) and game.transition is None
    assert [scene.name for scene in game.scenes] == ["b", "d"]
    game.close()


def test_cross_fade_draws_the_new_scene_over_the_old_with_the_eased_opacity():
    game, _ = make_game([])
    game.replace(Painted("b", [], BLUE), transition=CrossFade(0.5))  # 30 steps
    game.run(frames=10)  # headless: one step a frame, drawn after it: opacity 1/3, alpha 85
    assert close_to(pixel(game), (170, 0, 85))
    game.replace(Painted("c", [], RED), transition=CrossFade(0.5, ease="in_quad"))  # queued
    game.run(frames=20 + 15)  # 15 steps into c's: t = 0.5, eased 0.25: alpha round(63.75) = 64
    assert close_to(pixel(game), (64, 0, 191))
    game.close()


@pytest.mark.parametrize("side, last_old, first_new", [
    ("right", (39, 30), (40, 30)),  # the new scene's left edge at 80 * (1 - 0.5) = 40
    ("left", (40, 30), (39, 30)),  # its right edge at 80 - 40 = 40
    ("bottom", (5, 29), (5, 30)),  # its top edge at 60 * (1 - 0.5) = 30
    ("top", (5, 30), (5, 29)),
])
def test_slide_pushes_the_old_scene_out_as_the_new_one_comes_in(side, last_old, first_new):
    mark = {"right": (79, 0, 1, 60), "left": (0, 0, 1, 60), "bottom": (0, 59, 80, 1), "top": (0, 0, 80, 1)}
    game, _ = make_game([], mark=pygame.Rect(mark[side]))  # a green line along the old scene's leading edge
    game.replace(Painted("b", [], BLUE), transition=Slide(0.5, side=side))
    game.run(frames=15)
    assert pixel(game, *last_old) == GREEN  # moved with the old scene, not just covered
    assert pixel(game, *first_new) == BLUE
    game.close()


def test_slide_offsets_follow_the_ease():
    game, _ = make_game([])
    game.replace(Painted("b", [], BLUE), transition=Slide(1.0, ease="in_out_quad"))  # 60 steps
    steps(game, 6)  # t = 0.1, eased 2 * 0.1**2 = 0.02: the new scene at round(80 * 0.98) = 78
    game.draw()
    assert (pixel(game, 77, 5), pixel(game, 78, 5)) == (RED, BLUE)
    steps(game, 9)  # t = 0.25, eased 0.125: at 70
    game.draw()
    assert (pixel(game, 69, 5), pixel(game, 70, 5)) == (RED, BLUE)
    game.close()


def test_popping_the_last_scene_with_a_transition_ends_run_when_it_is_over():
    log = []
    game, _ = make_game(log)
    game.pop(transition=Fade(0.5))
    assert game.scenes == [] and game.transition is not None
    game.run(frames=15)
    assert pixel(game) == (0, 0, 0) and game.running is False  # run's own flag, after it returned
    game.run(frames=100)
    assert game.frames == 30 and log[-1] == ("a exit", 30) and not game.running
    game.close()


def test_input_goes_to_nobody_during_a_transition():
    log = []
    first = Painted("a", log, RED)
    game = Game(scene=first, size=(80, 60), headless=True, freeze_on_enter=False)
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0))
    game.frame(STEP)
    assert first.input.is_held(pygame.K_RIGHT)
    blue = Painted("b", log, BLUE, live=True)
    game.replace(blue, transition=Fade(0.1))  # 6 steps
    assert not blue.input.is_held(pygame.K_RIGHT)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode="", scancode=0))
    game.frame(STEP)
    assert not blue.input.is_held(pygame.K_SPACE) and not blue.input.was_pressed(pygame.K_SPACE)
    for _ in range(5):
        game.frame(STEP)
    assert game.transition is None  # over: b starts from what is down now, with no presses
    assert blue.input.is_held(pygame.K_RIGHT) and blue.input.is_held(pygame.K_SPACE)
    assert not blue.input.was_pressed(pygame.K_SPACE)
    game.close()


def test_an_exit_that_raises_at_the_end_surfaces_and_the_stack_is_consistent():
    log = []

    class Broken(Painted):
        def exit(self):
            raise RuntimeError("exit failed")

    game = Game(scene=Broken("a", log, RED), screen=pygame.Surface((80, 60)), freeze_on_enter=False)
    blue = Painted("b", log, BLUE)
    game.replace(blue, transition=Fade(0.05))  # 3 steps
    steps(game, 2)
    with pytest.raises(RuntimeError, match="exit failed"):
        game.advance()
    assert game.scenes == [blue] and game.transition is None
    game.advance()
    assert blue.updates == 1
    game.close()


def test_steps_are_the_duration_rounded_to_whole_steps():
    assert [Fade(d).count_steps(STEP) for d in (0.5, 0.1, 0.001, 1.0)] == [30, 6, 1, 60]


@pytest.mark.parametrize("make, field", [
    (lambda: Fade(0), "duration"),
    (lambda: Fade(-1.0), "duration"),
    (lambda: Fade(float("nan")), "duration"),
    (lambda: CrossFade(True), "duration"),
    (lambda: Fade(0.5, ease="wobble"), "ease"),
    (lambda: Slide(0.5, ease=3), "ease"),
    (lambda: Fade(0.5, color=(0, 0, 256)), "color"),
    (lambda: Fade(0.5, color=(0, 0)), "color"),
    (lambda: Slide(0.5, side="up"), "side"),
])
def test_bad_transition_values_are_refused_naming_the_field(make, field):
    with pytest.raises(ValueError, match=f"^{field} must"):
        make()


def test_a_change_with_something_else_than_a_transition_is_refused():
    game, red = make_game([])
    for change in (lambda: game.replace(Scene(), transition="fade"), lambda: game.push(Scene(), transition=0.5),
                   lambda: game.pop(transition=Fade)):
        with pytest.raises(ValueError, match="^transition must"):
            change()
    assert game.scenes == [red] and game.transition is None
    with pytest.raises(TypeError, match="abstract"):
        Transition(0.1)  # the base draws nothing: a transition of your own overrides draw
    game.close()

"""Loading: tasks run a few per step, progress after each step, the bar
drawn, the swap to the level, and a failing task named."""

import pygame
import pytest

from ecs import Fade, Game, Loading, LoadingError, Scene

GREY = (230, 230, 230)
TRACK = (57, 57, 57)  # 230 // 4


class Level(Scene):
    """Built after loading: reads what the tasks loaded."""

    def __init__(self, assets):
        super().__init__()
        self.assets = dict(assets)


def start(loading, size=(200, 100)):
    game = Game(scene=Scene(), screen=pygame.Surface(size), freeze_on_enter=False)
    game.replace(loading)
    return game


def test_one_unit_a_step_with_no_budget_then_the_level_is_built_after_the_last():
    assets, calls = {}, []

    def load_map():
        calls.append("map")
        assets["map"] = "tiles"

    def load_sounds():
        calls.append("sounds")

    def load_sprites():  # a generator: one unit to its first yield, one per later yield, one to finish
        calls.append("sprites start")
        yield 0.25
        yield None  # a pause without news: the fraction stays
        yield 0.75
        calls.append("sprites end")

    loading = Loading([load_map, load_sprites, load_sounds], then=lambda: Level(assets), budget=0)
    game = start(loading)
    seen = [loading.progress]
    for _ in range(6):
        game.advance()
        seen.append(loading.progress)
    assert calls == ["map", "sprites start", "sprites end", "sounds"]
    # 3 tasks: 1/3, then (1 + 0.25) / 3, the None keeps it, (1 + 0.75) / 3, the generator done: 2/3, all done
    assert seen == pytest.approx([0, 1 / 3, 1.25 / 3, 1.25 / 3, 1.75 / 3, 2 / 3, 1])
    assert isinstance(game.scene, Level) and game.scene.assets == {"map": "tiles"}
    assert loading.finished and loading._game is None
    game.close()


def test_a_step_runs_units_until_the_budget_is_spent():
    now = [0.0]

    def task():
        now[0] += 0.003  # each takes 3 ms of the fake clock

    level = Level({})
    loading = Loading([task] * 7, then=level, budget=0.008, clock=lambda: now[0])
    game = start(loading)
    game.advance()  # 3, 6 ms: under the budget, go on; 9 ms: stop
    assert loading.done == 3 and loading.progress == pytest.approx(3 / 7)
    game.advance()
    assert loading.done == 6 and game.scene is loading
    game.advance()  # the last one, then the swap
    assert loading.done == 7 and game.scene is level
    game.close()


def test_no_tasks_swap_at_the_first_step():
    level = Level({})
    loading = Loading([], then=level)
    game = start(loading)
    assert loading.progress == 1.0 and game.scene is loading
    game.advance()
    assert game.scene is level
    game.close()


def test_the_bar_fills_from_the_left_with_the_progress():
    loading = Loading([lambda: None] * 4, then=Level({}), budget=0)
    game = start(loading)  # 200 x 100: the bar 120 x 12 px, from x = 40, rows 44 to 55
    game.draw()
    assert [tuple(game.screen.get_at((x, 50)))[:3] for x in (39, 40, 159, 160)] == [(0, 0, 0), TRACK, TRACK,
                                                                                    (0, 0, 0)]
    game.advance()
    game.advance()  # half: 60 px filled
    game.draw()
    assert [tuple(game.screen.get_at((x, 50)))[:3] for x in (40, 99, 100)] == [GREY, GREY, TRACK]
    assert [tuple(game.screen.get_at((100, y)))[:3] for y in (43, 44, 55, 56)] == [(0, 0, 0), TRACK, TRACK,
                                                                                   (0, 0, 0)]
    above = [tuple(game.screen.get_at((x, y)))[:3] for x in range(40, 160) for y in range(10, 36)]
    assert any(color != (0, 0, 0) for color in above)  # the line "Loading 50%"
    game.close()


def test_it_loads_during_its_own_fade_in_and_fades_out_to_the_level_afterwards():
    log = []

    class Logged(Level):
        def enter(self):
            log.append(("level enter", self.game.steps))

    class Logging(Loading):
        def exit(self):
            log.append(("loading exit", self.game.steps))

    loading = Logging([lambda: None] * 3, then=lambda: Logged({}), budget=0, transition=Fade(0.1))
    game = Game(scene=Scene(), screen=pygame.Surface((200, 100)), freeze_on_enter=False)
    game.replace(loading, transition=Fade(0.1))  # 6 steps
    for _ in range(3):
        game.advance()
    assert loading.finished and game.scene is loading  # done during the fade-in; the swap waits for its end
    for _ in range(3):
        game.advance()
    assert log == [("level enter", 6)] and isinstance(game.transition, Fade)
    for _ in range(6):
        game.advance()
    assert log == [("level enter", 6), ("loading exit", 12)] and game.transition is None
    game.close()


def test_a_failing_task_is_named_and_the_loading_scene_stays_stopped():
    calls = []

    def load_sounds():
        raise FileNotFoundError("no file sfx.wav")

    loading = Loading([lambda: calls.append(0), load_sounds, lambda: calls.append(2)], then=Level({}), budget=0)
    game = start(loading)
    game.advance()
    with pytest.raises(LoadingError, match=r"^loading task 1 \(.*load_sounds\) raised FileNotFoundError: "
                                           r"no file sfx.wav$") as raised:
        game.advance()
    assert isinstance(raised.value.__cause__, FileNotFoundError)
    assert raised.value.index == 1 and raised.value.task is load_sounds and loading.error is raised.value
    steps = game.steps
    game.advance()  # no retry, no further task, no new error: the game goes on with the scene stopped
    assert calls == [0] and game.scene is loading and game.steps == steps + 1
    assert loading.progress == pytest.approx(1 / 3)
    game.draw()  # "Loading failed"
    game.close()


def test_a_failing_generator_is_closed_and_a_bad_progress_is_named():
    closed = []

    def load_level():
        try:
            yield 0.5
            yield 1.5
        finally:
            closed.append(True)

    loading = Loading([load_level], then=Level({}), budget=0)
    game = start(loading)
    game.advance()
    with pytest.raises(LoadingError, match=r"task 0 \(.*load_level\) yielded 1.5: progress must be a fraction"):
        game.advance()
    assert closed == [True] and loading.progress == 0.5 and game.scene is loading
    game.close()


def test_a_then_that_fails_or_makes_no_scene_is_named():
    for then, problem in ((lambda: 1 / 0, "raised ZeroDivisionError"), (lambda: "level", "returned 'level', not")):
        loading = Loading([], then=then)
        game = start(loading)
        with pytest.raises(LoadingError, match=rf"^loading then \(.*<lambda>\) {problem}"):
            game.advance()
        assert game.scene is loading and not loading.finished
        game.close()


@pytest.mark.parametrize("options, field", [
    ({"tasks": 5}, "tasks"),
    ({"tasks": "abc"}, "tasks"),
    ({"tasks": [print, 3]}, r"tasks\[1\]"),
    ({"then": 5}, "then"),
    ({"budget": -0.1}, "budget"),
    ({"budget": float("inf")}, "budget"),
    ({"budget": True}, "budget"),
    ({"transition": "fade"}, "transition"),
    ({"label": 5}, "label"),
    ({"color": (300, 0, 0)}, "color"),
    ({"clock": 5}, "clock"),
])
def test_bad_values_are_refused_naming_the_field(options, field):
    arguments = {"tasks": [], "then": Scene()} | options
    tasks, then = arguments.pop("tasks"), arguments.pop("then")
    with pytest.raises(ValueError, match=f"^{field} must"):
        Loading(tasks, then, **arguments)

"""A step that raises: what it leaves.

A system or a collision handler that raises does not stop the step: the
other systems and handlers run, the step completes, then ``World.step``
raises the first exception (later ones are notes on it). So a failed step
leaves the World exactly as a step without the failing call would: fast
bodies are still swept and bounce, every pair that begins gets its begin
and later its end, and a scene change asked for in that step happens right
after it (each queued change, even after one that raised). Ctrl-C's
``KeyboardInterrupt`` stops the step where it is and goes on untouched,
carrying what the step had kept as a note and leaving its scene changes
queued; nothing kept outlives its step.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygame import Vector2

from components import Collider, ColliderType, Transform
from ecs import COLLISION_PRIORITY, MOVEMENT_PRIORITY, Game, Scene, World
from helpers import DT, box, position, velocity, wall


class Fails:
    """A system that raises ``error`` in the steps listed (counted from 0)."""

    def __init__(self, error: Exception, steps: set[int]) -> None:
        self.error, self.steps, self.step = error, steps, 0

    def process(self, dt: float) -> None:
        self.step += 1
        if self.step - 1 in self.steps:
            raise self.error


class Count:
    def __init__(self) -> None:
        self.runs = 0

    def process(self, dt: float) -> None:
        self.runs += 1


def test_a_fast_ball_still_bounces_off_a_thin_wall_when_a_system_raises_in_that_step(make_world):
    # The ball (10 px box, e = 1) moves 1,200 px/s · 1/60 s = 20 px a step;
    # the wall is 4 px thick at x = 25..29. In the first step the ball's
    # right edge goes from 10 to 30, into the wall: it meets the wall's face
    # at x + 10 = 25 (time of impact 15/20 of the step; the discrete
    # pipeline pushes it out by the 5 px overlap, less than the 9 px the
    # other way). A STATIC wall reflects the normal velocity, v' = −e·v =
    # −1,200 px/s. The system between Movement and Collision raises in that
    # step: Collision and Response must still run, or the next step starts
    # the ball inside the wall and carries it through.
    world = make_world()
    wall(world, 25, -20, 4, 50)
    ball = box(world, 0, 0, velocity=(1200, 0), elasticity=1.0)
    world.add_system(Fails(RuntimeError("AI crashed"), {0}), (MOVEMENT_PRIORITY + COLLISION_PRIORITY) // 2)
    with pytest.raises(RuntimeError, match="AI crashed"):
        world.step(DT)
    for _ in range(10):
        assert position(world, ball).x + 10 <= 25 + 1e-9  # never into, let alone through, the wall
        assert velocity(world, ball) == Vector2(-1200, 0)
        world.step(DT)


def test_a_raising_collision_filter_lets_its_pair_be_resolved_and_the_step_completes(make_world):
    # The same ball and wall; a collision filter raises when first asked
    # about the pair, in the middle of Response. The pair is resolved as if
    # no filter had been asked: the ball bounces (v' = −e·v = −1,200 px/s)
    # in that step, and the step raises the filter's exception at its end.
    world = make_world()
    thin = wall(world, 25, -20, 4, 50)
    ball = box(world, 0, 0, velocity=(1200, 0), elasticity=1.0)
    asked = []

    @world.collision_filter
    def flaky(a, b):
        asked.append((a, b))
        if len(asked) == 1:
            raise LookupError("team table not loaded")
        return True

    after = Count()
    world.add_system(after, -10)
    with pytest.raises(LookupError, match="team table") as raised:
        world.step(DT)
    assert asked[0] == (thin, ball)
    assert after.runs == 1
    assert any(f"collision filter {flaky.__qualname__} (pair {thin}, {ball})" in note for note in raised.value.__notes__)
    for _ in range(10):
        assert position(world, ball).x + 10 <= 25 + 1e-9
        assert velocity(world, ball) == Vector2(-1200, 0)
        world.step(DT)
    world.remove_collision_handler(flaky)
    assert world.response.filters == []


def test_the_first_exception_is_raised_after_every_system_ran_and_later_ones_are_noted():
    world = World()
    after = Count()
    world.add_system(Fails(ValueError("first"), {0}), 400)
    world.add_system(Fails(KeyError("second"), {0}), 250)
    world.add_system(after, -10)
    with pytest.raises(ValueError, match="first") as raised:
        world.step(DT)
    assert after.runs == 1  # the systems after the failing ones ran
    notes = "\n".join(raised.value.__notes__)
    assert "raised by Fails.process" in notes and world.name in notes
    assert "also raised later in that step, by Fails.process: KeyError: 'second'" in notes
    assert set(world.timings) >= {"MovementSystem", "CollisionSystem", "ResponseSystem", "Count"}
    world.step(DT)  # the next step is a normal one
    assert after.runs == 2


@pytest.mark.parametrize("where", ["collision filter", "collision handler", "system"])
def test_an_interrupt_carries_the_exception_kept_before_it_and_the_next_step_is_clean(where):
    # A KeyboardInterrupt stops the step where it is; an exception kept
    # earlier in that step must not be lost (it becomes a note on the
    # interrupt) nor be raised by a later step in which nothing fails.
    world = World()
    wall(world, 25, -20, 4, 50)
    wall(world, 60, -20, 4, 50)
    box(world, 18, 0)  # 18..28 overlaps the first wall (25..29): a pair for Response
    box(world, 53, 0)  # 53..63 overlaps the second (60..64): a second pair, asked after the first
    calls: list[tuple[int, int]] = []

    def bad_then_interrupted(a: int, b: int) -> bool:
        calls.append((a, b))
        if len(calls) == 1:
            raise ValueError("team table not loaded")
        if len(calls) == 2:
            raise KeyboardInterrupt
        return True

    if where == "collision filter":
        world.collision_filter(bad_then_interrupted)
    elif where == "collision handler":
        world.on_collision(lambda contact: bad_then_interrupted(contact.a, contact.b))
    else:
        world.add_system(Fails(ValueError("team table not loaded"), {0}), 400)
        world.add_system(Fails(KeyboardInterrupt(), {0}), 250)
    with pytest.raises(KeyboardInterrupt) as raised:
        world.step(DT)
    notes = "\n".join(raised.value.__notes__)
    culprit = {"collision filter": f"collision filter {bad_then_interrupted.__qualname__}",
               "collision handler": "collision handler", "system": "Fails.process"}[where]
    assert culprit in notes
    assert "ValueError: team table not loaded" in notes and world.name in notes
    world.remove_collision_handler(bad_then_interrupted)
    world.events.every.clear()
    world.step(DT)  # nothing raises in this step: nothing is raised
    world.step(DT)


def test_an_exception_raised_step_after_step_carries_each_note_once():
    # The same instance raised in three steps, each time with a second
    # exception after it: a note per distinct fact, not one per step.
    world = World()
    world.add_system(Fails(ValueError("first"), {0, 1, 2}), 400)
    world.add_system(Fails(KeyError("second"), {0, 1, 2}), 250)
    for _ in range(3):
        with pytest.raises(ValueError, match="first") as raised:
            world.step(DT)
    notes = raised.value.__notes__
    assert sum("raised by Fails.process" in note for note in notes) == 1
    assert sum("also raised later in that step, by Fails.process: KeyError" in note for note in notes) == 1
    assert len(notes) == 2


def scene_with_three_pairs(world: World) -> list[tuple[int, int]]:
    """Three bodies, each inside its own TRIGGER (20 px squares at x = 0,
    100, 200; the 10 px bodies at 5 px in): three pairs begin in the first
    step. Returned as (trigger, body) pairs, the contact order (a < b)."""
    pairs = []
    for x in (0, 100, 200):
        zone = world.create_entity(Transform((x, 0)), Collider((20, 20), type=ColliderType.TRIGGER))
        pairs.append((zone, box(world, x + 5, 5)))
    return pairs


def test_a_raising_begin_handler_leaves_every_begin_delivered_and_every_end_balanced(make_world):
    world = make_world()
    pairs = scene_with_three_pairs(world)
    seen: dict[str, list[tuple[int, int]]] = {"begin": [], "other begin": [], "every": [], "end": []}

    def first_begin(contact):
        seen["begin"].append((contact.a, contact.b))
        raise RuntimeError(f"begin handler failed on {contact.a}, {contact.b}")

    world.on_collision_begin(first_begin)
    world.on_collision_begin(lambda contact: seen["other begin"].append((contact.a, contact.b)))
    world.on_collision(lambda contact: seen["every"].append((contact.a, contact.b)))
    world.on_collision_end(lambda contact: seen["end"].append((contact.a, contact.b)))
    with pytest.raises(RuntimeError, match=rf"failed on {pairs[0][0]}, {pairs[0][1]}") as raised:
        world.step(DT)
    assert seen == {"begin": pairs, "other begin": pairs, "every": pairs, "end": []}
    # The first handler raised three times: the first is raised, two noted.
    assert sum("also raised later" in note for note in raised.value.__notes__) == 2
    world.remove_collision_handler(first_begin)
    # Each body leaves its trigger downwards at 600 px/s (10 px a step):
    # y = 15 (still overlapping 0..20), then y = 25 (apart): ends then.
    for _, body in pairs:
        velocity(world, body).y = 600
    world.step(DT)
    assert seen["end"] == []
    world.step(DT)
    assert seen["end"] == pairs


def test_a_scene_change_asked_for_in_a_step_that_raises_happens_right_after_it():
    log: list[str] = []

    class Named(Scene):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name, self.steps = name, 0

        def enter(self) -> None:
            log.append(f"{self.name} enter")

        def exit(self) -> None:
            log.append(f"{self.name} exit")

        def update(self, dt: float) -> None:
            self.steps += 1
            log.append(f"{self.name} step")
            super().update(dt)

    level, game_over = Named("level"), Named("game over")
    game = Game(scene=level, size=(80, 60), headless=True)

    class LoseAndCrash:
        def process(self, dt: float) -> None:
            game.replace(game_over)
            raise RuntimeError("score board crashed")

    level.world.add_system(LoseAndCrash())
    with pytest.raises(RuntimeError, match="score board"):
        game.frame(3 / 60)  # three steps owed: the level's raises, the frame stops there
    # Without the exception the level would be replaced right after its
    # step: so it is, and the next step is the new scene's.
    assert log == ["level enter", "level step", "level exit", "game over enter"]
    assert game.scene is game_over and game.steps == 1
    game.frame(1 / 60)
    assert (level.steps, game_over.steps) == (1, 1)
    game.close()


class Named(Scene):
    """A scene that logs its entering; ``fails`` makes ``enter`` raise."""

    def __init__(self, name: str, log: list[str], fails: bool = False) -> None:
        super().__init__()
        self.name, self.log, self.fails = name, log, fails

    def enter(self) -> None:
        self.log.append(f"{self.name} enter")
        if self.fails:
            raise RuntimeError(f"{self.name} failed to load")


class PushesThen:
    """A system that asks for ``scenes`` to be pushed, then raises ``error``
    (if any), in its first step only."""

    def __init__(self, game: Game, scenes: list[Scene], error: BaseException | None) -> None:
        self.game, self.scenes, self.error = game, scenes, error

    def process(self, dt: float) -> None:
        for scene in self.scenes:
            self.game.push(scene)
        error, self.scenes, self.error = self.error, [], None
        if error is not None:
            raise error


@pytest.mark.parametrize("error", [None, RuntimeError("score board crashed")])
def test_a_scene_change_that_raises_does_not_drop_the_changes_queued_after_it(error):
    # Two pushes asked for in one step, the first scene failing to load:
    # the second is still pushed, on top; the step's own exception is the
    # one raised (else the first change's), the other noted on it.
    log: list[str] = []
    level, broken, menu = Named("level", log), Named("broken", log, fails=True), Named("menu", log)
    game = Game(scene=level, size=(80, 60), headless=True)
    level.world.add_system(PushesThen(game, [broken, menu], error))
    expected = "score board crashed" if error else "broken failed to load"
    with pytest.raises(RuntimeError, match=expected) as raised:
        game.frame(1 / 60)
    assert log == ["level enter", "broken enter", "menu enter"]
    assert game.scenes == [level, broken, menu]
    if error is not None:
        assert "RuntimeError: broken failed to load" in "\n".join(raised.value.__notes__)
    game.close()


def test_an_interrupted_step_raises_the_interrupt_untouched_and_keeps_its_scene_changes_queued():
    # Ctrl-C in a step: the KeyboardInterrupt itself goes on (not replaced
    # by a failing scene change), nothing is entered yet; the changes wait
    # for the next step's end, in the order asked.
    log: list[str] = []
    level, broken, menu = Named("level", log), Named("broken", log, fails=True), Named("menu", log)
    game = Game(scene=level, size=(80, 60), headless=True)
    interrupt = KeyboardInterrupt()
    level.world.add_system(PushesThen(game, [broken, menu], interrupt))
    with pytest.raises(KeyboardInterrupt) as raised:
        game.frame(1 / 60)
    assert raised.value is interrupt and not getattr(interrupt, "__notes__", None)
    assert log == ["level enter"] and game.scenes == [level]
    with pytest.raises(RuntimeError, match="broken failed to load"):
        game.frame(1 / 60)  # the level steps (no interrupt now), then the two pushes
    assert log == ["level enter", "broken enter", "menu enter"]
    assert game.scenes == [level, broken, menu]
    game.close()


@settings(max_examples=20, deadline=None)
@given(fails=st.lists(st.booleans(), min_size=1, max_size=5),
       error=st.sampled_from([None, RuntimeError("step failed"), KeyboardInterrupt()]))
def test_every_scene_change_a_step_asks_for_is_applied_in_order_whatever_raises(fails, error):
    # Invariant: the scenes end up stacked in the order asked, every one of
    # them, whether the step or some of the changes raised; the exception
    # raised is the step's own, else the first failing change's.
    log: list[str] = []
    level = Named("level", log)
    pushed = [Named(f"scene {i}", log, fails=fail) for i, fail in enumerate(fails)]
    game = Game(scene=level, size=(80, 60), headless=True)
    level.world.add_system(PushesThen(game, list(pushed), error))
    first_failing = next((f"scene {i} failed" for i, fail in enumerate(fails) if fail), None)
    expected = "step failed" if isinstance(error, Exception) else first_failing
    if isinstance(error, KeyboardInterrupt):
        with pytest.raises(KeyboardInterrupt):
            game.frame(1 / 60)
        assert game.scenes == [level]  # queued, not applied, until the next step
        expected = first_failing
    if expected is None:
        game.frame(1 / 60)
    else:
        with pytest.raises(RuntimeError, match=expected):
            game.frame(1 / 60)
    assert game.scenes == [level, *pushed]
    assert log == ["level enter", *(f"scene {i} enter" for i in range(len(fails)))]
    game.close()


class Flaky:
    """A system (and a collision handler) that records what it was given,
    then raises in the steps listed; ``quiet`` records alike but never
    raises: the same World without the failing calls."""

    def __init__(self, fails: set[int], quiet: bool) -> None:
        self.fails, self.quiet, self.step, self.heard = fails, quiet, 0, []

    def process(self, dt: float) -> None:
        self.step += 1
        self.fail()

    def handler(self, contact) -> None:
        self.heard.append((self.step, contact.a, contact.b))
        self.fail()

    def fail(self) -> None:
        if self.step - 1 in self.fails and not self.quiet:
            raise RuntimeError(f"step {self.step - 1}")


bodies = st.lists(st.tuples(st.integers(0, 8), st.integers(0, 3), st.integers(-400, 400), st.integers(-400, 400)),
                  min_size=2, max_size=6)


@settings(max_examples=25)
@given(scene=bodies, priority=st.sampled_from([400, 250, 150, 75, 0]), fails=st.sets(st.integers(0, 11)),
       continuous=st.booleans())
def test_a_step_that_raises_leaves_the_world_as_the_step_without_the_failing_calls(scene, priority, fails,
                                                                                    continuous):
    # The invariant behind the rules above: whichever systems and handlers
    # raise, in whichever steps, every position, velocity and event equals
    # that of the same World whose failing calls return instead.
    def build(quiet: bool) -> tuple[World, Flaky, Flaky, list]:
        world = World(gravity=(0, 600), continuous=continuous)
        wall(world, -40, 120, 400, 20)
        made = [box(world, 36 * column, 12 * row, velocity=(vx, vy)) for column, row, vx, vy in scene]
        system, begins = Flaky(fails, quiet), Flaky(fails, quiet)
        world.add_system(system, priority)
        world.add_system(begins, 500)  # counts the handler's steps, and raises in the same steps
        world.on_collision_begin(begins.handler)
        ends: list = []
        world.on_collision_end(lambda contact: ends.append((begins.step, contact.a, contact.b)))
        return world, system, begins, [made, ends]

    failing, _, failing_begins, (made, failing_ends) = build(quiet=False)
    twin, _, twin_begins, (_, twin_ends) = build(quiet=True)
    for step in range(12):
        twin.step(DT)
        try:
            failing.step(DT)
        except RuntimeError as error:
            assert str(error) == f"step {step}"
        else:
            assert step not in fails
        for entity in made:
            assert position(failing, entity) == position(twin, entity)
            assert velocity(failing, entity) == velocity(twin, entity)
    assert failing_begins.heard == twin_begins.heard and failing_ends == twin_ends

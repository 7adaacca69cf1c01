"""Timers: each fires on the step whose end first reaches its due time (n·dt >= due), repeats
keep their period without drift, cancelled ones stay silent, time stands still under another
scene, and bad arguments are named."""

import math

import pytest

from ecs import Game, Scene, Timers, World

DT = 1 / 60


def fired_steps(schedule, steps: int, dt: float = DT) -> list[int]:
    """The step numbers (1 = the first) at which ``schedule(timers, log)``'s timers fired."""
    scene, log, step = Scene(World()), [], [0]
    schedule(scene.timers, lambda: log.append(step[0]))
    for number in range(1, steps + 1):
        step[0] = number
        scene.update(dt)
    return log


def first_step_at_or_after(due: float, dt: float) -> int:
    """The first n with n·dt >= due (by exact arithmetic, not by the float sum)."""
    return math.ceil(round(due / dt, 9))


def test_after_fires_once_on_the_step_that_reaches_its_delay():
    assert fired_steps(lambda timers, hit: timers.after(0.5, hit), 100) == [first_step_at_or_after(0.5, DT)] == [30]
    assert fired_steps(lambda timers, hit: timers.after(0.51, hit), 100) == [31]  # 30 steps are 0.5 s
    assert fired_steps(lambda timers, hit: timers.after(0.0, hit), 3) == [1]


def test_every_keeps_its_period_on_steps_that_do_not_divide_it():
    # Due at 0.25, 0.5, 0.75 and 1.0 s; steps of 0.1 s end at 0.1, 0.2, ...: the 3rd, 5th, 8th, 10th.
    fired = fired_steps(lambda timers, hit: timers.every(0.25, hit), 10, dt=0.1)
    assert fired == [first_step_at_or_after(0.25 * k, 0.1) for k in (1, 2, 3, 4)] == [3, 5, 8, 10]


def test_every_with_times_stops_after_that_many():
    assert fired_steps(lambda timers, hit: timers.every(0.25, hit, times=3), 200) == [15, 30, 45]


def test_a_cancelled_timer_never_fires_and_leaves_the_pending_list():
    timers = Timers()
    hits = []
    keep = timers.after(0.2, lambda: hits.append("kept"))
    gone = timers.every(0.1, lambda: hits.append("gone"))
    gone.cancel()
    assert timers.pending == [keep]
    for _ in range(30):
        timers.advance(DT)
    assert hits == ["kept"] and timers.pending == []


def test_timers_due_in_one_step_fire_in_due_order_then_in_the_order_made():
    timers, order = Timers(), []
    timers.after(0.3, lambda: order.append("b"))
    timers.after(0.2, lambda: order.append("a"))
    timers.after(0.3, lambda: order.append("c"))
    timers.advance(0.5)
    assert order == ["a", "b", "c"]


def test_a_timer_made_by_a_callback_counts_from_when_its_maker_was_due():
    timers, when = Timers(), []
    timers.every(0.25, lambda: timers.after(0.1, lambda: when.append(timers.now)), times=2)
    for _ in range(10):
        timers.advance(0.1)
    # made at 0.25 and 0.5, due 0.35 and 0.6: seen at the ends of the 4th and 6th steps.
    assert when == pytest.approx([0.4, 0.6])


def test_time_stands_still_for_a_scene_under_another():
    level = Scene(World())
    hits = []
    level.timers.after(1.0, lambda: hits.append(True))
    game = Game(size=(40, 30), headless=True, scene=level)
    for _ in range(30):
        game.advance()
    game.push(Scene())
    for _ in range(120):
        game.advance()
    assert hits == [] and level.timers.now == pytest.approx(0.5)
    game.pop()
    for _ in range(30):
        game.advance()
    assert hits == [True]
    game.close()


@pytest.mark.parametrize("call, message", [
    (lambda timers: timers.after(-1, print), r"seconds must be in \[0, 1e\+06\] s"),
    (lambda timers: timers.every(0, print), "seconds must be >= 0.001 for a repeating timer"),
    (lambda timers: timers.every(1, print, times=0), "times must be an int >= 1"),
    (lambda timers: timers.after(1, "print"), "callback must be a function of no arguments"),
])
def test_bad_timers_are_refused_naming_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call(Timers())

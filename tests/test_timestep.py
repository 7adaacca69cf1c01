"""The loop's timing logic, driven by a fake clock."""

import pytest

from ecs import FixedTimestep, Game, World

STEP = 1 / 60


def test_zero_one_and_many_steps_per_frame():
    ts = FixedTimestep(STEP, max_steps=10)
    assert ts.advance(STEP / 2) == 0
    assert ts.alpha == pytest.approx(0.5)
    assert ts.advance(STEP / 2) == 1  # the two halves make one step
    assert ts.alpha == pytest.approx(0, abs=1e-9)
    assert ts.advance(3.25 * STEP) == 3
    assert ts.alpha == pytest.approx(0.25)


def test_cap_drops_excess_time_instead_of_spiralling():
    ts = FixedTimestep(STEP, max_steps=5)
    assert ts.advance(1.0) == 5  # a one-second hitch: 60 steps owed, 5 run
    assert 0 <= ts.alpha < 1
    assert ts.dropped == pytest.approx(55 * STEP)
    assert ts.advance(STEP) == 1  # and the next normal frame is normal again


@pytest.mark.parametrize("frames", [[0.001] * 50, [0.05, 0.0, 0.017, 0.2, 0.0163, 0.5], [STEP] * 30])
def test_alpha_stays_in_unit_interval(frames):
    ts = FixedTimestep(STEP, max_steps=4)
    for elapsed in frames:
        ts.advance(elapsed)
        assert 0 <= ts.alpha < 1


def test_bad_settings_raise():
    with pytest.raises(ValueError, match="step"):
        FixedTimestep(0)
    with pytest.raises(ValueError, match="max_steps"):
        FixedTimestep(STEP, max_steps=0)
    with pytest.raises(ValueError, match="elapsed"):
        FixedTimestep(STEP).advance(-1)


def test_game_runs_physics_at_the_fixed_rate_with_a_fake_clock():
    now = [0.0]
    game = Game(World(), size=(64, 48), clock=lambda: now[0])
    calls = []

    class Count:
        def process(self, dt):
            calls.append(dt)

    game.world.add_system(Count(), priority=-1)
    for elapsed in (0.0, STEP * 0.4, STEP * 0.7, STEP * 2, 2.0):
        game.frame(elapsed)
    assert calls == [STEP] * (0 + 0 + 1 + 2 + game.timestep.max_steps)
    assert game.frames == 5
    assert 0 <= game.timestep.alpha < 1

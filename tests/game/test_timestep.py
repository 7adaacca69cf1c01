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


class FakeClock:
    """Real time for the loop: each reading costs ``read`` seconds (as a
    real clock's call takes a microsecond or so) and each physics step
    ``work`` seconds."""

    def __init__(self, read: float, work: float) -> None:
        self.now, self.read, self.work = 0.0, read, work

    def __call__(self) -> float:
        self.now += self.read
        return self.now

    def process(self, dt: float) -> None:  # a system: the step's work
        self.now += self.work


@pytest.mark.parametrize("frames_per_call", [1, 2, 7])
def test_fps_is_frames_over_their_real_time_when_run_is_called_a_few_frames_at_a_time(frames_per_call):
    # Each frame takes one reading (1 µs) and one step (1/60 s) of real
    # time, so frames begin 1/60 + 1e-6 s apart: fps = 1 / (1/60 + 1e-6)
    # = 59.996. A clock restarted by each call of run would time the first
    # frame of each call by one reading alone: 1 / 1e-6 = 1,000,000 fps.
    clock = FakeClock(read=1e-6, work=STEP)
    game = Game(World(), size=(64, 48), clock=clock, headless=True)
    game.world.add_system(clock)
    expected = 1 / (STEP + 1e-6)
    for _ in range(120 // frames_per_call):
        game.run(frames=frames_per_call)
        assert game.fps == pytest.approx(expected, rel=1e-6) or game.frames == 1
    assert game.fps == pytest.approx(expected, rel=1e-6)
    game.close()


def test_fps_forgets_a_pause_between_calls_of_run_within_a_second():
    # A game paused for 10 s between two calls of run (a menu of its own):
    # fps counts the frames begun in the last second over the time they
    # took: the first frame after the pause begins 1/60 s (the last frame's
    # step) + 10 s after the last one, 1 / (10 + 1/60) = 0.0998 fps; at the next, the
    # frame before the pause is over a second old and it reads 60 again.
    clock = FakeClock(read=0.0, work=STEP)
    game = Game(World(), size=(64, 48), clock=clock, headless=True)
    game.world.add_system(clock)
    game.run(frames=120)
    assert game.fps == pytest.approx(60)
    clock.now += 10.0
    game.run(frames=1)
    assert game.fps == pytest.approx(1 / (10.0 + STEP))
    game.run(frames=1)
    assert game.fps == pytest.approx(60)
    game.close()


def test_physics_keeps_real_time_when_run_is_called_a_frame_at_a_time():
    # Windowed (not headless), each frame buys the steps its real time is
    # worth. With a frame a call of run, each frame but the first (which
    # has no frame before it) is worth one reading (1 µs) plus the previous
    # frame's drawing (1/60 s): one step each, 9 in 10 frames. A clock
    # restarted by each call would give each frame 1 µs: no step ever.
    clock = FakeClock(read=1e-6, work=0.0)

    class Drawing:
        def process(self, surface, alpha):
            clock.now += STEP

    game = Game(World(), size=(64, 48), clock=clock, fps=0)  # (fps=0: pygame waits for nothing)
    game.add_draw_system(Drawing())
    for _ in range(10):
        game.run(frames=1)
    assert (game.frames, game.steps) == (10, 9)
    game.close()

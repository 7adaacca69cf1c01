"""Particles: counts and lifetimes on the fixed step, motion from semi-implicit Euler, bounces
off STATIC geometry, capacity, the seed, drawing through the camera, snapshots, bad values."""

import numpy as np
import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Collider, ColliderType, Emitter, Transform
from ecs import Scene, World

DT = 1 / 60


def scene_with(emitter: Emitter, at=(100.0, 100.0)) -> tuple[Scene, Emitter]:
    scene = Scene(World())
    scene.world.create_entity(Transform(at), emitter)
    return scene, emitter


def live_counts(scene: Scene, emitter: Emitter, steps: int) -> list[int]:
    """The emitter's live particles after each of ``steps`` steps."""
    counts = []
    for _ in range(steps):
        scene.update(DT)
        counts.append(emitter.particles.count)
    return counts


def test_a_burst_lives_its_lifetime_to_the_step():
    scene, emitter = scene_with(Emitter(burst=100, lifetime=0.5))
    counts = live_counts(scene, emitter, 32)
    # Born at age 0 in step 1, 1/60 s older each step: 0.5 s old at step 31, when they end.
    assert counts[:30] == [100] * 30 and counts[30:] == [0, 0]
    assert emitter.burst == 0


def test_a_rate_carries_its_fractions_from_step_to_step():
    scene, emitter = scene_with(Emitter(rate=90, lifetime=100))
    counts = live_counts(scene, emitter, 60)
    # 1.5 a step: 1, 3, 4, 6, ...; 90 after one second.
    assert counts[:4] == [1, 3, 4, 6] and counts[-1] == 90
    emitter.active = False
    scene.update(DT)
    assert emitter.particles.count == 90


def test_particles_move_by_semi_implicit_euler():
    scene, emitter = scene_with(Emitter(burst=1, speed=120, angle=0, spread=0, lifetime=10,
                                        gravity=(0, 600)), at=(10, 20))
    for _ in range(11):
        scene.update(DT)
    # Born at (10, 20) with (120, 0) px/s in step 1, moved in the 10 steps after it:
    # x = 10 + 120·10·dt; y = 20 + g·dt²·n(n+1)/2 with n = 10.
    particles = emitter.particles
    assert particles.live("x")[0] == pytest.approx(10 + 120 * 10 * DT)
    assert particles.live("y")[0] == pytest.approx(20 + 600 * DT * DT * 10 * 11 / 2)
    assert particles.live("vy")[0] == pytest.approx(600 * 10 * DT)


def test_spread_area_speed_and_lifetime_draws_stay_within_their_ranges():
    scene, emitter = scene_with(Emitter(burst=2000, speed=(50, 80), angle=-90, spread=60, lifetime=(1, 2),
                                        area=(40, 10), offset=(0, -5)))
    scene.update(DT)
    p = emitter.particles
    x, y, vx, vy, life = (p.live(name) for name in ("x", "y", "vx", "vy", "life"))
    assert np.all((80 <= x) & (x <= 120)) and np.all((90 <= y) & (y <= 100))  # 40×10 centred at (100, 95)
    speed, heading = np.hypot(vx, vy), np.degrees(np.arctan2(vy, vx))
    assert np.all((50 - 1e-9 <= speed) & (speed <= 80 + 1e-9))
    assert np.all((-120 - 1e-9 <= heading) & (heading <= -60 + 1e-9))  # -90 ± 30: upward
    assert np.all((1 <= life) & (life <= 2))
    assert x.std() > 5 and life.std() > 0.1  # spread out, not all on one value


def test_capacity_caps_the_live_particles():
    scene, emitter = scene_with(Emitter(burst=100, capacity=30, lifetime=10))
    scene.update(DT)
    assert emitter.particles.count == 30
    emitter.capacity = 10
    assert emitter.particles.count == 10


def test_the_seed_decides_every_draw():
    def positions(seed: int) -> bytes:
        scene, emitter = scene_with(Emitter(rate=500, lifetime=(0.2, 1), seed=seed, gravity=(0, 100)))
        for _ in range(40):
            scene.update(DT)
        return emitter.particles.live("x").tobytes() + emitter.particles.live("y").tobytes()

    assert positions(1) == positions(1) != positions(2)


def test_particles_bounce_off_static_geometry_and_never_go_through_it():
    scene, emitter = scene_with(Emitter(burst=200, speed=(100, 400), angle=90, spread=120, lifetime=3,
                                        gravity=(0, 980), bounce=0.5), at=(200, 50))
    # Wide enough that none flies past its ends in two seconds (at most 400·sin 60° px/s sideways).
    scene.world.create_entity(Transform((-1000, 150)), Collider((2400, 20), type=ColliderType.STATIC))
    lowest, first_speeds = [], None
    for _ in range(120):
        scene.update(DT)
        y, vy = emitter.particles.live("y"), emitter.particles.live("vy")
        lowest.append(float(y.max()))
        if first_speeds is None and np.any(y == 150.0):
            first_speeds = vy[y == 150.0].copy()
    assert max(lowest) <= 150.0  # on the floor's top face at most, never inside or under it
    assert first_speeds is not None and np.all(first_speeds <= 0)  # sent back up
    # A particle that lands leaves with half its speed: none faster than half of the fastest
    # possible landing, 400 px/s straight down after a 100 px fall, plus the g·dt a step of
    # semi-implicit Euler adds before it moves.
    top_landing = np.sqrt(400 ** 2 + 2 * 980 * 100) + 980 * DT
    assert np.all(-first_speeds <= 0.5 * top_landing + 1e-9)


def test_the_renderer_draws_each_particle_through_the_camera_in_its_colour_over_life():
    scene, _ = scene_with(Emitter(burst=1, speed=0, lifetime=1, size=3, colors=((255, 0, 0), (0, 0, 255)),
                                  alpha=1.0), at=(60, 20))
    scene.camera.position.update(50, 0)
    scene.camera.previous_position.update(50, 0)
    scene.camera.zoom = 2.0
    scene.update(DT)
    surface = pygame.Surface((100, 100))
    scene.draw(surface, 1.0)
    # World (60, 20) is screen ((60 − 50)·2, 20·2) = (20, 40); 3 px zoomed 2× is a 6 px square
    # centred there, young: the first shade, 1/32 of the way from red to blue.
    assert surface.get_at((20, 40))[:3] == (round(255 * 31 / 32), 0, round(255 / 32))
    assert surface.get_at((17, 37))[:3] != (0, 0, 0) and surface.get_at((23, 43))[:3] == (0, 0, 0)
    assert scene.particles.drawn == 1


def test_ten_thousand_particles_in_view_are_all_drawn():
    scene, emitter = scene_with(Emitter(burst=10_000, speed=(0, 50), lifetime=5, area=(300, 200)), at=(160, 120))
    scene.update(DT)
    scene.draw(pygame.Surface((320, 240)), 1.0)
    assert emitter.particles.count == 10_000 and scene.particles.drawn == 10_000


def test_a_snapshot_keeps_the_particles_and_their_random_draws():
    scene, emitter = scene_with(Emitter(rate=200, lifetime=(0.1, 0.6), gravity=(0, 300)))
    for _ in range(20):
        scene.update(DT)
    data = scene.world.snapshot()

    def run() -> bytes:
        for _ in range(30):
            scene.update(DT)
        (_, now), = scene.world.get_component(Emitter)
        return now.particles.live("x").tobytes() + now.particles.live("y").tobytes()

    straight = run()
    scene.world.restore(data)
    assert run() == straight


@pytest.mark.parametrize("options, message", [
    ({"rate": -1}, "rate must be in"),
    ({"burst": 1.5}, "burst must be an int"),
    ({"lifetime": (2, 1)}, r"lifetime must be \(least, most\) with least <= most"),
    ({"lifetime": 0}, r"lifetime\[0\] must be in"),
    ({"spread": 400}, "spread must be in"),
    ({"colors": (255, 0)}, r"colors\[0\] must be \(r, g, b\)"),
    ({"alpha": (0, 2)}, r"alpha\[1\] must be in \[0, 1\]"),
    ({"bounce": 2}, "bounce must be in"),
    ({"capacity": 0}, "capacity must be an int >= 1"),
    ({"capacity": 2_000_000}, "capacity must be an int in"),
    ({"area": (-1, 0)}, r"area.x must be >= 0"),
])
def test_bad_emitters_are_refused_naming_the_field(options, message):
    with pytest.raises(ValueError, match=message):
        Emitter(**options)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), keep=st.floats(0, 1), gravity=st.floats(-980, 980),
       speed=st.floats(0, 600), x=st.floats(30, 370), y=st.floats(30, 270))
def test_no_particle_leaves_a_closed_box_whose_walls_are_thicker_than_its_step(seed, keep, gravity, speed, x, y):
    scene, emitter = scene_with(Emitter(burst=300, speed=(0, speed), lifetime=10, gravity=(gravity / 3, gravity),
                                        bounce=keep, seed=seed), at=(x, y))
    for left, top, w, h in ((-20, -20, 440, 20), (-20, 300, 440, 20), (-20, 0, 20, 300), (400, 0, 20, 300)):
        scene.world.create_entity(Transform((left, top)), Collider((w, h), type=ColliderType.STATIC))
    for _ in range(90):  # 600 px/s plus 1.5 s of gravity: under 20 px a step
        scene.update(DT)
        px, py = emitter.particles.live("x"), emitter.particles.live("y")
        assert np.all((0 <= px) & (px <= 400) & (0 <= py) & (py <= 300))
        assert np.all(np.isfinite(px)) and np.all(np.isfinite(py))


def test_a_snapshot_keeps_only_the_live_particles():
    scene, _ = scene_with(Emitter(burst=10, capacity=100_000, lifetime=10))
    scene.update(DT)
    # 100,000 places × 6 columns × 8 bytes would be 4.8 MB; ten live particles are a few hundred bytes.
    assert len(scene.world.snapshot()) < 60_000


def test_setting_the_seed_starts_the_draws_over_from_it():
    def positions(emitter: Emitter) -> bytes:  # (all born at the emitter: their velocities differ)
        scene, _ = scene_with(emitter)
        scene.update(DT)
        return emitter.particles.live("vx").tobytes()

    reseeded = Emitter(burst=50, seed=1)
    reseeded.seed = 2
    assert positions(reseeded) == positions(Emitter(burst=50, seed=2)) != positions(Emitter(burst=50, seed=1))

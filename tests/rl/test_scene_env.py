"""SceneEnv: a scene as a Gymnasium environment. Actions hold keys, episodes end when the
physics says so, pictures show what is where, and bad arguments are named."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pygame
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium import spaces  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from components import Physics, Sprite, Transform  # noqa: E402
from ecs import Input, Scene, World  # noqa: E402
from ecs.env import SceneEnv  # noqa: E402

G = 900.0  # px/s²
DT = 1 / 60
DROP = 100.0  # px


class Presses:
    """A system logging, each physics step, the keys just pressed and held."""

    def __init__(self, world: World) -> None:
        self.world, self.log = world, []

    def process(self, dt: float) -> None:
        keys = self.world.resource(Input)
        self.log.append((set(keys.just_pressed), set(keys.held), set(keys.just_released)))


class Drop(Scene):
    """A ball let go from rest under gravity G, and a system logging the keys."""

    def __init__(self, seed: int) -> None:
        super().__init__(World(gravity=(0, G)))
        self.ball = self.world.create_entity(Transform((20, 0)), Physics(), Sprite((255, 0, 0), size=(10, 10)))
        self.presses = Presses(self.world)
        self.world.add_system(self.presses, priority=500)

    def fallen(self) -> float:
        return self.world.component_for_entity(self.ball, Transform).position.y


def drop_env(**options) -> SceneEnv:
    options = {"keys": [(), (pygame.K_SPACE,), (pygame.K_LEFT, pygame.K_SPACE)], **options}
    return SceneEnv(Drop, observe=lambda scene: np.array([scene.fallen()], np.float32),
                    observation_space=spaces.Box(-1e6, 1e6, (1,), np.float32), **options)


def steps_to_fall(height: float) -> int:
    """Physics steps until a body let go from rest has fallen ``height``: semi-implicit Euler
    puts it at g·dt²·n(n+1)/2 after n steps."""
    n = math.ceil((-1 + math.sqrt(1 + 8 * height / (G * DT * DT))) / 2)
    return n if G * DT * DT * n * (n + 1) / 2 >= height else n + 1


@pytest.mark.parametrize("skip", [1, 4, 7])
def test_the_episode_ends_at_the_physics_step_the_ball_has_fallen_the_drop(skip: int) -> None:
    env = drop_env(terminated=lambda scene: scene.fallen() >= DROP, frame_skip=skip)
    env.reset(seed=0)
    steps = steps_to_fall(DROP)
    actions = 0
    while True:
        observation, _, terminated, truncated, info = env.step(0)
        actions += 1
        if terminated:
            break
        assert actions < steps
    assert (actions, info["steps"]) == (math.ceil(steps / skip), steps)
    assert observation[0] == pytest.approx(G * DT * DT * steps * (steps + 1) / 2)


def test_a_score_rewards_its_rise_over_the_actions_steps() -> None:
    env = drop_env(score=lambda scene: scene.fallen(), frame_skip=3)
    env.reset(seed=0)
    total = 0.0
    for action in range(5):
        _, reward, *_ = env.step(0)
        n = 3 * (action + 1)
        total += reward
        assert total == pytest.approx(G * DT * DT * n * (n + 1) / 2)  # the rises add up to the fall


def test_an_episode_rewound_by_a_world_snapshot_rewards_the_rise_from_the_score_brought_back() -> None:
    # The score (the fall) after n physics steps is G·dt²·n(n+1)/2; rewound to 2 actions (6
    # steps), the next action's reward is the rise from 6 steps to 9, as it was the first time.
    def fallen_after(n: int) -> float:
        return G * DT * DT * n * (n + 1) / 2

    env = drop_env(score=lambda scene: scene.fallen(), frame_skip=3)
    env.reset(seed=0)
    env.step(0)
    env.step(0)
    saved = env.scene.world.snapshot()
    first = env.step(0)[1]
    env.step(0)
    env.scene.world.restore(saved)
    again = env.step(0)[1]
    assert first == again == pytest.approx(fallen_after(9) - fallen_after(6))


def test_reward_is_summed_over_the_frame_skip() -> None:
    env = drop_env(reward=lambda scene: 1.0, frame_skip=5)
    env.reset(seed=0)
    assert env.step(0)[1] == 5.0


def test_a_key_held_in_actions_in_a_row_is_pressed_once_and_released_when_left_out() -> None:
    env = drop_env(frame_skip=2)
    env.reset(seed=0)
    for action in (1, 2, 0):
        env.step(action)
    log = env.scene.presses.log
    space, left = pygame.K_SPACE, pygame.K_LEFT
    assert log == [({space}, {space}, set()), (set(), {space}, set()),
                   ({left}, {space, left}, set()), (set(), {space, left}, set()),
                   (set(), set(), {space, left}), (set(), set(), set())]


def test_the_picture_shows_the_sprite_where_it_is_scaled_to_the_observation() -> None:
    env = SceneEnv(Drop, keys=[()], size=(320, 240), pixels=(160, 120), render_mode="rgb_array")
    observation, _ = env.reset(seed=0)
    assert observation.shape == (120, 160, 3) and observation.dtype == np.uint8
    assert tuple(observation[2, 12]) == (255, 0, 0)  # the ball's 10 px square at (20, 0) on screen, halved
    assert tuple(observation[2, 5]) != (255, 0, 0)
    frame = env.render()
    assert frame.shape == (240, 320, 3) and tuple(frame[5, 25]) == (255, 0, 0)


def test_the_same_seed_plays_the_same_episode_and_reset_starts_a_new_world() -> None:
    env = drop_env(score=lambda scene: scene.fallen())
    first = [env.reset(seed=3)[0]] + [env.step(1)[0] for _ in range(10)]
    world = env.scene.world
    second = [env.reset(seed=3)[0]] + [env.step(1)[0] for _ in range(10)]
    assert np.array_equal(np.array(first), np.array(second))
    assert world.closed and not env.scene.world.closed


def pictures(render_mode: str | None = None) -> SceneEnv:
    return SceneEnv(Drop, keys=[(), (pygame.K_UP,)], pixels=(64, 48), render_mode=render_mode)


@pytest.mark.parametrize("entry", [drop_env, pictures])
def test_check_env_finds_nothing_to_warn_about(entry) -> None:
    name = f"test_scene_env/{entry.__name__}-v0"
    if name not in gymnasium.registry:
        gymnasium.register(name, entry_point=entry)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(name, render_mode="rgb_array").unwrapped)


def test_step_before_reset_and_an_action_outside_the_space_are_refused() -> None:
    env = drop_env()
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action 3 is not in the action space"):
        env.step(3)


def test_render_without_a_render_mode_says_how_to_get_a_picture() -> None:
    env = drop_env()
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode='rgb_array'"):
        assert env.render() is None


@pytest.mark.parametrize("options, message", [
    ({}, "either keys"),
    ({"keys": [()], "act": lambda scene, action: None}, "either keys"),
    ({"act": lambda scene, action: None}, "action_space"),
    ({"keys": []}, "non-empty list of key sets"),
    ({"keys": [("a",)]}, r"keys\[0\] must hold pygame key codes"),
    ({"keys": [()], "observe": lambda scene: np.zeros(1)}, "observation_space"),
    ({"keys": [()], "observation_space": spaces.Box(0, 1, (1,))}, "observation_space goes with observe"),
    ({"keys": [()], "size": (0, 10)}, r"size\[0\] must be an int >= 1"),
    ({"keys": [()], "pixels": (10.5, 10)}, r"pixels\[0\] must be an int >= 1"),
    ({"keys": [()], "size": 320}, r"size must be \(width, height\)"),
    ({"keys": [()], "frame_skip": 0}, "frame_skip"),
    ({"keys": [()], "render_mode": "ansi"}, "render_mode"),
    ({"keys": [()], "reward": lambda s: 0.0, "score": lambda s: 0.0}, "a reward or a score"),
    ({"keys": [()], "terminated": True}, "terminated must be a function"),
])
def test_bad_arguments_are_named(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SceneEnv(Drop, **options)


def test_an_observation_of_the_wrong_shape_and_a_factory_that_makes_no_scene_are_named() -> None:
    env = SceneEnv(Drop, keys=[()], observe=lambda scene: np.zeros(3), observation_space=spaces.Box(0, 1, (2,)))
    with pytest.raises(ValueError, match=r"observe returned an array of shape \(3,\)"):
        env.reset(seed=0)
    with pytest.raises(ValueError, match="make_scene must return a Scene"):
        SceneEnv(lambda seed: World(), keys=[()]).reset(seed=0)


def test_observe_with_pixels_is_refused() -> None:
    # pixels used to be ignored silently beside observe.
    with pytest.raises(ValueError, match="pixels goes with pictures"):
        drop_env(pixels=(64, 48))


@pytest.mark.parametrize("value, shown", [(2e6, "2000000.0"), (float("nan"), "nan")])
def test_an_observation_outside_its_space_is_refused_naming_the_value_and_index(value: float, shown: str) -> None:
    # Gymnasium's contract: observations lie in observation_space. These used to pass silently.
    env = SceneEnv(Drop, keys=[()], observe=lambda scene: np.array([0.0, value], np.float32),
                   observation_space=spaces.Box(-1e6, 1e6, (2,), np.float32))
    with pytest.raises(ValueError, match=rf"outside the observation space .*\[{shown}\] at flat index \[1\]"):
        env.reset(seed=0)


@pytest.mark.parametrize("result, message", [(float("nan"), "reward returned nan"),
                                             (float("inf"), "reward returned inf"),
                                             ("lots", "reward must return a number")])
def test_a_reward_that_is_not_a_finite_number_is_refused(result: object, message: str) -> None:
    env = drop_env(reward=lambda scene: result)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=message):
        env.step(0)


def test_a_box_action_is_taken_in_any_float_dtype_within_bounds_and_refused_outside_naming_them() -> None:
    taken = []
    env = SceneEnv(Drop, act=lambda scene, action: taken.append(action),
                   action_space=spaces.Box(-1.0, 1.0, (1,), np.float32))
    env.reset(seed=0)
    env.step(np.array([0.5]))  # float64, as NumPy makes it: it used to be refused, naming no reason
    assert taken[-1].dtype == np.float32 and taken[-1][0] == 0.5
    with pytest.raises(ValueError, match=r"outside the action space's bounds .*ClipAction"):
        env.step(np.array([1.5]))
    with pytest.raises(ValueError, match=r"has shape \(2,\); the action space .* takes \(1,\)"):
        env.step([0.5, 0.5])


def test_a_ready_environment_refuses_an_obs_it_does_not_have() -> None:
    pytest.importorskip("examples.envs")
    from examples.envs import adventure_env, shooter_env

    for make in (adventure_env, shooter_env):
        with pytest.raises(ValueError, match="obs must be 'vector' or 'pixels', got 'Vector'"):
            make(obs="Vector")  # a typo used to give pixels, silently

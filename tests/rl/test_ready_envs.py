"""The adventure and the shooter as registered environments: Gymnasium's checker finds nothing,
a seed fixes an episode in this process and in others (Gymnasium's vector environments, a
fresh interpreter), and the recorded run of the level, replayed as actions, reaches the flag."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import examples.envs  # noqa: E402,F401  (registers the environments)
from examples.adventure.demo import RECORDING, script  # noqa: E402
from examples.adventure.level import Progress  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["ecs_arcade/Adventure-v0", "ecs_arcade/Shooter-v0"]


def episode(name: str, seed: int, actions: int, **options) -> str:
    """SHA-256 of an episode's observations, rewards and ends under random actions seeded by ``seed``."""
    env = gymnasium.make(name, **options)
    digest = hashlib.sha256(env.reset(seed=seed)[0].tobytes())
    env.action_space.seed(seed)
    for _ in range(actions):
        observation, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        digest.update(observation.tobytes() + np.float64(reward).tobytes() + bytes([terminated, truncated]))
    env.close()
    return digest.hexdigest()


@pytest.mark.parametrize("obs", ["vector", "pixels"])
@pytest.mark.parametrize("name", NAMES)
def test_check_env_finds_nothing_to_warn_about(name: str, obs: str) -> None:
    env = gymnasium.make(name, obs=obs, render_mode="rgb_array")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("name", NAMES)
def test_the_same_seed_plays_the_same_episode_here_and_in_a_fresh_process(name: str) -> None:
    here = episode(name, 7, 40)
    assert episode(name, 7, 40) == here
    code = f"import examples.envs, tests.rl.test_ready_envs as t; print(t.episode({name!r}, 7, 40))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split()[-1] == here


def test_the_seed_places_the_shooters_enemies() -> None:
    env = gymnasium.make("ecs_arcade/Shooter-v0")
    first, second = env.reset(seed=1)[0], env.reset(seed=2)[0]
    assert not np.array_equal(first[5:29], second[5:29])  # the eight nearest enemies' offsets
    assert np.array_equal(first[:5], second[:5])  # the ship starts in the middle either way


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("name", NAMES)
def test_vector_environments_step_each_copy_as_the_environment_alone(name: str, mode: str) -> None:
    envs = gymnasium.make_vec(name, num_envs=2, vectorization_mode=mode)
    alone = [gymnasium.make(name) for _ in range(2)]
    observations, _ = envs.reset(seed=[11, 12])
    expected = [env.reset(seed=seed)[0] for env, seed in zip(alone, (11, 12))]
    assert np.array_equal(observations, np.stack(expected))
    envs.action_space.seed(3)
    for _ in range(15):
        actions = envs.action_space.sample()
        observations, rewards, *_ = envs.step(actions)
        steps = [env.step(action) for env, action in zip(alone, actions)]
        assert np.array_equal(observations, np.stack([step[0] for step in steps]))
        assert np.array_equal(rewards, [step[1] for step in steps])
    envs.close()


def test_the_recorded_run_replayed_as_actions_reaches_the_flag() -> None:
    """The demo's key presses (``assets/demo.json``, made by a bot playing the level) reach the
    flag in the game; given one physics step per action they must reach it in the environment."""
    import json

    presses = script([(step, key, down) for step, key, down in json.loads(RECORDING.read_text())["level"]])
    env = gymnasium.make("ecs_arcade/Adventure-v0", frame_skip=1, max_episode_steps=3600)
    keys = env.unwrapped.keys
    env.reset(seed=0)
    held: set[int] = set()
    total, terminated, action = 0.0, False, 0
    while not terminated and action < 3600:
        # A key the demo presses during physics step s is seen by the game at step s + 1.
        for key, down in presses.get(action - 1, []):
            (held.add if down else held.discard)(key)
        _, reward, terminated, truncated, _ = env.step(keys.index(frozenset(held)))
        total, action = total + reward, action + 1
        assert not truncated
    progress = env.unwrapped.scene.world.resource(Progress)
    assert terminated and progress.won
    assert total == pytest.approx(progress.coins + 10 - 3 * (3 - progress.lives))
    assert progress.coins > 0


def test_the_shooter_ends_with_the_action_that_shoots_the_last_enemy() -> None:
    # The last enemy shot is deleted as the next physics step begins: the episode used to end
    # one action later, with a reward of 0, after an action rewarded 1 whose observation still
    # showed the enemy.
    from examples.envs import shooter_policy

    env = gymnasium.make("ecs_arcade/Shooter-v0", frame_skip=1)  # each action's last step may shoot one
    observation, _ = env.reset(seed=0)
    kills = 0
    for _ in range(5000):
        observation, reward, terminated, truncated, _ = env.step(shooter_policy(observation[None, :],
                                                                                env.action_space)[0])
        kills += reward > 0
        if terminated or truncated:
            break
    assert terminated and reward == 1.0 and kills == 8 and observation[29] == 0.0  # enemies left / 8
    env.close()


def test_the_adventure_s_ends_are_walls_a_policy_cannot_walk_off() -> None:
    # The map's left edge had nothing: holding LEFT from the start walked the hero off the
    # level into the void, three lives gone within about 40 actions.
    from components import Transform

    env = gymnasium.make("ecs_arcade/Adventure-v0")
    env.reset(seed=0)
    scene = env.unwrapped.scene
    for _ in range(200):
        _, reward, terminated, truncated, _ = env.step(1)  # LEFT
        assert reward == 0.0 and not terminated
    hero = scene.world.component_for_entity(scene.hero, Transform).position
    assert hero.x == 0.0 and scene.world.resource(Progress).lives == 3  # against the wall's face at x = 0
    env.close()

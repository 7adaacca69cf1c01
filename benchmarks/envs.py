"""Environment throughput: the adventure and the shooter environments against PettingZoo's pistonball.

Environment steps per second (one action each; ours take four physics steps per action,
pistonball one cycle of its own) under random actions, episodes restarted as they end:

- **one process**: one environment stepped in a loop (the rate per core);
- **async ×2**: Gymnasium's ``AsyncVectorEnv``, two copies in two processes;
- **Ray ×1, Ray ×2**: ``ecs.rollouts.collect`` with one copy in each of 1 and 2 Ray actors on a
  local cluster; the rate is the environment steps over the slowest actor's stepping time
  (Ray's start-up and the actors' imports are left out: they are paid once per run).

For ours, the vector observations (32 and 31 floats) and the pictures (160×96 and 160×120 px);
pistonball (``pettingzoo.butterfly.pistonball_v6``, pygame + pymunk) as it comes: 20 pistons,
each observing 457×120 RGB px, wrapped as one Gymnasium environment (every piston's action in,
every observation out, the pistons' rewards summed) so that it is stepped the same way. Each
configuration runs ``--rounds`` times, interleaved, and the best is kept; compare the rates
within one run. The scaling column is Ray ×2 over Ray ×1.

    pip install -e '.[bench,ray]'
    python -m benchmarks.envs
    python -m benchmarks.envs --steps 300 --rounds 1 --no-ray
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402

import examples.envs  # noqa: E402,F401  (registers ours)

PISTONBALL = "benchmarks.envs:pistonball-v0"


class Pistonball(gymnasium.Env[np.ndarray[Any, Any], np.ndarray[Any, Any]]):
    """PettingZoo's pistonball as one Gymnasium environment: an action per piston in, every
    piston's picture out (stacked), their rewards summed, the episode over when it is over
    for any piston."""

    def __init__(self) -> None:
        from pettingzoo.butterfly import pistonball_v6

        self.game = pistonball_v6.parallel_env()
        self.pistons = list(self.game.possible_agents)
        shape = self.game.observation_space(self.pistons[0]).shape
        self.observation_space = spaces.Box(0, 255, (len(self.pistons), *shape), np.uint8)
        self.action_space = spaces.Box(-1, 1, (len(self.pistons),), np.float32)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        super().reset(seed=seed)
        seen, _ = self.game.reset(seed=seed)
        return np.stack([seen[piston] for piston in self.pistons]), {}

    def step(self, action: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]:
        moves = {piston: action[i:i + 1] for i, piston in enumerate(self.pistons) if piston in self.game.agents}
        seen, rewards, ended, cut, _ = self.game.step(moves)
        observation = np.stack([seen.get(piston, np.zeros(self.observation_space.shape[1:], np.uint8))
                                for piston in self.pistons])
        return observation, float(sum(rewards.values())), any(ended.values()), any(cut.values()), {}


if "pistonball-v0" not in gymnasium.registry:
    gymnasium.register("pistonball-v0", entry_point=Pistonball, max_episode_steps=125)

#: (label, environment id, options)
CONFIGS = [
    ("adventure, vector", "examples.envs:ecs_arcade/Adventure-v0", {}),
    ("adventure, pixels", "examples.envs:ecs_arcade/Adventure-v0", {"obs": "pixels"}),
    ("shooter, vector", "examples.envs:ecs_arcade/Shooter-v0", {}),
    ("shooter, pixels", "examples.envs:ecs_arcade/Shooter-v0", {"obs": "pixels"}),
    ("pistonball", PISTONBALL, {}),
]


def one_process(env_id: str, options: dict[str, Any], steps: int) -> float:
    """Steps per second of one environment stepped here."""
    env = gymnasium.make(env_id, **options)
    env.reset(seed=0)
    env.action_space.seed(0)
    start = time.perf_counter()
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
    rate = steps / (time.perf_counter() - start)
    env.close()
    return rate


def async_pair(env_id: str, options: dict[str, Any], steps: int) -> float:
    """Steps per second of ``AsyncVectorEnv`` with two copies (each of ``steps`` steps)."""
    envs = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="async", **options)
    envs.reset(seed=0)
    envs.action_space.seed(0)
    envs.step(envs.action_space.sample())  # the workers' first step, imports done
    start = time.perf_counter()
    for _ in range(steps):
        envs.step(envs.action_space.sample())
    rate = 2 * steps / (time.perf_counter() - start)
    envs.close()
    return rate


def on_ray(workers: int) -> Callable[[str, dict[str, Any], int], float]:
    def rate(env_id: str, options: dict[str, Any], steps: int) -> float:
        from ecs.rollouts import collect

        rollouts = collect(env_id, workers=workers, steps=steps, env_options=options)
        return sum(rollout.env_steps for rollout in rollouts) / max(rollout.seconds for rollout in rollouts)
    return rate


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000, help="environment steps per measurement")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args(argv)
    ways: dict[str, Callable[[str, dict[str, Any], int], float]] = {
        "one process": one_process, "async ×2": async_pair}
    if not args.no_ray:
        import ray

        ray.init(num_cpus=2, log_to_driver=False)
        ways |= {"Ray ×1": on_ray(1), "Ray ×2": on_ray(2)}
    best: dict[tuple[str, str], float] = {}
    for _ in range(args.rounds):
        for label, env_id, options in CONFIGS:
            for way, measure in ways.items():
                rate = measure(env_id, options, args.steps)
                best[label, way] = max(best.get((label, way), 0.0), rate)
                print(f"  {label:<20} {way:<12} {rate:9,.0f} steps/s", flush=True)
    columns = list(ways) + (["Ray ×2 / ×1"] if "Ray ×2" in ways else [])
    print("\n| environment | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for label, _, _ in CONFIGS:
        cells = [f"{best[label, way]:,.0f}" for way in ways]
        if "Ray ×2" in ways:
            cells.append(f"{best[label, 'Ray ×2'] / best[label, 'Ray ×1']:.2f}")
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

"""Rollouts: many copies of an environment stepped in Ray actors, their experience collected.

Needs the ``ray`` extra (``pip install -e .[ray]``: ``gymnasium`` and ``ray``). A
``RolloutWorker`` holds ``envs`` copies of a registered environment in one process (Gymnasium's
``SyncVectorEnv``) and steps them with a policy; ``collect`` makes one worker per Ray actor and
gathers what they did. Ray does the spreading: on one machine ``ray.init()`` starts a local
cluster with a worker process per core; on many, ``address`` joins a running cluster (``ray
start --head`` on one machine, ``ray start --address=...`` on the others) and the same call
spreads the actors over every machine's cores.

Worker ``i`` seeds its environments with ``seed + i·envs`` onwards and its policy's random
actions with the first of them, so what a worker collects depends on the seed and its index
only, never on which process or machine ran it or in what order.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import ray
from numpy.typing import NDArray

from components._checks import whole_number

__all__ = ["Policy", "Rollout", "RolloutWorker", "collect"]

#: A policy: the vector environment's observations (one row per copy) and its action space in,
#: the actions (one per copy) out. ``None`` stands for random actions.
Policy = Callable[[NDArray[Any], gymnasium.Space[Any]], Any]


@dataclass(frozen=True, slots=True)
class Rollout:
    """What one worker's environments did over ``steps`` vector steps.

    ``actions``, ``rewards`` (float64), ``terminated`` and ``truncated`` (bool) are shaped
    (steps, envs, ...); ``observations`` (steps + 1, envs, ...), the first row before the
    first action, when kept. After a copy's episode ends, its next step starts the next
    episode (Gymnasium's next-step autoreset: reward 0, action ignored). ``returns`` are the
    returns of the episodes that ended, in order (by step, then copy); ``seconds`` the time
    spent stepping, policy included.
    """

    worker: int
    actions: NDArray[Any]
    rewards: NDArray[np.float64]
    terminated: NDArray[np.bool_]
    truncated: NDArray[np.bool_]
    returns: list[float]
    seconds: float
    observations: NDArray[Any] | None = None

    @property
    def env_steps(self) -> int:
        """Environment steps taken: steps × copies."""
        return int(self.rewards.size)


class RolloutWorker:
    """``envs`` copies of the registered environment ``env_id`` in this process, seeded from
    ``seed + worker·envs``; ``env_options`` go to ``gymnasium.make``. Use ``"module:id"`` (for
    instance ``"examples.envs:ecs_arcade/Shooter-v0"``) so that a fresh process imports the
    module that registers the environment. Episodes run on from one ``run`` to the next."""

    def __init__(self, env_id: str, envs: int = 1, seed: int = 0, worker: int = 0,
                 env_options: dict[str, Any] | None = None) -> None:
        whole_number("envs", envs, 1)
        self.worker = worker
        try:
            self.envs = gymnasium.make_vec(env_id, num_envs=envs, vectorization_mode="sync", **(env_options or {}))
        except (gymnasium.error.Error, ModuleNotFoundError) as error:
            raise ValueError(
                f"worker {worker} could not make {env_id!r}: {error}. A worker knows only the environments "
                f"registered by the modules it imports: name the module in the id ('package.module:Name-v0') "
                f"and make it importable there (runtime_env={{'working_dir': ...}})") from error
        first = seed + worker * envs
        self.observations, _ = self.envs.reset(seed=first)
        self.envs.action_space.seed(first)
        self.running = np.zeros(envs)  # each copy's return so far in its episode

    def run(self, steps: int, policy: Policy | None = None, keep_observations: bool = False) -> Rollout:
        """Step every copy ``steps`` times with ``policy`` (random actions if None)."""
        whole_number("steps", steps, 1)
        seen, actions, rewards, ends, returns = [self.observations], [], [], [], []
        start = time.perf_counter()
        for _ in range(steps):
            action = self.envs.action_space.sample() if policy is None else policy(self.observations,
                                                                                    self.envs.action_space)
            self.observations, reward, terminated, truncated, _ = self.envs.step(action)
            self.running += reward
            for copy in np.flatnonzero(terminated | truncated):
                returns.append(float(self.running[copy]))
                self.running[copy] = 0.0
            actions.append(action)
            rewards.append(reward)
            ends.append((terminated, truncated))
            if keep_observations:
                seen.append(self.observations)
        seconds = time.perf_counter() - start
        return Rollout(self.worker, np.array(actions), np.array(rewards, dtype=np.float64),
                       np.array([end[0] for end in ends]), np.array([end[1] for end in ends]), returns,
                       seconds, np.array(seen) if keep_observations else None)

    def close(self) -> None:
        """Close the environments."""
        self.envs.close()


def collect(env_id: str, *, workers: int = 2, envs_per_worker: int = 1, steps: int = 1000, seed: int = 0,
            policy: Policy | None = None, env_options: dict[str, Any] | None = None,
            keep_observations: bool = False, address: str | None = None,
            runtime_env: dict[str, Any] | None = None) -> list[Rollout]:
    """Run ``workers`` ``RolloutWorker``s as Ray actors, ``steps`` vector steps each, and return
    their rollouts in worker order.

    Ray is started if it is not running: a local cluster (``ray.init()``) when ``address`` is
    None, else the cluster at ``address`` (``"auto"``, ``"ray://head:10001"``), with
    ``runtime_env`` (on a cluster, ``{"working_dir": "."}`` ships your project, the module that
    registers the environment included, to every machine; locally the folder of the script
    that started Ray and the current directory are on the workers' path, other folders need it
    too). Each actor asks Ray for one CPU, so a cluster runs as many
    at once as it has cores. ``policy`` is shipped to every actor: it must pickle, and a
    function is pickled by its module's name, so that module must be importable there too.
    """
    whole_number("workers", workers, 1)
    if not ray.is_initialized():
        ray.init(address=address, runtime_env=runtime_env, log_to_driver=False)
    actor: Any = ray.remote(num_cpus=1)(RolloutWorker)  # (Ray's stubs type a class it wraps loosely)
    actors = [actor.remote(env_id, envs_per_worker, seed, index, env_options) for index in range(workers)]
    try:
        rollouts: list[Rollout] = ray.get([each.run.remote(steps, policy, keep_observations) for each in actors])
    finally:
        for each in actors:
            ray.kill(each)
    return rollouts

"""Rollouts on Ray: a cluster of two worker processes on this machine, joined by its address as a
cluster of many machines would be. Each worker collects exactly what the same worker collects
in this process, and a rollout's returns are its rewards summed between episode ends."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray")

from ecs.rollouts import Rollout, RolloutWorker, collect  # noqa: E402
from examples.envs import shooter_policy  # noqa: E402

pytestmark = pytest.mark.ray
ENV = "examples.envs:ecs_arcade/Shooter-v0"
LIMIT = 15  # actions in an episode
OPTIONS = {"max_episode_steps": LIMIT}


@pytest.fixture(scope="module")
def address():
    """A Ray cluster of 2 CPUs on this machine's loopback, started with ``ray start --head``
    (without Ray's token authentication, which a cluster reachable from other machines keeps),
    its address."""
    command = shutil.which("ray", path=str(Path(sys.executable).parent)) or "ray"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    saved = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    subprocess.run([command, "start", "--head", f"--port={port}", "--node-ip-address=127.0.0.1", "--num-cpus=2",
                    "--include-dashboard=false", "--disable-usage-stats"], check=True, capture_output=True)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        ray.shutdown()
        subprocess.run([command, "stop"], capture_output=True)
        if saved is None:
            del os.environ["RAY_AUTH_MODE"]
        else:
            os.environ["RAY_AUTH_MODE"] = saved


def test_each_worker_on_the_cluster_collects_what_the_same_worker_collects_here(address: str) -> None:
    rollouts = collect(ENV, workers=2, envs_per_worker=2, steps=40, seed=9, env_options=OPTIONS,
                       keep_observations=True, address=address)
    assert [rollout.worker for rollout in rollouts] == [0, 1]
    for rollout in rollouts:
        here = RolloutWorker(ENV, envs=2, seed=9, worker=rollout.worker, env_options=OPTIONS).run(
            40, keep_observations=True)
        for field in ("observations", "actions", "rewards", "terminated", "truncated"):
            assert np.array_equal(getattr(rollout, field), getattr(here, field)), field
        assert rollout.returns == here.returns and rollout.env_steps == 80
    assert not np.array_equal(rollouts[0].observations[0], rollouts[1].observations[0])  # seeds 9, 10 vs 11, 12


def episodes(rollout: Rollout) -> list[tuple[int, float, bool]]:
    """(length, return, truncated) of each episode that ended, read from the step arrays: after
    an end, the copy's next step starts the next episode (reward 0, action ignored)."""
    found = []
    for copy in range(rollout.rewards.shape[1]):
        length, total, start = 0, 0.0, True
        for step in range(rollout.rewards.shape[0]):
            if start:
                start = False
                if step > 0:
                    assert rollout.rewards[step, copy] == 0.0  # the reset step
                    continue
            length, total = length + 1, total + rollout.rewards[step, copy]
            if rollout.terminated[step, copy] or rollout.truncated[step, copy]:
                found.append((step, copy, length, total, bool(rollout.truncated[step, copy])))
                length, total, start = 0, 0.0, True
    return [(length, total, truncated) for _, _, length, total, truncated in sorted(found)]


def test_returns_are_the_rewards_between_episode_ends_and_the_time_limit_cuts_at_its_length(address: str) -> None:
    rollouts = collect(ENV, workers=2, envs_per_worker=2, steps=50, seed=3, policy=shooter_policy,
                       env_options=OPTIONS, address=address)
    for rollout in rollouts:
        ended = episodes(rollout)
        assert [total for _, total, _ in ended] == rollout.returns
        assert len(ended) >= 2 * 3  # 50 steps hold three 15-action episodes and their reset steps per copy
        assert all(length == LIMIT for length, _, truncated in ended if truncated)
        assert all(length <= LIMIT for length, _, _ in ended)


def test_a_worker_that_cannot_make_the_environment_says_how_workers_find_one() -> None:
    """An id registered only in the driver's process (no module named in it) is unknown to a worker."""
    with pytest.raises(ValueError, match=r"worker 1 could not make 'nowhere/Game-v0'.*'package.module:Name-v0'"):
        RolloutWorker("nowhere/Game-v0", worker=1)
    with pytest.raises(ValueError, match="No module named 'no_such_module'"):
        RolloutWorker("no_such_module:nowhere/Game-v0")

"""Rollouts: the shooter played across Ray workers by a scripted pilot and at random, returns plotted.

Shows ``ecs.rollouts.collect`` stepping copies of ``ecs_arcade/Shooter-v0`` (see
``examples/envs.py``) in Ray actors: ``--workers`` actors (2) with ``--envs`` copies each (2),
episodes of 10 s of play (150 actions), once with the scripted pilot of ``examples.envs``
(fire at the nearest enemy, back off when it comes close) and once with random actions. It
prints the environment steps per second and plots every finished episode's return, pilot
against random. Ray starts a local cluster on this machine; ``--address`` joins a running one.

Controls: none (the plot opens in a window; headless, it is saved). ``--frames N``: vector
steps per worker (600). Needs the ``ray`` extra (``pip install -e '.[ray]'``).

    python -m examples.rollouts
    python -m examples.rollouts --headless --frames 300 --screenshot rollouts.png
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import matplotlib

from ecs.rollouts import Rollout, collect
from examples.common import parse_args
from examples.envs import shooter_policy

ENV = "examples.envs:ecs_arcade/Shooter-v0"  # the module registers the environment in each worker
EPISODE = 150  # actions: 10 s of play


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=2, help="Ray actors (2)")
    parser.add_argument("--envs", type=int, default=2, help="copies of the environment per actor (2)")
    parser.add_argument("--address", default=None, help="a running Ray cluster to join (default: start one here)")


def returns(rollouts: list[Rollout]) -> list[float]:
    """Every finished episode's return, worker by worker."""
    return [value for rollout in rollouts for value in rollout.returns]


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(__doc__, argv, extra=options)
    if args.headless:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = args.frames if args.frames is not None else 600
    runs = {}
    for name, policy in (("scripted pilot", shooter_policy), ("random", None)):
        rollouts = collect(ENV, workers=args.workers, envs_per_worker=args.envs, steps=max(steps, 1), seed=1,
                           policy=policy, env_options={"max_episode_steps": EPISODE}, address=args.address)
        rate = sum(r.env_steps for r in rollouts) / max(r.seconds for r in rollouts)
        runs[name] = returns(rollouts)
        mean = sum(runs[name]) / len(runs[name]) if runs[name] else float("nan")
        print(f"{name}: {len(runs[name])} episodes, mean return {mean:.2f}, {rate:,.0f} environment steps/s")
    figure, axes = plt.subplots(figsize=(7, 4))
    for name, values in runs.items():
        axes.plot(range(1, len(values) + 1), values, "o-", label=name)
    axes.set(xlabel="episode (worker by worker)", ylabel="return: enemies shot − bumps",
             title=f"Shooter-v0 on Ray: {args.workers} workers × {args.envs} copies, {EPISODE}-action episodes")
    axes.legend()
    figure.tight_layout()
    if args.screenshot:
        figure.savefig(args.screenshot, dpi=100)
    if not args.headless:
        plt.show()
    plt.close(figure)


if __name__ == "__main__":
    main()

"""Worlds on threads: each World steps and is built safely while another
World is used on another thread (a dedicated server, a background level
loader).

esper 3 keeps its current world in module globals; without a lock shared by
the Worlds, a thread switching esper to its World mid-step of another makes
that step read and write the wrong entities (other positions, or esper's
KeyError). The expected positions are each World's own, stepped alone: the
pipeline is deterministic, so a World stepped beside another must match them
bit for bit. Each World also runs a system of a game server's kind: it waits
on I/O (releasing the interpreter to the other thread) and then reads its
bodies through esper's module functions, which must still be its World's.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import Callable, Iterator

import esper
import pytest

from components import Collider, Physics, Transform
import ecs.world as world_module
from ecs import World
from helpers import DT, box, wall

STEPS = 90


@pytest.fixture(autouse=True)
def eager_thread_switches() -> Iterator[None]:
    """Make the interpreter switch threads every microsecond (5 ms by
    default), so that a step is interleaved with the other thread's calls
    hundreds of times, as on a loaded machine."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


class Drag:
    """Slows every body by 1 % a step, after polling for messages."""

    def process(self, dt: float) -> None:
        time.sleep(0.0002)  # a socket poll: another thread runs meanwhile
        for _, physics in esper.get_component(Physics):
            physics.velocity *= 0.99


def build(continuous: bool) -> tuple[World, list[int]]:
    """A floor, two walls and 16 boxes thrown at each other under gravity:
    contacts every step, so each step reads and writes many components."""
    world = World(gravity=(0, 980), continuous=continuous)
    world.add_system(Drag(), 400)
    wall(world, -20, 200, 440, 20)
    wall(world, -20, -200, 20, 400)
    wall(world, 400, -200, 20, 400)
    bodies = [box(world, 10 + 24 * i, 150 - 13 * (i % 4), velocity=(90 * (-1) ** i, -40 * (i % 3)),
                  elasticity=0.3 * (i % 3)) for i in range(16)]
    return world, bodies


def positions(world: World, bodies: list[int]) -> list[tuple[float, float]]:
    return [tuple(world.component_for_entity(e, Transform).position) for e in bodies]


def step(world: World) -> None:
    for _ in range(STEPS):
        world.step(DT)


def run_together(*jobs: Callable[[], None]) -> None:
    """Run the jobs on threads started at once; re-raise the first failure."""
    start = threading.Barrier(len(jobs))
    failures: list[BaseException] = []

    def guarded(job: Callable[[], None]) -> None:
        start.wait()
        try:
            job()
        except BaseException as error:  # noqa: BLE001 - handed to the main thread
            failures.append(error)

    threads = [threading.Thread(target=guarded, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)  # (a first step may compile the kernels)
    assert not any(thread.is_alive() for thread in threads), "a thread never finished (deadlock?)"
    if failures:
        raise failures[0]


@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
def test_two_worlds_stepped_on_two_threads_match_each_stepped_alone(continuous):
    alone, bodies = build(continuous)
    step(alone)
    expected = positions(alone, bodies)
    first, first_bodies = build(continuous)
    second, second_bodies = build(continuous)
    run_together(lambda: step(first), lambda: step(second))
    assert positions(first, first_bodies) == expected
    assert positions(second, second_bodies) == expected


def test_a_loader_thread_builds_a_world_while_another_world_steps():
    alone, bodies = build(True)
    step(alone)
    expected = positions(alone, bodies)
    playing, playing_bodies = build(True)
    loading = World()
    made: list[int] = []

    def load() -> None:
        # 300 entities, each created, then given a component, then read back:
        # every call must land in the loading World.
        for i in range(300):
            entity = loading.create_entity(Transform((i, 2 * i)))
            loading.add_component(entity, Collider((4, 4)))
            loading.add_component(entity, Physics(velocity=(i, 0)))
            assert loading.component_for_entity(entity, Transform).position.x == i
            made.append(entity)

    run_together(lambda: step(playing), load)
    assert positions(playing, playing_bodies) == expected
    assert len(playing.get_component(Transform)) == len(playing_bodies) + 3  # its bodies and three walls
    rows = loading.get_components(Transform, Collider, Physics)
    assert sorted(e for e, _ in rows) == made and len(made) == 300
    assert all(physics.velocity.x == transform.position.x for _, (transform, _, physics) in rows)


def test_a_world_collected_while_another_thread_steps_is_released_without_waiting():
    # A finaliser runs wherever the collector does: it must not wait for the
    # lock held by another thread's step (that could deadlock), yet the
    # World's esper context must still be deleted, by the next step.
    stepping, inside, release = World(), threading.Event(), threading.Event()
    released: list[bool] = []

    class Hold:
        def process(self, dt: float) -> None:
            inside.set()
            # A finaliser waiting for the lock would hold up gc.collect()
            # until this times out: then ``released`` says so.
            released.append(release.wait(timeout=10))

    stepping.add_system(Hold())
    doomed = World()
    doomed.create_entity(Transform((0, 0)))
    name = doomed.name
    thread = threading.Thread(target=stepping.step, args=(DT,))
    thread.start()
    assert inside.wait(timeout=120)  # (a first step may compile the kernels)
    del doomed
    gc.collect()  # the finaliser returns at once although the lock is held
    # It did not delete the context (that needs the lock): it left the name.
    assert name in esper.list_worlds() and name in world_module._orphans
    release.set()
    thread.join(timeout=30)
    assert not thread.is_alive() and released == [True]
    stepping.step(DT)
    assert name not in esper.list_worlds() and name not in world_module._orphans


class FinalisedWhileHandingOff(list):
    """The orphan list, with a World finalised (its name appended) right
    as the next step takes the names, the moment a collection can strike."""

    def __init__(self, names: list[str], late: str) -> None:
        super().__init__(names)
        self.late: str | None = late

    def _finalise(self) -> None:
        if self.late is not None:
            self.append(self.late)
            self.late = None

    def clear(self) -> None:
        self._finalise()  # (between a copy of the list and its clearing)
        super().clear()

    def pop(self, *index: int) -> str:
        name = super().pop(*index)
        self._finalise()
        return name


def test_a_world_finalised_while_the_orphans_are_handed_off_is_deleted_too(monkeypatch):
    # Two Worlds whose finalisers could not take the lock: one left its name
    # before the step, the other leaves it while the step takes the names.
    early, late = World(), World()
    for world in (early, late):
        world.create_entity(Transform((0, 0)))  # (esper makes a world's context when first used)
        assert world.name in esper.list_worlds()
        world.closed = True  # (as its finaliser marks it)
    monkeypatch.setattr(world_module, "_orphans", FinalisedWhileHandingOff([early.name], late.name))
    World().step(DT)
    assert early.name not in esper.list_worlds() and late.name not in esper.list_worlds()
    assert world_module._orphans == []

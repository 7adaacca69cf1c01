"""Rows of boxes in the compiled sweep (systems.physics._kernels.sweep._collide_row) against the reference.

Boxes touching end to end, struck without bouncing, are collided at once
(``systems.physics._stages.rows``); the compiled sweep takes such steps too and must give the
same floats, bit for bit. Random scenes without gravity, lanes of e = 0 crates of several
sizes, masses and frictions, some touching, some a hair or a few px apart, some sliding
across the lane (friction at each contact), struck by a pusher (a Newton's cradle where the
crates touch), the far end against the arena's wall, against a STATIC post, free, or met by a
second pusher, are stepped with the kernels compiled and with them off (``ECS_ARCADE_JIT``
1 and 0), each mode in a process of its own started once for the module. The compiled one
must have swept every step through the kernel, and the reference must have collided rows
(``find_row`` found some), so the rows really went through the kernel.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import ROOT, mode_environment
LENGTH = 480.0  # px, the arena's inside along the lanes
LANE = 40.0  # px between lanes
STEPS = 30

# Reads one scene (JSON) a line, steps it, and answers with a digest per step, how many steps
# the compiled sweep took and how many rows the reference collided.
WORKER = r'''
import hashlib, json, sys
from helpers import state_lines
from components import Collider, ColliderType, Physics, Transform
from ecs import World
from systems.physics._kernels import jit
from systems.physics._stages import sweep

counts = {"compiled": 0, "rows": 0}
real_compiled, real_find_row = sweep.sweep_compiled, sweep.find_row

def compiled(*args):
    counts["compiled"] += 1
    return real_compiled(*args)

def find_row(*args):
    row = real_find_row(*args)
    counts["rows"] += row is not None
    return row

sweep.sweep_compiled, sweep.find_row = compiled, find_row

def build(scene):
    world = World(gravity=(0, 0))
    world.response.sweeper.max_subdivisions = scene["subdivisions"]
    flip = (lambda x, y: (y, x)) if scene["vertical"] else (lambda x, y: (x, y))
    across = LANE * len(scene["lanes"])
    for x, y, w, h in ((-40, -40, LENGTH + 80, 40), (-40, across, LENGTH + 80, 40), (-40, 0, 40, across),
                       (LENGTH, 0, 40, across)):
        world.create_entity(Transform(flip(x, y)), Collider(flip(w, h), type=ColliderType.STATIC))
    for lane, bodies in enumerate(scene["lanes"]):
        for x, y, w, h, vx, vy, mass, elasticity, friction, static in bodies:
            y += lane * LANE
            if static:
                world.create_entity(Transform(flip(x, y)), Collider(flip(w, h), type=ColliderType.STATIC))
            else:
                world.create_entity(Transform(flip(x, y)), Collider(flip(w, h)),
                                    Physics(flip(vx, vy), mass=mass, elasticity=elasticity, friction=friction))
    return world

print("compiled" if jit.ENABLED else "off", flush=True)
for line in sys.stdin:
    scene = json.loads(line)
    counts.update(compiled=0, rows=0)
    world, steps = build(scene), []
    for _ in range(STEPS):
        world.step(1 / 60)
        digest = hashlib.sha256(repr(sorted(world.response.crushed)).encode())
        for line in state_lines(world):
            digest.update(line.encode())
        steps.append(digest.hexdigest()[:16])
    print(json.dumps({"steps": steps, **counts}), flush=True)
'''.replace("LENGTH", repr(LENGTH)).replace("LANE", repr(LANE)).replace("STEPS", str(STEPS))


class Worker:
    """A process stepping scenes in one kernel mode (``ECS_ARCADE_JIT``)."""

    def __init__(self, mode: str) -> None:
        env = {**mode_environment(mode), "PYTHONWARNINGS": "ignore"}
        self.process = subprocess.Popen([sys.executable, "-c", WORKER], env=env, cwd=ROOT, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.ready = self._line()

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, f"the worker died (exit {self.process.wait()})"
        return line.strip()

    def run(self, scene: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(scene) + "\n")
        self.process.stdin.flush()
        result: dict[str, Any] = json.loads(self._line())
        return result

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


@pytest.fixture(scope="module")
def workers() -> Iterator[tuple[Worker, Worker]]:
    """The compiled mode's worker and the reference's."""
    compiled, reference = Worker("1"), Worker("0")
    try:
        if compiled.ready != "compiled":
            pytest.skip("numba is not installed here: there is only one mode")
        assert reference.ready == "off"
        yield compiled, reference
    finally:
        compiled.close()
        reference.close()


@st.composite
def lanes(draw: st.DrawFn) -> list[list[Any]]:
    """One lane's bodies, (x, y, length, thickness, vx, vy, mass, elasticity, friction, static)
    each: crates laid back from a face (the wall, a post, or short of it), a pusher behind them."""
    end = draw(st.sampled_from(["wall", "post", "free", "pusher"]))
    face = LENGTH if end == "wall" else draw(st.floats(300.0, 440.0))
    bodies = []
    if end == "post":
        bodies.append([face, 5.0, 10.0, 30.0, 0.0, 0.0, 1.0, 0.0, 0.0, True])
    elif end == "pusher":  # a second one, coming the other way
        bodies.append([face + draw(st.floats(0.5, 30.0)), 12.0, 10.0, 12.0, -draw(st.floats(60.0, 900.0)), 0.0,
                       draw(st.sampled_from([1.0, 4.0])), 0.0, 0.2, False])
    x = face - (20.0 if end == "free" else 0.0)
    bouncy = draw(st.integers(-8, 7))  # which crate bounces (e = 0.5), if any: it rules rows out
    for crate in range(draw(st.integers(2, 8))):
        length, thickness = draw(st.sampled_from([6.0, 12.5, 24.0])), draw(st.sampled_from([8.0, 14.0, 20.0]))
        x -= length
        bodies.append([x, 25.0 - thickness, length, thickness, draw(st.sampled_from([0.0, 0.0, 0.0, -40.0, 70.0])),
                       draw(st.sampled_from([0.0, 0.0, 35.0, -20.0])), draw(st.sampled_from([0.5, 1.0, 3.0])),
                       0.5 if crate == bouncy else 0.0, draw(st.sampled_from([0.0, 0.3, 0.8])), False])
        x -= draw(st.sampled_from([0.0] * 4 + [0.004, 2.0]))
    length = draw(st.sampled_from([8.0, 16.0]))
    bodies.append([x - length - draw(st.floats(0.5, 40.0)), 10.0, length, 14.0, draw(st.floats(60.0, 1500.0)),
                   draw(st.sampled_from([0.0, 10.0])), draw(st.sampled_from([0.5, 1.0, 5.0])),
                   draw(st.sampled_from([0.0, 0.0, 0.0, 0.5])), draw(st.sampled_from([0.0, 0.4])), False])
    return bodies


scenes = st.fixed_dictionaries({
    "lanes": st.lists(lanes(), min_size=1, max_size=3),
    "vertical": st.booleans(),
    "subdivisions": st.sampled_from([3, 32]),
})


@settings(max_examples=20)
@given(scenes)
def test_rows_give_the_same_floats_compiled_and_not(workers: tuple[Worker, Worker], scene: dict[str, Any]) -> None:
    compiled, reference = workers
    ran, expected = compiled.run(scene), reference.run(scene)
    assert ran["compiled"] == STEPS  # every step went through the kernel...
    assert expected["compiled"] == 0
    assert ran["steps"] == expected["steps"]  # ...to the reference's floats, bit for bit


def test_a_pusher_drives_rows_into_walls_and_posts_through_the_kernel(workers: tuple[Worker, Worker]) -> None:
    # Three lanes of five touching 12 px crates (masses 1, 3, 0.5, 1, 3; frictions 0.3 and 0.8),
    # some sliding across the lane; a 5 kg pusher at 600 px/s, 5 px away, meets the first at
    # t = 5/600 s, mid-step 1: the row is collided at once. Lane 0 ends against the wall, lane 1
    # against a STATIC post, lane 2 is free (a Newton's cradle of e = 0 boxes, all moving on
    # together at 5·600/13.5 px/s, momentum kept).
    crates = [[408.0 - 12.0 * i, 11.0, 12.0, 14.0, 0.0, 20.0 * (i % 2), (1.0, 3.0, 0.5)[i % 3], 0.0,
               (0.3, 0.8)[i % 2], False] for i in range(5)]
    post = [[420.0, 5.0, 10.0, 30.0, 0.0, 0.0, 1.0, 0.0, 0.0, True]]
    pusher = [[345.0, 10.0, 10.0, 14.0, 600.0, 0.0, 5.0, 0.0, 0.3, False]]
    shifted = [[x + 60.0, *rest] for x, *rest in crates]  # flush against the wall at 480 px
    scene = {"lanes": [shifted + [[405.0, *pusher[0][1:]]], post + crates + pusher, crates + pusher],
             "vertical": False, "subdivisions": 32}
    ran, expected = workers[0].run(scene), workers[1].run(scene)
    assert expected["rows"] >= 3  # the reference collided the three rows...
    assert ran["compiled"] == STEPS  # ...and the compiled run swept every step in the kernel
    assert ran["steps"] == expected["steps"]

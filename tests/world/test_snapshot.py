"""Snapshots: stepping on from a restored snapshot gives the same floats as never having stopped,
in this World, in a new one and in another process; a snapshot that can't be trusted is refused
and leaves the World as it was."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import esper
import pygame
import pytest

from components import ALL, Collider, ColliderType, Physics, Shape, Side, Sprite, Touching, Transform
from ecs import SnapshotError, World

DT = 1 / 60
ROOT = Path(__file__).resolve().parents[2]


class Score:
    """A resource that is part of the simulation: coins picked up."""

    def __init__(self) -> None:
        self.coins = 0
        self.entered = 0  # times a body began to touch the floor's sensor strip


class Lift(esper.Processor):
    """Turns the lift round every 90 steps (a user system with state in a component)."""

    def __init__(self, world: World, lift: int) -> None:
        self.world, self.lift = world, lift

    def process(self, dt: float) -> None:
        transform = self.world.component_for_entity(self.lift, Transform)
        physics = self.world.component_for_entity(self.lift, Physics)
        if not 100 <= transform.position.y <= 260:
            physics.velocity.y = -physics.velocity.y


def build(continuous: bool = True, seed: int = 5) -> World:
    """A closed level with gravity: floor, walls, a ramp, a one-way ledge, a lift, falling
    boxes and balls of random materials, coins (TRIGGERs) counted by a begin handler."""
    world = World(gravity=(0, 980), continuous=continuous)
    rng = random.Random(seed)
    for x, y, w, h in ((0, 300, 400, 20), (-20, 0, 20, 320), (400, 0, 20, 320), (0, -20, 400, 20)):
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC))
    world.create_entity(Transform((300, 260)), Collider((40, 40), type=ColliderType.STATIC,
                                                        shape=Shape.TRIANGLE_BOTTOM_RIGHT))
    world.create_entity(Transform((20, 200)), Collider((80, 6), type=ColliderType.STATIC, sides=Side.TOP))
    lift = world.create_entity(Transform((150, 240)), Collider((60, 8), type=ColliderType.STATIC),
                               Physics(velocity=(0, -60)))
    world.add_system(Lift(world, lift), priority=400)
    for _ in range(30):
        size = rng.choice((8.0, 10.0, 12.0))
        shape = rng.choice((Shape.BOX, Shape.CIRCLE))
        world.create_entity(Transform((rng.uniform(10, 370), rng.uniform(0, 150))), Collider((size, size), shape=shape),
                            Physics(velocity=(rng.uniform(-200, 200), rng.uniform(-100, 100)),
                                    mass=rng.uniform(0.5, 3), elasticity=rng.choice((0.0, 0.5, 1.0)),
                                    friction=rng.uniform(0, 0.8)), Touching())
    for index in range(8):
        world.create_entity(Transform((20 + 45 * index, 280)), Collider((6, 6), type=ColliderType.TRIGGER,
                                                                       category=2, mask=ALL))
    # A sensor strip along the floor that stays: pairs with it begin once and last many steps.
    strip = world.create_entity(Transform((0, 290)), Collider((400, 10), type=ColliderType.TRIGGER, category=4))
    world.insert_resource(Score())

    def entered(contact) -> None:
        world.resource(Score).entered += 1

    world.on_collision_begin(entered, between=(4, 1))

    def pick_up(contact) -> None:  # a coin is removed, and counted, the step it is touched
        coin = contact.b if world.try_component(contact.b, Collider).type is ColliderType.TRIGGER else contact.a
        world.delete_entity(coin)
        world.resource(Score).coins += 1

    world.on_collision_begin(pick_up, between=(2, 1))
    return world


def state(world: World) -> list[str]:
    """Every position, velocity and Touching flag, bit for bit, the contacts and the score."""
    lines = [f"{e} {t.position.x.hex()} {t.position.y.hex()}" for e, t in sorted(world.get_component(Transform))]
    lines += [f"{e} {p.velocity.x.hex()} {p.velocity.y.hex()}" for e, p in sorted(world.get_component(Physics))]
    lines += [f"{e} {t.down} {t.ground}" for e, t in sorted(world.get_component(Touching))]
    lines += [f"{c.a} {c.b} {c.normal.x.hex()} {c.normal.y.hex()} {c.depth.hex()}" for c in world.contacts]
    score = world.resource(Score)
    return lines + [f"coins {score.coins} entered {score.entered}"]


def run(world: World, steps: int) -> list[list[str]]:
    return [(world.step(DT), state(world))[1] for _ in range(steps)]


@pytest.mark.parametrize("continuous", [True, False], ids=["continuous", "discrete"])
def test_stepping_on_from_a_snapshot_gives_what_never_stopping_gives(continuous: bool) -> None:
    world = build(continuous)
    run(world, 60)
    data = world.snapshot(resources=[Score])
    never_stopped = run(world, 120)
    assert never_stopped[-1] != never_stopped[0]  # things moved: the comparison means something
    assert world.resource(Score).entered > 0 and world.contacts  # bodies rest on the strip: pairs last
    world.restore(data)  # the same World, 120 steps on
    assert run(world, 120) == never_stopped
    fresh = build(continuous, seed=99)  # a new World with the same systems and other bodies
    fresh.restore(data)
    assert run(fresh, 120) == never_stopped


@pytest.mark.parametrize("jit", ["1", "0"], ids=["compiled", "plain"])
@pytest.mark.parametrize("continuous", [True, False], ids=["continuous", "discrete"])
def test_a_snapshot_restored_in_another_process_steps_on_the_same(tmp_path: Path, continuous: bool,
                                                                   jit: str) -> None:
    """Saved in one fresh process, loaded in another (its own hash seed), each stepping on: the
    same floats as a third that never stopped; the kernels compiled or plain Python."""
    script = tmp_path / "scene.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT / 'tests' / 'world')!r})\n"
        "from test_snapshot import Score, build, run\n"
        "from systems.physics._kernels import jit\n"
        "from pathlib import Path\n"
        "path = Path(sys.argv[2])\n"
        f"world = build(continuous={continuous})\n"
        "if sys.argv[1] == 'save':\n"
        "    run(world, 45)\n"
        "    path.write_bytes(world.snapshot(resources=[Score]))\n"
        "elif sys.argv[1] == 'load':\n"
        "    world.restore(path.read_bytes())\n"
        "else:\n"
        "    run(world, 45)\n"
        "print(jit.COMPILED, run(world, 60)[-1])\n")
    env = {"PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "random",
           "ECS_ARCADE_JIT": jit, "HOME": str(Path.home()), "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    saved, loaded, never_stopped = (
        subprocess.run([sys.executable, str(script), mode, str(tmp_path / "world.snap")], env=env,
                       capture_output=True, text=True, check=True, cwd=ROOT).stdout
        for mode in ("save", "load", "straight"))
    assert saved == loaded == never_stopped and "coins" in saved
    assert saved.startswith(str(jit == "1"))  # the kernels ran the way asked


def test_new_entities_after_a_restore_get_the_ids_they_would_have_had() -> None:
    world = build()
    run(world, 30)
    data = world.snapshot()
    expected = world.create_entity(Transform((0, 0)))
    world.restore(data)
    assert world.create_entity(Transform((0, 0))) == expected
    assert not world.entity_exists(expected + 1)


def test_a_deletion_pending_when_the_snapshot_was_taken_happens_after_the_restore() -> None:
    world = build()
    run(world, 5)
    doomed = world.create_entity(Transform((0, 0)))
    world.delete_entity(doomed)  # deleted at the start of the next step
    data = world.snapshot(resources=[Score])
    fresh = build(seed=3)
    fresh.restore(data)
    assert fresh.entity_exists(doomed) == world.entity_exists(doomed)
    run(fresh, 1)
    assert not fresh.entity_exists(doomed) and not fresh.try_component(doomed, Transform)


def test_a_sprite_image_comes_back_with_its_pixels_and_shared_once() -> None:
    world = World()
    image = pygame.Surface((3, 2), pygame.SRCALPHA)
    image.fill((10, 20, 30, 200))
    image.set_at((1, 1), (250, 0, 5, 255))
    first = world.create_entity(Transform((0, 0)), Sprite(image=image))
    second = world.create_entity(Transform((5, 0)), Sprite(image=image))
    data = world.snapshot()
    other = World()
    other.restore(data)
    kept = other.component_for_entity(first, Sprite).image
    assert kept is other.component_for_entity(second, Sprite).image
    assert kept.get_size() == (3, 2)
    assert [kept.get_at((x, y)) for x in range(3) for y in range(2)] == [image.get_at((x, y)) for x in range(3)
                                                                         for y in range(2)]


def _refused(world: World, data: object, match: str) -> None:
    before = state(world)
    with pytest.raises(SnapshotError, match=match):
        world.restore(data)  # type: ignore[arg-type]
    assert state(world) == before


def test_bytes_that_are_not_a_good_snapshot_are_refused_and_the_world_is_left_as_it_was() -> None:
    source = build()
    run(source, 20)
    data = source.snapshot(resources=[Score])
    world = build(seed=11)
    run(world, 10)
    _refused(world, "not bytes", "a snapshot is bytes")
    _refused(world, b"PNG\x00" + data[4:], "not an ecs-arcade snapshot")
    mark = len(b"ecs-arcade snapshot\n")
    _refused(world, data[:mark] + (99).to_bytes(2, "little") + data[mark + 2:], "format 99")
    flipped = bytearray(data)
    flipped[-10] ^= 0x01
    _refused(world, bytes(flipped), "corrupted")
    _refused(world, data[:-1], "corrupted")
    discrete = build(continuous=False)
    _refused(discrete, data, "continuous=True")


def test_a_resource_the_world_does_not_hold_is_named() -> None:
    with pytest.raises(ValueError, match="holds no resource of type"):
        World().snapshot(resources=[Score])


@pytest.mark.parametrize("kind", ["Camera", "Input", "Views"])
def test_a_resource_the_scene_holds_is_refused(kind: str) -> None:
    # Listed, a Camera was accepted, and a restore put a new one in the World while the scene
    # kept drawing through the old: the picture went wrong from there on, silently.
    from ecs import Scene
    from ecs.input import Input
    from systems.game.camera import Camera, Views

    scene = Scene()
    with pytest.raises(ValueError, match=f"a {kind} is the scene's"):
        scene.world.snapshot(resources=[{"Camera": Camera, "Input": Input, "Views": Views}[kind]])


def test_a_loaded_tiled_level_comes_back_drawing_the_same_chunks(tmp_path: Path) -> None:
    # A level's tile layers are drawn chunk by chunk by a painter kept in the TileChunks
    # component; the snapshot keeps the painter (the layer's tile ids and images), not the
    # chunk images the renderer caches.
    sys.path.insert(0, str(ROOT / "tests" / "game"))
    from test_tiled import DECO, GROUND, tmx

    from components import TileChunks
    from ecs import load_map

    world = World()
    load_map(world, tmx(tmp_path, [("ground", GROUND, True), ("deco", DECO, True)]), chunk_size=4)
    layers = sorted((entity, chunks) for entity, chunks in world.get_component(TileChunks))
    layers[0][1].images[(0, 0)] = layers[0][1].render(0, 0)  # a cached image, as the renderer keeps one
    fresh = World()
    fresh.restore(world.snapshot())
    for entity, chunks in layers:
        kept = fresh.component_for_entity(entity, TileChunks)
        assert kept.images == {} and (kept.chunk_size, kept.chunks) == (chunks.chunk_size, chunks.chunks)
        for column, row in sorted(chunks.chunks):
            want, got = chunks.render(column, row), kept.render(column, row)
            assert got.get_size() == want.get_size()
            assert pygame.image.tobytes(got, "RGBA") == pygame.image.tobytes(want, "RGBA")


def test_a_component_that_cannot_be_kept_is_named_with_its_entity() -> None:
    class Brain:  # a user component holding a closure: pickle can't keep it
        def __init__(self) -> None:
            self.think = lambda: None

    world = World()
    world.create_entity(Transform((0, 0)))
    thinker = world.create_entity(Transform((1, 1)), Brain())
    with pytest.raises(SnapshotError, match=f"entity {thinker}'s Brain component cannot be kept"):
        world.snapshot()


def test_a_component_referring_to_a_resource_not_kept_refers_to_the_restoring_worlds_one() -> None:
    from components import Tween, Tweens
    from systems.game.camera import Camera

    world, other = World(), World()
    for each in (world, other):
        each.insert_resource(Camera())
    world.create_entity(Tweens([Tween(world.resource(Camera), "zoom", to=2.0, duration=1.0)]))
    other.restore(world.snapshot())
    (_, tweens), = other.get_component(Tweens)
    assert tweens.tracks[0][0].target is other.resource(Camera)
    with pytest.raises(SnapshotError, match="refers to the World's Camera resource, which this World does not hold"):
        World().restore(world.snapshot())


def test_a_component_referring_to_another_view_s_camera_refers_to_the_restoring_scene_s():
    from components import Tween, Tweens
    from ecs import Camera, Scene

    first, second = Scene(World()), Scene(World())
    for scene in (first, second):
        scene.add_view(Camera(zoom=0.5), (0, 0, 10, 10))
    first.world.create_entity(Tweens([Tween(first.views.cameras[0], "zoom", to=1.0, duration=1.0)]))
    second.world.restore(first.world.snapshot())
    (_, tweens), = second.world.get_component(Tweens)
    assert tweens.tracks[0][0].target is second.views.cameras[0]

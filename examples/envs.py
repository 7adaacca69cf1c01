"""Envs: the adventure level and the shooter as Gymnasium environments, played by a random policy.

Shows ``ecs.env.SceneEnv`` turning two of the examples into learning environments, registered
with Gymnasium so that ``gymnasium.make`` finds them once this module is imported:

* ``ecs_arcade/Adventure-v0``: the Tiled level, walled at both ends. Six actions (0 nothing,
  1 left, 2 right, 3 jump, 4 jump left, 5 jump right), four physics steps each. Reward: +1 a
  coin, +10 the flag, -3 a life lost; the episode ends at the flag or with the last life. Its
  score is the World's ``examples.adventure.level.Progress`` resource.
* ``ecs_arcade/Shooter-v0``: the top-down arena. Actions ``MultiDiscrete([9, 9])``: which way to
  fly and which way to fire (0: still / hold fire, 1-8: the compass from east, clockwise), four
  physics steps each. Reward: +1 an enemy shot, -1 an enemy bumping the ship; the episode ends
  when no enemy is left, with the action that shoots the last one. The seed places the enemies.

Both observe, by default, a vector in [-1, 1] (``obs="vector"``: 32 floats for the hero, the
nearest coins, slimes and the flag, eight rays to the terrain; 31 for the ship and the eight
nearest enemies), or with ``obs="pixels"``
the screen at 160×96 (adventure) or 160×120 (shooter) RGB pixels. Both end by time after 60 s
of play (900 actions).

Controls: none; a random policy plays each environment and the last frame of each is saved,
side by side, to the screenshot. Needs the ``rl`` extra (``pip install -e .[rl]``).

    python -m examples.envs
    python -m examples.envs --headless --frames 300 --screenshot envs.png
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import pygame
from gymnasium import spaces
from pygame import Vector2

from components import Physics, Touching, Transform
from ecs import Audio, Scene, TileMap, World
from ecs.env import SceneEnv
from examples import shooter
from examples.adventure.art import Art
from examples.adventure.level import JUMP_SPEED, RUN_SPEED, Coin, Goal, Hero, Progress, Slime
from examples.adventure.scenes import LevelScene
from examples.common import parse_args

SECONDS = 60  # of play in an episode
FRAME_SKIP = 4  # physics steps per action
EPISODE = SECONDS * 60 // FRAME_SKIP  # actions
LEFT, RIGHT, JUMP = pygame.K_LEFT, pygame.K_RIGHT, pygame.K_SPACE
COMPASS = [Vector2()] + [Vector2(1, 0).rotate(45 * i) for i in range(8)]  # y down: clockwise from east
REACH = 160.0  # px: how far the nearest things are seen


def nearest(origin: Vector2, places: list[Vector2], count: int, reach: float) -> list[float]:
    """The ``count`` places nearest ``origin`` as (dx, dy, 1) over ``reach`` px, clipped to
    [-1, 1]; (0, 0, 0) for each missing one."""
    places = sorted(places, key=lambda where: ((where - origin).length_squared(), where.x, where.y))[:count]
    values: list[float] = []
    for where in places:
        offset = (where - origin) / reach
        values += [max(-1.0, min(1.0, offset.x)), max(-1.0, min(1.0, offset.y)), 1.0]
    return values + [0.0] * 3 * (count - len(places))


# --- The adventure ---------------------------------------------------------------------------

_art: Art | None = None


def adventure_art() -> Art:
    """The level's pictures, loaded once per process, silent."""
    global _art
    if _art is None:
        _art = Art(Audio(enabled=False))
    return _art


def adventure_scene(seed: int) -> LevelScene:
    """The level as the game starts it (it has no randomness: every seed plays the same level)."""
    return LevelScene(adventure_art())


def adventure_score(scene: Scene) -> float:
    """Coins, the flag (10) and the lives lost (-3 each)."""
    progress = scene.world.resource(Progress)
    return progress.coins + 10.0 * progress.won - 3.0 * (3 - progress.lives)


def adventure_over(scene: Scene) -> bool:
    """At the flag, or with no life left."""
    progress = scene.world.resource(Progress)
    return progress.won or progress.lives <= 0


def adventure_observe(scene: Scene) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The hero (where in the level, velocity, on the ground, lives, unhurtable), the three
    nearest coins, the two nearest slimes, the flag, and eight rays to the terrain."""
    world = scene.world
    assert isinstance(scene, LevelScene)
    size = world.resource(TileMap).size
    hero, transform = world.component_for_entity(scene.hero, Hero), world.component_for_entity(scene.hero, Transform)
    velocity = world.component_for_entity(scene.hero, Physics).velocity
    centre = transform.position + Vector2(5, 10)
    values = [transform.position.x / size.x, transform.position.y / size.y, velocity.x / RUN_SPEED,
              velocity.y / JUMP_SPEED, float(world.component_for_entity(scene.hero, Touching).down),
              world.resource(Progress).lives / 3, float(hero.invulnerable > 0)]
    values += nearest(centre, [t.position for _, (_, t) in world.get_components(Coin, Transform)], 3, REACH)
    values += nearest(centre, [t.position for _, (_, t) in world.get_components(Slime, Transform)], 2, REACH)
    values += nearest(centre, [t.position for _, (_, t) in world.get_components(Goal, Transform)], 1, size.x)[:2]
    for direction in COMPASS[1:]:
        hits = [hit for hit in world.raycast(centre, centre + direction * 96) if hit.entity != scene.hero]
        values.append(hits[0].fraction if hits else 1.0)
    return np.clip(np.array(values, dtype=np.float32), -1, 1)


def _check_obs(obs: object) -> None:
    if obs not in ("vector", "pixels"):
        raise ValueError(f"obs must be 'vector' or 'pixels', got {obs!r}")


def adventure_env(obs: str = "vector", render_mode: str | None = None, frame_skip: int = FRAME_SKIP) -> SceneEnv:
    """``ecs_arcade/Adventure-v0``."""
    _check_obs(obs)
    observe = {"observe": adventure_observe, "observation_space": spaces.Box(-1, 1, (32,), np.float32)}
    return SceneEnv(adventure_scene, keys=[(), (LEFT,), (RIGHT,), (JUMP,), (LEFT, JUMP), (RIGHT, JUMP)],
                    **(observe if obs == "vector" else {"pixels": (160, 96)}),
                    score=adventure_score, terminated=adventure_over, size=(800, 480),
                    frame_skip=frame_skip, render_mode=render_mode)


# --- The shooter ---------------------------------------------------------------------------

class ShooterScene(Scene):
    """The shooter's arena, its enemies placed by ``seed``; ``state`` counts kills and hits."""

    def __init__(self, seed: int) -> None:
        super().__init__(World())
        self.seed = seed
        self.state: dict[str, int] = {}

    def enter(self) -> None:
        self.state = shooter.build(self.world, auto=False, seed=self.seed)


def shooter_act(scene: Scene, action: Any) -> None:
    """Fly toward ``action[0]`` (arrow keys) and fire toward ``action[1]`` (the mouse, held)."""
    fly, fire = COMPASS[int(action[0])], COMPASS[int(action[1])]
    keys = {pygame.K_RIGHT} if fly.x > 0.1 else {pygame.K_LEFT} if fly.x < -0.1 else set()
    keys |= {pygame.K_DOWN} if fly.y > 0.1 else {pygame.K_UP} if fly.y < -0.1 else set()
    scene.input.hold(keys)
    ship = next(t.position for _, (_, t) in scene.world.get_components(shooter.Ship, Transform))
    scene.input.mouse_position.update(ship + Vector2(10, 10) + fire * 100)
    scene.input.mouse_buttons = {1} if fire else set()


def shooter_score(scene: Scene) -> float:
    """Enemies shot, less the times one bumped the ship."""
    assert isinstance(scene, ShooterScene)
    return scene.state["kills"] - scene.state["hits"]


def shooter_over(scene: Scene) -> bool:
    """No enemy left: the last one shot ends the episode with the action that shot it, though
    its entity is deleted only as the next step begins."""
    world = scene.world
    return not any(world.entity_exists(enemy) for enemy, _ in world.get_component(shooter.Enemy))


def shooter_observe(scene: Scene) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The ship (where, velocity, able to fire) and the eight enemies nearest it."""
    world = scene.world
    ship, transform, physics = next(c for _, c in world.get_components(shooter.Ship, Transform, Physics))
    centre = transform.position + Vector2(10, 10)
    values = [centre.x / shooter.WIDTH, centre.y / shooter.HEIGHT, physics.velocity.x / shooter.SHIP_SPEED,
              physics.velocity.y / shooter.SHIP_SPEED, float(ship.cooldown == 0.0)]
    enemies = [t.position + Vector2(12, 12) for enemy, (_, t) in world.get_components(shooter.Enemy, Transform)
               if world.entity_exists(enemy)]  # (one shot this step is deleted as the next begins)
    values += nearest(centre, enemies, 8, shooter.WIDTH)
    values += [len(enemies) / 8, world.component_for_entity(scene.state["radar"], shooter.Radar).inside / 8]
    return np.clip(np.array(values, dtype=np.float32), -1, 1)


def shooter_policy(observations: np.ndarray[Any, Any], space: Any) -> np.ndarray[Any, Any]:
    """A scripted pilot for the vector observations, one row per copy: fire toward the nearest
    enemy (its compass point); fly away from it within 120 px, at it beyond 250 px, and round
    it in between (so that a pillar between them does not hold the ship still)."""
    dx, dy, seen = observations[:, 5], observations[:, 6], observations[:, 7] > 0
    point = np.round(np.degrees(np.arctan2(dy, dx)) / 45).astype(np.int64) % 8  # 0: east, clockwise
    distance = np.hypot(dx, dy) * shooter.WIDTH
    turn = np.select([distance < 120, distance > 250], [4, 0], 2)  # eighths of a turn from the enemy
    fly = np.where(seen, 1 + (point + turn) % 8, 0)
    return np.stack([fly, np.where(seen, 1 + point, 0)], axis=1)


def shooter_env(obs: str = "vector", render_mode: str | None = None, frame_skip: int = FRAME_SKIP) -> SceneEnv:
    """``ecs_arcade/Shooter-v0``."""
    _check_obs(obs)
    observe = {"observe": shooter_observe, "observation_space": spaces.Box(-1, 1, (31,), np.float32)}
    return SceneEnv(ShooterScene, act=shooter_act, action_space=spaces.MultiDiscrete([9, 9]),
                    **(observe if obs == "vector" else {"pixels": (160, 120)}),
                    score=shooter_score, terminated=shooter_over, size=(shooter.WIDTH, shooter.HEIGHT),
                    frame_skip=frame_skip, render_mode=render_mode)


for _name, _entry in (("Adventure", adventure_env), ("Shooter", shooter_env)):
    if f"ecs_arcade/{_name}-v0" not in gymnasium.registry:
        gymnasium.register(f"ecs_arcade/{_name}-v0", entry_point=_entry, max_episode_steps=EPISODE)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(__doc__, argv)
    frames = []
    for name in ("Adventure", "Shooter"):
        env = gymnasium.make(f"ecs_arcade/{name}-v0", render_mode="rgb_array" if args.headless else "human")
        env.reset(seed=0)
        env.action_space.seed(0)
        total, steps = 0.0, 0
        while args.frames is None or steps < args.frames:
            _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            total, steps = total + float(reward), steps + 1
            if terminated or truncated:
                break
        print(f"{name}: {steps} actions, return {total:g}")
        if args.headless:
            frames.append(env.render())
        env.close()
    if args.screenshot and frames:
        height = max(frame.shape[0] for frame in frames)
        picture = np.concatenate([np.pad(f, ((0, height - f.shape[0]), (0, 0), (0, 0))) for f in frames], axis=1)
        pygame.image.save(pygame.surfarray.make_surface(picture.swapaxes(0, 1)), args.screenshot)


if __name__ == "__main__":
    main()

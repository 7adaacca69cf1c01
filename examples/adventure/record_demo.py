"""Record the headless demo: a bot plays the level and its key presses are saved.

The bot holds right and jumps at walls, ledges and slimes; at the wide pit it
waits for the moving platform, rides it and walks off at the far side. It
posts its presses as pygame events from a system at the same priority and
step as ``Autoplay``, so replaying the saved presses (``assets/demo.json``)
plays the level exactly the same way: the physics is deterministic. Run it
again after changing the level:

    python -m examples.adventure.record_demo
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from components import Collider, ColliderType, Physics, Touching, Transform  # noqa: E402
from ecs import Audio, Game, TileMap, World  # noqa: E402
from examples.adventure.art import ASSETS, Art  # noqa: E402
from examples.adventure.demo import KEYS  # noqa: E402
from examples.adventure.level import Patrol, Progress, Slime  # noqa: E402
from examples.adventure.scenes import LevelScene  # noqa: E402

NAMES = {code: name for name, code in KEYS.items()}
JUMP_HOLD = 16  # steps: a full jump


class Bot:
    """Decides each step which keys are down, and posts the changes."""

    def __init__(self, scene: LevelScene) -> None:
        self.scene, self.world = scene, scene.world
        self.step, self.jumping = 0, 0
        self.held: set[int] = set()
        self.presses: list[tuple[int, str, bool]] = []

    def process(self, dt: float) -> None:
        right, jump = self.decide()
        if jump and not self.jumping:
            self.jumping = JUMP_HOLD
        self.press(KEYS["jump"], self.jumping > 0)
        self.jumping = max(0, self.jumping - 1)
        self.press(KEYS["right"], right)
        self.step += 1

    def press(self, key: int, down: bool) -> None:
        if down != (key in self.held):
            (self.held.add if down else self.held.discard)(key)
            self.presses.append((self.step, NAMES[key], down))
            kind = pygame.KEYDOWN if down else pygame.KEYUP
            pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))

    def solid(self, x: float, y: float) -> bool:
        """Whether a tile collider covers the world point (x, y)."""
        for entity in self.world.resource(TileMap).colliders:
            where = self.world.component_for_entity(entity, Transform).position
            size = self.world.component_for_entity(entity, Collider).size
            if where.x <= x < where.x + size.x and where.y <= y < where.y + size.y:
                return True
        return False

    def decide(self) -> tuple[bool, bool]:
        """(hold right, start a jump) for this step."""
        world, hero = self.world, self.scene.hero
        position = world.component_for_entity(hero, Transform).position
        if not world.component_for_entity(hero, Touching).down:
            return True, False
        front, feet = position.x + 10, position.y + 20
        platform = next((t.position for _, (t, c, _, _) in world.get_components(Transform, Collider, Physics, Patrol)
                         if c.type is ColliderType.STATIC), None)
        if platform is not None and abs(feet - platform.y) < 1 and platform.x - 10 < position.x < platform.x + 48:
            return self.solid(platform.x + 50, feet + 4), False  # ride; walk off when the far side is there
        wall = any(self.solid(front + 6, feet - dy) for dy in (4, 16))
        ledge = not self.solid(front + 5, feet + 4)
        slime = any(0 < t.position.x - front < 34 and abs(t.position.y + 10 - feet) < 14
                    for _, (t, _) in world.get_components(Transform, Slime))
        if ledge and platform is not None and self.gap(front + 5, feet) > 6:
            return platform.x <= front + 6, False  # wait for the platform, step on
        return True, wall or ledge or slime

    def gap(self, x: float, feet: float) -> int:
        """Tiles ahead with no ground within ten tiles below the feet."""
        count = 0
        while count < 20 and not any(self.solid(x + count * 16, feet + 4 + dy) for dy in range(0, 160, 8)):
            count += 1
        return count


def main(limit: int = 6000) -> None:
    """Play the level with the bot and write assets/demo.json."""
    game = Game(size=(800, 480), headless=True)
    art = Art(Audio(enabled=False))
    level = LevelScene(art)
    game.replace(level)
    bot = Bot(level)
    level.world.add_system(bot, priority=1000)  # where Autoplay runs
    world: World = level.world
    while bot.step < limit and not world.resource(Progress).won:
        game.run(frames=1)
    progress = world.resource(Progress)
    (ASSETS / "demo.json").write_text(json.dumps({"level": bot.presses}) + "\n")
    print(f"{len(bot.presses)} presses over {bot.step} steps; won {progress.won}, "
          f"coins {progress.coins}/{progress.total}, lives {progress.lives}")
    game.close()


if __name__ == "__main__":
    main()

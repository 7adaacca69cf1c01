"""The adventure example: its level loads into few colliders, and the demo plays it through."""

import pytest
from pygame import Vector2

from components import Transform
from ecs import TileMap
from examples.adventure import build
from examples.adventure.demo import PAUSE_AT, PAUSE_FOR
from examples.adventure.level import Progress
from examples.adventure.scenes import EndScene, LevelScene, PauseScene, TitleScene

TITLE = 46  # frames: Enter goes down at the title's step 45 and is seen one step later
FADE = 36  # frames of the fade from the title to the level (0.6 s), during which the level waits


def test_the_demo_crosses_two_screens_pauses_on_the_platform_and_finishes_the_level():
    game, art = build(headless=True)
    game.run(frames=20)
    assert isinstance(game.scene, TitleScene)
    game.run(frames=TITLE - 20 + 1)
    level = game.scene
    assert isinstance(level, LevelScene)
    tile_map = level.world.resource(TileMap)
    assert tile_map.columns * tile_map.tile_size[0] >= 6 * 400  # six views of 400 world px (800 px at zoom 2)
    assert len(tile_map.colliders) < tile_map.solid_tiles / 20  # merged
    start = Vector2(level.world.component_for_entity(level.hero, Transform).position)
    assert game.transition is not None  # the title fades out and the level in (0.6 s: 36 frames)
    game.run(frames=FADE)
    assert game.transition is None and level.world.component_for_entity(level.hero, Transform).position == start
    game.run(frames=PAUSE_AT)
    hero = level.world.component_for_entity(level.hero, Transform).position
    view = game.camera.view_size.x  # 800 px / zoom 2 = 400 world px
    assert hero.x - start.x >= 2 * view  # two screens' width and more
    game.run(frames=5)
    assert isinstance(game.scene, PauseScene) and game.scenes[-2] is level
    frozen = Vector2(hero)
    game.run(frames=PAUSE_FOR - 10)
    assert hero == frozen  # the level below the pause does not move
    game.run(frames=1300)
    progress = level.world.resource(Progress)
    assert isinstance(game.scene, EndScene)
    assert progress.won and progress.lives == 3 and progress.coins >= 20
    assert progress.time == pytest.approx(1509 / 60, abs=0.1)  # the recorded run's steps
    art.audio.close()
    game.close()

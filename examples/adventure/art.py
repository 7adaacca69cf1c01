"""The adventure's pictures, animations and sounds, loaded once per game."""

from __future__ import annotations

from pathlib import Path

import pygame

from components import Animation
from ecs import Audio, SpriteSheet, load_image

ASSETS = Path(__file__).resolve().parent / "assets"
LEVEL = ASSETS / "level.tmx"
SOUNDS = ("coin", "jump", "stomp", "hurt", "win")


class Art:
    """Everything the scenes draw and play, made by ``make_assets.py``.

    Sheets are cut with ``SpriteSheet`` (the hero's has a 1 px margin and
    2 px spacing); ``animations`` are named clips shared by every entity.
    ``audio`` plays the sounds (silently where there is no audio device).
    """

    def __init__(self, audio: Audio) -> None:
        hero = SpriteSheet(ASSETS / "hero.png", (16, 24), margin=1, spacing=2)
        slime = SpriteSheet(ASSETS / "slime.png", (16, 12))
        coin = SpriteSheet(ASSETS / "coin.png", (10, 10))
        flag = SpriteSheet(ASSETS / "flag.png", (16, 32))
        self.hero = {
            "idle": Animation(hero.row(0, count=4), (0.6, 0.5, 0.6, 0.15)),
            "run": Animation(hero.row(1), 0.08),
            "jump": Animation([hero.frame(0, 2)], 1.0, loop=False),
            "fall": Animation([hero.frame(1, 2)], 1.0, loop=False),
        }
        self.slime = {"walk": Animation(slime.row(0, count=4), 0.12)}
        self.squashed = slime.frame(4)
        self.coin = {"spin": Animation(coin.frames, (0.3, 0.08, 0.06, 0.06, 0.06, 0.08))}
        self.flag = {"still": Animation([flag.frame(0)], 1.0, loop=False),
                     "wave": Animation(flag.frames, 0.25)}
        self.platform = load_image(ASSETS / "platform.png")
        self.heart = load_image(ASSETS / "heart.png")
        self.tiles = SpriteSheet(ASSETS / "tileset.png", (16, 16))
        self.audio = audio
        for name in SOUNDS:
            audio.load(name, ASSETS / f"{name}.wav")

    def play(self, sound: str, volume: float = 1.0) -> None:
        """Play one of the sound effects."""
        self.audio.play(sound, volume)

    @staticmethod
    def scaled(image: pygame.Surface, factor: int) -> pygame.Surface:
        """``image`` ``factor`` times bigger, pixels kept sharp."""
        return pygame.transform.scale(image, (image.get_width() * factor, image.get_height() * factor))

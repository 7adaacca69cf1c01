"""Components: plain dataclasses holding data and validation only."""

import os

# pygame prints a banner on import; a library built on it stays quiet.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from components.animation import Animation, Animator
from components.bitmap_font import BitmapFont
from components.collider import Collider, ColliderType, Shape
from components.layers import ALL, Side
from components.particles import Emitter
from components.physics import Physics
from components.sprite import Sprite, TileChunks
from components.text import Text
from components.touching import Touching
from components.transform import Transform
from components.tween import Tween, Tweens

__all__ = [
    "ALL", "Animation", "Animator", "BitmapFont", "Collider", "ColliderType", "Emitter", "Physics", "Shape",
    "Side", "Sprite", "Text", "TileChunks", "Touching", "Transform", "Tween", "Tweens",
]

"""Components: plain dataclasses holding data and validation only."""

from components.collider import Collider, ColliderType, Shape
from components.physics import Physics
from components.sprite import Sprite
from components.touching import Touching
from components.transform import Transform

__all__ = ["Collider", "ColliderType", "Physics", "Shape", "Sprite", "Touching", "Transform"]

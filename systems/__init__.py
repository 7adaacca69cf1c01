"""Systems: the esper processors a World runs. The collision pipeline (``systems.physics``:
Movement, Collision, Response, and the spatial queries) and the game layer (``systems.game``:
animation, camera, drawing, text, the debug overlay). This module exports the systems and their
priorities; the data they hand the game (Camera, Contact, Label, RayHit, Gizmos) is exported
by ``ecs``, with the World."""

import os

# pygame prints a banner on import; a library built on it stays quiet.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from systems.game.animation import ANIMATION_PRIORITY, AnimationSystem
from systems.game.camera import CAMERA_PRIORITY, CameraSystem
from systems.game.debug import DebugOverlay
from systems.game.render import RenderSystem
from systems.game.text import TextSystem
from systems.physics.collision import CollisionSystem
from systems.physics.movement import MovementSystem
from systems.physics.queries import SpatialQueries
from systems.physics.response import ResponseSystem

__all__ = [
    "ANIMATION_PRIORITY", "AnimationSystem", "CAMERA_PRIORITY", "CameraSystem", "CollisionSystem",
    "DebugOverlay", "MovementSystem", "RenderSystem", "ResponseSystem", "SpatialQueries", "TextSystem",
]

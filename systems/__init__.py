"""Systems: esper processors that run the collision pipeline (plus its geometry and the tile
merge), and those that animate, follow with the camera and draw."""

import os

# pygame prints a banner on import; a library built on it stays quiet.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from systems.animation import ANIMATION_PRIORITY, AnimationSystem, advance
from systems.broadphase import SpatialGrid
from systems.camera import CAMERA_PRIORITY, Camera, CameraSystem
from systems.collision import Body, CollisionSystem
from systems.contact import Contact
from systems.debug import DebugOverlay, Gizmos
from systems.impulse import exchange_momentum, pool_adjacent
from systems.movement import MovementSystem
from systems.queries import RayHit, SpatialQueries
from systems.render import ImageCache, RenderSystem, draw_shape, sprite_box
from systems.response import ResponseSystem
from systems.text import Label, TextSystem, render_text
from systems.tilemerge import merge_tiles

__all__ = [
    "ANIMATION_PRIORITY",
    "AnimationSystem",
    "Body",
    "CAMERA_PRIORITY",
    "Camera",
    "CameraSystem",
    "CollisionSystem",
    "Contact",
    "DebugOverlay",
    "Gizmos",
    "ImageCache",
    "Label",
    "MovementSystem",
    "RayHit",
    "RenderSystem",
    "ResponseSystem",
    "SpatialGrid",
    "SpatialQueries",
    "TextSystem",
    "advance",
    "draw_shape",
    "exchange_momentum",
    "merge_tiles",
    "pool_adjacent",
    "render_text",
    "sprite_box",
]

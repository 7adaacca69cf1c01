"""ecs: the World that ties esper, the components and the systems together, and the game
layer around it: Game and its scenes, input, camera, Tiled maps, images, audio."""

import os

# pygame prints a banner on import; a library built on it stays quiet.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from ecs.actions import Actions, Key, MouseButton, PadAxis, PadButton, PadHat
from ecs.audio import Audio
from ecs.autoplay import Autoplay
from ecs.game import Game
from ecs.images import SpriteSheet, load_image
from ecs.input import Input
from ecs.loading import Loading, LoadingError
from ecs.memory import freeze_loaded
from ecs.scene import DrawSystem, Scene
from ecs.snapshot import SnapshotError
from ecs.tiled import MapError, MapObject, TileMap, load_map
from ecs.timestep import FixedTimestep
from ecs.transitions import CrossFade, Fade, Slide, Transition
from ecs.world import (
    COLLISION_PRIORITY,
    EVENTS_PRIORITY,
    MOVEMENT_PRIORITY,
    RESPONSE_PRIORITY,
    CollisionHandler,
    System,
    World,
)
from systems.game.camera import Camera
from systems.physics._shapes.contact import Contact
from systems.game.debug import Gizmos
from systems.physics.queries import RayHit
from systems.game.text import Label
from systems.game.timers import Timer, Timers

__all__ = [
    "Actions",
    "Audio",
    "Autoplay",
    "COLLISION_PRIORITY",
    "Camera",
    "CollisionHandler",
    "EVENTS_PRIORITY",
    "Fade",
    "Contact",
    "CrossFade",
    "DrawSystem",
    "FixedTimestep",
    "Game",
    "Gizmos",
    "Input",
    "Key",
    "Label",
    "Loading",
    "LoadingError",
    "RayHit",
    "MOVEMENT_PRIORITY",
    "MapError",
    "MapObject",
    "MouseButton",
    "PadAxis",
    "PadButton",
    "PadHat",
    "RESPONSE_PRIORITY",
    "Scene",
    "Slide",
    "SnapshotError",
    "SpriteSheet",
    "System",
    "TileMap",
    "Timer",
    "Timers",
    "Transition",
    "World",
    "freeze_loaded",
    "load_image",
    "load_map",
]

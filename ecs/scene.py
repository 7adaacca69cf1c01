"""Scene: one screen of a game (a title, a level, a pause menu) with its own World."""

from __future__ import annotations

import time
from typing import Protocol

import pygame

from ecs.input import Input
from ecs.world import World
from systems.game.animation import ANIMATION_PRIORITY, AnimationSystem
from systems.game.camera import CAMERA_PRIORITY, Camera, CameraSystem
from systems.game.debug import Gizmos
from systems.game.render import RenderSystem
from systems.game.text import TextSystem
from systems.game.timers import TIMER_PRIORITY, TimerSystem, Timers
from systems.game.tween import TWEEN_PRIORITY, TweenSystem


__all__ = ["DrawSystem", "Scene", "SceneStack"]


class DrawSystem(Protocol):
    """A system of the frame schedule: ``process(surface, alpha)`` runs once per
    frame (an ``esper.Processor`` subclass, or anything with that method)."""

    def process(self, surface: pygame.Surface, alpha: float) -> None: ...


class SceneStack(Protocol):
    """What a scene sees of the ``Game`` whose stack holds it (``Scene.game``):
    the stack's three moves and the frame counters. (Typed as a Protocol so
    that scenes don't import the Game built on them; at run time it is the
    Game itself.)"""

    screen: pygame.Surface
    headless: bool
    running: bool
    frames: int
    steps: int

    def push(self, scene: Scene) -> None:
        """Put ``scene`` on top of the stack (it enters; the one below pauses)."""

    def pop(self) -> None:
        """Take the top scene off (it exits; the one below resumes)."""

    def replace(self, scene: Scene) -> None:
        """Swap the top scene for ``scene``."""


class Scene:
    """A screen of the game owning its World, its systems and its draw systems.

    A ``Game`` keeps scenes on a stack (``push``, ``pop``, ``replace``): only
    the top scene steps and receives input. A ``transparent`` scene is drawn
    over the scene below it, which stays frozen as its last step left it (a
    pause menu over the level). Each scene's World gets an ``Input``, a
    ``Camera``, a ``Timers`` (also ``scene.input``, ``scene.camera``,
    ``scene.timers``) and a ``Gizmos`` resource (debug lines for the
    overlay), and the Timer, Tween, Animation and Camera systems; its draw systems start with the sprite
    renderer (priority 100) and the text system (50).

    Subclass it and override the hooks: ``enter`` (pushed; build the world
    here, ``self.game`` is set), ``exit`` (popped or replaced), ``pause``
    (another scene covers it), ``resume`` (uncovered again) and
    ``update(dt)`` (one physics step of ``dt`` seconds; by default it steps
    the World). ``background`` (r, g, b) fills the screen under the scene,
    None uses the Game's.
    """

    transparent = False

    def __init__(self, world: World | None = None, *, background: tuple[int, int, int] | None = None) -> None:
        self.world = world if world is not None else World()
        self.camera = Camera()
        self.input = Input(self.camera)
        self.world.insert_resource(self.input)
        self.world.insert_resource(self.camera)
        self.world.insert_resource(Gizmos())
        self.timers = Timers()
        self.world.insert_resource(self.timers)
        self.world.add_system(TimerSystem(self.world), TIMER_PRIORITY)
        self.world.add_system(TweenSystem(self.world), TWEEN_PRIORITY)
        self.world.add_system(AnimationSystem(self.world), ANIMATION_PRIORITY)
        self.world.add_system(CameraSystem(self.world), CAMERA_PRIORITY)
        self.renderer = RenderSystem(self.world)
        self.text = TextSystem(self.world)
        self.draw_systems: list[tuple[int, DrawSystem]] = []
        self.add_draw_system(self.renderer, priority=100)
        self.add_draw_system(self.text, priority=50)
        self.background = background
        self._game: SceneStack | None = None

    @property
    def game(self) -> SceneStack:
        """The Game whose stack holds this scene."""
        if self._game is None:
            raise RuntimeError(f"{type(self).__name__} is not on a Game's scene stack")
        return self._game

    def add_draw_system(self, system: DrawSystem, priority: int = 0) -> None:
        """Run ``system.process(surface, alpha)`` every frame this scene is
        drawn; higher priority first (sprites 100, text 50)."""
        if not callable(getattr(system, "process", None)):
            raise ValueError(f"draw system must have a process(surface, alpha) method, got {system!r}")
        self.draw_systems.append((priority, system))
        self.draw_systems.sort(key=lambda item: -item[0])

    def enter(self) -> None:
        """Called when pushed onto the stack (``self.game`` is set)."""

    def exit(self) -> None:
        """Called when popped or replaced."""

    def pause(self) -> None:
        """Called when another scene is pushed over this one."""

    def resume(self) -> None:
        """Called when the scene above this one is popped."""

    def update(self, dt: float) -> None:
        """One physics step of ``dt`` seconds: steps the World."""
        self.world.step(dt)

    def draw(self, surface: pygame.Surface, alpha: float, timings: dict[str, float] | None = None) -> None:
        """Run the draw systems, ``alpha`` of the way from the previous step to
        the latest; each one's time (ms) is added to ``timings``."""
        self.camera.size.update(surface.get_size())
        self.camera.interpolate(alpha)
        for _, system in self.draw_systems:
            start = time.perf_counter()
            system.process(surface, alpha)
            if timings is not None:
                name = type(system).__name__
                timings[name] = timings.get(name, 0.0) + (time.perf_counter() - start) * 1000

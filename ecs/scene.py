"""Scene: one screen of a game (a title, a level, a pause menu) with its own World."""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Protocol

import pygame

from components._checks import rgb
from ecs.input import Input
from ecs.transitions import Transition
from ecs.world import World
from systems.game.animation import ANIMATION_PRIORITY, AnimationSystem
from systems.game.camera import CAMERA_PRIORITY, Camera, CameraSystem, Views, draw_overlay
from systems.game.debug import Gizmos
from systems.game.render import RenderSystem
from systems.game.particles import PARTICLE_PRIORITY, ParticleRenderer, ParticleSystem
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

    def push(self, scene: Scene, transition: Transition | None = None) -> None:
        """Put ``scene`` on top of the stack (it enters; the one below pauses)."""

    def pop(self, transition: Transition | None = None) -> None:
        """Take the top scene off (it exits; the one below resumes)."""

    def replace(self, scene: Scene, transition: Transition | None = None) -> None:
        """Swap the top scene for ``scene``."""

    @property
    def transition(self) -> Transition | None:
        """The transition playing, or None."""


class Scene:
    """A screen of the game owning its World, its systems and its draw systems.

    A ``Game`` keeps scenes on a stack (``push``, ``pop``, ``replace``): only
    the top scene steps and receives input. A ``transparent`` scene is drawn
    over the scene below it, which stays frozen as its last step left it (a
    pause menu over the level). Each scene's World gets an ``Input``, a
    ``Camera``, a ``Timers`` (also ``scene.input``, ``scene.camera``,
    ``scene.timers``) and a ``Gizmos`` resource (debug lines for the
    overlay), and the Timer, Tween, Particle, Animation and Camera systems;
    its draw systems start with the sprite renderer (priority 100), the
    particle renderer (75) and the text system (50).

    ``area`` (x, y, w, h screen px, or None: the whole screen) is where the
    main view and its HUD are drawn; ``add_view`` draws more views of the
    world (split screen, a minimap).

    Subclass it and override the hooks: ``enter`` (pushed; build the world
    here, ``self.game`` is set), ``exit`` (popped or replaced), ``pause``
    (another scene covers it), ``resume`` (uncovered again) and
    ``update(dt)`` (one physics step of ``dt`` seconds; by default it steps
    the World). ``background`` (r, g, b) fills the screen under the scene,
    None uses the Game's.

    A change made with a transition (``game.replace(level, Fade(0.5))``)
    calls ``enter``, ``pause`` and ``resume`` at its start and the leaving
    scene's ``exit`` at its end (see ``Game``). While it plays the new top
    scene is frozen, unless ``steps_in_transitions`` is True (a loading
    screen, a live title); either way it hears no input until the end.
    """

    transparent = False
    steps_in_transitions = False

    def __init__(self, world: World | None = None, *, background: tuple[int, int, int] | None = None) -> None:
        if world is not None and not isinstance(world, World):
            raise ValueError(f"world must be an ecs.World or None, got {world!r}")
        self.background = background  # (checked before the world is touched)
        self.world = world if world is not None else World()
        self.camera = Camera()
        self.input = Input(self.camera)
        self.world.insert_resource(self.input)
        self.world.insert_resource(self.camera)
        self.world.insert_resource(Gizmos())
        self.views = Views()
        self.world.insert_resource(self.views)
        # Each extra view's area, background and layers, in the order of ``views.cameras``.
        self._areas: list[tuple[tuple[int, int, int, int], tuple[int, int, int] | None, frozenset[int] | None]] = []
        self._area: tuple[int, int, int, int] | None = None
        self.timers = Timers()
        self.world.insert_resource(self.timers)
        self.world.add_system(TimerSystem(self.world), TIMER_PRIORITY)
        self.world.add_system(TweenSystem(self.world), TWEEN_PRIORITY)
        self.world.add_system(ParticleSystem(self.world), PARTICLE_PRIORITY)
        self.world.add_system(AnimationSystem(self.world), ANIMATION_PRIORITY)
        self.world.add_system(CameraSystem(self.world), CAMERA_PRIORITY)
        self.renderer = RenderSystem(self.world)
        self.text = TextSystem(self.world)
        self.particles = ParticleRenderer(self.world)
        self.draw_systems: list[tuple[int, DrawSystem]] = []
        self.add_draw_system(self.renderer, priority=100)
        self.add_draw_system(self.particles, priority=75)
        self.add_draw_system(self.text, priority=50)
        self._game: SceneStack | None = None

    @property
    def background(self) -> tuple[int, int, int] | None:
        """(r, g, b), 0..255, filling the screen under the scene; None: the Game's."""
        return self._background

    @background.setter
    def background(self, value: tuple[int, int, int] | None) -> None:
        self._background = None if value is None else rgb("background", value)

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

    def add_view(self, camera: Camera, area: tuple[int, int, int, int], *,
                 background: tuple[int, int, int] | None = (0, 0, 0),
                 layers: Collection[int] | None = None) -> Camera:
        """Also draw the world through ``camera`` into ``area`` (x, y, w, h
        screen px, w and h >= 1) of the screen, over the main view: a second
        player's half, a minimap. The area is filled with ``background``
        (r, g, b), or left as the main view drew it (None); then the sprites
        and tile layers whose ``layer`` is in ``layers`` (None: all) and the
        particles are drawn (not the text: HUDs belong to the main view),
        with the view's own fade. The CameraSystem moves ``camera`` like the
        main one (``target``, bounds, smoothing). Returns ``camera``."""
        if not isinstance(camera, Camera):
            raise ValueError(f"camera must be a Camera, got {camera!r}")
        if background is not None:
            background = rgb("background", background)
        chosen = None if layers is None or isinstance(layers, (str, bytes)) else frozenset(layers)
        if layers is not None and (chosen is None or not all(
                isinstance(layer, int) and not isinstance(layer, bool) for layer in chosen)):
            raise ValueError(f"layers must be a collection of ints (sprite layers) or None, got {layers!r}")
        self._areas.append((_screen_area("area", area), background, chosen))
        self.views.cameras.append(camera)
        return camera

    @property
    def area(self) -> tuple[int, int, int, int] | None:
        """Where the main view is drawn: (x, y, w, h) screen px, or None for the whole screen."""
        return self._area

    @area.setter
    def area(self, value: tuple[int, int, int, int] | None) -> None:
        self._area = None if value is None else _screen_area("area", value)

    def remove_view(self, camera: Camera) -> None:
        """Stop drawing the view of ``camera`` (``ValueError`` if it has none)."""
        if not any(each is camera for each in self.views.cameras):
            raise ValueError(f"{type(self).__name__} has no view through {camera!r}")
        index = next(i for i, each in enumerate(self.views.cameras) if each is camera)
        del self.views.cameras[index], self._areas[index]
        self.renderer.forget_view(camera)

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
        whole = surface
        part = pygame.Rect(self.area or surface.get_rect()).clip(surface.get_rect())
        if part.w and part.h:  # (an area off the screen draws no main view; the others still)
            surface = surface.subsurface(part) if self.area is not None else surface
            self.camera.size.update(surface.get_size())
            self.camera.interpolate(alpha)
            for _, system in self.draw_systems:
                start = time.perf_counter()
                system.process(surface, alpha)
                if timings is not None:
                    name = type(system).__name__
                    timings[name] = timings.get(name, 0.0) + (time.perf_counter() - start) * 1000
        for camera, (area, background, layers) in zip(self.views.cameras, self._areas):
            part = pygame.Rect(area).clip(whole.get_rect())
            if part.w and part.h:
                view = whole.subsurface(part)
                if background is not None:
                    view.fill(background)
                camera.size.update(part.size)
                camera.interpolate(alpha)
                self.renderer.process(view, alpha, camera, layers)
                self.particles.process(view, alpha, camera)
                draw_overlay(view, camera, alpha)
        draw_overlay(whole, self.camera, alpha)  # the main camera's fade covers every view


def _screen_area(name: str, value: object) -> tuple[int, int, int, int]:
    """``value`` as (x, y, w, h) ints, screen px, w and h >= 1; else ValueError naming ``name``."""
    if (not isinstance(value, (tuple, list)) or len(value) != 4
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value) or value[2] < 1 or value[3] < 1):
        raise ValueError(f"{name} must be (x, y, w, h) ints in screen px with w and h >= 1, got {value!r}")
    return (value[0], value[1], value[2], value[3])

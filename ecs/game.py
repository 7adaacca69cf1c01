"""Game: a World, a pygame window and a fixed-timestep loop."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Protocol

import pygame

from components import Transform
from ecs.input import Input
from ecs.timestep import FixedTimestep
from ecs.world import World
from systems.animation import ANIMATION_PRIORITY, AnimationSystem
from systems.camera import CAMERA_PRIORITY, Camera, CameraSystem
from systems.debug import DebugOverlay
from systems.render import RenderSystem
from systems.text import TextSystem

__all__ = ["Game", "DrawSystem"]


class DrawSystem(Protocol):
    """A system of the frame schedule: ``process(surface, alpha)`` runs once per
    frame (an ``esper.Processor`` subclass, or anything with that method)."""

    def process(self, surface: pygame.Surface, alpha: float) -> None: ...


class Game:
    """Owns a World and a window, and runs physics at a fixed timestep.

    Each frame: pygame's events feed ``input`` (Esc or closing the window
    quits), the frame's real time buys whole physics steps of ``step``
    seconds (at most ``max_steps_per_frame``, so a slow frame never
    spirals), then the draw systems run once with the interpolation factor.
    ``headless`` uses SDL's dummy video driver and advances exactly one step
    per frame, so runs are reproducible (tests, servers, screenshots).
    ``debug_key`` (F1) toggles the debug overlay; ``debug`` starts it shown.
    ``clock`` (seconds, monotonic) can be replaced, e.g. by a fake in tests.
    """

    def __init__(
        self,
        world: World | None = None,
        *,
        size: tuple[int, int] = (800, 600),
        title: str = "ecs",
        step: float = 1.0 / 60.0,
        max_steps_per_frame: int = 5,
        background: tuple[int, int, int] = (22, 24, 30),
        headless: bool = False,
        fps: int = 60,
        clock: Callable[[], float] | None = None,
        debug: bool = False,
        debug_key: int = pygame.K_F1,
    ) -> None:
        if headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        pygame.display.init()
        pygame.font.init()
        self.headless = headless
        self.screen = pygame.display.set_mode(size)
        pygame.display.set_caption(title)
        self.world = world if world is not None else World()
        self.timestep = FixedTimestep(step, max_steps_per_frame)
        self.background = background
        self.clock = clock or time.perf_counter
        self.camera = Camera(size)
        self.input = Input(self.camera)
        self.world.insert_resource(self.input)
        self.world.insert_resource(self.camera)
        self.world.add_system(AnimationSystem(self.world), ANIMATION_PRIORITY)
        self.world.add_system(CameraSystem(self.world), CAMERA_PRIORITY)
        self.renderer = RenderSystem(self.world)
        self.draw_systems: list[tuple[int, DrawSystem]] = []
        self.add_draw_system(self.renderer, priority=100)
        self.add_draw_system(TextSystem(self.world), priority=50)
        self.debug = DebugOverlay(self.world, self.debug_stats, visible=debug)
        self.debug_key = debug_key
        self.add_draw_system(self.debug, priority=-1000)
        self.running = False
        self.frames = 0
        self.steps = 0
        self.frame_timings: dict[str, float] = {}
        self.fps = 0.0
        self.target_fps = fps
        self._last: float | None = None

    def add_draw_system(self, system: DrawSystem, priority: int = 0) -> None:
        """Run ``system.process(surface, alpha)`` every frame, after physics;
        higher priority first (the sprite renderer has 100, so overlays and
        text go below it)."""
        self.draw_systems.append((priority, system))
        self.draw_systems.sort(key=lambda item: -item[0])

    def frame(self, elapsed: float, alpha: float | None = None) -> int:
        """Run one frame worth ``elapsed`` seconds; return physics steps run.

        Draw systems get ``alpha`` in [0, 1] (by default the timestep's: how
        far the leftover time reaches into the next step; 1.0 draws the state
        after the last step)."""
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                self.running = False
            if event.type == pygame.KEYDOWN and event.key == self.debug_key:
                self.debug.visible = not self.debug.visible
            self.input.handle(event)
        timings: dict[str, float] = {}
        steps = self.timestep.advance(elapsed)
        for _ in range(steps):
            self.world.step(self.timestep.step)
            self.input.end_step()
            for name, ms in self.world.timings.items():
                timings[name] = timings.get(name, 0.0) + ms
        self.steps += steps
        self.screen.fill(self.background)
        if alpha is None:
            alpha = self.timestep.alpha
        self.camera.size.update(self.screen.get_size())
        self.camera.interpolate(alpha)
        for _, system in self.draw_systems:
            start = time.perf_counter()
            system.process(self.screen, alpha)
            name = type(system).__name__
            timings[name] = timings.get(name, 0.0) + (time.perf_counter() - start) * 1000
        pygame.display.flip()
        self.frame_timings = timings
        self.frames += 1
        return steps

    def debug_stats(self) -> list[tuple[str, str]]:
        """Rows for the debug overlay: frame rate, counts, last frame's times."""
        rows = [
            ("FPS", f"{self.fps:.0f}"),
            ("entities", str(len(self.world.get_component(Transform)))),
            ("contacts", str(len(self.world.contacts))),
        ]
        rows += [(name, f"{ms:.2f} ms") for name, ms in self.frame_timings.items() if name != "DebugOverlay"]
        return rows

    def run(self, frames: int | None = None, screenshot: str | None = None) -> None:
        """Loop until quit, or for ``frames`` more frames; then save ``screenshot`` (PNG).

        Headless, each frame is exactly one physics step and is drawn as the
        step left it, so the screenshot shows the state after the last step.
        """
        self.running = True
        ticker = pygame.time.Clock()
        self._last = self.clock()
        end = None if frames is None else self.frames + frames
        while self.running and (end is None or self.frames < end):
            if not self.headless:
                ticker.tick(self.target_fps)
            now = self.clock()
            real, self._last = now - self._last, now
            if real > 0:  # the frame rate shown by the overlay, smoothed
                self.fps = 1.0 / real if self.fps == 0 else 0.9 * self.fps + 0.1 / real
            if self.headless:
                self.frame(self.timestep.step, alpha=1.0)
            else:
                self.frame(real)
        if screenshot:
            folder = os.path.dirname(screenshot)
            if folder:
                os.makedirs(folder, exist_ok=True)
            pygame.image.save(self.screen, screenshot)
        self.running = False

    def close(self) -> None:
        """Close the window (after ``run`` returns); the World is left intact."""
        pygame.display.quit()

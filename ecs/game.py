"""Game: a window, a stack of scenes and a fixed-timestep loop."""

from __future__ import annotations

import gc
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Integral

import pygame

from components import Transform
from components._checks import rgb
from components.text import load_font
from ecs.input import Input
from ecs.memory import freeze_loaded
from ecs.scene import DrawSystem, Scene
from ecs.timestep import FixedTimestep
from ecs.transitions import Transition
from ecs.world import World
from systems.game.camera import Camera
from systems.game.debug import DebugOverlay
from systems.game.render import RenderSystem
from systems.physics._kernels import background as kernels  # ("background" is the colour argument)

__all__ = ["Game", "DrawSystem"]

# A change of the stack; given a list, it puts the scene leaving the stack
# there instead of calling its ``exit`` (a transition calls it at its end).
_Change = Callable[[list[Scene] | None], None]


@dataclass
class _Playing:
    """A transition being played: ``before`` is the stack as it was (drawn
    as the old view), ``leaving`` the scenes taken off it, to exit at the end."""

    transition: Transition
    before: list[Scene]
    leaving: list[Scene]
    steps: int  # the transition's length in fixed steps
    done: int = 0  # steps played

    def fraction(self, alpha: float) -> float:
        """How far it has played (0 to 1), ``alpha`` of the way from the step
        before the last to the last, as scenes are drawn."""
        return min(1.0, max(0.0, self.done - 1 + alpha) / self.steps)


class Game:
    """Owns a window and a stack of scenes, and runs physics at a fixed timestep.

    Each frame: pygame's events feed the top scene's ``input`` (Esc or
    closing the window quits), the frame's real time buys whole physics
    steps of ``step`` seconds (at most ``max_steps_per_frame``, so a slow
    frame never spirals) for the top scene, then the scenes are drawn once
    with the interpolation factor: the top one, and under a transparent top
    the frozen ones below it. ``Game(world)`` puts that World on the stack
    as a plain ``Scene``; ``Game(scene=Title())`` starts with your own;
    ``world``, ``input``, ``camera`` and ``renderer`` are the top scene's.
    ``push``, ``pop`` and ``replace`` change the stack; called during a
    step they take effect right after it.

    ``headless`` uses SDL's dummy video and audio drivers and advances
    exactly one step per frame, so runs are reproducible (tests, servers,
    screenshots). ``screen``, a ``pygame.Surface`` of your own, is drawn
    into instead of a window: no window opens, no events are read, and the
    Game is headless (many Games in one process each draw into their own;
    learning environments are made this way). ``advance`` runs one physics
    step without drawing and ``draw`` draws the scenes as the last step left
    them, for code that steps a Game itself.

    ``push``, ``pop`` and ``replace`` take a ``transition`` (``Fade``,
    ``CrossFade``, ``Slide`` of ``ecs.transitions``), played on the fixed
    step for ``transition.count_steps(step)`` steps. The stack changes at
    once (``scene`` is the new top) and the hooks are called as without a
    transition, except that the scene leaving the stack (popped or
    replaced) is drawn until the end and its ``exit`` is called only then.
    ``push``: the covered ``pause``, the new ``enter``; ``replace``: the new
    ``enter`` ... the old ``exit``; ``pop``: the uncovered ``resume`` ... the
    popped ``exit``. Meanwhile the old scenes are frozen and the new top
    steps only if its ``steps_in_transitions`` is True (a loading screen;
    by default a level starts when it is fully shown). Input goes to nobody:
    the new top hears no keys until the end, when it starts from what is
    down then. A change asked for while a transition plays waits for its
    end (after the ``exit``), then happens, with its own transition if it
    has one; so do the changes queued after it. ``transition`` is the one
    playing, or None. Popping the last scene with a transition ends ``run``
    at the transition's end.

    ``debug_key`` (F1) toggles the debug overlay; ``debug``
    starts it shown. ``clock`` (seconds, monotonic) can be replaced, e.g. by
    a fake in tests. ``fps`` is the frames ``run`` began in the last second
    over the real time they took; the clock runs on between calls of ``run``.

    At the end of the frame in which a scene pushed or swapped in takes its
    first step after any transition (a loading point: the scene is built and the compiled
    kernels are loaded), the Game collects garbage and freezes what is
    alive (``ecs.freeze_loaded``), so the collector's full passes during
    play walk only what was made since (without it, about 55 ms every few
    steps of a busy scene).
    ``freeze_on_enter=False`` leaves the collector alone; ``close`` unfreezes.

    On a machine whose numba cache lacks the compiled kernels (the first
    run), making a Game starts compiling them in a background process and
    logs one line; the game plays meanwhile on the Python code, which gives
    the same results, and the kernels take over when ready (another line,
    and a loading point as above). While they compile, a window shows a
    line saying so in its bottom-left corner (``show_notices``: True unless
    ``headless``).
    """

    def __init__(
        self,
        world: World | None = None,
        *,
        scene: Scene | None = None,
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
        freeze_on_enter: bool = True,
        screen: pygame.Surface | None = None,
    ) -> None:
        if world is not None and scene is not None:
            raise ValueError("give Game a world or a scene, not both")
        _check_options(title, fps, clock, debug_key)
        self.background = background  # (checked before a window opens)
        for name, flag in (("headless", headless), ("debug", debug), ("freeze_on_enter", freeze_on_enter)):
            if not isinstance(flag, bool):  # checked before a window opens
                raise ValueError(f"{name} must be a bool, got {flag!r}")
        if screen is not None and not isinstance(screen, pygame.Surface):
            raise ValueError(f"screen must be a pygame.Surface, got {screen!r}")
        if screen is None:  # (a window's size: pygame would refuse a negative one unnamed, and take 0 as its own)
            _check_size(size)
        self._window = screen is None
        if headless and self._window:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        pygame.font.init()
        first = scene if scene is not None else Scene(world)  # (its world checked before a window opens)
        self.headless = headless or not self._window
        if screen is None:
            pygame.display.init()
            screen = pygame.display.set_mode(size)
            pygame.display.set_caption(title)
            pygame.joystick.init()  # SDL reports gamepads (JOY... events) only once this is up
        self.screen = screen
        self.timestep = FixedTimestep(step, max_steps_per_frame)
        self.clock = clock or time.perf_counter
        self.scenes: list[Scene] = []
        self._devices = Input()  # what is down on the real keyboard, mouse and gamepads
        self._pending: list[Callable[[], None]] = []
        self._transition: _Playing | None = None
        self._stepping = False
        self.running = False
        self.closed = False
        self.frames = 0
        self.steps = 0
        self.frame_timings: dict[str, float] = {}
        self.fps = 0.0
        self._frame_starts: deque[float] = deque()  # clock readings of run's frames in the last second
        self.target_fps = fps
        self._ticker = pygame.time.Clock()
        self._last: float | None = None  # when run's latest frame began
        self.freeze_on_enter = freeze_on_enter
        self._entered = False  # a scene came to the top and hasn't stepped yet
        self._loaded = False  # one has stepped for the first time this frame
        self._froze = False
        kernels.start()
        self._compiling = kernels.compiling()  # shown on screen until the kernels are loaded
        self.show_notices = not headless
        self.push(first)
        self.debug = DebugOverlay(self.world, self.debug_stats, visible=debug)
        self.debug_key = debug_key

    @property
    def background(self) -> tuple[int, int, int]:
        """(r, g, b), 0..255, filling the screen under a scene without a background of its own."""
        return self._background

    @background.setter
    def background(self, value: tuple[int, int, int]) -> None:
        self._background = rgb("background", value)

    @property
    def scene(self) -> Scene:
        """The top scene: the one that steps and hears the input."""
        if not self.scenes:
            raise RuntimeError("the scene stack is empty")
        return self.scenes[-1]

    @property
    def world(self) -> World:
        """The top scene's World."""
        return self.scene.world

    @property
    def input(self) -> Input:
        """The top scene's Input resource."""
        return self.scene.input

    @property
    def camera(self) -> Camera:
        """The top scene's Camera resource."""
        return self.scene.camera

    @property
    def renderer(self) -> RenderSystem:
        """The top scene's sprite renderer."""
        return self.scene.renderer

    def add_draw_system(self, system: DrawSystem, priority: int = 0) -> None:
        """Run ``system.process(surface, alpha)`` every frame the top scene is
        drawn, after physics; higher priority first (the sprite renderer has
        100, text 50, so overlays and HUDs go below)."""
        self.scene.add_draw_system(system, priority)

    @property
    def transition(self) -> Transition | None:
        """The transition playing, or None."""
        return None if self._transition is None else self._transition.transition

    def push(self, scene: Scene, transition: Transition | None = None) -> None:
        """Put ``scene`` on top: the scene below pauses (``pause``), the new one
        enters; through ``transition`` if given. A scene already on the stack is refused
        (``ValueError``): entering it again would build its level a second time in its World."""
        _check_scene(scene)
        self._check_unstacked(scene, "push")
        _check_transition(transition)
        self._change(lambda leaving: self._push(scene), transition)

    def pop(self, transition: Transition | None = None) -> None:
        """Remove the top scene (``exit``); the one below resumes. Popping the
        last scene ends ``run``. Through ``transition`` if given."""
        if not self.scenes:
            raise RuntimeError("the scene stack is empty")
        _check_transition(transition)
        self._change(lambda leaving: self._pop(leaving=leaving), transition)

    def replace(self, scene: Scene, transition: Transition | None = None) -> None:
        """Swap the top scene for ``scene`` (the old one exits, the new one
        enters); through ``transition`` if given. A scene on the stack, the top one included,
        is refused as by ``push``."""
        _check_scene(scene)
        self._check_unstacked(scene, "replace")
        _check_transition(transition)
        self._change(lambda leaving: self._swap(scene, leaving), transition)

    def _change(self, change: _Change, transition: Transition | None = None) -> None:
        """Queue ``change``; outside a step and a transition, apply it now
        (after any left queued by a step that Ctrl-C stopped, in the order asked)."""
        if transition is None:
            self._pending.append(lambda: change(None))
        else:
            self._pending.append(lambda: self._begin(change, transition))
        if not self._stepping and self._transition is None:  # never pull the world out from under its own step
            _raise_first(None, self._apply_pending())

    def _check_unstacked(self, scene: Scene, call: str) -> None:
        """Refuse a scene that is on the stack (``ValueError`` naming it and the call)."""
        if any(scene is stacked for stacked in self.scenes):
            raise ValueError(f"{call}: this {type(scene).__name__} is already on the scene stack (its enter would "
                             f"run again on the same World); pop it first, or make a new one")

    def _push(self, scene: Scene, cover: bool = True) -> None:
        self._check_unstacked(scene, "push")  # (again here: two changes asked for in one step both wait)
        if self.scenes and cover:
            self.scenes[-1].pause()
        self.scenes.append(scene)
        self._entered = True
        scene._game = self
        scene.camera.size.update(self.screen.get_size())
        self._hand_input_to(scene)
        scene.enter()

    def _pop(self, resume: bool = True, leaving: list[Scene] | None = None) -> None:
        """Take the top scene off; it exits now, or is put in ``leaving`` to exit later."""
        if not self.scenes:
            return
        scene = self.scenes.pop()
        if leaving is None:
            scene.exit()
            scene._game = None
        else:
            leaving.append(scene)
        if self.scenes and resume:
            self._hand_input_to(self.scenes[-1])
            self.scenes[-1].resume()
        elif not self.scenes and resume and leaving is None:
            self.running = False

    def _swap(self, scene: Scene, leaving: list[Scene] | None = None) -> None:
        self._check_unstacked(scene, "replace")  # (before the top goes: a refused swap changes nothing)
        self._pop(resume=False, leaving=leaving)
        self._push(scene, cover=False)

    def _begin(self, change: _Change, transition: Transition) -> None:
        """Start playing ``transition`` from the stack as it is, then make
        ``change`` (changes its hooks ask for wait for the end)."""
        playing = _Playing(transition, list(self.scenes), [], transition.count_steps(self.timestep.step))
        self._transition = playing
        try:
            change(playing.leaving)
        finally:
            if self.scenes:  # input goes to nobody: the new top hears nothing until the end
                self.scenes[-1].input.reset((), (), self._devices.mouse_position)

    def _end_transition(self) -> list[Exception]:
        """The transition is over: the scenes that left the stack exit, the
        top starts from what is down now; return the exits that raised."""
        playing, self._transition = self._transition, None
        failures: list[Exception] = []
        for scene in playing.leaving if playing is not None else ():
            try:
                scene.exit()
            except Exception as error:
                failures.append(error)
            finally:
                scene._game = None
        if self.scenes:
            self._hand_input_to(self.scenes[-1])
        else:
            self.running = False  # the last scene was popped
        return failures

    def _hand_input_to(self, scene: Scene) -> None:
        """A scene coming to the top starts from what is down now: keys
        released while it was covered must not stay held."""
        scene.input.reset(self._devices.held, self._devices.mouse_buttons, self._devices.mouse_position,
                          pads=self._devices)

    def frame(self, elapsed: float, alpha: float | None = None) -> int:
        """Run one frame worth ``elapsed`` seconds; return physics steps run.

        Draw systems get ``alpha`` in [0, 1] (by default the timestep's: how
        far the leftover time reaches into the next step; 1.0 draws the state
        after the last step)."""
        self._check_open()
        for event in pygame.event.get() if self._window else ():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                self.running = False
            if event.type == pygame.KEYDOWN and event.key == self.debug_key:
                self.debug.visible = not self.debug.visible
            self._devices.handle(event)
            if self.scenes and self._transition is None:  # during a transition input goes to nobody
                self.scene.input.handle(event)
        timings: dict[str, float] = {}
        steps = self.timestep.advance(elapsed)
        for _ in range(steps):
            if not self._busy():
                break
            self._step(timings)
        self._devices.end_step()
        if alpha is None:
            alpha = self.timestep.alpha
        if self._busy():
            self._draw(alpha, timings)
        self.frame_timings = timings
        self.frames += 1
        if self._compiling and not kernels.compiling():  # just switched to the kernels: numba's objects
            self._compiling, self._loaded = False, True  # are loaded, to be frozen with the scene's
        if self._loaded and self.freeze_on_enter:  # once the frame is done with the scenes it replaced
            freeze_loaded()
            self._froze = True
        self._loaded = False
        return steps

    def _check_open(self) -> None:
        """``RuntimeError`` once the Game is closed: its window is gone."""
        if self.closed:
            raise RuntimeError("this Game is closed (close() was called): make a new Game to play on")

    def _busy(self) -> bool:
        """Whether there is anything to step and draw: a scene or a transition (checked open)."""
        self._check_open()
        return bool(self.scenes) or self._transition is not None

    def _step(self, timings: dict[str, float]) -> None:
        """One physics step of the top scene (unless a transition holds it),
        then one of the transition playing, then the scene changes asked
        for, in order.

        The changes are applied also when the step raised an ``Exception``
        (the World completes a step that raises, see ``World.step``), and a
        change that raises does not stop the ones after it. Then the step's
        own exception is raised, or else the first change's, with a note for
        each other change that raised. A step stopped by an exception that is
        not an ``Exception`` (Ctrl-C's ``KeyboardInterrupt``) lets it go on
        untouched and leaves its changes queued, applied after the next step
        (or with the next change asked for outside a step).
        """
        failed: Exception | None = None
        if self.scenes and (self._transition is None or self.scene.steps_in_transitions):
            failed = self._update_top(timings)
        else:
            self.steps += 1
        failures: list[Exception] = []
        playing = self._transition
        if playing is not None:
            playing.done += 1
            if playing.done >= playing.steps:
                failures = self._end_transition()
        _raise_first(failed, failures + self._apply_pending())

    def _update_top(self, timings: dict[str, float]) -> Exception | None:
        """Step the top scene; return the ``Exception`` it raised, if any."""
        scene = self.scene
        self._stepping = True
        failed: Exception | None = None
        try:
            scene.update(self.timestep.step)
        except Exception as error:
            failed = error
        finally:
            self._stepping = False
            self.steps += 1
            scene.input.end_step()
            for name, ms in scene.world.timings.items():
                timings[name] = timings.get(name, 0.0) + ms
            if self._transition is None:  # a loading point once the scenes it replaced are gone
                self._loaded, self._entered = self._loaded or self._entered, False
        return failed

    def _apply_pending(self) -> list[Exception]:
        """Apply the queued scene changes in order, each even if one before
        it raised an ``Exception``; return those raised. A change asked for
        by one of them (in a scene's ``enter``) is applied at once, as
        outside a step; a ``KeyboardInterrupt`` leaves the rest queued, and
        so does a change starting a transition."""
        pending, self._pending = self._pending, []
        failures: list[Exception] = []
        for index, change in enumerate(pending):
            if self._transition is not None:  # one started: the rest wait for its end,
                self._pending.extend(pending[index:])  # after any its hooks asked for
                break
            try:
                change()
            except Exception as error:
                failures.append(error)
            except BaseException:
                self._pending[:0] = pending[index + 1:]
                raise
        return failures

    def _draw(self, alpha: float, timings: dict[str, float]) -> None:
        """The scenes (through the transition playing, if any), then the debug overlay."""
        playing = self._transition
        if playing is None:
            self._draw_scenes(self.screen, self.scenes, alpha, timings)
        else:  # both sides as their last steps left them
            before, after = playing.before, list(self.scenes)
            playing.transition.draw(self.screen, playing.transition.eased(playing.fraction(alpha)),
                                    lambda surface: self._draw_scenes(surface, before, 1.0, timings),
                                    lambda surface: self._draw_scenes(surface, after, 1.0, timings))
        if self.scenes:
            self.debug.world = self.world
        start = time.perf_counter()
        self.debug.process(self.screen, alpha)
        timings["DebugOverlay"] = (time.perf_counter() - start) * 1000
        if self._compiling and self.show_notices:
            self._draw_notice()
        if self._window:
            pygame.display.flip()

    def _draw_scenes(self, surface: pygame.Surface, scenes: list[Scene], alpha: float,
                     timings: dict[str, float]) -> None:
        """The top one of ``scenes`` and, under transparent ones, the frozen
        ones below (drawn as their last step left them) into ``surface``."""
        bottom = max(0, len(scenes) - 1)
        while bottom > 0 and scenes[bottom].transparent:
            bottom -= 1
        shown = scenes[bottom:]
        surface.fill((shown[0].background if shown else None) or self.background)
        for scene in shown:
            scene.draw(surface, alpha if scene is shown[-1] else 1.0, timings)

    def advance(self) -> None:
        """One physics step (``step`` seconds) of the top scene, then the scene
        changes it asked for; no events are read and nothing is drawn. The
        top scene's ``input`` is what its caller made it (``Input.hold``)
        and forgets its presses after the step, as in ``frame``."""
        timings: dict[str, float] = {}
        if self._busy():
            self._step(timings)
        self.frame_timings = timings

    def draw(self, alpha: float = 1.0) -> None:
        """Draw the scenes into ``screen`` (and show it, in a window), ``alpha``
        in [0, 1] of the way from the step before the last to the last."""
        if self._busy():
            self._draw(alpha, self.frame_timings)

    def _draw_notice(self) -> None:
        """The line saying the kernels compile, bottom left, on a dark band."""
        text = load_font(None, 18).render(kernels.NOTICE, True, (230, 230, 230))
        band = pygame.Surface((text.get_width() + 12, text.get_height() + 6), pygame.SRCALPHA)
        band.fill((0, 0, 0, 170))
        band.blit(text, (6, 3))
        self.screen.blit(band, (6, self.screen.get_height() - band.get_height() - 6))

    def debug_stats(self) -> list[tuple[str, str]]:
        """Rows for the debug overlay: frame rate, counts, last frame's times."""
        rows = [
            ("FPS", f"{self.fps:.0f}"),
            ("entities", str(len(self.world.get_component(Transform)))),
            ("contacts", str(len(self.world.contacts))),
            ("sprites drawn", str(self.renderer.drawn)),
        ]
        # A stage ("ResponseSystem.sweep") is listed, indented, under its system.
        rows += [("  " + name.partition(".")[2] if "." in name else name, f"{ms:.2f} ms")
                 for name, ms in self.frame_timings.items() if name != "DebugOverlay"]
        return rows

    def run(self, frames: int | None = None, screenshot: str | os.PathLike[str] | None = None) -> None:
        """Loop until quit (or the last scene is popped), or for ``frames``
        more frames (an int >= 0); then save ``screenshot``, a path whose
        extension says the format (``.png``, ``.jpg``/``.jpeg``, ``.bmp``, ``.tga``).

        Headless, each frame is exactly one physics step and is drawn as the
        step left it, so the screenshot shows the state after the last step.
        """
        _check_run(frames, screenshot)
        self.running = self._busy()
        end = None if frames is None else self.frames + frames
        while self.running and (end is None or self.frames < end):
            if not self.headless:
                self._ticker.tick(self.target_fps)
            self._frame_timed()
        if screenshot is not None:
            path = os.fspath(screenshot)
            folder = os.path.dirname(path)
            if folder:
                os.makedirs(folder, exist_ok=True)
            pygame.image.save(self.screen, path)
        self.running = False

    def _frame_timed(self) -> None:
        """One frame of ``run``, worth the real time since the last one began.

        The clock is kept across calls of ``run``: a game calling it a few
        frames at a time gets frames (and steps) worth the real time between
        them, and ``fps`` is the frames begun in the last second over the
        real time they took (so a long pause between calls is forgotten
        within a second)."""
        now = self.clock()
        real = 0.0 if self._last is None else now - self._last
        self._last = now
        starts = self._frame_starts
        starts.append(now)
        while len(starts) > 2 and starts[0] < now - 1.0:
            starts.popleft()
        if now > starts[0]:
            self.fps = (len(starts) - 1) / (now - starts[0])
        if self.headless:
            self.frame(self.timestep.step, alpha=1.0)
        else:
            self.frame(real)

    def close(self) -> None:
        """Close the window (after ``run`` returns) and unfreeze what the Game
        froze; the scenes' Worlds are left intact. A Game drawing into a
        ``screen`` of its own leaves the display alone."""
        if self._window:
            pygame.display.quit()
        if self._froze:
            gc.unfreeze()
            self._froze = False
        self.closed = True


def _check_size(size: object) -> None:
    """Refuse a window size that is not two whole numbers of pixels, each at least 1."""
    if (not isinstance(size, (tuple, list)) or len(size) != 2
            or not all(isinstance(side, Integral) and not isinstance(side, bool) and int(side) >= 1 for side in size)):
        raise ValueError(f"size must be (width, height), two whole numbers of pixels >= 1, got {size!r}")


#: The extensions ``pygame.image.save`` knows (any other gets TGA, whatever its name says).
_SCREENSHOT_FORMATS = (".png", ".jpg", ".jpeg", ".bmp", ".tga")


def _check_run(frames: object, screenshot: object) -> None:
    """Refuse ``run``'s arguments before any frame runs."""
    if frames is not None and (not isinstance(frames, int) or isinstance(frames, bool) or frames < 0):
        raise ValueError(f"frames must be an int >= 0, or None to run until quit, got {frames!r}")
    if screenshot is not None and (not isinstance(screenshot, (str, os.PathLike))
                                   or os.path.splitext(os.fspath(screenshot))[1].lower() not in _SCREENSHOT_FORMATS):
        raise ValueError(f"screenshot must be a path ending in one of {', '.join(_SCREENSHOT_FORMATS)}, "
                         f"got {screenshot!r}")


def _check_options(title: object, fps: object, clock: object, debug_key: object) -> None:
    """Refuse a Game's options that pygame would refuse only later, or never (a key code no key has)."""
    if not isinstance(title, str):
        raise ValueError(f"title must be a str, got {title!r}")
    if not isinstance(fps, int) or isinstance(fps, bool) or fps < 0:
        raise ValueError(f"fps must be an int >= 0 (0: as fast as it can), got {fps!r}")
    if clock is not None and not callable(clock):
        raise ValueError(f"clock must be a function returning seconds, or None, got {clock!r}")
    if not isinstance(debug_key, int) or isinstance(debug_key, bool):
        raise ValueError(f"debug_key must be a pygame key code (an int, e.g. pygame.K_F1), got {debug_key!r}")


def _check_scene(scene: object) -> None:
    if not isinstance(scene, Scene):
        raise ValueError(f"scene must be a Scene, got {scene!r}")


def _check_transition(transition: object) -> None:
    if transition is not None and not isinstance(transition, Transition):
        raise ValueError(f"transition must be a Transition (Fade, CrossFade, Slide) or None, got {transition!r}")


def _raise_first(error: Exception | None, failures: list[Exception]) -> None:
    """Raise ``error``, or else the first of ``failures`` (scene changes
    that raised), with a note for each other failure; nothing if neither."""
    first = error if error is not None else (failures[0] if failures else None)
    if first is None:
        return
    for failure in failures:
        if failure is not first:
            first.add_note(f"a queued scene change also raised {type(failure).__name__}: {failure}")
    raise first

"""Loading: a scene that shows a progress bar while a level's assets load,
a few tasks per step, then replaces itself with the level."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator, Iterable
from typing import NoReturn

import pygame

from ecs.scene import Scene
from components._checks import rgb
from ecs.transitions import Transition
from systems.game.text import render_text

__all__ = ["Loading", "LoadingError", "Task"]

#: A loading task: a function doing one piece of the loading, or a generator
#: function doing it in pieces, yielding after each how far it has got
#: (a fraction in [0, 1], or None for a pause without news).
Task = Callable[[], object]

BAR_WIDTH = 0.6  # of the screen's width
BAR_HEIGHT = 12  # px, centred on the screen
LABEL_SIZE = 20  # px, the font height of the line above the bar
_END = object()  # what next() gives for a generator that is done


class LoadingError(Exception):
    """A loading task raised, or yielded a progress that is not a fraction
    in [0, 1] or None. ``index`` is the task's place in the list (-1: the
    ``then`` factory), ``task`` the task; the error it raised, if any, is
    the ``__cause__``."""

    def __init__(self, index: int, task: object, problem: str) -> None:
        what = "then" if index < 0 else f"task {index}"
        super().__init__(f"loading {what} ({_name(task)}) {problem}")
        self.index = index
        self.task = task


def _name(task: object) -> str:
    return str(getattr(task, "__qualname__", None) or repr(task))


class Loading(Scene):
    """Runs ``tasks`` in order, a few per step, showing progress, then
    replaces itself with ``then`` (through ``transition``, if given).

    Each step runs one *unit* of work, then more while ``budget`` seconds
    (of ``clock``, real time; >= 0) are not yet spent since the step
    began: a unit is a call of a plain task, or the run of a generator
    task up to its next ``yield`` (the first unit calls it and runs it to
    its first yield; a generator yielding k times takes k + 1 units). So
    the window stays responsive however long the loading, and with
    ``budget=0`` each step runs exactly one unit: the number of steps is
    known. ``progress`` (0 to 1) is (tasks done + the running generator's
    last yielded fraction) / number of tasks. The step finishing the last
    task asks the Game to replace this scene with ``then`` (a Scene, or a
    function making one, called then: a Scene class builds the level after
    its assets are loaded). It steps during transitions
    (``steps_in_transitions``), so it loads while fading in.

    The tasks run on the game's thread, between steps: pygame surfaces and
    the World are not thread-safe, and a task that must wait (a download)
    can yield None while it polls. A task that raises, or yields something
    other than a fraction in [0, 1] or None, raises ``LoadingError`` from
    the step, naming the task; this scene stays on the stack and stops
    (``error`` keeps the error, the bar stops, its line says the loading
    failed), so the game can show it, retry with a new Loading, or pop.

    ``label`` is the line above the bar (the percentage is added), drawn
    in ``color`` (r, g, b) with the bar; ``background`` as for any Scene.
    """

    steps_in_transitions = True

    def __init__(self, tasks: Iterable[Task], then: Scene | Callable[[], Scene], *, budget: float = 0.008,
                 transition: Transition | None = None, label: str = "Loading",
                 color: tuple[int, int, int] = (230, 230, 230),
                 background: tuple[int, int, int] | None = (0, 0, 0),
                 clock: Callable[[], float] = time.perf_counter) -> None:
        super().__init__(background=background)
        self.tasks: list[Task] = _tasks(tasks)
        if not isinstance(then, Scene) and not callable(then):
            raise ValueError(f"then must be a Scene or a function returning one, got {then!r}")
        self.then = then
        if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not math.isfinite(budget) or budget < 0:
            raise ValueError(f"budget must be a finite number of seconds >= 0, got {budget!r}")
        self.budget = float(budget)
        if transition is not None and not isinstance(transition, Transition):
            raise ValueError(f"transition must be a Transition or None, got {transition!r}")
        self.transition = transition
        if not isinstance(label, str) or len(label) > 200:
            raise ValueError(f"label must be a str of at most 200 characters, got {label!r}")
        self.label = label
        self.color = rgb("color", color)
        if not callable(clock):
            raise ValueError(f"clock must be a function returning seconds, got {clock!r}")
        self.clock = clock
        self.done = 0  # tasks finished
        self.finished = False  # all done and the replacement asked for
        self.error: LoadingError | None = None
        self._running: Generator[object, None, object] | None = None  # the generator task under way
        self._fraction = 0.0  # of the task under way, last yielded (kept if it fails)
        self.add_draw_system(_ProgressBar(self), priority=0)

    @property
    def progress(self) -> float:
        """How much is loaded, 0 to 1 (1 with no tasks)."""
        if self.finished or not self.tasks:
            return 1.0
        return (self.done + self._fraction) / len(self.tasks)

    def update(self, dt: float) -> None:
        """Run units of loading within the budget, then step the World."""
        if not self.finished and self.error is None:
            start = self.clock()
            while self.done < len(self.tasks):
                self._run_unit()
                if self.clock() - start >= self.budget:
                    break
            if self.done == len(self.tasks):
                self._finish()
        super().update(dt)

    def _run_unit(self) -> None:
        """Call the next task, or resume the generator under way, once."""
        index, task = self.done, self.tasks[self.done]
        try:
            if self._running is None:
                result = task()
                if not isinstance(result, Generator):  # a plain task: one call does it
                    self.done += 1
                    return
                self._running = result
            news = next(self._running, _END)
        except Exception as error:
            self._fail(LoadingError(index, task, f"raised {type(error).__name__}: {error}"), error)
        if news is _END:
            self._running, self._fraction = None, 0.0
            self.done += 1
        elif news is not None:
            if isinstance(news, bool) or not isinstance(news, (int, float)) or not 0 <= news <= 1:
                self._fail(LoadingError(index, task, f"yielded {news!r}: progress must be a fraction "
                                                     f"in [0, 1] or None"))
            self._fraction = float(news)

    def _finish(self) -> None:
        """Make the next scene and ask the Game to swap it in."""
        try:
            scene = self.then if isinstance(self.then, Scene) else self.then()
        except Exception as error:
            self._fail(LoadingError(-1, self.then, f"raised {type(error).__name__}: {error}"), error)
        if not isinstance(scene, Scene):
            self._fail(LoadingError(-1, self.then, f"returned {scene!r}, not a Scene"))
        self.finished = True
        self.game.replace(scene, self.transition)

    def _fail(self, error: LoadingError, cause: Exception | None = None) -> NoReturn:
        """Stop loading (closing the generator under way) and raise ``error``."""
        running, self._running = self._running, None
        if running is not None:
            running.close()
        self.error = error
        raise error from cause


def _tasks(tasks: object) -> list[Task]:
    """``tasks`` as a list of callables, else ``ValueError`` naming the bad one."""
    if isinstance(tasks, (str, bytes)) or not isinstance(tasks, Iterable):
        raise ValueError(f"tasks must be a list of functions, got {tasks!r}")
    found = list(tasks)
    for index, task in enumerate(found):
        if not callable(task):
            raise ValueError(f"tasks[{index}] must be a function, got {task!r}")
    return found


class _ProgressBar:
    """Draws a Loading's bar (centred, ``BAR_WIDTH`` of the screen wide,
    ``BAR_HEIGHT`` px high, filled ``progress`` of the way from the left)
    and its line of text above it."""

    def __init__(self, loading: Loading) -> None:
        self.loading = loading

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        loading = self.loading
        width, height = surface.get_size()
        bar = pygame.Rect(0, 0, round(width * BAR_WIDTH), BAR_HEIGHT)
        bar.center = (width // 2, height // 2)
        surface.fill(tuple(c // 4 for c in loading.color), bar)  # the empty track, dimmer
        surface.fill(loading.color, (bar.x, bar.y, round(bar.width * loading.progress), bar.height))
        words = f"{loading.label} failed" if loading.error else f"{loading.label} {math.floor(loading.progress * 100)}%"
        image = render_text(words, None, LABEL_SIZE, loading.color)
        surface.blit(image, image.get_rect(midbottom=(bar.centerx, bar.y - 8)))

"""Autoplay: scripted key presses for demos, tests and headless runs."""

from __future__ import annotations

import esper
import pygame

__all__ = ["Autoplay"]


class Autoplay(esper.Processor):
    """Presses and releases keys on a schedule of physics steps.

    ``script`` maps a step number (counted from 0, this system's own steps)
    to ``(key, down)`` pairs. It posts real pygame KEYDOWN/KEYUP events, so
    the game's Input sees exactly what a keyboard would send, one frame
    later. Add it to the World with a high priority (it must run before the
    systems reading Input).
    """

    def __init__(self, script: dict[int, list[tuple[int, bool]]]) -> None:
        if not isinstance(script, dict):
            raise ValueError(f"script must be a dict of step -> [(key, down), ...], got {script!r}")
        for step, presses in script.items():
            if not isinstance(step, int) or isinstance(step, bool) or step < 0:
                raise ValueError(f"script steps must be ints >= 0, got {step!r}")
            if not isinstance(presses, list):
                raise ValueError(f"script[{step}] must be a list of (key, down) pairs, got {presses!r}")
            for press in presses:
                if not _is_press(press):
                    raise ValueError(f"script[{step}] entries must be (key, down) pairs: a pygame key "
                                     f"code (int) and a bool, got {press!r}")
        self.script = script
        self.step = 0

    def process(self, dt: float) -> None:
        for key, down in self.script.get(self.step, []):
            kind = pygame.KEYDOWN if down else pygame.KEYUP
            pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))
        self.step += 1


def _is_press(press: object) -> bool:
    """Whether ``press`` is a (key, down) pair: a pygame key code and a bool."""
    return (isinstance(press, tuple) and len(press) == 2 and isinstance(press[0], int)
            and not isinstance(press[0], bool) and isinstance(press[1], bool))

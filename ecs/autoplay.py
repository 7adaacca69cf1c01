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
        for step, presses in script.items():
            if not isinstance(step, int) or step < 0:
                raise ValueError(f"script steps must be ints >= 0, got {step!r}")
            for press in presses:
                if len(press) != 2 or not isinstance(press[1], bool):
                    raise ValueError(f"script[{step}] entries must be (key, down) pairs, got {press!r}")
        self.script = script
        self.step = 0

    def process(self, dt: float) -> None:
        for key, down in self.script.get(self.step, []):
            kind = pygame.KEYDOWN if down else pygame.KEYUP
            pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))
        self.step += 1

"""Input: the keyboard and mouse state, readable from any system."""

from __future__ import annotations

import pygame
from pygame import Vector2

__all__ = ["Input"]


class Input:
    """Keyboard and mouse state, fed from pygame's events by the Game.

    ``held`` are the keys down now (pygame key constants such as
    ``pygame.K_LEFT``); ``just_pressed`` the keys that went down since the
    last physics step, so a jump pressed between two steps is not lost.
    Because it is built from events, posting ``KEYDOWN``/``KEYUP`` events
    drives it headless just like a real keyboard.
    """

    def __init__(self) -> None:
        self.held: set[int] = set()
        self.just_pressed: set[int] = set()
        self.mouse_position = Vector2()
        self.mouse_buttons: set[int] = set()

    def is_held(self, key: int) -> bool:
        """Whether ``key`` is down now."""
        return key in self.held

    def was_pressed(self, key: int) -> bool:
        """Whether ``key`` went down since the last physics step."""
        return key in self.just_pressed

    def axis(self, negative: int, positive: int) -> int:
        """-1, 0 or +1 from a pair of keys (e.g. K_LEFT, K_RIGHT)."""
        return (positive in self.held) - (negative in self.held)

    def handle(self, event: pygame.event.Event) -> None:
        """Update the state from one pygame event."""
        if event.type == pygame.KEYDOWN:
            self.held.add(event.key)
            self.just_pressed.add(event.key)
        elif event.type == pygame.KEYUP:
            self.held.discard(event.key)
        elif event.type == pygame.MOUSEMOTION:
            self.mouse_position.update(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse_buttons.add(event.button)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.mouse_buttons.discard(event.button)

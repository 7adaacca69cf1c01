"""Input: the keyboard and mouse state, readable from any system."""

from __future__ import annotations

from collections.abc import Iterable

import pygame
from pygame import Vector2

from systems.game.camera import Camera

__all__ = ["Input"]


class Input:
    """Keyboard and mouse state, fed from pygame's events by the Game.

    ``held`` are the keys down now (pygame key constants such as
    ``pygame.K_LEFT``); ``just_pressed`` / ``just_released`` the keys that
    went down / up since the last physics step, so a jump pressed between two
    steps is not lost. Mouse buttons (1 left, 2 middle, 3 right) work the
    same way: ``mouse_buttons``, ``mouse_just_pressed``, ``mouse_just_released``.
    ``mouse_position`` is in screen px; ``mouse_world_position`` in world px,
    through ``camera`` (the view last drawn). Because it is built from
    events, posting ``KEYDOWN``/``KEYUP`` events drives it headless just like
    a real keyboard.
    """

    def __init__(self, camera: Camera | None = None) -> None:
        self.held: set[int] = set()
        self.just_pressed: set[int] = set()
        self.just_released: set[int] = set()
        self.mouse_position = Vector2()
        self.mouse_buttons: set[int] = set()
        self.mouse_just_pressed: set[int] = set()
        self.mouse_just_released: set[int] = set()
        self.camera = camera

    def is_held(self, key: int) -> bool:
        """Whether ``key`` is down now."""
        return key in self.held

    def was_pressed(self, key: int) -> bool:
        """Whether ``key`` went down since the last physics step."""
        return key in self.just_pressed

    def was_released(self, key: int) -> bool:
        """Whether ``key`` went up since the last physics step."""
        return key in self.just_released

    def axis(self, negative: int, positive: int) -> int:
        """-1, 0 or +1 from a pair of keys (e.g. K_LEFT, K_RIGHT)."""
        return (positive in self.held) - (negative in self.held)

    def mouse_was_pressed(self, button: int) -> bool:
        """Whether mouse ``button`` went down since the last physics step."""
        return button in self.mouse_just_pressed

    def mouse_was_released(self, button: int) -> bool:
        """Whether mouse ``button`` went up since the last physics step."""
        return button in self.mouse_just_released

    @property
    def mouse_world_position(self) -> Vector2:
        """The mouse in world px, through the camera (screen px without one)."""
        if self.camera is None:
            return Vector2(self.mouse_position)
        return self.camera.screen_to_world(self.mouse_position)

    def handle(self, event: pygame.event.Event) -> None:
        """Update the state from one pygame event."""
        if event.type == pygame.KEYDOWN:
            self.held.add(event.key)
            self.just_pressed.add(event.key)
        elif event.type == pygame.KEYUP:
            self.held.discard(event.key)
            self.just_released.add(event.key)
        elif event.type == pygame.MOUSEMOTION:
            self.mouse_position.update(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self._move_mouse(event)
            self.mouse_buttons.add(event.button)
            self.mouse_just_pressed.add(event.button)
        elif event.type == pygame.MOUSEBUTTONUP:
            self._move_mouse(event)
            self.mouse_buttons.discard(event.button)
            self.mouse_just_released.add(event.button)

    def _move_mouse(self, event: pygame.event.Event) -> None:
        if hasattr(event, "pos"):  # events posted by scripts may leave it out
            self.mouse_position.update(event.pos)

    def hold(self, keys: Iterable[int]) -> None:
        """Make ``keys`` exactly the keys down, as pressing the ones not down
        and releasing the others would (an agent's action, a replay, input
        that came over the network)."""
        keys = set(keys)
        for key in keys:
            if not isinstance(key, int) or isinstance(key, bool):
                raise ValueError(f"keys must be pygame key codes (ints), got {key!r}")
        self.just_pressed |= keys - self.held
        self.just_released |= self.held - keys
        self.held = keys

    def end_step(self) -> None:
        """Forget the presses and releases a physics step has now seen."""
        self.just_pressed.clear()
        self.just_released.clear()
        self.mouse_just_pressed.clear()
        self.mouse_just_released.clear()

    def reset(self, held: Iterable[int] = (), mouse_buttons: Iterable[int] = (),
              mouse_position: tuple[float, float] | Vector2 | None = None) -> None:
        """Start over from what is down now (a scene coming back to the top
        of the stack must not see keys released while it was covered)."""
        self.held = set(held)
        self.mouse_buttons = set(mouse_buttons)
        if mouse_position is not None:
            self.mouse_position.update(mouse_position)
        self.end_step()

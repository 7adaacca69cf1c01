"""Input: the keyboard, mouse and gamepad state, readable from any system."""

from __future__ import annotations

import math
from collections.abc import Iterable

import pygame
from pygame import Vector2

from ecs.actions import Actions
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

    Gamepads are known by their ``instance_id`` (pygame's, the same for a pad
    as long as it stays plugged in); ``pads`` lists those plugged in, in the
    order they were (``JOYDEVICEADDED`` / ``JOYDEVICEREMOVED``; a pad unplugged
    releases its buttons). ``pad_buttons`` / ``pad_just_pressed`` /
    ``pad_just_released`` hold (instance_id, button) pairs, read with
    ``pad_is_held``, ``pad_was_pressed`` and ``pad_was_released``;
    ``pad_axis`` and ``pad_stick`` read the sticks in [-1, 1] through the
    ``dead_zone``, ``pad_hat`` the hats (the d-pad). Posted ``JOY...`` events
    drive them headless too. ``actions`` maps named actions to all of these
    (``ecs.actions.Actions``).
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
        self.pads: list[int] = []
        self.pad_buttons: set[tuple[int, int]] = set()
        self.pad_just_pressed: set[tuple[int, int]] = set()
        self.pad_just_released: set[tuple[int, int]] = set()
        self.pad_axes: dict[tuple[int, int], float] = {}  # (instance_id, axis): raw, in [-1, 1]
        self.pad_hats: dict[tuple[int, int], tuple[int, int]] = {}  # (instance_id, hat): (x, y), y +1 up
        self._dead_zone = 0.2
        self.radial = True  # the sticks' dead zone is round (see dead_zone); False: per axis
        #: The axis pairs (x, y) read as one stick by the radial dead zone: the
        #: left stick is (0, 1) on every pad; the right one's axes depend on the
        #: platform ((2, 3) on Windows, (3, 4) on Linux), so add it yourself.
        self.sticks: list[tuple[int, int]] = [(0, 1)]
        # The pads this Input opened: SDL sends a pad's events only while it is
        # open, and pygame closes one whose Joystick object is collected.
        self._joysticks: dict[int, pygame.joystick.JoystickType] = {}
        self.actions = Actions(self)

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
    def dead_zone(self) -> float:
        """How far a stick moves before it reads anything, in [0, 1) of full
        tilt (default 0.2): inside it an axis reads 0, outside it is rescaled
        to go from 0 at the zone's edge to 1 at full tilt, ``(|v| - zone) /
        (1 - zone)`` with v's sign. With ``radial`` (the default) the pairs of
        axes in ``sticks`` are rescaled as one vector by its length, so a
        stick pushed diagonally does not snap to an axis; otherwise each axis
        on its own."""
        return self._dead_zone

    @dead_zone.setter
    def dead_zone(self, size: float) -> None:
        if not isinstance(size, (int, float)) or isinstance(size, bool) or not 0.0 <= size < 1.0:
            raise ValueError(f"dead_zone must be in [0, 1), got {size!r}")
        self._dead_zone = float(size)

    def pad_is_held(self, button: int, pad: int | None = None) -> bool:
        """Whether ``button`` is down now on pad ``pad`` (an instance_id; None: any pad)."""
        return _has_button(self.pad_buttons, button, pad)

    def pad_was_pressed(self, button: int, pad: int | None = None) -> bool:
        """Whether ``button`` went down since the last physics step on pad ``pad`` (None: any)."""
        return _has_button(self.pad_just_pressed, button, pad)

    def pad_was_released(self, button: int, pad: int | None = None) -> bool:
        """Whether ``button`` went up since the last physics step on pad ``pad``
        (None: any), unplugging the pad included."""
        return _has_button(self.pad_just_released, button, pad)

    def pad_axis(self, axis: int, pad: int | None = None) -> float:
        """Axis ``axis`` of pad ``pad``, in [-1, 1] through the dead zone (0 at
        rest or for a pad not plugged in; sticks grow rightwards and downwards).
        None: the pad pushing it furthest."""
        if pad is None:
            return max((self.pad_axis(axis, each) for each in self.pads), key=abs, default=0.0)
        if self.radial:
            for stick in self.sticks:
                if axis in stick:
                    value = self.pad_stick(stick[0], stick[1], pad)
                    return value.x if axis == stick[0] else value.y
        return _rescale(self.pad_axes.get((pad, axis), 0.0), self._dead_zone)

    def pad_stick(self, x_axis: int = 0, y_axis: int = 1, pad: int | None = None) -> Vector2:
        """The stick made of axes ``x_axis`` and ``y_axis`` (by default the
        left one) of pad ``pad``, through the dead zone (radial or per axis,
        see ``dead_zone``); its length is at most 1. None: the pad pushing
        its stick furthest."""
        if pad is None:
            return max((self.pad_stick(x_axis, y_axis, each) for each in self.pads), key=Vector2.length,
                       default=Vector2())
        x = self.pad_axes.get((pad, x_axis), 0.0)
        y = self.pad_axes.get((pad, y_axis), 0.0)
        if not self.radial:
            stick = Vector2(_rescale(x, self._dead_zone), _rescale(y, self._dead_zone))
            return stick.clamp_magnitude(1.0) if stick.length() > 1.0 else stick
        length = math.hypot(x, y)
        if length <= self._dead_zone:
            return Vector2()
        # Rescaled like one axis, then capped: a square-gated pad reaches
        # (1, 1), a length of 1.41, in its corners.
        scale = min(1.0, (length - self._dead_zone) / (1.0 - self._dead_zone)) / length
        return Vector2(x * scale, y * scale)

    def pad_hat(self, hat: int = 0, pad: int | None = None) -> tuple[int, int]:
        """Hat ``hat`` of pad ``pad`` as (x, y), each -1, 0 or +1 (x +1 right,
        y +1 *up*, as pygame gives it; (0, 0) centred). None: the first pad,
        in ``pads`` order, whose hat is not centred."""
        if pad is not None:
            return self.pad_hats.get((pad, hat), (0, 0))
        return next((value for each in self.pads if (value := self.pad_hat(hat, each)) != (0, 0)), (0, 0))

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
        elif event.type == pygame.JOYBUTTONDOWN:
            self._plug(event.instance_id)
            self.pad_buttons.add((event.instance_id, event.button))
            self.pad_just_pressed.add((event.instance_id, event.button))
        elif event.type == pygame.JOYBUTTONUP:
            self.pad_buttons.discard((event.instance_id, event.button))
            self.pad_just_released.add((event.instance_id, event.button))
        elif event.type == pygame.JOYAXISMOTION:
            self._plug(event.instance_id)
            # SDL's -32768 comes out a hair under -1.
            self.pad_axes[(event.instance_id, event.axis)] = min(1.0, max(-1.0, float(event.value)))
        elif event.type == pygame.JOYHATMOTION:
            self._plug(event.instance_id)
            x, y = event.value
            self.pad_hats[(event.instance_id, event.hat)] = (int(x), int(y))
        elif event.type == pygame.JOYDEVICEADDED:
            self._add_pad(event)
        elif event.type == pygame.JOYDEVICEREMOVED:
            self._remove_pad(event.instance_id)

    def _plug(self, instance_id: int) -> None:
        """Count the pad as plugged in: it sent an event (a script may post a
        pad's events without posting its JOYDEVICEADDED first)."""
        if instance_id not in self.pads:
            self.pads.append(instance_id)

    def _add_pad(self, event: pygame.event.Event) -> None:
        instance_id = getattr(event, "instance_id", None)  # a posted event may give it
        if instance_id is None:
            # A real pad's event gives only its place in SDL's list: opening it
            # tells its instance_id and makes SDL send its buttons and axes.
            try:
                joystick = pygame.joystick.Joystick(event.device_index)
            except pygame.error:  # unplugged again before its event was read
                return
            instance_id = joystick.get_instance_id()
            self._joysticks[instance_id] = joystick
        self._plug(instance_id)

    def _remove_pad(self, instance_id: int) -> None:
        """Forget an unplugged pad: its buttons are released (a step sees
        them go up), its sticks and hats read centred."""
        if instance_id in self.pads:
            self.pads.remove(instance_id)
        for pressed in [each for each in self.pad_buttons if each[0] == instance_id]:
            self.pad_buttons.discard(pressed)
            self.pad_just_released.add(pressed)
        self.pad_axes = {key: value for key, value in self.pad_axes.items() if key[0] != instance_id}
        self.pad_hats = {key: value for key, value in self.pad_hats.items() if key[0] != instance_id}
        self._joysticks.pop(instance_id, None)

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
        self.pad_just_pressed.clear()
        self.pad_just_released.clear()
        self.actions.end_step()

    def reset(self, held: Iterable[int] = (), mouse_buttons: Iterable[int] = (),
              mouse_position: tuple[float, float] | Vector2 | None = None, pads: Input | None = None) -> None:
        """Start over from what is down now (a scene coming back to the top
        of the stack must not see keys released while it was covered).
        ``pads``: the Input whose gamepads to copy (plugged in, buttons down,
        sticks, hats); None: no pads. The bindings and dead zone stay."""
        self.held = set(held)
        self.mouse_buttons = set(mouse_buttons)
        if mouse_position is not None:
            self.mouse_position.update(mouse_position)
        self.pads = list(pads.pads) if pads is not None else []
        self.pad_buttons = set(pads.pad_buttons) if pads is not None else set()
        self.pad_axes = dict(pads.pad_axes) if pads is not None else {}
        self.pad_hats = dict(pads.pad_hats) if pads is not None else {}
        self.end_step()


def _rescale(value: float, dead_zone: float) -> float:
    """One axis through a dead zone of ``dead_zone`` (in [0, 1)): 0 inside it,
    then from 0 at its edge to ±1 at full tilt, so the smallest push past
    the zone moves a little rather than jumping to ``dead_zone``."""
    size = abs(value)
    if size <= dead_zone:
        return 0.0
    return math.copysign((size - dead_zone) / (1.0 - dead_zone), value)


def _has_button(pairs: set[tuple[int, int]], button: int, pad: int | None) -> bool:
    """Whether ``pairs`` of (pad, button) hold ``button`` for ``pad`` (None: any pad)."""
    if pad is not None:
        return (pad, button) in pairs
    return any(down == button for _, down in pairs)

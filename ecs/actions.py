"""Actions: named game actions ("jump", "left", "fire") bound to keys, mouse
buttons and gamepad buttons, sticks and hats, so game code never names a key."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias

__all__ = ["Actions", "Binding", "InputLike", "Key", "MouseButton", "PadAxis", "PadButton", "PadHat"]


class InputLike(Protocol):
    """What Actions reads of an ``ecs.Input`` (typed as a Protocol because the
    Input makes its Actions, so this module must not import it)."""

    pads: list[int]
    mouse_buttons: set[int]

    def is_held(self, key: int) -> bool: ...
    def was_pressed(self, key: int) -> bool: ...
    def mouse_was_pressed(self, button: int) -> bool: ...
    def pad_is_held(self, button: int, pad: int | None = None) -> bool: ...
    def pad_was_pressed(self, button: int, pad: int | None = None) -> bool: ...
    def pad_axis(self, axis: int, pad: int | None = None) -> float: ...
    def pad_hat(self, hat: int = 0, pad: int | None = None) -> tuple[int, int]: ...


def _check_index(kind: str, field: str, value: object, least: int = 0) -> None:
    """``value`` must be an int >= ``least`` (a bool is not one: True is no key code)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise ValueError(f"{kind}.{field} must be an int >= {least}, got {value!r}")


def _check_pad(kind: str, pad: object) -> None:
    """``pad``: a pad's instance_id (int >= 0), or None for any pad."""
    if pad is not None:
        _check_index(kind, "pad", pad)


@dataclass(frozen=True)
class Key:
    """A keyboard key: ``code`` is a pygame key code (``pygame.K_SPACE``).
    ``bind`` takes a bare key code as this."""

    code: int

    def __post_init__(self) -> None:
        _check_index("Key", "code", self.code)


@dataclass(frozen=True)
class MouseButton:
    """A mouse button: 1 left, 2 middle, 3 right (pygame's numbers)."""

    button: int

    def __post_init__(self) -> None:
        _check_index("MouseButton", "button", self.button, least=1)


@dataclass(frozen=True)
class PadButton:
    """A gamepad button (pygame's number, from 0; which is which depends on
    the pad). ``pad``: the pad's instance_id, None for any pad."""

    button: int
    pad: int | None = None

    def __post_init__(self) -> None:
        _check_index("PadButton", "button", self.button)
        _check_pad("PadButton", self.pad)


@dataclass(frozen=True)
class PadAxis:
    """One direction of a gamepad axis: ``axis`` (from 0; the left stick is 0
    across and 1 down on every pad SDL knows), ``direction`` -1 or +1 (SDL's
    axes grow rightwards and downwards: ``PadAxis(1, -1)`` is the left stick up).

    Its value is the axis, dead zone applied (``Input.dead_zone``), along
    ``direction``: 0 at rest or pushed the other way, 1 at full tilt. The
    action counts as pressed from ``threshold`` (in (0, 1]) on. ``pad``: the
    pad's instance_id, None for any pad.
    """

    axis: int
    direction: int
    pad: int | None = None
    threshold: float = 0.5

    def __post_init__(self) -> None:
        _check_index("PadAxis", "axis", self.axis)
        if self.direction not in (-1, 1) or isinstance(self.direction, bool):
            raise ValueError(f"PadAxis.direction must be -1 or +1, got {self.direction!r}")
        _check_pad("PadAxis", self.pad)
        threshold = self.threshold
        if (not isinstance(threshold, (int, float)) or isinstance(threshold, bool)
                or not 0.0 < threshold <= 1.0):  # NaN fails this too
            raise ValueError(f"PadAxis.threshold must be in (0, 1], got {threshold!r}")


#: The four directions of a hat, as pygame's hat values (x, y): y is +1 *up*
#: on a hat (unlike the sticks' axes, which grow downwards).
HAT_DIRECTIONS: dict[str, tuple[int, int]] = {"left": (-1, 0), "right": (1, 0), "up": (0, 1), "down": (0, -1)}


@dataclass(frozen=True)
class PadHat:
    """One direction of a gamepad hat (the d-pad on most pads):
    ``direction`` "left", "right", "up" or "down"; ``hat`` its number (from 0).
    A diagonal presses both its directions. ``pad``: the pad's instance_id,
    None for any pad."""

    direction: Literal["left", "right", "up", "down"]
    hat: int = 0
    pad: int | None = None

    def __post_init__(self) -> None:
        if self.direction not in HAT_DIRECTIONS:
            raise ValueError(f"PadHat.direction must be 'left', 'right', 'up' or 'down', got {self.direction!r}")
        _check_index("PadHat", "hat", self.hat)
        _check_pad("PadHat", self.pad)


#: What an action can be bound to.
Binding: TypeAlias = Key | MouseButton | PadButton | PadAxis | PadHat
_BINDINGS = (Key, MouseButton, PadButton, PadAxis, PadHat)


class Actions:
    """Named actions read from an ``Input``: each scene's Input has one,
    ``input.actions`` (so it reads what that scene hears, and forgets its
    presses on the same step).

    ``bind("jump", pygame.K_SPACE, PadButton(0))`` binds an action to one or
    more keys (bare pygame key codes or ``Key``), ``MouseButton``,
    ``PadButton``, ``PadAxis`` (a stick direction) or ``PadHat``; the action
    is on while any of them is. ``unbind``, ``rebind`` and ``bindings`` change
    and list them at any time, taking effect at once.

    ``pressed(action)``: on now. ``just_pressed`` / ``just_released``: it went
    on / off since the last physics step (a tap between two steps shows as
    both). ``value(action)`` in [0, 1]: 1 for a key or button down, a stick's
    tilt for a ``PadAxis``. ``axis(negative, positive)`` in [-1, 1]:
    ``value(positive) - value(negative)``, so keys give -1, 0 or +1 and a
    stick anything between. Reading an action never bound raises
    ``ValueError`` (a misspelt name would otherwise read as never pressed).
    """

    def __init__(self, input: InputLike) -> None:
        self.input = input
        self._bindings: dict[str, list[Binding]] = {}
        self._on_last_step: set[str] = set()  # the actions on when the last step ended

    # Bindings.

    def bind(self, action: str, *bindings: Binding | int) -> None:
        """Add ``bindings`` to ``action`` (made if new; with none, it is just
        made, bound to nothing). A binding it has already is not added twice."""
        found = self._checked(action, bindings)
        known = self._bindings.setdefault(action, [])
        known.extend(binding for binding in dict.fromkeys(found) if binding not in known)

    def unbind(self, action: str, *bindings: Binding | int) -> None:
        """Remove ``bindings`` from ``action``, or all of them if none are
        given (the action stays, bound to nothing)."""
        self._known(action)
        found = self._checked(action, bindings)
        known = self._bindings[action]
        for binding in found:
            if binding not in known:
                raise ValueError(f"cannot unbind action {action!r} from {binding!r}: it is not bound to it "
                                 f"(its bindings: {known})")
        self._bindings[action] = [binding for binding in known if binding not in found] if found else []

    def rebind(self, action: str, *bindings: Binding | int) -> None:
        """Make ``bindings`` the only ones of ``action`` (made if new)."""
        found = self._checked(action, bindings)
        self._bindings[action] = list(dict.fromkeys(found))

    def bind_all(self, bindings: Mapping[str, Iterable[Binding | int]]) -> None:
        """``bind`` each action of ``bindings`` (e.g. another scene's
        ``actions.bindings()``, or saved settings) to its bindings. All are
        checked before any is bound."""
        checked = {action: self._checked(action, tuple(each)) for action, each in bindings.items()}
        for action, found in checked.items():
            self.bind(action, *found)

    def bindings(self) -> dict[str, tuple[Binding, ...]]:
        """Each action and its bindings, in the order they were bound (a copy)."""
        return {action: tuple(found) for action, found in self._bindings.items()}

    # Reading.

    def pressed(self, action: str) -> bool:
        """Whether ``action`` is on now."""
        return any(self._on(binding) for binding in self._known(action))

    def just_pressed(self, action: str) -> bool:
        """Whether ``action`` went on since the last physics step."""
        found = self._known(action)
        if action in self._on_last_step:
            return False
        return any(self._on(binding) or self._tapped(binding) for binding in found)

    def just_released(self, action: str) -> bool:
        """Whether ``action`` went off since the last physics step (it was on
        when that step ended, or went on and off again since)."""
        found = self._known(action)
        if any(self._on(binding) for binding in found):
            return False
        return action in self._on_last_step or any(self._tapped(binding) for binding in found)

    def value(self, action: str) -> float:
        """How far ``action`` is on, in [0, 1]: 1 for a key or button down, a
        stick's tilt (dead zone applied) for a ``PadAxis``; the most of its bindings."""
        return max((self._value(binding) for binding in self._known(action)), default=0.0)

    def axis(self, negative: str, positive: str) -> float:
        """``value(positive) - value(negative)``, in [-1, 1] (e.g. ``axis("left",
        "right")``: -1 full left, +1 full right; both held cancel out)."""
        return self.value(positive) - self.value(negative)

    def end_step(self) -> None:
        """Remember which actions are on as a physics step ends (``Input.end_step``
        calls it), to tell the next step what went on or off since."""
        self._on_last_step = {action for action in self._bindings if self.pressed(action)}

    # Helpers.

    def _known(self, action: str) -> list[Binding]:
        found = self._bindings.get(action)
        if found is None:
            _check_name(action)
            raise ValueError(f"unknown action {action!r} (bound: {', '.join(map(repr, self._bindings)) or 'none'})")
        return found

    def _checked(self, action: str, bindings: tuple[object, ...]) -> list[Binding]:
        """``bindings`` as Binding objects (bare key codes as Key), or a
        ValueError naming ``action`` and the bad binding."""
        _check_name(action)
        found: list[Binding] = []
        for binding in bindings:
            if isinstance(binding, _BINDINGS):
                found.append(binding)
            elif isinstance(binding, int) and not isinstance(binding, bool):
                try:
                    found.append(Key(binding))
                except ValueError as error:
                    raise ValueError(f"cannot bind action {action!r} to {binding!r}: {error}") from None
            else:
                raise ValueError(f"cannot bind action {action!r} to {binding!r}: a binding is a key code (an int "
                                 f"such as pygame.K_SPACE), Key, MouseButton, PadButton, PadAxis or PadHat")
        return found

    def _pads(self, pad: int | None) -> list[int]:
        return self.input.pads if pad is None else [pad]

    def _on(self, binding: Binding) -> bool:
        if isinstance(binding, PadAxis):
            return self._value(binding) >= binding.threshold
        return self._value(binding) == 1.0

    def _value(self, binding: Binding) -> float:
        put = self.input
        if isinstance(binding, Key):
            return float(put.is_held(binding.code))
        if isinstance(binding, MouseButton):
            return float(binding.button in put.mouse_buttons)
        if isinstance(binding, PadButton):
            return float(put.pad_is_held(binding.button, binding.pad))
        if isinstance(binding, PadAxis):
            return max([0.0] + [binding.direction * put.pad_axis(binding.axis, pad) for pad in self._pads(binding.pad)])
        x, y = HAT_DIRECTIONS[binding.direction]  # one of them is 0: match the other
        return float(any(put.pad_hat(binding.hat, pad)[abs(y)] == x + y for pad in self._pads(binding.pad)))

    def _tapped(self, binding: Binding) -> bool:
        """Whether a key or button of ``binding`` went down since the last
        step, even if it is up again (sticks and hats are read as they are)."""
        put = self.input
        if isinstance(binding, Key):
            return put.was_pressed(binding.code)
        if isinstance(binding, MouseButton):
            return put.mouse_was_pressed(binding.button)
        if isinstance(binding, PadButton):
            return put.pad_was_pressed(binding.button, binding.pad)
        return False


def _check_name(action: object) -> None:
    if not isinstance(action, str) or not action:
        raise ValueError(f"an action's name must be a non-empty str, got {action!r}")

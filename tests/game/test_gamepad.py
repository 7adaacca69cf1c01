"""Gamepads: buttons per pad, sticks through the dead zone, hats, hot-plugging."""

import math

import pygame
import pytest
from pygame import Vector2

from ecs import Game, Input, Scene, World

STEP = 1 / 60


def pad_event(kind, **attributes):
    if "instance_id" in attributes:
        attributes.setdefault("joy", attributes["instance_id"])  # what pygame 2 sends too
    return pygame.event.Event(kind, **attributes)


def post(kind, **attributes):
    pygame.event.post(pad_event(kind, **attributes))


def move(keys, axis, value, pad=0):
    keys.handle(pad_event(pygame.JOYAXISMOTION, instance_id=pad, axis=axis, value=value))


def test_buttons_are_seen_on_the_step_after_they_go_down_and_forgotten_after_it():
    game = Game(World(), size=(120, 60), headless=True)
    pygame.event.clear()
    keys = game.input
    post(pygame.JOYDEVICEADDED, device_index=0, instance_id=7)
    post(pygame.JOYBUTTONDOWN, instance_id=7, button=2)
    game.frame(0.0)  # read, no step yet
    assert keys.pads == [7]
    assert keys.pad_is_held(2) and keys.pad_is_held(2, pad=7) and keys.pad_was_pressed(2, pad=7)
    assert not keys.pad_is_held(2, pad=8) and not keys.pad_is_held(1)
    game.frame(STEP)  # one step saw the press
    assert keys.pad_is_held(2, pad=7) and not keys.pad_was_pressed(2)
    post(pygame.JOYBUTTONUP, instance_id=7, button=2)
    game.frame(0.0)
    assert not keys.pad_is_held(2) and keys.pad_was_released(2) and keys.pad_was_released(2, pad=7)
    game.frame(STEP)
    assert not keys.pad_was_released(2)
    game.close()


@pytest.mark.parametrize("raw, expected", [
    (0.0, 0.0),
    (0.1, 0.0),
    (0.2, 0.0),  # the edge of the zone still reads 0
    (0.6, 0.5),  # (0.6 - 0.2) / (1 - 0.2)
    (-0.6, -0.5),
    (0.9, 0.875),  # 0.7 / 0.8
    (1.0, 1.0),
    (-1.0, -1.0),
    (-1.00003, -1.0),  # SDL's -32768 / 32767: clamped
])
def test_an_axis_reads_zero_in_the_dead_zone_and_is_rescaled_past_it(raw, expected):
    keys = Input()
    keys.radial = False
    move(keys, 3, raw)
    assert keys.pad_axis(3, pad=0) == pytest.approx(expected)
    assert keys.pad_axis(3) == pytest.approx(expected)  # the only pad


def test_the_dead_zone_can_be_changed_and_is_checked():
    keys = Input()
    keys.radial = False
    keys.dead_zone = 0.5
    move(keys, 3, 0.75)
    assert keys.pad_axis(3) == pytest.approx(0.5)  # 0.25 / 0.5
    keys.dead_zone = 0
    assert keys.pad_axis(3) == pytest.approx(0.75)  # raw
    for bad in (1.0, -0.1, True, "0.2", math.nan):
        with pytest.raises(ValueError, match="dead_zone must be in"):
            keys.dead_zone = bad


def test_the_radial_dead_zone_rescales_the_stick_by_its_length():
    keys = Input()  # radial, 0.2, the left stick is axes (0, 1)
    move(keys, 0, 0.3)
    move(keys, 1, 0.4)
    # Length 0.5 -> (0.5 - 0.2) / 0.8 = 0.375 along (0.6, 0.8).
    assert keys.pad_stick() == Vector2(0.225, 0.3)
    assert keys.pad_axis(0) == pytest.approx(0.225) and keys.pad_axis(1) == pytest.approx(0.3)
    keys.radial = False  # per axis: (0.1 / 0.8, 0.2 / 0.8)
    assert keys.pad_stick() == Vector2(0.125, 0.25)
    assert keys.pad_axis(0) == pytest.approx(0.125)


def test_a_slight_diagonal_moves_radially_but_not_per_axis():
    keys = Input()
    move(keys, 0, 0.15)
    move(keys, 1, -0.2)  # length 0.25: outside the zone, though neither axis is past its edge
    # (0.25 - 0.2) / 0.8 = 0.0625 of full tilt, along (0.6, -0.8).
    assert keys.pad_stick() == Vector2(0.0375, -0.05)
    keys.radial = False
    assert keys.pad_stick() == Vector2()


def test_a_stick_in_its_corner_is_capped_at_length_one():
    keys = Input()
    move(keys, 0, 1.0)
    move(keys, 1, 1.0)
    assert keys.pad_stick() == Vector2(math.sqrt(0.5), math.sqrt(0.5))
    keys.radial = False
    assert keys.pad_stick().length() == pytest.approx(1.0)


def test_axes_outside_the_sticks_use_the_per_axis_dead_zone():
    keys = Input()
    move(keys, 3, 0.6)
    move(keys, 4, 0.8)
    assert keys.pad_axis(3) == pytest.approx(0.5)  # (3, 4) is not a known stick
    keys.sticks.append((3, 4))
    assert keys.pad_axis(3) == pytest.approx(0.6)  # length 1: full tilt along (0.6, 0.8)


def test_any_pad_reads_the_one_pushed_furthest():
    keys = Input()
    keys.radial = False
    move(keys, 0, 0.6, pad=0)
    move(keys, 0, -0.9, pad=1)
    assert keys.pad_axis(0) == pytest.approx(-0.875)
    assert keys.pad_axis(0, pad=0) == pytest.approx(0.5)
    assert keys.pad_axis(0, pad=5) == 0.0  # not plugged in
    assert keys.pad_stick(pad=1) == Vector2(-0.875, 0)


def test_hats_read_as_a_direction():
    keys = Input()
    assert keys.pad_hat() == (0, 0)
    keys.handle(pad_event(pygame.JOYHATMOTION, instance_id=4, hat=0, value=(-1, 1)))
    assert keys.pad_hat() == (-1, 1) and keys.pad_hat(0, pad=4) == (-1, 1)
    assert keys.pad_hat(1, pad=4) == (0, 0)
    keys.handle(pad_event(pygame.JOYHATMOTION, instance_id=4, hat=0, value=(0, 0)))
    assert keys.pad_hat() == (0, 0)


def test_unplugging_a_pad_releases_its_buttons_and_centres_its_sticks():
    keys = Input()
    keys.radial = False
    for pad in (3, 5):
        keys.handle(pad_event(pygame.JOYDEVICEADDED, device_index=0, instance_id=pad))
        keys.handle(pad_event(pygame.JOYBUTTONDOWN, instance_id=pad, button=0))
    move(keys, 0, 0.6, pad=3)
    keys.handle(pad_event(pygame.JOYHATMOTION, instance_id=3, hat=0, value=(1, 0)))
    keys.end_step()
    assert keys.pads == [3, 5]
    keys.handle(pad_event(pygame.JOYDEVICEREMOVED, instance_id=3))
    assert keys.pads == [5]
    assert not keys.pad_is_held(0, pad=3) and keys.pad_was_released(0, pad=3) and keys.pad_was_released(0)
    assert keys.pad_is_held(0, pad=5) and not keys.pad_was_released(0, pad=5)  # the other pad is untouched
    assert keys.pad_axis(0, pad=3) == 0.0 and keys.pad_hat(0, pad=3) == (0, 0)
    keys.end_step()
    assert not keys.pad_was_released(0)
    keys.handle(pad_event(pygame.JOYDEVICEADDED, device_index=0, instance_id=3))  # plugged back in
    assert keys.pads == [5, 3] and not keys.pad_is_held(0, pad=3)


def test_a_real_pad_is_opened_to_learn_its_instance_id(monkeypatch):
    opened = []

    class FakeJoystick:
        def __init__(self, device_index):
            if device_index != 0:
                raise pygame.error("Invalid joystick device number")
            opened.append(self)

        def get_instance_id(self):
            return 42

    monkeypatch.setattr(pygame.joystick, "Joystick", FakeJoystick)
    keys = Input()
    keys.handle(pygame.event.Event(pygame.JOYDEVICEADDED, device_index=0, guid="0300"))  # as SDL sends it
    assert keys.pads == [42] and len(opened) == 1
    keys.handle(pygame.event.Event(pygame.JOYDEVICEADDED, device_index=3, guid="0300"))  # gone again already
    assert keys.pads == [42]
    keys.handle(pad_event(pygame.JOYDEVICEREMOVED, instance_id=42))
    assert keys.pads == []


def test_a_pad_that_sends_events_counts_as_plugged_in():
    keys = Input()
    keys.handle(pad_event(pygame.JOYBUTTONDOWN, instance_id=2, button=1))
    move(keys, 0, 0.5, pad=6)
    assert keys.pads == [2, 6]


def test_a_scene_coming_to_the_top_gets_the_pads_as_they_are():
    game = Game(World(), size=(120, 60), headless=True)
    pygame.event.clear()
    post(pygame.JOYDEVICEADDED, device_index=0, instance_id=1)
    post(pygame.JOYBUTTONDOWN, instance_id=1, button=0)
    post(pygame.JOYAXISMOTION, instance_id=1, axis=0, value=1.0)
    game.frame(0.0)
    game.push(Scene())
    keys = game.input
    assert keys.pads == [1] and keys.pad_is_held(0, pad=1) and keys.pad_axis(0) == 1.0
    assert not keys.pad_was_pressed(0)  # it went down before this scene was up
    post(pygame.JOYDEVICEREMOVED, instance_id=1)
    game.frame(0.0)
    game.pop()  # the level comes back: the pad is gone, its button up
    assert game.input.pads == [] and not game.input.pad_is_held(0) and game.input.pad_axis(0) == 0.0
    game.close()

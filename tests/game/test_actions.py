"""Actions: named actions bound to keys, mouse buttons and gamepads; rebinding; bad bindings."""

import re

import pygame
import pytest

from ecs import Actions, Game, Input, Key, MouseButton, PadAxis, PadButton, PadHat, World

STEP = 1 / 60


def key(kind, code):
    return pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0)


def pad(kind, instance_id=0, **attributes):
    return pygame.event.Event(kind, instance_id=instance_id, joy=instance_id, **attributes)


def stick(keys, value, axis=0, instance_id=0):
    keys.handle(pad(pygame.JOYAXISMOTION, instance_id, axis=axis, value=value))


def re_repr(value):
    return re.escape(repr(value))


def test_a_press_is_seen_by_the_next_step_only():
    game = Game(World(), size=(120, 60), headless=True)
    pygame.event.clear()
    actions = game.input.actions
    actions.bind("jump", pygame.K_SPACE, PadButton(0))
    seen = []

    class Watch:
        def process(self, dt):
            seen.append((actions.pressed("jump"), actions.just_pressed("jump"), actions.just_released("jump")))

    game.world.add_system(Watch())
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_SPACE))
    game.frame(0.0)  # the press is read; no step yet
    assert seen == []
    game.frame(STEP)  # step 1
    game.frame(STEP)  # step 2: held, old news
    pygame.event.post(key(pygame.KEYUP, pygame.K_SPACE))
    game.frame(STEP)  # step 3
    game.frame(STEP)  # step 4
    assert seen == [(True, True, False), (True, False, False), (False, False, True), (False, False, False)]
    pygame.event.post(pad(pygame.JOYBUTTONDOWN, button=0))
    game.frame(STEP)  # step 5: the same action from the pad
    assert seen[-1] == (True, True, False)
    game.close()


def test_a_tap_between_two_steps_is_both_pressed_and_released():
    keys = Input()
    keys.actions.bind("fire", MouseButton(1))
    keys.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(5, 5)))
    keys.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(5, 5)))
    actions = keys.actions
    assert not actions.pressed("fire") and actions.just_pressed("fire") and actions.just_released("fire")
    keys.end_step()
    assert not (actions.just_pressed("fire") or actions.just_released("fire"))


def test_an_action_bound_to_a_key_and_a_pad_button_is_on_while_either_is():
    keys = Input()
    actions = keys.actions
    actions.bind("jump", pygame.K_SPACE, PadButton(0))
    keys.handle(key(pygame.KEYDOWN, pygame.K_SPACE))
    assert actions.pressed("jump") and actions.just_pressed("jump")
    keys.end_step()
    keys.handle(pad(pygame.JOYBUTTONDOWN, button=0))
    assert actions.pressed("jump") and not actions.just_pressed("jump")  # it was on already
    keys.end_step()
    keys.handle(key(pygame.KEYUP, pygame.K_SPACE))
    assert actions.pressed("jump") and not actions.just_released("jump")  # the pad still holds it
    keys.end_step()
    keys.handle(pad(pygame.JOYBUTTONUP, button=0))
    assert not actions.pressed("jump") and actions.just_released("jump")
    keys.end_step()
    assert not actions.just_released("jump")


def test_a_pad_button_bound_to_one_pad_ignores_the_others():
    keys = Input()
    keys.actions.bind("p2_fire", PadButton(3, pad=1))
    keys.handle(pad(pygame.JOYBUTTONDOWN, instance_id=0, button=3))
    assert not keys.actions.pressed("p2_fire")
    keys.handle(pad(pygame.JOYBUTTONDOWN, instance_id=1, button=3))
    assert keys.actions.pressed("p2_fire")


def test_unplugging_the_pad_releases_its_actions():
    keys = Input()
    actions = keys.actions
    actions.bind("fire", PadButton(1))
    actions.bind("right", PadAxis(0, +1))
    keys.handle(pad(pygame.JOYDEVICEADDED, instance_id=5, device_index=0))
    keys.handle(pad(pygame.JOYBUTTONDOWN, instance_id=5, button=1))
    stick(keys, 1.0, instance_id=5)
    keys.end_step()
    assert actions.pressed("fire") and actions.pressed("right")
    keys.handle(pad(pygame.JOYDEVICEREMOVED, instance_id=5))
    assert not actions.pressed("fire") and actions.just_released("fire")
    assert not actions.pressed("right") and actions.just_released("right") and actions.value("right") == 0.0


def test_axis_from_keys_gives_minus_one_zero_or_one():
    keys = Input()
    actions = keys.actions
    actions.bind("left", pygame.K_LEFT, pygame.K_a)
    actions.bind("right", pygame.K_RIGHT, pygame.K_d)
    assert actions.axis("left", "right") == 0.0
    keys.handle(key(pygame.KEYDOWN, pygame.K_a))
    assert actions.axis("left", "right") == -1.0
    keys.handle(key(pygame.KEYDOWN, pygame.K_RIGHT))
    assert actions.axis("left", "right") == 0.0  # both: they cancel out
    keys.handle(key(pygame.KEYUP, pygame.K_a))
    assert actions.axis("left", "right") == 1.0


def test_axis_from_a_stick_goes_through_the_dead_zone():
    keys = Input()  # dead zone 0.2
    actions = keys.actions
    actions.bind("left", pygame.K_LEFT, PadAxis(0, -1))
    actions.bind("right", pygame.K_RIGHT, PadAxis(0, +1))
    stick(keys, 0.6)
    assert actions.value("right") == pytest.approx(0.5) and actions.value("left") == 0.0
    assert actions.axis("left", "right") == pytest.approx(0.5)  # (0.6 - 0.2) / 0.8
    stick(keys, -0.1)
    assert actions.axis("left", "right") == 0.0  # inside the zone
    stick(keys, -1.0)
    assert actions.axis("left", "right") == -1.0
    stick(keys, -0.6)
    keys.handle(key(pygame.KEYDOWN, pygame.K_RIGHT))
    assert actions.axis("left", "right") == pytest.approx(0.5)  # 1 (key) - 0.5 (stick)


def test_a_stick_direction_is_pressed_from_its_threshold_on():
    keys = Input()
    actions = keys.actions
    actions.bind("up", PadAxis(1, -1), PadHat("up"))
    actions.bind("down", PadAxis(1, +1, threshold=0.9))
    stick(keys, -0.5, axis=1)  # 0.3 / 0.8 = 0.375: under the default 0.5
    assert not actions.pressed("up") and not actions.just_pressed("up")
    stick(keys, -0.7, axis=1)  # 0.5 / 0.8 = 0.625
    assert actions.pressed("up") and actions.just_pressed("up")
    keys.end_step()
    assert actions.pressed("up") and not actions.just_pressed("up")
    stick(keys, 0.0, axis=1)
    assert not actions.pressed("up") and actions.just_released("up")
    stick(keys, 0.9, axis=1)  # 0.875 < 0.9
    assert not actions.pressed("down")
    stick(keys, 1.0, axis=1)
    assert actions.pressed("down")


def test_a_hat_presses_its_directions():
    keys = Input()
    actions = keys.actions
    for direction in ("left", "right", "up", "down"):
        actions.bind(direction, PadHat(direction))
    keys.handle(pad(pygame.JOYHATMOTION, hat=0, value=(-1, 1)))  # up-left
    assert [actions.pressed(each) for each in ("left", "right", "up", "down")] == [True, False, True, False]
    assert actions.axis("left", "right") == -1.0 and actions.axis("down", "up") == 1.0
    keys.handle(pad(pygame.JOYHATMOTION, hat=0, value=(0, -1)))
    assert [actions.pressed(each) for each in ("left", "right", "up", "down")] == [False, False, False, True]
    keys.handle(pad(pygame.JOYHATMOTION, hat=1, value=(1, 0)))
    assert not actions.pressed("right")  # another hat


def test_rebinding_takes_effect_at_once():
    keys = Input()
    actions = keys.actions
    actions.bind("jump", pygame.K_SPACE)
    actions.bind("jump", Key(pygame.K_SPACE), PadButton(0))  # Key(c) is the same binding as c: not added twice
    assert actions.bindings() == {"jump": (Key(pygame.K_SPACE), PadButton(0))}
    actions.rebind("jump", pygame.K_w)
    keys.handle(key(pygame.KEYDOWN, pygame.K_SPACE))
    assert not actions.pressed("jump")
    keys.handle(key(pygame.KEYDOWN, pygame.K_w))
    assert actions.pressed("jump")
    actions.unbind("jump", pygame.K_w)
    assert not actions.pressed("jump") and actions.bindings() == {"jump": ()}
    actions.bind("jump", pygame.K_SPACE, MouseButton(1))
    actions.unbind("jump")  # all of them
    assert actions.bindings() == {"jump": ()} and not actions.pressed("jump")


def test_bindings_are_a_copy_and_can_be_given_to_another_input():
    first, second = Input(), Input()
    first.actions.bind("fire", pygame.K_x, PadButton(2))
    first.actions.bind("left", PadAxis(0, -1))
    listed = first.actions.bindings()
    listed["fire"] = ()
    assert first.actions.bindings()["fire"] == (Key(pygame.K_x), PadButton(2))
    second.actions.bind_all(first.actions.bindings())
    assert second.actions.bindings() == first.actions.bindings()
    second.handle(pad(pygame.JOYBUTTONDOWN, button=2))
    assert second.actions.pressed("fire") and not first.actions.pressed("fire")


@pytest.mark.parametrize("binding", ["space", 3.0, None, True, [pygame.K_a], pygame.K_a * 1.0])
def test_a_binding_that_is_not_one_is_refused_naming_the_action_and_it(binding):
    actions = Input().actions
    actions.bind("jump", pygame.K_SPACE)
    with pytest.raises(ValueError, match=rf"cannot bind action 'jump' to {re_repr(binding)}: a binding is a key"):
        actions.bind("jump", pygame.K_a, binding)
    assert actions.bindings() == {"jump": (Key(pygame.K_SPACE),)}  # nothing of it was bound
    with pytest.raises(ValueError, match=rf"cannot bind action 'jump' to {re_repr(binding)}"):
        actions.rebind("jump", binding)
    with pytest.raises(ValueError, match=rf"cannot bind action 'fire' to {re_repr(binding)}"):
        actions.bind_all({"ok": [pygame.K_b], "fire": [binding]})
    assert list(actions.bindings()) == ["jump"]  # bind_all checks all first


def test_a_negative_key_code_is_refused_naming_the_action():
    with pytest.raises(ValueError, match=r"cannot bind action 'jump' to -1: Key.code must be an int >= 0"):
        Input().actions.bind("jump", -1)


def test_unknown_actions_are_refused():
    actions = Input().actions
    actions.bind("jump", pygame.K_SPACE)
    for read in (actions.pressed, actions.just_pressed, actions.just_released, actions.value):
        with pytest.raises(ValueError, match=r"unknown action 'jupm' \(bound: 'jump'\)"):
            read("jupm")
    with pytest.raises(ValueError, match="unknown action 'right'"):
        actions.axis("jump", "right")
    with pytest.raises(ValueError, match="unknown action 'fire'"):
        actions.unbind("fire")
    with pytest.raises(ValueError, match=r"cannot unbind action 'jump' from Key\(code=120\): it is not bound"):
        actions.unbind("jump", pygame.K_x)
    for name in ("", 3, None):
        with pytest.raises(ValueError, match="an action's name must be a non-empty str"):
            actions.bind(name, pygame.K_SPACE)


@pytest.mark.parametrize("make, message", [
    (lambda: Key("a"), r"Key.code must be an int >= 0, got 'a'"),
    (lambda: MouseButton(0), r"MouseButton.button must be an int >= 1, got 0"),
    (lambda: PadButton(-1), r"PadButton.button must be an int >= 0, got -1"),
    (lambda: PadButton(0, pad="1"), r"PadButton.pad must be an int >= 0, got '1'"),
    (lambda: PadAxis(0, 0), r"PadAxis.direction must be -1 or \+1, got 0"),
    (lambda: PadAxis(0, True), r"PadAxis.direction must be -1 or \+1, got True"),
    (lambda: PadAxis(1.5, 1), r"PadAxis.axis must be an int >= 0, got 1.5"),
    (lambda: PadAxis(0, 1, threshold=0), r"PadAxis.threshold must be in \(0, 1\], got 0"),
    (lambda: PadAxis(0, 1, threshold=1.5), r"PadAxis.threshold must be in \(0, 1\], got 1.5"),
    (lambda: PadHat("north"), r"PadHat.direction must be 'left', 'right', 'up' or 'down', got 'north'"),
    (lambda: PadHat("up", hat=-1), r"PadHat.hat must be an int >= 0, got -1"),
])
def test_a_bad_binding_names_what_is_wrong(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_each_input_has_its_own_actions():
    keys = Input()
    assert isinstance(keys.actions, Actions) and keys.actions.input is keys
    assert keys.actions.bindings() == {} and Input().actions is not keys.actions

"""Input: presses and releases last until a step; the mouse in world px."""

import pygame
import pytest
from pygame import Vector2

from ecs import Camera, Game, Input, World

STEP = 1 / 60


def post(kind, **attributes):
    pygame.event.post(pygame.event.Event(kind, **attributes))


def test_releases_and_mouse_clicks_last_until_a_physics_step_sees_them():
    game = Game(World(), size=(120, 60), headless=True)
    keys = game.world.resource(Input)
    post(pygame.KEYDOWN, key=pygame.K_x, mod=0, unicode="", scancode=0)
    post(pygame.MOUSEBUTTONDOWN, button=1, pos=(10, 20))
    game.frame(0.0)
    assert keys.was_pressed(pygame.K_x) and keys.mouse_was_pressed(1) and 1 in keys.mouse_buttons
    post(pygame.KEYUP, key=pygame.K_x, mod=0, unicode="", scancode=0)
    post(pygame.MOUSEBUTTONUP, button=1, pos=(12, 20))
    game.frame(0.0)  # no step yet: the press is still news, and so is the release
    assert keys.was_pressed(pygame.K_x) and keys.was_released(pygame.K_x) and not keys.is_held(pygame.K_x)
    assert keys.mouse_was_pressed(1) and keys.mouse_was_released(1) and not keys.mouse_buttons
    game.frame(STEP)  # a step ran: old news
    assert not (keys.was_pressed(pygame.K_x) or keys.was_released(pygame.K_x))
    assert not (keys.mouse_was_pressed(1) or keys.mouse_was_released(1))
    assert keys.mouse_position == Vector2(12, 20)
    game.close()


def test_mouse_world_position_goes_through_the_camera_last_drawn():
    camera = Camera((200, 100), zoom=2, position=(300, 40))
    camera.interpolate(1.0)
    keys = Input(camera)
    keys.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(50, 30), rel=(0, 0), buttons=(0, 0, 0)))
    # 50 / 2 + 300 = 325, 30 / 2 + 40 = 55.
    assert keys.mouse_world_position == Vector2(325, 55)
    assert Input().mouse_world_position == Vector2()  # no camera: screen px


def test_reset_keeps_only_what_is_down_now():
    keys = Input()
    for key in (pygame.K_LEFT, pygame.K_SPACE):
        keys.handle(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    keys.reset(held=[pygame.K_SPACE])
    assert keys.held == {pygame.K_SPACE} and not keys.just_pressed


def test_hold_presses_what_was_up_and_releases_what_is_left_out():
    keys = Input()
    keys.hold([pygame.K_a, pygame.K_b])
    assert keys.held == keys.just_pressed == {pygame.K_a, pygame.K_b} and not keys.just_released
    keys.end_step()
    keys.hold([pygame.K_b, pygame.K_c])
    assert (keys.held, keys.just_pressed, keys.just_released) == ({pygame.K_b, pygame.K_c}, {pygame.K_c},
                                                                  {pygame.K_a})
    with pytest.raises(ValueError, match="pygame key codes"):
        keys.hold(["a"])

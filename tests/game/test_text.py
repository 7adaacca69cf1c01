"""Text components in world and screen space; Label; fonts."""

import pygame
import pytest

from components import Text, Transform
from ecs import Game, Label, World
from systems.game.text import render_text


def lit(surface, rect):
    """Pixels in ``rect`` that are not the black background."""
    return [(x, y) for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
            if surface.get_at((x, y))[:3] != (0, 0, 0)]


def test_world_text_moves_with_the_camera_and_screen_text_stays():
    game = Game(World(), size=(200, 100), headless=True, background=(0, 0, 0))
    game.world.create_entity(Transform((300, 50)), Text("W", size=30, anchor="center"))
    game.world.create_entity(Transform((4, 4)), Text("HUD", size=20, screen=True))
    game.frame(0.0)
    assert lit(game.screen, pygame.Rect(4, 4, 30, 14))  # the HUD, where it was put
    assert not lit(game.screen, pygame.Rect(60, 20, 140, 80))  # x 300 is off screen
    game.camera.position.update(200, 0)
    game.camera.previous_position.update(200, 0)
    game.frame(0.0)
    # Centred on world (300, 50), the view starting at x 200: screen (100, 50).
    around = lit(game.screen, pygame.Rect(85, 35, 30, 30))
    assert around and min(x for x, _ in around) < 100 < max(x for x, _ in around)
    assert lit(game.screen, pygame.Rect(4, 4, 30, 14))  # the HUD did not move
    game.close()


def test_multiline_text_and_shadow_make_a_taller_wider_image():
    one = render_text("ab", None, 20, (255, 255, 255))
    two = render_text("ab\nab", None, 20, (255, 255, 255), shadow=(0, 0, 0))
    assert two.get_width() == one.get_width() + 1
    assert two.get_height() > one.get_height() * 1.5


def test_label_draws_live_values():
    game = Game(World(), size=(200, 60), headless=True, background=(0, 0, 0))
    score = [0]
    game.add_draw_system(Label(lambda: "x" * score[0], (10, 10)))
    game.frame(0.0)
    assert not lit(game.screen, pygame.Rect(0, 0, 200, 40))
    score[0] = 5
    game.frame(0.0)
    assert lit(game.screen, pygame.Rect(10, 10, 60, 20))
    game.close()


@pytest.mark.parametrize("field, value", [("size", 0), ("anchor", "middle"), ("color", (300, 0, 0)),
                                          ("screen", 1), ("text", 3)])
def test_bad_text_values_raise_naming_the_field(field, value):
    with pytest.raises(ValueError, match=field):
        Text(**{field: value})

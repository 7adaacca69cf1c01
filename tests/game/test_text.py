"""Text components in world and screen space; Label; fonts."""

import hashlib
import os
from pathlib import Path

import pygame
import pytest

from components import Text, Transform
from components.text import load_font
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


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_processes_forked_after_a_font_was_loaded_draw_text_as_their_parent_does(tmp_path) -> None:
    """Two children forked after a load (as a vector environment's workers are) each draw 2,000
    labels at once with a font whose glyphs nobody has drawn yet; every picture equals what a font
    of its own draws. SDL_ttf reads glyphs from the file as it needs them: children sharing the
    parent's open file would read at each other's offsets."""
    path = tmp_path / "face.ttf"  # a font file no other test loaded: its glyphs are read after the fork
    path.write_bytes((Path(pygame.__file__).parent / pygame.font.get_default_font()).read_bytes())
    load_font(str(path), 18)
    # Characters from all over the font, so that its glyph cache keeps missing and reading the file.
    characters = [chr(code) for code in range(0x21, 0x250) if chr(code).isprintable()]
    labels = ["".join(characters[(index * 37 + offset * 101) % len(characters)] for offset in range(12))
              for index in range(2000)]

    def pictures(face: pygame.font.Font) -> bytes:
        digest = hashlib.sha256()
        for label in labels:
            digest.update(pygame.image.tobytes(face.render(label, True, (255, 255, 255)), "RGBA"))
        return digest.digest()

    children = []
    for _ in range(2):
        child = os.fork()
        if child == 0:  # pragma: no cover (runs in the child)
            try:
                os._exit(0 if pictures(load_font(str(path), 18)) == pictures(pygame.font.Font(path, 18)) else 2)
            except BaseException:
                os._exit(1)
        children.append(child)
    assert [os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) for child in children] == [0, 0]

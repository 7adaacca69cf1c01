"""BitmapFont: glyphs cut from a sheet made here, so every pixel drawn is known in advance.

The sheet is 3 cells wide and 2 high, each cell 4×6 px, its glyph filling the cell but for its
rightmost column, which is left transparent:

    A red    B green   C blue
    ? yellow W white   (unused)
"""

import dataclasses

import pygame
import pytest

from components import BitmapFont, Text, Transform, limits
from ecs import Game, Label, World
from systems.game.text import render_text

W, H = 4, 6
COLORS = {"A": (255, 0, 0, 255), "B": (0, 255, 0, 255), "C": (0, 0, 255, 255), "?": (255, 255, 0, 255),
          "W": (255, 255, 255, 255)}
CLEAR = (0, 0, 0, 0)
WHITE = (255, 255, 255)


def sheet() -> pygame.Surface:
    image = pygame.Surface((3 * W, 2 * H), pygame.SRCALPHA)
    for index, character in enumerate("ABC?W"):
        image.fill(COLORS[character], (index % 3 * W, index // 3 * H, W - 1, H))
    return image


def font(**options) -> BitmapFont:
    return BitmapFont(sheet(), (W, H), "ABC?W", **options)


def row(image: pygame.Surface, y: int) -> list[tuple[int, ...]]:
    """The colours across row ``y``, fully transparent pixels as CLEAR whatever their RGB."""
    return [CLEAR if image.get_at((x, y)).a == 0 else tuple(image.get_at((x, y))) for x in range(image.get_width())]


def cells(*colors: tuple[int, ...], spacing: int = 0) -> list[tuple[int, ...]]:
    """A row as drawn by hand: each glyph 3 px of its colour then its clear column, then ``spacing``
    px of nothing; the last glyph's cell ends the row."""
    pixels: list[tuple[int, ...]] = []
    for color in colors:
        pixels += [color] * (W - 1) + [CLEAR] + [CLEAR] * spacing
    return pixels[:len(pixels) - spacing] if spacing else pixels


# Drawing ---------------------------------------------------------------------------------------

def test_each_character_draws_its_cell_one_cell_after_the_last():
    image = render_text("AB", font(), 20, WHITE)
    assert image.get_size() == (2 * W, H)
    for y in range(H):
        assert row(image, y) == cells(COLORS["A"], COLORS["B"])  # A at x 0..3, B at 4..7


def test_cells_are_read_left_to_right_then_down():
    image = render_text("C?", font(), 20, WHITE)
    assert row(image, 0) == cells(COLORS["C"], COLORS["?"])


def test_spacing_moves_each_glyph_after_the_first_further():
    image = render_text("AB", font(spacing=2), 20, WHITE)
    assert image.get_width() == 2 * W + 2
    assert row(image, 0) == cells(COLORS["A"], COLORS["B"], spacing=2)  # B at x 6..9


def test_negative_spacing_overlaps_the_cells():
    image = render_text("AB", font(spacing=-1), 20, WHITE)
    # B starts at x 3, over A's clear column: red 0..2, green 3..5, B's clear column at 6.
    assert row(image, 0) == [COLORS["A"]] * 3 + [COLORS["B"]] * 3 + [CLEAR]


def test_a_character_the_sheet_lacks_is_an_empty_cell_by_default():
    image = render_text("AZB", font(), 20, WHITE)
    assert row(image, 0) == cells(COLORS["A"]) + [CLEAR] * W + cells(COLORS["B"])


def test_with_a_fallback_a_missing_character_draws_the_fallback_but_a_space_stays_empty():
    image = render_text("AZ B", font(fallback="?"), 20, WHITE)
    assert row(image, 0) == cells(COLORS["A"], COLORS["?"]) + [CLEAR] * W + cells(COLORS["B"])


def test_color_tints_the_glyphs_and_a_shadow_is_their_silhouette():
    image = render_text("W", font(), 20, (255, 128, 0), shadow=(0, 0, 255))
    assert image.get_size() == (W + 1, H + 1)
    # White times (255, 128, 0): (255, 128, 0), give or take pygame's rounding of the multiply.
    assert all(abs(a - b) <= 1 for a, b in zip(image.get_at((0, 0)), (255, 128, 0, 255)))
    # The shadow, 1 px down-right, shows right of and below the glyph (its columns 1..3, rows 1..6).
    assert image.get_at((3, 3)) == (0, 0, 255, 255) and image.get_at((1, H)) == (0, 0, 255, 255)
    assert image.get_at((W, 3)).a == 0 and image.get_at((0, H)).a == 0


def test_a_colorkey_sheet_is_transparent_where_its_key_is():
    keyed = pygame.Surface((W, H))  # no per-pixel alpha, as an image loaded with a colorkey
    keyed.fill((0, 0, 0))
    keyed.fill((255, 0, 0), (0, 0, 2, H))
    keyed.set_colorkey((0, 0, 0))
    image = render_text("AA", BitmapFont(keyed, (W, H), "A"), 20, WHITE)
    assert row(image, 0) == ([(255, 0, 0, 255)] * 2 + [CLEAR] * 2) * 2


def test_the_sheet_is_copied_when_the_font_is_made():
    image = sheet()
    made = BitmapFont(image, (W, H), "ABC?W")
    image.fill((9, 9, 9, 255))
    assert row(render_text("A", made, 20, WHITE), 0) == cells(COLORS["A"])


# Wrapping and Text -----------------------------------------------------------------------------

def test_bitmap_text_wraps_by_glyph_advance_and_aligns():
    # Every glyph moves the pen 4 px: "AB AB" is 5 characters, 20 px, and fits a 20 px box;
    # "AB AB AB" (32 px) does not. The second line is 6 px + 2 px of spacing down.
    image = render_text("AB AB AB", font(), 20, WHITE, width=20, align="right", line_spacing=2)
    assert image.get_size() == (20, H + 2 + H)
    assert row(image, 0) == cells(COLORS["A"], COLORS["B"]) + [CLEAR] * W + cells(COLORS["A"], COLORS["B"])
    assert row(image, H) == [CLEAR] * 20 and row(image, H + 1) == [CLEAR] * 20
    assert row(image, H + 2) == [CLEAR] * 12 + cells(COLORS["A"], COLORS["B"])  # "AB" at the right: x 12..19


def test_a_text_with_a_bitmap_font_is_drawn_at_its_entity():
    game = Game(World(), size=(100, 60), headless=True, background=(0, 0, 0))
    game.world.create_entity(Transform((10, 20)), Text("AB", font=font(), size=1000, screen=True))
    game.frame(0.0)
    screen = game.screen
    assert screen.get_at((10, 20))[:3] == (255, 0, 0) and screen.get_at((12, 25))[:3] == (255, 0, 0)
    assert screen.get_at((13, 20))[:3] == (0, 0, 0)  # A's clear column
    assert screen.get_at((14, 20))[:3] == (0, 255, 0) and screen.get_at((18, 20))[:3] == (0, 0, 0)
    game.close()


def test_a_label_draws_with_a_bitmap_font():
    game = Game(World(), size=(100, 60), headless=True, background=(0, 0, 0))
    label = Label("B", (5, 5), color=WHITE, font=font())  # white: a Label's default grey would tint it
    game.add_draw_system(label)
    game.frame(0.0)
    assert game.screen.get_at((5, 5))[:3] == (0, 255, 0)
    label.font = None  # back to pygame's default font
    game.frame(0.0)
    game.close()


def test_a_bitmap_text_too_large_for_the_limit_is_refused_naming_the_field():
    big = BitmapFont(pygame.Surface((100, 100)), (100, 100), "A")
    # 10,000 glyphs 100 px wide on one line: 10**6 × 100 px, over 2**24.
    with pytest.raises(ValueError, match="text would render"):
        Text("A" * limits.MAX_TEXT_LENGTH, font=big)
    text = Text("A" * limits.MAX_TEXT_LENGTH)
    with pytest.raises(ValueError, match="font would render"):
        text.font = big
    assert text.font is None


def test_a_world_with_a_bitmap_text_snapshots_and_restores():
    world = World()
    entity = world.create_entity(Transform((0, 0)), Text("AB", font=font()))
    data = world.snapshot()
    world.component_for_entity(entity, Text).text = "C"
    world.restore(data)
    text = world.component_for_entity(entity, Text)
    assert text.text == "AB" and isinstance(text.font, BitmapFont)
    assert row(render_text(text.text, text.font, 20, WHITE), 0) == cells(COLORS["A"], COLORS["B"])


# Checks ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("field, options", [
    ("image", {"image": "font.png"}),
    ("cell", {"cell": (0, 6)}),
    ("cell", {"cell": (4.0, 6)}),
    ("cell", {"cell": (13, 6)}),  # wider than the sheet
    ("cell", {"cell": 4}),
    ("characters", {"characters": ""}),
    ("characters", {"characters": "ABA"}),
    ("characters", {"characters": "A\nB"}),
    ("characters", {"characters": "ABCDEFG"}),  # 7 characters, 6 cells
    ("characters", {"characters": b"AB"}),
    ("spacing", {"spacing": -W}),  # the pen would not move
    ("spacing", {"spacing": 1.5}),
    ("spacing", {"spacing": limits.MAX_FONT_SIZE + 1}),
    ("fallback", {"fallback": "Z"}),  # not on the sheet
    ("fallback", {"fallback": "AB"}),
])
def test_a_bad_font_is_refused_naming_the_field(field, options):
    arguments = {"image": sheet(), "cell": (W, H), "characters": "ABC?W", **options}
    with pytest.raises(ValueError, match=field):
        BitmapFont(**arguments)


def test_a_font_cannot_be_changed_once_made():
    made = font()
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.spacing = 3  # a Text measured with it, and images drawn with it, would be wrong


def test_a_text_refuses_a_font_that_is_neither_a_path_nor_a_bitmap_font():
    with pytest.raises(ValueError, match="font must be a font file's path, a BitmapFont or None"):
        Text("hi", font=3)

"""Text wrapped in a box: the pure wrapping function, then Text's width, align and line_spacing.

Where lines break is worked out here from the font's own measurements (``face.size``), never
from what the code under test produced.
"""

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components import Text, Transform, limits
from components.text import load_font, measurer, wrap_text
from ecs import Game, World
from systems.game.text import render_text

WHITE = (255, 255, 255)


def ten(line: str) -> int:
    """A fixed-width font: every character 10 px wide."""
    return 10 * len(line)


def lit(surface, rect):
    """Pixels in ``rect`` that are not the black background."""
    return [(x, y) for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
            if surface.get_at((x, y))[:3] != (0, 0, 0)]


# The wrapping function, with every character 10 px wide ---------------------------------------

@pytest.mark.parametrize("text, width, lines", [
    ("aaa bbb ccc", 75, ["aaa bbb", "ccc"]),  # "aaa bbb" is 70 px, "aaa bbb ccc" 110
    ("aaa bbb", 70, ["aaa bbb"]),  # exactly the box
    ("aaa bbb", 69, ["aaa", "bbb"]),
    ("aa\nbb cc", 50, ["aa", "bb cc"]),  # a newline always breaks, and each paragraph wraps alone
    ("a\n\nb", 50, ["a", "", "b"]),  # an empty line is kept
    ("aaaa bbbbbbb", 75, ["aaaa", "bbbbbbb"]),  # a word that fits a line of its own is not broken
    ("abcdefghij kl", 75, ["abcdefg", "hij kl"]),  # 7 characters fit in 75 px; the rest goes on with the words
    ("ab", 5, ["a", "b"]),  # a character wider than the box still goes, one a line
    ("a  b", 30, ["a", "b"]),  # the spaces at a break are dropped: "a  b" is 40 px
    ("a  b", 40, ["a  b"]),  # and kept within a line
    ("ab  ", 100, ["ab"]),  # spaces ending a paragraph are dropped
    ("  ab", 100, ["  ab"]),  # spaces starting one are an indent, kept
    ("  ab cd", 40, ["  ab", "cd"]),
    ("   ab", 30, ["ab"]),  # unless the first word does not fit after them
    ("   abcd", 30, ["abc", "d"]),
    ("", 10, [""]),
    ("   ", 10, [""]),
    ("\n", 10, ["", ""]),
])
def test_words_wrap_greedily_at_spaces(text, width, lines):
    assert wrap_text(text, width, ten) == lines


def test_without_a_box_only_newlines_break():
    assert wrap_text("aaa bbb ccc\nd", None, ten) == ["aaa bbb ccc", "d"]


@given(text=st.text(alphabet="ab \n", max_size=80), width=st.integers(1, 120))
def test_wrapping_keeps_every_character_but_the_spaces_in_order_and_fills_lines(text, width):
    lines = wrap_text(text, width, ten)
    assert len(lines) >= text.count("\n") + 1
    assert "".join(lines).replace(" ", "") == text.replace(" ", "").replace("\n", "")
    for line in lines:
        assert ten(line) <= width or len(line) == 1  # only a lone character may overflow
        assert not line.endswith(" ")
    for line, after in zip(lines, lines[1:]):
        # Greedy: the next line's first word would not have fitted on this one (checked where that line
        # started on a space-separated word, i.e. not a newline or the middle of a broken word).
        first = after.split(" ")[0]
        if line and first and f"{line} {first}" in text.replace("\n", "|"):
            assert ten(f"{line} {first}") > width


def test_a_paragraph_of_thousands_of_words_wraps_without_measuring_it_all_per_line():
    calls = []

    def counted(line):
        calls.append(len(line))
        return ten(line)

    lines = wrap_text("abc " * 2500, 100, counted)
    assert lines == ["abc abc"] * 1250  # "abc abc" is 70 px, "abc abc abc" 110
    # A few probes per line, each a little over a line long, not the rest of the 10,000 characters.
    assert sum(calls) < 100 * len(lines)


def test_a_long_word_is_broken_without_measuring_all_of_its_rest_per_line():
    calls = []

    def counted(line):
        calls.append(len(line))
        return ten(line)

    assert wrap_text("x" * 10_000, 5, counted) == ["x"] * 10_000  # each character wider than the box
    assert sum(calls) < 100_000  # measuring the rest of the word for each line would be 5 * 10**7


# With a real font: breaks where its measurements put them ---------------------------------------

def test_a_ttf_text_breaks_where_the_fonts_widths_say():
    face = load_font(None, 20)
    width = 110
    # The break falls after "brown": with " fox" the first line would be too wide, and the rest fits.
    assert face.size("the quick brown")[0] <= width < face.size("the quick brown fox")[0]
    assert face.size("fox jumps over")[0] <= width
    assert wrap_text("the quick brown fox jumps over", width, measurer(face)) == ["the quick brown", "fox jumps over"]


def test_a_word_wider_than_the_box_breaks_at_the_last_character_that_fits():
    face = load_font(None, 20)
    word, width = "supercalifragilistic", 60
    pieces = wrap_text(word, width, measurer(face))
    assert "".join(pieces) == word and len(pieces) > 1
    for piece, after in zip(pieces, pieces[1:]):
        assert face.size(piece)[0] <= width < face.size(piece + after[0])[0]
    assert face.size(pieces[-1])[0] <= width


@pytest.mark.parametrize("align, halves", [("left", 0), ("center", 1), ("right", 2)])
def test_lines_are_drawn_aligned_in_the_box_line_spacing_apart(align, halves):
    face = load_font(None, 20)
    width, spacing, first, second = 110, 7, "the quick brown", "fox jumps over"
    image = render_text(f"{first} {second}", None, 20, WHITE, width=width, align=align, line_spacing=spacing)
    # By hand: each line as pygame draws it alone, moved across the free width of the box, the second
    # one line height plus the spacing down.
    step = face.get_linesize() + spacing
    expected = pygame.Surface((width, step + face.size(second)[1]), pygame.SRCALPHA)
    for row, line in enumerate((first, second)):
        expected.blit(face.render(line, True, WHITE), ((width - face.size(line)[0]) * halves // 2, row * step))
    assert image.get_size() == expected.get_size()
    assert pygame.image.tobytes(image, "RGBA") == pygame.image.tobytes(expected, "RGBA")


def test_without_a_box_lines_align_across_the_widest():
    face = load_font(None, 20)
    image = render_text("hi there\nthe quick brown", None, 20, WHITE, align="right")
    widest = face.size("the quick brown")[0]
    assert image.get_width() == widest
    expected = pygame.Surface(image.get_size(), pygame.SRCALPHA)
    expected.blit(face.render("hi there", True, WHITE), (widest - face.size("hi there")[0], 0))
    expected.blit(face.render("the quick brown", True, WHITE), (0, face.get_linesize()))
    assert pygame.image.tobytes(image, "RGBA") == pygame.image.tobytes(expected, "RGBA")


def test_a_box_wider_than_its_text_makes_the_image_and_the_anchor_the_boxs():
    face = load_font(None, 20)
    words = "hi there"
    w = face.size(words)[0]
    assert w <= 100
    game = Game(World(), size=(200, 100), headless=True, background=(0, 0, 0))
    text = Text(words, screen=True, width=100, align="right", anchor="topright")
    game.world.create_entity(Transform((150, 10)), text)
    game.frame(0.0)
    # The box spans x 50..149; right-aligned, the words fill its last w px.
    drawn = lit(game.screen, pygame.Rect(0, 0, 200, 100))
    assert drawn and min(x for x, _ in drawn) >= 150 - w and max(x for x, _ in drawn) >= 150 - 3
    text.width = 30  # narrower than "there": two lines, drawn anew
    assert face.size("there")[0] > 30 and face.size("hi")[0] <= 30
    game.frame(0.0)
    assert lit(game.screen, pygame.Rect(100, 10 + face.get_linesize(), 50, 14))
    game.close()


def test_a_shadow_adds_a_pixel_to_the_box():
    assert render_text("hi", None, 20, WHITE, shadow=(0, 0, 0), width=80).get_width() == 81


# Checks ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("field, value", [
    ("width", 0), ("width", -5), ("width", 10.5), ("width", True), ("width", "100"),
    ("width", limits.MAX_TEXT_PIXELS + 1), ("align", "middle"), ("align", None),
    ("line_spacing", -1), ("line_spacing", limits.MAX_FONT_SIZE + 1), ("line_spacing", 2.0),
])
def test_bad_box_values_raise_naming_the_field_when_made_or_set(field, value):
    with pytest.raises(ValueError, match=field):
        Text("hi", **{field: value})
    text = Text("hi", width=50)
    before = getattr(text, field)
    with pytest.raises(ValueError, match=field):
        setattr(text, field, value)
    assert getattr(text, field) == before


def test_a_box_too_large_for_the_image_limit_is_refused_naming_width():
    # One line of the 20 px font is 14 px high: a box 2**24 px wide covers far more than 2**24 px.
    with pytest.raises(ValueError, match="width would render"):
        Text("hi", width=limits.MAX_TEXT_PIXELS)
    text = Text("hi", width=100)
    with pytest.raises(ValueError, match="width would render"):
        text.width = limits.MAX_TEXT_PIXELS
    assert text.width == 100


def test_wrapping_that_makes_the_image_too_tall_is_refused_and_a_labels_is_cut():
    # 10,000 one-character lines of a 1,000 px font, 1,000 px apart: over 2 * 10**7 px high.
    many = "W " * (limits.MAX_TEXT_LENGTH // 2)
    with pytest.raises(ValueError, match="would render"):
        Text(many, size=limits.MAX_FONT_SIZE, width=1, line_spacing=limits.MAX_FONT_SIZE)
    image = render_text(many, None, limits.MAX_FONT_SIZE, WHITE, width=1, line_spacing=limits.MAX_FONT_SIZE)
    assert image.get_width() * image.get_height() <= limits.MAX_TEXT_PIXELS


def test_a_label_wraps_and_aligns_in_its_box_as_a_text_does():
    from systems.game.text import Label, render_text

    words = "the bridge to the east is out"
    label = Label(words, (0, 0), color=(255, 255, 255), width=80, align="center")
    surface = pygame.Surface((200, 200), pygame.SRCALPHA)
    label.process(surface, 1.0)
    expected = render_text(words, None, 20, (255, 255, 255), width=80, align="center")
    assert expected.get_width() == 80 and expected.get_height() > 20  # wrapped onto more lines
    drawn = surface.subsurface((0, 0, *expected.get_size()))
    assert pygame.image.tobytes(drawn, "RGBA") == pygame.image.tobytes(expected, "RGBA")
    with pytest.raises(ValueError, match="align must be one of"):
        label.align = "justify"
    with pytest.raises(ValueError, match="width must be None or an int"):
        Label("x", (0, 0), width=0)

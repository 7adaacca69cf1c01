"""Text: words drawn at an entity, in the world or on the screen; the fonts
it is drawn with, how it wraps in a box, and the limits every text keeps to.

Fonts are loaded (once per file and size) when a Text is made or its font
or size is set, so a missing or corrupt font file fails there, naming the
file, instead of at the first frame that draws it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

import pygame

from components import limits
from components._checks import Check, Validated, any_bool
from components.bitmap_font import BitmapFont
from components.sprite import _color

__all__ = ["ALIGNS", "ANCHORS", "Face", "Text", "face_of", "line_step", "lines_extent", "load_font",
           "measurer", "printable", "text_extent", "wrap_text"]

#: Which point of the text's box sits at the entity's position (pygame.Rect names).
ANCHORS = ("topleft", "midtop", "topright", "midleft", "center", "midright",
           "bottomleft", "midbottom", "bottomright")

#: How the lines of a text line up: at the left edge of its box (or of its
#: widest line, without a box), in the middle, or at the right edge.
ALIGNS = ("left", "center", "right")

#: What a text is drawn with: a TTF font loaded at a size, or a BitmapFont.
Face: TypeAlias = pygame.font.Font | BitmapFont

_fonts: dict[tuple[str | None, int], pygame.font.Font] = {}
# SDL_ttf reads glyphs from the font file as it needs them, through the file
# it opened: a process forked after a load (a vector environment's workers)
# shares that file's offset with its parent and siblings, and their reads
# interleave into "Couldn't find glyph". A child loads its own, and keeps
# the inherited ones unclosed: closing the file could move the offset under
# the parent.
_inherited: list[pygame.font.Font] = []


def _forget_fonts() -> None:
    _inherited.extend(_fonts.values())
    _fonts.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_fonts)


def load_font(path: str | None, size: int, field: str = "font") -> pygame.font.Font:
    """The font file at ``path`` (pygame's default font for None) at ``size``
    px, loaded once. A missing file raises ``FileNotFoundError`` and a file
    pygame cannot read as a font ``ValueError``, both naming ``field`` and
    the file."""
    key = (path, size)
    face = _fonts.get(key)
    if face is None:
        if not pygame.font.get_init():
            pygame.font.init()
        if path is not None and not os.path.isfile(path):
            raise FileNotFoundError(f"{field}: no font file at {path!r}")
        try:
            face = pygame.font.Font(path, size)
            # A file SDL_ttf cannot parse still gives a Font, holding a NULL
            # face: size() and render() raise on it, get_linesize() and
            # get_height() crash the process. Ask the safe ones first.
            face.size("Ag")
            face.render("Ag", True, (0, 0, 0))
        except (pygame.error, OSError) as error:
            raise ValueError(f"{field}: {path!r} is not a font pygame can read ({error})") from error
        _fonts[key] = face
    return face


def printable(text: str) -> str:
    """``text`` as pygame can draw it. A NUL (which pygame refuses) and a
    lone surrogate (half of a UTF-16 pair, as a badly decoded file or a
    ``surrogateescape`` file name gives; UTF-8 cannot encode it) each become
    U+FFFD, the replacement character, so the reader sees that something
    was there; a surrogate pair becomes the character it encodes."""
    if text.isascii() and "\0" not in text:
        return text
    whole = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return whole.replace("\0", "\ufffd")


def face_of(font: str | BitmapFont | None, size: int, field: str = "font") -> Face:
    """What a text with ``font`` and ``size`` is drawn with: the BitmapFont
    itself, else the font file (None: pygame's default) loaded at ``size``
    px (``load_font``, errors naming ``field``)."""
    return font if isinstance(font, BitmapFont) else load_font(font, size, field)


def measurer(face: Face) -> Callable[[str], int]:
    """A function giving the px width of a line (no ``\\n``, ``printable``) drawn with ``face``."""
    if isinstance(face, BitmapFont):
        return face.measure
    return lambda line: face.size(line)[0]


def line_step(face: Face, line_spacing: int = 0) -> int:
    """px from the top of one line to the top of the next: the font's line
    height plus ``line_spacing``."""
    return (face.height if isinstance(face, BitmapFont) else face.get_linesize()) + line_spacing


def _most(fits: Callable[[int], bool], low: int, high: int) -> int:
    """The largest n in [low, high] with ``fits(n)`` (``low`` if none is or
    ``high < low``), for ``fits`` true up to some n and false after;
    ``fits(low)`` is taken as true. It gallops up from ``low`` before
    bisecting, so finding a short line measures only strings about twice
    its length, not the whole rest of the paragraph."""
    step = 1
    while low + step <= high and fits(low + step):
        low, step = low + step, step * 2
    high = min(high, low + step - 1)
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _next_line(paragraph: str, words: list[tuple[int, int]], start: int, index: int, width: int,
               measure: Callable[[str], int]) -> tuple[int, int]:
    """(end, index after it) of the line ``paragraph[start:end]`` that starts
    at ``start``, within or before ``words[index]`` (the spans of the words)."""
    # First as much of words[index] as fits, one character at least: galloping over its characters
    # measures a long word only as far as a line of it reaches, not to its end for every line.
    word_end = words[index][1]
    end = _most(lambda cut: measure(paragraph[start:cut]) <= width, start + 1, word_end)
    if end < word_end:  # the word alone is wider than the box: the rest of it goes on the next line
        return end, index

    def fits(count: int) -> bool:  # do the next ``count`` words fit on the line?
        return measure(paragraph[start:words[index + count - 1][1]]) <= width

    count = _most(fits, 1, len(words) - index)
    return words[index + count - 1][1], index + count


def _wrap_paragraph(paragraph: str, width: int, measure: Callable[[str], int]) -> list[str]:
    """``paragraph`` (no ``\\n``) broken into lines at most ``width`` px wide (see ``wrap_text``)."""
    words = [match.span() for match in re.finditer(r"[^ ]+", paragraph)]
    if not words:
        return [""]
    # An indent is kept only before a first word that fits after it, not drawn as a line of spaces.
    start = 0 if measure(paragraph[:words[0][1]]) <= width else words[0][0]
    lines, index = [], 0
    while index < len(words):
        end, index = _next_line(paragraph, words, start, index, width, measure)
        lines.append(paragraph[start:end])
        if index < len(words):
            start = max(end, words[index][0])  # the spaces where a line breaks are not drawn
    return lines


def wrap_text(text: str, width: int | None, measure: Callable[[str], int]) -> list[str]:
    """The lines of ``text`` drawn in a box ``width`` px wide, where
    ``measure(line)`` is a line's width in px (a longer line never narrower).

    Each ``\\n`` ends a line. Within a paragraph, lines break at spaces,
    each holding as many words as fit; the spaces where a line breaks, and
    those ending a paragraph, are dropped; those starting a paragraph are
    kept (an indent) if its first word fits after them. A word wider than the box on a line of its own is
    broken between characters, each piece as long as fits and at least one
    character (so a character wider than the box makes a line wider than
    the box). A ``width`` of None only splits on ``\\n``.
    """
    if width is None:
        return text.split("\n")
    return [line for paragraph in text.split("\n") for line in _wrap_paragraph(paragraph, width, measure)]


def lines_extent(lines: list[str], face: Face, width: int | None = None, line_spacing: int = 0) -> tuple[int, int]:
    """(w, h) px of ``lines`` (printable, at least one) drawn one under
    another with ``face``, ``line_spacing`` px apart, in a box ``width`` px
    wide (None: no box): the box is as wide as ``width``, or its widest line if wider."""
    measure = measurer(face)
    widest = max(max(measure(line) for line in lines), width or 0)
    last = face.height if isinstance(face, BitmapFont) else face.size(lines[-1])[1]
    return widest, line_step(face, line_spacing) * (len(lines) - 1) + last


def text_extent(text: str, face: Face, width: int | None = None, line_spacing: int = 0) -> tuple[int, int]:
    """(w, h) px of ``text`` drawn with ``face``, wrapped in a box ``width``
    px wide (``wrap_text``; None: lines split on ``\\n`` only) with
    ``line_spacing`` px between lines (``lines_extent``), measured without
    drawing it (``text`` must be ``printable``)."""
    return lines_extent(wrap_text(text, width, measurer(face)), face, width, line_spacing)


def check_text(field: str, text: str, face: Face, width: int | None = None, line_spacing: int = 0) -> None:
    """Raise ``ValueError`` naming ``field`` if ``text`` is longer than
    ``limits.MAX_TEXT_LENGTH`` characters or its image with ``face`` (in a
    box ``width`` px wide, ``line_spacing`` px between lines) would cover
    more than ``limits.MAX_TEXT_PIXELS``."""
    if len(text) > limits.MAX_TEXT_LENGTH:
        raise ValueError(f"{field} must be at most {limits.MAX_TEXT_LENGTH:,} characters "
                         f"(components.limits.MAX_TEXT_LENGTH), got {len(text):,}")
    w, h = text_extent(printable(text), face, width, line_spacing)
    if w * h > limits.MAX_TEXT_PIXELS:
        raise ValueError(f"{field} would render {w:,}×{h:,} px, more than "
                         f"{limits.MAX_TEXT_PIXELS:,} px (components.limits.MAX_TEXT_PIXELS): "
                         f"use fewer characters or a smaller size, box or line spacing")


def text_value(name: str, value: object) -> str:
    """A str of at most ``limits.MAX_TEXT_LENGTH`` characters."""
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a str, got {value!r}")
    if len(value) > limits.MAX_TEXT_LENGTH:  # before measuring: a megabyte takes long to measure
        raise ValueError(f"{name} must be at most {limits.MAX_TEXT_LENGTH:,} characters "
                         f"(components.limits.MAX_TEXT_LENGTH), got {len(value):,}")
    return value


def font_size(name: str, value: object) -> int:
    """A font height in px: an int in [1, ``limits.MAX_FONT_SIZE``]."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limits.MAX_FONT_SIZE:
        raise ValueError(f"{name} must be an int in [1, {limits.MAX_FONT_SIZE}] px, got {value!r}")
    return value


def font_path(name: str, value: object) -> str | None:
    """A font file's path (a str or an ``os.PathLike``, kept as a str), or None."""
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise ValueError(f"{name} must be a font file's path or None, got {value!r}")
    path = os.fspath(value)
    if not isinstance(path, str):
        raise ValueError(f"{name} must be a font file's path or None, got {value!r}")
    return path


def font_value(name: str, value: object) -> str | BitmapFont | None:
    """A BitmapFont, a font file's path (a str or an ``os.PathLike``, kept as a str), or None."""
    if isinstance(value, BitmapFont):
        return value
    if value is not None and not isinstance(value, (str, os.PathLike)):
        raise ValueError(f"{name} must be a font file's path, a BitmapFont or None, got {value!r}")
    return font_path(name, value)


def _box_width(name: str, value: object) -> int | None:
    # The limit is the image's: a wider box could not hold even one line within it.
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or not 1 <= value <= limits.MAX_TEXT_PIXELS):
        raise ValueError(f"{name} must be None or an int in [1, {limits.MAX_TEXT_PIXELS:,}] px, got {value!r}")
    return value


def _line_spacing(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limits.MAX_FONT_SIZE:
        raise ValueError(f"{name} must be an int in [0, {limits.MAX_FONT_SIZE}] px, got {value!r}")
    return value


def _one_of(choices: tuple[str, ...]) -> Check:
    """A check that the value is one of ``choices``."""
    def check(name: str, value: object) -> str:
        if value not in choices:
            raise ValueError(f"{name} must be one of {choices}, got {value!r}")
        return str(value)
    return check


def _shadow(name: str, value: object) -> tuple[int, ...] | None:
    return None if value is None else _color(name, value)


def _layer(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an int, got {value!r}")
    return value


_UNSET = object()
#: The fields a text's image size depends on, checked together against the limits.
_SHAPE = ("text", "size", "font", "width", "line_spacing")


@dataclass(slots=True)
class Text(Validated):
    """A line (or lines, split on ``\\n`` or wrapped in a box) of text drawn
    at the entity's Transform.

    - ``text``: what to write, at most 10,000 characters whose image (before
      any zoom) covers at most 2**24 px (``components.limits``); change it
      any time (a score). A NUL or a lone surrogate is drawn as U+FFFD.
    - ``color``: (r, g, b) or (r, g, b, a), 0..255.
    - ``size``: font height in px, an int in [1, 1000] (unused by a BitmapFont).
    - ``font``: path to a .ttf/.otf file, None for pygame's default font, or
      a ``BitmapFont`` (glyphs from a sheet: its cells set the size, and
      ``color`` tints them); a file is loaded when set
      (``FileNotFoundError`` or ``ValueError`` naming the file).
    - ``screen``: True places the text in screen px, fixed on screen (a HUD);
      False (default) in world px, moving and zooming with the camera.
    - ``anchor``: which point of the text sits at the position, one of ``ANCHORS``.
    - ``shadow``: colour of a 1 px drop shadow (down-right), or None.
    - ``layer``: draw order among texts, lower first, then by entity id.
    - ``visible``: False skips drawing.
    - ``width``: None (default) draws each line as long as it is; an int
      in [1, 2**24] px is a box the text is word-wrapped to (``wrap_text``:
      lines break at spaces, a word wider than the box between characters,
      ``\\n`` kept). The image, and so the ``anchor``, is the box's width
      (or its widest line's, if one character alone is wider).
    - ``align``: where each line sits across the box (or, without one, the
      widest line): ``"left"``, ``"center"`` or ``"right"`` (``ALIGNS``).
    - ``line_spacing``: px added between lines, an int in [0, 1000].

    Every field is checked when set, at construction and later alike.
    """

    text: str = ""
    color: tuple[int, ...] = (255, 255, 255)
    size: int = 20
    font: str | BitmapFont | None = None
    screen: bool = False
    anchor: str = "topleft"
    shadow: tuple[int, ...] | None = None
    layer: int = 0
    visible: bool = True
    width: int | None = None
    align: str = "left"
    line_spacing: int = 0

    _checks: ClassVar[dict[str, Check]] = {
        "text": text_value,
        "color": _color,
        "size": font_size,
        "font": font_value,
        "screen": any_bool,
        "anchor": _one_of(ANCHORS),
        "shadow": _shadow,
        "layer": _layer,
        "visible": any_bool,
        "width": _box_width,
        "align": _one_of(ALIGNS),
        "line_spacing": _line_spacing,
    }

    if TYPE_CHECKING:  # the dataclass's __init__ as type checkers should see it: a PathLike font is kept as a str
        def __init__(self, text: str = ..., color: tuple[int, ...] = ..., size: int = ...,
                     font: str | os.PathLike[str] | BitmapFont | None = ..., screen: bool = ...,
                     anchor: str = ..., shadow: tuple[int, ...] | None = ..., layer: int = ...,
                     visible: bool = ..., width: int | None = ..., align: str = ...,
                     line_spacing: int = ...) -> None: ...

    def _agree(self, name: str, value: Any) -> None:
        """Load the font and measure the text once all of ``_SHAPE`` are set."""
        if name not in _SHAPE:
            return
        values = [value if name == field else getattr(self, field, _UNSET) for field in _SHAPE]
        if any(known is _UNSET for known in values):  # during __init__, before the last of them
            return
        text, size, font, width, spacing = values
        assert (isinstance(text, str) and isinstance(size, int) and isinstance(font, (str, BitmapFont, type(None)))
                and isinstance(width, (int, type(None))) and isinstance(spacing, int))
        face = face_of(font, size)
        if getattr(self, name, _UNSET) is not _UNSET:  # set later: the field set is to blame
            check_text(name, text, face, width, spacing)
            return
        # In __init__ (line_spacing comes last) the text is to blame, unless even an empty box is too large.
        if width is not None:
            check_text("width", "", face, width, spacing)
        check_text("text", text, face, width, spacing)

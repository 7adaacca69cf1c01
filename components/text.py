"""Text: words drawn at an entity, in the world or on the screen; the fonts
it is drawn with and the limits every text keeps to.

Fonts are loaded (once per file and size) when a Text is made or its font
or size is set, so a missing or corrupt font file fails there, naming the
file, instead of at the first frame that draws it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import pygame

from components import limits
from components._checks import Check, Validated, any_bool
from components.sprite import _color

__all__ = ["ANCHORS", "Text", "load_font", "printable", "text_extent"]

#: Which point of the text's box sits at the entity's position (pygame.Rect names).
ANCHORS = ("topleft", "midtop", "topright", "midleft", "center", "midright",
           "bottomleft", "midbottom", "bottomright")

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


def text_extent(text: str, face: pygame.font.Font) -> tuple[int, int]:
    """(w, h) px of ``text`` rendered with ``face``, lines split on ``\\n``,
    measured without rendering it (``text`` must be ``printable``)."""
    lines = text.split("\n")
    width = max(face.size(line)[0] for line in lines)
    return width, face.get_linesize() * (len(lines) - 1) + face.size(lines[-1])[1]


def check_text(field: str, text: str, face: pygame.font.Font) -> None:
    """Raise ``ValueError`` naming ``field`` if ``text`` is longer than
    ``limits.MAX_TEXT_LENGTH`` characters or its image with ``face`` would
    cover more than ``limits.MAX_TEXT_PIXELS``."""
    if len(text) > limits.MAX_TEXT_LENGTH:
        raise ValueError(f"{field} must be at most {limits.MAX_TEXT_LENGTH:,} characters "
                         f"(components.limits.MAX_TEXT_LENGTH), got {len(text):,}")
    width, height = text_extent(printable(text), face)
    if width * height > limits.MAX_TEXT_PIXELS:
        raise ValueError(f"{field} would render {width:,}×{height:,} px, more than "
                         f"{limits.MAX_TEXT_PIXELS:,} px (components.limits.MAX_TEXT_PIXELS): "
                         f"use fewer characters or a smaller size")


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


def _anchor(name: str, value: object) -> str:
    if value not in ANCHORS:
        raise ValueError(f"{name} must be one of {ANCHORS}, got {value!r}")
    return str(value)


def _shadow(name: str, value: object) -> tuple[int, ...] | None:
    return None if value is None else _color(name, value)


def _layer(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an int, got {value!r}")
    return value


_UNSET = object()


@dataclass(slots=True)
class Text(Validated):
    """A line (or lines, split on ``\\n``) of text drawn at the entity's Transform.

    - ``text``: what to write, at most 10,000 characters whose image (before
      any zoom) covers at most 2**24 px (``components.limits``); change it
      any time (a score). A NUL or a lone surrogate is drawn as U+FFFD.
    - ``color``: (r, g, b) or (r, g, b, a), 0..255.
    - ``size``: font height in px, an int in [1, 1000].
    - ``font``: path to a .ttf/.otf file, or None for pygame's default font;
      loaded when set (``FileNotFoundError`` or ``ValueError`` naming the file).
    - ``screen``: True places the text in screen px, fixed on screen (a HUD);
      False (default) in world px, moving and zooming with the camera.
    - ``anchor``: which point of the text sits at the position, one of ``ANCHORS``.
    - ``shadow``: colour of a 1 px drop shadow (down-right), or None.
    - ``layer``: draw order among texts, lower first, then by entity id.
    - ``visible``: False skips drawing.

    Every field is checked when set, at construction and later alike.
    """

    text: str = ""
    color: tuple[int, ...] = (255, 255, 255)
    size: int = 20
    font: str | None = None
    screen: bool = False
    anchor: str = "topleft"
    shadow: tuple[int, ...] | None = None
    layer: int = 0
    visible: bool = True

    _checks: ClassVar[dict[str, Check]] = {
        "text": text_value,
        "color": _color,
        "size": font_size,
        "font": font_path,
        "screen": any_bool,
        "anchor": _anchor,
        "shadow": _shadow,
        "layer": _layer,
        "visible": any_bool,
    }

    if TYPE_CHECKING:  # the dataclass's __init__ as type checkers should see it: a PathLike font is kept as a str
        def __init__(self, text: str = ..., color: tuple[int, ...] = ..., size: int = ...,
                     font: str | os.PathLike[str] | None = ..., screen: bool = ..., anchor: str = ...,
                     shadow: tuple[int, ...] | None = ..., layer: int = ..., visible: bool = ...) -> None: ...

    def _agree(self, name: str, value: Any) -> None:
        """Load the font and measure the text once text, size and font are all set."""
        if name not in ("text", "size", "font"):
            return
        text, size, font = (value if name == field else getattr(self, field, _UNSET)
                            for field in ("text", "size", "font"))
        if _UNSET in (text, size, font):  # during __init__, before the last of them
            return
        assert isinstance(text, str) and isinstance(size, int) and (font is None or isinstance(font, str))
        # Set later, the field set is to blame; in __init__ (the font comes last) the text is.
        blamed = name if getattr(self, name, _UNSET) is not _UNSET else "text"
        check_text(blamed, text, load_font(font, size))

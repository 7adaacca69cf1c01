"""Text drawing: the TextSystem for Text components, and Label for quick lines.

Whatever string reaches the screen is drawn safely: a NUL or a lone
surrogate is drawn as U+FFFD (``components.text.printable``), and a text
longer than ``limits.MAX_TEXT_LENGTH`` or wider than ``MAX_TEXT_PIXELS``
allows (only a Label's callable can hand one over: a Text and a Label's own
string are refused when set) is cut to fit. A text scaled by the camera's
zoom is cut to the screen before it is scaled.
"""

from __future__ import annotations

from collections.abc import Callable

import esper
import pygame

from components import Text, Transform, limits
from components._checks import finite_vector
from components.bitmap_font import BitmapFont
from components.sprite import _color
from components.text import (ALIGNS, Face, _box_width, _one_of, check_text, face_of, font_size, font_value, line_step,
                             lines_extent, measurer, printable, text_value, wrap_text)
from systems.game.camera import Box, Camera, screen_int, visible_parts
from systems._world import WorldLike

__all__ = ["Label", "TextSystem", "fit_lines", "fit_text", "render_text"]

TextKey = tuple[str, str | BitmapFont | None, int, tuple[int, ...], tuple[int, ...] | None, int | None, str, int]
PieceKey = tuple[int, tuple[int, int, int, int], tuple[int, int]]

#: Twice the fraction of the width (height) left of (above) each anchor:
#: pygame.Rect places ``center`` at ``x - w // 2``, so halves are floored alike.
_ANCHOR_HALVES = {"topleft": (0, 0), "midtop": (1, 0), "topright": (2, 0), "midleft": (0, 1), "center": (1, 1),
                  "midright": (2, 1), "bottomleft": (0, 2), "midbottom": (1, 2), "bottomright": (2, 2)}


#: Twice the fraction of the free width left of a line, for each ``Text.align``.
_ALIGN_HALVES = {"left": 0, "center": 1, "right": 2}


def _cut_line(line: str, measure: Callable[[str], int], width: int) -> str:
    """The longest start of ``line`` at most ``width`` px wide (bisection on
    the prefix length: a prefix is never narrower than a shorter one)."""
    if measure(line) <= width:
        return line
    fits, too_wide = 0, len(line)
    while too_wide - fits > 1:
        middle = (fits + too_wide) // 2
        if measure(line[:middle]) <= width:
            fits = middle
        else:
            too_wide = middle
    return line[:fits]


def fit_lines(text: str, face: Face, width: int | None = None,
              line_spacing: int = 0) -> tuple[list[str], int | None]:
    """(lines, box width) of ``text`` made printable, wrapped in a box
    ``width`` px wide (``wrap_text``) and cut to the limits: its first
    ``limits.MAX_TEXT_LENGTH`` characters; then, if the image would cover
    more than ``limits.MAX_TEXT_PIXELS``, the first lines that fit in its
    height, each line and the box cut to the width left."""
    text = printable(text[:limits.MAX_TEXT_LENGTH])
    lines = wrap_text(text, width, measurer(face))
    w, h = lines_extent(lines, face, width, line_spacing)
    if w * h <= limits.MAX_TEXT_PIXELS:
        return lines, width
    step = max(1, line_step(face, line_spacing))
    lines = lines[:max(1, limits.MAX_TEXT_PIXELS // step)]  # only very large line spacing needs this
    h = lines_extent(lines, face, None, line_spacing)[1]
    widest = max(1, limits.MAX_TEXT_PIXELS // max(1, h))
    return [_cut_line(line, measurer(face), widest) for line in lines], None if width is None else min(width, widest)


def fit_text(text: str, face: Face) -> str:
    """``text`` made printable and cut to the limits: its first
    ``limits.MAX_TEXT_LENGTH`` characters, each line cut so that the image
    covers at most ``limits.MAX_TEXT_PIXELS``."""
    return "\n".join(fit_lines(text, face)[0])


def _render_line(face: Face, line: str, color: tuple[int, ...], silhouette: bool = False) -> pygame.Surface:
    """One line (printable, no ``\\n``) drawn with ``face`` in ``color``
    (a BitmapFont's glyphs tinted by it; all in it if ``silhouette``)."""
    if not isinstance(face, BitmapFont):
        # pygame refuses a line that is not empty but has no width (a zero-width
        # space, a soft hyphen, a space at 1 px): it is drawn as the empty line it looks like.
        return face.render(line if face.size(line)[0] else "", True, color)
    image = pygame.Surface((face.measure(line), face.height), pygame.SRCALPHA)
    for index, character in enumerate(line):
        glyph = face.glyph(character)
        if glyph is not None:
            image.blit(glyph, (index * face.advance, 0))
    if silhouette:  # every colour white, alpha kept, for the multiply to turn into ``color``
        image.fill((255, 255, 255, 0), special_flags=pygame.BLEND_RGBA_MAX)
    image.fill((*color[:3], color[3] if len(color) == 4 else 255), special_flags=pygame.BLEND_RGBA_MULT)
    return image


def render_text(text: str, font: str | BitmapFont | None, size: int, color: tuple[int, ...],
                shadow: tuple[int, ...] | None = None, width: int | None = None, align: str = "left",
                line_spacing: int = 0) -> pygame.Surface:
    """``text`` as an image with a transparent background, drawn with
    ``font`` (a file, None for pygame's default, or a BitmapFont) at
    ``size`` px, lines split on ``\\n`` and wrapped in a box ``width`` px
    wide (None: no box), each ``align``-ed across it, ``line_spacing`` px
    apart, with a 1 px drop shadow when ``shadow`` is a colour; cut to the
    limits first (``fit_lines``)."""
    face = face_of(font, size)
    sources, box = fit_lines(text, face, width, line_spacing)
    lines = [_render_line(face, line, color) for line in sources]
    extra = 1 if shadow is not None else 0
    step = line_step(face, line_spacing)
    inner = max(max(line.get_width() for line in lines), box or 0)
    image = pygame.Surface((inner + extra, step * (len(lines) - 1) + lines[-1].get_height() + extra),
                           pygame.SRCALPHA)
    for row, (line, source) in enumerate(zip(lines, sources)):
        x = (inner - line.get_width()) * _ALIGN_HALVES[align] // 2
        if shadow is not None:
            image.blit(_render_line(face, source, shadow, silhouette=True), (x + 1, row * step + 1))
        image.blit(line, (x, row * step))
    return image


def anchored_box(size: tuple[int, int], scale: float, where: pygame.Vector2, anchor: str) -> Box:
    """(x, y, w, h) screen px of an image of ``size`` px scaled by ``scale``
    whose ``anchor`` point is at ``where`` (screen px), placed as pygame.Rect
    would place it; far-off points are clamped (``screen_int``)."""
    w, h = round(size[0] * scale), round(size[1] * scale)
    halves_x, halves_y = _ANCHOR_HALVES[anchor]
    return (screen_int(where.x) - halves_x * w // 2, screen_int(where.y) - halves_y * h // 2, w, h)


class TextSystem(esper.Processor):
    """Draw every entity with Transform and Text, lower layers first.

    A draw system: world-space texts follow the entity's interpolated
    position through the world's ``Camera`` (scaled by its zoom, and skipped
    when out of view); screen-space texts (``Text.screen``) stay put. Each
    distinct text is rendered once and reused while it is shown; of a text
    scaled by the zoom only the part on screen is scaled.
    """

    def __init__(self, world: WorldLike) -> None:
        self.world = world
        self._rendered: dict[TextKey, pygame.Surface] = {}
        self._shown: dict[TextKey, pygame.Surface] = {}
        self._pieces: dict[PieceKey, tuple[pygame.Surface, pygame.Surface]] = {}
        self._pieces_used: dict[PieceKey, tuple[pygame.Surface, pygame.Surface]] = {}

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        """Draw the texts onto ``surface``."""
        camera = self.world.resources.get(Camera)
        rows = sorted((text.layer, entity, transform, text)
                      for entity, (transform, text) in self.world.get_components(Transform, Text)
                      if text.visible and text.text)
        for _, _, transform, text in rows:
            image = self._image(text)
            where = transform.previous_position.lerp(transform.position, alpha)
            scale = 1.0
            if not text.screen and camera is not None:
                where, scale = camera.world_to_screen(where), camera.zoom
            self._blit(surface, image, anchored_box(image.get_size(), scale, where, text.anchor))
        self._rendered, self._shown = self._shown, {}
        self._pieces, self._pieces_used = self._pieces_used, {}

    def _blit(self, surface: pygame.Surface, image: pygame.Surface, box: Box) -> None:
        """Draw the parts of ``image``, stretched over ``box``, that are on ``surface``."""
        for source, dest in visible_parts(image.get_size(), box, surface.get_clip()):
            if source.size == dest.size:
                surface.blit(image, dest, source)
                continue
            key = (id(image), (source.x, source.y, source.w, source.h), dest.size)
            entry = self._pieces_used.get(key) or self._pieces.get(key)
            if entry is None or entry[0] is not image:  # a new image reusing a freed id
                entry = (image, pygame.transform.scale(image.subsurface(source), dest.size))
            self._pieces_used[key] = entry
            surface.blit(entry[1], dest)

    def _image(self, text: Text) -> pygame.Surface:
        # The key is render_text's arguments: equal keys draw equal images.
        key = (text.text, text.font, text.size, text.color, text.shadow, text.width, text.align, text.line_spacing)
        image = self._shown.get(key) or self._rendered.get(key)
        if image is None:
            image = render_text(*key)
        self._shown[key] = image
        return image


def _screen_position(name: str, value: object) -> tuple[float, float]:
    point = finite_vector(name, value)
    for axis in ("x", "y"):
        if abs(getattr(point, axis)) > limits.MAX_SCREEN_COORDINATE:
            raise ValueError(f"{name}.{axis} must be within ±{limits.MAX_SCREEN_COORDINATE} screen px, "
                             f"got {getattr(point, axis)!r}")
    return (point.x, point.y)


class Label(esper.Processor):
    """A draw system that writes text at a screen position (px).

    ``text`` may be a callable returned anew each frame, for live values
    (``Label(lambda: f"score {score}", (20, 20))``); ``size`` is the font
    height in px (an int in [1, 1000]), ``font`` a font file, None for
    pygame's default, or a ``BitmapFont`` (whose glyphs ``color`` tints:
    pass white to keep their own colours). Every attribute is checked when
    set, like a Text's: a string over the limits, a missing or unreadable
    font, a bad colour or position raise ``ValueError`` (``FileNotFoundError`` for a missing font)
    naming it. What a callable returns is known only when drawn: a str is
    drawn safely, cut to the limits if need be (``fit_text``); anything
    else raises ``ValueError``. ``width`` and ``align`` wrap and line it up
    in a box, as a Text's do.
    """

    def __init__(self, text: str | Callable[[], str], position: tuple[float, float],
                 color: tuple[int, ...] = (230, 230, 230), size: int = 20,
                 font: str | BitmapFont | None = None, width: int | None = None, align: str = "left") -> None:
        self._cache: tuple[tuple[str, tuple[int, ...]], pygame.Surface] | None = None
        self.width, self.align = width, align
        self._size = font_size("size", size)
        self._font = font_value("font", font)
        self._face = face_of(self._font, self._size)
        self._text: str | Callable[[], str] = ""
        self.text = text
        self.position = position
        self.color = color

    @property
    def text(self) -> str | Callable[[], str]:
        """The string drawn, or a callable returning it each frame."""
        return self._text

    @text.setter
    def text(self, value: str | Callable[[], str]) -> None:
        if not callable(value):
            check_text("text", text_value("text", value), self._face)
        self._text = value

    @property
    def position(self) -> tuple[float, float]:
        """Screen px of the text's top-left, each within ±2**30."""
        return self._position

    @position.setter
    def position(self, value: tuple[float, float]) -> None:
        self._position = _screen_position("position", value)

    @property
    def color(self) -> tuple[int, ...]:
        """(r, g, b) or (r, g, b, a), 0..255."""
        return self._color

    @color.setter
    def color(self, value: tuple[int, ...]) -> None:
        self._color = _color("color", value)

    @property
    def width(self) -> int | None:
        """The box (px) the text is word-wrapped in, as a Text's ``width``; None: no box."""
        return self._width

    @width.setter
    def width(self, value: int | None) -> None:
        self._width = _box_width("width", value)
        self._cache = None

    @property
    def align(self) -> str:
        """"left", "center" or "right": how lines line up across the box."""
        return self._align

    @align.setter
    def align(self, value: str) -> None:
        self._align = str(_one_of(ALIGNS)("align", value))
        self._cache = None

    @property
    def size(self) -> int:
        """Font height in px, an int in [1, 1000]."""
        return self._size

    @size.setter
    def size(self, value: int) -> None:
        self._set_face(self._font, font_size("size", value), "size")

    @property
    def font(self) -> str | BitmapFont | None:
        """Path of the font file, None for pygame's default font, or a BitmapFont."""
        return self._font

    @font.setter
    def font(self, value: str | BitmapFont | None) -> None:
        self._set_face(font_value("font", value), self._size, "font")

    def _set_face(self, path: str | BitmapFont | None, size: int, field: str) -> None:
        face = face_of(path, size, "font")
        if not callable(self._text):
            check_text(field, self._text, face)
        self._font, self._size, self._face = path, size, face
        self._cache = None

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        text = self._text() if callable(self._text) else self._text
        if not isinstance(text, str):
            raise ValueError(f"Label text: the callable returned {text!r}, not a str")
        key = (text, self._color)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, render_text(text, self._font, self._size, self._color, width=self._width,
                                            align=self._align))
        surface.blit(self._cache[1], self._position)

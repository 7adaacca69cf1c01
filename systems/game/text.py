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
from components.sprite import _color
from components.text import check_text, font_path, font_size, load_font, printable, text_extent, text_value
from systems.game.camera import Box, Camera, screen_int, visible_parts
from systems._world import WorldLike

__all__ = ["Label", "TextSystem", "fit_text", "render_text"]

TextKey = tuple[str, str | None, int, tuple[int, ...], tuple[int, ...] | None]
PieceKey = tuple[int, tuple[int, int, int, int], tuple[int, int]]

#: Twice the fraction of the width (height) left of (above) each anchor:
#: pygame.Rect places ``center`` at ``x - w // 2``, so halves are floored alike.
_ANCHOR_HALVES = {"topleft": (0, 0), "midtop": (1, 0), "topright": (2, 0), "midleft": (0, 1), "center": (1, 1),
                  "midright": (2, 1), "bottomleft": (0, 2), "midbottom": (1, 2), "bottomright": (2, 2)}


def _cut_line(line: str, face: pygame.font.Font, width: int) -> str:
    """The longest start of ``line`` at most ``width`` px wide (bisection on
    the prefix length: a prefix is never narrower than a shorter one)."""
    if face.size(line)[0] <= width:
        return line
    fits, too_wide = 0, len(line)
    while too_wide - fits > 1:
        middle = (fits + too_wide) // 2
        if face.size(line[:middle])[0] <= width:
            fits = middle
        else:
            too_wide = middle
    return line[:fits]


def fit_text(text: str, face: pygame.font.Font) -> str:
    """``text`` made printable and cut to the limits: its first
    ``limits.MAX_TEXT_LENGTH`` characters, each line cut so that the image
    covers at most ``limits.MAX_TEXT_PIXELS``."""
    text = printable(text[:limits.MAX_TEXT_LENGTH])
    width, height = text_extent(text, face)
    if width * height <= limits.MAX_TEXT_PIXELS:
        return text
    widest = max(1, limits.MAX_TEXT_PIXELS // max(1, height))
    return "\n".join(_cut_line(line, face, widest) for line in text.split("\n"))


def render_text(text: str, path: str | None, size: int, color: tuple[int, ...],
                shadow: tuple[int, ...] | None = None) -> pygame.Surface:
    """``text`` as an image with a transparent background, lines split on
    ``\\n``, with a 1 px drop shadow when ``shadow`` is a colour; cut to the
    limits first (``fit_text``)."""
    face = load_font(path, size)
    text = fit_text(text, face)
    # pygame refuses a line that is not empty but has no width (a zero-width
    # space, a soft hyphen, a space at 1 px): it is drawn as the empty line it looks like.
    sources = [line if face.size(line)[0] else "" for line in text.split("\n")]
    lines = [face.render(line, True, color) for line in sources]
    extra = 1 if shadow is not None else 0
    step = face.get_linesize()
    width = max((line.get_width() for line in lines), default=0) + extra
    image = pygame.Surface((width, step * (len(lines) - 1) + lines[-1].get_height() + extra), pygame.SRCALPHA)
    for row, (line, source) in enumerate(zip(lines, sources)):
        if shadow is not None:
            image.blit(face.render(source, True, shadow), (1, row * step + 1))
        image.blit(line, (0, row * step))
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
        key = (text.text, text.font, text.size, text.color, text.shadow)
        image = self._shown.get(key) or self._rendered.get(key)
        if image is None:
            image = render_text(text.text, text.font, text.size, text.color, text.shadow)
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
    height in px (an int in [1, 1000]), ``font`` a font file or None for
    pygame's default. Every attribute is checked when set, like a Text's: a
    string over the limits, a missing or unreadable font, a bad colour or
    position raise ``ValueError`` (``FileNotFoundError`` for a missing font)
    naming it. What a callable returns is known only when drawn: a str is
    drawn safely, cut to the limits if need be (``fit_text``); anything
    else raises ``ValueError``.
    """

    def __init__(self, text: str | Callable[[], str], position: tuple[float, float],
                 color: tuple[int, ...] = (230, 230, 230), size: int = 20,
                 font: str | None = None) -> None:
        self._size = font_size("size", size)
        self._font = font_path("font", font)
        self._face = load_font(self._font, self._size)
        self._text: str | Callable[[], str] = ""
        self.text = text
        self.position = position
        self.color = color
        self._cache: tuple[tuple[str, tuple[int, ...]], pygame.Surface] | None = None

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
    def size(self) -> int:
        """Font height in px, an int in [1, 1000]."""
        return self._size

    @size.setter
    def size(self, value: int) -> None:
        self._set_face(self._font, font_size("size", value), "size")

    @property
    def font(self) -> str | None:
        """Path of the font file, or None for pygame's default font."""
        return self._font

    @font.setter
    def font(self, value: str | None) -> None:
        self._set_face(font_path("font", value), self._size, "font")

    def _set_face(self, path: str | None, size: int, field: str) -> None:
        face = load_font(path, size, "font")
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
            self._cache = (key, render_text(text, self._font, self._size, self._color))
        surface.blit(self._cache[1], self._position)

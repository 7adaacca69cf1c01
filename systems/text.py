"""Text drawing: the TextSystem for Text components, and Label for quick lines."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import esper
import pygame

from components import Text, Transform
from systems.camera import Camera
from systems.render import ImageCache

if TYPE_CHECKING:
    from ecs.world import World

__all__ = ["Label", "TextSystem", "render_text"]

TextKey = tuple[str, str | None, int, tuple[int, ...], tuple[int, ...] | None]

_fonts: dict[tuple[str | None, int], pygame.font.Font] = {}


def font(path: str | None, size: int) -> pygame.font.Font:
    """A pygame font (the default one for None) of ``size`` px, loaded once."""
    key = (path, size)
    if key not in _fonts:
        if not pygame.font.get_init():
            pygame.font.init()
        _fonts[key] = pygame.font.Font(path, size)
    return _fonts[key]


def render_text(text: str, path: str | None, size: int, color: tuple[int, ...],
                shadow: tuple[int, ...] | None = None) -> pygame.Surface:
    """``text`` as an image with a transparent background, lines split on
    ``\\n``, with a 1 px drop shadow when ``shadow`` is a colour."""
    face = font(path, size)
    lines = [face.render(line, True, color) for line in text.split("\n")]
    extra = 1 if shadow is not None else 0
    step = face.get_linesize()
    width = max((line.get_width() for line in lines), default=0) + extra
    image = pygame.Surface((width, step * (len(lines) - 1) + lines[-1].get_height() + extra), pygame.SRCALPHA)
    for row, (line, source) in enumerate(zip(lines, text.split("\n"))):
        if shadow is not None:
            image.blit(face.render(source, True, shadow), (1, row * step + 1))
        image.blit(line, (0, row * step))
    return image


class TextSystem(esper.Processor):
    """Draw every entity with Transform and Text, lower layers first.

    A draw system: world-space texts follow the entity's interpolated
    position through the world's ``Camera`` (scaled by its zoom, and skipped
    when out of view); screen-space texts (``Text.screen``) stay put. Each
    distinct text is rendered once and reused while it is shown.
    """

    def __init__(self, world: World) -> None:
        self.world = world
        self.images = ImageCache()
        self._rendered: dict[TextKey, pygame.Surface] = {}
        self._shown: dict[TextKey, pygame.Surface] = {}

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        """Draw the texts onto ``surface``."""
        camera = self.world.resources.get(Camera)
        rows = sorted((text.layer, entity, transform, text)
                      for entity, (transform, text) in self.world.get_components(Transform, Text)
                      if text.visible and text.text)
        for _, _, transform, text in rows:
            image = self._image(text)
            where = transform.previous_position.lerp(transform.position, alpha)
            if text.screen or camera is None:
                rect = image.get_rect(**{text.anchor: (round(where.x), round(where.y))})
            else:
                size = pygame.Vector2(image.get_size()) * camera.zoom
                rect = pygame.Rect((0, 0), (round(size.x), round(size.y)))
                anchor = camera.world_to_screen(where)
                setattr(rect, text.anchor, (round(anchor.x), round(anchor.y)))
                if not rect.colliderect(surface.get_rect()):
                    continue
                image = self.images.get(image, rect.size, False, False)
            surface.blit(image, rect)
        self._rendered, self._shown = self._shown, {}
        self.images.next_frame()

    def _image(self, text: Text) -> pygame.Surface:
        key = (text.text, text.font, text.size, text.color, text.shadow)
        image = self._shown.get(key) or self._rendered.get(key)
        if image is None:
            image = render_text(text.text, text.font, text.size, text.color, text.shadow)
        self._shown[key] = image
        return image


class Label(esper.Processor):
    """A draw system that writes text at a screen position (px).

    ``text`` may be a callable returned anew each frame, for live values
    (``Label(lambda: f"score {score}", (20, 20))``); ``size`` is the font
    height in px, ``font`` a font file or None for pygame's default.
    """

    def __init__(self, text: str | Callable[[], str], position: tuple[int, int],
                 color: tuple[int, int, int] = (230, 230, 230), size: int = 20,
                 font: str | None = None) -> None:
        self.text = text
        self.position = position
        self.color = color
        self.size = size
        self.font = font
        self._cache: tuple[str, pygame.Surface] | None = None

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        text = self.text() if callable(self.text) else self.text
        if self._cache is None or self._cache[0] != text:
            self._cache = (text, render_text(text, self.font, self.size, self.color))
        surface.blit(self._cache[1], self.position)

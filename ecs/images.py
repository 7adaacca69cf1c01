"""Images: load picture files and cut sprite sheets into frames."""

from __future__ import annotations

import os
from collections.abc import Sequence

import pygame

from components._checks import whole_number

__all__ = ["SpriteSheet", "load_image"]


def load_image(path: str | os.PathLike[str]) -> pygame.Surface:
    """The image file at ``path`` with per-pixel alpha; once a window
    exists it is converted to the screen's format, which draws faster.
    ``FileNotFoundError`` when there is no file at ``path`` (a directory is
    not one), ``ValueError`` when pygame cannot read it (a truncated or
    corrupt file, a format it does not know, too large to hold); both name
    the path."""
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"path must be an image file's path, got {path!r}")
    name = os.fspath(path)
    if not os.path.isfile(name):
        raise FileNotFoundError(f"no image file at {name!r}")
    try:
        image = pygame.image.load(name)
    except (pygame.error, MemoryError, OSError) as error:
        raise ValueError(f"{name!r} is not an image pygame can read: {error}") from error
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        image = image.convert_alpha()
    return image


def _pixels(name: str, value: object, least: int) -> int:
    return whole_number(name, value, least, " (px)")


class SpriteSheet:
    """Frames of equal size laid out in a grid on one image.

    ``frame_size`` (w, h) px, ints > 0; ``margin`` px around the whole grid
    and ``spacing`` px between frames, ints >= 0, as Tiled counts them.
    ``frames`` lists every frame row by row (each a subsurface: no pixels
    are copied); ``frame(column, row)`` and ``row(row, start, count)`` pick
    some out. Errors name the sheet's file when it was loaded from one.
    """

    def __init__(self, image: pygame.Surface | str | os.PathLike[str], frame_size: tuple[int, int],
                 margin: int = 0, spacing: int = 0) -> None:
        self.image = image if isinstance(image, pygame.Surface) else load_image(image)
        #: The file the sheet was loaded from, or None for a Surface.
        self.path = None if isinstance(image, pygame.Surface) else os.fspath(image)
        where = self._where()
        if isinstance(frame_size, (str, bytes)) or not isinstance(frame_size, Sequence) or len(frame_size) != 2:
            raise ValueError(f"{where}frame_size must be two ints > 0 (w, h) px, got {frame_size!r}")
        self.frame_size = (_pixels(f"{where}frame_size[0]", frame_size[0], 1),
                           _pixels(f"{where}frame_size[1]", frame_size[1], 1))
        self.margin = _pixels(f"{where}margin", margin, 0)
        self.spacing = _pixels(f"{where}spacing", spacing, 0)
        width, height = self.image.get_size()
        self.columns = (width - 2 * margin + spacing) // (self.frame_size[0] + spacing)
        self.rows = (height - 2 * margin + spacing) // (self.frame_size[1] + spacing)
        if self.columns < 1 or self.rows < 1:
            raise ValueError(f"{where}frame_size {tuple(frame_size)} with margin {margin} does not fit the "
                             f"{width}×{height} image")
        self.frames = [self._cut(column, row) for row in range(self.rows) for column in range(self.columns)]

    def _where(self) -> str:
        return "" if self.path is None else f"sprite sheet {self.path!r}: "

    def _cut(self, column: int, row: int) -> pygame.Surface:
        w, h = self.frame_size
        x = self.margin + column * (w + self.spacing)
        y = self.margin + row * (h + self.spacing)
        return self.image.subsurface((x, y, w, h))

    def __len__(self) -> int:
        return len(self.frames)

    def __getitem__(self, index: int) -> pygame.Surface:
        return self.frames[index]

    def frame(self, column: int, row: int = 0) -> pygame.Surface:
        """The frame at ``column``, ``row`` (from 0 at the top-left)."""
        for name, value in (("column", column), ("row", row)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be an int, got {value!r}")
        if not (0 <= column < self.columns and 0 <= row < self.rows):
            raise ValueError(f"{self._where()}frame ({column}, {row}) is outside the "
                             f"{self.columns}×{self.rows} sheet")
        return self.frames[row * self.columns + column]

    def row(self, row: int, start: int = 0, count: int | None = None) -> list[pygame.Surface]:
        """``count`` frames (default: to the end of the row) of ``row`` from column ``start``."""
        if isinstance(start, bool) or not isinstance(start, int):
            raise ValueError(f"start must be an int, got {start!r}")
        if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 0):
            raise ValueError(f"count must be an int >= 0 or None, got {count!r}")
        end = self.columns if count is None else start + count
        return [self.frame(column, row) for column in range(start, end)]

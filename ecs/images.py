"""Images: load picture files and cut sprite sheets into frames."""

from __future__ import annotations

import os

import pygame

__all__ = ["SpriteSheet", "load_image"]


def load_image(path: str | os.PathLike[str]) -> pygame.Surface:
    """The image file at ``path`` with per-pixel alpha; once a window
    exists it is converted to the screen's format, which draws faster."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no image file at {os.fspath(path)!r}")
    image = pygame.image.load(os.fspath(path))
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        image = image.convert_alpha()
    return image


class SpriteSheet:
    """Frames of equal size laid out in a grid on one image.

    ``frame_size`` (w, h) px; ``margin`` px around the whole grid and
    ``spacing`` px between frames, as Tiled counts them. ``frames`` lists
    every frame row by row (each a subsurface: no pixels are copied);
    ``frame(column, row)`` and ``row(row, start, count)`` pick some out.
    """

    def __init__(self, image: pygame.Surface | str | os.PathLike[str], frame_size: tuple[int, int],
                 margin: int = 0, spacing: int = 0) -> None:
        self.image = image if isinstance(image, pygame.Surface) else load_image(image)
        if (len(frame_size) != 2 or not all(isinstance(v, int) and v > 0 for v in frame_size)):
            raise ValueError(f"frame_size must be two ints > 0 (w, h) px, got {frame_size!r}")
        for name, value in (("margin", margin), ("spacing", spacing)):
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an int >= 0 (px), got {value!r}")
        self.frame_size = (frame_size[0], frame_size[1])
        self.margin, self.spacing = margin, spacing
        width, height = self.image.get_size()
        self.columns = (width - 2 * margin + spacing) // (frame_size[0] + spacing)
        self.rows = (height - 2 * margin + spacing) // (frame_size[1] + spacing)
        if self.columns < 1 or self.rows < 1:
            raise ValueError(f"frame_size {frame_size} with margin {margin} does not fit the "
                             f"{width}×{height} image")
        self.frames = [self._cut(column, row) for row in range(self.rows) for column in range(self.columns)]

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
        if not (0 <= column < self.columns and 0 <= row < self.rows):
            raise ValueError(f"frame ({column}, {row}) is outside the {self.columns}×{self.rows} sheet")
        return self.frames[row * self.columns + column]

    def row(self, row: int, start: int = 0, count: int | None = None) -> list[pygame.Surface]:
        """``count`` frames (default: to the end of the row) of ``row`` from column ``start``."""
        end = self.columns if count is None else start + count
        return [self.frame(column, row) for column in range(start, end)]

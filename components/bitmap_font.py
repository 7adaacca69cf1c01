"""BitmapFont: a font drawn from a sheet of glyph images in a grid, as
retro and pixel-art games draw their scores (a Text's ``font``).

A BitmapFont is immutable: a Text measures its text with the font when
set, and the TextSystem keeps images drawn with it, both of which a font
changed in place would leave wrong. Its sheet is copied when it is made,
so later drawing on the image passed in changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from components import limits

__all__ = ["BitmapFont"]


def _sheet(name: str, value: object) -> pygame.Surface:
    if not isinstance(value, pygame.Surface):
        raise ValueError(f"{name} must be a pygame.Surface (the glyph sheet), got {value!r}")
    return value


def _cell(name: str, value: object, sheet: pygame.Surface) -> tuple[int, int]:
    if (not isinstance(value, (tuple, list)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
        raise ValueError(f"{name} must be (w, h), two ints > 0 px, got {value!r}")
    w, h = value
    if w > sheet.get_width() or h > sheet.get_height():
        raise ValueError(f"{name} must fit in the sheet ({sheet.get_width()}×{sheet.get_height()} px), "
                         f"got {w}×{h} px")
    return (w, h)


def _characters(name: str, value: object, cells: int) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{name} must be a non-empty str (the sheet's characters in order), got {value!r}")
    if "\n" in value:
        raise ValueError(f"{name} must not hold '\\n': a newline breaks the line, it has no glyph")
    twice = sorted({c for c in value if value.count(c) > 1})
    if twice:
        raise ValueError(f"{name} must name each character once, got {''.join(twice)!r} more than once")
    if len(value) > cells:
        raise ValueError(f"{name} has {len(value)} characters but the sheet has only {cells} cells")
    return value


def _spacing(name: str, value: object, cell_width: int) -> int:
    # A glyph must move the pen at least 1 px, so that a longer line is never narrower (wrapping relies on it).
    least, most = 1 - cell_width, limits.MAX_FONT_SIZE
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise ValueError(f"{name} must be an int in [{least}, {most}] px (1 − the cell width up to "
                         f"{most}), got {value!r}")
    return value


def _fallback(name: str, value: object, characters: str) -> str | None:
    if value is not None and (not isinstance(value, str) or len(value) != 1 or value not in characters):
        raise ValueError(f"{name} must be None or one of the font's characters, got {value!r}")
    return value


@dataclass(frozen=True, slots=True, eq=False)
class BitmapFont:
    """Glyphs cut from a sheet: a grid of equal cells, read left to right
    and then top to bottom, the n-th cell drawing ``characters[n]``.

    - ``image``: the sheet, a ``pygame.Surface``; transparent where no
      glyph is (per-pixel alpha or a colorkey), as a Sprite's image is.
    - ``cell``: (w, h) px of one cell, two ints > 0 that fit in the sheet;
      a line of text is ``h`` px high. Cells left over right and below are unused.
    - ``characters``: the characters of the cells in sheet order, each
      once, no ``\\n``; at most as many as the sheet has cells.
    - ``spacing``: px added after every glyph (the pen moves ``w +
      spacing``), an int in [1 − w, 1000]: negative overlaps the cells'
      empty edges.
    - ``fallback``: one of ``characters``, drawn for every character the
      sheet lacks; None (default) leaves an empty cell for them. Either way
      such a character takes one cell's place, so every character is
      ``w + spacing`` px wide; a space the sheet lacks is always an empty cell.

    Every field is checked when made (``ValueError`` naming it); the font
    cannot be changed after. A Text's ``size`` does not apply to it, but its
    ``color`` tints the glyphs (multiplies their colours: white keeps them).
    """

    image: pygame.Surface
    cell: tuple[int, int]
    characters: str
    spacing: int = 0
    fallback: str | None = None
    _glyphs: dict[str, pygame.Surface] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        sheet = _sheet("image", self.image)
        cell = _cell("cell", self.cell, sheet)
        columns, rows = sheet.get_width() // cell[0], sheet.get_height() // cell[1]
        characters = _characters("characters", self.characters, columns * rows)
        spacing = _spacing("spacing", self.spacing, cell[0])
        fallback = _fallback("fallback", self.fallback, characters)
        # A copy with per-pixel alpha: later drawing on the caller's sheet changes nothing, and
        # a colorkey becomes transparency that tinting (a multiply) keeps.
        own = pygame.Surface(sheet.get_size(), pygame.SRCALPHA)
        own.blit(sheet, (0, 0))
        glyphs = {character: own.subsurface((index % columns * cell[0], index // columns * cell[1], *cell))
                  for index, character in enumerate(characters)}
        for name, value in (("image", own), ("cell", cell), ("characters", characters),
                            ("spacing", spacing), ("fallback", fallback), ("_glyphs", glyphs)):
            object.__setattr__(self, name, value)

    @property
    def advance(self) -> int:
        """px the pen moves per character: the cell width plus ``spacing`` (>= 1)."""
        return self.cell[0] + self.spacing

    @property
    def height(self) -> int:
        """px of one line: the cell height."""
        return self.cell[1]

    def glyph(self, character: str) -> pygame.Surface | None:
        """The image drawn for ``character`` (a cell of the sheet; don't draw
        on it): its own, else the fallback's; None for an empty cell."""
        found = self._glyphs.get(character)
        if found is None and character != " " and self.fallback is not None:
            return self._glyphs[self.fallback]
        return found

    def measure(self, line: str) -> int:
        """px wide of ``line`` (no ``\\n``) drawn with this font: from the
        first glyph's left edge to the last one's right edge, 0 if empty."""
        return len(line) * self.advance - self.spacing if line else 0

    # A snapshot (pickle) keeps the fields; the glyphs are cut again from the sheet when restored.
    def __getstate__(self) -> tuple[object, ...]:
        return self.image, self.cell, self.characters, self.spacing, self.fallback

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(("image", "cell", "characters", "spacing", "fallback"), state):
            object.__setattr__(self, name, value)
        self.__post_init__()

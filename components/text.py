"""Text: words drawn at an entity, in the world or on the screen."""

from __future__ import annotations

from dataclasses import dataclass

from components.sprite import _color

__all__ = ["ANCHORS", "Text"]

#: Which point of the text's box sits at the entity's position (pygame.Rect names).
ANCHORS = ("topleft", "midtop", "topright", "midleft", "center", "midright",
           "bottomleft", "midbottom", "bottomright")


@dataclass(slots=True)
class Text:
    """A line (or lines, split on ``\\n``) of text drawn at the entity's Transform.

    - ``text``: what to write; change it any time (a score).
    - ``color``: (r, g, b) or (r, g, b, a), 0..255.
    - ``size``: font height in px, > 0.
    - ``font``: path to a .ttf/.otf file, or None for pygame's default font.
    - ``screen``: True places the text in screen px, fixed on screen (a HUD);
      False (default) in world px, moving and zooming with the camera.
    - ``anchor``: which point of the text sits at the position, one of ``ANCHORS``.
    - ``shadow``: colour of a 1 px drop shadow (down-right), or None.
    - ``layer``: draw order among texts, lower first, then by entity id.
    - ``visible``: False skips drawing.
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

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise ValueError(f"text must be a str, got {self.text!r}")
        self.color = _color("color", self.color)
        if not isinstance(self.size, int) or isinstance(self.size, bool) or self.size <= 0:
            raise ValueError(f"size must be an int > 0 (px), got {self.size!r}")
        if self.font is not None and not isinstance(self.font, str):
            raise ValueError(f"font must be a file path or None, got {self.font!r}")
        if self.anchor not in ANCHORS:
            raise ValueError(f"anchor must be one of {ANCHORS}, got {self.anchor!r}")
        if self.shadow is not None:
            self.shadow = _color("shadow", self.shadow)
        if not isinstance(self.layer, int) or isinstance(self.layer, bool):
            raise ValueError(f"layer must be an int, got {self.layer!r}")
        for name in ("screen", "visible"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be a bool, got {getattr(self, name)!r}")

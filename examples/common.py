"""What every example shares: its command line, on-screen text, scripted keys.

Run on its own, it prints the options every scene accepts:

    python -m examples.common
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import esper  # noqa: E402
import pygame  # noqa: E402

__all__ = ["parse_args", "Label", "Autoplay", "main"]


def parse_args(doc: str | None, argv: Sequence[str] | None = None,
               extra: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.Namespace:
    """``--headless``, ``--frames N`` and ``--screenshot PATH``, plus ``extra``."""
    parser = argparse.ArgumentParser(
        description=(doc or "").strip().splitlines()[0] if doc else None,
        epilog=doc, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--headless", action="store_true",
                        help="no window (SDL dummy driver); one physics step per frame")
    parser.add_argument("--frames", type=int, default=None, help="stop after N frames")
    parser.add_argument("--screenshot", default=None, help="save the last frame to this PNG")
    if extra:
        extra(parser)
    args = parser.parse_args(argv)
    if args.frames is not None and args.frames < 0:
        parser.error("--frames must be >= 0")
    return args


class Label(esper.Processor):
    """A draw system that writes text; ``text`` may be a callable for live values."""

    def __init__(self, text: str | Callable[[], str], position: tuple[int, int],
                 color: tuple[int, int, int] = (230, 230, 230), size: int = 20) -> None:
        self.text = text
        self.position = position
        self.color = color
        self.font = pygame.font.Font(None, size)

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        text = self.text() if callable(self.text) else self.text
        for row, line in enumerate(text.splitlines()):
            image = self.font.render(line, True, self.color)
            surface.blit(image, (self.position[0], self.position[1] + row * self.font.get_linesize()))


class Autoplay(esper.Processor):
    """Presses and releases keys on a schedule of physics steps (headless demos).

    ``script`` maps a step number to ``(key, down)`` pairs. It posts real
    pygame KEYDOWN/KEYUP events, so the game's Input sees exactly what a
    keyboard would send. Add it to the World with a high priority.
    """

    def __init__(self, script: dict[int, list[tuple[int, bool]]]) -> None:
        self.script = script
        self.step = 0

    def process(self, dt: float) -> None:
        for key, down in self.script.get(self.step, []):
            kind = pygame.KEYDOWN if down else pygame.KEYUP
            pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))
        self.step += 1


def main(argv: Sequence[str] | None = None) -> None:
    """Print the command-line options shared by every example scene."""
    parse_args("Options every example scene accepts (python -m examples.<name> ...).",
                ["--help"] if argv is None else argv)


if __name__ == "__main__":
    main()

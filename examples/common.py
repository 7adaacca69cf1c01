"""What every example shares: its command line (and, re-exported from the
package, ``Label`` for on-screen text and ``Autoplay`` for scripted keys).

Run on its own, it prints the options every scene accepts:

    python -m examples.common
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from ecs import Autoplay, Label  # noqa: E402

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


def main(argv: Sequence[str] | None = None) -> None:
    """Print the command-line options shared by every example scene."""
    parse_args("Options every example scene accepts (python -m examples.<name> ...).",
                ["--help"] if argv is None else argv)


if __name__ == "__main__":
    main()

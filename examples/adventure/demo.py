"""The headless demo: which keys go down and up, step by step, in each scene.

The level's presses were recorded by ``record_demo.py`` (a bot playing the
level) into ``assets/demo.json``; a pause is added on the moving platform.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pygame

Script = dict[int, list[tuple[int, bool]]]

KEYS = {"right": pygame.K_RIGHT, "jump": pygame.K_SPACE, "pause": pygame.K_p, "start": pygame.K_RETURN}
RECORDING = Path(__file__).resolve().parent / "assets" / "demo.json"
PAUSE_AT = 600  # level step: riding the platform across the wide pit
PAUSE_FOR = 60  # steps of the pause scene


def script(presses: list[tuple[int, str, bool]]) -> Script:
    """An Autoplay script from (step, key name, down) presses."""
    out: Script = {}
    for step, key, down in presses:
        out.setdefault(step, []).append((KEYS[key], down))
    return out


@dataclass(frozen=True, slots=True)
class Demo:
    """Scripts for the title, the level and the pause scene (Autoplay counts
    each scene's own physics steps, so the pause does not shift the level's)."""

    title: Script
    level: Script
    pause: Script


def load_demo() -> Demo:
    """The recorded run, started from the title and paused once on the way."""
    recorded = [(step, key, down) for step, key, down in json.loads(RECORDING.read_text())["level"]]
    return Demo(
        title=script([(45, "start", True), (48, "start", False)]),
        level=script(recorded + [(PAUSE_AT, "pause", True), (PAUSE_AT + 2, "pause", False)]),
        pause=script([(PAUSE_FOR, "pause", True), (PAUSE_FOR + 2, "pause", False)]),
    )

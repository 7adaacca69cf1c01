"""Every example runs headless for 300 frames and shows its scene."""

import importlib
import subprocess
import sys

import pygame
import pytest

from examples.__main__ import scenes


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.ray) if name == "rollouts" else name
                                  for name in scenes()])
def test_example_runs_headless_and_draws_a_scene(name, tmp_path):
    module = importlib.import_module(f"examples.{name}")
    doc = module.__doc__ or ""
    assert f"python -m examples.{name}" in doc
    assert "Controls" in doc
    shot = tmp_path / f"{name}.png"
    module.main(["--headless", "--frames", "300", "--screenshot", str(shot)])
    image = pygame.image.load(str(shot))
    colours = {tuple(image.get_at((x, y))) for x in range(0, image.get_width(), 7)
               for y in range(0, image.get_height(), 7)}
    assert len(colours) >= 4, "screenshot is blank or nearly single-coloured"


def test_examples_lists_every_scene():
    out = subprocess.run([sys.executable, "-m", "examples"], capture_output=True, text=True, check=True)
    for name in scenes():
        assert name in out.stdout


def test_common_prints_the_options_every_scene_accepts():
    out = subprocess.run([sys.executable, "-m", "examples.common"], capture_output=True, text=True)
    assert out.returncode == 0
    for option in ("--headless", "--frames", "--screenshot"):
        assert option in out.stdout

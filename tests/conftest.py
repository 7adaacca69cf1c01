"""Test setup: pygame runs headless, and shared scene helpers."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from hypothesis import settings  # noqa: E402

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
# A long local run: pytest tests/test_properties.py --hypothesis-profile=long
settings.register_profile("long", max_examples=3000, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


import pytest  # noqa: E402

from ecs import World  # noqa: E402


@pytest.fixture(params=[False, True], ids=["discrete", "continuous"])
def make_world(request):
    """Build Worlds in both pipelines: the foundation's guarantees hold in each."""

    def build(**options):
        return World(continuous=request.param, **options)

    build.continuous = request.param
    return build

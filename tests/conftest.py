"""Test setup: pygame runs headless, and shared scene helpers."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from hypothesis import settings  # noqa: E402

# The default profile (CI, plain pytest) runs the same examples every time:
# a clean clone has no example database, and CI must not be a lottery.
# Explore with the long profile:
#   pytest tests/physics/test_properties.py --hypothesis-profile=long
settings.register_profile("default", max_examples=40, deadline=None, derandomize=True)
settings.register_profile("long", max_examples=3000, deadline=None)
settings.load_profile("default")


import pytest  # noqa: E402

from ecs import World  # noqa: E402


@pytest.fixture(params=[False, True], ids=["discrete", "continuous"])
def make_world(request):
    """Build Worlds in both pipelines: the foundation's guarantees hold in each."""

    def build(**options):
        return World(continuous=request.param, **options)

    build.continuous = request.param
    return build


@pytest.fixture(scope="session", autouse=True)
def kernels_loaded():
    """The kernels compiled (or loaded from numba's cache) before the first test. A Game made
    on a cold cache compiles them in a background process and the Python reference runs
    meanwhile (the same floats); a later test that checks the kernels ran must not depend on
    whether that process has finished yet. (No-op with ECS_ARCADE_JIT=0.)"""
    from systems.physics._kernels import background

    background.compile_here()

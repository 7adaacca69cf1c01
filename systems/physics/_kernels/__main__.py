"""Compile every kernel into numba's cache: ``python -m systems.physics._kernels``, what a
Game's background compile runs (``background``); with ``--part 0``, only the first of the two
parts a cold compile splits them into (``background._PARTS``)."""

import sys

from systems.physics._kernels import background

if sys.argv[1:] == ["--part", "0"]:
    background._load(0)
else:
    background._compile_all()

"""The switch for the compiled kernels (numba), shared by every kernel module.

``ECS_ARCADE_JIT`` in the environment says how kernels run: "1" (the
default) compiled with numba when it is installed; "python" as plain
Python, slow but steppable in a debugger; "0" not at all (the pure-Python
reference code runs instead). Compiled functions are cached on disk
(``__pycache__``), so only the first run on a machine compiles them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["COMPILED", "ENABLED", "MODE", "kernel"]

_F = TypeVar("_F", bound=Callable[..., Any])

#: How kernels run, from ``ECS_ARCADE_JIT``: "1", "python" or "0".
MODE = os.environ.get("ECS_ARCADE_JIT", "1")
COMPILED = False
if MODE == "1":
    try:
        import numba

        COMPILED = True
    except ImportError:  # numba is optional (see pyproject.toml): the reference runs instead
        pass
#: Whether the systems hand the work the kernels cover to them.
ENABLED = COMPILED or MODE == "python"


def kernel(function: _F) -> _F:
    """Compile ``function`` with numba (cached on disk), or leave it as Python."""
    if COMPILED:
        return numba.njit(cache=True)(function)  # type: ignore[return-value]
    return function

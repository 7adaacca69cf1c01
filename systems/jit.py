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

__all__ = ["COMPILED", "ENABLED", "MODE", "helper", "inlined_helper", "kernel"]

_F = TypeVar("_F", bound=Callable[..., Any])

#: How kernels run, from ``ECS_ARCADE_JIT``: "1", "python" or "0".
MODE = os.environ.get("ECS_ARCADE_JIT", "1")
COMPILED = False
_COUNTING_OPTIONAL = False
if MODE == "1":
    try:
        import numba
        import numba.core.options

        COMPILED = True
        # numba's switch for reference counting is a private option: checked.
        _COUNTING_OPTIONAL = hasattr(numba.core.options.DefaultOptions, "_nrt")
    except ImportError:  # numba is optional (see pyproject.toml): the reference runs instead
        pass
#: Whether the systems hand the work the kernels cover to them.
ENABLED = COMPILED or MODE == "python"


def kernel(function: _F) -> _F:
    """Compile ``function`` with numba (cached on disk), or leave it as Python.

    For the functions Python calls, and any that make arrays.
    """
    if COMPILED:
        return numba.njit(cache=True)(function)  # type: ignore[return-value]
    return function


def helper(function: _F) -> _F:
    """Compile a kernel's helper with numba without reference counting.

    numba counts references to every array a compiled function is passed or
    unpacks from a tuple: a call into its runtime (NRT) per array, on entry
    and on exit, which optimisation keeps wherever the function branches.
    A helper only reads and writes arrays its caller holds for the whole
    call, so the counting is skipped (numba's ``_nrt`` option). It must not
    make arrays, nor call numba's sorts or typed containers, which do. On
    the fast arena's sweeps this takes about 40 % off the kernel's time
    (see README, "Speed").
    """
    return _compile_helper(function, inline=False)


def inlined_helper(function: _F) -> _F:
    """A ``helper`` that numba compiles into each function calling it.

    For the helpers called in a kernel's inner loops. A helper called out of
    line gets each array it is passed as a struct of seven to nine words,
    copied onto the stack at every call: about 80 words for the sweep
    kernel's ``_schedule``, called some 40,000 times a step on the fast
    arena, where LLVM's inliner would not take it in. numba's
    ``inline="always"`` puts its body in its callers before compiling
    them. On the fast arena's sweeps (N=2,000, 3,000 px/s) six such helpers
    took the kernel from 48.7 to 38.4 million instructions; the one-time
    compile of the first physics step grew from about 22 to 28 s here (see
    README, "Speed").
    """
    return _compile_helper(function, inline=True)


def _compile_helper(function: _F, inline: bool) -> _F:
    """``function`` compiled without reference counting, inlined or not."""
    if COMPILED:
        njit: Any = numba.njit  # (its stubs don't list the private option)
        options: dict[str, Any] = {"_nrt": False} if _COUNTING_OPTIONAL else {}
        if inline:
            options["inline"] = "always"
        return njit(cache=True, **options)(function)  # type: ignore[no-any-return]
    return function

"""The switch for the compiled kernels (numba), shared by every kernel module.

``ECS_ARCADE_JIT`` in the environment says how the kernels run: "1" (the
default) compiled with numba when it is installed, "0" as plain Python (the
same source, slow but steppable in a debugger, and what runs where numba has
no wheels). Any other value is refused (``ValueError`` at import, naming the
variable and its values), so a typo such as "true" never changes the mode
unnoticed.

The kernel modules are also loaded a second time as plain Python beside the
compiled copy (``plain``): this module's copy there never compiles
(``COMPILED`` is False in it, whatever the mode).

Compiled functions are cached on disk (``__pycache__``, an index ``.nbi`` and
data ``.nbc`` files per function), so only the first run on a machine
compiles them. numba keys a function's cache on its own bytecode and file,
so a kernel would keep running a stale copy of a helper edited in another
module (numba issue #6845); each cache key here also holds a digest of
the sources of every kernel module and of the packages whose constants
they may compile in (``SOURCES``), so any edit there compiles them again;
``background`` says which copy the stages run, and has a Game's first run
compile them in a process of their own. A cache file that cannot be read
back (truncated, corrupted, written by an incompatible build) is deleted
and the function compiled and cached again, with one warning line on the
``ecs_arcade`` logger.
"""

from __future__ import annotations

import glob
import hashlib
import logging
import os
from pathlib import Path
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["COMPILED", "MODE", "MODES", "helper", "inlined_helper", "kernel", "mode"]

_F = TypeVar("_F", bound=Callable[..., Any])
_log = logging.getLogger("ecs_arcade")

#: The values ``ECS_ARCADE_JIT`` may take.
MODES = ("1", "0")


def mode(value: str | None) -> str:
    """The kernel mode for ``ECS_ARCADE_JIT`` = ``value`` (None: unset, "1")."""
    if value is None:
        return "1"
    if value not in MODES:
        raise ValueError(f"ECS_ARCADE_JIT must be one of {', '.join(map(repr, MODES))} (compiled, plain "
                         f"Python), got {value!r}")
    return value


#: How kernels run, from ``ECS_ARCADE_JIT``: "1" or "0".
MODE = mode(os.environ.get("ECS_ARCADE_JIT"))
#: The name of this module in the package's own copy of the kernels, the one that compiles.
_COMPILED_COPY = "systems.physics._kernels.jit"
#: Whether this copy's kernels are compiled: in the package's own copy when the mode says so
#: and numba is installed; never in the plain copy (``plain``).
COMPILED = False
_COUNTING_OPTIONAL = False
if MODE == "1" and __name__ == _COMPILED_COPY:
    try:
        import numba
        import numba.core.options

        COMPILED = True
        # numba's switch for reference counting is a private option: checked.
        _COUNTING_OPTIONAL = hasattr(numba.core.options.DefaultOptions, "_nrt")
    except ImportError:  # numba is optional (see pyproject.toml): the kernels run as plain Python
        pass

_PHYSICS = Path(__file__).resolve().parent.parent
#: The packages whose modules the kernels may import from (``tests/physics/kernels/test_jit.py``
#: checks that they import nothing else of the project), and their source files.
PACKAGES = ("_kernels", "_broad", "_shapes")
SOURCES = tuple(sorted(path for package in PACKAGES for path in _PHYSICS.joinpath(package).glob("*.py")))


def sources_digest(paths: tuple[Path, ...] = SOURCES) -> str:
    """SHA-256 of the files at ``paths``, names and contents, in order."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


_DIGEST = sources_digest()


def kernel(function: _F) -> _F:
    """Compile ``function`` with numba (cached on disk), or leave it as Python.

    For the functions Python calls, and any that make arrays.
    """
    if COMPILED:
        compiled: _F = numba.njit(cache=True)(function)  # type: ignore[assignment]
        return _rebuild_bad_cache(_key_on_sources(compiled))
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
    (see benchmarks/README.md, "How the step got faster").
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
    benchmarks/README.md, "How the step got faster").
    """
    return _compile_helper(function, inline=True)


def _compile_helper(function: _F, inline: bool) -> _F:
    """``function`` compiled without reference counting, inlined or not."""
    if COMPILED:
        njit: Any = numba.njit  # (its stubs don't list the private option)
        options: dict[str, Any] = {"_nrt": False} if _COUNTING_OPTIONAL else {}
        if inline:
            options["inline"] = "always"
        compiled: _F = njit(cache=True, **options)(function)
        return _rebuild_bad_cache(_key_on_sources(compiled))
    return function


def _key_on_sources(dispatcher: _F) -> _F:
    """``dispatcher`` (numba's), its cache entries keyed on the kernels'
    sources too (``SOURCES``), not only on its own bytecode. Left as it is
    by a numba whose cache has no ``_index_key``."""
    cache: Any = getattr(dispatcher, "_cache", None)
    index_key = getattr(cache, "_index_key", None)
    if index_key is None:
        return dispatcher

    def keyed(signature: Any, codegen: Any) -> Any:
        return (*index_key(signature, codegen), _DIGEST)

    cache._index_key = keyed
    return dispatcher


def _rebuild_bad_cache(dispatcher: _F) -> _F:
    """``dispatcher`` (numba's), made to treat a cache it cannot read as none.

    numba reads a function's cache when the function is first compiled for
    a signature (``Cache.load_overload``), and an index or data file that
    does not unpickle raises out of the caller's first call (the first
    step), naming nothing. The files of that function are deleted instead,
    one line is logged, and numba compiles it and saves a new cache. If
    they cannot be deleted (a read-only folder), the function is compiled
    without its cache in this process (numba would read the bad index again
    to save a new one), and the line says so.
    """
    cache: Any = getattr(dispatcher, "_cache", None)  # numba's per-function cache
    load = getattr(cache, "load_overload", None)
    index: str | None = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    if load is None or index is None:  # a numba without these: its own behaviour stays
        return dispatcher
    data = glob.escape(index[:-len(".nbi")]) + ".*.nbc"
    function = getattr(getattr(dispatcher, "py_func", None), "__qualname__", "a kernel")

    def load_overload(signature: Any, target_context: Any) -> Any:
        try:
            return load(signature, target_context)
        except Exception as error:
            kept = _remove([index, *glob.glob(data)])
            if kept is not None:
                cache.disable()
            _log.warning("ecs_arcade: the compiled-kernel cache %s could not be read (%s); compiling %s again "
                         "and %s", index, _one_line(error), function,
                         "rebuilding it" if kept is None else f"not caching it: it cannot be removed ({kept})")
            return None

    cache.load_overload = load_overload
    return dispatcher


def _remove(paths: list[str]) -> str | None:
    """Delete the files at ``paths`` (those already gone are fine); None, or
    the first error that kept one, as one line."""
    for path in paths:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass
        except OSError as error:
            return _one_line(error)
    return None


def _one_line(error: BaseException) -> str:
    """``error``'s type and message on one line."""
    return f"{type(error).__name__}: {' '.join(str(error).split())}"

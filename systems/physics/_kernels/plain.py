"""One source, two ways to run it: the kernels compiled, and the same kernels as plain Python.

The stages call the kernels through a ``Kernels``: the entry points of one copy of them.
``own()`` is the package's copy, compiled when ``jit.COMPILED`` says so. ``plain()`` is the
same source run by the interpreter beside it, for a process whose kernels are compiled but not
ready yet (``background``: a Game plays on it while numba compiles them in another process) and
for tests that compare the two copies step by step in one process.

Why a second copy: numba replaces each decorated function by a dispatcher, and the Python
original of a compiled kernel (``py_func``) still calls its helpers' dispatchers, which would
compile them there and then. So the kernel modules are loaded a second time, from the same
files, as a package of their own (``NAME``) whose ``jit`` never compiles; their imports of
each other are relative, so that copy calls only itself.

Plain Python computes on NumPy's float64 scalars where the compiled code computes on machine
doubles: the same IEEE operations, the same bits. NumPy also warns where the machine code is
silent (a division by zero is an infinity the kernels test for), so a plain copy's entry
points run with NumPy's floating-point warnings off.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from systems.physics._kernels import crush, ground, jit, motion, outcome, pairs, push, storage, sweep, table

__all__ = ["NAME", "Kernels", "own", "plain"]

#: The package name the plain copy is loaded under.
NAME = "systems.physics._plain_kernels"
#: The modules whose entry points a ``Kernels`` holds.
_MODULES = ("pairs", "sweep", "push", "crush", "ground", "motion", "outcome", "table")


@dataclass(frozen=True, slots=True)
class Kernels:
    """The entry points of one copy of the kernels (``compiled``: whether numba compiled it):
    the broad phase's ``grid_pairs``, ``group_by_row``, ``level_cells`` and ``swept_bounds``
    (``pairs``), and the resolve stages' ``run_sweeps`` (``sweep``), ``push_out`` (``push``),
    ``crush`` (``crush``), ``snap_to_ground`` and ``grounded`` (``ground``), with ``fill_rows``
    (``table``) before them and ``outcome`` (``outcome``) after; and ``coordinates``, ``gather``,
    ``scatter`` and ``differing`` (``storage``), which read, write and compare Vector2s where
    pygame keeps them, and ``move_bodies`` (``motion``), Movement's rule over every body's
    vectors: None in the plain copy and wherever ``storage.layout_holds`` does not, where the
    stages read them from Python."""

    compiled: bool
    grid_pairs: Callable[..., Any]
    group_by_row: Callable[..., Any]
    level_cells: Callable[..., Any]
    swept_bounds: Callable[..., Any]
    run_sweeps: Callable[..., Any]
    push_out: Callable[..., Any]
    crush: Callable[..., Any]
    snap_to_ground: Callable[..., Any]
    grounded: Callable[..., Any]
    outcome: Callable[..., Any]
    fill_rows: Callable[..., Any]
    coordinates: Callable[..., Any] | None = None
    gather: Callable[..., Any] | None = None
    scatter: Callable[..., Any] | None = None
    move_bodies: Callable[..., Any] | None = None
    differing: Callable[..., Any] | None = None
    all_good: Callable[..., Any] | None = None


def _of(modules: dict[str, ModuleType], compiled: bool) -> Kernels:
    """The entry points of the copy whose modules are ``modules`` (by short name)."""
    entry: dict[str, Callable[..., Any]] = {
        "grid_pairs": modules["pairs"].grid_pairs, "group_by_row": modules["pairs"].group_by_row,
        "level_cells": modules["pairs"].level_cells, "swept_bounds": modules["pairs"].swept_bounds,
        "run_sweeps": modules["sweep"].run_sweeps, "push_out": modules["push"].push_out,
        "crush": modules["crush"].crush, "snap_to_ground": modules["ground"].snap_to_ground,
        "grounded": modules["ground"].grounded, "outcome": modules["outcome"].outcome,
        "fill_rows": modules["table"].fill_rows}
    if not compiled:
        return Kernels(compiled, **{name: _quiet(function) for name, function in entry.items()})
    located: dict[str, Callable[..., Any]] = {"coordinates": storage.coordinates, "gather": storage.gather,
                                              "scatter": storage.scatter, "move_bodies": motion.move_bodies,
                                              "differing": storage.differing, "all_good": storage.all_good}
    return Kernels(compiled, **entry, **(located if storage.layout_holds() else {}))


def _quiet(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` run with NumPy's floating-point warnings off (see the module docstring)."""

    @functools.wraps(function)
    def run(*args: Any) -> Any:
        with np.errstate(all="ignore"):
            return function(*args)

    return run


@functools.cache
def own() -> Kernels:
    """The package's own copy of the kernels: compiled if ``jit.COMPILED``, else plain Python."""
    return _of({"pairs": pairs, "sweep": sweep, "push": push, "crush": crush, "ground": ground, "motion": motion,
                "outcome": outcome, "table": table},
               jit.COMPILED)


@functools.cache
def plain() -> Kernels:
    """The kernels as plain Python: the package's own copy when that is not compiled, else a
    second copy of its modules loaded under ``NAME`` (once per process)."""
    if not jit.COMPILED:
        return own()
    folder = Path(jit.__file__).parent
    spec = importlib.util.spec_from_file_location(NAME, folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[NAME] = package
    spec.loader.exec_module(package)
    modules = {name: importlib.import_module(f"{NAME}.{name}") for name in _MODULES}
    copy_jit = importlib.import_module(f"{NAME}.jit")
    assert not copy_jit.COMPILED
    return _of(modules, False)

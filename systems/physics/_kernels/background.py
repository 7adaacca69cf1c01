"""Which copy of the kernels the stages run: never a frozen first run.

numba compiles the kernels the first time they are called (about a minute
on a 2-core machine, split between two processes) and caches the machine code on disk (``jit``); later runs
load it in a fraction of a second. The stages ask ``kernels()`` before each
piece of work for the copy to run (``plain.Kernels``): the compiled one once
it is ready, until then the same source as plain Python (``plain.plain``),
which gives the same floats bit for bit; so the answer may change from one
step to the next without changing any result.

A ``Game`` calls ``start()`` when it is made. If the cache already holds
every kernel (``cached``), nothing happens: the first step loads them. If
not, a separate process compiles them and writes the cache, one line saying
so is logged, and ``kernels()`` answers with the plain copy, so the game
plays on it meanwhile. A process, not a thread: numba holds the GIL for long
stretches while it compiles (a thread compiling the sweep kernel stopped a
1 ms ticker in the main thread for up to 150 ms, nine times over 100 ms in
14 s). If that process fails, the plain copy runs on, and one line names
the error.

At the first call after that process has finished, the kernels are loaded
from its cache and ``kernels()`` answers with the compiled copy from then
on. Loading takes 0.24 s, 0.18 of it numba importing its typing registries:
that part is done when the compile starts, before the first frame, so the
switch costs one step about 0.05 s. (A thread loading them instead starved
behind a busy game thread: each file it read waited out the GIL's switch
interval.)

Without a ``Game`` (a World stepped by a loop of your own, tests,
benchmarks), the first ``kernels()`` that finds the cache cold compiles
every kernel in this process, with a line before and after: the compiled
kernels run from the first step, as they always did.

``python -m systems.physics._kernels`` compiles every kernel into the cache:
what the background process does.
"""

from __future__ import annotations

import enum
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

import numpy as np

from systems.physics._kernels import crush, ground, jit, motion, outcome, pairs, push, storage, sweep
from systems.physics._kernels.plain import Kernels, own, plain
from systems.physics._kernels import table as kernel_table
from systems.physics._shapes.geometry import TIES

__all__ = ["NOTICE", "cached", "compile_here", "compiling", "entry_points", "kernels", "start", "wait"]

_log = logging.getLogger("ecs_arcade")

#: What a windowed Game shows while the kernels compile in the background.
NOTICE = "compiling the physics kernels (first run only)..."


class _State(enum.Enum):
    PLAIN = "the kernels are not compiled (ECS_ARCADE_JIT=0, or no numba): they run as plain Python"
    UNKNOWN = "not asked yet"
    COMPILING = "compiling in the background: the plain copy runs"
    READY = "the compiled kernels run"
    FAILED = "the background compile failed: the plain copy runs"


_state = _State.UNKNOWN if jit.COMPILED else _State.PLAIN
_process: subprocess.Popen[bytes] | None = None
_errors: IO[bytes] | None = None  # the background process's stderr
_began = 0.0  # when the background process was started (perf_counter, s)


# The kernels as this module was imported with them (a test may wrap the names the stages call).
_GRID_PAIRS, _GROUP_BY_ROW, _LEVEL_CELLS, _SWEPT_BOUNDS = (pairs.grid_pairs, pairs.group_by_row, pairs.level_cells,
                                                          pairs.swept_bounds)
_RUN_SWEEPS = sweep.run_sweeps
_PUSH_OUT, _CRUSH, _SNAP_TO_GROUND, _GROUNDED = push.push_out, crush.crush, ground.snap_to_ground, ground.grounded
_OUTCOME, _FILL_ROWS = outcome.outcome, kernel_table.fill_rows
_COORDINATES, _GATHER, _SCATTER = storage.coordinates, storage.gather, storage.scatter
_MOVE_BODIES, _DIFFERING, _ALL_GOOD = motion.move_bodies, storage.differing, storage.all_good


def entry_points() -> list[tuple[Any, tuple[Any, ...]]]:
    """Each kernel the stages call from Python, with the numba types of the
    arguments they pass it: what a run calls, so what the cache must hold.

    The arguments are made as the stages make theirs (``_stages.resolve``,
    ``Collide._compiled_pairs``, ``Found``), one or two bodies and no pair; only
    their types are used (``tests/physics/kernels/test_background.py``
    checks them against the stages' calls)."""
    boxes = np.zeros((1, 4))
    ids = np.zeros(1, np.int64)
    rows = np.zeros((0, 2), np.int64)
    # Two rows: a column slice of one row would be contiguous, typed as C where the stages pass 'A'.
    table = kernel_table.aligned_table(2, kernel_table.FLOAT_COLUMNS)
    ints = kernel_table.aligned_table(2, kernel_table.INT_COLUMNS, np.int64)
    buffers = sweep.buffers_for(None, 0, 2)
    status = np.zeros(kernel_table.COUNTERS, np.int64)
    calls: list[tuple[Any, tuple[Any, ...]]] = [
        (_GRID_PAIRS, (boxes, ids, np.zeros((1, 2), np.int64), ids, 1.0, 1, 1, ids, (ids, ids, ids))),
        (_LEVEL_CELLS, (boxes, ids, 1.0)),
        (_GROUP_BY_ROW, (ids, 1)),
        (_SWEPT_BOUNDS, (boxes[:, :2].copy(), boxes[:, :2].copy(), boxes[:, :2].copy(), boxes[:, :2].copy())),
        (_RUN_SWEEPS, (table, ints, rows, np.zeros((0, 3), np.int64), np.array(TIES), np.zeros(4), buffers,
                       (ids, ids, 0, sweep.kept_filing(buffers)), (rows, np.zeros((0, 8)), ids[:0]))),
        (_PUSH_OUT, (table, ints, rows, np.array(TIES), np.zeros(4), (rows, np.zeros((0, 2))), status, buffers)),
        (_CRUSH, (table, ints, (rows, np.zeros((0, 2))), status, buffers)),
        (_SNAP_TO_GROUND, (table, ints, (ids, np.zeros((1, 2))), np.zeros(4), status, buffers)),
        (_GROUNDED, (rows, np.zeros((0, 8)), ids, 0.0, 0.0)),
        (_OUTCOME, (ints, ids)),
        (_FILL_ROWS, (table, ints, ids, table.copy(), ints.copy(), boxes, *([boxes[:, :2].copy()] * 5))),
        (_COORDINATES, (ids, storage.HEADER, ids)),
        (_GATHER, (ids, boxes[:, :2].copy())),
        (_SCATTER, (ids, ids, boxes[:, :2].copy())),
        (_MOVE_BODIES, (ids, ids, ids, boxes[:, 0].copy(), boxes[:, 0].copy(), boxes[:, 0].copy(), True, 0.0, 0.0,
                        1.0, 1.0)),
        (_DIFFERING, (np.zeros((1, 4), np.int64), np.zeros((1, 8)), ids)),
        (_ALL_GOOD, (ids, 0)),
    ]
    return [(kernel, tuple(kernel.typeof_pyval(value) for value in values)) for kernel, values in calls]


def cached() -> bool:
    """Whether numba's disk cache holds every entry point for this source,
    this machine and this numba (True when that cannot be told: a numba
    whose cache is laid out otherwise then compiles on the first step, as
    before)."""
    try:
        for kernel, signature in entry_points():
            cache = kernel._cache
            key = cache._index_key(signature, kernel.targetctx.codegen())
            if key not in cache._cache_file._load_index():
                return False
    except (AttributeError, TypeError):
        return True
    except Exception:  # an index numba cannot read: compiling rewrites it (see jit._rebuild_bad_cache)
        return False
    return True


def start() -> None:
    """Have the kernels compiled in a background process if the cache
    lacks any (what a Game does when it is made); the plain copy runs
    meanwhile. Once per process; nothing if they run already or are not compiled."""
    global _state, _process, _errors, _began
    if _state is not _State.UNKNOWN:
        return
    if cached():
        _state = _State.READY
        return
    _errors = tempfile.TemporaryFile()
    _began = time.perf_counter()
    try:
        _process = _compiler([], _errors)
    except (OSError, ValueError) as error:  # no interpreter to start (an embedded Python): as without a Game
        _log.warning("ecs_arcade: could not start a process to compile the physics kernels (%s); the first "
                     "physics step compiles them", jit._one_line(error))
        return
    _state = _State.COMPILING
    _prepare()
    plain()  # loaded now, before the first frame
    _log.warning("ecs_arcade: compiling the physics kernels in the background (first run only, about a minute on "
                 "2 cores); the game runs meanwhile, on the same physics in Python")


def compiling() -> bool:
    """Whether the kernels are being compiled in the background now. When
    that process has just finished, loads the kernels first (the switch:
    see ``kernels``)."""
    return _state is _State.COMPILING and not _finished()


def kernels() -> Kernels:
    """The copy of the kernels the stages run now: the compiled one once it
    is ready, else the plain one (``ECS_ARCADE_JIT=0``, no numba, a
    background compile still running or failed). Without ``start`` (no
    Game), the first call compiles any the cache lacks, here."""
    if _state is _State.READY or _state is _State.PLAIN:
        return own()
    if _state is _State.FAILED:
        return plain()
    if _state is _State.COMPILING:
        return own() if _finished() else plain()
    compile_here()
    return own()


def compile_here() -> None:
    """Compile (or load from the cache) every kernel in this process now,
    with a line before and after when that compiles anything; waits for a
    background compile first if one runs. For benchmarks and tests that
    must run the kernels from their first step."""
    global _state
    if _state is _State.PLAIN or _state is _State.READY:
        return
    if _state is _State.COMPILING and wait():
        return
    began = time.perf_counter()
    cold = not cached()
    if cold:
        _log.warning("ecs_arcade: compiling the physics kernels (first run only, about a minute on 2 cores); the "
                     "physics waits for them")
    _compile_all()
    _state = _State.READY
    if cold:
        _log.warning("ecs_arcade: the physics kernels are compiled (%.1f s)", time.perf_counter() - began)


def wait(timeout: float | None = None) -> bool:
    """Wait (at most ``timeout`` s; None: as long as it takes) for a
    background compile to finish, and switch to the compiled kernels if it
    succeeded; whether they run now."""
    if _process is not None and _state is _State.COMPILING:
        try:
            _process.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        _finished()
    return _state is _State.READY


def _finished() -> bool:
    """Whether the background compile is over and the compiled kernels
    ready; when it has just ended, they are loaded from its cache (READY)
    or, if it or the loading failed, the plain copy stays (FAILED), with a
    line either way."""
    assert _process is not None
    code = _process.poll()
    if code is None:
        return False
    if code != 0:
        return _failed(f"exit status {code}: {_last_line(_errors)}")
    if not cached():  # loading would compile them all here, freezing the game
        return _failed(f"numba could not cache them: {_last_line(_errors)}")
    try:
        _load()
    except Exception as error:  # (numba's errors are Exceptions)
        return _failed(jit._one_line(error))
    global _state
    _state = _State.READY
    _log.warning("ecs_arcade: the physics kernels are compiled (%.1f s) and now run", time.perf_counter() - _began)
    return True


def _failed(reason: str) -> bool:
    """The plain copy runs on (FAILED), with one line giving ``reason``; False."""
    global _state
    _state = _State.FAILED
    _log.warning("ecs_arcade: compiling the physics kernels failed (%s); the same physics runs on in Python", reason)
    return False


def _prepare() -> None:
    """Have numba import what loading a kernel needs (its typing
    registries, 0.18 s), so that the switch doesn't wait for it."""
    for kernel, _ in entry_points():
        kernel.targetctx.refresh()


def _load(part: int | None = None) -> None:
    """Compile every entry point here, or load it from the cache; or only
    those of ``part`` (``_PARTS``)."""
    for kernel, signature in entry_points():
        if part is None or (kernel.py_func.__name__ in _PARTS[0]) == (part == 0):
            kernel.compile(signature)


#: The entry points a cold compile splits between two processes: the sweep
#: kernel (about half the work), and the others. Each process compiles the
#: helpers its part calls; numba's cache takes the files of several
#: processes (each writes a temporary file and renames it).
_PARTS = (("run_sweeps",), ("grid_pairs", "group_by_row", "level_cells", "swept_bounds", "push_out", "crush",
                           "snap_to_ground", "grounded", "outcome", "fill_rows", "coordinates", "gather", "scatter",
                           "move_bodies", "differing", "all_good"))


def _compile_all() -> None:
    """Compile every entry point into the cache and load it, the first part
    in a process of its own when the machine has two cores or more (the
    compile takes half as long), the rest here; whatever that process
    failed to cache is compiled here after."""
    helper = None
    if (os.cpu_count() or 1) > 1:
        try:
            helper = _compiler(["--part", "0"], subprocess.DEVNULL)
        except (OSError, ValueError):  # no interpreter to start: all of it here
            pass
    _load(1 if helper is not None else None)
    if helper is not None:
        helper.wait()
        _load()


def _compiler(arguments: list[str], errors: IO[bytes] | int) -> subprocess.Popen[bytes]:
    """A process of this interpreter compiling kernels into the cache
    (``python -m systems.physics._kernels``, with ``arguments``), its error
    output to ``errors``."""
    root = Path(__file__).resolve().parents[3]  # the folder holding the ``systems`` package
    env = {**os.environ, "ECS_ARCADE_JIT": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, (str(root), os.environ.get("PYTHONPATH"))))}
    return subprocess.Popen([sys.executable, "-m", "systems.physics._kernels", *arguments], cwd=root, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)


def _last_line(stream: IO[bytes] | None) -> str:
    """The last non-blank line written to ``stream``, or "no message"."""
    if stream is None:
        return "no message"
    stream.seek(0)
    lines = [line.strip() for line in stream.read().decode(errors="replace").splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


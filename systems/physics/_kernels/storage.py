"""Vector2s read and written where pygame keeps their coordinates, from compiled code.

Every body's state is in its components' ``pygame.Vector2``s, and a step reads them all into
arrays and writes back what changed. From Python, a Vector2 gives up its coordinates only as
two new float objects: reading one field of 10,000 bodies so costs about a millisecond,
writing it back more. But a Vector2 is a C struct (``pgVector`` in pygame's
``src_c/math.c``): the object's header, then a pointer to its two doubles, allocated when the
vector is made and never moved or freed while it lives. So given where each vector's doubles
are (``coordinates``), compiled code reads them into an array (``gather``) and writes them
(``scatter``) at the cost of a memory access each.

That layout is pygame's, not a published interface, so nothing relies on it unchecked:
``layout_holds`` tries it on a Vector2, a subclass of one and a changed one, through ctypes,
and the stages use these kernels only when it holds, on CPython, with the kernels compiled
(``plain.Kernels``); else they read from Python, as before, to the same bits. The addresses
are only ever taken from vectors that the list holding them keeps alive
(``systems.physics._bodies.table.VectorList``), so no address outlives its vector.
"""

from __future__ import annotations

import ctypes
import math
import sys
from collections.abc import Callable
from typing import Any

from pygame import Vector2

from . import jit
from .jit import kernel as _kernel

__all__ = ["HEADER", "all_good", "coordinates", "differing", "gather", "layout_holds", "scatter"]

#: Bytes from a Vector2's address (``id``) to its pointer to its coordinates: CPython's
#: object header, ``PyObject_HEAD``.
HEADER = object.__basicsize__


def _compiled_accesses() -> tuple[Any, Any, Any]:
    """numba intrinsics for ``_word_at``, ``_double_at`` and ``_put_double``: a load or a store
    of LLVM at the address given."""
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba import types
    from numba.extending import intrinsic

    def load(kind: Any, result: Any) -> Any:
        @intrinsic
        def at(typing_context: Any, address: Any) -> Any:
            def generate(context: Any, builder: Any, signature: Any, arguments: Any) -> Any:
                return builder.load(builder.inttoptr(arguments[0], ir.PointerType(kind)))
            return result(types.int64), generate
        return at

    @intrinsic
    def put_double(typing_context: Any, address: Any, value: Any) -> Any:
        def generate(context: Any, builder: Any, signature: Any, arguments: Any) -> Any:
            builder.store(arguments[1], builder.inttoptr(arguments[0], ir.PointerType(ir.DoubleType())))
            return context.get_dummy_value()
        return types.void(types.int64, types.float64), generate

    return load(ir.IntType(64), types.int64), load(ir.DoubleType(), types.float64), put_double


# (``int``: an address may come from an int64 array, a NumPy integer that ctypes refuses.)
def _ctypes_word_at(address: int) -> int:
    return int(ctypes.c_int64.from_address(int(address)).value)


def _ctypes_double_at(address: int) -> float:
    return float(ctypes.c_double.from_address(int(address)).value)


def _ctypes_put_double(address: int, value: float) -> None:
    ctypes.c_double.from_address(int(address)).value = value


# The 64-bit integer at an address, the double at one, and a store of a double there: LLVM's
# loads and stores where compiled, ctypes' in the plain copy (slow: for its tests, never a step).
_word_at: Callable[[int], int]
_double_at: Callable[[int], float]
_put_double: Callable[[int, float], None]
if jit.COMPILED:
    _word_at, _double_at, _put_double = _compiled_accesses()
else:
    _word_at, _double_at, _put_double = _ctypes_word_at, _ctypes_double_at, _ctypes_put_double


@_kernel
def coordinates(objects: Any, header: int, out: Any) -> None:
    """Where the coordinates of the Vector2s at ``objects`` (their ``id``\\ s, an int64 array)
    are, into ``out`` (int64, as long); ``header``: ``HEADER``, this interpreter's (an
    argument, not a constant compiled in: the compiled code is cached on disk)."""
    for k in range(objects.shape[0]):
        out[k] = _word_at(objects[k] + header)


@_kernel
def gather(addresses: Any, out: Any) -> None:
    """The coordinates at ``addresses`` (from ``coordinates``) into ``out`` ((n, 2) float64),
    x then y."""
    for k in range(addresses.shape[0]):
        out[k, 0] = _double_at(addresses[k])
        out[k, 1] = _double_at(addresses[k] + 8)


@_kernel
def all_good(addresses: Any, sizes_from: int) -> bool:
    """Whether the coordinates at ``addresses`` (from ``coordinates``) are all finite, and
    those from the ``sizes_from``-th on all above 0 (the check before a step, ``ecs._vectors``):
    read where they are, in one pass, into no array."""
    for k in range(addresses.shape[0]):
        x, y = _double_at(addresses[k]), _double_at(addresses[k] + 8)
        if not (math.isfinite(x) and math.isfinite(y)) or (k >= sizes_from and not (x > 0.0 and y > 0.0)):
            return False
    return True


@_kernel
def scatter(addresses: Any, picks: Any, values: Any) -> None:
    """Write ``values[k]`` ((m, 2) float64, x then y) into the Vector2 whose coordinates are at
    ``addresses[picks[k]]``. A pick outside ``addresses``, or values of another shape, raise
    before anything is written: this writes to memory by address."""
    if values.shape[0] != picks.shape[0] or values.shape[1] != 2:
        raise ValueError("scatter: values must hold an (x, y) for each pick")
    for k in range(picks.shape[0]):
        if picks[k] < 0 or picks[k] >= addresses.shape[0]:
            raise IndexError("scatter: a pick outside the vectors")
    for k in range(picks.shape[0]):
        address = addresses[picks[k]]
        _put_double(address, values[k, 0])
        _put_double(address + 8, values[k, 1])


@_kernel
def differing(columns: Any, seen: Any, out: Any) -> int:
    """Which rows of vectors differ from what was ``seen``: ``columns`` ((n, k) int64) holds
    each row's k vectors' addresses (from ``coordinates``), ``seen`` ((n, 2k) float64) the x
    and y each had, in the same order. The indices of the rows with any coordinate not equal
    to its seen value (``!=``: a NaN always differs, -0.0 equals 0.0) go into ``out`` (int64,
    at least n long), ascending; returns how many. Reads only: a row's vectors are compared
    where they are, never copied."""
    if seen.shape[0] != columns.shape[0] or seen.shape[1] != 2 * columns.shape[1] or out.shape[0] < columns.shape[0]:
        raise ValueError("differing: seen must hold an (x, y) per address, out a slot per row")
    count = 0
    for row in range(columns.shape[0]):
        for k in range(columns.shape[1]):
            address = columns[row, k]
            if _double_at(address) != seen[row, 2 * k] or _double_at(address + 8) != seen[row, 2 * k + 1]:
                out[count] = row
                count += 1
                break
    return count


def layout_holds() -> bool:
    """Whether this interpreter and this pygame keep a Vector2 as ``coordinates`` reads it:
    tried on a Vector2, an instance of a subclass and a vector changed in place, reading
    and writing through ctypes."""
    if sys.implementation.name != "cpython":
        return False

    class Subclass(Vector2):
        pass

    for vector in (Vector2(1.5, -2.25), Subclass(-0.0, 3e300)):
        address = ctypes.c_void_p.from_address(id(vector) + HEADER).value
        if not address or ctypes.c_ssize_t.from_address(id(vector) + HEADER + 8).value != 2:  # (pgVector.dim)
            return False
        x, y = ctypes.c_double.from_address(address), ctypes.c_double.from_address(address + 8)
        if (x.value, y.value) != tuple(vector) or str(x.value) != str(vector[0]):  # (-0.0 too)
            return False
        vector.update(7.0, -8.0)
        y.value = 9.0
        if (x.value, vector[1]) != (7.0, 9.0):
            return False
    return True

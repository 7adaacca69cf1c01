"""The bodies' Vector2s read and written by the stages, through compiled code where it runs.

A step reads every body's vectors into arrays (the check before it, Collision's read of where
the movers are, Response's of their velocities) and writes back the positions and velocities
the core changed. From Python each vector costs two float objects; the storage kernels
(``systems.physics._kernels.storage``) read and write the doubles where pygame keeps them,
for the vectors of a ``VectorList``, whose addresses they find once per list. Where those
kernels don't run (``ECS_ARCADE_JIT=0``, no numba, a Game's first run while they compile,
a pygame laid out otherwise), and for lists shorter than ``FEW``, the same vectors are read
and written from Python: the same doubles either way, so the same bits.
"""

from __future__ import annotations

import numpy as np
from pygame import Vector2

from systems.physics._bodies.table import VectorList, read_vectors
from systems.physics._kernels import background
from systems.physics._kernels.plain import Kernels
from systems.physics._kernels.storage import HEADER

__all__ = ["FEW", "addresses", "all_good", "gathered", "read", "write"]

#: Lists of fewer vectors than this are read and written from Python: for so few, a compiled
#: call's fixed cost is more than Python's per vector (benchmarks/README.md, "Game-like scenes").
FEW = 64


def gathered(vectors: list[Vector2], kernels: Kernels | None = None) -> np.ndarray | None:
    """``vectors`` as an (n, 2) array read by the compiled kernels (``kernels``, default those
    running now), or None where they don't read them (the kernels not compiled, not a
    ``VectorList``, or fewer than ``FEW`` vectors)."""
    if not vectors:  # (nothing to read: no kernel asked for, none compiled for it)
        return np.empty((0, 2))
    kernels = kernels or background.kernels()
    located = addresses(vectors, kernels)
    if located is None or kernels.gather is None:
        return None
    out = np.empty((len(vectors), 2))
    kernels.gather(located, out)
    return out


def all_good(vectors: list[Vector2], sizes_from: int) -> bool | None:
    """Whether ``vectors`` are all finite, and those from the ``sizes_from``-th on above 0
    along both axes, as the compiled kernels running now read them; None where they don't
    read them (``gathered``)."""
    kernels = background.kernels()
    located = addresses(vectors, kernels) if vectors else None
    if located is None or kernels.all_good is None:
        return None
    return bool(kernels.all_good(located, sizes_from))


def read(vectors: list[Vector2], kernels: Kernels | None = None) -> np.ndarray:
    """``vectors`` as an (n, 2) array: compiled (``gathered``, by ``kernels``, default those
    running now) or from Python."""
    values = gathered(vectors, kernels)
    return read_vectors(vectors) if values is None else values


def write(vectors: list[Vector2], picks: np.ndarray, values: np.ndarray, kernels: Kernels | None = None) -> None:
    """Set ``vectors[picks[k]]`` to ``values[k]`` (an (m, 2) float array) for every k, through
    ``kernels`` (default those running now) where they write vectors."""
    if not len(picks) and not len(values):
        return
    kernels = kernels or background.kernels()
    located = addresses(vectors, kernels)
    if located is not None and kernels.scatter is not None:  # (it refuses a pick outside, or a bad shape)
        kernels.scatter(located, picks, np.ascontiguousarray(values, float))
        return
    if values.shape != (len(picks), 2):
        raise ValueError(f"values: {len(picks)} vectors' (x, y) expected, got shape {values.shape}")
    rows = picks.tolist()
    if rows and (min(rows) < 0 or max(rows) >= len(vectors)):  # (before any write; -1 would count from the end)
        raise IndexError(f"picks: rows {min(rows)} to {max(rows)} of {len(vectors)} vectors")
    # Set by index: a third of ``update``'s cost (no argument parsing).
    for vector, x, y in zip(map(vectors.__getitem__, rows), values[:, 0].tolist(), values[:, 1].tolist()):
        vector[0] = x
        vector[1] = y


def addresses(vectors: list[Vector2], kernels: Kernels) -> np.ndarray | None:
    """Where the coordinates of a ``VectorList``'s vectors are (found once per list), or None
    where the kernels don't read them or the list is short (``FEW``)."""
    if kernels.coordinates is None or not isinstance(vectors, VectorList) or len(vectors) < FEW:
        return None
    if vectors.addresses is None:
        found = np.empty(len(vectors), np.int64)
        kernels.coordinates(np.fromiter(map(id, vectors), np.int64, len(vectors)), HEADER, found)
        vectors.addresses = found
    return vectors.addresses

"""The sweep kernel's impact queue: a binary heap of impact records.

It pops impacts earliest first, then larger contact surface (the crack
cure of Sacred Software, *Collisions, Part 1*), then rows (entity ids),
then insertion: a total order, so that a step never depends on how ties
happen to fall.
"""

from __future__ import annotations

from typing import Any

from .jit import helper as _helper
from .jit import inlined_helper as _inlined
from .table import HEAP, OVERFLOW, RECORDS

__all__ = []


# -- the impact queue: a binary heap over records ---------------------------------
# Ordered by (time, -surface, a, b, insertion order). ``records`` float columns: time,
# -surface, normal x, normal y; ``keys`` int columns: a, b, version of a,
# version of b. ``heap`` holds the record at each place in the heap and
# ``ranks`` its time and -surface, so that most comparisons read the heap
# itself, a place's two children side by side, rather than records all over.

@_helper
def _before(keys: Any, time: float, neg_surface: float, index: int, other_time: float,
            other_neg_surface: float, other: int) -> bool:
    """Whether record ``index`` comes before record ``other`` in the queue."""
    if time != other_time:
        return time < other_time
    if neg_surface != other_neg_surface:
        return neg_surface < other_neg_surface
    if keys[index, 0] != keys[other, 0]:
        return bool(keys[index, 0] < keys[other, 0])
    if keys[index, 1] != keys[other, 1]:
        return bool(keys[index, 1] < keys[other, 1])
    return index < other


@_helper
def _place(heap: Any, ranks: Any, k: int, time: float, neg_surface: float, index: int) -> None:
    """Put record ``index`` at place k of the heap."""
    ranks[k, 0], ranks[k, 1], heap[k] = time, neg_surface, index


@_inlined
def _push(queue: Any, status: Any, time: float, neg_surface: float, a: int, b: int, version_a: int,
          version_b: int, nx: float, ny: float) -> None:
    records, keys, ranks, heap = queue
    index = status[RECORDS]
    if index >= records.shape[0]:
        status[OVERFLOW] = 1
        return
    status[RECORDS] += 1
    records[index, 0], records[index, 1], records[index, 2], records[index, 3] = time, neg_surface, nx, ny
    keys[index, 0], keys[index, 1], keys[index, 2], keys[index, 3] = a, b, version_a, version_b
    status[HEAP] += 1
    _sift_up(keys, ranks, heap, status[HEAP] - 1, time, neg_surface, index)


@_helper
def _sift_up(keys: Any, ranks: Any, heap: Any, k: int, time: float, neg_surface: float, index: int) -> None:
    """Put record ``index`` at the empty place k, or above it, moving the
    records it comes before down a level."""
    while k > 0:
        parent = (k - 1) >> 1
        if not _before(keys, time, neg_surface, index, ranks[parent, 0], ranks[parent, 1], heap[parent]):
            break
        _place(heap, ranks, k, ranks[parent, 0], ranks[parent, 1], heap[parent])
        k = parent
    _place(heap, ranks, k, time, neg_surface, index)


# Pops move the hole left at the top down to a leaf along the earlier child, then the heap's last
# record up from there (R. W. Floyd, *Algorithm 245: Treesort 3*): one comparison a level instead of
# two, as the last record, taken from the bottom, mostly belongs near it. The keys order every
# record, so the pops come out in the same order however the heap is kept.
@_inlined
def _pop(queue: Any, status: Any) -> int:
    """The earliest record's index, taken off the heap."""
    keys, ranks, heap = queue[1], queue[2], queue[3]
    top = heap[0]
    status[HEAP] -= 1
    n = status[HEAP]
    if n:
        time, neg_surface, last = ranks[n, 0], ranks[n, 1], heap[n]
        k = 0
        child = 1
        while child < n:
            if child + 1 < n and _before(keys, ranks[child + 1, 0], ranks[child + 1, 1], heap[child + 1],
                                         ranks[child, 0], ranks[child, 1], heap[child]):
                child += 1
            _place(heap, ranks, k, ranks[child, 0], ranks[child, 1], heap[child])
            k = child
            child = 2 * k + 1
        _sift_up(keys, ranks, heap, k, time, neg_surface, last)
    return int(top)

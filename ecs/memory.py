"""Garbage collection at loading points: what is loaded is frozen, not walked.

CPython frees most objects by reference counting; its cycle collector also
walks, in each full pass, every object that can hold references. Once the
compiled kernels are loaded, numba holds about 140,000 such objects for the
life of the process. A full pass then took about 55 ms here, and a step that
makes many short-lived objects (3,000 contacts a step in the N=2,000 arena at
3,000 px/s) set one off every 8 steps or so: a dropped frame each time, and
7 ms a step on average. ``gc.freeze`` (CPython's answer to the same cost in
long-running servers, added in 3.7) moves every live object out of the
collector's sight until ``gc.unfreeze``; later passes walk only what was made
since.
"""

from __future__ import annotations

import gc

__all__ = ["freeze_loaded"]


def freeze_loaded() -> None:
    """Collect garbage now, then freeze every live object (``gc.freeze``).

    Call it at a loading point, where a pause of a few tens of ms is
    acceptable: after a level is built and its first step taken (which
    loads the compiled kernels). ``Game`` calls it at the end of the frame
    in which a scene it pushed or swapped in takes its first step. Frozen
    objects are still freed by reference counting as usual; only reference
    cycles among them wait, until the next call, which unfreezes everything
    before collecting. So a World dropped in between is freed then.
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()

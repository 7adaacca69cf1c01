"""Kernels: the numba-compiled loops (the broad phase's pairs, the sweep) and the switch that
runs them compiled or as plain Python (``ECS_ARCADE_JIT``)."""

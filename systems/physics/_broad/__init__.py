"""Broad phase: the uniform grid that files each collider's swept bounds and finds the pairs
that may touch."""

"""Solver: what the compiled core's resolve stages hand back to Python (``resolution``: the
step's contacts, crushed bodies and riders), and riders carried by moving platforms
(``riders``, as arrays)."""

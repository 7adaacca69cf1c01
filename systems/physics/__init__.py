"""Physics: the three systems of the collision pipeline (``movement``, ``collision``,
``response``) and the spatial queries, over internal layers that depend one way:
``_shapes`` → ``_broad`` → ``_kernels`` → ``_bodies`` → ``_solver`` → ``_stages``.
ARCHITECTURE.md draws them; the public names are exported by ``systems`` and ``ecs``."""

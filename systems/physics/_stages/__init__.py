"""Stages: the named passes of one step, each over the step's bodies and pairs. Collide
(``collide``) runs as the CollisionSystem, each run making a fresh ``found.Found`` (the
step's bodies and pairs); ResponseSystem builds a ``context.StepContext``
and runs board, sweep (and its compiled form, with piles and rows), push_out, crush, ground
and contacts in order; ``memory.Memory`` and ``collide.Collide`` hold what lives across steps."""

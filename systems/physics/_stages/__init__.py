"""Stages: the named passes of one step, each over the step's bodies and pairs. Collide
(``collide``) runs as the CollisionSystem; ResponseSystem builds a ``context.StepContext``
and runs board, sweep (and its compiled form, with piles and rows), push_out, crush, ground
and contacts in order; ``memory.Memory`` holds what lives across steps."""

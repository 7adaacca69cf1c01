"""Stages: the named passes of one step, each over the step's bodies and pairs. Collide
(``collide``) runs as the CollisionSystem, each run making a fresh ``found.Found`` (the
step's bodies and pairs); ResponseSystem builds a ``context.StepContext`` and runs board, the
sweep and push-out (``resolve``, in the compiled core), crush, ground and contacts in order;
``memory.Memory`` and ``collide.Collide`` hold what lives across steps."""

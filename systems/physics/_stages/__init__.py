"""Stages: the named passes of one step, each over the step's bodies and pairs (the sweep and its
compiled form, piles, rows, push-out, crushing, ground, contacts)."""

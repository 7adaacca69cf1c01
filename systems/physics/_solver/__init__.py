"""Solver: what one contact does to two bodies: who is pinned, who supports whom, the momentum
exchanged with Coulomb friction, riders carried by moving platforms."""

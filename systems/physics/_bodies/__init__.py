"""Body state: what a step knows of each collider (its box, shape, velocity, mass, kind), read
from the components, and the columns the compiled stages read at once."""

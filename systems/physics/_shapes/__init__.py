"""Shapes: pure geometry of boxes, circles and the four right triangles (overlap, penetration,
time of impact, contact). No state, no components read: functions of numbers and boxes."""

"""Particles: Emitters' particles moved on the fixed step as arrays, and drawn through the camera."""

from __future__ import annotations

import math

import esper
import numpy as np
import pygame
from numpy.typing import NDArray
from pygame import Vector2

from components import Collider, ColliderType, Transform
from components.particles import COLUMNS, Emitter, Particles
from systems._world import WorldLike
from systems.game.camera import Camera

__all__ = ["PARTICLE_PRIORITY", "ParticleRenderer", "ParticleSystem", "SHADES"]

#: The ParticleSystem's priority: after Response (100) and the user's systems
#: (0), so particles start where this step left their emitter.
PARTICLE_PRIORITY = -50

#: Relative slack on a particle's end: thirty steps of 1/60 s add up to a hair
#: under 0.5 s in floating point, and a 0.5 s particle must die on the thirtieth.
SLACK = 1e-9

#: Shades a particle takes over its life when drawn: its colour, opacity and
#: size are those of the nearest of SHADES evenly spaced moments.
SHADES = 16


class ParticleSystem(esper.Processor):
    """Each step, for every Emitter: age its particles and drop those at the end
    of their life, move the rest (semi-implicit Euler: velocity += gravity·dt,
    then position += velocity·dt), bounce them off STATIC colliders if the
    Emitter says so, then emit the step's new ones at age 0 where the emitter
    is (``rate``·dt of them, the fractions carried to the next step, plus any
    ``burst``)."""

    def __init__(self, world: WorldLike) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        for _, (emitter, transform) in self.world.get_components(Emitter, Transform):
            particles = emitter.particles
            _age(particles, dt)
            before = {axis: particles.live(axis).copy() for axis in ("x", "y")} if emitter.bounce is not None else {}
            _move(particles, emitter.gravity, dt)
            if emitter.bounce is not None and particles.count:
                self._bounce(particles, before, emitter.bounce)
            owed = particles.carry + (emitter.rate * dt if emitter.active else 0.0)
            count = math.floor(owed)
            particles.carry = owed - count
            if emitter.burst:
                count, emitter.burst = count + emitter.burst, 0
            _emit(emitter, transform.position, count)

    def _bounce(self, particles: Particles, before: dict[str, NDArray[np.float64]], keep: float) -> None:
        """Send back the particles that entered a STATIC collider's box this step. Twice over the
        boxes: a particle put back out of one box into the corner of another is then put out of it."""
        x, y = particles.live("x"), particles.live("y")
        # Grown by a px: a box whose edge the particles sit on only touches their bounds, and the
        # query leaves out what only touches.
        low, high = Vector2(float(x.min()) - 1, float(y.min()) - 1), Vector2(float(x.max()) + 1, float(y.max()) + 1)
        boxes = []
        for entity in self.world.query_box(low, high - low, triggers=False):
            collider = self.world.try_component(entity, Collider)
            transform = self.world.try_component(entity, Transform)
            if collider is not None and transform is not None and collider.type is ColliderType.STATIC:
                corner = transform.position + collider.offset
                boxes.append((corner.x, corner.y, collider.size.x, collider.size.y))
        for box in boxes * 2:
            _bounce_off(particles, before, box, keep)


def _age(particles: Particles, dt: float) -> None:
    """Add ``dt`` to every age and keep only the particles still alive, in order."""
    age = particles.live("age")
    age += dt
    alive = np.flatnonzero(age < particles.live("life") * (1 - SLACK))
    if len(alive) == particles.count:
        return
    for name in COLUMNS:
        column = particles.columns[name]
        column[:len(alive)] = column[alive]
    particles.count = len(alive)


def _move(particles: Particles, gravity: Vector2, dt: float) -> None:
    """One semi-implicit Euler step of every live particle, each axis alike."""
    for position, velocity, pull in (("x", "vx", gravity.x), ("y", "vy", gravity.y)):
        speed = particles.live(velocity)
        if pull:
            speed += pull * dt
        particles.live(position)[:] += speed * dt


def _bounce_off(particles: Particles, before: dict[str, NDArray[np.float64]],
                box: tuple[float, float, float, float], keep: float) -> None:
    """Particles that ended this step's move in ``box`` (x, y, w, h; its edges count) are put
    back on the face they came through from where they were ``before`` the move, their speed
    across it reversed and scaled by ``keep``. The face: one the particle was strictly outside
    of and is moving in through (along y first, so a particle landing on a corner lands on the
    floor); else those it sat on, moving in (a particle resting on a floor or in a corner). One
    sliding along a face stays on it; one already sent back is moving out and is left alone."""
    x, y = particles.live("x"), particles.live("y")
    hit = np.flatnonzero((x >= box[0]) & (x <= box[0] + box[2]) & (y >= box[1]) & (y <= box[1] + box[3]))
    for strictly in (True, False):
        for axis, position, velocity in ((1, "y", "vy"), (0, "x", "vx")):
            if not hit.size:
                return
            low, high = box[axis], box[axis] + box[axis + 2]
            now, speed, start = particles.live(position), particles.live(velocity), before[position][hit]
            inward = speed[hit]  # > 0 through the low face, < 0 through the high one (not once sent back)
            if strictly:
                crossed = ((start < low) & (inward > 0)) | ((start > high) & (inward < 0))
            else:
                crossed = ((start <= low) & (inward > 0)) | ((start >= high) & (inward < 0))
            entered = hit[crossed]
            now[entered] = np.where(start[crossed] <= low, low, high)
            speed[entered] *= -keep
            if strictly:  # (one sitting on a corner, moving in on both axes, is put back on both)
                hit = hit[~crossed]


def _emit(emitter: Emitter, position: Vector2, count: int) -> None:
    """Add ``count`` particles (fewer if the capacity is reached) at age 0 in the spawn box."""
    particles = emitter.particles
    count = min(count, emitter.capacity - particles.count)
    if count <= 0:
        return
    draws = particles.rng.random((count, 5))  # spawn x, spawn y, speed, direction, lifetime
    start, end = particles.count, particles.count + count
    centre = position + emitter.offset
    direction = np.radians(emitter.angle + (draws[:, 3] - 0.5) * emitter.spread)
    speed = emitter.speed[0] + draws[:, 2] * (emitter.speed[1] - emitter.speed[0])
    columns = particles.columns
    columns["x"][start:end] = centre.x + (draws[:, 0] - 0.5) * emitter.area.x
    columns["y"][start:end] = centre.y + (draws[:, 1] - 0.5) * emitter.area.y
    columns["vx"][start:end] = np.cos(direction) * speed
    columns["vy"][start:end] = np.sin(direction) * speed
    columns["age"][start:end] = 0.0
    columns["life"][start:end] = emitter.lifetime[0] + draws[:, 4] * (emitter.lifetime[1] - emitter.lifetime[0])
    particles.count = end


class ParticleRenderer:
    """A draw system: every Emitter's particles in view, each a square centred on
    it, its colour, opacity and size (px, times the camera's zoom) taken
    between the Emitter's first and last by how far through its life it is
    (in SHADES steps). Emitters are drawn in ``layer`` order, over the
    sprites (add it after the sprite renderer: a Scene does, at priority 75).
    Particles are drawn where the last step left them (no interpolation)."""

    def __init__(self, world: WorldLike) -> None:
        self.world = world
        # The shades drawn in the last frame and in this one, by what they depend on: those no view
        # drew for a whole frame are let go.
        self._shades: dict[tuple[object, ...], list[pygame.Surface]] = {}
        self._drawn_shades: dict[tuple[object, ...], list[pygame.Surface]] = {}
        self.drawn = 0

    def process(self, surface: pygame.Surface, alpha: float, camera: Camera | None = None) -> None:
        """Draw the particles in view onto ``surface``, through ``camera`` (the world's by default)."""
        camera = camera or self.world.resources.get(Camera)
        view, zoom = (camera.view, camera.zoom) if camera is not None else (Vector2(), 1.0)
        width, height = surface.get_size()
        emitters = sorted(self.world.get_component(Emitter), key=lambda pair: (pair[1].layer, pair[0]))
        if camera is self.world.resources.get(Camera):  # once a frame: keep the shades some view drew
            self._shades, self._drawn_shades = self._drawn_shades, {}
        self.drawn = 0
        for _, emitter in emitters:
            particles = emitter.particles
            if not particles.count:
                continue
            key = (emitter.colors, emitter.alpha, emitter.size, zoom)
            shades = self._drawn_shades[key] = (self._drawn_shades.get(key) or self._shades.get(key)
                                                 or _shades(emitter, zoom))
            half = np.array([image.get_width() / 2 for image in shades])
            shade = np.minimum((particles.live("age") / particles.live("life") * SHADES).astype(int), SHADES - 1)
            x = (particles.live("x") - view.x) * zoom - half[shade]
            y = (particles.live("y") - view.y) * zoom - half[shade]
            seen = np.flatnonzero((x > -2 * half[shade] - 1) & (x < width) & (y > -2 * half[shade] - 1) & (y < height))
            surface.blits(list(zip([shades[i] for i in shade[seen].tolist()],
                                   zip(x[seen].astype(int).tolist(), y[seen].astype(int).tolist()))), doreturn=False)
            self.drawn += len(seen)



def _shades(emitter: Emitter, zoom: float) -> list[pygame.Surface]:
    """The SHADES squares a particle of ``emitter`` is drawn as through its life."""
    images = []
    (first, last), (a0, a1), (s0, s1) = emitter.colors, emitter.alpha, emitter.size
    for index in range(SHADES):
        t = (index + 0.5) / SHADES
        side = max(1, round((s0 + (s1 - s0) * t) * zoom))
        image = pygame.Surface((side, side), pygame.SRCALPHA)
        color = [round(c0 + (c1 - c0) * t) for c0, c1 in zip(first, last)]
        image.fill((*color, round(255 * (a0 + (a1 - a0) * t))))
        images.append(image)
    return images

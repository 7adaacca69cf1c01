"""The level's pieces: its components and systems (the scene itself is in scenes.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import esper
import pygame
from pygame import Vector2

from components import Animator, Physics, Sprite, Text, Touching, Transform
from ecs import Actions, Input, PadAxis, PadButton, PadHat, TileMap, World
from examples.adventure.art import Art

if TYPE_CHECKING:
    from examples.adventure.scenes import LevelScene

ZOOM = 2  # screen px per world px: 16 px tiles drawn 32 px
GRAVITY = 900.0  # px/s²
RUN_SPEED = 110.0  # px/s
JUMP_SPEED = 330.0  # px/s: v²/2g = 60 px, almost four tiles
JUMP_CUT = 0.45  # releasing jump early keeps this much of the rise
STOMP_BOUNCE = 240.0  # px/s
INVULNERABLE = 1.5  # s after a hit
LEFT, RIGHT = (pygame.K_LEFT, pygame.K_a), (pygame.K_RIGHT, pygame.K_d)
JUMP = (pygame.K_SPACE, pygame.K_UP, pygame.K_w)


@dataclass(slots=True)
class Hero:
    """The player: where to come back after a fall, and time left unhurtable (s)."""

    respawn: Vector2
    invulnerable: float = 0.0


@dataclass(slots=True)
class Patrol:
    """Go back and forth between ``low`` and ``high`` px along ``axis``,
    turning at walls too, and resting ``rest`` seconds at each end."""

    low: float
    high: float
    axis: int = 0
    rest: float = 0.0
    resting: float = 0.0  # s left of the current rest
    speed: float = 0.0  # px/s to go on with after it


@dataclass(slots=True)
class Slime:
    """An enemy: stomp it from above, touch it otherwise and get hurt."""


@dataclass(slots=True)
class Coin:
    """A coin to collect."""


@dataclass(slots=True)
class Checkpoint:
    """Where the hero comes back after a fall, once touched."""

    reached: bool = False


@dataclass(slots=True)
class Goal:
    """The end of the level."""


@dataclass(slots=True)
class Lifetime:
    """Delete the entity after ``seconds`` (effects: a squashed slime, "+1")."""

    seconds: float


@dataclass(slots=True)
class Progress:
    """The level's state (a resource): coins, lives, time, the outcome."""

    coins: int = 0
    total: int = 0
    lives: int = 3
    time: float = 0.0  # s of play
    won: bool = False
    ending: float | None = None  # s left before the end screen
    hud: dict[str, int] = field(default_factory=dict)  # name -> Text entity


def bind_controls(actions: Actions) -> None:
    """The hero's controls: arrows or A/D, the left stick or the d-pad run; Space, Up, W or the
    pad's first button (A on most pads) jump."""
    actions.bind("left", *LEFT, PadAxis(0, -1), PadHat("left"))
    actions.bind("right", *RIGHT, PadAxis(0, +1), PadHat("right"))
    actions.bind("jump", *JUMP, PadButton(0))


class HeroControl(esper.Processor):
    """Run and jump from the "left", "right" and "jump" actions (``bind_controls``; hold jump to
    rise higher), face the way you run, pick the animation, blink while unhurtable."""

    def __init__(self, world: World, art: Art) -> None:
        self.world, self.art = world, art

    def process(self, dt: float) -> None:
        actions = self.world.resource(Input).actions
        progress = self.world.resource(Progress)
        for _, (hero, physics, touching, sprite, animator) in self.world.get_components(
                Hero, Physics, Touching, Sprite, Animator):
            run = 0.0 if progress.won else actions.axis("left", "right")  # a stick runs slower when half tilted
            physics.velocity.x = run * RUN_SPEED
            if touching.down and actions.just_pressed("jump") and not progress.won:
                physics.velocity.y = -JUMP_SPEED
                self.art.play("jump", 0.6)
            elif physics.velocity.y < 0 and actions.just_released("jump"):
                physics.velocity.y *= JUMP_CUT
            if run:
                sprite.flip_x = run < 0
            if not touching.down:
                animator.play("jump" if physics.velocity.y < 0 else "fall")
            else:
                animator.play("run" if run else "idle")
            hero.invulnerable = max(0.0, hero.invulnerable - dt)
            sprite.visible = hero.invulnerable == 0 or int(hero.invulnerable * 12) % 2 == 0


class PatrolSystem(esper.Processor):
    """Turn patrolling entities around at the ends of their range or at walls."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        for entity, (patrol, transform, physics) in self.world.get_components(Patrol, Transform, Physics):
            if patrol.resting > 0:
                patrol.resting -= dt
                if patrol.resting <= 0:
                    physics.velocity[patrol.axis] = patrol.speed
                continue
            where, speed = transform.position[patrol.axis], physics.velocity[patrol.axis]
            touching = self.world.try_component(entity, Touching)
            blocked = touching is not None and ((speed < 0 and touching.left) or (speed > 0 and touching.right))
            if blocked or (where <= patrol.low and speed < 0) or (where >= patrol.high and speed > 0):
                if patrol.rest > 0:
                    patrol.resting, patrol.speed = patrol.rest, -speed
                    physics.velocity[patrol.axis] = 0.0
                else:
                    physics.velocity[patrol.axis] = -speed
            sprite = self.world.try_component(entity, Sprite)
            if sprite is not None and speed and self.world.has_component(entity, Slime):
                sprite.flip_x = physics.velocity.x < 0


class Rules(esper.Processor):
    """Falls, the clock, effects that expire, and leaving for the end screen."""

    def __init__(self, scene: LevelScene) -> None:
        self.scene, self.world = scene, scene.world

    def process(self, dt: float) -> None:
        progress = self.world.resource(Progress)
        bottom = self.world.resource(TileMap).size.y
        for entity, (lifetime,) in self.world.get_components(Lifetime):
            lifetime.seconds -= dt
            if lifetime.seconds <= 0:
                self.world.delete_entity(entity)
        for entity, (_, transform) in self.world.get_components(Hero, Transform):
            if transform.position.y > bottom:
                self.scene.hurt(entity, fell=True)
        if not progress.won:
            progress.time += dt
        if progress.ending is not None:
            progress.ending -= dt
            if progress.ending <= 0:
                self.scene.finish()


class HudSystem(esper.Processor):
    """Write the coins, lives and time into the HUD's Text entities."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        progress = self.world.resource(Progress)
        texts = {name: self.world.component_for_entity(entity, Text) for name, entity in progress.hud.items()}
        texts["coins"].text = f"{progress.coins}/{progress.total}"
        texts["lives"].text = f"x{progress.lives}"
        minutes, seconds = divmod(progress.time, 60)
        texts["time"].text = f"{int(minutes)}:{seconds:04.1f}"


class HudIcons:
    """A draw system: the coin and heart icons beside the HUD's numbers."""

    def __init__(self, art: Art) -> None:
        self.coin = Art.scaled(art.coin["spin"].frames[0], 2)
        self.heart = Art.scaled(art.heart, 2)

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        surface.blit(self.coin, (14, 13))
        surface.blit(self.heart, (114, 15))

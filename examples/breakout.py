"""Breakout: a paddle, a ball with elasticity 1, bricks and a score.

Shows a perfectly elastic circle bouncing off STATIC walls, bricks and a
paddle (a STATIC collider moved by its velocity), bricks removed by a
collision handler that also adds to the score, and steering: where the ball
meets the paddle sets its new direction, keeping its speed.

Controls: Left/Right or the mouse move the paddle, F1 debug overlay, Esc quits.
Headless runs let the paddle follow the ball.

    python -m examples.breakout
    python -m examples.breakout --headless --frames 300 --screenshot breakout.png
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import esper
import pygame
from pygame import Vector2

from examples.common import Label, parse_args

from components import Collider, ColliderType, Physics, Shape, Sprite, Transform  # noqa: E402
from ecs import Contact, Game, Input, World  # noqa: E402

WIDTH, HEIGHT = 640, 480
PADDLE_SPEED = 480.0  # px/s
BALL_SPEED = 420.0  # px/s
COLORS = [(230, 90, 90), (240, 160, 70), (240, 220, 90), (110, 200, 120), (90, 160, 240)]


@dataclass(slots=True)
class Paddle:
    """Marks the paddle; ``auto`` makes it follow the ball (headless demo)."""

    auto: bool = False


@dataclass(slots=True)
class Ball:
    """Marks the ball."""


class PaddleSystem(esper.Processor):
    """Move the paddle from the keys, the mouse or, in a demo, the ball."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        keys = self.world.resource(Input)
        balls = [t.position.x + 6 for _, (t, _) in self.world.get_components(Transform, Ball)]
        for _, (paddle, transform, physics, collider) in self.world.get_components(
                Paddle, Transform, Physics, Collider):
            centre = transform.position.x + collider.size.x / 2
            if paddle.auto and balls:
                target = balls[0]
            elif keys.mouse_position.x and not (keys.held & {pygame.K_LEFT, pygame.K_RIGHT}):
                target = keys.mouse_position.x
            else:
                target = centre + keys.axis(pygame.K_LEFT, pygame.K_RIGHT) * PADDLE_SPEED * dt * 4
            speed = max(-PADDLE_SPEED, min(PADDLE_SPEED, (target - centre) / dt))
            low, high = 20 - transform.position.x, WIDTH - 20 - collider.size.x - transform.position.x
            physics.velocity.x = max(low / dt, min(high / dt, speed))


def build(world: World, auto: bool) -> dict[str, int]:
    """Walls, bricks, paddle and ball; returns the score box."""
    state = {"score": 0, "lost": 0}
    for x, y, w, h in [(0, 0, WIDTH, 20), (0, 0, 20, HEIGHT), (WIDTH - 20, 0, 20, HEIGHT)]:
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC), Sprite((70, 78, 96)))
    bricks = set()
    for row, color in enumerate(COLORS):
        for col in range(10):
            bricks.add(world.create_entity(
                Transform((30 + col * 58, 60 + row * 24)), Collider((54, 18), type=ColliderType.STATIC),
                Sprite(color)))
    paddle = world.create_entity(Transform((WIDTH / 2 - 45, HEIGHT - 40)),
                                 Collider((90, 12), type=ColliderType.STATIC), Physics(), Paddle(auto),
                                 Sprite((220, 220, 230)))
    ball = world.create_entity(Transform((WIDTH / 2 - 6, HEIGHT - 80)), Collider((12, 12), shape=Shape.CIRCLE),
                               Physics(velocity=Vector2(0.45, -1).normalize() * BALL_SPEED, elasticity=1.0),
                               Ball(), Sprite((255, 255, 255)))

    def hit(contact: Contact) -> None:
        other = contact.b if contact.a == ball else contact.a if contact.b == ball else None
        if other in bricks:
            bricks.discard(other)
            world.delete_entity(other)
            state["score"] += 10
        elif other == paddle:  # steer by where the ball met the paddle
            ball_x = world.component_for_entity(ball, Transform).position.x + 6
            paddle_x = world.component_for_entity(paddle, Transform).position.x + 45
            angle = max(-60.0, min(60.0, (ball_x - paddle_x) / 45 * 60))
            velocity = world.component_for_entity(ball, Physics).velocity
            velocity.update(Vector2(0, -BALL_SPEED).rotate(angle))

    def respawn_if_lost(dt: float) -> None:
        transform = world.component_for_entity(ball, Transform)
        if transform.position.y > HEIGHT:
            state["lost"] += 1
            transform.position.update(WIDTH / 2 - 6, HEIGHT - 80)
            transform.previous_position.update(transform.position)
            angle = 35 if state["lost"] % 2 else -35
            world.component_for_entity(ball, Physics).velocity.update(Vector2(0, -BALL_SPEED).rotate(angle))

    world.on_collision(hit)
    world.add_system(PaddleSystem(world), priority=400)
    world.add_system(_Every(respawn_if_lost), priority=-10)
    return state


class _Every(esper.Processor):
    """Adapts a function of ``dt`` into a system."""

    def __init__(self, function: Callable[[float], None]) -> None:
        self.function = function

    def process(self, dt: float) -> None:
        self.function(dt)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(__doc__, argv)
    world = World()
    game = Game(world, size=(WIDTH, HEIGHT), title="breakout", headless=args.headless)
    state = build(world, auto=args.headless)
    game.add_draw_system(Label(lambda: f"score {state['score']}   missed {state['lost']}", (30, 28)),
                         priority=0)
    game.run(frames=args.frames, screenshot=args.screenshot)
    game.close()


if __name__ == "__main__":
    main()

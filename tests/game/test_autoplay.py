"""Autoplay: a script of key presses by step, refused at construction when malformed."""

from __future__ import annotations

import pygame
import pytest

from ecs import Autoplay, Input, World


@pytest.mark.parametrize("script, named", [
    ([(0, [(pygame.K_a, True)])], "script must be a dict"),
    ({-1: [(pygame.K_a, True)]}, "script steps must be ints >= 0"),
    ({True: [(pygame.K_a, True)]}, "script steps must be ints >= 0"),
    ({0: (pygame.K_a, True)}, "script[0] must be a list"),
    ({3: [("a", True)]}, "script[3] entries must be (key, down) pairs"),
    ({3: [(pygame.K_a, 1)]}, "script[3] entries must be (key, down) pairs"),
    ({3: [(pygame.K_a,)]}, "script[3] entries must be (key, down) pairs"),
])
def test_a_malformed_script_is_refused_naming_the_step(script, named) -> None:
    with pytest.raises(ValueError) as error:
        Autoplay(script)
    assert named in str(error.value)


def test_a_scripted_press_reaches_input_when_the_events_are_handled() -> None:
    # Step 0 posts K_a down and step 2 K_a up; Input sees what pygame's queue holds when handled.
    pygame.init()
    pygame.event.clear()
    world, keys = World(), Input()
    world.add_system(Autoplay({0: [(pygame.K_a, True)], 2: [(pygame.K_a, False)]}), priority=1000)
    held = []
    for _ in range(4):
        world.step(1 / 60)
        for event in pygame.event.get():
            keys.handle(event)
        held.append(keys.is_held(pygame.K_a))
        keys.end_step()
    assert held == [True, True, False, False]

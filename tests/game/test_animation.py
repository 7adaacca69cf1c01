"""Animations: frame timing on the fixed step, looping, playing, sprite sheets."""

import pygame
import pytest

from components import Animation, Animator, Sprite, Transform
from ecs import SpriteSheet, World, load_image
from systems import AnimationSystem
from systems.game.animation import advance

STEP = 1 / 60


def frames(count):
    images = []
    for index in range(count):
        image = pygame.Surface((4, 4))
        image.fill((index * 40, 0, 0))
        images.append(image)
    return images


def shown(world, entity, images, steps):
    """Index of the frame on the sprite after each of ``steps`` steps."""
    out = []
    for _ in range(steps):
        world.step(STEP)
        out.append(images.index(world.component_for_entity(entity, Sprite).image))
    return out


def test_frames_last_their_durations_in_whole_steps_and_loop():
    # Durations 0.1, 0.2, 0.1 s at 60 steps/s are 6, 12 and 6 steps: frame 0
    # shows after steps 1–5 (t < 0.1), frame 1 from step 6 (t = 0.1) to 17,
    # frame 2 from step 18 (t = 0.3) to 23, and frame 0 again at step 24 (t = 0.4).
    images = frames(3)
    world = World()
    world.add_system(AnimationSystem(world))
    entity = world.create_entity(Transform(), Sprite(),
                                 Animator({"walk": Animation(images, (0.1, 0.2, 0.1))}))
    assert shown(world, entity, images, 30) == [0] * 5 + [1] * 12 + [2] * 6 + [0] * 6 + [1]


def test_a_one_shot_animation_stops_on_its_last_frame_and_says_so():
    images = frames(2)
    world = World()
    world.add_system(AnimationSystem(world))
    animator = Animator({"land": Animation(images, 0.05, loop=False)})  # 3 steps each
    entity = world.create_entity(Transform(), Sprite(), animator)
    assert shown(world, entity, images, 8) == [0, 0, 1, 1, 1, 1, 1, 1]
    assert animator.finished and animator.frame == 1


def test_play_switches_from_the_first_frame_and_speed_scales_time():
    run, jump = frames(4), frames(2)
    animator = Animator({"run": Animation(run, 0.1), "jump": Animation(jump, 0.1)})
    assert animator.current == "run"  # the first named
    animator.frame, animator.time = 2, 0.05
    animator.play("run")  # already playing: carries on
    assert (animator.frame, animator.time) == (2, 0.05)
    animator.play("jump")
    assert (animator.current, animator.frame, animator.time) == ("jump", 0, 0.0)
    world = World()
    world.add_system(AnimationSystem(world))
    animator.speed = 2.0  # 0.1 s frames pass in 3 steps
    entity = world.create_entity(Transform(), Sprite(), animator)
    assert shown(world, entity, jump, 6) == [0, 0, 1, 1, 1, 0]
    with pytest.raises(ValueError, match="no animation named 'fly'"):
        animator.play("fly")


def test_advance_skips_whole_loops_of_a_long_step():
    animation = Animation(frames(4), 0.25)  # one loop is 1 s
    # 10.6 s in: 10 whole loops and 0.6 s, which is past two 0.25 s frames.
    assert advance(animation, 0, 0.0, 10.6)[:1] == (2,)
    assert advance(animation, 0, 0.0, 10.6)[1] == pytest.approx(0.1)


@pytest.mark.parametrize("kwargs, field", [
    ({"frames": []}, "frames"),
    ({"frames": frames(2), "durations": (0.1,)}, "durations"),
    ({"frames": frames(1), "durations": 0}, "durations"),
    ({"frames": frames(1), "loop": 1}, "loop"),
])
def test_bad_animations_raise_naming_the_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        Animation(**kwargs)


def test_sprite_sheet_cuts_frames_between_margin_and_spacing(tmp_path):
    # Margin 1, three 4×3 frames 2 px apart: 1 + 4 + 2 + 4 + 2 + 4 + 1 = 18 px
    # wide; two rows: 1 + 3 + 2 + 3 + 1 = 10 px high. Margin and gaps are white.
    sheet_image = pygame.Surface((18, 10))
    sheet_image.fill((255, 255, 255))
    for row in range(2):
        for column in range(3):
            sheet_image.fill((column * 50, row * 50, 9), (1 + column * 6, 1 + row * 5, 4, 3))
    path = tmp_path / "sheet.png"
    pygame.image.save(sheet_image, str(path))
    sheet = SpriteSheet(path, (4, 3), margin=1, spacing=2)
    assert (sheet.columns, sheet.rows, len(sheet)) == (3, 2, 6)
    for index, frame in enumerate(sheet.frames):
        row, column = divmod(index, 3)
        assert frame.get_size() == (4, 3)
        colours = {tuple(frame.get_at((x, y)))[:3] for x in range(4) for y in range(3)}
        assert colours == {(column * 50, row * 50, 9)}  # no white from margin or gaps
    assert sheet.row(1, start=1) == [sheet.frame(1, 1), sheet.frame(2, 1)]
    with pytest.raises(ValueError, match="outside"):
        sheet.frame(3, 0)
    with pytest.raises(ValueError, match="does not fit"):
        SpriteSheet(sheet_image, (20, 3))
    with pytest.raises(FileNotFoundError):
        load_image(tmp_path / "missing.png")

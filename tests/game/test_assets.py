"""The game layer refuses hostile input when it is set, naming the field or
the file, or draws it safely: fonts, text, camera, animation, images, sound."""

import math
import os

import pygame
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pygame import Vector2

from components import Animation, Animator, Collider, ColliderType, Shape, Sprite, Text, Transform, limits
from components.text import printable
from ecs import Audio, Camera, Game, Label, SpriteSheet, World, load_image
from systems import AnimationSystem
from systems.game.text import render_text
from systems.game.camera import visible_parts
from systems.game.debug import Gizmos
from helpers import write_wav

FONT = os.path.join(os.path.dirname(pygame.__file__), "freesansbold.ttf")


def frames(count):
    return [pygame.Surface((4, 4)) for _ in range(count)]


def make_game(size=(200, 100)):
    return Game(World(), size=size, headless=True, background=(0, 0, 0))


def lit(surface, rect):
    """Pixels in ``rect`` that are not the black background."""
    return [(x, y) for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
            if surface.get_at((x, y))[:3] != (0, 0, 0)]


def bad_files(tmp_path, suffix):
    """A text file, random-looking bytes, an empty file and a directory, all named like ``suffix`` files."""
    (tmp_path / f"words{suffix}").write_text("this is not what the name says")
    (tmp_path / f"noise{suffix}").write_bytes(bytes(range(256)) * 3)
    (tmp_path / f"empty{suffix}").write_bytes(b"")
    (tmp_path / f"folder{suffix}").mkdir()
    return {name: str(tmp_path / f"{name}{suffix}") for name in ("words", "noise", "empty", "folder")}


# Fonts -------------------------------------------------------------------------------------------

def test_a_missing_font_or_a_directory_is_refused_when_set_naming_the_file(tmp_path):
    missing, folder = str(tmp_path / "gone.ttf"), bad_files(tmp_path, ".ttf")["folder"]
    for path in (missing, folder):
        with pytest.raises(FileNotFoundError, match="font.*" + path.replace("\\", "\\\\")):
            Text("hi", font=path)
        with pytest.raises(FileNotFoundError, match="gone.ttf|folder.ttf"):
            Label("hi", (0, 0), font=path)
    text = Text("hi")
    with pytest.raises(FileNotFoundError, match="gone.ttf"):
        text.font = missing
    assert text.font is None  # the refused value was not kept
    text.font = FONT  # a real font file loads, and draws
    game = make_game()
    game.world.create_entity(Transform((10, 10)), Text("Ag", size=30, font=FONT, screen=True))
    game.frame(0.0)
    assert lit(game.screen, pygame.Rect(10, 10, 40, 30))
    game.close()


@pytest.mark.parametrize("kind", ["words", "noise", "empty", "truncated"])
def test_a_file_that_is_not_a_font_is_refused_naming_it(tmp_path, kind):
    # pygame gives a Font for a file SDL_ttf cannot parse and crashes the
    # process when such a Font is asked its line height: it must never be kept.
    files = bad_files(tmp_path, ".ttf")
    files["truncated"] = str(tmp_path / "truncated.ttf")
    with open(FONT, "rb") as source:
        (tmp_path / "truncated.ttf").write_bytes(source.read(2000))
    path = files[kind]
    with pytest.raises(ValueError, match=f"font: '{path}' is not a font"):
        Text("hi", font=path)
    label = Label("hi", (0, 0))
    with pytest.raises(ValueError, match=path):
        label.font = path
    assert label.font is None


# Text content ------------------------------------------------------------------------------------

def test_nul_and_lone_surrogates_print_as_the_replacement_character():
    # A UTF-16 surrogate pair (D83D DE00) is U+1F600; either half alone is
    # no character and becomes U+FFFD, as does NUL, which pygame refuses.
    assert printable("a\x00b") == "a\ufffdb"
    assert printable("x\ud800y\udc00") == "x\ufffdy\ufffd"
    assert printable("\ud83d\ude00") == "\U0001F600"
    assert printable("plain ascii") == "plain ascii"


@pytest.mark.parametrize("words", ["a\x00b", "a\ud800b", "\udfff", "\ud83d\ude00 ok", "ok\n\u200b", "ok\n\xad"])
def test_odd_characters_are_drawn_without_raising(words):
    game = make_game()
    game.world.create_entity(Transform((10, 10)), Text(words, size=20, screen=True))
    game.add_draw_system(Label(words, (10, 60)))
    game.frame(0.0)  # pygame raised ValueError on NUL and UnicodeEncodeError on a lone surrogate
    assert lit(game.screen, pygame.Rect(10, 10, 190, 25))
    assert lit(game.screen, pygame.Rect(10, 60, 190, 25))
    game.close()


@pytest.mark.parametrize("size", [0, -3, 10**6, limits.MAX_FONT_SIZE + 1, 20.5, True, "20"])
def test_a_font_size_outside_1_to_1000_is_refused_naming_size(size):
    with pytest.raises(ValueError, match="size"):
        Text("hi", size=size)
    with pytest.raises(ValueError, match="size"):
        Label("hi", (0, 0), size=size)
    text = Text("hi")
    with pytest.raises(ValueError, match="size"):
        text.size = size
    assert text.size == 20


def test_a_megabyte_of_text_is_refused_naming_text_and_the_limit():
    megabyte = "x" * (1 << 20)
    for make in (lambda: Text(megabyte), lambda: Label(megabyte, (0, 0))):
        with pytest.raises(ValueError, match="text must be at most 10,000 characters"):
            make()
    score = Text("0")
    with pytest.raises(ValueError, match="text"):
        score.text = megabyte
    assert score.text == "0"
    Text("x" * limits.MAX_TEXT_LENGTH)  # the limit itself is allowed


def test_a_text_whose_image_would_be_too_large_is_refused_naming_the_field_set():
    # 10,000 'W's at 1,000 px: each 'W' is far wider than 2 px, so the image is
    # wider than 2**24 / 687 ≈ 24,000 px, over the 2**24 px limit.
    with pytest.raises(ValueError, match="text would render .* more than 16,777,216 px"):
        Text("W" * limits.MAX_TEXT_LENGTH, size=limits.MAX_FONT_SIZE)
    wide = Text("W" * limits.MAX_TEXT_LENGTH, size=10)
    with pytest.raises(ValueError, match="size would render"):
        wide.size = limits.MAX_FONT_SIZE
    assert wide.size == 10


def test_a_labels_callable_may_return_anything_long_and_is_drawn_cut_to_the_limits():
    game = make_game()
    label = Label(lambda: "W" * (1 << 20), (0, 0), size=200)
    game.add_draw_system(label)
    game.frame(0.0)
    image = label._cache[1]
    assert image.get_width() * image.get_height() <= limits.MAX_TEXT_PIXELS
    assert lit(game.screen, pygame.Rect(0, 0, 200, 100))
    label.text = lambda: 42
    with pytest.raises(ValueError, match="Label text"):
        game.frame(0.0)
    game.close()


# Any code point, surrogates included, and the ones that broke pygame often.
ANY_CHARACTER = st.one_of(st.characters(blacklist_categories=()), st.sampled_from("\x00\ud800\udfff\n"))


@given(words=st.text(alphabet=ANY_CHARACTER, max_size=60), size=st.integers(-2, 1100))
@example(words="a\x00b", size=20)
@example(words="\ud800", size=20)
@example(words="x", size=10**6)
@example(words="\u200b", size=20)  # a zero-width space: pygame raised "Text has zero width"
def test_any_string_is_drawn_or_refused_with_value_error(words, size):
    try:
        text = Text(words, size=size, shadow=(0, 0, 0))
    except ValueError as error:  # a size out of range, or 60 wide glyphs at a large size
        assert (("size must be" in str(error) and not 1 <= size <= limits.MAX_FONT_SIZE)
                or "text would render" in str(error))
        return
    image = render_text(text.text, text.font, text.size, text.color, text.shadow)
    # One px of shadow each way on top of the limit.
    assert (image.get_width() - 1) * (image.get_height() - 1) <= limits.MAX_TEXT_PIXELS


@given(words=st.text(alphabet=ANY_CHARACTER, max_size=20000), size=st.integers(1, 1000))
def test_any_string_a_label_is_handed_each_frame_is_drawn(words, size):
    image = render_text(words, None, size, (255, 255, 255))
    assert image.get_width() * image.get_height() <= limits.MAX_TEXT_PIXELS


@pytest.mark.parametrize("field, value", [("color", (0, 0)), ("color", (0, 0, 256)), ("shadow", "black"),
                                          ("anchor", "middle"), ("layer", 1.0), ("visible", 1), ("screen", None),
                                          ("text", None), ("font", 3)])
def test_every_text_field_is_checked_when_assigned_too(field, value):
    text = Text("hi")
    before = getattr(text, field)
    with pytest.raises(ValueError, match=field):
        setattr(text, field, value)
    assert getattr(text, field) == before


@pytest.mark.parametrize("field, value", [("position", (math.nan, 0)), ("position", (2.0**40, 0)),
                                          ("position", "top"), ("color", (1, 2)), ("text", b"bytes")])
def test_label_fields_are_checked_when_set(field, value):
    with pytest.raises(ValueError, match=field):
        Label(**{"text": "hi", "position": (0, 0), field: value})
    label = Label("hi", (0, 0))
    with pytest.raises(ValueError, match=field):
        setattr(label, field, value)


# Drawing at any zoom and anywhere ----------------------------------------------------------------

def test_a_zoomed_text_larger_than_the_screen_is_cut_before_it_is_scaled(monkeypatch):
    # "W" * 200 at 100 px is about 15,000 × 100 px; at zoom 64 that is
    # 960,000 × 6,400 screen px (24 GB), of which 200 × 100 show.
    scaled = []
    scale = pygame.transform.scale

    def recording_scale(surface, size, *rest):
        scaled.append(tuple(size))
        assert size[0] * size[1] <= 4 * 200 * 100, f"scaling to {size}: more than the screen"
        return scale(surface, size, *rest)

    monkeypatch.setattr(pygame.transform, "scale", recording_scale)
    image = render_text("W" * 200, None, 100, (255, 255, 255))
    ink = next((x, y) for y in range(image.get_height()) for x in range(image.get_width())
               if image.get_at((x, y)).a == 255)
    game = make_game()
    game.camera.zoom = limits.MAX_ZOOM
    game.world.create_entity(Transform((0, 0)), Text("W" * 200, size=100))
    # Image px (x, y) covers world [x, x + 1) × [y, y + 1) with the text's
    # top-left at the origin: centred on it, it fills the screen's middle.
    game.camera.center_on((ink[0] + 0.5, ink[1] + 0.5))
    game.frame(0.0)
    assert scaled and game.screen.get_at((100, 50))[:3] == (255, 255, 255)
    game.close()
    for zoom, where in ((3, (-7, -5)), (2, (40, 20)), (1, (-30, 90))):
        cut_text_draws_the_same_pixels_as_scaled_whole(zoom, where)


def cut_text_draws_the_same_pixels_as_scaled_whole(zoom, where):
    # With a whole zoom k each image px becomes a k×k block wherever the cut
    # falls, so the cut drawing equals the whole image scaled by k and blitted
    # at its place (world (x, y) → screen (k·x, k·y) with the view at 0, 0).
    game = make_game()
    game.camera.zoom = zoom
    game.world.create_entity(Transform(where), Text("Hello, world", size=24))
    game.frame(0.0)
    image = render_text("Hello, world", None, 24, (255, 255, 255))
    expected = pygame.Surface((200, 100))
    expected.fill((0, 0, 0))
    expected.blit(pygame.transform.scale(image, (image.get_width() * zoom, image.get_height() * zoom)),
                  (where[0] * zoom, where[1] * zoom))
    assert pygame.image.tobytes(game.screen, "RGB") == pygame.image.tobytes(expected, "RGB")
    game.close()


def test_visible_parts_map_screen_px_back_to_image_px():
    # A 10×4 image stretched ×3 over x −6..24, y 2..14; the clip 0..12 × 0..8
    # shows image columns 2..6 (screen 0..12) and rows 0..2 (screen 2..8).
    [(source, dest)] = visible_parts((10, 4), (-6, 2, 30, 12), pygame.Rect(0, 0, 12, 8))
    assert (tuple(source), tuple(dest)) == ((2, 0, 4, 2), (0, 2, 12, 6))
    assert visible_parts((10, 4), (300, 2, 30, 12), pygame.Rect(0, 0, 12, 8)) == []
    # A 4 px wide image over 4,000 px from x −1,990: each image px is 1,000
    # px wide, wider than the 100 px clip, whose px 0..100 lie in image px 1
    # (screen −990..10) and 2 (10..1,010): one part each, cut to the clip.
    parts = visible_parts((4, 1), (-1990, 0, 4000, 1), pygame.Rect(0, 0, 100, 1))
    assert [(tuple(s), tuple(d)) for s, d in parts] == [((1, 0, 1, 1), (0, 0, 10, 1)),
                                                         ((2, 0, 1, 1), (10, 0, 90, 1))]


def test_a_collider_2_to_the_32_px_away_is_not_drawn_on_screen_by_the_overlay():
    # pygame.Rect keeps 32-bit ints: x = 2**32 + 50 wrapped round to 50, on
    # screen. Clamped to 2**30 it stays off the right of the screen.
    game = make_game()
    game.world.create_entity(Transform((2**32 + 50, 10)), Collider((10, 10), type=ColliderType.STATIC))
    game.debug.visible = True
    game.frame(0.0)
    assert not lit(game.screen, pygame.Rect(40, 0, 30, 30))
    camera = game.camera
    assert camera.screen_rect(2**32 + 50, 10, 10, 10).left == 2**30
    assert camera.screen_rect(-1e12, 0, 2e12, 10).left == -(2**30)
    game.close()


def test_the_overlay_draws_huge_colliders_at_the_cost_of_the_screen(monkeypatch):
    # pygame draws an ellipse, or fills a polygon, over every row of its
    # height: a 10**7 px circle's outline took 40 s a frame. Those must reach
    # pygame no larger than LARGE_SHAPE px or cut to the screen; a polygon's
    # outline is lines, which pygame clips.
    from systems.game.camera import LARGE_SHAPE

    def bounded(draw, outlines_too):
        def check(surface, color, shape, width=0):
            if width == 0 or outlines_too:
                xs, ys = (((shape.left, shape.right), (shape.top, shape.bottom)) if isinstance(shape, pygame.Rect)
                          else ([point[axis] for point in shape] for axis in (0, 1)))
                assert max(xs) - min(xs) <= LARGE_SHAPE and max(ys) - min(ys) <= LARGE_SHAPE
            return draw(surface, color, shape, width)
        return check

    monkeypatch.setattr(pygame.draw, "ellipse", bounded(pygame.draw.ellipse, True))
    monkeypatch.setattr(pygame.draw, "polygon", bounded(pygame.draw.polygon, False))
    game = make_game(size=(600, 300))  # the panel covers the top right; look left and below it
    # A circle 10**7 px across whose top is at (100, 200), a ramp whose
    # hypotenuse crosses the screen, and a box around everything.
    game.world.create_entity(Transform((100 - 5e6, 200)), Collider((1e7, 1e7), type=ColliderType.STATIC,
                                                                   shape=Shape.CIRCLE))
    game.world.create_entity(Transform((-5e6 + 150, -5e6 + 250)),
                             Collider((1e7, 1e7), type=ColliderType.STATIC, shape=Shape.TRIANGLE_TOP_LEFT))
    game.world.create_entity(Transform((-1e7, -1e7)), Collider((2e7, 2e7), type=ColliderType.STATIC))
    game.debug.visible = True
    game.frame(0.0)
    static = (120, 140, 170)
    assert any(game.screen.get_at((100, y))[:3] == static for y in range(199, 202))  # the circle's top
    # The ramp's hypotenuse runs from its top-right corner (150 + 5e6, 250 − 5e6)
    # to its bottom-left (150 − 5e6, 250 + 5e6): through (150, 250), slope −1.
    assert any(game.screen.get_at((150 + d, 250 - d))[:3] == static for d in (-1, 0, 1))
    game.close()


def test_gizmo_lines_are_checked_when_drawn_not_when_the_frame_is():
    gizmos = Gizmos()
    for args, field in ((((math.nan, 0), (1, 1)), "start"), (((0, 0), (math.inf, 1)), "end"),
                        (((0, 0), (1, 1), (300, 0, 0)), "color"), (((0, 0), (1, 1), "red"), "color")):
        with pytest.raises(ValueError, match=field):
            gizmos.line(*args)
    assert gizmos.lines == []


# Camera --------------------------------------------------------------------------------------------

CAMERA_CASES = [
    ("smoothing", -0.1), ("smoothing", math.nan), ("smoothing", "slow"),
    ("zoom", 1000), ("zoom", 64.001), ("zoom", 1 / 100), ("zoom", 1 / 64.001),
    ("dead_zone", (-5, 0)), ("dead_zone", (math.nan, 0)), ("dead_zone", 4),
    ("size", (0, -1)), ("size", (1e6, 10)), ("size", (math.inf, 10)),
    ("position", (1e300, 0)), ("position", (math.nan, 0)),
    ("bounds", (0, 0, 1e308, 1)), ("bounds", (-1e300, 0, 5, 5)), ("bounds", 7), ("target", -1), ("target", 1.5), ("target", True), ("target", "player"),
]


@pytest.mark.parametrize("field, value", CAMERA_CASES)
def test_a_hostile_camera_value_is_refused_naming_the_field(field, value):
    with pytest.raises(ValueError, match=field):
        Camera(**{field: value})
    camera = Camera((200, 100), dead_zone=(10, 10), smoothing=0.1, bounds=(0, 0, 500, 500), target=3)
    before = getattr(camera, field)
    with pytest.raises(ValueError, match=field):
        setattr(camera, field, value)
    assert getattr(camera, field) == before


def test_a_shake_seed_that_is_not_an_int_is_refused():
    for seed in ([1, 2], 1.5, None):  # a list made random.Random raise TypeError; 1.5 and None were taken
        with pytest.raises(ValueError, match="seed"):
            Camera(seed=seed)


def test_zoom_beyond_its_range_is_refused_and_its_ends_are_allowed():
    for zoom in (limits.MIN_ZOOM / 1.001, limits.MAX_ZOOM * 1.001):
        with pytest.raises(ValueError, match="zoom must be in"):
            Camera(zoom=zoom)
    camera = Camera((640, 480), zoom=limits.MIN_ZOOM)
    assert camera.view_size == Vector2(640 * 64, 480 * 64)
    camera.zoom = limits.MAX_ZOOM
    assert camera.view_size == Vector2(10, 7.5)


def test_a_shake_stronger_than_ten_thousand_px_is_refused():
    camera = Camera()
    for amplitude in (1e308, 1e12, -1, math.nan):
        with pytest.raises(ValueError, match="amplitude"):
            camera.shake(amplitude, 1.0)
    camera.shake(limits.MAX_SHAKE, 1.0)


def test_a_camera_vector_broken_in_place_is_caught_at_the_next_step_and_frame():
    game = make_game()
    player = game.world.create_entity(Transform((40, 30)), Collider((10, 10)))
    game.camera.target = player
    game.camera.dead_zone.update(math.nan, 0)
    with pytest.raises(ValueError, match="dead_zone"):
        game.world.step(1 / 60)
    game.camera.dead_zone.update(0, 0)
    game.camera.position.update(math.inf, 0)
    with pytest.raises(ValueError, match="position"):
        game.camera.interpolate(1.0)
    game.close()


def test_center_on_a_point_that_is_not_finite_is_refused():
    camera = Camera()
    with pytest.raises(ValueError, match="point"):
        camera.center_on((math.nan, 0))
    assert camera.position == Vector2(0, 0)


# Animation -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, field", [
    ({"durations": 1e308}, "durations"),
    ({"durations": 1e6 * 1.001}, "durations"),
    ({"durations": (0.1, 1e7)}, r"durations\[1\]"),
    ({"durations": None}, "durations"),
    ({"frames": pygame.Surface((4, 4))}, "frames"),
    ({"frames": 5}, "frames"),
])
def test_a_hostile_animation_is_refused_naming_the_field(kwargs, field):
    arguments = {"frames": frames(2), **kwargs}
    with pytest.raises(ValueError, match=field):
        Animation(**arguments)


def test_frames_of_a_million_seconds_play_and_1e308_does_not_overflow():
    # Two 1e308 s frames made fsum overflow at the first step; the limit is
    # 1e6 s a frame, and two such frames loop in 2e6 s, far from overflow.
    with pytest.raises(ValueError, match="durations"):
        Animation(frames(2), 1e308)
    world = World()
    world.add_system(AnimationSystem(world))
    animator = Animator({"hold": Animation(frames(2), limits.MAX_FRAME_DURATION)},
                        speed=limits.MAX_PLAYBACK_SPEED)
    world.create_entity(Transform(), Sprite(), animator)
    for _ in range(3):
        world.step(1.0)  # 3 steps of 1 s at speed 1,000: 3,000 s into a 1e6 s frame
    assert (animator.frame, animator.time) == (0, pytest.approx(3000.0))


def test_an_animation_assigned_later_is_checked_too():
    clip = Animation(frames(2), 0.1)
    with pytest.raises(ValueError, match="durations"):
        clip.durations = 1e308
    with pytest.raises(ValueError, match="frames: durations must give one duration per frame"):
        Animation(frames(2), (0.1, 0.2)).frames = frames(3)
    assert clip.durations == 0.1 and clip.length == pytest.approx(0.2)


@pytest.mark.parametrize("field, value", [
    ("frame", 5), ("frame", -1), ("frame", 1.5), ("current", "fly"), ("current", 3),
    ("time", math.nan), ("time", -1.0), ("time", 1e308), ("speed", -1), ("speed", math.inf),
    ("speed", 1e308), ("finished", "yes"), ("animations", {}), ("animations", {"run": 3}),
    ("animations", {"other": Animation(frames(1))}),
])
def test_a_hostile_animator_value_is_refused_naming_the_field(field, value):
    # (A dict without "run" is refused only for an Animator playing "run".)
    animator = Animator({"run": Animation(frames(2), 0.1), "jump": Animation(frames(1), 0.1)})
    before = getattr(animator, field)
    with pytest.raises(ValueError, match=field):
        setattr(animator, field, value)
    assert getattr(animator, field) == before
    if field != "animations":
        with pytest.raises(ValueError, match=field):
            Animator(**{"animations": {"run": Animation(frames(2), 0.1)}, field: value})
    else:  # made with them, the first field they contradict is named
        with pytest.raises(ValueError, match="animations|current must name one of"):
            Animator(value, current="run")


def test_switching_current_past_the_new_clips_frames_is_refused_but_play_switches():
    animator = Animator({"run": Animation(frames(4), 0.1), "jump": Animation(frames(1), 0.1)})
    animator.frame = 3
    with pytest.raises(ValueError, match="frame 3 is past the last frame of 'jump'"):
        animator.current = "jump"
    animator.play("jump")
    assert (animator.current, animator.frame) == ("jump", 0)
    animator.current = ""  # empty picks the first
    assert animator.current == "run"


def test_animations_changed_in_place_are_caught_at_the_next_step_naming_the_entity():
    world = World()
    world.add_system(AnimationSystem(world))
    clips = {"run": Animation(frames(2), 0.1)}
    entity = world.create_entity(Transform(), Sprite(), Animator(clips))
    del clips["run"]
    clips["walk"] = Animation(frames(1), 0.1)
    with pytest.raises(ValueError, match=f"entity {entity}: Animator plays 'run'"):
        world.step(1 / 60)


# Images and sprite sheets ------------------------------------------------------------------------

def test_an_image_that_cannot_be_read_is_refused_naming_its_path(tmp_path):
    files = bad_files(tmp_path, ".png")
    good = tmp_path / "good.png"
    pygame.image.save(pygame.Surface((8, 8)), str(good))
    files["truncated"] = str(tmp_path / "truncated.png")
    (tmp_path / "truncated.png").write_bytes(good.read_bytes()[:40])
    for kind, path in files.items():
        error = FileNotFoundError if kind == "folder" else ValueError
        with pytest.raises(error, match=path):
            load_image(path)
        with pytest.raises(error, match=path):
            SpriteSheet(path, (4, 4))
    with pytest.raises(FileNotFoundError, match="missing.png"):
        load_image(tmp_path / "missing.png")
    with pytest.raises(ValueError, match="path"):
        load_image(None)


@pytest.mark.parametrize("kwargs, field", [
    ({"frame_size": (True, 4)}, r"frame_size\[0\]"), ({"frame_size": (4,)}, "frame_size"),
    ({"frame_size": 4}, "frame_size"), ({"frame_size": ("a", 4)}, r"frame_size\[0\]"),
    ({"frame_size": (4, 0)}, r"frame_size\[1\]"), ({"margin": -1}, "margin"), ({"margin": 1.5}, "margin"),
    ({"spacing": True}, "spacing"), ({"frame_size": (40, 4)}, r"frame_size \(40, 4\) with margin 0 does not fit"),
])
def test_a_bad_sprite_sheet_layout_is_refused_naming_the_field_and_the_file(tmp_path, kwargs, field):
    path = tmp_path / "sheet.png"
    pygame.image.save(pygame.Surface((16, 8)), str(path))
    arguments = {"frame_size": (4, 4), **kwargs}
    with pytest.raises(ValueError, match=f"sprite sheet '{path}': {field}"):
        SpriteSheet(path, **arguments)


def test_picking_frames_with_non_int_indices_is_refused():
    sheet = SpriteSheet(pygame.Surface((16, 8)), (4, 4))
    for call, field in ((lambda: sheet.frame(1.5), "column"), (lambda: sheet.frame(0, "0"), "row"),
                        (lambda: sheet.row(0, count=-1), "count"), (lambda: sheet.row(0, start=0.5), "start")):
        with pytest.raises(ValueError, match=field):
            call()


# Sound -------------------------------------------------------------------------------------------

def unreadable_sounds(tmp_path):
    files = bad_files(tmp_path, ".wav")
    del files["folder"]
    good = write_wav(tmp_path / "good.wav")
    files["header only"] = str(tmp_path / "cut.wav")  # RIFF header, cut before the data chunk
    (tmp_path / "cut.wav").write_bytes(good.read_bytes()[:30])
    return files


def test_a_sound_file_that_cannot_be_read_is_refused_naming_it_silent_or_not(tmp_path):
    pygame.mixer.quit()  # another test's Audio may have left it open
    driver = os.environ.get("SDL_AUDIODRIVER")
    for enabled in (False, True):
        folder = tmp_path / f"enabled-{enabled}"
        folder.mkdir()
        refuses_unreadable_sounds(folder, Audio(enabled=enabled))
        # The silent check opens the mixer only for the check, on SDL's dummy driver.
        assert enabled or (not pygame.mixer.get_init() and os.environ.get("SDL_AUDIODRIVER") == driver)


def refuses_unreadable_sounds(tmp_path, audio):
    for path in unreadable_sounds(tmp_path).values():
        with pytest.raises(ValueError, match=path):
            audio.load("bad", path)
        with pytest.raises(ValueError, match=path):
            audio.play_music(path)
    assert "bad" not in audio.sounds
    with pytest.raises(FileNotFoundError, match="folder.wav"):
        audio.load("dir", tmp_path / "folder.wav")  # made by unreadable_sounds
    audio.load("good", tmp_path / "good.wav")
    assert (audio.play("good") is None) == (not audio.enabled)
    audio.close()


@pytest.mark.parametrize("call, field", [
    (lambda: Audio(enabled=1), "enabled"), (lambda: Audio(frequency=-1), "frequency"),
    (lambda: Audio(buffer=0), "buffer"), (lambda: Audio(frequency=44100.0), "frequency"),
    (lambda: Audio(enabled=False).set_volume(3, 0.5), "channel"),
    (lambda: Audio(enabled=False).load(None, "x.wav"), "name"),
    (lambda: Audio(enabled=False).load("x", 5), "path"),
])
def test_audio_arguments_are_checked_naming_them(call, field):
    with pytest.raises(ValueError, match=field):
        call()


@pytest.mark.parametrize("loops", ["x", -2, 1.5, True])
def test_music_loops_must_be_an_int_from_minus_one(tmp_path, loops):
    coin = write_wav(tmp_path / "coin.wav")
    with pytest.raises(ValueError, match="loops"):
        Audio(enabled=False).play_music(coin, loops=loops)


def test_a_zoomed_or_stretched_image_sprite_is_cut_to_the_screen_before_it_is_scaled(monkeypatch):
    # A 512 px tile chunk at zoom 64 is 32,768 px square (4 GB); a 64 px
    # image stretched to a 10**6 px Sprite.size likewise: 200 × 100 show.
    scale = pygame.transform.scale

    def bounded_scale(surface, size, *rest):
        assert size[0] * size[1] <= 9 * 200 * 100, f"scaling to {size}: more than three screens each way"
        return scale(surface, size, *rest)

    monkeypatch.setattr(pygame.transform, "scale", bounded_scale)
    chunk = pygame.Surface((512, 512))
    chunk.fill((255, 0, 0))
    chunk.fill((0, 0, 255), (256, 0, 256, 512))  # right half blue
    game = make_game()
    game.camera.zoom = limits.MAX_ZOOM
    game.world.create_entity(Transform((0, 0)), Sprite(image=chunk, flip_x=True))
    # Mirrored, the blue half is on the left: world x 255.5 is blue, 256.5 red.
    for x, colour in ((255.5, (0, 0, 255)), (256.5, (255, 0, 0))):
        game.camera.center_on((x, 100.5))
        game.frame(0.0)
        assert game.screen.get_at((100, 50))[:3] == colour
    # 64 px stretched over 10**6 px from −500,000: each image px is 15,625
    # px, and the screen (world 0..200 at zoom 1) lies in image px 32.
    image = pygame.Surface((64, 64))
    image.fill((0, 255, 0), (32, 32, 1, 1))
    game.camera.zoom = 1
    game.camera.center_on((100, 50))
    game.world.create_entity(Transform((-5e5, -5e5)), Sprite(image=image, size=(1e6, 1e6), layer=1))
    game.frame(0.0)
    assert game.screen.get_at((0, 0))[:3] == game.screen.get_at((199, 99))[:3] == (0, 255, 0)
    game.close()


def test_a_sprite_of_a_huge_collider_is_filled_at_the_cost_of_the_screen(monkeypatch):
    # A filled polygon 2**31 px high took pygame a minute: a sprite on a
    # 10**7 px ramp must reach pygame cut to the screen.
    from systems.game.camera import LARGE_SHAPE
    polygon = pygame.draw.polygon

    def bounded(surface, color, points, width=0):
        for axis in (0, 1):
            assert width or max(p[axis] for p in points) - min(p[axis] for p in points) <= LARGE_SHAPE
        return polygon(surface, color, points, width)

    monkeypatch.setattr(pygame.draw, "polygon", bounded)
    game = make_game()
    # Hypotenuse from (100 + 5e6, 50 − 5e6) to (100 − 5e6, 50 + 5e6): through
    # (100, 50), slope −1; the TOP_LEFT half lies above-left of it.
    game.world.create_entity(Transform((100 - 5e6, 50 - 5e6)), Sprite((255, 0, 0)),
                             Collider((1e7, 1e7), type=ColliderType.STATIC, shape=Shape.TRIANGLE_TOP_LEFT))
    game.frame(0.0)
    assert game.screen.get_at((90, 50))[:3] == (255, 0, 0) and game.screen.get_at((110, 50))[:3] == (0, 0, 0)
    game.close()

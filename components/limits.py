"""The ranges every value must lie in, so that no accepted scene can overflow.

Components, the World and ``World.step`` reject values outside these ranges
with a ``ValueError`` naming the field; Movement keeps every speed within
``MAX_SPEED``. With them, a step's arithmetic stays far from float overflow
(about 1.8e308) whatever the scene: the largest product the pipeline forms is
a speed times a step times the impacts a body may take in one step, and the
largest sum a coordinate plus a size.
"""

from __future__ import annotations

__all__ = [
    "MAX_ACCELERATION",
    "MAX_COORDINATE",
    "MAX_DAMPING",
    "MAX_ELASTICITY",
    "MAX_FONT_SIZE",
    "MAX_FRAME_DURATION",
    "MAX_GRAVITY_SCALE",
    "MAX_MASS",
    "MAX_PARALLAX",
    "MAX_PARTICLES",
    "MAX_PLAYBACK_SPEED",
    "MAX_SCREEN_COORDINATE",
    "MAX_SHAKE",
    "MAX_SIZE",
    "MAX_SPEED",
    "MAX_SPRITE_SCALE",
    "MAX_STEP",
    "MAX_TEXT_LENGTH",
    "MAX_TEXT_PIXELS",
    "MAX_VIEWPORT",
    "MAX_ZOOM",
    "MIN_MASS",
    "MIN_ZOOM",
]

#: px. Positions and offsets are set within ±1e12 px: beyond that a float
#: no longer resolves a thousandth of a pixel. (Physics may carry a body
#: further; it stays finite.)
MAX_COORDINATE = 1e12

#: px. A collider's width and height lie in (0, 1e12]: a collider needs an
#: area (a point or a line cannot overlap anything, so the discrete pipeline
#: would let it through the floor); use a 1×1 px box for a point.
MAX_SIZE = 1e12

#: px/s. No body moves faster (each component of a velocity is set within
#: ±1e9 px/s, and Movement caps the speed at 1e9 px/s every step).
MAX_SPEED = 1e9

#: px/s². Each component of the World's gravity lies within ±1e9 px/s².
MAX_ACCELERATION = 1e9

#: Multiplier of gravity per body, within ±1e3.
MAX_GRAVITY_SCALE = 1e3

#: 1/s. A body's linear damping lies in [0, 1e6]: at 1e6 a step of 1/60 s keeps 1/16,668 of
#: the speed, so more would only stop it sooner.
MAX_DAMPING = 1e6

#: Masses lie in [1e-6, 1e6] (any unit: only ratios between bodies matter,
#: and 1e12 to 1 is more than any game needs).
MIN_MASS = 1e-6
MAX_MASS = 1e6

#: Elasticity lies in [0, 10]: 1 is a perfect bounce, above 1 adds energy.
MAX_ELASTICITY = 10.0

#: s. ``World.step(dt)`` takes 0 <= dt <= 1 s.
MAX_STEP = 1.0

# The game layer: text, camera and animation. Within these a frame's images
# stay a bounded size and its times finite, whatever a game asks for.

#: px. A font is 1 to 1,000 px high: pygame's font loader fails outright
#: near 10**6, and one 1,000 px glyph is already taller than most screens.
MAX_FONT_SIZE = 1000

#: Characters in one text (a Text or a Label): a megabyte of text would
#: render to an image millions of px wide; 10,000 is a page.
MAX_TEXT_LENGTH = 10_000

#: px. A text's rendered image (width × height, before any zoom) covers at
#: most 2**24 px, 64 MB at 4 bytes a pixel (e.g. 4,096 × 4,096).
MAX_TEXT_PIXELS = 1 << 24

#: Camera zoom lies in [1/64, 64]. At 1/64 a 1,920 px window shows 122,880
#: world px (most levels whole, each sprite a pixel or two); at 64 a world
#: px is a 64×64 block of screen px. Beyond either a game shows nothing
#: useful, and the images scaled for a frame grow with the zoom.
MIN_ZOOM = 1 / 64
MAX_ZOOM = 64.0

#: Screen px. A camera's viewport is 0 to 65,536 px each way: any window,
#: or a surface a level is drawn onto whole.
MAX_VIEWPORT = 65536.0

#: Screen px. A camera shake moves the view by at most 10,000 screen px:
#: further, nothing of the scene is on screen anyway.
MAX_SHAKE = 1e4

#: Screen px. Screen coordinates handed to pygame are clamped to ±2**30:
#: pygame.Rect keeps 32-bit ints and wraps larger ones round (a body at
#: x = 1e12 would be drawn on screen), and a rectangle between the clamped
#: edges is still wholly off screen or covering it.
MAX_SCREEN_COORDINATE = 1 << 30

#: s. An animation frame shows for at most 1e6 s (11.6 days; for "forever"
#: stop on the last frame with ``loop=False``), an Animator's time within
#: a frame likewise; with MAX_PLAYBACK_SPEED and MAX_STEP the time the
#: AnimationSystem adds in a step stays far from overflow.
MAX_FRAME_DURATION = 1e6

#: An Animator plays at a speed in [0, 1,000].
MAX_PLAYBACK_SPEED = 1e3

#: A Sprite is drawn at most 1,000 times its size (its box, not the image,
#: bounds the work: only what lands on screen is drawn).
MAX_SPRITE_SCALE = 1e3

#: Parallax scroll factors are in [0, 100]: 0 fixed to the screen, 1 the
#: world, above 1 in front of it (foreground leaves).
MAX_PARALLAX = 100.0

#: An Emitter keeps at most a million live particles (48 MB of arrays).
MAX_PARTICLES = 1_000_000

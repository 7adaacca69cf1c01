"""Make every asset of the adventure example: tiles, sprite sheets, sounds, the level.

Everything in ``examples/adventure/assets/`` comes from this script: the
pictures are drawn with pygame, the sounds synthesised sample by sample and
written with the ``wave`` module, and the level is laid out below as text and
written as a Tiled map (``level.tmx`` with the external tileset
``tileset.tsx``), which the Tiled editor opens and edits. Nothing is taken
from elsewhere. Run it again after changing it:

    python -m examples.adventure.make_assets
"""

from __future__ import annotations

import functools
import math
import os
import random
import struct
import wave
from collections.abc import Callable, Sequence
from pathlib import Path
from xml.sax.saxutils import quoteattr

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

ASSETS = Path(__file__).resolve().parent / "assets"
TILE = 16
RATE = 22050  # Hz, sound effects and music

# --- Pictures ---------------------------------------------------------------

GRASS, GRASS_LIGHT, GRASS_DARK = (96, 184, 74), (150, 214, 96), (58, 128, 56)
DIRT, DIRT_LIGHT, DIRT_DARK = (150, 100, 62), (178, 126, 80), (112, 72, 46)
BRICK, MORTAR = (184, 98, 72), (112, 60, 50)
STONE, STONE_LIGHT, STONE_DARK = (136, 138, 150), (172, 174, 186), (96, 98, 112)
CLOUD, CLOUD_SHADE = (252, 252, 255), (218, 230, 246)
HILL, HILL_LIGHT = (122, 176, 140), (146, 196, 156)
LEAVES, LEAVES_DARK, BARK = (64, 150, 70), (44, 112, 58), (116, 80, 52)
OUTLINE = (40, 34, 44)
SKIN, HAIR, TUNIC, TUNIC_DARK, BOOTS, EYE = (246, 196, 150), (120, 66, 36), (60, 120, 210), (40, 84, 160), \
    (90, 56, 40), (30, 30, 50)
SLIME, SLIME_LIGHT, SLIME_DARK = (150, 60, 190), (200, 130, 230), (96, 34, 128)
GOLD, GOLD_LIGHT, GOLD_DARK = (250, 200, 50), (255, 240, 150), (196, 140, 30)
WATER, WATER_LIGHT, WATER_DARK, FOAM = (64, 140, 220), (120, 186, 240), (44, 104, 186), (228, 244, 255)

#: Tile ids of the tileset (8 columns; id = row · 8 + column). T_WATER is animated: it shows
#: WATER_FRAMES in turn, WATER_MS each (the tileset's <animation>); T_WATER_DEEP lies under it.
T_GRASS, T_GRASS_LEFT, T_GRASS_RIGHT, T_DIRT, T_BRICK, T_STONE, T_GRASS_ONE, T_CRATE = range(8)
T_BUSH_LEFT, T_BUSH_RIGHT, T_FLOWER_RED, T_FLOWER_YELLOW, T_TALL_GRASS, T_ROCK, T_MUSHROOM, T_SIGN = range(8, 16)
T_CLOUD_LEFT, T_CLOUD_MID, T_CLOUD_RIGHT, T_HILL_LEFT, T_HILL, T_HILL_RIGHT, T_HILL_TOP, T_TRUNK = range(16, 24)
T_LEAVES_TL, T_LEAVES_TR, T_LEAVES_BL, T_LEAVES_BR, T_FENCE = range(24, 29)
T_WATER, T_WATER_2, T_WATER_3, T_WATER_4, T_WATER_DEEP = range(32, 37)
WATER_FRAMES, WATER_MS = (T_WATER, T_WATER_2, T_WATER_3, T_WATER_4), 150
TILESET_ROWS = 5
SOLID_TILES = {T_GRASS, T_GRASS_LEFT, T_GRASS_RIGHT, T_DIRT, T_BRICK, T_STONE, T_GRASS_ONE, T_CRATE}


def speckle(surface: pygame.Surface, rect: pygame.Rect, colors: Sequence[tuple[int, int, int]],
            count: int, rng: random.Random) -> None:
    """Scatter single pixels of ``colors`` over ``rect``: texture."""
    for _ in range(count):
        surface.set_at((rng.randrange(rect.left, rect.right), rng.randrange(rect.top, rect.bottom)),
                       rng.choice(colors))


def dirt(tile: pygame.Surface, rng: random.Random) -> None:
    tile.fill(DIRT)
    speckle(tile, tile.get_rect(), (DIRT_LIGHT, DIRT_DARK), 26, rng)


def grass_top(tile: pygame.Surface, rng: random.Random, left: bool, right: bool) -> None:
    dirt(tile, rng)
    tile.fill(GRASS, (0, 0, TILE, 5))
    tile.fill(GRASS_LIGHT, (0, 0, TILE, 1))
    for x in range(TILE):  # a ragged lower edge of the turf
        tile.fill(GRASS_DARK if x % 3 else GRASS, (x, 5, 1, 1 + (x * 7) % 3 // 2))
    if left:
        tile.fill(OUTLINE, (0, 0, 1, 6))
    if right:
        tile.fill(OUTLINE, (TILE - 1, 0, 1, 6))


def brick(tile: pygame.Surface, rng: random.Random) -> None:
    tile.fill(MORTAR)
    for row in range(4):
        shift = 4 if row % 2 else 0
        for column in range(-1, 3):
            x = column * 8 + shift
            tile.fill(BRICK, (x + 1, row * 4 + 1, 7, 3))
            tile.fill((206, 126, 96), (x + 1, row * 4 + 1, 7, 1))


def stone(tile: pygame.Surface, rng: random.Random) -> None:
    tile.fill(STONE)
    pygame.draw.rect(tile, STONE_DARK, tile.get_rect(), 1)
    tile.fill(STONE_LIGHT, (1, 1, TILE - 2, 1))
    tile.fill(STONE_LIGHT, (1, 1, 1, TILE - 2))
    speckle(tile, pygame.Rect(2, 2, 12, 12), (STONE_DARK, STONE_LIGHT), 10, rng)


def crate(tile: pygame.Surface, rng: random.Random) -> None:
    tile.fill((170, 116, 62))
    pygame.draw.rect(tile, (110, 70, 36), tile.get_rect(), 2)
    pygame.draw.line(tile, (110, 70, 36), (2, 2), (13, 13), 2)
    pygame.draw.line(tile, (206, 150, 90), (2, 1), (13, 1))


def bush(tile: pygame.Surface, half: int) -> None:
    """Half (0 left, 1 right) of a bush two tiles wide."""
    whole = pygame.Surface((2 * TILE, TILE), pygame.SRCALPHA)
    blobs = ((9, 11, 7), (17, 8, 8), (25, 11, 6))
    for color, grow in ((LEAVES_DARK, 0), (LEAVES, -1)):
        for cx, cy, r in blobs:
            pygame.draw.circle(whole, color, (cx, cy + (0 if grow else 1)), r + grow)
    for x, y in ((12, 6), (18, 3), (24, 8)):
        whole.fill(GRASS_LIGHT, (x, y, 2, 1))
    whole.fill((0, 0, 0, 0), (0, 15, 2 * TILE, 1))
    whole.fill(LEAVES_DARK, (4, 15, 2 * TILE - 8, 1))
    tile.blit(whole, (-TILE * half, 0))


def flower(tile: pygame.Surface, petal: tuple[int, int, int]) -> None:
    pygame.draw.line(tile, GRASS_DARK, (8, 15), (8, 8))
    tile.fill(GRASS, (9, 12, 2, 1))
    for dx, dy in ((-2, 0), (2, 0), (0, -2), (0, 2)):
        pygame.draw.circle(tile, petal, (8 + dx, 7 + dy), 2)
    tile.set_at((8, 7), GOLD)


def tall_grass(tile: pygame.Surface) -> None:
    for x, h in ((2, 6), (4, 9), (6, 5), (9, 8), (11, 6), (13, 9)):
        pygame.draw.line(tile, GRASS_DARK if x % 3 else GRASS, (x, 15), (x + (1 if x % 2 else -1), 15 - h))


def rock(tile: pygame.Surface) -> None:
    pygame.draw.ellipse(tile, STONE_DARK, (3, 9, 11, 7))
    pygame.draw.ellipse(tile, STONE, (4, 9, 9, 5))
    tile.fill(STONE_LIGHT, (6, 10, 3, 1))


def mushroom(tile: pygame.Surface) -> None:
    tile.fill((240, 230, 210), (7, 10, 3, 6))
    pygame.draw.ellipse(tile, (210, 50, 50), (3, 5, 11, 7))
    for x, y in ((6, 7), (10, 8), (8, 6)):
        tile.set_at((x, y), (255, 255, 255))


def sign(tile: pygame.Surface) -> None:
    tile.fill(BARK, (7, 8, 2, 8))
    tile.fill((196, 150, 96), (2, 2, 12, 7))
    pygame.draw.rect(tile, BARK, (2, 2, 12, 7), 1)
    pygame.draw.polygon(tile, OUTLINE, [(5, 5), (10, 5), (10, 3), (12, 5), (10, 7), (10, 5)])


def cloud(tile: pygame.Surface, part: int) -> None:
    shapes = {0: [(14, 11, 6), (10, 13, 4)], 1: [(8, 8, 8), (0, 11, 6), (16, 11, 6)], 2: [(2, 11, 6), (6, 13, 4)]}
    for cx, cy, r in shapes[part]:
        pygame.draw.circle(tile, CLOUD_SHADE, (cx, cy + 1), r)
    for cx, cy, r in shapes[part]:
        pygame.draw.circle(tile, CLOUD, (cx, cy), r - 1)


def hill(tile: pygame.Surface, part: int) -> None:
    if part == 1:  # fill
        tile.fill(HILL)
    elif part == 3:  # flat top
        tile.fill(HILL, (0, 4, TILE, TILE - 4))
        tile.fill(HILL_LIGHT, (0, 4, TILE, 2))
    else:  # slope up to the right (0) or down (2)
        points = [(0, TILE), (TILE, 4), (TILE, TILE)] if part == 0 else [(0, 4), (TILE, TILE), (0, TILE)]
        pygame.draw.polygon(tile, HILL, points)
    speckle(tile, pygame.Rect(0, 8, TILE, 8), (HILL_LIGHT,), 4 if part != 1 else 6, random.Random(part))


def trunk(tile: pygame.Surface) -> None:
    tile.fill(BARK, (6, 0, 5, TILE))
    tile.fill((140, 100, 66), (7, 0, 1, TILE))


def leaves(tile: pygame.Surface, corner: int) -> None:
    cx, cy = (16, 16) if corner == 0 else (0, 16) if corner == 1 else (16, 0) if corner == 2 else (0, 0)
    pygame.draw.circle(tile, LEAVES_DARK, (cx, cy), 15)
    pygame.draw.circle(tile, LEAVES, (cx, cy - 1), 13)
    speckle(tile, tile.get_rect(), (GRASS_LIGHT,), 6, random.Random(corner))
    for x in range(TILE):  # keep the speckles inside the crown
        for y in range(TILE):
            if tuple(tile.get_at((x, y)))[:3] == GRASS_LIGHT and math.hypot(x - cx, y - cy) > 12:
                tile.set_at((x, y), (0, 0, 0, 0))


def fence(tile: pygame.Surface) -> None:
    for x in (3, 11):
        tile.fill((210, 170, 120), (x, 5, 3, 11))
        tile.fill(BARK, (x, 5, 1, 11))
    tile.fill((210, 170, 120), (0, 8, TILE, 2))
    tile.fill((210, 170, 120), (0, 12, TILE, 2))


def water_frame(tile: pygame.Surface, rng: random.Random, phase: int) -> None:
    """The water's surface, frame ``phase`` of 4: a swell one tile long
    travelling 4 px right a frame (so the frames loop, and tiles side by
    side join), foam on the crests, glints drifting under them."""
    for x in range(TILE):
        crest = 4 + round(1.5 * math.sin(2 * math.pi * (x - 4 * phase) / TILE))
        tile.fill(WATER, (x, crest, 1, TILE - crest))
        tile.fill(FOAM if crest <= 3 else WATER_LIGHT, (x, crest, 1, 1))
    for x, y in ((2, 9), (9, 12), (13, 8)):
        tile.fill(WATER_LIGHT, ((x + 2 * phase) % (TILE - 2), y, 2, 1))
    tile.fill(WATER_DARK, (0, TILE - 2, TILE, 2))


def deep_water(tile: pygame.Surface, rng: random.Random) -> None:
    """Still water under the surface."""
    tile.fill(WATER_DARK)
    speckle(tile, tile.get_rect(), (WATER,), 12, rng)


def make_tileset() -> pygame.Surface:
    """The 8×5 tileset, 16 px tiles, no margin or spacing."""
    sheet = pygame.Surface((8 * TILE, TILESET_ROWS * TILE), pygame.SRCALPHA)
    painters: dict[int, Callable[[pygame.Surface, random.Random], None]] = {
        T_GRASS: lambda t, r: grass_top(t, r, False, False),
        T_GRASS_LEFT: lambda t, r: grass_top(t, r, True, False),
        T_GRASS_RIGHT: lambda t, r: grass_top(t, r, False, True),
        T_GRASS_ONE: lambda t, r: grass_top(t, r, True, True),
        T_DIRT: dirt, T_BRICK: brick, T_STONE: stone, T_CRATE: crate,
        T_BUSH_LEFT: lambda t, r: bush(t, 0), T_BUSH_RIGHT: lambda t, r: bush(t, 1),
        T_FLOWER_RED: lambda t, r: flower(t, (230, 70, 80)), T_FLOWER_YELLOW: lambda t, r: flower(t, (250, 220, 90)),
        T_TALL_GRASS: lambda t, r: tall_grass(t), T_ROCK: lambda t, r: rock(t),
        T_MUSHROOM: lambda t, r: mushroom(t), T_SIGN: lambda t, r: sign(t),
        T_CLOUD_LEFT: lambda t, r: cloud(t, 0), T_CLOUD_MID: lambda t, r: cloud(t, 1),
        T_CLOUD_RIGHT: lambda t, r: cloud(t, 2), T_HILL_LEFT: lambda t, r: hill(t, 0),
        T_HILL: lambda t, r: hill(t, 1), T_HILL_RIGHT: lambda t, r: hill(t, 2), T_HILL_TOP: lambda t, r: hill(t, 3),
        T_TRUNK: lambda t, r: trunk(t), T_LEAVES_TL: lambda t, r: leaves(t, 0),
        T_LEAVES_TR: lambda t, r: leaves(t, 1), T_LEAVES_BL: lambda t, r: leaves(t, 2),
        T_LEAVES_BR: lambda t, r: leaves(t, 3), T_FENCE: lambda t, r: fence(t),
        T_WATER_DEEP: deep_water,
    }
    for phase, tile_id in enumerate(WATER_FRAMES):
        painters[tile_id] = functools.partial(water_frame, phase=phase)
    for tile_id, paint in painters.items():
        tile = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
        paint(tile, random.Random(tile_id))
        sheet.blit(tile, ((tile_id % 8) * TILE, (tile_id // 8) * TILE))
    return sheet


def sheet_of(frames: Sequence[Sequence[pygame.Surface | None]], size: tuple[int, int],
             margin: int, spacing: int) -> pygame.Surface:
    """Lay out rows of frames on one image with ``margin`` and ``spacing`` px."""
    columns = max(len(row) for row in frames)
    w, h = size
    sheet = pygame.Surface((2 * margin + columns * w + (columns - 1) * spacing,
                            2 * margin + len(frames) * h + (len(frames) - 1) * spacing), pygame.SRCALPHA)
    for r, row in enumerate(frames):
        for c, frame in enumerate(row):
            if frame is not None:
                sheet.blit(frame, (margin + c * (w + spacing), margin + r * (h + spacing)))
    return sheet


def hero(legs: tuple[int, int], bob: int = 0, arm: int = 0, squint: bool = False, lift: int = 0) -> pygame.Surface:
    """The hero facing right, 16×24: ``legs`` how far forward (px) the front
    and back feet are, ``bob`` px down, ``arm`` swing px, ``lift`` px the
    front foot is raised."""
    frame = pygame.Surface((16, 24), pygame.SRCALPHA)
    y = 2 + bob
    hip = y + 14
    for index, (foot, trouser, boot) in enumerate(((legs[1], TUNIC_DARK, BOOTS), (legs[0], TUNIC, (120, 76, 54)))):
        foot_y = 21 - (lift if index else 0)
        pygame.draw.line(frame, OUTLINE, (8, hip), (8 + foot, foot_y), 3)
        pygame.draw.line(frame, trouser, (8, hip), (8 + foot, foot_y), 1)
        frame.fill(boot, (7 + foot, foot_y, 4, 2))
    frame.fill(OUTLINE, (4, y + 7, 9, 9))
    frame.fill(TUNIC, (5, y + 8, 7, 7))
    frame.fill(TUNIC_DARK, (5, y + 12, 7, 1))  # belt
    frame.fill(GOLD, (9, y + 12, 1, 1))
    frame.fill(TUNIC_DARK, (8 + arm, y + 8, 2, 4))  # sleeve
    frame.fill(SKIN, (8 + arm, y + 12, 2, 2))  # hand
    pygame.draw.circle(frame, OUTLINE, (9, y + 4), 5)
    pygame.draw.circle(frame, SKIN, (9, y + 4), 4)
    frame.fill(HAIR, (5, y - 1, 9, 3))
    frame.fill(HAIR, (5, y, 2, 5))
    frame.fill(EYE, (11, y + 3, 1, 1 if squint else 2))
    return frame


def make_hero() -> pygame.Surface:
    """Rows: idle (4 frames), run (6), jump and fall (1 each); 16×24 frames,
    margin 1, spacing 2."""
    idle = [hero((0, 0), bob=b) for b in (0, 0, 1, 1)]
    idle[3] = hero((0, 0), bob=1, squint=True)  # a blink
    stride = [(4, -3), (2, -1), (0, 1), (-3, 4), (-1, 2), (1, 0)]
    run = [hero(s, bob=(0 if i % 3 == 0 else 1), arm=(-s[0]) // 2) for i, s in enumerate(stride)]
    jump, fall = hero((3, -3), arm=2, lift=3), hero((2, -2), bob=-1, arm=-2)
    return sheet_of([idle, run, [jump, fall]], (16, 24), margin=1, spacing=2)


def slime(squash: int) -> pygame.Surface:
    """The slime, 16×12, ``squash`` px flatter (walking) or flat (stomped: 5)."""
    frame = pygame.Surface((16, 12), pygame.SRCALPHA)
    height = 10 - squash
    body = pygame.Rect(1 - squash // 2, 12 - height, 14 + squash, height)
    pygame.draw.ellipse(frame, SLIME_DARK, body)
    pygame.draw.ellipse(frame, SLIME, body.inflate(-2, -2))
    frame.fill(SLIME_LIGHT, (body.left + 3, body.top + 2, 3, 1))
    if squash < 5:
        for x in (9, 12):
            frame.fill((255, 255, 255), (x, body.top + 3, 2, 3))
            frame.fill(EYE, (x + 1, body.top + 4, 1, 2))
    return frame


def coin(width: int) -> pygame.Surface:
    """A coin 10×10 seen ``width`` px wide (spinning)."""
    frame = pygame.Surface((10, 10), pygame.SRCALPHA)
    rect = pygame.Rect(5 - width // 2, 0, max(width, 2), 10)
    pygame.draw.ellipse(frame, GOLD_DARK, rect)
    pygame.draw.ellipse(frame, GOLD, rect.inflate(-2, -2) if width > 3 else rect)
    if width > 5:
        frame.fill(GOLD_LIGHT, (rect.centerx - 1, 3, 1, 4))
    return frame


def flag(wave_phase: int) -> pygame.Surface:
    """The goal, 16×32: a pole and a flag waving (phase 0 or 1)."""
    frame = pygame.Surface((16, 32), pygame.SRCALPHA)
    frame.fill((220, 220, 230), (2, 2, 2, 30))
    pygame.draw.circle(frame, GOLD, (3, 2), 2)
    tip = 4 if wave_phase else 6
    pygame.draw.polygon(frame, (230, 60, 70), [(4, 4), (15, tip), (4, 12)])
    pygame.draw.polygon(frame, (250, 240, 240), [(6, 7), (9, 8), (6, 9)])
    return frame


def platform() -> pygame.Surface:
    """The moving platform, 48×8: planks with iron ends."""
    image = pygame.Surface((48, 8), pygame.SRCALPHA)
    image.fill((160, 110, 60))
    for x in range(0, 48, 8):
        image.fill((120, 80, 44), (x, 0, 1, 8))
    image.fill((200, 150, 96), (0, 0, 48, 1))
    image.fill(STONE_DARK, (0, 0, 4, 8))
    image.fill(STONE_DARK, (44, 0, 4, 8))
    return image


def heart() -> pygame.Surface:
    """A life, 9×8."""
    image = pygame.Surface((9, 8), pygame.SRCALPHA)
    pygame.draw.circle(image, (220, 50, 70), (2, 2), 2)
    pygame.draw.circle(image, (220, 50, 70), (6, 2), 2)
    pygame.draw.polygon(image, (220, 50, 70), [(0, 3), (8, 3), (4, 7)])
    image.set_at((2, 1), (255, 200, 200))
    return image


# --- Sounds -------------------------------------------------------------------

def write_wav(path: Path, samples: Sequence[float], rate: int = RATE) -> None:
    """16-bit mono WAV of samples in [-1, 1]."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"".join(struct.pack("<h", round(max(-1.0, min(1.0, s)) * 32000)) for s in samples))


def tone(start_hz: float, end_hz: float, seconds: float, volume: float = 0.5, square: float = 0.6,
         rate: int = RATE) -> list[float]:
    """A note gliding from ``start_hz`` to ``end_hz``, part square (``square``)
    part sine, with a short attack and a linear fade."""
    count = int(seconds * rate)
    out, phase = [], 0.0
    for i in range(count):
        t = i / count
        phase += 2 * math.pi * (start_hz + (end_hz - start_hz) * t) / rate
        wave_value = (1 - square) * math.sin(phase) + square * (1.0 if math.sin(phase) >= 0 else -1.0)
        envelope = min(1.0, i / (0.004 * rate)) * (1 - t)
        out.append(wave_value * envelope * volume)
    return out


def noise(seconds: float, volume: float, seed: int = 1) -> list[float]:
    rng = random.Random(seed)
    count = int(seconds * RATE)
    return [rng.uniform(-1, 1) * volume * (1 - i / count) ** 2 for i in range(count)]


def mix(*tracks: Sequence[float]) -> list[float]:
    return [sum(t[i] for t in tracks if i < len(t)) for i in range(max(len(t) for t in tracks))]


def make_sounds() -> None:
    write_wav(ASSETS / "coin.wav", tone(988, 988, 0.06, 0.35) + tone(1319, 1319, 0.22, 0.35))
    write_wav(ASSETS / "jump.wav", tone(260, 620, 0.16, 0.3, square=0.4))
    write_wav(ASSETS / "stomp.wav", mix(tone(180, 50, 0.16, 0.6, square=0.2), noise(0.08, 0.3)))
    hurt = [s * (0.7 + 0.3 * math.sin(i / 180)) for i, s in enumerate(tone(620, 140, 0.4, 0.4, square=0.8))]
    write_wav(ASSETS / "hurt.wav", hurt)
    write_wav(ASSETS / "win.wav", [s for hz in (523, 659, 784, 1047) for s in tone(hz, hz, 0.12, 0.35)]
              + tone(1047, 1047, 0.4, 0.35))
    write_wav(ASSETS / "music.wav", music(), rate=11025)


def music() -> list[float]:
    """Eight bars of a cheerful loop at 140 beats per minute: a square lead
    over a sine bass, 11 025 Hz."""
    beat = 60 / 140
    lead = "E5 G5 A5 G5 E5 D5 C5 D5 E5 G5 C6 B5 A5 G5 E5 G5 A5 C6 A5 G5 E5 D5 E5 G5 D5 E5 C5 D5 C5 - - -"
    bass = "C3 G3 A2 E3 F2 C3 G2 D3 C3 G3 A2 E3 F2 G2 C3 -"
    names = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}

    def hz(note: str) -> float:
        return 440.0 * 2 ** ((names[note[0]] + 12 * (int(note[1]) - 4)) / 12)

    def voice(notes: str, length: float, volume: float, square: float) -> list[float]:
        out: list[float] = []
        for note in notes.split():
            out += [0.0] * int(length * 11025) if note == "-" else tone(hz(note), hz(note), length, volume,
                                                                       square, rate=11025)
        return out

    return mix(voice(lead, beat / 2, 0.22, 0.5), voice(bass, beat, 0.3, 0.0))


# --- The level ----------------------------------------------------------------

WIDTH, HEIGHT = 160, 28  # tiles
WATER_ROW = 26  # the water's surface in the pits (tiles from the top); deep water below it
#: Tiled layer attributes by layer name: the background (hills, clouds) scrolls at half the camera's speed.
LAYER_ATTRIBUTES = {"background": {"parallaxx": "0.5"}}
LEVEL_PROPERTIES = {"title": ("string", "Green Hill Run"), "lives": ("int", "3"),
                    "music": ("file", "music.wav")}


def layout() -> tuple[list[list[int]], list[list[int]], list[list[int]], list[list[int]], list[dict[str, object]]]:
    """The level: solid ground, decorations, background, foreground (tile ids,
    −1 empty) and the objects. x and y count tiles from the top-left."""
    solid = [[0] * WIDTH for _ in range(HEIGHT)]  # 1 ground, 2 brick, 3 stone, 4 crate

    def fill(x0: int, x1: int, y0: int, y1: int, kind: int = 1) -> None:
        for y in range(y0, y1):
            for x in range(x0, x1):
                solid[y][x] = kind

    # Ground: terraces, pits and a tunnel, left to right.
    for x0, x1, top in ((0, 20, 25), (20, 24, 24), (24, 28, 23), (28, 32, 22), (36, 60, 24), (72, 100, 24),
                        (104, 118, 25), (124, 144, 24), (144, 148, 23), (148, 152, 22), (152, 160, 21)):
        fill(x0, x1, top, HEIGHT)
    fill(33, 35, 19, 20, 2)  # a brick ledge over the first pit
    fill(76, 80, 20, 21, 2)  # floating bricks climbing up and right
    fill(82, 86, 17, 18, 2)
    fill(88, 92, 14, 15, 2)
    fill(97, 100, 21, 24, 3)  # a step before the pit
    fill(106, 116, 20, 22, 2)  # the tunnel's roof
    fill(108, 110, 24, 25, 4)  # crates in the tunnel
    fill(120, 122, 22, 23, 3)  # a stepping stone in the last pit
    fill(136, 138, 23, 24, 4)
    fill(158, 160, 6, 21, 3)  # the end wall
    ground = [[-1] * WIDTH for _ in range(HEIGHT)]
    for y in range(HEIGHT):
        for x in range(WIDTH):
            kind = solid[y][x]
            if kind == 1:
                if y > 0 and solid[y - 1][x]:
                    ground[y][x] = T_DIRT
                else:
                    # Grass runs on past the map's edges: no rim there.
                    left = x == 0 or (solid[y][x - 1] and not solid[y - 1][x - 1])
                    right = x == WIDTH - 1 or (solid[y][x + 1] and not solid[y - 1][x + 1])
                    ground[y][x] = (T_GRASS if left and right else T_GRASS_RIGHT if left
                                    else T_GRASS_LEFT if right else T_GRASS_ONE)
            elif kind:
                ground[y][x] = {2: T_BRICK, 3: T_STONE, 4: T_CRATE}[kind]

    def surface(x: int) -> int:
        return next(y for y in range(HEIGHT) if solid[y][x]) if any(solid[y][x] for y in range(HEIGHT)) else HEIGHT

    decor = [[-1] * WIDTH for _ in range(HEIGHT)]
    front = [[-1] * WIDTH for _ in range(HEIGHT)]
    rng = random.Random(11)
    for x in range(1, WIDTH - 2):
        top = surface(x)
        if top >= HEIGHT or solid[top][x] != 1 or top < 5:
            continue
        roll = rng.random()
        if roll < 0.08 and solid[top][x + 1] == 1 and surface(x + 1) == top:
            decor[top - 1][x], decor[top - 1][x + 1] = T_BUSH_LEFT, T_BUSH_RIGHT
        elif roll < 0.2:
            decor[top - 1][x] = rng.choice((T_FLOWER_RED, T_FLOWER_YELLOW, T_ROCK, T_MUSHROOM))
        elif roll < 0.3:
            front[top - 1][x] = T_TALL_GRASS
    for x in (8, 64 + 0, 126):  # trees
        top = surface(x)
        if top < HEIGHT:
            decor[top - 1][x] = decor[top - 2][x] = T_TRUNK
            decor[top - 4][x - 1], decor[top - 4][x] = T_LEAVES_TL, T_LEAVES_TR
            decor[top - 3][x - 1], decor[top - 3][x] = T_LEAVES_BL, T_LEAVES_BR
    decor[surface(4) - 1][4] = T_SIGN
    for x in range(37, 44):
        decor[surface(x) - 1][x] = T_FENCE
    back = [[-1] * WIDTH for _ in range(HEIGHT)]
    for x0 in range(2, WIDTH - 4, 9):  # clouds
        y = rng.randrange(2, 12)
        length = rng.randrange(1, 4)
        back[y][x0] = T_CLOUD_LEFT
        for i in range(length):
            back[y][x0 + 1 + i] = T_CLOUD_MID
        back[y][x0 + 1 + length] = T_CLOUD_RIGHT
    height, goal = 6, 6
    for x in range(WIDTH):  # rolling hills behind everything: climb toward a goal height, then pick another
        if height == goal and rng.random() < 0.35:
            goal = rng.randrange(3, 10)
        step = (goal > height) - (goal < height)
        height += step
        top = 25 - height
        back[top][x] = T_HILL_TOP if step == 0 else (T_HILL_LEFT if step > 0 else T_HILL_RIGHT)
        for y in range(top + 1, HEIGHT):
            back[y][x] = T_HILL
    for x in range(WIDTH):  # water at the bottom of every pit: decoration, it does not collide
        if not any(solid[y][x] for y in range(WATER_ROW, HEIGHT)):
            decor[WATER_ROW][x] = T_WATER
            for y in range(WATER_ROW + 1, HEIGHT):
                decor[y][x] = T_WATER_DEEP
    objects = level_objects(surface)
    return ground, decor, back, front, objects


def level_objects(surface: Callable[[int], int]) -> list[dict[str, object]]:
    """Player, coins, slimes, the moving platform, checkpoints and the goal,
    in px (objects sit on the ground or float where placed)."""
    objects: list[dict[str, object]] = []

    def add(kind: str, x: float, y: float, w: float, h: float, **properties: tuple[str, str]) -> None:
        objects.append({"class": kind, "x": x, "y": y, "width": w, "height": h, "properties": properties})

    add("player", 3 * TILE, (surface(3) * TILE) - 20, 10, 20)
    coins = ([(x, surface(x) - 2) for x in (10, 12, 14)] + [(x, 20) for x in (21, 25, 29)]
             + [(33, 18), (34, 18)] + [(x, 20) for x in (46, 47, 48, 49)] + [(x, 22) for x in (62, 64, 66, 68)]
             + [(78, 18), (84, 15), (90, 12), (91, 12)] + [(x, 23) for x in (107, 111, 113, 115)]
             + [(121, 20), (130, 21), (132, 21), (146, 20), (150, 19)])
    for x, y in coins:
        add("coin", x * TILE + 3, y * TILE + 3, 10, 10)
    for left, right in ((40, 55), (74, 96), (126, 142)):
        add("slime", (left + 3) * TILE, surface(left + 3) * TILE - 10, 14, 10,
            left=("float", str(left * TILE)), right=("float", str(right * TILE)))
    # Level with the ground, shuttling from the pit's left edge (x 60) until
    # its right end meets the far edge (x 72): walk on, ride, walk off.
    add("platform", 60 * TILE, 24 * TILE, 48, 8, distance=("float", str(12 * TILE - 48)), speed=("float", "40"),
        rest=("float", "0.8"))
    for x in (74, 124):
        add("checkpoint", x * TILE, (surface(x) - 2) * TILE, 16, 32)
    add("goal", 154 * TILE, (surface(154) - 2) * TILE, 16, 32)
    return objects


def csv(rows: list[list[int]]) -> str:
    """Tiled's CSV layer data: gid 0 is empty, tile id n is gid n + 1."""
    return ",\n".join(",".join(str(tile + 1) for tile in row) for row in rows)


def tmx(layers: list[tuple[str, list[list[int]], dict[str, tuple[str, str]]]],
        objects: list[dict[str, object]], properties: dict[str, tuple[str, str]] | None = None,
        layer_attributes: dict[str, dict[str, str]] | None = None) -> str:
    """A Tiled 1.10 map of these layers (rows of tile ids; ``layer_attributes``
    adds XML attributes to the layers it names, e.g. ``parallaxx``) and
    objects that uses tileset.tsx."""
    width, height = len(layers[0][1][0]), len(layers[0][1])

    def block(values: dict[str, tuple[str, str]], indent: str) -> str:
        if not values:
            return ""
        rows = "".join(f'{indent} <property name="{name}" type="{kind}" value={quoteattr(value)}/>\n'
                       for name, (kind, value) in values.items())
        return f"{indent}<properties>\n{rows}{indent}</properties>\n"

    out = ['<?xml version="1.0" encoding="UTF-8"?>\n',
           f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
           f'width="{width}" height="{height}" tilewidth="{TILE}" tileheight="{TILE}" infinite="0" '
           f'backgroundcolor="#86bff0" nextlayerid="{len(layers) + 2}" nextobjectid="{len(objects) + 1}">\n',
           block(properties or {}, " "),
           ' <tileset firstgid="1" source="tileset.tsx"/>\n']
    for index, (name, rows, layer_properties) in enumerate(layers, start=1):
        extra = "".join(f" {key}={quoteattr(value)}" for key, value in (layer_attributes or {}).get(name, {}).items())
        out.append(f' <layer id="{index}" name="{name}" width="{width}" height="{height}"{extra}>\n')
        out.append(block(layer_properties, "  "))
        out.append(f'  <data encoding="csv">\n{csv(rows)}\n</data>\n </layer>\n')
    out.append(f' <objectgroup id="{len(layers) + 1}" name="objects">\n')
    for object_id, item in enumerate(objects, start=1):
        attributes = " ".join(f'{key}="{item[key]}"' for key in ("class", "x", "y", "width", "height"))
        props = item["properties"]
        assert isinstance(props, dict)
        if props:
            out.append(f'  <object id="{object_id}" {attributes}>\n{block(props, "   ")}  </object>\n')
        else:
            out.append(f'  <object id="{object_id}" {attributes}/>\n')
    out.append(" </objectgroup>\n</map>\n")
    return "".join(out)


def tsx() -> str:
    """The external tileset: the image, which tiles are solid, and the water's animation."""
    tiles = "".join(f' <tile id="{i}">\n  <properties>\n   <property name="solid" type="bool" value="true"/>\n'
                    f'  </properties>\n </tile>\n' for i in sorted(SOLID_TILES))
    frames = "".join(f'   <frame tileid="{i}" duration="{WATER_MS}"/>\n' for i in WATER_FRAMES)
    tiles += f' <tile id="{T_WATER}">\n  <animation>\n{frames}  </animation>\n </tile>\n'
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<tileset version="1.10" tiledversion="1.10.2" name="hills" tilewidth="{TILE}" '
            f'tileheight="{TILE}" tilecount="{8 * TILESET_ROWS}" columns="8">\n'
            f' <image source="tileset.png" width="{8 * TILE}" height="{TILESET_ROWS * TILE}"/>\n{tiles}</tileset>\n')


def main() -> None:
    """Write every asset into examples/adventure/assets/."""
    ASSETS.mkdir(exist_ok=True)
    pygame.image.save(make_tileset(), str(ASSETS / "tileset.png"))
    pygame.image.save(make_hero(), str(ASSETS / "hero.png"))
    pygame.image.save(sheet_of([[slime(s) for s in (0, 1, 2, 1)] + [slime(5)]], (16, 12), 0, 0),
                      str(ASSETS / "slime.png"))
    pygame.image.save(sheet_of([[coin(w) for w in (10, 8, 5, 2, 5, 8)]], (10, 10), 0, 0), str(ASSETS / "coin.png"))
    pygame.image.save(sheet_of([[flag(0), flag(1)]], (16, 32), 0, 0), str(ASSETS / "flag.png"))
    pygame.image.save(platform(), str(ASSETS / "platform.png"))
    pygame.image.save(heart(), str(ASSETS / "heart.png"))
    make_sounds()
    ground, decor, back, front, objects = layout()
    (ASSETS / "tileset.tsx").write_text(tsx())
    layers = [("background", back, {}), ("ground", ground, {}), ("decoration", decor, {}),
              ("foreground", front, {"draw_layer": ("int", "10")})]
    (ASSETS / "level.tmx").write_text(tmx(layers, objects, LEVEL_PROPERTIES, LAYER_ATTRIBUTES))
    print(f"wrote {len(list(ASSETS.iterdir()))} files to {ASSETS}")


if __name__ == "__main__":
    main()

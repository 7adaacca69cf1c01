"""Cave-like Tiled maps of any size, to measure how loading grows with the map.

``cave(columns, rows, seed)`` grows caves by the cellular automaton of
Johnson, Yannakakis and Togelius, "Cellular automata for real-time
generation of infinite cave levels" (2010): cells start solid with
probability ``fill`` (0.55), then in each of ``rounds`` (2) rounds a cell
becomes solid when at least 5 of the 9 cells of its 3×3 neighbourhood are
(few rounds leave ragged walls: many concave corners and chords). ``write_tmx`` saves it as a
base64/zlib .tmx of 16 px tiles using ``tiles.png`` beside it.

Run ``python tests/data/cave.py N`` to generate an N×N map in a temporary
folder and print its load time (s) and the peak resident memory the load
added (MB, from getrusage in a fresh process); run it once per size.
"""

from __future__ import annotations

import base64
import os
import resource
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np


def cave(columns: int, rows: int, seed: int = 1, fill: float = 0.55, rounds: int = 2) -> np.ndarray:
    """A rows × columns array of 0 (empty) and 1 (solid): cells solid with
    probability ``fill``, then ``rounds`` rounds of the automaton."""
    solid = (np.random.default_rng(seed).random((rows, columns)) < fill).astype(np.uint8)
    for _ in range(rounds):
        padded = np.pad(solid, 1, constant_values=1)
        around = sum(padded[dy:dy + rows, dx:dx + columns] for dy in range(3) for dx in range(3))
        solid = (around >= 5).astype(np.uint8)
    return solid


def write_tmx(folder: Path, solid: np.ndarray, name: str = "cave.tmx") -> Path:
    """Write ``solid`` as a map whose gid 1 is a solid 16 px tile."""
    import pygame

    rows, columns = solid.shape
    image = pygame.Surface((16, 16), pygame.SRCALPHA)
    image.fill((120, 120, 130))
    pygame.image.save(image, str(folder / "tiles.png"))
    data = base64.b64encode(zlib.compress(solid.astype("<u4").tobytes())).decode()
    (folder / name).write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{columns}" height="{rows}"
     tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="tiles" tilewidth="16" tileheight="16" tilecount="1" columns="1">
  <image source="tiles.png" width="16" height="16"/>
  <tile id="0"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="rock" width="{columns}" height="{rows}">
  <data encoding="base64" compression="zlib">{data}</data>
 </layer>
</map>""")
    return folder / name


def _measure(size: int) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    sys.path.insert(0, str(Path(__file__).absolute().parents[2]))
    from ecs import World
    from ecs.tiled import load_map

    with tempfile.TemporaryDirectory() as folder:
        path = write_tmx(Path(folder), cave(size, size))
        world = World()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        tile_map = load_map(world, path)
        seconds = time.perf_counter() - start
        added = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        print(f"{size}x{size}: {tile_map.solid_tiles} solid tiles -> {len(tile_map.colliders)} colliders, "
              f"load {seconds:.2f} s, peak memory +{added:.0f} MB")


if __name__ == "__main__":
    _measure(int(sys.argv[1]))

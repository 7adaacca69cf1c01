"""Adventure: a scrolling platformer level made in Tiled, with camera, animation, sound and scenes.

Shows a level several screens wide loaded from a Tiled map (``assets/level.tmx``:
its tile layers drawn in chunks made as they come into view, its solid tiles merged into a
few dozen colliders, its objects turned into entities by factories); a camera
that follows the hero with a dead zone and smoothing, stays inside the level,
zooms 2× and shakes when he is hurt; the hero animated from a sprite sheet
(idle, run, jump, fall) and flipped to face where he runs; spinning coins with
a sound, slimes to stomp, a moving platform, checkpoints and a goal flag; a
title scene, a pause scene drawn over the frozen level and an end scene, with
fades between them; a HUD of Text components with coins, lives and time, whose
coin count hops (a tween) as a "+1" rises and sparkles burst (particles) at
each coin; hills scrolling at half the ground's speed and animated water in
the pits (Tiled's parallax and tile animations). Every picture, sound and the
map are made by ``make_assets.py`` in this folder.

Controls: arrows or A/D run, Space/Up/W jump (hold to jump higher); or a gamepad:
the left stick or the d-pad runs, its first button (A) jumps; P pauses,
Enter starts, F1 debug overlay, Esc quits.
Headless runs play a recorded demo (``record_demo.py``): Enter on the title,
then the hero runs the whole level: over terraces and pits, past slimes,
onto the moving platform (where it pauses for a second), through the tunnel
and to the flag, about 28 s; the end scene follows.

    python -m examples.adventure
    python -m examples.adventure --headless --frames 900 --screenshot adventure.png
"""

from __future__ import annotations

from collections.abc import Sequence

from examples.common import parse_args

from ecs import Audio, Game  # noqa: E402
from examples.adventure.art import Art  # noqa: E402
from examples.adventure.demo import load_demo  # noqa: E402
from examples.adventure.scenes import TitleScene  # noqa: E402

WIDTH, HEIGHT = 800, 480


def build(headless: bool) -> tuple[Game, Art]:
    """The game on its title scene; headless, the demo plays."""
    game = Game(size=(WIDTH, HEIGHT), title="adventure", headless=headless)
    art = Art(Audio())
    game.replace(TitleScene(art, load_demo() if headless else None))
    return game, art


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(__doc__, argv)
    game, art = build(args.headless)
    game.run(frames=args.frames, screenshot=args.screenshot)
    art.audio.close()
    game.close()


if __name__ == "__main__":
    main()

"""The adventure's scenes: title, level, pause (over the frozen level) and the end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import esper
import pygame
from pygame import Vector2

from components import (
    Animator, Collider, ColliderType, Emitter, Physics, Shape, Sprite, Text, Touching, Transform, Tween, Tweens,
)
from ecs import Autoplay, Contact, Fade, Input, MapObject, Scene, World, load_map
from examples.adventure.art import ASSETS, LEVEL, Art
from examples.adventure.demo import Demo
from examples.adventure.level import (
    GRAVITY, INVULNERABLE, STOMP_BOUNCE, ZOOM, Checkpoint, Coin, Goal, Hero, HeroControl, HudIcons, HudSystem,
    Lifetime, Patrol, PatrolSystem, Progress, Rules, Slime, bind_controls,
)

SHADOW = (30, 34, 52)
HUD_Y = 12  # px from the top of the screen to the HUD line


class OnKeys(esper.Processor):
    """Call a function when a key is pressed (scene changes, menus)."""

    def __init__(self, world: World, actions: dict[int, Callable[[], None]]) -> None:
        self.world, self.actions = world, actions

    def process(self, dt: float) -> None:
        keys = self.world.resource(Input)
        for key, action in self.actions.items():
            if keys.was_pressed(key):
                action()


@dataclass(slots=True)
class Blinking:
    """Marks a Text that blinks."""


class Blink(esper.Processor):
    """Show and hide Text entities marked Blinking, ``period`` s apart."""

    def __init__(self, world: World, period: float = 0.5) -> None:
        self.world, self.period, self.time = world, period, 0.0

    def process(self, dt: float) -> None:
        self.time += dt
        for _, (text, _) in self.world.get_components(Text, Blinking):
            text.visible = int(self.time / self.period) % 2 == 0


def write(world: World, text: str, where: tuple[float, float], size: int, anchor: str = "center",
          color: tuple[int, int, int] = (255, 255, 255)) -> int:
    """A line of screen text with a shadow."""
    return world.create_entity(Transform(where), Text(text, color=color, size=size, screen=True, anchor=anchor,
                                                      shadow=SHADOW))


#: Thickness of the walls at the map's ends (px).
EDGE = 16.0


class LevelScene(Scene):
    """The level from ``assets/level.tmx``: load it, spawn its objects, play.

    ``merge`` False gives every solid tile its own collider (to compare).
    """

    merge = True

    def __init__(self, art: Art, demo: Demo | None = None) -> None:
        super().__init__(World(gravity=(0, GRAVITY)))
        self.art, self.demo = art, demo
        self.hero = 0

    def enter(self) -> None:
        world = self.world
        progress = Progress()
        world.insert_resource(progress)
        tile_map = load_map(world, LEVEL, factories={
            "player": self.spawn_hero, "coin": self.spawn_coin, "slime": self.spawn_slime,
            "platform": self.spawn_platform, "checkpoint": self.spawn_flag, "goal": self.spawn_flag,
        }, chunk_size=8, merge=self.merge)
        self.background = tile_map.background
        # The map's left and right edges are walls reaching a map's height above it: the hero
        # can't walk off the level's ends into the void, nor jump past them.
        width, height = tile_map.size
        for x in (-EDGE, width):
            world.create_entity(Transform((x, -height)), Collider((EDGE, 2 * height), type=ColliderType.STATIC))
        progress.lives = tile_map.properties.get("lives", 3)
        progress.total = len(tile_map.entities.get("coin", []))
        self.camera.zoom = ZOOM
        self.camera.bounds = tile_map.bounds
        self.camera.target = self.hero
        self.camera.dead_zone.update(40, 48)
        self.camera.smoothing = 0.12
        world.on_collision(self.touch)
        bind_controls(self.input.actions)
        world.add_system(HeroControl(world, self.art), priority=400)  # before Movement
        world.add_system(PatrolSystem(world), priority=350)
        world.add_system(Rules(self), priority=-10)
        world.add_system(HudSystem(world), priority=-300)
        for name, position in (("coins", (38, HUD_Y)), ("lives", (136, HUD_Y)), ("time", (786, HUD_Y))):
            progress.hud[name] = write(world, "", position, 30, "topright" if name == "time" else "topleft")
        write(world, tile_map.properties.get("title", ""), (400, 14), 24, "midtop")
        # Right from the first frame of the fade-in (the level steps only once it is shown):
        # the camera on the hero, not gliding there from the map's corner, and the HUD filled in.
        self.camera.size.update(self.game.screen.get_size())
        hero = world.component_for_entity(self.hero, Transform).position
        self.camera.center_on(hero + world.component_for_entity(self.hero, Collider).size / 2)
        HudSystem(world).process(0.0)
        self.add_draw_system(HudIcons(self.art), priority=0)
        world.add_system(OnKeys(world, {pygame.K_p: lambda: self.game.push(PauseScene(self.art, self.demo))}))
        if self.demo is not None:
            world.add_system(Autoplay(self.demo.level), priority=1000)
        music = tile_map.properties.get("music")
        if music:
            self.art.audio.play_music(ASSETS / music, volume=0.5)

    def pause(self) -> None:
        self.art.audio.set_volume("music", 0.3)  # quieter behind the pause screen

    def resume(self) -> None:
        self.art.audio.set_volume("music", 1.0)

    def exit(self) -> None:
        self.art.audio.stop_music()

    # --- Factories: one per object class of the map -----------------------------

    def spawn_hero(self, world: World, obj: MapObject) -> int:
        self.hero = world.create_entity(
            Transform(obj.position), Collider(obj.size), Physics(max_speed=600), Touching(),
            Hero(respawn=obj.position), Sprite(image=self.art.hero["idle"].frames[0], offset=(-3, -4), layer=2),
            Animator(self.art.hero))
        return self.hero

    def spawn_coin(self, world: World, obj: MapObject) -> int:
        return world.create_entity(
            Transform(obj.position), Collider(obj.size, type=ColliderType.TRIGGER, shape=Shape.CIRCLE), Coin(),
            Sprite(image=self.art.coin["spin"].frames[0]), Animator(self.art.coin))

    def spawn_slime(self, world: World, obj: MapObject) -> int:
        return world.create_entity(
            Transform(obj.position), Collider(obj.size), Physics(velocity=(-30, 0)), Touching(), Slime(),
            Patrol(obj.properties["left"], obj.properties["right"] - obj.width),
            Sprite(image=self.art.slime["walk"].frames[0], offset=(-1, -2), layer=1), Animator(self.art.slime))

    def spawn_platform(self, world: World, obj: MapObject) -> int:
        speed = obj.properties.get("speed", 40.0)
        return world.create_entity(
            Transform(obj.position), Collider(obj.size, type=ColliderType.STATIC), Physics(velocity=(speed, 0)),
            Patrol(obj.x, obj.x + obj.properties["distance"], rest=obj.properties.get("rest", 0.0)),
            Sprite(image=self.art.platform))

    def spawn_flag(self, world: World, obj: MapObject) -> int:
        kind = Goal() if obj.kind == "goal" else Checkpoint()
        return world.create_entity(
            Transform(obj.position), Collider(obj.size, type=ColliderType.TRIGGER), kind,
            Sprite(image=self.art.flag["still"].frames[0]),
            Animator(self.art.flag, current="wave" if obj.kind == "goal" else "still"))

    # --- What touching things does -------------------------------------------------

    def touch(self, contact: Contact) -> None:
        """The collision handler: the hero meets coins, slimes, flags."""
        if self.hero not in (contact.a, contact.b) or not self.world.entity_exists(self.hero):
            return
        other = contact.b if contact.a == self.hero else contact.a
        if not self.world.entity_exists(other):
            return
        down = contact.normal.y if contact.a == self.hero else -contact.normal.y  # > 0: other is below
        if self.world.has_component(other, Coin):
            self.collect(other)
        elif self.world.has_component(other, Slime):
            if down > 0.5:
                self.stomp(other)
            else:
                self.hurt(self.hero)
        elif self.world.has_component(other, Checkpoint):
            self.reach_checkpoint(other)
        elif self.world.has_component(other, Goal):
            self.win()

    def collect(self, coin: int) -> None:
        where = self.world.component_for_entity(coin, Transform).position
        self.world.delete_entity(coin)
        progress = self.world.resource(Progress)
        progress.coins += 1
        self.art.play("coin", 0.5)
        # "+1" rises 24 px, slowing down, and the HUD's count hops 6 px and back (from where it rests,
        # so a hop cut short by the next coin never leaves it off its line).
        rise = Tween(Transform, "position.y", to=where.y - 26, duration=0.6, ease="out_cubic")
        self.world.create_entity(Transform(where + Vector2(5, -2)), Tweens([rise]), Lifetime(0.6),
                                 Text("+1", size=14, color=(255, 240, 150), anchor="midbottom", shadow=(60, 40, 20)))
        hop = Tween(Transform, "position.y", start=HUD_Y, to=HUD_Y - 6, duration=0.08, ease="out_quad", yoyo=True)
        self.world.add_component(progress.hud["coins"], Tweens([hop]))
        # Sparkles: a burst from the coin's middle, falling back, yellow to orange, fading.
        self.world.create_entity(Transform(where + Vector2(5, 6)), Lifetime(0.7), Emitter(
            burst=16, speed=(30, 90), lifetime=(0.3, 0.6), gravity=(0, 220), colors=((255, 245, 160), (255, 150, 40)),
            alpha=(1, 0), size=(2, 1), seed=coin))

    def stomp(self, slime: int) -> None:
        where = self.world.component_for_entity(slime, Transform).position
        self.world.delete_entity(slime)
        self.world.create_entity(Transform(where + Vector2(-1, 0)), Sprite(image=self.art.squashed, layer=1),
                                 Lifetime(0.5))
        self.world.component_for_entity(self.hero, Physics).velocity.y = -STOMP_BOUNCE
        self.art.play("stomp")
        self.camera.shake(3, 0.2)

    def hurt(self, hero: int, fell: bool = False) -> None:
        state = self.world.component_for_entity(hero, Hero)
        progress = self.world.resource(Progress)
        if (state.invulnerable > 0 and not fell) or progress.ending is not None:
            return
        progress.lives -= 1
        self.art.play("hurt")
        self.camera.shake(8, 0.5)
        if progress.lives <= 0:
            progress.ending = 0.0
            return
        state.invulnerable = INVULNERABLE
        if fell:
            transform = self.world.component_for_entity(hero, Transform)
            transform.position.update(state.respawn)
            transform.previous_position.update(state.respawn)
        self.world.component_for_entity(hero, Physics).velocity.update(0, -200 if not fell else 0)

    def reach_checkpoint(self, flag: int) -> None:
        checkpoint = self.world.component_for_entity(flag, Checkpoint)
        if not checkpoint.reached:
            checkpoint.reached = True
            self.world.component_for_entity(flag, Animator).play("wave")
            where = self.world.component_for_entity(flag, Transform).position
            self.world.component_for_entity(self.hero, Hero).respawn = Vector2(where.x + 3, where.y + 12)
            self.art.play("coin", 0.3)

    def win(self) -> None:
        progress = self.world.resource(Progress)
        if not progress.won:
            progress.won = True
            progress.ending = 2.0
            self.art.play("win")

    def finish(self) -> None:
        """Leave for the end screen."""
        progress = self.world.resource(Progress)
        progress.ending = None
        self.game.replace(EndScene(self.art, progress.won, progress.coins, progress.total, progress.time,
                                   self.demo), transition=Fade(0.8))


class TitleScene(Scene):
    """The title: the hero idling on a strip of grass, coins spinning, Enter starts."""

    def __init__(self, art: Art, demo: Demo | None = None) -> None:
        super().__init__(background=(134, 191, 240))
        self.art, self.demo = art, demo

    def enter(self) -> None:
        world, art = self.world, self.art
        self.camera.zoom = 3  # world px are 3 screen px: a 267×160 px stage
        self.camera.center_on((0, 0))
        for x in range(-9, 9):
            world.create_entity(Transform((x * 16, 24)), Sprite(image=art.tiles[0]))
            for y in (40, 56, 72):
                world.create_entity(Transform((x * 16, y)), Sprite(image=art.tiles[3]))
        for x, tile in ((-7, 8), (-6, 9), (5, 10), (6, 11), (-3, 15)):
            world.create_entity(Transform((x * 16, 8)), Sprite(image=art.tiles[tile]))
        world.create_entity(Transform((-8, 0)), Sprite(image=art.hero["idle"].frames[0], layer=2),
                            Animator(art.hero))
        for x in (-40, 30, 50):
            world.create_entity(Transform((x, 6)), Sprite(image=art.coin["spin"].frames[0]), Animator(art.coin))
        write(world, "ADVENTURE", (400, 90), 96, color=(255, 236, 140))
        write(world, "a level made in Tiled, for ecs-arcade", (400, 150), 28)
        world.create_entity(Transform((400, 410)), Text("press Enter to start", size=34, screen=True,
                                                        anchor="center", shadow=SHADOW), Blinking())
        write(world, "arrows run   space jumps   P pauses   Esc quits", (400, 450), 24, color=(230, 240, 255))
        world.add_system(Blink(world))
        world.add_system(OnKeys(world, {pygame.K_RETURN: self.start}))
        if self.demo is not None:
            world.add_system(Autoplay(self.demo.title), priority=1000)

    def start(self) -> None:
        self.game.replace(LevelScene(self.art, self.demo), transition=Fade(0.6))


class PauseScene(Scene):
    """Drawn over the frozen level: the level dims, P resumes."""

    transparent = True

    def __init__(self, art: Art, demo: Demo | None = None) -> None:
        super().__init__()
        self.art, self.demo = art, demo

    def enter(self) -> None:
        world = self.world
        self.add_draw_system(Dim(), priority=200)  # before this scene's text
        write(world, "PAUSED", (400, 210), 80)
        write(world, "P resumes   Esc quits", (400, 270), 30)
        world.add_system(OnKeys(world, {pygame.K_p: self.game.pop}))
        if self.demo is not None:
            world.add_system(Autoplay(self.demo.pause), priority=1000)


class Dim:
    """A draw system: darken whatever was drawn so far."""

    def __init__(self) -> None:
        self.veil: pygame.Surface | None = None

    def process(self, surface: pygame.Surface, alpha: float) -> None:
        if self.veil is None or self.veil.get_size() != surface.get_size():
            self.veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            self.veil.fill((10, 12, 30, 150))
        surface.blit(self.veil, (0, 0))


class EndScene(Scene):
    """Level complete, or game over; Enter plays again."""

    def __init__(self, art: Art, won: bool, coins: int, total: int, time: float, demo: Demo | None = None) -> None:
        super().__init__(background=(40, 70, 120) if won else (60, 30, 50))
        self.art, self.demo = art, demo
        self.lines = ("LEVEL COMPLETE!" if won else "GAME OVER",
                      f"coins {coins}/{total}     time {int(time // 60)}:{time % 60:04.1f}")

    def enter(self) -> None:
        world = self.world
        write(world, self.lines[0], (400, 180), 80, color=(255, 236, 140))
        write(world, self.lines[1], (400, 260), 36)
        world.create_entity(Transform((400, 380)), Text("press Enter to play again", size=30, screen=True,
                                                        anchor="center", shadow=SHADOW), Blinking())
        world.add_system(Blink(world))
        world.add_system(OnKeys(world, {pygame.K_RETURN: lambda: self.game.replace(
            LevelScene(self.art, self.demo))}))

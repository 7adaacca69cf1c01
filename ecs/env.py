"""SceneEnv: a Gymnasium environment made from a scene of your game.

Needs the ``rl`` extra (``pip install -e .[rl]``, which brings ``gymnasium``); the rest of
the package never imports this module.

An episode is a fresh scene made by your factory, hosted by a ``Game`` that draws into a
Surface of its own (no window, no event queue: many environments live in one process). An
action becomes the keys held for the next ``frame_skip`` physics steps (``Input.hold``), or
is handed to your ``act`` callback; an observation is the picture of the screen or a vector
from your ``observe`` callback; rewards and the end of an episode come from your callbacks.
Everything an episode does follows from the seed: ``reset(seed=s)`` then the same actions
give the same observations, rewards and ends, bit for bit, in any process.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

import gymnasium
import numpy as np
import pygame
from gymnasium import spaces
from numpy.typing import NDArray

from components._checks import whole_number
from ecs.game import Game
from ecs.scene import Scene

__all__ = ["SceneEnv"]

Observation = NDArray[Any]


class SceneEnv(gymnasium.Env[Observation, Any]):
    """A Gymnasium ``Env`` whose episodes are scenes of a game.

    ``make_scene(seed)`` returns a new ``Scene``; ``seed`` is the one given to ``reset``, or
    else an int in [0, 2**31) drawn from the environment's generator (seeded by the last
    ``reset(seed=...)``, so that it fixes every episode after it too). Its
    ``enter`` builds the World as in the game; scene changes it asks for (``self.game.push``,
    ``replace``, ``pop``) happen as in the game, and an episode whose game has no scene left
    ends.

    Actions, one of:

    * ``keys``: a list of key sets (pygame key codes); action ``i`` (``Discrete(len(keys))``)
      holds exactly ``keys[i]`` down, so a key held in two actions in a row is pressed once.
    * ``act(scene, action)`` with its ``action_space``: your code does what the action means
      (sets ``scene.input``, steers a body directly...).

    Observations: ``observe(scene)`` returns an array in ``observation_space`` (a ``Box``), or,
    without it, the picture of the screen: ``pixels`` (width, height) px of RGB, ``uint8``,
    shaped (height, width, 3), the screen scaled to it (nearest pixel) when sizes differ.

    Rewards, one of: ``reward(scene)``, called after every physics step and summed over the
    ``frame_skip`` steps of an action; or ``score(scene)``, a running score (coins, kills),
    whose rise over the action's steps is the reward. ``terminated(scene)``, called after
    every physics step, ends the episode when True. All three get the scene ``make_scene``
    made, also once the game has moved on from it. Cut
    episodes short with ``gymnasium.wrappers.TimeLimit`` (``max_episode_steps`` when
    registering).

    ``size`` is the screen (px), ``step`` a physics step (s), ``render_mode`` "rgb_array"
    (``render`` returns the screen's picture) or "human" (a window, drawn at every step at
    ``metadata["render_fps"]``). ``info`` holds the physics ``steps`` of the episode.
    """

    metadata = {"render_modes": ["rgb_array", "human"], "render_fps": 60}

    def __init__(
        self,
        make_scene: Callable[[int], Scene],
        *,
        keys: Sequence[Collection[int]] | None = None,
        act: Callable[[Scene, Any], None] | None = None,
        action_space: spaces.Space[Any] | None = None,
        observe: Callable[[Scene], Observation] | None = None,
        observation_space: spaces.Box | None = None,
        pixels: tuple[int, int] | None = None,
        reward: Callable[[Scene], float] | None = None,
        score: Callable[[Scene], float] | None = None,
        terminated: Callable[[Scene], bool] | None = None,
        size: tuple[int, int] = (320, 240),
        step: float = 1 / 60,
        frame_skip: int = 1,
        render_mode: str | None = None,
    ) -> None:
        if not callable(make_scene):
            raise ValueError(f"make_scene must be a function of the seed returning a Scene, got {make_scene!r}")
        self.make_scene = make_scene
        self.keys, self.act, self.action_space = _actions(keys, act, action_space)
        self.observe = observe
        self.size = _size("size", size)
        if observe is not None and pixels is not None:
            raise ValueError("pixels goes with pictures; observe returns observations of its own (give one of the two)")
        self.pixels = _size("pixels", pixels) if pixels is not None else self.size
        self.observation_space = _observations(observe, observation_space, self.pixels)
        if reward is not None and score is not None:
            raise ValueError("give SceneEnv a reward or a score, not both")
        for name, function in (("reward", reward), ("score", score), ("terminated", terminated)):
            if function is not None and not callable(function):
                raise ValueError(f"{name} must be a function of the scene, got {function!r}")
        self.reward, self.score = reward, score
        self.terminated = terminated or (lambda scene: False)
        self.frame_skip, self.step_length = whole_number("frame_skip", frame_skip, 1), step
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.game: Game | None = None
        self.scene: Scene | None = None
        self.steps = 0
        self._screen = pygame.Surface(self.size)
        self._window: pygame.Surface | None = None
        self._clock = pygame.time.Clock()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """Start an episode: a new scene from ``make_scene``, entered and not yet stepped."""
        super().reset(seed=seed)
        self._end_episode()
        scene = self.make_scene(seed if seed is not None else int(self.np_random.integers(2**31)))
        if not isinstance(scene, Scene):
            raise ValueError(f"make_scene must return a Scene, got {scene!r}")
        self.scene, self.steps = scene, 0
        self.game = Game(scene=scene, screen=self._screen, step=self.step_length, freeze_on_enter=False)
        observation = self._observation(scene)
        if self.render_mode == "human":
            self._show()
        return observation, {"steps": 0}

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Hold the action's keys (or ``act``) for ``frame_skip`` physics steps."""
        game, scene = self.game, self.scene
        if game is None or scene is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        action = _action_in(self.action_space, action)
        if self.act is not None:
            self.act(scene, action)
        else:
            game.input.hold(self.keys[int(action)])
        # The score is read as this action begins, not kept from the last: a World restored
        # between actions (``world.restore``) rewards from the score it brought back.
        total, ended, score = 0.0, False, self._score(scene)
        for _ in range(self.frame_skip):
            game.advance()
            self.steps += 1
            if self.reward is not None:
                total += _finite("reward", self.reward(scene))
            else:
                score, before = self._score(scene), score
                total += score - before
            ended = not game.scenes or bool(self.terminated(scene))
            if ended:
                break
        observation = self._observation(scene)
        if self.render_mode == "human":
            self._show()
        return observation, total, ended, False, {"steps": self.steps}

    def render(self) -> Observation | None:
        """The screen as (height, width, 3) RGB ``uint8`` ("rgb_array"), or drawn in the window ("human")."""
        if self.game is None:
            raise gymnasium.error.ResetNeeded("call reset() before render()")
        if self.render_mode == "human":
            self._show()
            return None
        if self.render_mode == "rgb_array":
            self.game.draw()
            return _picture(self._screen, self.size)
        gymnasium.logger.warn("render() does nothing without a render_mode: make the environment with "
                              "render_mode='rgb_array' or 'human'")
        return None

    def close(self) -> None:
        """Close the episode's Worlds and the window, if one opened."""
        self._end_episode()
        if self._window is not None:
            pygame.display.quit()
            self._window = None

    def _score(self, scene: Scene) -> float:
        """The running score now (0 without ``score``)."""
        return 0.0 if self.score is None else _finite("score", self.score(scene))

    def _observation(self, scene: Scene) -> Observation:
        if self.observe is None:
            assert self.game is not None
            self.game.draw()
            return _picture(self._screen, self.pixels)
        observation = np.asarray(self.observe(scene), dtype=self.observation_space.dtype)
        if observation.shape != self.observation_space.shape:
            raise ValueError(f"observe returned an array of shape {observation.shape}, but the observation "
                             f"space's shape is {self.observation_space.shape}")
        space = self.observation_space
        assert isinstance(space, spaces.Box)  # (``_observations`` makes it one)
        if not space.contains(observation):
            outside = np.flatnonzero(~((observation >= space.low) & (observation <= space.high)))
            raise ValueError(f"observe returned values outside the observation space {space}: "
                             f"{observation.flat[outside[:5]].tolist()} at flat index {outside[:5].tolist()} "
                             f"(NaN is outside any bounds)")
        return observation

    def _show(self) -> None:
        """Draw the game into the window (opened at the first call) and keep the window's events flowing."""
        assert self.game is not None
        if self._window is None:
            pygame.display.init()
            self._window = pygame.display.set_mode(self.size)
        self.game.draw()
        self._window.blit(self._screen, (0, 0))
        pygame.event.pump()
        pygame.display.flip()
        self._clock.tick(self.metadata["render_fps"])

    def _end_episode(self) -> None:
        """Close the Worlds of the episode that ends (esper keeps each until it is closed)."""
        scenes = ([self.scene] if self.scene is not None else []) + (self.game.scenes if self.game else [])
        for scene in scenes:
            if not scene.world.closed:
                scene.world.close()
        self.game, self.scene = None, None


def _actions(keys: Sequence[Collection[int]] | None, act: Callable[[Scene, Any], None] | None,
             space: spaces.Space[Any] | None) -> tuple[list[frozenset[int]], Callable[[Scene, Any], None] | None,
                                                        spaces.Space[Any]]:
    """The key sets, the callback and the action space, checked: keys, or act with its space."""
    if (keys is None) == (act is None):
        raise ValueError("give SceneEnv either keys (a list of key sets) or act (a callback) with its action_space")
    if act is not None:
        if not callable(act) or not isinstance(space, spaces.Space):
            raise ValueError(f"act must be a function (scene, action) with an action_space (a gymnasium "
                             f"Space), got act={act!r}, action_space={space!r}")
        return [], act, space
    assert keys is not None
    if isinstance(keys, (str, bytes)) or not keys:
        raise ValueError(f"keys must be a non-empty list of key sets, got {keys!r}")
    sets = []
    for index, held in enumerate(keys):
        if not all(isinstance(key, int) and not isinstance(key, bool) for key in held):
            raise ValueError(f"keys[{index}] must hold pygame key codes (ints), got {held!r}")
        sets.append(frozenset(held))
    return sets, None, spaces.Discrete(len(sets))


def _action_in(space: spaces.Space[Any], action: Any) -> Any:
    """``action`` if it is in ``space``; for a ``Box``, any array of its shape whose values,
    as its dtype, lie within its bounds (float64 for a float32 space, as NumPy makes them), cast
    to its dtype. Else ``ValueError`` saying what is wrong: shape, bounds, or not in the space."""
    if not isinstance(space, spaces.Box):
        if not space.contains(action):
            raise ValueError(f"action {action!r} is not in the action space {space}")
        return action
    try:
        cast = np.asarray(action, dtype=space.dtype)
    except (TypeError, ValueError):
        raise ValueError(f"action {action!r} is not in the action space {space}") from None
    if cast.shape != space.shape:
        raise ValueError(f"action {action!r} has shape {cast.shape}; the action space {space} takes {space.shape}")
    if not space.contains(cast):
        raise ValueError(f"action {action!r} is outside the action space's bounds [{space.low}, {space.high}] "
                         f"(gymnasium.wrappers.ClipAction clips a policy's actions to them)")
    return cast


def _finite(name: str, value: object) -> float:
    """``value`` (a reward or score callback's result) as a finite float, else ``ValueError`` naming it."""
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must return a number, got {value!r}") from None
    if not np.isfinite(number):
        raise ValueError(f"{name} returned {number}: rewards and scores must be finite")
    return number


def _observations(observe: Callable[[Scene], Observation] | None, space: spaces.Box | None,
                  pixels: tuple[int, int]) -> spaces.Box:
    """The observation space: the user's ``Box`` for ``observe``, or the picture's."""
    if observe is None:
        if space is not None:
            raise ValueError("observation_space goes with observe; pictures have their own (set pixels)")
        return spaces.Box(0, 255, (pixels[1], pixels[0], 3), np.uint8)
    if not callable(observe) or not isinstance(space, spaces.Box):
        raise ValueError(f"observe must be a function of the scene with an observation_space (a gymnasium "
                         f"Box), got observe={observe!r}, observation_space={space!r}")
    return space


def _size(name: str, size: object) -> tuple[int, int]:
    """``size`` as (width, height) px, both whole and >= 1."""
    if not isinstance(size, (tuple, list)) or len(size) != 2:
        raise ValueError(f"{name} must be (width, height) in whole px >= 1, got {size!r}")
    return whole_number(f"{name}[0]", size[0], 1, " px"), whole_number(f"{name}[1]", size[1], 1, " px")


def _picture(surface: pygame.Surface, size: tuple[int, int]) -> Observation:
    """``surface`` as (height, width, 3) RGB bytes, scaled to ``size`` (nearest pixel) first if it differs."""
    if surface.get_size() != size:
        surface = pygame.transform.scale(surface, size)
    pixels = np.frombuffer(bytearray(pygame.image.tobytes(surface, "RGB")), dtype=np.uint8)  # (writable)
    return pixels.reshape(size[1], size[0], 3)

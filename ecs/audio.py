"""Audio: sound effects and music through pygame.mixer, silent without a device."""

from __future__ import annotations

import logging
import os

import pygame

from components._checks import finite_number

__all__ = ["Audio"]

log = logging.getLogger(__name__)


class Audio:
    """Loads and plays sound effects and music; a world resource.

    Where there is no audio device (a server, CI, a headless run without
    SDL's dummy driver) ``enabled`` is False, ``reason`` says why, and every
    method quietly does nothing: a game runs the same with or without sound.
    ``Audio(enabled=False)`` mutes on purpose. Files are still checked, so a
    misspelt path fails everywhere, not only on machines with speakers.

    Volumes run from 0.0 (silent) to 1.0 (full) per channel: "master"
    scales everything, "music" the music, and every sound belongs to a
    channel of its own choosing ("effects" unless ``load`` says otherwise,
    e.g. "voices"). A sound plays at master × its channel × the volume
    passed to ``play``.
    """

    def __init__(self, enabled: bool = True, frequency: int = 44100, buffer: int = 512) -> None:
        self.enabled = False
        self.reason = "disabled by the game" if not enabled else ""
        self.sounds: dict[str, tuple[pygame.mixer.Sound | None, str]] = {}
        self.volumes: dict[str, float] = {"master": 1.0, "music": 1.0, "effects": 1.0}
        self._music_volume = 1.0
        if enabled:
            try:
                if not pygame.mixer.get_init():
                    pygame.mixer.init(frequency=frequency, buffer=buffer)
                self.enabled = True
            except pygame.error as error:  # no device: carry on in silence
                self.reason = str(error) or "no audio device"
                log.info("audio disabled: %s", self.reason)

    def load(self, name: str, path: str | os.PathLike[str], channel: str = "effects") -> None:
        """Load the sound file at ``path`` (WAV or OGG) under ``name``, played
        on ``channel``."""
        if not os.path.isfile(path):
            raise FileNotFoundError(f"no sound file at {os.fspath(path)!r}")
        sound = None
        if self.enabled:
            try:
                sound = pygame.mixer.Sound(os.fspath(path))
            except pygame.error as error:
                raise ValueError(f"{os.fspath(path)!r} is not a sound pygame can read: {error}") from error
        self.sounds[name] = (sound, channel)
        self.volumes.setdefault(channel, 1.0)

    def play(self, name: str, volume: float = 1.0) -> pygame.mixer.Channel | None:
        """Play the sound loaded as ``name`` once, at ``volume`` (0..1) of its
        channel; returns the mixer channel playing it (to stop or fade it), or
        None when silent or every mixer channel is busy."""
        if name not in self.sounds:
            raise ValueError(f"no sound named {name!r}; loaded: {sorted(self.sounds)}")
        volume = _unit("volume", volume)
        sound, channel = self.sounds[name]
        if sound is None:
            return None
        playing = sound.play()
        if playing is not None:
            playing.set_volume(volume * self.volumes[channel] * self.volumes["master"])
        return playing

    def play_music(self, path: str | os.PathLike[str], loops: int = -1, volume: float = 1.0) -> None:
        """Stream the music file at ``path``, ``loops`` more times (-1: forever),
        at ``volume`` (0..1) of the music channel; replaces any music playing."""
        if not os.path.isfile(path):
            raise FileNotFoundError(f"no music file at {os.fspath(path)!r}")
        self._music_volume = _unit("volume", volume)
        if not self.enabled:
            return
        try:
            pygame.mixer.music.load(os.fspath(path))
        except pygame.error as error:
            raise ValueError(f"{os.fspath(path)!r} is not music pygame can read: {error}") from error
        self._apply_music_volume()
        pygame.mixer.music.play(loops)

    def stop_music(self) -> None:
        """Stop the music."""
        if self.enabled:
            pygame.mixer.music.stop()

    def set_volume(self, channel: str, volume: float) -> None:
        """Set ``channel``'s volume (0..1): "master", "music", "effects" or a
        channel named in ``load``. Sounds already playing keep theirs; music
        changes at once."""
        self.volumes[channel] = _unit(f"volume of {channel!r}", volume)
        self._apply_music_volume()

    def volume(self, channel: str) -> float:
        """``channel``'s volume, 0..1."""
        if channel not in self.volumes:
            raise ValueError(f"no channel named {channel!r}; have {sorted(self.volumes)}")
        return self.volumes[channel]

    def _apply_music_volume(self) -> None:
        if self.enabled:
            pygame.mixer.music.set_volume(self._music_volume * self.volumes["music"] * self.volumes["master"])

    def close(self) -> None:
        """Stop everything and release the audio device."""
        if self.enabled:
            pygame.mixer.music.stop()
            pygame.mixer.quit()
            self.sounds = {name: (None, channel) for name, (_, channel) in self.sounds.items()}
            self.enabled = False
            self.reason = "closed"


def _unit(name: str, value: float) -> float:
    value = finite_number(name, value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be between 0.0 and 1.0, got {value!r}")
    return value

"""Audio: sound effects and music through pygame.mixer, silent without a device."""

from __future__ import annotations

import logging
import os
import weakref

import pygame

from components._checks import finite_number

__all__ = ["Audio"]

log = logging.getLogger(__name__)

# A mixer a process had open when it forked (a vector environment's workers) is unusable in
# the child: SDL's audio thread did not come along, and a lock it held at the fork stays
# held, so making, playing or freeing a sound there can wait forever. A forked child leaves
# that mixer alone: its Audio is silent, sound files are not decoded, and the sounds it
# inherited are kept, never freed.
_forked_with_mixer = False
_audios: weakref.WeakSet[Audio] = weakref.WeakSet()
_kept: list[pygame.mixer.Sound] = []


def _leave_inherited_mixer() -> None:
    global _forked_with_mixer
    if pygame.mixer.get_init():  # (reads the mixer's state, takes no lock)
        _forked_with_mixer = True
        _kept.extend(sound for audio in list(_audios) for sound, _ in audio.sounds.values() if sound is not None)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_leave_inherited_mixer)


class Audio:
    """Loads and plays sound effects and music; a world resource.

    Where there is no audio device (a server, CI, a headless run without
    SDL's dummy driver) ``enabled`` is False, ``reason`` says why, and every
    method quietly does nothing: a game runs the same with or without sound.
    ``Audio(enabled=False)`` mutes on purpose. Files are still checked, so a
    misspelt path fails everywhere, not only on machines with speakers. In
    a process forked while the mixer was open (a vector environment's
    workers) an Audio is silent: that mixer can't be used there.

    Volumes run from 0.0 (silent) to 1.0 (full) per channel: "master"
    scales everything, "music" the music, and every sound belongs to a
    channel of its own choosing ("effects" unless ``load`` says otherwise,
    e.g. "voices"). A sound plays at master × its channel × the volume
    passed to ``play``.
    """

    def __init__(self, enabled: bool = True, frequency: int = 44100, buffer: int = 512) -> None:
        if not isinstance(enabled, bool):
            raise ValueError(f"enabled must be a bool, got {enabled!r}")
        frequency = _whole("frequency", frequency, 8000, 192000, " Hz")
        buffer = _whole("buffer", buffer, 16, 65536, " samples")
        self.enabled = False
        self.reason = "disabled by the game" if not enabled else ""
        self.sounds: dict[str, tuple[pygame.mixer.Sound | None, str]] = {}
        self.volumes: dict[str, float] = {"master": 1.0, "music": 1.0, "effects": 1.0}
        self._music_volume = 1.0
        _audios.add(self)
        if enabled and _forked_with_mixer:
            self.reason = "forked from a process with the mixer open: its mixer can't be used here"
            log.info("audio disabled: %s", self.reason)
        elif enabled:
            try:
                if not pygame.mixer.get_init():
                    pygame.mixer.init(frequency=frequency, buffer=buffer)
                self.enabled = True
            except pygame.error as error:  # no device: carry on in silence
                self.reason = str(error) or "no audio device"
                log.info("audio disabled: %s", self.reason)

    def load(self, name: str, path: str | os.PathLike[str], channel: str = "effects") -> None:
        """Load the sound file at ``path`` (WAV or OGG) under ``name``, played
        on ``channel``. ``FileNotFoundError`` when there is no file at
        ``path``, ``ValueError`` when it is not a sound pygame can read;
        silent or not, the file is read (see ``check_sound``)."""
        _name("name", name)
        _name("channel", channel)
        file = _sound_path(path)
        sound = None
        if self.enabled:
            try:
                sound = pygame.mixer.Sound(file)
            except pygame.error as error:
                raise ValueError(f"{file!r} is not a sound pygame can read: {error}") from error
        else:
            check_sound(file)
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
        """Stream the music file at ``path``, ``loops`` more times (an int >= 0,
        or -1: forever), at ``volume`` (0..1) of the music channel; replaces
        any music playing. The file is checked as ``load`` checks it."""
        file = _sound_path(path, "music")
        if isinstance(loops, bool) or not isinstance(loops, int) or loops < -1:
            raise ValueError(f"loops must be an int >= -1 (-1 plays forever), got {loops!r}")
        music_volume = _unit("volume", volume)
        if not self.enabled:
            check_sound(file, music=True)
            self._music_volume = music_volume
            return
        try:
            pygame.mixer.music.load(file)
        except pygame.error as error:
            raise ValueError(f"{file!r} is not music pygame can read: {error}") from error
        self._music_volume = music_volume
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
        _name("channel", channel)
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


def _name(field: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{field} must be a non-empty str, got {value!r}")
    return value


def _whole(field: str, value: object, low: int, high: int, unit: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{field} must be an int in [{low}, {high}]{unit}, got {value!r}")
    return value


def _sound_path(path: object, kind: str = "sound") -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"path must be a {kind} file's path, got {path!r}")
    file = os.fspath(path)
    if not isinstance(file, str) or not os.path.isfile(file):
        raise FileNotFoundError(f"no {kind} file at {file!r}")
    return file


def check_sound(path: str, music: bool = False) -> None:
    """Raise ``ValueError`` naming ``path`` unless pygame reads it as a sound
    (as music if ``music``), even where no sound plays: a corrupt file then
    fails on every machine, not only on those with speakers. With the mixer
    closed, it is opened for the check on SDL's "dummy" audio driver, which
    needs no device, and closed again; with it open (another Audio plays),
    music is read as a sound, so that the music playing is not replaced. In a
    process forked while the mixer was open the file is not decoded (see
    ``_leave_inherited_mixer``): the parent read it, or will.
    (The driver is picked through the process's environment: don't load
    sounds on one thread while another opens the mixer.)"""
    opened = False
    if _forked_with_mixer:
        log.info("sound file %s not decoded: this process was forked with the mixer open", path)
        return
    if not pygame.mixer.get_init():
        driver = os.environ.get("SDL_AUDIODRIVER")
        os.environ["SDL_AUDIODRIVER"] = "dummy"
        try:
            pygame.mixer.init()
            opened = True
        except pygame.error as error:  # an SDL without its dummy driver: the file exists, no more is known
            log.info("sound files not checked: %s", error)
            return
        finally:
            if driver is None:
                del os.environ["SDL_AUDIODRIVER"]
            else:
                os.environ["SDL_AUDIODRIVER"] = driver
    try:
        if music and opened:
            pygame.mixer.music.load(path)
        else:
            pygame.mixer.Sound(path)
    except pygame.error as error:
        raise ValueError(f"{path!r} is not {'music' if music else 'a sound'} pygame can read: {error}") from error
    finally:
        if opened:
            pygame.mixer.quit()


def _unit(name: str, value: float) -> float:
    value = finite_number(name, value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be between 0.0 and 1.0, got {value!r}")
    return value

"""Audio: plays on a device, and is silent, never failing, without one."""

import os
import subprocess
import sys

import pygame
import pytest

from ecs import Audio
from helpers import write_wav


def test_without_an_audio_device_everything_is_quietly_a_no_op(tmp_path, monkeypatch):
    def no_device(*args, **kwargs):
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    audio = Audio()
    assert not audio.enabled and "audio device" in audio.reason
    coin = write_wav(tmp_path / "coin.wav")
    audio.load("coin", coin)
    assert audio.play("coin", volume=0.5) is None
    audio.play_music(coin)
    audio.set_volume("music", 0.3)
    audio.stop_music()
    audio.close()
    # Mistakes are still mistakes, device or not.
    with pytest.raises(FileNotFoundError):
        audio.load("jump", tmp_path / "jump.wav")
    with pytest.raises(ValueError, match="no sound named 'jump'"):
        audio.play("jump")
    with pytest.raises(ValueError, match="volume"):
        audio.play("coin", volume=2)


def test_a_real_pygame_without_a_device_raises_nothing(tmp_path):
    coin = write_wav(tmp_path / "coin.wav")
    script = (
        "from ecs import Audio\n"
        "audio = Audio()\n"
        f"audio.load('coin', {str(coin)!r}); audio.play('coin'); audio.play_music({str(coin)!r})\n"
        "print(audio.enabled, bool(audio.reason))\n"
    )
    env = dict(os.environ, SDL_AUDIODRIVER="no-such-device")  # SDL finds no device to open
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_sounds_play_at_master_times_channel_times_their_own_volume(tmp_path):
    audio = Audio()  # the tests run on SDL's dummy audio driver: a device that plays nothing
    assert audio.enabled
    audio.load("coin", write_wav(tmp_path / "coin.wav"))
    audio.load("hello", write_wav(tmp_path / "hello.wav"), channel="voices")
    audio.set_volume("master", 0.5)
    audio.set_volume("effects", 0.8)
    channel = audio.play("coin", volume=0.5)
    assert channel is not None
    assert channel.get_volume() == pytest.approx(0.5 * 0.8 * 0.5, abs=0.01)  # mixer volumes are 1/128 steps
    assert audio.volume("voices") == 1.0
    channel = audio.play("hello")
    assert channel.get_volume() == pytest.approx(0.5, abs=0.01)
    audio.play_music(tmp_path / "coin.wav", loops=0, volume=0.5)
    assert pygame.mixer.music.get_volume() == pytest.approx(0.5 * 1.0 * 0.5, abs=0.01)
    with pytest.raises(ValueError, match="no channel"):
        audio.volume("nope")
    audio.close()
    assert not audio.enabled and audio.play("coin") is None


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")
def test_a_process_forked_with_the_mixer_open_leaves_that_mixer_alone(tmp_path):
    # A vector environment's workers are forked from a process whose Audio may be open. In
    # the child SDL's audio thread is gone and a lock it held at the fork stays held: a Sound
    # made, played or freed there can wait forever (seen in CI). So the child's Audio is
    # silent and says why, a file is not decoded, and the parent's sounds are never freed.
    import time

    from ecs import audio as audio_module

    parent = Audio()
    assert parent.enabled
    parent.load("coin", write_wav(tmp_path / "coin.wav"))
    child = os.fork()
    if child == 0:  # the child: any touch of the mixer fails the test
        code = 1
        try:
            def touched(*_args, **_kwargs):
                raise AssertionError("the inherited mixer was used")
            pygame.mixer.Sound = touched
            audio = Audio()
            audio.load("coin", tmp_path / "coin.wav")
            kept = [id(sound) for sound in audio_module._kept]
            if not audio.enabled and "forked" in audio.reason and id(parent.sounds["coin"][0]) in kept:
                code = 0
        finally:
            os._exit(code)
    deadline = time.monotonic() + 20
    while (done := os.waitpid(child, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    if done[0] == 0:
        os.kill(child, 9)
        os.waitpid(child, 0)
    assert done[0] == child and os.waitstatus_to_exitcode(done[1]) == 0
    assert parent.play("coin") is not None  # the parent's mixer is untouched
    parent.close()

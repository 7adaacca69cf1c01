"""The kernels' switch and their disk cache.

A typo in ``ECS_ARCADE_JIT`` must not turn the kernels off unnoticed, and a
cache file numba cannot read back must be rebuilt, not crash the first
step. The cache tests compile a one-line function of their own, in a module
written to a temporary folder (numba caches next to the source, in its
``__pycache__``), so the project's own cache is never touched.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import logging
import sys
import types
from pathlib import Path
from types import ModuleType

import pytest

import systems.physics._kernels.jit
from systems.physics._kernels import jit, plain
PROJECT = {"systems", "components", "ecs"}

PROBE = '''
from systems.physics._kernels.jit import kernel


@kernel
def add_one(x):
    return x + 1
'''


@pytest.mark.parametrize("value", ["true", "True", "yes", "on", "2", "", " 1", "python"])
def test_an_unknown_switch_value_is_refused_naming_the_variable_and_its_values(value):
    with pytest.raises(ValueError, match=r"ECS_ARCADE_JIT must be one of '1', '0'.*got"):
        jit.mode(value)


@pytest.mark.parametrize("value, expected", [(None, "1"), ("1", "1"), ("0", "0")])
def test_the_known_switch_values_and_unset(value, expected):
    assert jit.mode(value) == expected


def test_importing_the_kernels_with_an_unknown_switch_value_fails(monkeypatch):
    # The module reads the variable when imported: run a copy of it.
    monkeypatch.setenv("ECS_ARCADE_JIT", "true")
    spec = importlib.util.spec_from_file_location("jit_with_a_typo", systems.physics._kernels.jit.__file__)
    assert spec is not None and spec.loader is not None
    with pytest.raises(ValueError, match="ECS_ARCADE_JIT.*'true'"):
        spec.loader.exec_module(importlib.util.module_from_spec(spec))


def load_probe(folder: Path) -> ModuleType:
    """Import (again) the probe module in ``folder``: a fresh numba
    dispatcher, which reads the cache the last one wrote."""
    name = "jit_cache_probe"
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


@pytest.mark.skipif(not jit.COMPILED, reason="the kernels are not compiled (ECS_ARCADE_JIT or no numba)")
@pytest.mark.parametrize("damaged", ["index", "data"])
def test_a_corrupted_cache_file_is_rebuilt_with_one_line_saying_so(tmp_path, caplog, damaged):
    (tmp_path / "jit_cache_probe.py").write_text(PROBE)
    assert load_probe(tmp_path).add_one(1) == 2  # compiled, and cached
    cache = tmp_path / "__pycache__"
    pattern = "*.nbi" if damaged == "index" else "*.nbc"
    files = sorted(cache.glob(pattern))
    assert len(files) == 1
    files[0].write_bytes(b"\x80\x05 not a pickle")  # as a crash mid-write or a bad disk leaves it
    with caplog.at_level(logging.WARNING, logger="ecs_arcade"):
        assert load_probe(tmp_path).add_one(1) == 2
    lines = [record.getMessage() for record in caplog.records if record.name == "ecs_arcade"]
    assert len(lines) == 1 and "\n" not in lines[0]
    assert "jit_cache_probe" in lines[0] and "rebuild" in lines[0]
    caplog.clear()
    # The rebuilt cache is read back by the next dispatcher, silently.
    with caplog.at_level(logging.WARNING, logger="ecs_arcade"):
        again = load_probe(tmp_path).add_one
        assert again(1) == 2
    assert not caplog.records
    assert sum(again.stats.cache_hits.values()) == 1


@pytest.mark.skipif(not jit.COMPILED, reason="the kernels are not compiled (ECS_ARCADE_JIT or no numba)")
def test_a_corrupted_cache_that_cannot_be_removed_is_compiled_without_caching(tmp_path, caplog, monkeypatch):
    # A read-only folder (or a file held open elsewhere) refuses the removal:
    # the function must still compile and run, with one line saying why it
    # is not cached, and the unreadable file is left as it was.
    (tmp_path / "jit_cache_probe.py").write_text(PROBE)
    assert load_probe(tmp_path).add_one(1) == 2
    index = next((tmp_path / "__pycache__").glob("*.nbi"))
    damaged = b"\x80\x05 not a pickle"
    index.write_bytes(damaged)

    def refuse(path: str) -> None:
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(systems.physics._kernels.jit.os, "remove", refuse)
    with caplog.at_level(logging.WARNING, logger="ecs_arcade"):
        assert load_probe(tmp_path).add_one(41) == 42
    lines = [record.getMessage() for record in caplog.records if record.name == "ecs_arcade"]
    assert len(lines) == 1 and "\n" not in lines[0]
    assert "jit_cache_probe" in lines[0] and "not caching" in lines[0] and "PermissionError" in lines[0]
    assert index.read_bytes() == damaged


@pytest.mark.skipif(not jit.COMPILED, reason="the kernels are not compiled (ECS_ARCADE_JIT or no numba)")
def test_a_cached_kernel_is_compiled_again_when_the_kernel_sources_change(tmp_path, monkeypatch):
    # numba keys a cache on the function's own bytecode: a helper edited in
    # another module would leave the caller's stale machine code in use.
    (tmp_path / "jit_cache_probe.py").write_text(PROBE)
    assert load_probe(tmp_path).add_one(1) == 2  # compiled, and cached
    warm = load_probe(tmp_path).add_one
    assert warm(1) == 2 and sum(warm.stats.cache_hits.values()) == 1
    monkeypatch.setattr(jit, "_DIGEST", jit.sources_digest(()))  # as after an edit of a kernel source
    cold = load_probe(tmp_path).add_one
    assert cold(1) == 2 and sum(cold.stats.cache_hits.values()) == 0
    assert sum(cold.stats.cache_misses.values()) == 1


def test_the_sources_digest_follows_each_file_s_content(tmp_path):
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_text("X = 1\n")
    second.write_text("Y = 2\n")
    before = jit.sources_digest((first, second))
    second.write_text("Y = 3\n")
    assert jit.sources_digest((first, second)) != before


def test_the_kernels_import_only_from_the_packages_in_their_cache_key():
    # A constant a kernel compiles in from a module outside ``jit.SOURCES``
    # could change without the cached kernels noticing.
    kernels = Path(jit.__file__).parent
    allowed = {f"systems.physics.{package}" for package in jit.PACKAGES}
    assert {path.parent.name for path in jit.SOURCES} == set(jit.PACKAGES)
    for path in kernels.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PROJECT:
                assert ".".join(node.module.split(".")[:3]) in allowed, (path.name, node.module)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name.split(".")[0] not in PROJECT, (path.name, alias.name)


def test_the_kernel_modules_import_each_other_relatively():
    # The plain copy (``plain.plain``) is the same files loaded as another package: an absolute
    # import of a kernel module would make that copy call the compiled one's functions.
    kernels = Path(jit.__file__).parent
    for path in kernels.glob("*.py"):
        if path.stem in ("background", "plain", "__main__"):  # (the stages' side: they choose the copy to run)
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert not node.module.startswith("systems.physics._kernels"), (path.name, node.module)


def test_the_plain_copy_calls_only_plain_python():
    # Every function the plain copy's sweep module calls is a Python function of that copy,
    # never a numba dispatcher, which would compile there and then.
    sweep = inspect.unwrap(plain.plain().run_sweeps)
    assert isinstance(sweep, types.FunctionType) and not plain.plain().compiled
    helpers = {name: value for name, value in sweep.__globals__.items() if name.startswith("_") and callable(value)}
    assert {"_impact", "_schedule", "_settle", "find_row"} <= helpers.keys() | set(sweep.__globals__)
    for name, value in helpers.items():
        if getattr(value, "__module__", "").startswith("systems.physics"):
            assert isinstance(value, types.FunctionType), name
    if jit.COMPILED:
        assert sweep.__module__ == f"{plain.NAME}.sweep"
        assert not isinstance(plain.own().run_sweeps, types.FunctionType) and plain.own().compiled

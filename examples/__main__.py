"""List the example scenes: ``python -m examples``."""

from __future__ import annotations

import importlib
import pkgutil

import examples

SKIP = {"common", "__main__"}


def scenes() -> list[str]:
    """Names of the runnable example modules, sorted."""
    return sorted(m.name for m in pkgutil.iter_modules(examples.__path__) if m.name not in SKIP)


def main() -> None:
    print("Example scenes (run with python -m examples.<name>; add --headless --frames N --screenshot PATH without a screen):\n")
    for name in scenes():
        try:
            doc = (importlib.import_module(f"examples.{name}").__doc__ or "").strip().splitlines()
        except ModuleNotFoundError as missing:  # an example of an optional extra (envs: rl)
            doc = [f"(needs {missing.name}: pip install -e '.[ray]')"]
        print(f"  {name:<12} {doc[0] if doc else ''}")


if __name__ == "__main__":
    main()

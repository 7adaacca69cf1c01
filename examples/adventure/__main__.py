"""``python -m examples.adventure``."""

from examples.adventure import main

main()

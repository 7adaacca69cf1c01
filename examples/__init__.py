"""Example scenes. ``python -m examples`` lists them; run one with
``python -m examples.<name>`` (add ``--headless --frames N --screenshot PATH``
where there is no screen)."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

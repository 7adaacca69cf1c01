"""The README's example runs and does what its comments say."""

import contextlib
import io
import pathlib
import re

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_readme_example_runs_and_the_crate_rests_on_the_floor():
    code = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)[0]
    assert len(code.strip().splitlines()) <= 20
    out = io.StringIO()
    scope: dict = {}
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), scope)
    lines = out.getvalue().splitlines()
    assert lines[-1] == "[100, 280]"  # floor top 300 − crate height 20
    assert any(line.startswith("entity 2 landed") for line in lines)  # the custom system ran


def test_readme_test_command_is_what_ci_runs():
    ci = (README.parent / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci in README.read_text()

"""The README's example runs and does what its comments say."""

import contextlib
import io
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def run_section(title: str, count: int) -> tuple[list[str], dict]:
    """Run the README section's ``count`` python snippets in order, in one
    scope; return the lines they printed and the scope."""
    section = README.read_text().split(f"## {title}", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == count
    out = io.StringIO()
    scope: dict = {}
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, "README.md", "exec"), scope)
    return out.getvalue().splitlines(), scope


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


def test_readme_game_layer_snippets_run_in_order_and_print_what_they_say(monkeypatch):
    monkeypatch.chdir(README.parent)  # the snippets load the adventure's assets by relative path
    # camera and its effects, Tiled maps, animation, sprite transforms, particles, tweens, sound, actions,
    # scenes, text, wrapped and bitmap text, transitions
    lines, scope = run_section("The game layer", 13)
    assert lines[1] == "629 solid tiles -> 21 colliders"
    assert lines[2] == "Green Hill Run 29 coins"
    # The pits' water surfaces (neighbouring animated tiles share an entity) and the background's parallax.
    assert lines[3] == "4 animated water blocks; the hills scroll at 0.5"
    # Timers at 0.25 and 0.5 s, then the one at 0.75 s, then the chain's 0.5 + 0.5 s ends at 1 s.
    assert lines[4:8] == ["blink", "blink", "0.75 s", f"back {scope['coin']}"]
    assert lines[8] == "jump! running at 100 px/s"  # a 0.6 stick past a 0.2 dead zone: (0.6 − 0.2)/0.8
    assert lines[9] == "sounds loaded"
    game = scope["game"]
    assert game.world is scope["world"]  # the pause was pushed, then popped by the scripted P
    assert scope["audio"].volume("effects") == 0.8
    scope["audio"].close()
    game.close()


def test_readme_collision_control_snippets_run_in_order_and_print_what_they_say():
    from components import Transform

    lines, scope = run_section("Collision control", 7)  # layers, one-way, events, filters, contacts, queries, slopes
    # The hero (20 px tall) fell onto the one-way ledge's top at y = 100: 80.
    assert lines[0] == "80.0 True"
    # A new begin handler hears the hero already standing there; the hop ends
    # the contact, and landing begins it again, normal from hero to ledge: down.
    assert [line.split()[0] for line in lines[1:4]] == ["landed", "left", "landed"]
    assert lines[3].endswith("normal [0, 1]")
    assert lines[-5] == f"[{scope['ledge']}]"
    # The 10×20 box cast down from y = 0 meets the ledge's top when 300·t + 20 = 100.
    assert float(lines[-4]) == pytest.approx(80 / 300)
    assert lines[-3] == f"[{scope['ledge']}] [{scope['ledge']}]"
    # The frictionless sled slides along the 2:1 slope (vy / −vx = 0.5) at
    # a = g·sin θ = 980/√5 = 438.3 px/s²: after 0.5 s, 219 px/s, on the ground.
    ratio, speed, down = lines[-2].split()
    assert float(ratio) == 0.5 and int(speed) == pytest.approx(980 / 5 ** 0.5 * 0.5, abs=1) and down == "True"
    # The walls' faces meet the 10 px nut when 40 − 4·t_steps = 10, after
    # step 7.5: steps 8 and 9 crush it, centred between the faces at 540.
    nut = scope["nut"]
    assert lines[-1] == f"[{nut}, {nut}] 540.0"
    # The bullet filtered against the hero passed through it.
    assert scope["world"].component_for_entity(scope["mine"], Transform).position.x < 0


def test_readme_example_type_checks(tmp_path):
    # The package ships py.typed, so a game that runs a type checker checks
    # its calls against our signatures: the README's own idioms (components
    # built from (x, y) pairs) must pass.
    api = pytest.importorskip("mypy.api")
    code = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)[0]
    (tmp_path / "game.py").write_text(code)
    (tmp_path / "mypy.ini").write_text(f"[mypy]\nmypy_path = {README.parent}\ncache_dir = {tmp_path / 'cache'}\n"
                                       "[mypy-pytmx.*]\nignore_missing_imports = True\n")
    report, errors, status = api.run(["--config-file", str(tmp_path / "mypy.ini"), str(tmp_path / "game.py")])
    assert status == 0, report + errors


def test_readme_learning_environment_runs_the_box_to_the_coin():
    pytest.importorskip("gymnasium")
    section = README.read_text().split("## Learning environments", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, re.S)[0]  # (the RLlib lines are not run)
    out = io.StringIO()
    scope: dict = {}
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), scope)
    # reset(seed=7) puts the coin at 100 + 7 = 107; at 120 px/s the box, from x = 20, goes 2 px a
    # step and is within 4 px of it once 20 + 2·n > 103: n = 42, in the action holding steps 41-44.
    assert out.getvalue().split() == ["42", "physics", "steps"]
    assert scope["reward"] == pytest.approx((107 - 100) / 100 - (107 - 104) / 100)  # steps 41-42: x 100 -> 104


def test_readme_bullet_pool_fires_and_spends_bullets_without_making_entities():
    from components import ALL, Collider, ColliderType, Physics, Transform
    from ecs import World

    section = README.read_text().split("## Speed", 1)[1].split("\n## ", 1)[0]
    [block] = re.findall(r"```python\n(.*?)```", section, re.S)
    world = World()
    scope: dict = {"world": world, "ALL": ALL, "Collider": Collider, "Physics": Physics, "Transform": Transform}
    exec(compile(block, "README.md", "exec"), scope)
    wall = world.create_entity(Transform((300, 0)), Collider((20, 200), type=ColliderType.STATIC))
    entities = len(world.get_component(Transform))
    spent: list[int] = []

    def hit(contact) -> None:  # (the wall was made after the pool: it is the pair's b)
        assert contact.b == wall
        scope["spend"](contact.a)
        spent.append(contact.a)

    world.on_collision_begin(hit)
    bullet = scope["fire"](100.0, 50.0, 600.0, 0.0)
    for _ in range(30):  # 196 px to the wall's face at 600 px/s: 0.33 s, 20 steps
        world.step(1 / 60)
    assert spent == [bullet] and len(scope["pool"]) == 64
    assert tuple(world.component_for_entity(bullet, Transform).position) == scope["PARK"]
    assert len(world.get_component(Transform)) == entities  # nothing made or deleted
    world.close()

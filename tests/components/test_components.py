"""Components hold validated data: bad input raises ValueError naming the field."""

import math

import pytest
from pygame import Vector2

from components import Collider, ColliderType, Physics, Shape, Sprite, Touching, Transform


def test_transform_converts_to_vector_and_starts_with_previous_equal():
    t = Transform((3, 4))
    assert isinstance(t.position, Vector2) and t.position == Vector2(3, 4)
    assert t.previous_position == t.position
    assert t.previous_position is not t.position


def test_collider_defaults():
    c = Collider((8, 6))
    assert c.size == Vector2(8, 6) and c.offset == Vector2(0, 0)
    assert c.type is ColliderType.SOLID


def test_physics_defaults():
    p = Physics()
    assert p.velocity == Vector2(0, 0)
    assert (p.mass, p.elasticity, p.friction, p.gravity_scale, p.max_speed) == (1.0, 0.0, 0.0, 1.0, None)


@pytest.mark.parametrize(
    "make, field",
    [
        (lambda: Transform((math.nan, 0)), "position"),
        (lambda: Transform((0, math.inf)), "position"),
        (lambda: Transform("ab"), "position"),
        (lambda: Collider((-1, 4)), "size"),
        (lambda: Collider((4, math.nan)), "size"),
        (lambda: Collider((4, 4), offset=(math.inf, 0)), "offset"),
        (lambda: Collider((4, 4), type="static"), "type"),
        (lambda: Physics(velocity=(math.nan, 0)), "velocity"),
        (lambda: Physics(mass=0), "mass"),
        (lambda: Physics(mass=-2), "mass"),
        (lambda: Physics(mass=math.inf), "mass"),
        (lambda: Physics(elasticity=-0.1), "elasticity"),
        (lambda: Physics(friction=-1), "friction"),
        (lambda: Physics(friction=math.nan), "friction"),
        (lambda: Physics(gravity_scale=math.inf), "gravity_scale"),
        (lambda: Physics(max_speed=0), "max_speed"),
        (lambda: Physics(max_speed=-5), "max_speed"),
        (lambda: Physics(mass=True), "mass"),
    ],
)
def test_bad_values_raise_value_error_naming_the_field(make, field):
    with pytest.raises(ValueError, match=field):
        make()


def test_an_enum_field_given_a_name_lists_the_members_and_says_which_was_meant():
    with pytest.raises(ValueError) as refused:
        Collider((4, 4), shape="circle")
    assert str(refused.value) == ("shape must be a Shape (Shape.BOX, Shape.CIRCLE, Shape.TRIANGLE_BOTTOM_LEFT, "
                                  "Shape.TRIANGLE_BOTTOM_RIGHT, Shape.TRIANGLE_TOP_LEFT, Shape.TRIANGLE_TOP_RIGHT), "
                                  "got 'circle' (did you mean Shape.CIRCLE?)")
    with pytest.raises(ValueError, match=r"^type must be a ColliderType \(ColliderType.STATIC, ColliderType.SOLID, "
                                         r"ColliderType.TRIGGER\), got 'wall'$"):
        Collider((4, 4), type="wall")


def test_components_use_slots():
    for component in (Transform((0, 0)), Collider((1, 1)), Physics()):
        assert not hasattr(component, "__dict__")


@pytest.mark.parametrize(
    "make, field, value",
    [
        (lambda: Physics(), "mass", -1),
        (lambda: Physics(), "mass", 0),
        (lambda: Physics(), "elasticity", -0.5),
        (lambda: Physics(), "friction", math.nan),
        (lambda: Physics(), "gravity_scale", math.inf),
        (lambda: Physics(), "max_speed", 0),
        (lambda: Physics(), "velocity", (math.nan, 1)),
        (lambda: Physics(), "velocity", "fast"),
        (lambda: Collider((4, 4)), "size", (-5, 3)),
        (lambda: Collider((4, 4)), "offset", (0, math.inf)),
        (lambda: Collider((4, 4)), "type", "wall"),
        (lambda: Collider((4, 4)), "shape", "round"),
        (lambda: Collider((4, 4), shape=Shape.CIRCLE), "size", (4, 6)),
        (lambda: Collider((4, 6)), "shape", Shape.CIRCLE),
        (lambda: Transform((0, 0)), "position", (math.nan, 0)),
        (lambda: Transform((0, 0)), "previous_position", (0, -math.inf)),
        (lambda: Touching(), "down", 1),
        (lambda: Sprite(), "color", (300, 0, 0)),
        (lambda: Sprite(), "layer", 1.5),
        (lambda: Sprite(), "size", (-1, 4)),
        (lambda: Sprite(), "visible", "yes"),
    ],
)
def test_bad_values_set_after_construction_raise_naming_the_field(make, field, value):
    component = make()
    before = getattr(component, field)
    with pytest.raises(ValueError, match=field):
        setattr(component, field, value)
    assert getattr(component, field) == before  # the bad value was not stored


def test_good_values_set_after_construction_are_converted_like_at_construction():
    physics = Physics()
    physics.velocity = (3, 4)
    physics.mass = 2
    assert isinstance(physics.velocity, Vector2) and physics.velocity == Vector2(3, 4)
    assert physics.mass == 2.0 and isinstance(physics.mass, float)
    collider = Collider((4, 4), shape=Shape.CIRCLE)
    collider.size = (6, 6)
    collider.shape = Shape.BOX
    collider.size = (6, 2)
    assert collider.size == Vector2(6, 2)


@pytest.mark.parametrize("component", ["Transform", "Collider", "Physics", "Sprite"])
def test_the_init_declared_for_type_checkers_matches_the_dataclass(component):
    # Components with vector fields declare their __init__ for type checkers
    # (under TYPE_CHECKING) so that (x, y) pairs type-check; it must name the
    # same parameters, in the same order, as the __init__ the dataclass makes.
    import ast
    import dataclasses
    import inspect

    import components

    cls = getattr(components, component)
    tree = ast.parse(inspect.getsource(cls))
    stubs = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == "__init__"]
    assert len(stubs) == 1
    declared = [arg.arg for arg in stubs[0].args.args[1:]]
    assert declared == [f.name for f in dataclasses.fields(cls) if f.init]


def test_a_speed_cap_above_the_worlds_is_refused_and_the_worlds_cap_holds():
    from components import limits
    from ecs import World

    with pytest.raises(ValueError, match=r"max_speed must be in \(0, 1e\+09\]"):
        Physics(max_speed=5e9)  # accepted before: Movement capped this body at 5e9 instead of the world's 1e9
    physics = Physics()
    with pytest.raises(ValueError, match="max_speed"):
        physics.max_speed = 2 * limits.MAX_SPEED
    # Gravity 1e9 px/s² × scale 1e3 × 1/60 s adds 1.67e10 px/s in one step,
    # over both caps: the speed ends at the cap, 1e9 px/s.
    world = World(gravity=(0, limits.MAX_ACCELERATION))
    body = world.create_entity(Transform((0, 0)), Collider((1, 1)),
                               Physics(max_speed=limits.MAX_SPEED, gravity_scale=limits.MAX_GRAVITY_SCALE))
    world.step(1 / 60)
    assert world.component_for_entity(body, Physics).velocity.length() == pytest.approx(limits.MAX_SPEED)

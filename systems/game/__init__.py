"""The game layer's systems: animation, camera, drawing sprites, shapes and text, the debug
overlay, and the merge of a map's solid tiles into few colliders. Their public names are
exported by ``systems`` and ``ecs``."""

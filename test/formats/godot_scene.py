"""Reads a Godot text scene (.tscn) with godot-parser, a third-party reader of Godot's file format,
and prints what a loader would build: the scene's node tree (name, type, parent, properties) with
every ExtResource reference resolved to its resource's path. Exits 1 on a parse error or a dangling
reference. Used by the export tests; nothing here is Assetloom code."""
import json
import sys

from godot_parser import GDScene

scene = GDScene.load(sys.argv[1])
resources = {str(r.header["id"]): dict(r.header.attributes) for r in scene.get_ext_resources()}


def plain(value):
    name = type(value).__name__
    if name == "ExtResource":
        key = str(value.id)
        if key not in resources:
            print(f"dangling ExtResource({key})", file=sys.stderr)
            sys.exit(1)
        return {"ext": resources[key]}
    if name == "Vector2":
        return [value.x, value.y]
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return repr(value)


nodes = []
for node in scene.get_nodes():
    nodes.append(
        {
            **{k: v for k, v in node.header.attributes.items()},
            "properties": {k: plain(v) for k, v in node.properties.items()},
        }
    )
print(json.dumps({"header": dict(scene.get_sections()[0].header.attributes), "nodes": nodes}))

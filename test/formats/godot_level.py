"""Reads a level's Godot 4 files with godot-parser, a third-party reader of Godot's text formats, and
prints what a loader would build: from the TileSet (.tres) each atlas tile's terrain set, terrain,
peering bits and collision polygons, and the terrain set's mode and terrains; from the scene (.tscn)
its nodes (name, type, parent, properties) with ExtResource and SubResource references resolved and
the TileMapLayer's `tile_map_data` bytes as a list. Exits 1 on a parse error or a dangling reference.
Used by test/formats/levels.test.ts; nothing here is Assetloom code."""
import json
import sys

from godot_parser import GDResource, GDScene

tres = GDResource.load(sys.argv[1])
scene = GDScene.load(sys.argv[2])


def plain(value, ext, sub):
    name = type(value).__name__
    if name == "ExtResource":
        key = str(value.id)
        if key not in ext:
            print(f"dangling ExtResource({key})", file=sys.stderr)
            sys.exit(1)
        return {"ext": ext[key]}
    if name == "SubResource":
        key = str(value.id)
        if key not in sub:
            print(f"dangling SubResource({key})", file=sys.stderr)
            sys.exit(1)
        return {"sub": sub[key]}
    if name in ("Vector2", "Vector2i", "Color", "Rect2"):
        return {name: list(value.args)}
    if name == "GDObject":
        return {value.name: [plain(a, ext, sub) for a in value.args]}
    if isinstance(value, list):
        return [plain(v, ext, sub) for v in value]
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return repr(value)


def ext_of(res):
    return {str(r.header["id"]): dict(r.header.attributes) for r in res.get_ext_resources()}


def sub_of(res):
    return {str(r.header["id"]): r.header["type"] for r in res.get_sub_resources()}


ext, sub = ext_of(tres), sub_of(tres)
atlas = [r for r in tres.get_sub_resources() if r.header["type"] == "TileSetAtlasSource"]
if len(atlas) != 1:
    print(f"expected one TileSetAtlasSource, found {len(atlas)}", file=sys.stderr)
    sys.exit(1)
tiles = {}
for key, value in atlas[0].properties.items():
    parts = key.split("/")
    if ":" not in parts[0]:
        continue
    cell = tiles.setdefault(parts[0], {})
    cell["/".join(parts[2:]) or "tile"] = plain(value, ext, sub)
resource = tres.get_sections()[-1]
out_tres = {
    "header": dict(tres.get_sections()[0].header.attributes),
    "atlas": {k: plain(v, ext, sub) for k, v in atlas[0].properties.items() if ":" not in k.split("/")[0]},
    "tiles": tiles,
    "resource": {k: plain(v, ext, sub) for k, v in resource.properties.items()},
}
ext, sub = ext_of(scene), sub_of(scene)
nodes = []
for node in scene.get_nodes():
    nodes.append(
        {
            **{k: v for k, v in node.header.attributes.items()},
            "properties": {k: plain(v, ext, sub) for k, v in node.properties.items()},
        }
    )
print(json.dumps({"tres": out_tres, "scene": {"header": dict(scene.get_sections()[0].header.attributes), "nodes": nodes}}))

/**
 * Godot 4 files of a level: `level.tres`, a TileSet whose atlas source holds every tile with its
 * terrain set (mode 1 "match corners" for wang16, 0 "match corners and sides" for blob47), centre
 * terrain, peering bits and collision polygons (physics layer 0); and `level.tscn`, a scene with a
 * TileMapLayer over it (`tile_map_data`: format 0, then 12 bytes a cell — x, y as int16, source,
 * atlas x, atlas y, alternative as uint16, little-endian, as tile_map_layer.cpp reads it) and a
 * `Props` node of sprites from the props sheet, blocking ones with a static body.
 */
import type { Rgb } from '../../palette.js';
import type { LevelBuild } from '../build.js';
import { ident, LEVEL_FILES, placedProps, propCollision, tileCollision } from './shared.js';

const str = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const color = (c: Rgb) => `Color(${c.map((v) => Number((v / 255).toFixed(4))).join(', ')}, 1)`;

/** Godot's peering bits of a tile, from its lattice (terrain ids; a mixed side has none). */
function peering(lattice: readonly number[], kind: 'wang16' | 'blob47'): Array<[string, number]> {
  const [tl, t, tr, l, , r, bl, b, br] = lattice as number[];
  const bits: Array<[string, number]> =
    kind === 'wang16'
      ? [
          ['bottom_right_corner', br!],
          ['bottom_left_corner', bl!],
          ['top_left_corner', tl!],
          ['top_right_corner', tr!],
        ]
      : [
          ['right_side', r!],
          ['bottom_right_corner', br!],
          ['bottom_side', b!],
          ['bottom_left_corner', bl!],
          ['left_side', l!],
          ['top_left_corner', tl!],
          ['top_side', t!],
          ['top_right_corner', tr!],
        ];
  return bits.filter(([, v]) => v < 64);
}

/** The terrain of a tile's centre: its own when it has one, else the one of most corners (ties: the higher id). */
function centreTerrain(lattice: readonly number[]): number {
  if (lattice[4]! < 64) return lattice[4]!;
  const corners = [lattice[0]!, lattice[2]!, lattice[6]!, lattice[8]!];
  const counts = new Map<number, number>();
  for (const c of corners) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
}

export function levelTres(build: LevelBuild): string {
  const set = build.tileset;
  const s = set.tileSize;
  const h = s / 2;
  const lines = [
    '[gd_resource type="TileSet" load_steps=3 format=3]',
    '',
    `[ext_resource type="Texture2D" path=${str(`res://${LEVEL_FILES.tiles}`)} id="1_tiles"]`,
    '',
    '[sub_resource type="TileSetAtlasSource" id="TileSetAtlasSource_terrain"]',
    'texture = ExtResource("1_tiles")',
    `texture_region_size = Vector2i(${s}, ${s})`,
  ];
  set.tiles.forEach((tile, id) => {
    const at = `${id % set.columns}:${Math.floor(id / set.columns)}/0`;
    lines.push(`${at} = 0`, `${at}/terrain_set = 0`, `${at}/terrain = ${centreTerrain(tile.lattice)}`);
    for (const [bit, v] of peering(tile.lattice, set.kind))
      lines.push(`${at}/terrains_peering_bit/${bit} = ${v}`);
    tileCollision(tile, build.space.walkable, s).forEach(([x, y, w, hh], k) => {
      // polygon points are relative to the tile's centre
      const pts = [x - h, y - h, x + w - h, y - h, x + w - h, y + hh - h, x - h, y + hh - h];
      lines.push(`${at}/physics_layer_0/polygon_${k}/points = PackedVector2Array(${pts.join(', ')})`);
    });
  });
  lines.push(
    '',
    '[resource]',
    `tile_size = Vector2i(${s}, ${s})`,
    'physics_layer_0/collision_layer = 1',
    `terrain_set_0/mode = ${set.kind === 'wang16' ? 1 : 0}`,
  );
  set.terrains.forEach((name, t) => {
    lines.push(
      `terrain_set_0/terrain_${t}/name = ${str(name)}`,
      `terrain_set_0/terrain_${t}/color = ${color(set.colors[t] ?? [128, 128, 128])}`,
    );
  });
  // sources last: their tiles' terrain data rely on the terrain set above (tile_set.cpp)
  lines.push('sources/0 = SubResource("TileSetAtlasSource_terrain")', '');
  return lines.join('\n');
}

/** `tile_map_data` of a TileMapLayer: format 0, then per cell x, y (int16), source, atlas x, atlas y, alternative (uint16), little-endian. */
function tileMapData(build: LevelBuild): Uint8Array {
  const { columns, rows } = build.plan;
  const set = build.tileset;
  const cells: number[] = [];
  for (let i = 0; i < columns * rows; i++) if (build.map[i]! >= 0) cells.push(i);
  const bytes = new Uint8Array(2 + cells.length * 12);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, 0, true);
  cells.forEach((i, k) => {
    const o = 2 + k * 12;
    const t = build.map[i]!;
    view.setInt16(o, i % columns, true);
    view.setInt16(o + 2, Math.floor(i / columns), true);
    view.setUint16(o + 4, 0, true);
    view.setUint16(o + 6, t % set.columns, true);
    view.setUint16(o + 8, Math.floor(t / set.columns), true);
    view.setUint16(o + 10, 0, true);
  });
  return bytes;
}

export function levelTscn(build: LevelBuild): string {
  const s = build.tileset.tileSize;
  const props = placedProps(build);
  const [cx, cy, cw, ch] = propCollision(s);
  const lines = [
    '[gd_scene load_steps=4 format=3]',
    '',
    `[ext_resource type="TileSet" path=${str(`res://${LEVEL_FILES.tres}`)} id="1_tileset"]`,
    `[ext_resource type="Texture2D" path=${str(`res://${LEVEL_FILES.props}`)} id="2_props"]`,
    '',
    '[sub_resource type="RectangleShape2D" id="RectangleShape2D_prop"]',
    `size = Vector2(${cw}, ${ch})`,
    '',
    '[node name="Level" type="Node2D"]',
    `metadata/base = ${str(build.layout.base)}`,
    `metadata/seed = ${build.seed}`,
    '',
    '[node name="Terrain" type="TileMapLayer" parent="."]',
    `tile_map_data = PackedByteArray(${Array.from(tileMapData(build)).join(', ')})`,
    'tile_set = ExtResource("1_tileset")',
    '',
    '[node name="Props" type="Node2D" parent="."]',
    'y_sort_enabled = true',
  ];
  props.forEach((p, k) => {
    const name = `${ident(p.kind)}_${k + 1}`;
    lines.push(
      '',
      `[node name="${name}" type="Sprite2D" parent="Props"]`,
      // the sprite's origin at its foot, so y-sorting orders props by where they stand
      `position = Vector2(${p.rect.x + s}, ${p.rect.y + 2 * s})`,
      'texture = ExtResource("2_props")',
      'centered = false',
      `offset = Vector2(${-s}, ${-2 * s})`,
      'region_enabled = true',
      `region_rect = Rect2(${p.index * 2 * s}, 0, ${2 * s}, ${2 * s})`,
    );
    if (p.blocks) {
      lines.push(
        '',
        `[node name="Body" type="StaticBody2D" parent="Props/${name}"]`,
        `position = Vector2(${cx + cw / 2 - s}, ${cy + ch / 2 - 2 * s})`,
        '',
        `[node name="Shape" type="CollisionShape2D" parent="Props/${name}/Body"]`,
        'shape = SubResource("RectangleShape2D_prop")',
      );
    }
  });
  if (build.plan.spawn >= 0) {
    const { columns } = build.plan;
    lines.push(
      '',
      '[node name="Spawn" type="Marker2D" parent="."]',
      `position = Vector2(${(build.plan.spawn % columns) * s + s / 2}, ${Math.floor(build.plan.spawn / columns) * s + s / 2})`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

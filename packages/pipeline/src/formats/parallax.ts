/**
 * The files of a layered background: each depth layer as its own PNG (transparent where the layers
 * behind show through), a Godot 4 scene that scrolls them at their parallax factors, and a JSON
 * description for any other engine (Phaser's `setScrollFactor`, Unity, a hand-written loop).
 */
export interface ParallaxLayer {
  /** sky, far, mid, near, props, weather — back to front. */
  name: string;
  /** The layer's PNG file name (beside the scene). */
  file: string;
  /** How far the layer moves per pixel the camera moves: 0 stays with the camera, 1 moves with the ground. */
  scroll: number;
}

/** A float as Godot's text files write it (always with a decimal point). */
function godotFloat(value: number): string {
  const rounded = Math.round(value * 1e6) / 1e6;
  return Number.isInteger(rounded) ? rounded.toFixed(1) : String(rounded);
}

const nodeName = (name: string) => name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^./, (c) => c.toUpperCase());

/**
 * A Godot 4.3+ scene (text .tscn): a Node2D with one Parallax2D per layer, back to front, each
 * holding a Sprite2D of its PNG at the origin. `scroll_scale` is the layer's factor on both axes;
 * `repeat_size` (the layer repeats sideways) only when the picture tiles horizontally.
 */
export function godotParallaxScene(
  layers: readonly ParallaxLayer[],
  size: { width: number; height: number },
  repeats: boolean,
): string {
  const lines: string[] = [`[gd_scene load_steps=${layers.length + 1} format=3]`, ''];
  layers.forEach((layer, i) => {
    lines.push(
      `[ext_resource type="Texture2D" path="res://${layer.file.replace(/"/g, '')}" id="${i + 1}_${nodeName(layer.name)}"]`,
    );
  });
  lines.push('', '[node name="Background" type="Node2D"]', '');
  layers.forEach((layer, i) => {
    const node = nodeName(layer.name);
    lines.push(`[node name="${node}" type="Parallax2D" parent="."]`);
    lines.push(`scroll_scale = Vector2(${godotFloat(layer.scroll)}, ${godotFloat(layer.scroll)})`);
    if (repeats) lines.push(`repeat_size = Vector2(${godotFloat(size.width)}, 0.0)`);
    lines.push('');
    lines.push(`[node name="Sprite2D" type="Sprite2D" parent="${node}"]`);
    lines.push(`texture = ExtResource("${i + 1}_${node}")`);
    lines.push('centered = false', '');
  });
  return lines.join('\n');
}

/** The engine-neutral description: the canvas size and the layers back to front with their factors. */
export function parallaxJson(
  layers: readonly ParallaxLayer[],
  size: { width: number; height: number },
  repeats: boolean,
): string {
  return `${JSON.stringify(
    {
      width: size.width,
      height: size.height,
      repeatX: repeats,
      layers: layers.map((l) => ({ name: l.name, image: l.file, scrollFactor: l.scroll })),
    },
    null,
    2,
  )}\n`;
}

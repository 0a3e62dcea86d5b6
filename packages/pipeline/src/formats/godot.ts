import { ANIMATION_DEFAULTS, type Playback, playOrder } from './playback.js';
import type { FrameRect } from './texturepacker.js';

/** A float as Godot's text resources write it (always with a decimal point). */
function godotFloat(value: number): string {
  const rounded = Math.round(value * 1e6) / 1e6;
  return Number.isInteger(rounded) ? rounded.toFixed(1) : String(rounded);
}

/**
 * A Godot 4 SpriteFrames resource (text .tres). `images` are file names beside the .tres. Each
 * animation plays at `playback.fps` (its `speed`); a frame's `duration` is relative (Godot shows
 * it `duration / speed` s), so a frame of `d` ms gets `d × fps / 1000`. SpriteFrames has no
 * ping-pong or reverse mode: those loops are written as the frame sequence they play.
 */
export function godotSpriteFrames(
  images: readonly string[],
  rects: ReadonlyArray<FrameRect & { image: number }>,
  atlas: boolean,
  playback: Pick<Playback, 'fps' | 'loop'> = ANIMATION_DEFAULTS,
): string {
  const lines: string[] = [];
  const subCount = atlas ? rects.length : 0;
  lines.push(`[gd_resource type="SpriteFrames" load_steps=${images.length + subCount + 1} format=3]`, '');
  images.forEach((img, i) => {
    lines.push(`[ext_resource type="Texture2D" path="res://${img.replace(/"/g, '')}" id="${i + 1}_tex"]`);
  });
  lines.push('');
  if (atlas) {
    rects.forEach((r, i) => {
      lines.push(`[sub_resource type="AtlasTexture" id="AtlasTexture_${i}"]`);
      lines.push(`atlas = ExtResource("${r.image + 1}_tex")`);
      lines.push(`region = Rect2(${r.x}, ${r.y}, ${r.w}, ${r.h})`, '');
    });
  }
  const byAnim = new Map<string, number[]>();
  rects.forEach((r, i) => {
    const list = byAnim.get(r.animation) ?? [];
    list.push(i);
    byAnim.set(r.animation, list);
  });
  const anims = [...byAnim.entries()].map(([name, idx]) => {
    const frames = playOrder(idx.length, playback.loop)
      .map((at) => {
        const i = idx[at]!;
        const r = rects[i]!;
        const tex = atlas ? `SubResource("AtlasTexture_${i}")` : `ExtResource("${r.image + 1}_tex")`;
        const duration = r.duration === undefined ? 1 : (r.duration * playback.fps) / 1000;
        return `{\n"duration": ${godotFloat(duration)},\n"texture": ${tex}\n}`;
      })
      .join(', ');
    return `{\n"frames": [${frames}],\n"loop": true,\n"name": &"${name}",\n"speed": ${godotFloat(playback.fps)}\n}`;
  });
  lines.push('[resource]', `animations = [${anims.join(', ')}]`, '');
  return lines.join('\n');
}

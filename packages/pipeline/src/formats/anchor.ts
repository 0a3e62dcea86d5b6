/**
 * The anchor at the feet written into a sheet's engine files: TexturePacker's per-frame `pivot`
 * (0–1, y down), an Aseprite slice `anchor` over the frame with its `pivot` (pixels), Unity's sprite
 * pivot (custom alignment, y up) and a Godot resource's `metadata/anchor` (pixels, y down; an
 * AnimatedSprite2D's offset is its negation from the frame's centre).
 */
export function anchorIn(
  writes: ReadonlyArray<[string, Uint8Array, string]>,
  anchor: { x: number; y: number },
  fw: number,
  fh: number,
): Array<[string, Uint8Array, string]> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const px = anchor.x / fw;
  const py = anchor.y / fh;
  return writes.map(([key, bytes, type]) => {
    const text = () => decoder.decode(bytes);
    let out: string | null = null;
    if (key.endsWith('.aseprite.json')) {
      const doc = JSON.parse(text());
      doc.meta.slices = [
        {
          name: 'anchor',
          color: '#0000ffff',
          keys: [
            {
              frame: 0,
              bounds: { x: 0, y: 0, w: fw, h: fh },
              pivot: { x: Math.floor(anchor.x), y: Math.floor(anchor.y) },
            },
          ],
        },
      ];
      out = `${JSON.stringify(doc, null, 2)}\n`;
    } else if (key.endsWith('.json') && !key.includes('phaser')) {
      const doc = JSON.parse(text());
      for (const f of Object.values(doc.frames ?? {}) as Array<{ pivot?: unknown }>)
        f.pivot = { x: px, y: py };
      out = `${JSON.stringify(doc, null, 2)}\n`;
    } else if (key.endsWith('.meta')) {
      out = text()
        .replaceAll('      alignment: 0', '      alignment: 9')
        .replaceAll('      pivot: {x: 0.5, y: 0.5}', `      pivot: {x: ${px}, y: ${1 - py}}`);
    } else if (key.endsWith('.tres')) {
      out = text().replace(
        /\[resource\]\n/,
        `[resource]\nmetadata/anchor = Vector2(${anchor.x}, ${anchor.y})\n`,
      );
    }
    return [key, out === null ? bytes : encoder.encode(out), type];
  });
}

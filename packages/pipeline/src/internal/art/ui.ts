import { type UiKind, uiFrameSize, uiKindOf } from '../../layout.js';
import type { Rgb } from '../../palette.js';
import type { ResolvedStyle } from '../../style.js';
import type { NineSlice, RgbaImage } from '../../types.js';
import type { Rng } from '../random.js';
import { bayer, gridFor, type Painter, upscale } from './canvas.js';

export interface UiJob {
  rng: Rng;
  style: ResolvedStyle;
  painter: Painter;
  text: string;
  resolution: number;
  /** A colour the prompt asked for: the piece's face. */
  color?: Rgb;
}

export interface UiOutput {
  kind: UiKind;
  /** panel: [panel]; button: [normal, hover, pressed]; bar: [track, fill]. */
  frames: RgbaImage[];
  frameNames: string[];
  width: number;
  height: number;
  nineSlice: NineSlice;
}

function hsv(h: number, s: number, v: number): Rgb {
  const f = (n: number) => {
    const k = (n + h * 6) % 6;
    return Math.round(255 * (v - v * s * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [f(5), f(3), f(1)];
}

/** 9-slice-ready UI pieces: bevelled, outlined frames whose middle rows and columns repeat. */
export function drawUi(job: UiJob): UiOutput {
  const { rng, painter, style, resolution } = job;
  const kind = uiKindOf(job.text);
  const { width, height } = uiFrameSize(kind, resolution);
  const hint = style.artStyle === 'pixel' ? (kind === 'panel' ? 32 : 48) : 128;
  const { gw, gh, factor } = gridFor(width, height, hint);
  const wood = /wood|木/.test(job.text);
  const metal = /metal|steel|iron|sci-?fi|金属|科幻/.test(job.text);
  const hue = rng.next();
  const face = painter.choose(
    job.color ?? (wood ? [150, 100, 60] : metal ? [120, 130, 150] : hsv(hue, 0.5, 0.55)),
  );
  const accent = painter.choose(
    kind === 'bar'
      ? /mana|蓝/.test(job.text)
        ? [60, 120, 230]
        : [210, 50, 60]
      : hsv((hue + 0.5) % 1, 0.6, 0.8),
  );
  const outline = painter.darkest;
  const border = Math.max(1, Math.round(Math.min(gw, gh) / (kind === 'panel' ? 10 : 6)));
  const corner = style.lineWeight === 0 ? 0 : Math.min(border, 2);
  const pieces: Array<{ name: string; draw: (px: (x: number, y: number, c: Rgb) => void) => void }> = [];
  const frameAt =
    (faceColor: Rgb, inner: Rgb | null, pressed: boolean, glow: boolean) =>
    (px: (x: number, y: number, c: Rgb) => void) => {
      const light = painter.step(faceColor, 1, glow ? 0.5 : 0.35);
      const dark = painter.step(faceColor, -1, 0.35);
      const shadowDepth = kind === 'button' ? Math.max(1, Math.round(gh / 8)) : 0;
      const bottom = pressed ? gh : gh - shadowDepth;
      const top = pressed ? shadowDepth : 0;
      for (let y = 0; y < gh; y++) {
        for (let x = 0; x < gw; x++) {
          // rounded corners: cut `corner` cells diagonally
          const cx = Math.min(x, gw - 1 - x);
          const cy = Math.min(y - top, bottom - 1 - y);
          if (y < top) continue;
          if (y >= bottom) {
            if (cx + (gh - 1 - y) >= corner) px(x, y, outline);
            continue;
          }
          if (cx + cy < corner) continue;
          const edge = cx === 0 || cy === 0 || cx + cy === corner;
          if (edge && style.lineWeight > 0) {
            px(x, y, outline);
            continue;
          }
          const dl = x;
          const dr = gw - 1 - x;
          const dt = y - top;
          const db = bottom - 1 - y;
          const inset = Math.min(dl, dr, dt, db);
          if (inset <= border) {
            const litSide = inset === dt || inset === dl;
            px(x, y, inset === border ? dark : litSide ? light : dark);
            continue;
          }
          if (inner) {
            const t = (y - top - border) / Math.max(1, bottom - top - 2 * border);
            px(x, y, t > 0.65 && bayer(x, y) < (t - 0.65) * 2.5 ? painter.step(inner, -1, 0.2) : inner);
          } else {
            px(x, y, faceColor);
          }
        }
      }
      if (kind === 'panel') {
        const rivet = painter.step(faceColor, 1, 0.6);
        for (const [rx, ry] of [
          [border, border],
          [gw - 1 - border, border],
          [border, gh - 1 - border],
          [gw - 1 - border, gh - 1 - border],
        ] as const) {
          if (border >= 2) px(rx, ry, rivet);
        }
      }
    };
  if (kind === 'panel') {
    const inner = painter.choose(wood ? [210, 170, 110] : metal ? [60, 70, 90] : hsv(hue, 0.25, 0.3));
    pieces.push({ name: 'panel', draw: frameAt(face, inner, false, false) });
  } else if (kind === 'button') {
    pieces.push({ name: 'normal', draw: frameAt(accent, null, false, false) });
    pieces.push({ name: 'hover', draw: frameAt(painter.step(accent, 1, 0.25), null, false, true) });
    pieces.push({ name: 'pressed', draw: frameAt(painter.step(accent, -1, 0.2), null, true, false) });
  } else {
    const track = painter.choose([40, 40, 55]);
    pieces.push({ name: 'track', draw: frameAt(face, track, false, false) });
    pieces.push({ name: 'fill', draw: frameAt(face, accent, false, false) });
  }
  const frames = pieces.map((p) => {
    const buf = new Uint8Array(gw * gh * 4);
    p.draw((x, y, c) => {
      if (x < 0 || y < 0 || x >= gw || y >= gh) return;
      const i = (y * gw + x) * 4;
      buf[i] = c[0];
      buf[i + 1] = c[1];
      buf[i + 2] = c[2];
      buf[i + 3] = 255;
    });
    return upscale(buf, gw, gh, factor, width, height);
  });
  const ox = Math.floor((width - gw * factor) / 2);
  const oy = Math.floor((height - gh * factor) / 2);
  const inset = (border + 1 + corner) * factor;
  return {
    kind,
    frames,
    frameNames: pieces.map((p) => p.name),
    width,
    height,
    nineSlice: {
      left: ox + inset,
      right: width - (ox + gw * factor) + inset,
      top: oy + inset,
      bottom:
        height -
        (oy + gh * factor) +
        inset +
        (kind === 'button' ? Math.max(1, Math.round(gh / 8)) * factor : 0),
    },
  };
}

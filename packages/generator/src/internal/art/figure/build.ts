/**
 * What the pieces of a figure are drawn with: the pose's skeleton, the outfit, and helpers that add
 * a part tagged with its material slot, its bone and its piece (the piece names the part's mask;
 * the bone is what a Spine or DragonBones skeleton moves it with).
 */
import type { V3 } from '../rig.js';
import type { Proportions } from './body.js';
import { type Outfit, SLOT, type Slot } from './identity.js';
import type { FigurePart } from './raster.js';
import type { BoneName, Joints, Skeleton } from './skeleton.js';
import { v3 } from './skeleton.js';

export const { add, sub, mul, norm, len } = v3;

export class Figure {
  readonly parts: FigurePart[] = [];
  readonly j: Joints;
  readonly p: Proportions;
  /** The figure's forward and its right, level (turned with the shoulders). */
  readonly fwd: V3;
  readonly right: V3;
  constructor(
    readonly s: Skeleton,
    readonly o: Outfit,
    /** Facing in degrees (see rig FACING). */
    readonly facing: number,
  ) {
    this.j = s.j;
    this.p = s.p;
    this.right = s.across;
    this.fwd = norm([s.across[1], -s.across[0], 0]);
  }
  ball(c: V3, r: number, slot: Slot, bone: BoneName, piece: string, ry?: number, bias = 0): void {
    this.parts.push({ t: 'ball', c, r, m: SLOT[slot], bias, bone, piece, ...(ry ? { ry } : {}) });
  }
  stick(a: V3, b: V3, r: number, slot: Slot, bone: BoneName, piece: string, bias = 0, minPx?: number): void {
    this.parts.push({ t: 'stick', a, b, r, m: SLOT[slot], bias, bone, piece, ...(minPx ? { minPx } : {}) });
  }
  cone(a: V3, b: V3, r: number, slot: Slot, bone: BoneName, piece: string, bias = 0, point = false): void {
    this.parts.push({ t: 'cone', a, b, r, m: SLOT[slot], bias, bone, piece, ...(point ? { point } : {}) });
  }
  /** A truncated cone on a level disc of radius `ra` at `a`, narrowing to `rb` at `b` (a skirt, a sleeve). */
  frustum(a: V3, b: V3, ra: number, rb: number, slot: Slot, bone: BoneName, piece: string, bias = 0): void {
    this.parts.push({ t: 'frustum', a, b, ra, rb, m: SLOT[slot], bias, bone, piece });
  }
  poly(p: V3[], slot: Slot, bone: BoneName, piece: string, bias = 0, shade?: readonly V3[]): void {
    this.parts.push({ t: 'poly', p, m: SLOT[slot], bias, bone, piece, ...(shade ? { shade } : {}) });
  }
  /** A flat disc of radius r at `c`, facing `n` (a round shield, a halo seen edge-on). */
  disc(c: V3, n: V3, r: number, slot: Slot, bone: BoneName, piece: string, bias = 0, k = 12): void {
    const nn = norm(n);
    const a = norm(Math.abs(nn[2]) < 0.9 ? sub([0, 0, 1], mul(nn, nn[2])) : sub([1, 0, 0], mul(nn, nn[0])));
    const b: V3 = [nn[1] * a[2] - nn[2] * a[1], nn[2] * a[0] - nn[0] * a[2], nn[0] * a[1] - nn[1] * a[0]];
    const pts: V3[] = [];
    for (let i = 0; i < k; i++) {
      const t = (i / k) * Math.PI * 2;
      pts.push(add(c, add(mul(a, Math.cos(t) * r), mul(b, Math.sin(t) * r))));
    }
    this.poly(pts, slot, bone, piece, bias);
  }
  /** A point on the head: `f` forward, `s` right, `u` up, in head radii from its centre. */
  onHead(f: number, s: number, u: number): V3 {
    const h = this.p.head;
    const up = norm(sub(this.j.crown, this.j.head));
    return add(this.j.head, add(add(mul(this.fwd, f * h), mul(this.right, s * h)), mul(up, u * h)));
  }
  /** A point on the torso: `t` from the pelvis (0) to the chest (1), `f` forward and `s` right in units. */
  onTorso(t: number, f: number, s: number): V3 {
    const c = add(this.j.pelvis, mul(sub(this.j.chest, this.j.pelvis), t));
    return add(c, add(mul(this.fwd, f), mul(this.right, s)));
  }
  /** Whether the figure's face is turned towards the viewer (for pieces seen only from the front). */
  get facesViewer(): boolean {
    return Math.cos((this.facing * Math.PI) / 180) > -0.1;
  }
}

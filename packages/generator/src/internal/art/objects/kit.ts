import type { Build, Parts, Pose, V3 } from '../bodies/common.js';

/** What an object's part builder draws with: the parts, its frame of reference and the noun's numbers. */
export interface ObjectKit {
  p: Parts;
  /** A point forward, to the side and up, with the bob and (for long held things) the lean applied. */
  at: (f: number, s: number, u: number) => V3;
  /** A box turned with the facing. */
  box: (c: V3, half: V3, m: number, top?: number, bias?: number) => void;
  /** The seed's proportions. */
  v: Build['vary'];
  /** The noun's own proportions. */
  sh: Build['shape'];
  F: Build['features'];
  /** The cycle's angle, 0–2π. */
  t: number;
  pose: Pose;
  facing: number;
  /** The object kind, for builders several kinds share. */
  kind: string;
}

/** Object kinds to the builders that add their parts. */
export type ObjectTable = Readonly<Record<string, (o: ObjectKit) => void>>;

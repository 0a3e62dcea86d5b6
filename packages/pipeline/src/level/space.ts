/**
 * The two grids of a level and how they meet: terrain on points (the cell corners of a wang16 map,
 * the cells of a blob47 map) and the map's cells, where tiles, props and walkers are.
 */
import type { TerrainName } from '../tileset/terrains.js';
import { at, type Grid } from './grid.js';
import { isWalkable } from './layout.js';

export class LevelSpace {
  /** Terrain points across and down. */
  readonly gw: number;
  readonly gh: number;
  /** Whether each terrain id is walked on. */
  readonly walkable: boolean[];
  constructor(
    readonly kind: 'wang16' | 'blob47',
    readonly columns: number,
    readonly rows: number,
    readonly terrains: readonly TerrainName[],
    readonly grid: Grid,
  ) {
    this.gw = grid.width;
    this.gh = grid.height;
    this.walkable = terrains.map(isWalkable);
  }

  /** The terrain points a cell is drawn from: its 4 corners (wang16) or itself (blob47). */
  cellPoints(x: number, y: number): number[] {
    if (this.kind === 'blob47') return [y * this.gw + x];
    const i = y * this.gw + x;
    return [i, i + 1, i + this.gw, i + this.gw + 1];
  }

  /** The distinct terrains of a cell. */
  cellTerrains(x: number, y: number): number[] {
    return [...new Set(this.cellPoints(x, y).map((p) => this.grid.cells[p]!))];
  }

  /** A cell every part of which is walked on. */
  cellWalkable(x: number, y: number): boolean {
    return this.cellPoints(x, y).every((p) => this.walkable[this.grid.cells[p]!]);
  }

  /** A cell all of one terrain (`id` when given). */
  cellIs(x: number, y: number, id?: number): boolean {
    const points = this.cellPoints(x, y);
    const first = this.grid.cells[points[0]!]!;
    return (id === undefined || first === id) && points.every((p) => this.grid.cells[p] === first);
  }

  /** The map cell a terrain point lies in (the cell whose top-left corner it is, clamped). */
  cellOfPoint(p: number): number {
    const x = Math.min(this.columns - 1, p % this.gw);
    const y = Math.min(this.rows - 1, Math.floor(p / this.gw));
    return y * this.columns + x;
  }

  /** A cell's top-left terrain point. */
  pointOfCell(c: number): number {
    return Math.floor(c / this.columns) * this.gw + (c % this.columns);
  }

  terrainAt(x: number, y: number): number {
    return at(this.grid, x, y);
  }
}

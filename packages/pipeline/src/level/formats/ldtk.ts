/**
 * The LDtk project of a level (JSON schema of LDtk 1.5.3, vendored in test/formats/ldtk): an IntGrid
 * layer `Terrain` (value = terrain id + 1, grouped walkable / blocked), an auto-layer `Tiles` whose
 * rules are the tileset's own — one 3 × 3 pattern per tile — with the tiles they place, and an
 * entity layer `Props` (each prop an entity drawn with its sprite; the spawn a point).
 *
 * A wang16 tile depends on its four corners, not on a cell: the IntGrid holds the corners
 * ((columns + 1) × (rows + 1) cells, the layer shifted half a tile up and left) and each rule
 * reads the 2 × 2 corners at and after its cell, its tile moved half a tile back onto the map cell
 * (`tileXOffset`, `tileYOffset`); the corners past the last row and column have no tile (the rule
 * reads outside the grid). A blob47 tile depends on its cell and 8 neighbours: one cell each.
 */
import { toHex } from '../../palette.js';
import { BLOB_MASKS } from '../../tileset/rules.js';
import type { LevelBuild } from '../build.js';
import { tilesetSheet } from '../tiles.js';
import { ident, LEVEL_FILES, placedProps } from './shared.js';

const JSON_VERSION = '1.5.3';

/** A stable id from a name (LDtk's iids are UUIDs; these are derived from the level's seed). */
function iid(seed: number, name: string): string {
  let h = 2166136261 ^ seed;
  const hex: string[] = [];
  for (let round = 0; round < 4; round++) {
    for (const ch of `${round}:${name}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    hex.push((h >>> 0).toString(16).padStart(8, '0'));
  }
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-8${s.slice(17, 20)}-${s.slice(20, 32)}`;
}

/** The rules of the tileset: the pattern each tile is placed by (LDtk: 0 anything, v must be v, −v must not). */
function ldtkRules(
  build: LevelBuild,
): Array<{ tile: number; tiles: number[]; pattern: number[]; outOfBounds: number | null }> {
  const set = build.tileset;
  if (set.kind === 'wang16') {
    // a full tile's variants are no rules of their own: its rule places one of its drawings
    const variant = new Set([...set.fullVariants.values()].flatMap((ids) => ids.slice(1)));
    return set.tiles.flatMap((tile, id) => {
      if (variant.has(id)) return [];
      const [tl, , tr, , , , bl, , br] = tile.lattice as number[];
      return [
        {
          tile: id,
          tiles: set.fullVariants.get(id) ?? [id],
          pattern: [0, 0, 0, 0, tl! + 1, tr! + 1, 0, bl! + 1, br! + 1],
          outOfBounds: null,
        },
      ];
    });
  }
  const [lower, upper] = set.blobTerrains!;
  const up = upper + 1;
  const rules: Array<{ tile: number; tiles: number[]; pattern: number[]; outOfBounds: number | null }> =
    BLOB_MASKS.map((mask, id) => {
      const has = (bit: number) => (mask & bit ? up : -up);
      const corner = (bit: number, a: number, b: number) => (mask & a && mask & b ? has(bit) : 0);
      // N=1 NE=2 E=4 SE=8 S=16 SW=32 W=64 NW=128, read row by row
      const pattern = [
        corner(128, 1, 64),
        has(1),
        corner(2, 1, 4),
        has(64),
        up,
        has(4),
        corner(32, 16, 64),
        has(16),
        corner(8, 16, 4),
      ];
      // outside the map counts as the cell's own terrain (as the level was tiled)
      // a full tile's variants (a tileset task's, decision 0094): its rule places one of its drawings
      return { tile: id, tiles: set.fullVariants.get(id) ?? [id], pattern, outOfBounds: up };
    });
  rules.push({
    tile: BLOB_MASKS.length,
    tiles: set.fullVariants.get(BLOB_MASKS.length) ?? [BLOB_MASKS.length],
    pattern: [0, 0, 0, 0, lower + 1, 0, 0, 0, 0],
    outOfBounds: null,
  });
  return rules;
}

/** The auto-layer's tiles: where the rules put each tile (layer pixels), from the map. */
function autoTiles(build: LevelBuild, ruleUid: (tile: number) => number) {
  const set = build.tileset;
  const s = set.tileSize;
  const { columns, rows } = build.plan;
  const half = set.kind === 'wang16' ? s / 2 : 0;
  const gridW = set.kind === 'wang16' ? columns + 1 : columns;
  const out: Array<{
    px: [number, number];
    src: [number, number];
    f: number;
    t: number;
    d: [number, number];
    a: number;
  }> = [];
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < columns; x++) {
      const t = build.map[y * columns + x]!;
      if (t < 0) continue;
      out.push({
        px: [x * s + half, y * s + half],
        src: [(t % set.columns) * s, Math.floor(t / set.columns) * s],
        f: 0,
        t,
        d: [ruleUid(t), y * gridW + x],
        a: 1,
      });
    }
  return out;
}

type LdtkRule = ReturnType<typeof ldtkRules>[number];

/** The uids of a project's definitions, given in LDtk's order; `next` is the project's `nextUid`. */
interface LdtkUids {
  terrainTileset: number;
  propsTileset: number;
  intGrid: number;
  auto: number;
  entities: number;
  rules: number[];
  ruleGroup: number;
  props: number[];
  spawn: number;
  level: number;
  next: number;
}

const GROUP_WALK = 1;
const GROUP_BLOCK = 2;

function ldtkUids(build: LevelBuild, rules: readonly LdtkRule[]): LdtkUids {
  let uid = 1;
  const next = () => uid++;
  const terrainTileset = next();
  const propsTileset = next();
  const intGrid = next();
  const auto = next();
  const entities = next();
  const ruleUids = rules.map(() => next());
  const ruleGroup = next();
  const props = build.propImages.map(() => next());
  const spawn = next();
  const level = next();
  return {
    terrainTileset,
    propsTileset,
    intGrid,
    auto,
    entities,
    rules: ruleUids,
    ruleGroup,
    props,
    spawn,
    level,
    next: uid,
  };
}

/** A layer definition: LDtk's defaults, then `over`. */
function layerDef(s: number, over: Record<string, unknown>) {
  return {
    displayOpacity: 1,
    pxOffsetX: 0,
    pxOffsetY: 0,
    parallaxFactorX: 0,
    parallaxFactorY: 0,
    parallaxScaling: true,
    gridSize: s,
    guideGridWid: 0,
    guideGridHei: 0,
    intGridValues: [],
    intGridValuesGroups: [],
    autoRuleGroups: [],
    autoSourceLayerDefUid: null,
    tilesetDefUid: null,
    tilePivotX: 0,
    tilePivotY: 0,
    canSelectWhenInactive: true,
    excludedTags: [],
    requiredTags: [],
    hideFieldsWhenInactive: true,
    hideInList: false,
    inactiveOpacity: 1,
    renderInWorldView: true,
    uiFilterTags: [],
    useAsyncRender: false,
    doc: null,
    uiColor: null,
    biomeFieldUid: null,
    autoTilesKilledByOtherLayerUid: null,
    ...over,
  };
}

/** One auto-layer rule: its 3 × 3 pattern and the tile it places (half a tile back for wang16). */
function ruleDef(r: LdtkRule, uid: number, shift: number) {
  return {
    uid,
    active: true,
    size: 3,
    // one tile of several drawings: LDtk's 'Single' mode picks one of these when it runs the rule
    tileRectsIds: r.tiles.map((t) => [t]),
    alpha: 1,
    chance: 1,
    breakOnMatch: true,
    pattern: r.pattern,
    flipX: false,
    flipY: false,
    xModulo: 1,
    yModulo: 1,
    xOffset: 0,
    yOffset: 0,
    tileXOffset: shift,
    tileYOffset: shift,
    tileRandomXMin: 0,
    tileRandomXMax: 0,
    tileRandomYMin: 0,
    tileRandomYMax: 0,
    checker: 'None',
    tileMode: 'Single',
    pivotX: 0,
    pivotY: 0,
    outOfBoundsValue: r.outOfBounds,
    invalidated: false,
    perlinActive: false,
    perlinSeed: 0,
    perlinScale: 0.2,
    perlinOctaves: 2,
  };
}

/** The three layer definitions: Props (entities), Tiles (the auto-layer) and Terrain (the IntGrid). */
function layerDefs(build: LevelBuild, rules: readonly LdtkRule[], uids: LdtkUids) {
  const set = build.tileset;
  const s = set.tileSize;
  const walkable = build.space.walkable;
  const intGridValues = set.terrains.map((name, t) => ({
    value: t + 1,
    identifier: ident(name),
    color: toHex(set.colors[t] ?? [128, 128, 128]),
    tile: null,
    groupUid: walkable[t] ? GROUP_WALK : GROUP_BLOCK,
  }));
  const shift = set.kind === 'wang16' ? s / 2 : 0;
  return [
    layerDef(s, { __type: 'Entities', identifier: 'Props', type: 'Entities', uid: uids.entities }),
    layerDef(s, {
      __type: 'AutoLayer',
      identifier: 'Tiles',
      type: 'AutoLayer',
      uid: uids.auto,
      autoSourceLayerDefUid: uids.intGrid,
      tilesetDefUid: uids.terrainTileset,
      autoRuleGroups: [
        {
          uid: uids.ruleGroup,
          name: `${set.kind} terrain rules`,
          color: null,
          icon: null,
          active: true,
          isOptional: false,
          rules: rules.map((r, i) => ruleDef(r, uids.rules[i]!, shift)),
          usesWizard: false,
          requiredBiomeValues: [],
          biomeRequirementMode: 0,
        },
      ],
    }),
    layerDef(s, {
      __type: 'IntGrid',
      identifier: 'Terrain',
      type: 'IntGrid',
      uid: uids.intGrid,
      displayOpacity: 0.35,
      intGridValues,
      intGridValuesGroups: [
        { uid: GROUP_WALK, identifier: 'walkable', color: '#4CAF50' },
        { uid: GROUP_BLOCK, identifier: 'blocked', color: '#E53935' },
      ],
    }),
  ];
}

/** An entity definition: the fields every one has, then `over` (values only; the keys keep their place). */
function entityDef(over: Record<string, unknown>) {
  return {
    identifier: '',
    uid: 0,
    tags: [] as string[],
    exportToToc: false,
    allowOutOfBounds: false,
    doc: null,
    width: 0,
    height: 0,
    resizableX: false,
    resizableY: false,
    minWidth: null,
    maxWidth: null,
    minHeight: null,
    maxHeight: null,
    keepAspectRatio: true,
    tileOpacity: 1,
    fillOpacity: 0.08,
    lineOpacity: 0,
    hollow: false,
    color: '#94D9B3',
    renderMode: 'Tile',
    showName: false,
    tilesetId: null as number | null,
    tileRenderMode: 'FitInside',
    tileRect: null as unknown,
    uiTileRect: null,
    nineSliceBorders: [],
    maxCount: 0,
    limitScope: 'PerLevel',
    limitBehavior: 'MoveLastOne',
    pivotX: 0.5,
    pivotY: 1,
    fieldDefs: [],
    ...over,
  };
}

/** The entities: each prop kind drawn with its sprite (2 × 2 tiles, pivot at its foot), and the spawn. */
function entityDefs(build: LevelBuild, props: ReturnType<typeof placedProps>, uids: LdtkUids) {
  const s = build.tileset.tileSize;
  return [
    ...build.propImages.map((p, i) =>
      entityDef({
        identifier: ident(p.kind),
        uid: uids.props[i]!,
        tags: props.find((q) => q.kind === p.kind)?.blocks ? ['blocks'] : [],
        width: 2 * s,
        height: 2 * s,
        tilesetId: uids.propsTileset,
        tileRect: { tilesetUid: uids.propsTileset, x: i * 2 * s, y: 0, w: 2 * s, h: 2 * s },
      }),
    ),
    entityDef({
      identifier: 'Spawn',
      uid: uids.spawn,
      width: s,
      height: s,
      keepAspectRatio: false,
      lineOpacity: 1,
      color: '#FF0000',
      renderMode: 'Cross',
      showName: true,
      maxCount: 1,
      pivotY: 0.5,
    }),
  ];
}

/** The entity layer's instances: every placed prop, and the spawn point when the level has one. */
function entityInstances(build: LevelBuild, props: ReturnType<typeof placedProps>, uids: LdtkUids) {
  const s = build.tileset.tileSize;
  const { columns } = build.plan;
  const seed = build.seed;
  const out = props.map((p, k) => ({
    __identifier: ident(p.kind),
    __grid: [p.x, p.y],
    __pivot: [0.5, 1],
    __tags: p.blocks ? ['blocks'] : [],
    __tile: { tilesetUid: uids.propsTileset, x: p.index * 2 * s, y: 0, w: 2 * s, h: 2 * s },
    __smartColor: '#94D9B3',
    __worldX: p.rect.x + s,
    __worldY: p.rect.y + 2 * s,
    iid: iid(seed, `prop ${k}`),
    width: 2 * s,
    height: 2 * s,
    defUid: uids.props[p.index]!,
    px: [p.rect.x + s, p.rect.y + 2 * s],
    fieldInstances: [],
  }));
  if (build.plan.spawn >= 0) {
    const sx = build.plan.spawn % columns;
    const sy = Math.floor(build.plan.spawn / columns);
    out.push({
      __identifier: 'Spawn',
      __grid: [sx, sy],
      __pivot: [0.5, 0.5],
      __tags: [],
      __tile: null as never,
      __smartColor: '#FF0000',
      __worldX: sx * s + s / 2,
      __worldY: sy * s + s / 2,
      iid: iid(seed, 'spawn'),
      width: s,
      height: s,
      defUid: uids.spawn,
      px: [sx * s + s / 2, sy * s + s / 2],
      fieldInstances: [],
    });
  }
  return out;
}

/** A tileset definition: the fields every one has, then `over`. */
function tilesetDef(over: Record<string, unknown>) {
  return {
    __cWid: 1,
    __cHei: 1,
    identifier: '',
    uid: 0,
    relPath: '',
    embedAtlas: null,
    pxWid: 0,
    pxHei: 0,
    tileGridSize: 0,
    spacing: 0,
    padding: 0,
    tags: [],
    tagsSourceEnumUid: null,
    enumTags: [],
    customData: [] as unknown[],
    savedSelections: [],
    cachedPixelData: null,
    ...over,
  };
}

/** The two tilesets: the terrain sheet (each tile's name as its custom data) and the props in one row. */
function tilesetDefs(build: LevelBuild, uids: LdtkUids) {
  const set = build.tileset;
  const s = set.tileSize;
  const sheet = tilesetSheet(set);
  const props = Math.max(1, build.propImages.length);
  return [
    tilesetDef({
      __cWid: set.columns,
      __cHei: Math.ceil(set.tiles.length / set.columns),
      identifier: 'Terrain',
      uid: uids.terrainTileset,
      relPath: LEVEL_FILES.tiles,
      pxWid: sheet.width,
      pxHei: sheet.height,
      tileGridSize: s,
      customData: set.tiles.map((tile, id) => ({ tileId: id, data: tile.name })),
    }),
    tilesetDef({
      __cWid: props,
      identifier: 'Props',
      uid: uids.propsTileset,
      relPath: LEVEL_FILES.props,
      pxWid: props * 2 * s,
      pxHei: 2 * s,
      tileGridSize: 2 * s,
    }),
  ];
}

/** The level's three layer instances (Props, Tiles, Terrain); wang16's grids are the corners, shifted. */
function layerInstances(
  build: LevelBuild,
  rules: readonly LdtkRule[],
  props: ReturnType<typeof placedProps>,
  uids: LdtkUids,
) {
  const set = build.tileset;
  const s = set.tileSize;
  const { columns, rows } = build.plan;
  const seed = build.seed;
  const wang = set.kind === 'wang16';
  const gridW = wang ? columns + 1 : columns;
  const gridH = wang ? rows + 1 : rows;
  const offset = wang ? -s / 2 : 0;
  const terrainCsv: number[] = [];
  for (let i = 0; i < gridW * gridH; i++) terrainCsv.push(build.plan.terrain.cells[i]! + 1);
  const layerInstance = (over: Record<string, unknown>) => ({
    __gridSize: s,
    __opacity: 1,
    __tilesetDefUid: null,
    __tilesetRelPath: null,
    levelId: uids.level,
    visible: true,
    optionalRules: [],
    intGridCsv: [],
    autoLayerTiles: [],
    seed: seed % 9999999,
    overrideTilesetUid: null,
    gridTiles: [],
    entityInstances: [],
    ...over,
  });
  const grid = (identifier: string, type: string, layerDefUid: number, name: string) => ({
    __identifier: identifier,
    __type: type,
    __cWid: gridW,
    __cHei: gridH,
    __pxTotalOffsetX: offset,
    __pxTotalOffsetY: offset,
    iid: iid(seed, name),
    layerDefUid,
    pxOffsetX: offset,
    pxOffsetY: offset,
  });
  return [
    layerInstance({
      __identifier: 'Props',
      __type: 'Entities',
      __cWid: columns,
      __cHei: rows,
      __pxTotalOffsetX: 0,
      __pxTotalOffsetY: 0,
      iid: iid(seed, 'props layer'),
      layerDefUid: uids.entities,
      pxOffsetX: 0,
      pxOffsetY: 0,
      entityInstances: entityInstances(build, props, uids),
    }),
    layerInstance({
      ...grid('Tiles', 'AutoLayer', uids.auto, 'tiles layer'),
      __tilesetDefUid: uids.terrainTileset,
      __tilesetRelPath: LEVEL_FILES.tiles,
      autoLayerTiles: autoTiles(build, (t) => uids.rules[rules.findIndex((r) => r.tiles.includes(t))]!),
    }),
    layerInstance({ ...grid('Terrain', 'IntGrid', uids.intGrid, 'terrain layer'), intGridCsv: terrainCsv }),
  ];
}

export function levelLdtk(build: LevelBuild): string {
  const s = build.tileset.tileSize;
  const { columns, rows } = build.plan;
  const seed = build.seed;
  const rules = ldtkRules(build);
  const uids = ldtkUids(build, rules);
  const props = placedProps(build);
  const project = {
    __header__: {
      fileType: 'LDtk Project JSON',
      app: 'LDtk',
      doc: 'https://ldtk.io/json',
      schema: 'https://ldtk.io/files/JSON_SCHEMA.json',
      appAuthor: 'Sebastien Benard',
      appVersion: JSON_VERSION,
      url: 'https://ldtk.io',
    },
    iid: iid(seed, 'project'),
    jsonVersion: JSON_VERSION,
    appBuildId: 473703,
    nextUid: uids.next,
    identifierStyle: 'Capitalize',
    toc: [],
    worldLayout: 'Free',
    worldGridWidth: columns * s,
    worldGridHeight: rows * s,
    defaultLevelWidth: columns * s,
    defaultLevelHeight: rows * s,
    defaultPivotX: 0,
    defaultPivotY: 0,
    defaultGridSize: s,
    defaultEntityWidth: s,
    defaultEntityHeight: s,
    bgColor: '#40465B',
    defaultLevelBgColor: '#696A79',
    minifyJson: false,
    externalLevels: false,
    exportTiled: false,
    simplifiedExport: false,
    imageExportMode: 'None',
    exportLevelBg: true,
    pngFilePattern: null,
    backupOnSave: false,
    backupLimit: 10,
    backupRelPath: null,
    levelNamePattern: 'Level_%idx',
    tutorialDesc: null,
    customCommands: [],
    flags: [],
    defs: {
      layers: layerDefs(build, rules, uids),
      entities: entityDefs(build, props, uids),
      enums: [],
      externalEnums: [],
      levelFields: [],
      tilesets: tilesetDefs(build, uids),
    },
    levels: [
      {
        identifier: 'Level_0',
        iid: iid(seed, 'level'),
        uid: uids.level,
        worldX: 0,
        worldY: 0,
        worldDepth: 0,
        pxWid: columns * s,
        pxHei: rows * s,
        __bgColor: '#696A79',
        bgColor: null,
        useAutoIdentifier: false,
        bgRelPath: null,
        bgPos: null,
        bgPivotX: 0.5,
        bgPivotY: 0.5,
        __smartColor: '#ADADB5',
        __bgPos: null,
        externalRelPath: null,
        fieldInstances: [],
        layerInstances: layerInstances(build, rules, props, uids),
        __neighbours: [],
      },
    ],
    worlds: [],
    dummyWorldIid: iid(seed, 'world'),
  };
  return `${JSON.stringify(project, null, 1)}\n`;
}

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
): Array<{ tile: number; pattern: number[]; outOfBounds: number | null }> {
  const set = build.tileset;
  if (set.kind === 'wang16') {
    return set.tiles.map((tile, id) => {
      const [tl, , tr, , , , bl, , br] = tile.lattice as number[];
      return { tile: id, pattern: [0, 0, 0, 0, tl! + 1, tr! + 1, 0, bl! + 1, br! + 1], outOfBounds: null };
    });
  }
  const [lower, upper] = set.blobTerrains!;
  const up = upper + 1;
  const rules: Array<{ tile: number; pattern: number[]; outOfBounds: number | null }> = BLOB_MASKS.map(
    (mask, id) => {
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
      return { tile: id, pattern, outOfBounds: up };
    },
  );
  rules.push({ tile: BLOB_MASKS.length, pattern: [0, 0, 0, 0, lower + 1, 0, 0, 0, 0], outOfBounds: null });
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

export function levelLdtk(build: LevelBuild): string {
  const set = build.tileset;
  const s = set.tileSize;
  const { columns, rows } = build.plan;
  const seed = build.seed;
  const sheet = tilesetSheet(set);
  const wang = set.kind === 'wang16';
  const gridW = wang ? columns + 1 : columns;
  const gridH = wang ? rows + 1 : rows;
  const offset = wang ? -s / 2 : 0;
  let uid = 1;
  const next = () => uid++;
  const TERRAIN_TILESET = next();
  const PROPS_TILESET = next();
  const INTGRID = next();
  const AUTO = next();
  const ENTITIES = next();
  const GROUP_WALK = 1;
  const GROUP_BLOCK = 2;
  const rules = ldtkRules(build);
  const ruleUids = rules.map(() => next());
  const RULE_GROUP = next();
  const propIds = build.propImages.map(() => next());
  const SPAWN = next();
  const LEVEL = next();
  const walkable = build.space.walkable;
  const intGridValues = set.terrains.map((name, t) => ({
    value: t + 1,
    identifier: ident(name),
    color: toHex(set.colors[t] ?? [128, 128, 128]),
    tile: null,
    groupUid: walkable[t] ? GROUP_WALK : GROUP_BLOCK,
  }));
  const layerDef = (over: Record<string, unknown>) => ({
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
  });
  const rule = (r: (typeof rules)[number], i: number) => ({
    uid: ruleUids[i]!,
    active: true,
    size: 3,
    tileRectsIds: [[r.tile]],
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
    tileXOffset: wang ? s / 2 : 0,
    tileYOffset: wang ? s / 2 : 0,
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
  });
  const terrainCsv: number[] = [];
  for (let i = 0; i < gridW * gridH; i++) terrainCsv.push(build.plan.terrain.cells[i]! + 1);
  const props = placedProps(build);
  const entityDefs = [
    ...build.propImages.map((p, i) => ({
      identifier: ident(p.kind),
      uid: propIds[i]!,
      tags: props.find((q) => q.kind === p.kind)?.blocks ? ['blocks'] : [],
      exportToToc: false,
      allowOutOfBounds: false,
      doc: null,
      width: 2 * s,
      height: 2 * s,
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
      tilesetId: PROPS_TILESET,
      tileRenderMode: 'FitInside',
      tileRect: { tilesetUid: PROPS_TILESET, x: i * 2 * s, y: 0, w: 2 * s, h: 2 * s },
      uiTileRect: null,
      nineSliceBorders: [],
      maxCount: 0,
      limitScope: 'PerLevel',
      limitBehavior: 'MoveLastOne',
      pivotX: 0.5,
      pivotY: 1,
      fieldDefs: [],
    })),
    {
      identifier: 'Spawn',
      uid: SPAWN,
      tags: [],
      exportToToc: false,
      allowOutOfBounds: false,
      doc: null,
      width: s,
      height: s,
      resizableX: false,
      resizableY: false,
      minWidth: null,
      maxWidth: null,
      minHeight: null,
      maxHeight: null,
      keepAspectRatio: false,
      tileOpacity: 1,
      fillOpacity: 0.08,
      lineOpacity: 1,
      hollow: false,
      color: '#FF0000',
      renderMode: 'Cross',
      showName: true,
      tilesetId: null,
      tileRenderMode: 'FitInside',
      tileRect: null,
      uiTileRect: null,
      nineSliceBorders: [],
      maxCount: 1,
      limitScope: 'PerLevel',
      limitBehavior: 'MoveLastOne',
      pivotX: 0.5,
      pivotY: 0.5,
      fieldDefs: [],
    },
  ];
  const entityInstances = props.map((p, k) => ({
    __identifier: ident(p.kind),
    __grid: [p.x, p.y],
    __pivot: [0.5, 1],
    __tags: p.blocks ? ['blocks'] : [],
    __tile: { tilesetUid: PROPS_TILESET, x: p.index * 2 * s, y: 0, w: 2 * s, h: 2 * s },
    __smartColor: '#94D9B3',
    __worldX: p.rect.x + s,
    __worldY: p.rect.y + 2 * s,
    iid: iid(seed, `prop ${k}`),
    width: 2 * s,
    height: 2 * s,
    defUid: propIds[p.index]!,
    px: [p.rect.x + s, p.rect.y + 2 * s],
    fieldInstances: [],
  }));
  if (build.plan.spawn >= 0) {
    const sx = build.plan.spawn % columns;
    const sy = Math.floor(build.plan.spawn / columns);
    entityInstances.push({
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
      defUid: SPAWN,
      px: [sx * s + s / 2, sy * s + s / 2],
      fieldInstances: [],
    });
  }
  const layerInstance = (over: Record<string, unknown>) => ({
    __gridSize: s,
    __opacity: 1,
    __tilesetDefUid: null,
    __tilesetRelPath: null,
    levelId: LEVEL,
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
  const levelIid = iid(seed, 'level');
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
    nextUid: uid,
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
      layers: [
        layerDef({ __type: 'Entities', identifier: 'Props', type: 'Entities', uid: ENTITIES }),
        layerDef({
          __type: 'AutoLayer',
          identifier: 'Tiles',
          type: 'AutoLayer',
          uid: AUTO,
          autoSourceLayerDefUid: INTGRID,
          tilesetDefUid: TERRAIN_TILESET,
          autoRuleGroups: [
            {
              uid: RULE_GROUP,
              name: `${set.kind} terrain rules`,
              color: null,
              icon: null,
              active: true,
              isOptional: false,
              rules: rules.map(rule),
              usesWizard: false,
              requiredBiomeValues: [],
              biomeRequirementMode: 0,
            },
          ],
        }),
        layerDef({
          __type: 'IntGrid',
          identifier: 'Terrain',
          type: 'IntGrid',
          uid: INTGRID,
          displayOpacity: 0.35,
          intGridValues,
          intGridValuesGroups: [
            { uid: GROUP_WALK, identifier: 'walkable', color: '#4CAF50' },
            { uid: GROUP_BLOCK, identifier: 'blocked', color: '#E53935' },
          ],
        }),
      ],
      entities: entityDefs,
      enums: [],
      externalEnums: [],
      levelFields: [],
      tilesets: [
        {
          __cWid: set.columns,
          __cHei: Math.ceil(set.tiles.length / set.columns),
          identifier: 'Terrain',
          uid: TERRAIN_TILESET,
          relPath: LEVEL_FILES.tiles,
          embedAtlas: null,
          pxWid: sheet.width,
          pxHei: sheet.height,
          tileGridSize: s,
          spacing: 0,
          padding: 0,
          tags: [],
          tagsSourceEnumUid: null,
          enumTags: [],
          customData: set.tiles.map((tile, id) => ({ tileId: id, data: tile.name })),
          savedSelections: [],
          cachedPixelData: null,
        },
        {
          __cWid: Math.max(1, build.propImages.length),
          __cHei: 1,
          identifier: 'Props',
          uid: PROPS_TILESET,
          relPath: LEVEL_FILES.props,
          embedAtlas: null,
          pxWid: Math.max(1, build.propImages.length) * 2 * s,
          pxHei: 2 * s,
          tileGridSize: 2 * s,
          spacing: 0,
          padding: 0,
          tags: [],
          tagsSourceEnumUid: null,
          enumTags: [],
          customData: [],
          savedSelections: [],
          cachedPixelData: null,
        },
      ],
    },
    levels: [
      {
        identifier: 'Level_0',
        iid: levelIid,
        uid: LEVEL,
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
        layerInstances: [
          layerInstance({
            __identifier: 'Props',
            __type: 'Entities',
            __cWid: columns,
            __cHei: rows,
            __pxTotalOffsetX: 0,
            __pxTotalOffsetY: 0,
            iid: iid(seed, 'props layer'),
            layerDefUid: ENTITIES,
            pxOffsetX: 0,
            pxOffsetY: 0,
            entityInstances,
          }),
          layerInstance({
            __identifier: 'Tiles',
            __type: 'AutoLayer',
            __cWid: gridW,
            __cHei: gridH,
            __pxTotalOffsetX: offset,
            __pxTotalOffsetY: offset,
            __tilesetDefUid: TERRAIN_TILESET,
            __tilesetRelPath: LEVEL_FILES.tiles,
            iid: iid(seed, 'tiles layer'),
            layerDefUid: AUTO,
            pxOffsetX: offset,
            pxOffsetY: offset,
            autoLayerTiles: autoTiles(build, (t) => ruleUids[rules.findIndex((r) => r.tile === t)]!),
          }),
          layerInstance({
            __identifier: 'Terrain',
            __type: 'IntGrid',
            __cWid: gridW,
            __cHei: gridH,
            __pxTotalOffsetX: offset,
            __pxTotalOffsetY: offset,
            iid: iid(seed, 'terrain layer'),
            layerDefUid: INTGRID,
            pxOffsetX: offset,
            pxOffsetY: offset,
            intGridCsv: terrainCsv,
          }),
        ],
        __neighbours: [],
      },
    ],
    worlds: [],
    dummyWorldIid: iid(seed, 'world'),
  };
  return `${JSON.stringify(project, null, 1)}\n`;
}

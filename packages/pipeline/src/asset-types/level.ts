import { PipelineError } from '../errors.js';
import { assembleLevel, type LevelBuild } from '../level/build.js';
import { levelChecks } from '../level/checks.js';
import { levelFiles } from '../level/files.js';
import { readLevelLayout } from '../level/layout.js';
import { levelParams, levelProblems } from '../level/params.js';
import { palmsAsked } from '../level/places.js';
import { PROP_KINDS, type PropKind } from '../level/plan.js';
import type { TerrainName } from '../tileset/terrains.js';
import type { GenerationParams, ImageInputs, LevelDrawRequest } from '../types/index.js';
import type { AssetTypeModule } from './types.js';

/** The props a layout may place (its biome's trees, rocks, houses, chests, the cave's mouth, doors). */
function propsFor(base: string, biome: string, kinds: readonly string[], palms: boolean): PropKind[] {
  const out = new Set<PropKind>(['rock']);
  if (base === 'dungeon')
    for (const k of [
      'door',
      'door-ew',
      'stairs',
      'stairs-down',
      'barrel',
      'torch',
      'crate',
      'table',
      'bones',
      'rubble',
      'shelf',
      'urn',
    ] as const)
      out.add(k);
  if (base === 'land' || base === 'island' || base === 'archipelago') {
    out.add(biome === 'desert' ? 'cactus' : biome === 'snow' || biome === 'volcanic' ? 'pine' : 'tree');
    out.add('bush');
    if (biome === 'grass') out.add('pine');
    if (base !== 'land' || kinds.includes('sea')) out.add('palm');
    // planks where a crossing spans water (a river, a lake's neck, an inlet of the sea)
    if (base !== 'archipelago') for (const k of ['bridge', 'bridge-ns'] as const) out.add(k);
    // ground cover in patches (a field is not one repeated tile), reeds where land meets still water
    if (biome === 'grass' || biome === 'swamp') for (const k of ['flowers', 'tuft'] as const) out.add(k);
    if (biome === 'swamp' || kinds.some((k) => k === 'lake' || k === 'pond' || k === 'river'))
      out.add('reeds');
  }
  if (kinds.includes('village') || kinds.includes('houses')) out.add('house');
  // a village's long hall (two halves side by side)
  if (kinds.includes('village'))
    for (const k of ['cottage', 'hall-w', 'hall-e', 'well', 'garden'] as const) out.add(k);
  if (kinds.includes('fields')) out.add('crops');
  // palms asked for, or an oasis: palms round its water
  if (palms) out.add('palm');
  if (kinds.includes('chest')) out.add('chest');
  if (kinds.includes('cave')) out.add('cave');
  return PROP_KINDS.filter((k) => out.has(k));
}

/** The layout of a request: the prompt read with the terrains at hand (a given tileset's, or params.level.terrains). */
function layoutOf(params: GenerationParams, userPrompt: string, inputs: ImageInputs | undefined) {
  const given = inputs?.tileset?.terrains ?? levelParams(params.level).terrains ?? null;
  return readLevelLayout(userPrompt, given as TerrainName[] | null);
}

/**
 * Levels (issue #42): a map grown from the prompt's layout, tiled with a tileset's Wang or blob
 * rules, props as objects, written for Tiled, LDtk and Godot 4 with a preview PNG.
 */
export const level: AssetTypeModule<'level'> = {
  type: 'level',
  canvas: false,
  framed: false,
  // the level's picture, and its tiles and props drawn at about the same again
  pixels: (params) => {
    const { columns, rows, tileSize } = levelParams(params.level);
    return 2 * columns * rows * tileSize * tileSize;
  },
  problems: (params) => levelProblems(params.level),
  layout(params) {
    const { columns, rows, tileSize } = levelParams(params.level);
    return {
      frameWidth: columns * tileSize,
      frameHeight: rows * tileSize,
      directions: 1,
      framesPerDirection: 1,
      frameCount: 1,
      directionNames: ['down'],
      opaque: true,
      level: { columns, rows, tileSize },
    };
  },
  promptSize: (p, language) => {
    const { columns, rows, tileSize } = levelParams(p.level);
    return language === 'en'
      ? `${columns}×${rows} cells of ${tileSize}×${tileSize} px`
      : `${columns}×${rows} 格, 每格 ${tileSize}×${tileSize} 像素`;
  },
  promptParts: (_p, language) =>
    language === 'en'
      ? [
          'top-down level map',
          'terrain joined by autotile rules',
          'trees, houses and chests as separate objects',
          'opaque',
        ]
      : ['俯视关卡地图', '地形按自动图块规则拼接', '树木房屋宝箱为独立对象', '不透明'],
  modelPrompt: () => ['A top-down game level map.'],
  modelRefusal:
    'assetType level — a level is grown, tiled and filled with props by the pipeline from the built-in generator’s tiles and sprites; run it on the built-in generator (IMAGE_PROVIDER=procedural)',
  providerRequest(params, run) {
    const { tileSize } = levelParams(params.level);
    const layout = layoutOf(params, run.userPrompt, run.inputs);
    const pairs: Array<[number, number]> = [];
    if (!run.inputs?.tileset)
      for (let a = 0; a < layout.terrains.length; a++)
        for (let b = a + 1; b < layout.terrains.length; b++) pairs.push([a, b]);
    const draw: LevelDrawRequest = {
      tileSize,
      terrains: [...layout.terrains],
      pairs,
      props: propsFor(
        layout.base,
        layout.biome,
        layout.features.map((f) => f.kind),
        palmsAsked(layout),
      ),
    };
    return { level: draw };
  },
  fromModel() {
    throw new PipelineError('unsupported', `unsupported: ${level.modelRefusal}`, { expose: true });
  },
  modelChecks: null,
  assemble(generated, run) {
    const { columns, rows, tileSize } = levelParams(run.params.level);
    const art = generated.levelArt;
    if (!art) throw new PipelineError('provider_failed', 'the provider drew no tiles or props for the level');
    const sheet = run.inputs?.tileset;
    if (sheet && sheet.tileSize !== tileSize) {
      throw new PipelineError(
        'invalid_request',
        `params.level.tileSize is ${tileSize} but the tileset task ${sheet.taskId} has ${sheet.tileSize} px tiles: send its tile size (or none)`,
        { expose: true },
      );
    }
    const layout = layoutOf(run.params, run.userPrompt, run.inputs);
    const build = assembleLevel({
      layout,
      columns,
      rows,
      tileSize,
      seed: run.seed,
      art,
      ...(sheet ? { sheet } : {}),
    });
    const interpretation = {
      ...(generated.interpretation ?? { colors: [] }),
      subject: `${layout.base} level`,
      understood: layout.understood,
      // what the prompt asked that the level could not draw as asked (a feature with no room), with why
      ignored: [...layout.ignored, ...build.plan.notHonoured],
      colors: generated.interpretation?.colors ?? [],
    };
    return {
      frames: [build.preview],
      animation: 'level',
      subject: `${layout.base} level`,
      interpretation,
      level: build,
    };
  },
  checks(generated) {
    const build = generated.level as LevelBuild | undefined;
    return build ? levelChecks(build).checks : [];
  },
  files: (ctx) => levelFiles(ctx),
};

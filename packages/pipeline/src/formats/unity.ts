import type { SheetDescription } from './sheet.js';

/** 32-bit FNV-1a of `text`, started from `seed`, with a murmur3 finaliser. */
function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** 32 lower-case hex digits derived from `text`: a stable Unity guid / spriteID (not a secret). */
function stableGuid(text: string): string {
  return [1, 2, 3, 4].map((s) => hash32(text, s).toString(16).padStart(8, '0')).join('');
}

/** A positive 63-bit id from `text`, as Unity's decimal `internalID`. */
function stableInternalId(text: string): bigint {
  const hi = BigInt(hash32(text, 11) & 0x7fffffff);
  const lo = BigInt(hash32(text, 12));
  const id = (hi << 32n) | lo;
  return id === 0n ? 1n : id;
}

/** A YAML scalar: plain when it is a simple name, else double-quoted with JSON escapes (YAML accepts them). */
function yamlScalar(text: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(text) ? text : JSON.stringify(text);
}

/** Power of two ≥ the page's longer edge (Unity's importer would shrink a texture above `maxTextureSize`). */
function maxTextureSize(width: number, height: number): number {
  let size = 32;
  while (size < Math.max(width, height)) size *= 2;
  return size;
}

/**
 * The `.meta` Unity writes beside a PNG imported as a sliced sprite sheet (TextureImporter,
 * Unity 2022.3 LTS layout, serializedVersion 13): texture type Sprite (8), sprite mode Multiple
 * (2), point filtering, no compression, no mip maps, no power-of-two scaling, and one entry per
 * frame in `spriteSheet.sprites` (`rect` measured from the texture's bottom-left corner, as Unity
 * does), with `nameFileIdTable` naming each sprite's `internalID`. `guidSource` (the PNG's storage
 * key) makes the guid and ids stable for the same file. Pixels per unit = the frame width, so one
 * frame is one world unit wide.
 */
export function unityTextureMeta(sheet: SheetDescription, page: number, guidSource: string): string {
  const image = sheet.pages[page]!;
  const frames = sheet.frames.filter((f) => f.page === page);
  const used = new Set<bigint>();
  const ids = frames.map((f) => {
    let id = stableInternalId(`${guidSource}#${f.name}`);
    while (used.has(id)) id += 1n;
    used.add(id);
    return id;
  });
  const ppu = frames[0]?.w ?? 100;
  const size = maxTextureSize(image.width, image.height);
  const sprites = frames.flatMap((f, i) => [
    '    - serializedVersion: 2',
    `      name: ${yamlScalar(f.name)}`,
    '      rect:',
    '        serializedVersion: 2',
    `        x: ${f.x}`,
    `        y: ${image.height - f.y - f.h}`,
    `        width: ${f.w}`,
    `        height: ${f.h}`,
    '      alignment: 0',
    '      pivot: {x: 0.5, y: 0.5}',
    '      border: {x: 0, y: 0, z: 0, w: 0}',
    '      customData: ',
    '      outline: []',
    '      physicsShape: []',
    '      tessellationDetail: -1',
    '      bones: []',
    `      spriteID: ${stableGuid(`${guidSource}#sprite#${f.name}`)}`,
    `      internalID: ${ids[i]}`,
    '      vertices: []',
    '      indices: ',
    '      edges: []',
    '      weights: []',
  ]);
  const platform = (target: string) => [
    '  - serializedVersion: 4',
    `    buildTarget: ${target}`,
    `    maxTextureSize: ${size}`,
    '    resizeAlgorithm: 0',
    '    textureFormat: -1',
    '    textureCompression: 0',
    '    compressionQuality: 50',
    '    crunchedCompression: 0',
    '    allowsAlphaSplitting: 0',
    '    overridden: 0',
    '    ignorePlatformSupport: 0',
    '    androidETC2FallbackOverride: 0',
    '    forceMaximumCompressionQuality_BC6H_BC7: 0',
  ];
  const lines = [
    'fileFormatVersion: 2',
    `guid: ${stableGuid(guidSource)}`,
    'TextureImporter:',
    '  internalIDToNameTable: []',
    '  externalObjects: {}',
    '  serializedVersion: 13',
    '  mipmaps:',
    '    mipMapMode: 0',
    '    enableMipMap: 0',
    '    sRGBTexture: 1',
    '    linearTexture: 0',
    '    fadeOut: 0',
    '    borderMipMap: 0',
    '    mipMapsPreserveCoverage: 0',
    '    alphaTestReferenceValue: 0.5',
    '    mipMapFadeDistanceStart: 1',
    '    mipMapFadeDistanceEnd: 3',
    '  bumpmap:',
    '    convertToNormalMap: 0',
    '    externalNormalMap: 0',
    '    heightScale: 0.25',
    '    normalMapFilter: 0',
    '    flipGreenChannel: 0',
    '  isReadable: 0',
    '  streamingMipmaps: 0',
    '  streamingMipmapsPriority: 0',
    '  vTOnly: 0',
    '  ignoreMipmapLimit: 0',
    '  grayScaleToAlpha: 0',
    '  generateCubemap: 6',
    '  cubemapConvolution: 0',
    '  seamlessCubemap: 0',
    '  textureFormat: 1',
    `  maxTextureSize: ${size}`,
    '  textureSettings:',
    '    serializedVersion: 2',
    '    filterMode: 0',
    '    aniso: 1',
    '    mipBias: 0',
    '    wrapU: 1',
    '    wrapV: 1',
    '    wrapW: 1',
    '  nPOTScale: 0',
    '  lightmap: 0',
    '  compressionQuality: 50',
    '  spriteMode: 2',
    '  spriteExtrude: 1',
    '  spriteMeshType: 0',
    '  alignment: 0',
    '  spritePivot: {x: 0.5, y: 0.5}',
    `  spritePixelsToUnits: ${ppu}`,
    '  spriteBorder: {x: 0, y: 0, z: 0, w: 0}',
    '  spriteGenerateFallbackPhysicsShape: 1',
    '  alphaUsage: 1',
    '  alphaIsTransparency: 1',
    '  spriteTessellationDetail: -1',
    '  textureType: 8',
    '  textureShape: 1',
    '  singleChannelComponent: 0',
    '  flipbookRows: 1',
    '  flipbookColumns: 1',
    '  maxTextureSizeSet: 0',
    '  compressionQualitySet: 0',
    '  textureFormatSet: 0',
    '  ignorePngGamma: 0',
    '  applyGammaDecoding: 0',
    '  swizzle: 50462976',
    '  cookieLightType: 0',
    '  platformSettings:',
    ...platform('DefaultTexturePlatform'),
    ...platform('Standalone'),
    '  spriteSheet:',
    '    serializedVersion: 2',
    '    sprites:',
    ...sprites,
    '    outline: []',
    '    customData: ',
    '    physicsShape: []',
    '    bones: []',
    '    spriteID: ',
    '    internalID: 0',
    '    vertices: []',
    '    indices: ',
    '    edges: []',
    '    weights: []',
    '    secondaryTextures: []',
    '    spriteCustomMetadata:',
    '      entries: []',
    '    nameFileIdTable:',
    ...frames.map((f, i) => `      ${yamlScalar(f.name)}: ${ids[i]}`),
    '  mipmapLimitGroupName: ',
    '  pSDRemoveMatte: 0',
    '  userData: ',
    '  assetBundleName: ',
    '  assetBundleVariant: ',
    '',
  ];
  return lines.join('\n');
}

#!/usr/bin/env node
// Builds src/generated/catalog.ts: the drawings of three licensed open sets, each with the words that
// name it in English and Chinese and what a render of it shows.
//   - Fluent Emoji Flat (MIT) and Noto Emoji (Apache-2.0), as Iconify JSON on npm: the emoji of
//     animals, plants, food, places, vehicles, objects, costumes and fantasy people. Words: the
//     emoji's CLDR annotation and keywords in English and Chinese (`emojibase-data`).
//   - game-icons.net (CC BY 3.0; two authors CC0), as Iconify JSON on npm: silhouettes named in
//     English. Each drawing's author comes from data/game-icons-authors.json (the folder its SVG sits
//     in, in the game-icons repository); a drawing with no known author is left out.
// Each drawing is rendered once with resvg (WebAssembly) to find what a sprite needs to know: whether
// the drawing is cut by its own frame (a cropped cow is no sprite), which way it faces, its bounding
// box, and its main colour.
// `node scripts/gen-catalog.mjs --check` fails when the committed file differs (CI drift check).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(here, '../src/generated/catalog.ts');

const SETS = [
  { key: 'f', prefix: 'fluent-emoji-flat', rank: 0 },
  { key: 'n', prefix: 'noto', rank: 1 },
  { key: 'g', prefix: 'game-icons', rank: 2 },
];
const icons = Object.fromEntries(
  SETS.map((s) => [s.prefix, require(`@iconify-json/${s.prefix}/icons.json`)]),
);
const infos = Object.fromEntries(SETS.map((s) => [s.prefix, require(`@iconify-json/${s.prefix}/info.json`)]));
const versions = Object.fromEntries(
  SETS.map((s) => [s.prefix, require(`@iconify-json/${s.prefix}/package.json`).version]),
);
const giAuthors = JSON.parse(readFileSync(resolve(here, '../data/game-icons-authors.json'), 'utf8')).authors;

// ---- emoji: which ones, and their words ------------------------------------------------------
const en = require('emojibase-data/en/data.json');
const zh = require('emojibase-data/zh/data.json');
const subgroups = require('emojibase-data/meta/groups.json').subgroups;
const zhByHex = new Map(zh.map((e) => [e.hexcode, e]));
// animals … objects; costumes (ghost, alien, robot, ogre, goblin), hearts, body parts (bone, tooth),
// jobs and fantasy people; not faces, hands, gestures, families, symbols or flags
const KEEP_GROUPS = new Set([3, 4, 5, 6, 7]);
const KEEP_SUBGROUPS = new Set([11, 14, 22, 25, 26]);
// symbols a game uses as pieces: the placeholder's question mark, a warning sign, a sparkle
const KEEP_LABELS = new Set([
  'latin cross',
  'red question mark',
  'white question mark',
  'red exclamation mark',
  'warning',
  'radioactive',
  'biohazard',
  'recycling symbol',
  'atom symbol',
  'yin yang',
  'peace symbol',
  'anger symbol',
  'collision',
  'dizzy',
  'speech balloon',
  'zzz',
]);
const SKIP_LABEL =
  /^(man|woman|men|women) |^(pregnant|breast|person (wearing|with skullcap)|woman with headscarf)|feeding baby|^(hand|hands|index|thumbs|raised|ok hand)|skin tone|^(left|right)-|keycap|^flag/;
const SKIP_NAMES = new Set(['hand', 'hands', 'mechanical arm', 'mechanical leg', 'ear with hearing aid']);
const hexKey = (hex) =>
  hex
    .toLowerCase()
    .split('-')
    .filter((p) => p !== 'fe0f')
    .join('-');
const charsOf = (prefix) => {
  const m = new Map();
  for (const [hex, name] of Object.entries(require(`@iconify-json/${prefix}/chars.json`)))
    m.set(hexKey(hex), name);
  return m;
};
const chars = { 'fluent-emoji-flat': charsOf('fluent-emoji-flat'), noto: charsOf('noto') };

const STOP = new Set([
  'a',
  'an',
  'the',
  'of',
  'and',
  'with',
  'in',
  'on',
  'for',
  'at',
  'to',
  'from',
  'person',
]);
const wordsOf = (text) =>
  text
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^a-z0-9-]+/)
    .flatMap((w) => (w.includes('-') && !/^[a-z]+-o-[a-z]+$/.test(w) ? [w, ...w.split('-')] : [w]))
    .filter((w) => w && !STOP.has(w) && !/^\d+$/.test(w));
/**
 * The nouns a label is about: "bow and arrow" → bow, arrow; "evergreen tree" → tree; "person with
 * crown" → crown; "heart with arrow" → heart; "castle" → castle.
 */
function headsOf(label) {
  const text = label
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/:.*$/, '')
    .replace(/^person (with|in|wearing) /, '');
  const phrase = text.split(/ (with|in|on|of|for|at|from|facing) /)[0];
  const parts = phrase.split(/ and | & /).map((p) => p.trim().split(/\s+/).at(-1));
  return [...new Set(parts.filter((p) => p && !STOP.has(p)))];
}

/** @type {Array<{id:string,set:string,name:string,label:string,zh:string[],heads:string[],words:string[],group:string,face:boolean}>} */
const drawings = [];
for (const e of en) {
  const person = e.group === 1;
  if (!KEEP_GROUPS.has(e.group) && !KEEP_SUBGROUPS.has(e.subgroup) && !KEEP_LABELS.has(e.label)) continue;
  if (SKIP_LABEL.test(e.label) || SKIP_NAMES.has(e.label)) continue;
  if (e.subgroup === 22 && !/bone|tooth|brain|eye|heart|lungs|foot|leg|ear|nose|tongue|mouth/.test(e.label))
    continue;
  const z = zhByHex.get(e.hexcode);
  const label = e.label.toLowerCase();
  const heads = headsOf(label);
  const tags = (e.tags ?? []).map((t) => t.toLowerCase()).filter((t) => /^[a-z][a-z -]*$/.test(t));
  const words = [...new Set([...wordsOf(label), ...tags.flatMap(wordsOf)])].filter((w) => !heads.includes(w));
  const zhWords = z
    ? [...new Set([z.label, ...(z.tags ?? [])].filter((w) => /^[\u3400-\u9fff]{1,8}$/.test(w)))]
    : [];
  for (const prefix of ['fluent-emoji-flat', 'noto']) {
    const name = chars[prefix].get(hexKey(e.hexcode));
    if (!name || !icons[prefix].icons[name]) continue;
    drawings.push({
      id: `${prefix === 'noto' ? 'n' : 'f'}/${name}`,
      set: prefix,
      name,
      label,
      zh: zhWords,
      heads,
      words,
      group: subgroups[e.subgroup] ?? 'other',
      face: / face$/.test(label) || (tags.includes('face') && e.group === 3),
      person,
    });
  }
}
// game-icons: the name is the label ("pirate-captain" → pirate captain); the last word is the head
for (const [name, body] of Object.entries(icons['game-icons'].icons)) {
  if (!giAuthors[name]) continue;
  if (
    /^(abstract|rank|tarot|dice-six|perspective-dice|plain|empty|cancel|divided|clockwise|anticlockwise|plus|minus)(-|$)/.test(
      name,
    )
  )
    continue;
  if (!body.body) continue;
  const label = name.replace(/-/g, ' ');
  const tokens = wordsOf(label).filter((w) => !w.includes('-'));
  const head = tokens.at(-1);
  if (!head) continue;
  drawings.push({
    id: `g/${name}`,
    set: 'game-icons',
    name,
    label,
    zh: [],
    heads: [head],
    words: tokens.slice(0, -1),
    group: 'icon',
    face: /-(head|face)$/.test(name),
    person: false,
  });
}

// ---- one render of each: crop, facing, box, main colour -------------------------------------
// A few drawings make resvg panic ("unreachable"), which leaves its module unusable: each panic is
// met with a fresh copy of the module (a new import URL), and the drawing is left out of the catalog.
const wasmBytes = readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm'));
const resvgUrl = import.meta.resolve('@resvg/resvg-wasm');
let copies = 0;
let Resvg;
async function freshResvg() {
  const m = await import(`${resvgUrl}?copy=${copies++}`);
  await m.initWasm(wasmBytes);
  Resvg = m.Resvg;
}
await freshResvg();
const unrenderable = [];
const N = 96;
function svgOf(d) {
  const set = icons[d.set];
  const icon = set.icons[d.name];
  const w = icon.width ?? set.width ?? 16;
  const h = icon.height ?? set.height ?? 16;
  const body = d.set === 'game-icons' ? icon.body.replace(/currentColor/g, '#000') : icon.body;
  return {
    svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${N}" height="${N}">${body}</svg>`,
    w,
    h,
  };
}
const lum = (r, g, b) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
/**
 * A silhouette drawn as a round badge with the thing cut out of it (game-icons' black-flag is a
 * disc with a flag-shaped notch): the shape with its holes and notches filled is a circle (≥ 93 % of
 * it inside the circle of its area), fills at least half the picture, and ≥ 20 % of it is cut away. A sprite of
 * it shows a disc, not the thing, so lookups rank it after the drawings that show the thing.
 */
function knockedOut(full, FW, FH) {
  // judged at 32 px across, as a sprite sees it: a cut thinner than a pixel there closes
  const W = 32;
  const H = Math.max(1, Math.round((FH * W) / FW));
  const cover = new Float32Array(W * H);
  for (let y = 0; y < FH; y++)
    for (let x = 0; x < FW; x++)
      cover[Math.min(H - 1, Math.floor((y * H) / FH)) * W + Math.floor((x * W) / FW)] +=
        full[(y * FW + x) * 4 + 3];
  const per = (FW / W) * (FH / H) * 255;
  const solid = (i) => cover[i] >= per * 0.5;
  // the shape with its holes and notches filled: inside its row's and its column's solid span
  const rowSpan = Array.from({ length: H }, () => [W, -1]);
  const colSpan = Array.from({ length: W }, () => [H, -1]);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      if (solid(y * W + x)) {
        rowSpan[y] = [Math.min(rowSpan[y][0], x), Math.max(rowSpan[y][1], x)];
        colSpan[x] = [Math.min(colSpan[x][0], y), Math.max(colSpan[x][1], y)];
      }
  const outside = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) {
    const x = i % W;
    const y = (i - x) / W;
    outside[i] = x < rowSpan[y][0] || x > rowSpan[y][1] || y < colSpan[x][0] || y > colSpan[x][1] ? 1 : 0;
  }
  let filled = 0;
  let holes = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < W * H; i++) {
    if (outside[i]) continue;
    filled++;
    if (!solid(i)) holes++;
    cx += i % W;
    cy += Math.floor(i / W);
  }
  if (filled < W * H * 0.5) return false;
  cx /= filled;
  cy /= filled;
  const r2 = filled / Math.PI;
  let inside = 0;
  for (let i = 0; i < W * H; i++)
    if (!outside[i] && ((i % W) + 0.5 - cx) ** 2 + (Math.floor(i / W) + 0.5 - cy) ** 2 <= r2) inside++;
  return inside / filled >= 0.93 && holes / filled >= 0.2;
}
function analyse(d) {
  const { svg, w, h } = svgOf(d);
  // wasm objects are freed by hand: without it the module's memory fills after a few thousand renders
  const resvg = new Resvg(svg, { fitTo: { mode: 'width', value: N } });
  const img = resvg.render();
  const px = img.pixels;
  const W = img.width;
  const H = img.height;
  img.free();
  resvg.free();
  let x0 = W;
  let y0 = H;
  let x1 = -1;
  let y1 = -1;
  let edge = 0;
  const colours = new Map();
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const a = px[(y * W + x) * 4 + 3];
      if (a < 128) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
      if (x === 0 || y === 0 || x === W - 1 || y === H - 1) edge++;
      const i = (y * W + x) * 4;
      // premultiplied → straight, then a 4-bit key
      const r = Math.round((px[i] * 255) / a);
      const g = Math.round((px[i + 1] * 255) / a);
      const b = Math.round((px[i + 2] * 255) / a);
      const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
      colours.set(key, (colours.get(key) ?? 0) + 1);
    }
  if (x1 < 0) return null;
  // the main colour: the commonest colour with some chroma (else the commonest)
  let main = null;
  let mainN = 0;
  let any = null;
  let anyN = 0;
  for (const [k, n] of colours) {
    const r = (k >> 8) * 17;
    const g = ((k >> 4) & 15) * 17;
    const b = (k & 15) * 17;
    if (n > anyN) {
      any = [r, g, b];
      anyN = n;
    }
    const chroma = Math.max(r, g, b) - Math.min(r, g, b);
    if (chroma > 40 && n > mainN) {
      main = [r, g, b];
      mainN = n;
    }
  }
  const rgb = main && mainN > anyN * 0.25 ? main : any;
  // facing: where the eyes are. Small dark blobs in the upper part of the box; one blob (a profile)
  // left or right of the middle, or a pair either side of it (a front view).
  let facing = '?';
  if (d.set !== 'game-icons') {
    const seen = new Uint8Array(W * H);
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    const blobs = [];
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const i = y * W + x;
        if (seen[i]) continue;
        const a = px[i * 4 + 3];
        if (a < 200 || lum(px[i * 4], px[i * 4 + 1], px[i * 4 + 2]) > 70) continue;
        const stack = [i];
        seen[i] = 1;
        let n = 0;
        let sx = 0;
        let sy = 0;
        while (stack.length) {
          const j = stack.pop();
          const jx = j % W;
          const jy = (j - jx) / W;
          n++;
          sx += jx;
          sy += jy;
          for (const [dx, dy] of [
            [1, 0],
            [-1, 0],
            [0, 1],
            [0, -1],
          ]) {
            const nx = jx + dx;
            const ny = jy + dy;
            if (nx < 0 || ny < 0 || nx >= W || ny >= H) continue;
            const k = ny * W + nx;
            if (seen[k] || px[k * 4 + 3] < 200 || lum(px[k * 4], px[k * 4 + 1], px[k * 4 + 2]) > 70) continue;
            seen[k] = 1;
            stack.push(k);
          }
        }
        const cy = sy / n;
        if (n >= 2 && n <= bw * bh * 0.02 && cy < y0 + bh * 0.7) blobs.push({ n, cx: sx / n, cy });
      }
    const mid = (x0 + x1) / 2;
    blobs.sort((a, b) => b.n - a.n);
    const [e1, e2] = blobs;
    if (
      e1 &&
      e2 &&
      e2.n >= e1.n * 0.5 &&
      Math.abs(e1.cy - e2.cy) < bh * 0.08 &&
      (e1.cx - mid) * (e2.cx - mid) < 0
    )
      facing = 'f';
    else if (e1 && e1.cx < mid - bw * 0.1) facing = 'l';
    else if (e1 && e1.cx > mid + bw * 0.1) facing = 'r';
  }
  const cropped = edge > N * 0.2;
  const s = (v, total) => Math.round((v / N) * total * 100) / 100;
  return {
    cropped,
    knockout: d.set === 'game-icons' && knockedOut(px, W, H),
    facing,
    box: [s(x0, w), s(y0, h), s(x1 + 1, w), s(y1 + 1, h)],
    rgb,
  };
}

const rows = [];
const hex = (rgb) => rgb.map((v) => Math.min(255, v).toString(16).padStart(2, '0')).join('');
for (const d of drawings) {
  let a;
  try {
    a = analyse(d);
  } catch {
    unrenderable.push(d.id);
    await freshResvg();
    continue;
  }
  if (!a) continue;
  const flags = [
    a.cropped ? 'c' : '',
    a.knockout ? 'k' : '',
    d.face ? 'h' : '',
    d.person ? 'p' : '',
    d.set === 'game-icons' ? 'm' : '',
  ].join('');
  const author = d.set === 'game-icons' ? giAuthors[d.name] : '';
  // id|label|heads|words|zh|group|flags|facing|box|rgb|author
  rows.push(
    [
      d.id,
      d.label,
      d.heads.join(','),
      d.words.join(','),
      d.zh.join(','),
      d.group,
      flags,
      a.facing,
      a.box.join(','),
      hex(a.rgb),
      author,
    ].join('|'),
  );
}
rows.sort();

const setsMeta = SETS.map((s) => ({
  key: s.key,
  prefix: s.prefix,
  name: infos[s.prefix].name,
  version: versions[s.prefix],
  author: infos[s.prefix].author.name,
  url: infos[s.prefix].author.url,
  license: infos[s.prefix].license.spdx,
  licenseUrl: infos[s.prefix].license.url,
  width: icons[s.prefix].width ?? 16,
  height: icons[s.prefix].height ?? 16,
}));
const text = `// GENERATED by scripts/gen-catalog.mjs from ${SETS.map((s) => `@iconify-json/${s.prefix}@${versions[s.prefix]}`).join(', ')},
// emojibase-data@${require('emojibase-data/package.json').version} (CLDR annotations, en and zh) and data/game-icons-authors.json.
// Do not edit: run \`pnpm --filter @assetloom/drawings gen\`. \`check:gen\` fails on drift.

/** The three sets, their licences and where they come from. */
export const SETS = ${JSON.stringify(setsMeta, null, 2)} as const;

/**
 * One drawing a line: id|label|heads|words|zh|group|flags|facing|box|rgb|author.
 * flags: c cropped by its own frame, k a round badge with the thing cut out of it, h a head or face
 * only, p a person, m a one-colour silhouette.
 * facing: l left, r right, f front, ? unknown. box: the drawn part in the icon's own units.
 */
export const DRAWINGS = (): string => ${JSON.stringify(rows.join('\n'))};
`;
if (process.argv.includes('--check')) {
  const current = readFileSync(out, 'utf8');
  if (current !== text) {
    console.error(`[gen-catalog] ${out} is out of date: run pnpm --filter @assetloom/drawings gen`);
    process.exit(1);
  }
  console.log('[gen-catalog] catalog.ts is up to date');
} else {
  writeFileSync(out, text);
  console.log(
    `[gen-catalog] ${rows.length} drawings; ${Buffer.byteLength(text)} bytes; left out (resvg cannot render them): ${unrenderable.join(', ') || 'none'}`,
  );
}

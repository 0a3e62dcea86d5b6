/**
 * The generator's output, pixel for pixel (issue #38): runs every request of cases.ts through the
 * whole pipeline and compares the SHA-256 of every file it writes (PNG, JSON, .tres, .tsx, .meta),
 * of every asset's metadata and of the progress events with hashes.json.
 *
 *   pnpm run check:hashes              compare (exit 1 naming each case that differs)
 *   pnpm run check:hashes -- --write   record hashes.json anew (only when a change is meant)
 *   pnpm run check:hashes -- --only sprite   the cases whose name contains "sprite"
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createProceduralProvider } from '../../packages/generator/src/index.js';
import {
  createMemoryStorage,
  type ImageInputs,
  type PipelineProgressEvent,
  runPipeline,
} from '../../packages/pipeline/src/index.js';
import { HASH_CASES, type HashCase } from './cases.js';
import { createStandInModel, inputPicture } from './model.js';

interface Recorded {
  /** ok, or the failure's code and error. */
  result: string;
  /** Storage key → SHA-256 of the bytes and the content type. */
  files: Record<string, string>;
  /** SHA-256 of the assets' JSON (keys, sizes, metadata with provenance and interpretation). */
  assets: string;
  /** SHA-256 of the progress events' JSON (timestamps fixed). */
  events: string;
}

const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const file = new URL('./hashes.json', import.meta.url);

function inputsOf(c: HashCase): ImageInputs | undefined {
  const seed = c.request.params.seed ?? 0;
  const opaque = c.request.assetType === 'tileset';
  if (c.input === 'pixelate') return { image: { picture: inputPicture(seed, opaque), strength: 0 } };
  if (c.input === 'vary') return { image: { picture: inputPicture(seed, opaque), strength: 0.5 } };
  if (c.input === 'palette') return { paletteFrom: { picture: inputPicture(seed, true), maxColors: 8 } };
  return undefined;
}

async function record(c: HashCase): Promise<Recorded> {
  const storage = createMemoryStorage();
  const events: PipelineProgressEvent[] = [];
  const inputs = inputsOf(c);
  const provider = c.provider === 'model' ? createStandInModel() : createProceduralProvider();
  const result = await runPipeline(
    { ...c.request, ...(inputs ? { inputs } : {}) },
    {
      providers: { image: provider },
      storage,
      now: () => new Date(0),
      onEvent: (e) => {
        events.push(e);
      },
    },
  );
  const files: Record<string, string> = {};
  for (const key of storage.keys().sort()) {
    const object = storage.get(key)!;
    files[key] = `${sha(object.bytes)} ${object.contentType}`;
  }
  return {
    result: result.ok ? `ok, ${result.retryCount} retries` : `${result.code}: ${result.error}`,
    files,
    assets: sha(JSON.stringify(result.ok ? result.assets : [])),
    events: sha(JSON.stringify(events)),
  };
}

const args = process.argv.slice(2);
const write = args.includes('--write');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const names = new Set<string>();
for (const c of HASH_CASES) {
  if (names.has(c.name)) throw new Error(`[assetloom/check-hashes] two cases are named "${c.name}"`);
  names.add(c.name);
}

const started = performance.now();
const now: Record<string, Recorded> = {};
for (const c of HASH_CASES) if (!only || c.name.includes(only)) now[c.name] = await record(c);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const fileCount = Object.values(now).reduce((n, r) => n + Object.keys(r.files).length, 0);

if (write) {
  const before = only ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Recorded>) : {};
  writeFileSync(file, `${JSON.stringify({ ...before, ...now }, null, 2)}\n`);
  console.log(
    `[assetloom/check-hashes] recorded ${Object.keys(now).length} cases, ${fileCount} files (${seconds} s)`,
  );
} else {
  const recorded = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Recorded>;
  const differ: string[] = [];
  for (const [name, r] of Object.entries(now)) {
    const was = recorded[name];
    if (was === undefined) {
      differ.push(`${name}: not recorded (run with --write when the case is new)`);
      continue;
    }
    const parts: string[] = [];
    if (was.result !== r.result)
      parts.push(`result ${JSON.stringify(was.result)} → ${JSON.stringify(r.result)}`);
    const keys = new Set([...Object.keys(was.files), ...Object.keys(r.files)]);
    for (const k of keys) if (was.files[k] !== r.files[k]) parts.push(`file ${k}`);
    if (was.assets !== r.assets) parts.push('asset metadata');
    if (was.events !== r.events) parts.push('progress events');
    if (parts.length) differ.push(`${name}: ${parts.join(', ')}`);
  }
  if (!only)
    for (const name of Object.keys(recorded))
      if (!(name in now)) differ.push(`${name}: recorded but no longer a case`);
  if (differ.length) {
    console.error(
      `[assetloom/check-hashes] ${differ.length} of ${Object.keys(now).length} cases differ from scripts/output-hashes/hashes.json:\n  ${differ.join('\n  ')}\nA move must not change the output: find the step that did. If the change is meant, record it with --write and say why in the commit.`,
    );
    process.exit(1);
  }
  console.log(
    `[assetloom/check-hashes] ${Object.keys(now).length} cases, ${fileCount} files: all as recorded (${seconds} s)`,
  );
}

// The wire formats of the real servers, recorded from them (issue #30) into
// packages/pipeline/test/fixtures/*.json by the real-server suites (test/real-servers,
// ASSETLOOM_RECORD_FIXTURES=1). The loopback fakes replay
// these recordings, and `wireShape` lets a test compare what a fake sends, or what the real server
// sends today, with what was recorded: a fake cannot drift from the real format unnoticed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from './real-servers.js';

/** packages/pipeline/test/fixtures: beside the fakes that replay the recordings. */
export const WIRE_FIXTURES = join(repositoryRoot(), 'packages', 'pipeline', 'test', 'fixtures');

/**
 * The shape of a JSON value: objects → their keys (sorted) with the shapes of their values,
 * arrays → the distinct shapes of their items, scalars → their type (`null`, `string`, …).
 * Values differ from run to run (ids, times, text); shapes do not unless the format changed.
 */
export function wireShape(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const seen = new Map<string, unknown>();
    for (const item of value) {
      const shape = wireShape(item);
      seen.set(JSON.stringify(shape), shape);
    }
    return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, s]) => s);
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as object).sort())
      out[key] = wireShape((value as Record<string, unknown>)[key]);
    return out;
  }
  return typeof value;
}

/** A WebSocket message ComfyUI sent: JSON `{ type, data }`, or a binary frame (a preview image). */
export type ComfyMessage = { type: string; data: Record<string, unknown> } | { binary: number };

export interface ComfyRecording {
  /** The /prompt request's reply. */
  queued: { status: number; body: Record<string, unknown> };
  /** Every message of the run on the client's socket, in order (binary frames by their byte length). */
  messages: ComfyMessage[];
  /** GET /view of the first image: status and content-type. */
  view?: { status: number; contentType: string | null; bytes: number };
}

export interface ComfyWireFixture {
  recordedFrom: string;
  /** The first message on a new socket (`status` with the client's sid). */
  hello: ComfyMessage;
  /** A 256 px, 2-step txt2img run of the default workflow. */
  success: ComfyRecording;
  /** The same prompt and seed again: answered from ComfyUI's cache. */
  cached: ComfyRecording;
  /** A batch of 2: one `executed` with two images. */
  batch: ComfyRecording;
  /** An interrupted run: /interrupt with its prompt_id while the sampler runs. */
  interrupted: ComfyRecording;
  /** POST /prompt with a checkpoint ComfyUI does not have. */
  invalid: { status: number; body: Record<string, unknown> };
}

export interface LlamaWireFixture {
  recordedFrom: string;
  /** POST /v1/chat/completions: a reply (status 200). */
  reply: { status: number; body: Record<string, unknown> };
  /** The same with a wrong key. */
  unauthorized: { status: number; body: Record<string, unknown> };
  /** A body the server refuses (`messages` not an array). */
  badRequest: { status: number; body: Record<string, unknown> };
}

export function readFixture<T>(name: string): T {
  return JSON.parse(readFileSync(join(WIRE_FIXTURES, name), 'utf8')) as T;
}

export function writeFixture(name: string, value: unknown): void {
  writeFileSync(join(WIRE_FIXTURES, name), `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * `progress_state`'s `nodes` is a map by node id of the nodes that run. Which nodes run depends on
 * ComfyUI's cache (a text encoder whose prompt an earlier run encoded is not run again), so the
 * ids are not the format: the map becomes the distinct shapes of its entries under one key.
 */
function dataOf(type: string, data: Record<string, unknown>): unknown {
  if (type !== 'progress_state' || data.nodes === null || typeof data.nodes !== 'object') return data;
  return { ...data, nodes: { '<node id>': Object.values(data.nodes as Record<string, unknown>) } };
}

/** Messages reduced to what must not drift: each type's data shape, and the order of types. */
export function messageShapes(messages: ComfyMessage[]): {
  order: string[];
  shapes: Record<string, unknown>;
} {
  const order: string[] = [];
  const shapes: Record<string, unknown> = {};
  for (const m of messages) {
    const type = 'binary' in m ? '<binary preview>' : m.type;
    // a run's repeated progress messages are one step of the order
    if (order.at(-1) !== type) order.push(type);
    if (!('binary' in m)) {
      const key = `${type}`;
      const shape = wireShape(dataOf(type, m.data));
      const known = shapes[key] as unknown[] | undefined;
      const list = known ?? [];
      if (!list.some((s) => JSON.stringify(s) === JSON.stringify(shape))) list.push(shape);
      shapes[key] = list;
    }
  }
  for (const key of Object.keys(shapes))
    (shapes[key] as unknown[]).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return { order, shapes };
}

import type { ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { responseSchemas } from './helpers.js';

export interface StreamOptions {
  token?: string;
  /** Send the token as the `assetloom_token` cookie instead of a Bearer header. */
  cookie?: string;
  origin?: string;
  since?: number | string;
  /** Resolve once this many messages arrived (then close from the client side). */
  stopAfter?: number;
  timeoutMs?: number;
}

export interface StreamResult {
  /** Set when the upgrade was refused: the HTTP status and the JSON body. */
  refused?: { status: number; body: unknown; headers: Record<string, string | string[] | undefined> };
  messages: Record<string, unknown>[];
  closeCode?: number;
  /** ms from open to each message (for latency checks in the bench). */
  arrivals: number[];
}

/** Opens WS /api/v1/tasks/:taskId/ws and collects every message until the server closes it. */
export function openStream(base: string, taskId: string, options: StreamOptions = {}): Promise<StreamResult> {
  const query = options.since === undefined ? '' : `?since=${options.since}`;
  const url = `${base.replace(/^http/, 'ws')}/api/v1/tasks/${taskId}/ws${query}`;
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie !== undefined) headers.cookie = `assetloom_token=${options.cookie}`;
  if (options.origin !== undefined) headers.origin = options.origin;
  return new Promise((resolve, reject) => {
    const result: StreamResult = { messages: [], arrivals: [] };
    const ws = new WebSocket(url, { headers });
    const started = performance.now();
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`stream of ${taskId} did not end within ${options.timeoutMs ?? 20_000} ms`));
    }, options.timeoutMs ?? 20_000);
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        clearTimeout(timer);
        result.refused = {
          status: res.statusCode ?? 0,
          body: text ? JSON.parse(text) : null,
          headers: res.headers,
        };
        resolve(result);
      });
    });
    ws.on('message', (data) => {
      result.messages.push(JSON.parse(String(data)) as Record<string, unknown>);
      result.arrivals.push(performance.now() - started);
      if (options.stopAfter !== undefined && result.messages.length >= options.stopAfter) ws.close(1000);
    });
    ws.on('close', (code) => {
      clearTimeout(timer);
      result.closeCode = code;
      resolve(result);
    });
    ws.on('error', (error) => {
      if (result.refused === undefined && result.closeCode === undefined) {
        // 'unexpected-response' handles refusals; anything else is a real failure
        if (!String(error.message).includes('Unexpected server response')) {
          clearTimeout(timer);
          reject(error);
        }
      }
    });
  });
}

let progressValidator: ValidateFunction | undefined;

/** Checks a message against components.schemas.PipelineProgress of the OpenAPI document. */
export function expectPipelineProgress(message: unknown): void {
  progressValidator ??= responseSchemas().ajv.compile({
    $ref: 'urn:assetloom:asset-api#/components/schemas/PipelineProgress',
  });
  if (progressValidator === undefined) throw new Error('PipelineProgress schema not found');
  const valid = progressValidator(message);
  expect(
    valid,
    `${JSON.stringify(progressValidator.errors)} in ${JSON.stringify(message).slice(0, 400)}`,
  ).toBe(true);
}

/** Polls GET /api/v1/tasks/:id until the status is final. */
export async function waitForTaskEnd(
  base: string,
  token: string,
  taskId: string,
  timeoutMs = 30_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${base}/api/v1/tasks/${taskId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { data: Record<string, unknown> };
    if (body.data.status === 'completed' || body.data.status === 'failed') return body.data;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${String(body.data.status)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The PNG signature and IHDR size of a downloaded file. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

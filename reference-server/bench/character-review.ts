/**
 * `pnpm --filter @assetloom/server bench:character-review [label] [list.json]` — renders a held-out
 * list of characters (default docs/art-review/held-out-40.json) through the built server, as a user
 * gets them: each prompt becomes a character (POST /api/v1/projects/{projectId}/characters), is
 * turned to 8 directions (rotate) and animated in 6 actions (idle, walk, run, jump, attack, death) in
 * 8 directions. Writes bench/out/character-review/<label>/NN-<slug>-<view>.png (the sheets: rows are
 * directions, columns frames) and a manifest.json (prompt, size, the character's identity, each
 * task's status, error and files) for a reviewer who judges them by eye without the code.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { http, project, user, waitEnd } from './audit-client.js';
import { slug, startReviewRun } from './review-run.js';

interface Entry {
  id: number;
  prompt: string;
  params?: { resolution?: number };
  style?: Record<string, string>;
  seed?: number;
}

const ACTIONS = ['idle', 'walk', 'run', 'jump', 'attack', 'death'] as const;

const run = await startReviewRun<Entry>('character-review', 'held-out-40.json');
const { list, outDir } = run;

interface TaskRecord {
  status: unknown;
  error: unknown;
  file: string | null;
  files: string[];
  notHonoured?: unknown;
}

try {
  const me = await user(run.url);
  const projectId = await project(run.url, me.token);

  /** Waits for a task, then keeps its sheet (the first PNG) as `<name>.png`, and lists every file. */
  async function keep(taskId: string, name: string): Promise<TaskRecord> {
    const task = await waitEnd(run.url, me.token, taskId, 600_000);
    const record: TaskRecord = {
      status: task.body?.data?.status,
      error: task.body?.data?.error ?? null,
      file: null,
      files: [],
    };
    if (record.status !== 'completed') return record;
    const assets = await http(run.url, 'GET', `/api/v1/tasks/${taskId}/assets`, { token: me.token });
    const found =
      (assets.body?.data as { assets?: Array<Record<string, unknown>> } | undefined)?.assets ?? [];
    record.files = found.map((a) => String(a.key).split('/').at(-1) ?? '');
    const sheet = found.find((a) => a.format === 'png') ?? found[0];
    if (sheet !== undefined) {
      const url = String(sheet.url);
      const bytes = new Uint8Array(
        await (await fetch(url.startsWith('http') ? url : `${run.url}${url}`)).arrayBuffer(),
      );
      writeFileSync(join(outDir, `${name}.png`), bytes);
      record.file = `${name}.png`;
      const metadata = (sheet.metadata ?? {}) as Record<string, unknown>;
      record.notHonoured = metadata.notHonoured ?? [];
    }
    return record;
  }

  const manifest: unknown[] = [];
  for (const entry of list) {
    const name = `${String(entry.id).padStart(2, '0')}-${slug(entry.prompt)}`;
    const created = await http(run.url, 'POST', `/api/v1/projects/${projectId}/characters`, {
      token: me.token,
      headers: { 'accept-language': 'en' },
      json: {
        name: entry.prompt.slice(0, 64),
        prompt: entry.prompt,
        ...(entry.params?.resolution ? { size: entry.params.resolution } : {}),
        ...(entry.style ? { style: entry.style } : {}),
        ...(entry.seed !== undefined ? { seed: entry.seed } : {}),
      },
    });
    const record: Record<string, unknown> = { ...entry };
    if (created.status !== 200) {
      record.status = `refused ${created.status}`;
      record.error = created.body?.message;
      record.fields = (created.body?.data as { errors?: unknown } | null)?.errors;
      manifest.push(record);
      console.log(`${name}: refused — ${String(record.error)}`);
      continue;
    }
    const character = created.body?.data as Record<string, unknown> & {
      id: string;
      task?: { taskId: string };
    };
    record.identity = character.identity;
    record.base = await keep(String(character.task?.taskId ?? character.baseTaskId), `${name}-base`);
    const rotated = await http(run.url, 'POST', `/api/v1/characters/${character.id}/rotate`, {
      token: me.token,
      headers: { 'accept-language': 'en' },
      json: { directions: 8 },
    });
    record.rotate =
      rotated.status === 200
        ? await keep(String(rotated.body?.data?.taskId), `${name}-rotate8`)
        : { status: `refused ${rotated.status}`, error: rotated.body?.message };
    const actions: Record<string, unknown> = {};
    for (const action of ACTIONS) {
      const animated = await http(run.url, 'POST', `/api/v1/characters/${character.id}/animate`, {
        token: me.token,
        headers: { 'accept-language': 'en' },
        json: { action, directions: 8, framesPerDirection: 6 },
      });
      actions[action] =
        animated.status === 200
          ? await keep(String(animated.body?.data?.taskId), `${name}-${action}`)
          : { status: `refused ${animated.status}`, error: animated.body?.message };
    }
    record.actions = actions;
    manifest.push(record);
    const summary = [record.base, record.rotate, ...Object.values(actions)].map(
      (t) => (t as { status?: unknown }).status,
    );
    console.log(`${name}: ${summary.join(' ')}`);
  }
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`\n${manifest.length} characters → ${outDir}`);
} finally {
  await run.close();
}

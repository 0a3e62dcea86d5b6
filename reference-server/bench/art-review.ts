/**
 * `pnpm --filter @assetloom/server bench:art-review [label] [list.json]` — renders a held-out list of
 * prompts (default docs/art-review/held-out-39.json) through the built server, as a user gets them:
 * a project per style, one task per prompt, the first file of each completed task downloaded. Writes
 * bench/out/art-review/<label>/NN-<slug>.png and a manifest.json (prompt, asset type, size, status,
 * the task's error, the words the generator did not honour) for a reviewer who judges the pictures
 * by eye without the code.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { http, project, user, waitEnd } from './audit-client.js';
import { slug, startReviewRun } from './review-run.js';

interface Entry {
  id: number;
  prompt: string;
  assetType: string;
  params?: Record<string, unknown>;
  style?: Record<string, string>;
  note?: string;
  /** Levels on a given tileset (held-out-42): that tileset task is made first, in the same project. */
  tileset?: { prompt: string; params?: Record<string, unknown> };
}

const run = await startReviewRun<Entry>('art-review', 'held-out-39.json');
const { list, outDir } = run;
try {
  const me = await user(run.url);
  const projects = new Map<string, string>();
  const projectFor = async (style: Record<string, string> | undefined) => {
    const key = JSON.stringify(style ?? {});
    let id = projects.get(key);
    if (id === undefined) {
      const created = await http(run.url, 'POST', '/api/v1/projects', {
        token: me.token,
        json: { name: `review ${projects.size + 1}`, ...(style ? { style } : {}) },
      });
      id = String(created.body?.data?.id ?? (await project(run.url, me.token)));
      projects.set(key, id);
    }
    return id;
  };
  const manifest: unknown[] = [];
  for (const entry of list) {
    const name = `${String(entry.id).padStart(2, '0')}-${slug(entry.note ?? entry.prompt)}`;
    const projectId = await projectFor(entry.style);
    let params = entry.params;
    if (entry.tileset) {
      const made = await http(run.url, 'POST', '/api/v1/generate', {
        token: me.token,
        json: { projectId, prompt: entry.tileset.prompt, assetType: 'tileset', params: entry.tileset.params },
      });
      const tilesetTaskId = String(made.body?.data?.taskId);
      const ended = await waitEnd(run.url, me.token, tilesetTaskId, 300_000);
      if (ended.body?.data?.status !== 'completed')
        throw new Error(`the tileset of entry ${entry.id} ended ${String(ended.body?.data?.status)}`);
      const level = (params?.level ?? {}) as Record<string, unknown>;
      params = { ...params, level: { ...level, tilesetTaskId } };
    }
    const submitted = await http(run.url, 'POST', '/api/v1/generate', {
      token: me.token,
      headers: { 'accept-language': 'en' },
      json: {
        projectId,
        prompt: entry.prompt,
        assetType: entry.assetType,
        ...(params ? { params } : {}),
      },
    });
    const record: Record<string, unknown> = { ...entry, file: null };
    if (submitted.status !== 200) {
      record.status = `refused ${submitted.status}`;
      record.error = submitted.body?.message;
      record.fields = (submitted.body?.data as { errors?: unknown } | null)?.errors;
    } else {
      const taskId = String(submitted.body?.data?.taskId);
      const task = await waitEnd(run.url, me.token, taskId, 300_000);
      record.status = task.body?.data?.status;
      record.error = task.body?.data?.error ?? null;
      if (record.status === 'completed') {
        const assets = await http(run.url, 'GET', `/api/v1/tasks/${taskId}/assets`, { token: me.token });
        const data = assets.body?.data as
          | { assets: Array<{ url: string; metadata: Record<string, unknown> }> }
          | undefined;
        const list = data?.assets ?? [];
        const first = list[0];
        if (first !== undefined) {
          const url = first.url.startsWith('http') ? first.url : `${run.url}${first.url}`;
          const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
          writeFileSync(join(outDir, `${name}.png`), bytes);
          record.file = `${name}.png`;
          const interpretation = first.metadata?.interpretation as { ignored?: string[] } | undefined;
          record.notHonoured =
            (first.metadata?.notHonoured as string[] | undefined) ?? interpretation?.ignored ?? [];
          // how each direction row shows the subject (drawn, mirrored, turned, or repeating one view):
          // the reviewer reads it as the CLI and the Studio's users do
          const views = first.metadata?.views as Array<{ direction: string; view: string }> | undefined;
          if (views) record.views = views.map((v) => `${v.direction}: ${v.view}`);
          record.size = {
            width: (first as { width?: number }).width,
            height: (first as { height?: number }).height,
          };
        }
      }
    }
    manifest.push(record);
    console.log(`${name}: ${String(record.status)}${record.error ? ` — ${String(record.error)}` : ''}`);
  }
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`\n${manifest.length} prompts → ${outDir}`);
} finally {
  await run.close();
}

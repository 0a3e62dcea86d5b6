import { mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchServerEnv, startBuiltServer } from './built-server.js';

/**
 * What the eye-review benches share (bench:art-review, bench:character-review): the label and list
 * from the command line (`[label] [list.json]`, the list defaulting to a held-out file of
 * docs/art-review), the output folder bench/out/<kind>/<label>, and the built server on a throwaway
 * data folder with the generate limits off. `close()` stops the server and removes its data.
 */
export async function startReviewRun<Entry>(kind: string, defaultList: string) {
  const here = dirname(fileURLToPath(import.meta.url));
  const label = process.argv[2] ?? 'current';
  const listPath = resolve(process.argv[3] ?? join(here, '..', '..', 'docs', 'art-review', defaultList));
  const list = (JSON.parse(readFileSync(listPath, 'utf8')) as { prompts: Entry[] }).prompts;
  const outDir = join(here, 'out', kind, label);
  mkdirSync(outDir, { recursive: true });
  const dataDir = await mkdtemp(join(tmpdir(), `assetloom-${kind}-`));
  const server = await startBuiltServer(
    benchServerEnv(dataDir, { GENERATE_MAX_REQUESTS: '100000', USER_MAX_RUNNING_TASKS: '0' }),
  );
  return {
    list,
    outDir,
    url: server.url,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A file name's part from a prompt: lower case, words joined by `-`, Chinese kept, 40 characters. */
export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9\u4e00-\u9fff]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);

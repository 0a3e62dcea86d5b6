// What an editor offers inside a style map (issue #32): the TypeScript language service, asked for
// completions as VS Code asks it, over this package's compiler options and source. The contract's
// plain `{[key: string]: string}` offered nothing; the known style keys must be offered in a
// project's `style`, in `kvPairs` and in `generate()`'s `taskStyle`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, test } from 'vitest';
import { KNOWN_STYLE_KEYS } from './style-keys.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const probeFile = join(packageDir, 'src', '__style_completions_probe__.ts');

const probe = `import { createAssetClient } from './index.js';
const api = createAssetClient({ baseUrl: '' });
void api.POST('/api/v1/projects', { body: { name: 'Forest', style: { /*create*/ } } });
void api.PUT('/api/v1/projects/{projectId}/style', { params: { path: { projectId: 'p' } }, body: { kvPairs: { /*replace*/ } } });
void api.generate({ projectId: 'p', prompt: 'a knight', assetType: 'sprite', taskStyle: { /*generate*/ } });
void api.POST('/api/v1/projects', { body: { name: 'Forest', style: { palette: 'pico8', /*after*/ } } });
`;

let service: ts.LanguageService;

beforeAll(() => {
  const configPath = join(packageDir, 'tsconfig.json');
  const parsed = ts.parseJsonConfigFileContent(
    ts.readConfigFile(configPath, ts.sys.readFile).config,
    ts.sys,
    packageDir,
  );
  const options = { ...parsed.options, composite: false, incremental: false, noEmit: true };
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [probeFile],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text =
        name === probeFile ? probe : ts.sys.fileExists(name) ? readFileSync(name, 'utf8') : undefined;
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => packageDir,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (name) => name === probeFile || ts.sys.fileExists(name),
    readFile: (name) => (name === probeFile ? probe : ts.sys.readFile(name)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  service = ts.createLanguageService(host, ts.createDocumentRegistry());
}, 60_000);

/** The property names the editor offers at the marker. */
function completionsAt(marker: string): string[] {
  const position = probe.indexOf(`/*${marker}*/`);
  expect(position).toBeGreaterThan(0);
  const result = service.getCompletionsAtPosition(probeFile, position, {});
  return (result?.entries ?? []).map((e) => e.name);
}

describe('completions inside a style map', () => {
  test.each(['create', 'replace', 'generate'])(
    '%s: the known style keys are offered',
    (marker) => {
      expect(completionsAt(marker)).toEqual(expect.arrayContaining([...KNOWN_STYLE_KEYS]));
    },
    60_000,
  );

  test('a key already written is not offered again', () => {
    const offered = completionsAt('after');
    expect(offered).not.toContain('palette');
    expect(offered).toContain('artStyle');
  }, 60_000);
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const fixturesDir = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface Fixture {
  name: string;
  path: string;
  text: string;
}

export function fixtures(kind: 'valid' | 'invalid' | 'lint' | 'malformed'): Fixture[] {
  const dir = join(fixturesDir, kind);
  return readdirSync(dir)
    .filter((f) => f !== 'expected.json')
    .sort()
    .map((f) => ({
      name: f.replace(/\.json$/, ''),
      path: join(dir, f),
      text: readFileSync(join(dir, f), 'utf8'),
    }));
}

export function expected<T>(kind: 'invalid' | 'lint' | 'malformed'): Record<string, T> {
  return JSON.parse(readFileSync(join(fixturesDir, kind, 'expected.json'), 'utf8')) as Record<string, T>;
}

/** Every fixture that is well-formed JSON, parsed, with whether the canonical schema accepts it. */
export function jsonCorpus(): { name: string; value: unknown; schemaValid: boolean }[] {
  return [
    ...fixtures('valid').map((f) => ({
      name: `valid/${f.name}`,
      value: JSON.parse(f.text) as unknown,
      schemaValid: true,
    })),
    ...fixtures('lint').map((f) => ({
      name: `lint/${f.name}`,
      value: JSON.parse(f.text) as unknown,
      schemaValid: true,
    })),
    ...fixtures('invalid').map((f) => ({
      name: `invalid/${f.name}`,
      value: JSON.parse(f.text) as unknown,
      schemaValid: false,
    })),
  ];
}

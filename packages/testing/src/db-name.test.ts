import { describe, expect, it } from 'vitest';
import { MAX_DB_NAME_LENGTH, uniqueDbName } from './db-name.js';

const VALID = /^[a-z0-9_]+$/;

describe('uniqueDbName', () => {
  it.each([
    ['plain prefix', { given: 'tasks', startsWith: 'tasks_' }],
    [
      'upper case and punctuation',
      { given: 'Repo Contract/Mongo.v2', startsWith: 'repo_contract_mongo_v2_' },
    ],
    ['characters MongoDB forbids', { given: 'a$b"c*d<e>f:g|h?i\\j', startsWith: 'a_b_c_d_e_f_g_h_i_j_' }],
    ['empty prefix', { given: '', startsWith: 't_' }],
    ['only punctuation', { given: '../..', startsWith: 't_' }],
    ['non-ASCII', { given: 'тест-资产', startsWith: 't_' }],
    ['very long prefix', { given: 'x'.repeat(500), startsWith: 'xxxxxxxx' }],
  ])('%s', (_name, { given, startsWith }) => {
    const name = uniqueDbName(given);
    expect(name.startsWith(startsWith)).toBe(true);
    expect(name).toMatch(VALID);
    expect(name.length).toBeLessThanOrEqual(MAX_DB_NAME_LENGTH);
  });

  it('never repeats', () => {
    const names = new Set(Array.from({ length: 1_000 }, () => uniqueDbName('suite')));
    expect(names.size).toBe(1_000);
  });

  it('copes with a non-string prefix passed from untyped code', () => {
    expect(uniqueDbName(42 as unknown as string)).toMatch(/^42_/);
    expect(uniqueDbName(undefined)).toMatch(/^t_/);
  });
});

import { expectTypeOf, test } from 'vitest';
import type { GenerateInput } from './entries/contract.js';
import { createRequestValidator } from './entries/http.js';
import {
  type AssetService,
  type ErrorCode,
  type FailEnvelope,
  fail,
  type OkEnvelope,
  ok,
  type Project,
  type Store,
  type Task,
} from './index.js';

test('envelope helpers', () => {
  expectTypeOf(ok({ a: 1 })).toEqualTypeOf<OkEnvelope<{ a: number }>>();
  expectTypeOf(fail(new Error('x'))).toEqualTypeOf<FailEnvelope>();
  expectTypeOf<FailEnvelope['code']>().toEqualTypeOf<ErrorCode>();
});

test('validator inputs are typed per operation', () => {
  const v = createRequestValidator();
  expectTypeOf(v.validate('listProjects', {}).query).toEqualTypeOf<{ page: number; pageSize: number }>();
  expectTypeOf(v.validate('getTask', {}).params).toEqualTypeOf<{ taskId: string }>();
  expectTypeOf(v.validate('generate', {}).body.params).toEqualTypeOf<GenerateInput['params']>();
});

test('service results are the OpenAPI data shapes', () => {
  expectTypeOf<Awaited<ReturnType<AssetService['createProject']>>>().toEqualTypeOf<Project>();
  expectTypeOf<Awaited<ReturnType<AssetService['getTask']>>>().toEqualTypeOf<Task>();
  expectTypeOf<Store['kind']>().toEqualTypeOf<'embedded' | 'mongodb' | 'memory'>();
});

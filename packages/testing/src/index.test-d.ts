import { describe, expectTypeOf, inject, it } from 'vitest';
import {
  type Browser,
  getFreePort,
  injectMongoUri,
  launchChromium,
  type MongoTarget,
  type MongoTargetKind,
  type MongoTargetUnavailable,
  resolveMongoTarget,
  type TestingErrorCode,
  uniqueDbName,
  waitFor,
} from './index.js';

describe('public types', () => {
  it('provides the mongo context to inject()', () => {
    expectTypeOf(inject('mongoUri')).toEqualTypeOf<string | null>();
    expectTypeOf(inject('mongoKind')).toEqualTypeOf<MongoTargetKind | null>();
    expectTypeOf(injectMongoUri).returns.toEqualTypeOf<string | null>();
  });

  it('resolveMongoTarget resolves to a target or an explained absence', () => {
    expectTypeOf(resolveMongoTarget).returns.resolves.toEqualTypeOf<MongoTarget | MongoTargetUnavailable>();
    expectTypeOf<MongoTarget['kind']>().toEqualTypeOf<'env' | 'ferretdb' | 'mongo-java-server'>();
    expectTypeOf<MongoTargetUnavailable['uri']>().toEqualTypeOf<null>();
  });

  it('helpers', () => {
    expectTypeOf(getFreePort).returns.resolves.toEqualTypeOf<number>();
    expectTypeOf(uniqueDbName).returns.toEqualTypeOf<string>();
    expectTypeOf(launchChromium).returns.resolves.toEqualTypeOf<Browser>();
    expectTypeOf(waitFor(() => 'x' as string | null)).resolves.toEqualTypeOf<string>();
    expectTypeOf(waitFor(async () => 0 as number | undefined)).resolves.toEqualTypeOf<number>();
    expectTypeOf<'TIMEOUT'>().toExtend<TestingErrorCode>();
  });
});

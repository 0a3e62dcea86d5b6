/**
 * vitest globalSetup: starts ONE MongoDB test target for the whole run (shared by every project
 * that lists this file), hands its URI to tests through `provide('mongoUri', …)` and stops it at
 * teardown. Use in a vitest config: `globalSetup: ['@assetloom/testing/mongo-global-setup']`.
 */
import type { TestProject } from 'vitest/node';
import { type MongoTarget, type MongoTargetUnavailable, resolveMongoTarget } from './mongo-target.js';
import type { MongoProvidedContext } from './provided-context.js';

interface SharedState {
  refs: number;
  target: Promise<MongoTarget | MongoTargetUnavailable> | undefined;
  announced: boolean;
}

const KEY = Symbol.for('assetloom.testing.mongo-global-setup');

function shared(): SharedState {
  const holder = globalThis as typeof globalThis & { [KEY]?: SharedState };
  holder[KEY] ??= { refs: 0, target: undefined, announced: false };
  return holder[KEY];
}

const log = (line: string) => console.log(`[assetloom/testing] ${line}`);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const state = shared();
  state.refs += 1;
  state.target ??= resolveMongoTarget({ log });
  let target: MongoTarget | MongoTargetUnavailable;
  try {
    target = await state.target;
  } catch (error) {
    state.refs -= 1;
    if (state.refs === 0) state.target = undefined;
    throw error;
  }

  const context: MongoProvidedContext =
    target.kind === 'unavailable'
      ? { mongoUri: null, mongoKind: null, mongoUnavailableReason: target.reason }
      : { mongoUri: target.uri, mongoKind: target.kind, mongoUnavailableReason: null };
  project.provide('mongoUri', context.mongoUri);
  project.provide('mongoKind', context.mongoKind);
  project.provide('mongoUnavailableReason', context.mongoUnavailableReason);

  if (!state.announced) {
    state.announced = true;
    if (target.kind === 'unavailable') {
      console.warn(
        `\n[assetloom/testing] ⚠ MongoDB test target ${target.reason}\n[assetloom/testing] ⚠ suites that need MongoDB will be SKIPPED. Set MONGODB_URI or run "pnpm --filter @assetloom/testing run prepare-mongo". (In CI this is a failure.)\n`,
      );
    } else {
      log(`MongoDB test target: ${target.description}`);
    }
  }

  let tornDown = false;
  return async () => {
    if (tornDown) return;
    tornDown = true;
    state.refs -= 1;
    if (state.refs > 0) return;
    const pending = state.target;
    state.target = undefined;
    state.announced = false;
    const resolved = await pending?.catch(() => undefined);
    await resolved?.stop();
  };
}

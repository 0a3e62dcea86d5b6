// Every public package's ESM entry point loads from the installed tarballs and exports what its README says.
import { createAssetService } from '@assetloom/core';
import { createReviewAuthService } from '@assetloom/core/review';
import { createEmbeddedStore } from '@assetloom/core/store/embedded';
import { createAssetMock } from '@assetloom/mock';
import { assetApiDocument } from '@assetloom/openapi';
import { createProceduralProvider } from '@assetloom/pipeline';
import { validateQuestionSet } from '@assetloom/question-set';
import { check } from './project-helpers.mjs';

for (const [name, value] of Object.entries({
  createAssetService,
  createEmbeddedStore,
  createReviewAuthService,
  createAssetMock,
  createProceduralProvider,
  validateQuestionSet,
})) {
  check(typeof value === 'function', `${name} is a function`);
}
check(assetApiDocument.openapi.startsWith('3.1'), 'the bundled OpenAPI document');
const result = validateQuestionSet({});
check(result.ok === false && result.errors.length > 0, 'an empty object is not a question set');
// A mock user never loads a database driver: @assetloom/core imports no mongodb unless asked.
const { createRequire } = await import('node:module');
const require = createRequire(import.meta.url);
let mongodbInstalled = true;
try {
  require.resolve('mongodb');
} catch {
  mongodbInstalled = false;
}
check(!mongodbInstalled, 'mongodb is not installed with @assetloom/core and @assetloom/mock');
// Every subpath of @assetloom/core but the MongoDB ones loads without it, each with its own exports
// (decision 0039), and the classes are shared between entries.
const core = await import('@assetloom/core');
for (const subpath of [
  'contract',
  'http',
  'queue',
  'store',
  'store/embedded',
  'uploads',
  'webhooks',
  'review',
]) {
  const entry = await import(`@assetloom/core/${subpath}`);
  check(subpath === 'store' || Object.keys(entry).length > 0, `@assetloom/core/${subpath} loads`);
}
const review = await import('@assetloom/core/review');
check(review.AssetloomError === core.AssetloomError, 'one AssetloomError across entries');
console.log('node-esm: every ESM entry loads');

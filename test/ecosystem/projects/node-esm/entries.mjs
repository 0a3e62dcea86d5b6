// Every public package's ESM entry point loads from the installed tarballs and exports what its README says.
import { createAssetService } from '@assetloom/core';
import { createReviewAuthService } from '@assetloom/core/review';
import { createEmbeddedStore } from '@assetloom/core/store/embedded';
import { createProceduralProvider, IMAGE_PROVIDERS } from '@assetloom/generator';
import { createAssetMock } from '@assetloom/mock';
import { assetApiDocument } from '@assetloom/openapi';
import { runPipelineWith } from '@assetloom/pipeline';
import { composeSheet } from '@assetloom/pipeline/formats';
import { interpret } from '@assetloom/pipeline/interpret';
import { Painter, pixelize } from '@assetloom/pipeline/pixel';
import { createImageProvider, MODEL_PROVIDERS } from '@assetloom/pipeline/providers';
import { tilesetRules } from '@assetloom/pipeline/tileset';
import { validateQuestionSet } from '@assetloom/question-set';
import { check } from './project-helpers.mjs';

for (const [name, value] of Object.entries({
  createAssetService,
  createEmbeddedStore,
  createReviewAuthService,
  createAssetMock,
  createProceduralProvider,
  runPipelineWith,
  composeSheet,
  interpret,
  Painter,
  pixelize,
  createImageProvider,
  tilesetRules,
  validateQuestionSet,
})) {
  check(typeof value === 'function', `${name} is a function`);
}
check(assetApiDocument.openapi.startsWith('3.1'), 'the bundled OpenAPI document');
// the provider table: the generator's row beside the pipeline's model rows, each builds its provider
check(
  Object.keys(IMAGE_PROVIDERS).join() === ['procedural', ...Object.keys(MODEL_PROVIDERS)].join(),
  'IMAGE_PROVIDERS is the procedural row and the model rows',
);
check(
  createImageProvider(IMAGE_PROVIDERS, { kind: 'procedural' }).name === 'procedural',
  'the procedural row builds',
);
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

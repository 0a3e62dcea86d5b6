// Typed use of every public package as a TypeScript user writes it; tsc fails when a type breaks.
import { errors, type Store } from '@assetloom/core';
import { createReviewAuthService } from '@assetloom/core/review';
import { createEmbeddedStore } from '@assetloom/core/store/embedded';
import { createMongoStore } from '@assetloom/core/store/mongodb';
import { runPipeline } from '@assetloom/generator';
import { type AssetMockOptions, createAssetMock } from '@assetloom/mock';
import { assetApiDocument } from '@assetloom/openapi';
import { createMemoryStorage, type ImageProvider } from '@assetloom/pipeline';
import { type QuestionSet, validateQuestionSet } from '@assetloom/question-set';
import {
  type AssetClient,
  type AssetloomApiError,
  createAssetClient,
  createReviewAuthClient,
  type ProjectListItem,
} from '@assetloom/sdk';

const api: AssetClient = createAssetClient({ baseUrl: 'http://127.0.0.1:8080' });
export async function firstTask(projectId: string): Promise<string | undefined> {
  const submitted = await api.generate({ projectId, prompt: 'a knight', assetType: 'sprite' });
  if (submitted.error) {
    const e: AssetloomApiError = submitted.error;
    return e.code === 'network_error' ? undefined : String(e.httpStatus);
  }
  const id: string = submitted.data.taskId;
  return id;
}
// @ts-expect-error assetType is a closed union
api.generate({ projectId: 'p', prompt: 'x', assetType: 'spaceship' });

const strict = createAssetClient({ baseUrl: '', throwOnError: true });
export async function projectNames(): Promise<string[]> {
  const list = await strict.GET('/api/v1/projects');
  return list.projects.map((p: ProjectListItem) => p.name);
}

createReviewAuthClient({ baseUrl: 'http://127.0.0.1:8080' });
export const stores: Store[] = [createEmbeddedStore(), createMongoStore({ uri: 'mongodb://127.0.0.1:1' })];
export const notFound: number = errors.taskNotFound().code;
export const reviewFactory: typeof createReviewAuthService = createReviewAuthService;
const options: AssetMockOptions = { clock: 'manual', seed: { users: [{ username: 'a', password: 'b' }] } };
export const mock = createAssetMock(options);
export const openapiVersion: string = assetApiDocument.openapi;
export const provider: ImageProvider | undefined = undefined;
export const storage = createMemoryStorage();
export const pipeline: typeof runPipeline = runPipeline;
const checked = validateQuestionSet(JSON.parse('{}'));
export const set: QuestionSet | undefined = checked.ok ? checked.value : undefined;

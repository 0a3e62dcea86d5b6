import type { AssetApiOperations as Ops, AssetApiSchemas as S } from '@assetloom/openapi';
import { expectTypeOf, test } from 'vitest';
import type { createOperationTable, SignedAsset } from './entries/http.js';
import type {
  ASSET_TYPES,
  AssetService,
  ErrorCode,
  FailEnvelope,
  TASK_STAGES,
  TASK_STATUSES,
} from './index.js';
import type { normalizeParams } from './params.js';
import type { OperationInputs } from './validation.js';

/**
 * The domain against the contract, as openapi-typescript generates it once in @assetloom/openapi.
 * Core's body and data types are the contract's own; what is checked here is everything written by
 * hand beside them — the service's results, the validator's typed inputs, the enumerations the code
 * iterates, the envelope — so a field added, renamed, retyped or made optional in the YAML fails here
 * (or in the service's mapping functions) after `pnpm gen`.
 */
type Data<K extends keyof Ops> = Ops[K]['responses'] extends {
  200: { content: { 'application/json': { data: infer D } } };
}
  ? D
  : Ops[K]['responses'] extends { 201: { content: { 'application/json': { data: infer D } } } }
    ? D
    : never;
type Body<K extends keyof Ops> = Ops[K] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : never;
type Result<K extends keyof AssetService> = Awaited<ReturnType<AssetService[K]>>;

test('the service answers the data of each operation', () => {
  expectTypeOf<Result<'register'>>().toEqualTypeOf<Data<'register'>>();
  expectTypeOf<Result<'login'>>().toEqualTypeOf<Data<'login'>>();
  expectTypeOf<Result<'me'>>().toEqualTypeOf<Data<'getMe'>>();
  expectTypeOf<Result<'changePassword'>>().toEqualTypeOf<Data<'changePassword'>>();
  expectTypeOf<Result<'listProjects'>>().toEqualTypeOf<Data<'listProjects'>>();
  expectTypeOf<Result<'createProject'>>().toEqualTypeOf<Data<'createProject'>>();
  expectTypeOf<Result<'getProject'>>().toEqualTypeOf<Data<'getProject'>>();
  expectTypeOf<Result<'updateProject'>>().toEqualTypeOf<Data<'updateProject'>>();
  expectTypeOf<Result<'listProjectTasks'>>().toEqualTypeOf<Data<'listProjectTasks'>>();
  expectTypeOf<Result<'getStyle'>>().toEqualTypeOf<Data<'getProjectStyle'>>();
  expectTypeOf<Result<'putStyle'>>().toEqualTypeOf<Data<'replaceProjectStyle'>>();
  expectTypeOf<Result<'getTask'>>().toEqualTypeOf<Data<'getTask'>>();
  expectTypeOf<{ assets: SignedAsset[] }>().toEqualTypeOf<Data<'getTaskAssets'>>();
  expectTypeOf<Pick<Result<'optimizePrompt'>, 'prompt' | 'rawText'>>().toEqualTypeOf<
    Data<'optimizePrompt'>
  >();
  expectTypeOf<{ taskId: Result<'submitTask'>['taskId'] }>().toEqualTypeOf<Data<'generate'>>();
});

test("the validator's typed inputs are the contract's bodies and parameters", () => {
  expectTypeOf<OperationInputs['register']['body']>().toEqualTypeOf<Body<'register'>>();
  expectTypeOf<OperationInputs['login']['body']>().toEqualTypeOf<Body<'login'>>();
  expectTypeOf<OperationInputs['changePassword']['body']>().toEqualTypeOf<Body<'changePassword'>>();
  expectTypeOf<OperationInputs['optimizePrompt']['body']>().toEqualTypeOf<Body<'optimizePrompt'>>();
  expectTypeOf<OperationInputs['createProject']['body']>().toEqualTypeOf<Body<'createProject'>>();
  expectTypeOf<OperationInputs['updateProject']['body']>().toEqualTypeOf<Body<'updateProject'>>();
  expectTypeOf<OperationInputs['replaceProjectStyle']['body']>().toEqualTypeOf<Body<'replaceProjectStyle'>>();
  // The validator checks generate's body; the service normalizes its params (one place).
  expectTypeOf<OperationInputs['generate']['body']>().toEqualTypeOf<Body<'generate'>>();
  expectTypeOf<ReturnType<typeof normalizeParams>>().toEqualTypeOf<S['TaskParams']>();
  expectTypeOf<OperationInputs['getTask']['params']>().toEqualTypeOf<Ops['getTask']['parameters']['path']>();
  expectTypeOf<OperationInputs['getProject']['params']>().toEqualTypeOf<
    Ops['getProject']['parameters']['path']
  >();
  expectTypeOf<OperationInputs['downloadAsset']['query']>().toEqualTypeOf<
    Ops['downloadAsset']['parameters']['query']
  >();
  // Defaults filled in: the optional page parameters become required numbers.
  expectTypeOf<OperationInputs['listProjects']['query']>().toEqualTypeOf<
    Required<NonNullable<Ops['listProjects']['parameters']['query']>>
  >();
});

test('the enumerations the code iterates list exactly the contract values', () => {
  expectTypeOf<(typeof ASSET_TYPES)[number]>().toEqualTypeOf<S['AssetType']>();
  expectTypeOf<(typeof TASK_STATUSES)[number]>().toEqualTypeOf<S['TaskStatus']>();
  expectTypeOf<(typeof TASK_STAGES)[number]>().toEqualTypeOf<S['TaskStage']>();
  expectTypeOf<ErrorCode>().toEqualTypeOf<S['ErrorCode']>();
  expectTypeOf<Omit<FailEnvelope, 'data'>>().toEqualTypeOf<Omit<S['ErrorResponse'], 'data'>>();
});

test('the operation table has an entry for every operation of the contract but the file route', () => {
  type TableIds = Parameters<ReturnType<typeof createOperationTable>['handler']>[0]['operationId'];
  expectTypeOf<TableIds>().toEqualTypeOf<string>();
  expectTypeOf<Exclude<keyof Ops, keyof OperationInputs>>().toEqualTypeOf<never>();
  expectTypeOf<Exclude<keyof OperationInputs, keyof Ops>>().toEqualTypeOf<never>();
});

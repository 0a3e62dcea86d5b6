/**
 * Domain and response types. Request bodies and response data are the contract's own types
 * (openapi-typescript, generated once in @assetloom/openapi); `contract.test-d.ts` checks the rest.
 */
import type { AssetApiSchemas as Schemas } from '@assetloom/openapi';

/** The four asset types of spec 000, then `tileset` and `level` (Assetloom extensions, decisions 0023 and 0051). */
export const ASSET_TYPES = ['sprite', 'background', 'ui', 'animation', 'tileset', 'level'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

export const TASK_STATUSES = ['running', 'completed', 'failed', 'saving'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Statuses in which a task still counts for dedupe. */
export const ACTIVE_TASK_STATUSES: readonly TaskStatus[] = ['running', 'saving'];

export const TASK_STAGES = [
  'prompt_builder',
  'asset_generator',
  'quality_supervisor',
  'format_adapter',
] as const;
export type TaskStage = (typeof TASK_STAGES)[number];

export type OutputFormat = Schemas['OutputFormat'];
/** How each direction's frames play: forward, reverse or pingpong (`params.animation.loop`). */
export type AnimationLoop = Schemas['AnimationLoop'];
export type Directions = 1 | 4 | 8;

/** A flat map of string keys to string values (project style, task style). */
export type StyleMap = Record<string, string>;

/** Params as normalized at submission: defaults filled in, frames only for sprite and animation (the contract's `TaskParams`). */
export type TaskParams = Schemas['TaskParams'];

/** Params as a client may send them (every field optional). */
export type GenerateParamsInput = Schemas['GenerateParams'];

// ---- request inputs (after validation) ----
// Bodies are the contract's types as openapi-typescript generates them in @assetloom/openapi.

export type RegisterInput = Schemas['RegisterRequest'];
export type LoginInput = Schemas['LoginRequest'];
export type ChangePasswordInput = Schemas['ChangePasswordRequest'];
/** `page` and `pageSize` after the validator filled in their defaults. */
export interface PageInput {
  page: number;
  pageSize: number;
}
export type CreateProjectInput = Schemas['CreateProjectRequest'];
export type UpdateProjectInput = Schemas['UpdateProjectRequest'];
export type StyleInput = Schemas['Style'];
export type GenerateInput = Schemas['GenerateRequest'];
export type PromptOptimizeInput = Schemas['PromptOptimizeRequest'];

// ---- response data (the contract's `data` shapes) ----

/** The authenticated caller, as `authenticate` resolves it. */
export interface AuthUser {
  id: number;
  username: string;
  email: string | null;
  tokenVersion: number;
  createdAt: string;
  updatedAt: string;
}

export type RegisterResult = Schemas['RegisterResponse']['data'];
export type LoginUser = Schemas['LoginUser'];
export type LoginResult = Schemas['LoginResponse']['data'];
export type MeResult = Schemas['MeResponse']['data'];
export type TokenResult = Schemas['ChangePasswordResponse']['data'];
export type Style = Schemas['Style'];
export type ProjectListItem = Schemas['ProjectListItem'];
export type Project = Schemas['Project'];
export type ProjectDetail = Schemas['ProjectDetail'];
export type ProjectList = Schemas['ProjectListResponse']['data'];
export type TaskListItem = Schemas['TaskListItem'];
export type TaskList = Schemas['TaskListResponse']['data'];
export type Task = Schemas['Task'];
export interface SubmitResult {
  taskId: string;
  /** false when an existing task was returned (dedupe or Idempotency-Key). */
  created: boolean;
}
export interface DeleteProjectResult {
  /** Object-storage keys of the deleted assets, for the caller to remove from storage. */
  deletedKeys: string[];
}

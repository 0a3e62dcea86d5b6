/** Domain and response types; the response shapes are exactly the OpenAPI `data` shapes. */

export const ASSET_TYPES = ['sprite', 'background', 'ui', 'animation'] as const;
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

export type OutputFormat = 'spritesheet' | 'individual';
export type Directions = 1 | 4 | 8;

/** A flat map of string keys to string values (project style, task style). */
export type StyleMap = Record<string, string>;

/** Params as normalized at submission: defaults filled in, frames only for sprite and animation. */
export interface TaskParams {
  resolution: number;
  frames?: { directions: Directions; framesPerDirection: number };
  format: OutputFormat;
  /** Variation selector; present only when the client sent one. */
  seed?: number;
}

/** Params as a client may send them (every field optional). */
export interface GenerateParamsInput {
  resolution?: number;
  frames?: { directions?: Directions; framesPerDirection?: number };
  format?: OutputFormat;
  seed?: number;
}

// ---- request inputs (after validation) ----

export interface RegisterInput {
  username: string;
  email?: string;
  password: string;
}
export interface LoginInput {
  username: string;
  password: string;
}
export interface ChangePasswordInput {
  oldPassword: string;
  newPassword: string;
}
export interface PageInput {
  page: number;
  pageSize: number;
}
export interface CreateProjectInput {
  name: string;
  style?: StyleMap;
}
export interface UpdateProjectInput {
  name: string;
}
export interface StyleInput {
  kvPairs: StyleMap;
}
export interface GenerateInput {
  projectId: string;
  prompt: string;
  assetType: AssetType;
  taskStyle?: StyleMap | null;
  params?: GenerateParamsInput;
}
export interface PromptOptimizeInput {
  tags: string[];
  assetType: AssetType;
  prompt?: string;
  userNote?: string;
}

// ---- response data ----

/** The authenticated caller, as `authenticate` resolves it. */
export interface AuthUser {
  id: number;
  username: string;
  email: string | null;
  tokenVersion: number;
  createdAt: string;
  updatedAt: string;
}

export interface RegisterResult {
  id: number;
  username: string;
}
export interface LoginUser {
  id: number;
  username: string;
  email: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface LoginResult {
  token: string;
  expiresIn: number;
  user: LoginUser;
}
export interface MeResult {
  id: string;
  username: string;
  email: string | null;
  createdAt: string;
}
export interface TokenResult {
  token: string;
  expiresIn: number;
}
export interface Style {
  kvPairs: StyleMap;
}
export interface ProjectListItem {
  id: string;
  name: string;
  createdAt: string;
  taskCount: number;
  lastActivityAt: string;
}
export interface Project {
  id: string;
  name: string;
  style: Style;
  createdAt: string;
  taskCount: number;
  lastActivityAt: string;
}
export interface ProjectDetail {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}
export interface ProjectList {
  total: number;
  projects: ProjectListItem[];
}
export interface TaskListItem {
  id: string;
  prompt: string;
  assetType: AssetType;
  status: TaskStatus;
  createdAt: string;
}
export interface TaskList {
  total: number;
  tasks: TaskListItem[];
}
export interface Task {
  taskId: string;
  projectId: string;
  prompt: string;
  assetType: AssetType;
  taskStyle: StyleMap | null;
  params: TaskParams;
  status: TaskStatus;
  stage: TaskStage;
  progress: number;
  retryCount: number;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface SubmitResult {
  taskId: string;
  /** false when an existing task was returned (dedupe or Idempotency-Key). */
  created: boolean;
}
export interface DeleteProjectResult {
  /** Object-storage keys of the deleted assets, for the caller to remove from storage. */
  deletedKeys: string[];
}

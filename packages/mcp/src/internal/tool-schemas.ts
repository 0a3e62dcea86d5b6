import type { JsonSchema } from '@assetloom/openapi';
import { ASSET_TYPE_TOOLS, type AssetTypeTool } from './asset-types.js';
import { type AssetType, contractParameter, contractProperty, contractSchema } from './contract.js';
import { LAYOUT_NAMES, LAYOUTS } from './layouts.js';

/**
 * The input schemas of the tools. What the API takes comes from the contract (asset-api.yaml through
 * @assetloom/openapi), never written again here: a change of the contract changes the tools. What only
 * the MCP server takes (where to write files, whether to wait) is written here, once.
 */

const PROJECT_ID: JsonSchema = {
  ...contractProperty('GenerateRequest', 'projectId'),
  description: 'The project: its id, or its exact name (list_projects lists them). Its style is used.',
};

/** Where to write files: a folder inside the allowed ones, and which files (the engine layout). */
const SAVE_TO: JsonSchema = Object.freeze({
  type: 'object',
  additionalProperties: false,
  required: ['folder'],
  description:
    "Also write the task's files into a folder this MCP server may write (its --allow folders). The PNGs and the engine files of the layout go straight into the folder.",
  properties: {
    folder: {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      description:
        'A folder inside an allowed folder: absolute, relative to the first allowed folder, or a Godot path (res://sprites/player) inside the allowed folder that holds project.godot. Missing folders are made.',
    },
    layout: {
      type: 'string',
      enum: LAYOUT_NAMES,
      description: `Which files: ${LAYOUT_NAMES.map((name) => `${name} — ${LAYOUTS[name].description}`).join('; ')}. Default: the server's --layout (all).`,
    },
    overwrite: {
      type: 'boolean',
      default: false,
      description: 'Replace files that already exist there (otherwise an existing file stops the download).',
    },
  },
});

const WAIT: JsonSchema = Object.freeze({
  type: 'boolean',
  default: true,
  description:
    'Wait until the task ends, reporting progress, and answer the picture (default). false: answer the taskId at once (wait_for_task waits later).',
});

const TASK_ID: JsonSchema = Object.freeze({
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'The taskId a generate_* tool answered.',
});

/** The input of a generate_* tool: the contract's GenerateRequest, its `params` picked for the type. */
function generateInputSchema(row: AssetTypeTool): JsonSchema {
  const all = contractSchema('GenerateParams').properties as Record<string, JsonSchema>;
  const params: Record<string, JsonSchema> = {};
  for (const name of row.params) {
    const schema = all[name];
    if (schema === undefined) throw new Error(`[assetloom/mcp] the contract's GenerateParams has no ${name}`);
    params[name] = schema;
  }
  return Object.freeze({
    type: 'object',
    additionalProperties: false,
    required: ['projectId', 'prompt'],
    properties: {
      projectId: PROJECT_ID,
      prompt: contractProperty('GenerateRequest', 'prompt'),
      taskStyle: contractProperty('GenerateRequest', 'taskStyle'),
      params: {
        type: 'object',
        additionalProperties: false,
        description: `The contract's generation params this asset type takes (defaults apply to those not given).`,
        properties: params,
      },
      wait: WAIT,
      saveTo: SAVE_TO,
    },
  });
}

export const GENERATE_SCHEMAS = Object.fromEntries(
  Object.entries(ASSET_TYPE_TOOLS).map(([type, row]) => [type, generateInputSchema(row)]),
) as Record<AssetType, JsonSchema>;

const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema =>
  Object.freeze({ type: 'object', additionalProperties: false, required, properties });

export const SCHEMAS = {
  login: object({
    token: { type: 'string', minLength: 1, maxLength: 4096, description: 'A token from POST /auth/login.' },
    ...(contractSchema('LoginRequest').properties as Record<string, JsonSchema>),
  }),
  none: object({}),
  createProject: contractSchema('CreateProjectRequest'),
  project: object({ projectId: PROJECT_ID }, ['projectId']),
  setStyle: object(
    {
      projectId: PROJECT_ID,
      kvPairs: contractProperty('Style', 'kvPairs'),
      replace: {
        type: 'boolean',
        default: false,
        description:
          'true: the style becomes exactly kvPairs; false (default): kvPairs are set over the current keys (an empty value removes a key).',
      },
    },
    ['projectId', 'kvPairs'],
  ),
  styleCatalog: object({}),
  listTasks: object(
    {
      projectId: PROJECT_ID,
      page: contractParameter('Page'),
      pageSize: contractParameter('PageSize'),
    },
    ['projectId'],
  ),
  task: object({ taskId: TASK_ID }, ['taskId']),
  waitForTask: object({ taskId: TASK_ID, saveTo: SAVE_TO }, ['taskId']),
  download: object(
    {
      taskId: TASK_ID,
      folder: (SAVE_TO.properties as Record<string, JsonSchema>).folder as JsonSchema,
      layout: (SAVE_TO.properties as Record<string, JsonSchema>).layout as JsonSchema,
      overwrite: (SAVE_TO.properties as Record<string, JsonSchema>).overwrite as JsonSchema,
    },
    ['taskId', 'folder'],
  ),
  upload: object({
    path: {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      description: 'A picture file inside the allowed folders (absolute or relative to the first).',
    },
    base64: {
      type: 'string',
      minLength: 8,
      maxLength: 14_000_000,
      description: 'The picture itself, base64 (PNG, JPEG, WebP or GIF; a data: URL works too).',
    },
  }),
} satisfies Record<string, JsonSchema>;

const CHARACTER_ID: JsonSchema = Object.freeze({
  ...contractParameter('CharacterId'),
  description: "The characterId create_character answered (list_characters lists a project's characters).",
});

/** A contract request's properties, its `$ref`s written out (the tool adds its own beside them). */
const requestProperties = (name: string) => contractSchema(name).properties as Record<string, JsonSchema>;

/**
 * The character tools' inputs (issue #40's endpoints): the contract's `CreateCharacterRequest`,
 * `AnimateCharacterRequest` and `RotateCharacterRequest` as they are, with the path's ids beside them
 * and, for the tools that submit a task, `wait` and `saveTo`.
 */
export const CHARACTER_SCHEMAS = {
  list: object(
    { projectId: PROJECT_ID, page: contractParameter('Page'), pageSize: contractParameter('PageSize') },
    ['projectId'],
  ),
  create: object(
    { projectId: PROJECT_ID, ...requestProperties('CreateCharacterRequest'), wait: WAIT, saveTo: SAVE_TO },
    ['projectId', ...(contractSchema('CreateCharacterRequest').required as string[])],
  ),
  character: object({ characterId: CHARACTER_ID }, ['characterId']),
  rename: object({ characterId: CHARACTER_ID, ...requestProperties('UpdateCharacterRequest') }, [
    'characterId',
    ...(contractSchema('UpdateCharacterRequest').required as string[]),
  ]),
  animate: object(
    {
      characterId: CHARACTER_ID,
      ...requestProperties('AnimateCharacterRequest'),
      wait: WAIT,
      saveTo: SAVE_TO,
    },
    ['characterId', ...(contractSchema('AnimateCharacterRequest').required as string[])],
  ),
  rotate: object(
    {
      characterId: CHARACTER_ID,
      ...requestProperties('RotateCharacterRequest'),
      wait: WAIT,
      saveTo: SAVE_TO,
    },
    ['characterId'],
  ),
} satisfies Record<string, JsonSchema>;

import type { JsonSchema } from '@assetloom/openapi';
import type { Asset, GenerateRequest, Task } from '@assetloom/sdk';
import {
  type CallToolResult,
  fromJsonSchema,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { AssetloomMcpError } from '../errors.js';
import { json, projectIdOf, text } from './answers.js';
import { ASSET_TYPE_TOOLS } from './asset-types.js';
import { registerCharacterTools } from './character-tools.js';
import type { AssetType } from './contract.js';
import { downloadTask } from './files.js';
import type { AllowedFolders } from './folders.js';
import type { LayoutName } from './layouts.js';
import { type Language, say } from './messages.js';
import { type Session, toMcpError } from './session.js';
import { MAX_IMAGES, taskAnswer } from './task-result.js';
import { GENERATE_SCHEMAS, SCHEMAS } from './tool-schemas.js';
import { localizedValidator } from './validate.js';

/** What every tool of one MCP server instance shares. */
export interface ToolContext {
  session: Session;
  folders: AllowedFolders;
  layout: LayoutName;
  language: () => Language;
  /** Offer the login tool (stdio; the HTTP mount is signed in by its request). */
  login: boolean;
}

export type Args = Record<string, unknown>;
export type SaveTo = { folder: string; layout?: LayoutName; overwrite?: boolean };
type Handler = (args: Args, ctx: ServerContext) => Promise<CallToolResult>;

/** A tool's registration: its name, what the agent reads, its input schema, its hints. */
interface ToolConfig {
  title: string;
  description: string;
  schema: JsonSchema;
  readOnly?: boolean;
  /** It deletes something (MCP's destructiveHint: a client may ask its user first). */
  destructive?: boolean;
}

/** What the tools of other modules (the character tools) register and answer with. */
export interface ToolKit {
  tc: ToolContext;
  /** Registers a tool whose errors are answered as MCP tool errors (`what`: what a refusal refused). */
  register(name: string, config: ToolConfig, what: string, handler: Handler): void;
  /** Checks `saveTo.folder` before a task is submitted (nothing is made), so a refused folder costs no task. */
  checkSaveTo(saveTo: SaveTo | undefined): Promise<void>;
  /** Waits for a task with progress and cancellation, then answers its pictures, links and written files. */
  finish(
    tool: string,
    taskId: string,
    ctx: ServerContext,
    saveTo: SaveTo | undefined,
  ): Promise<CallToolResult>;
}

/** An error as the MCP tool error the agent reads (the token and signed URLs never in it). */
function toolError(error: unknown, tool: string): CallToolResult {
  if (error instanceof AssetloomMcpError) {
    return {
      isError: true,
      content: [{ type: 'text', text: error.message }],
      structuredContent: {
        error: {
          code: error.code,
          ...(error.field ? { field: error.field } : {}),
          ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
        },
      },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: message.startsWith('[assetloom/') ? message : `[assetloom/mcp] ${tool} failed: ${message}`,
      },
    ],
  };
}

/** Reports a task's progress as MCP progress notifications (when the client asked for them). */
function progressReporter(ctx: ServerContext) {
  const token = ctx.mcpReq._meta?.progressToken;
  let sent = -1;
  let reason: string | undefined;
  return {
    onEvent(event: { stage: string; status: string; rejectReason?: string }) {
      if (event.status === 'failed' && event.rejectReason) reason = event.rejectReason;
    },
    onProgress(task: Task) {
      if (token === undefined) return;
      let progress = task.progress;
      let message = `task ${task.taskId}: ${task.stage} ${task.status}${task.retryCount > 0 ? ` (retry ${task.retryCount})` : ''}`;
      if (reason !== undefined) {
        message += `: quality check rejected — ${reason}`;
        reason = undefined;
        if (progress <= sent) progress = Math.min(99.9, sent + 0.1);
      }
      if (progress <= sent) return;
      sent = progress;
      void ctx.mcpReq
        .notify({
          method: 'notifications/progress',
          params: { progressToken: token, progress, total: 100, message },
        })
        .catch(() => {});
    },
  };
}

/**
 * The tools: the account and projects, one generate_* per asset type (the table), uploads, tasks
 * and downloads. Each answers MCP tool errors (isError) for what the agent should fix.
 */
export function registerTools(server: McpServer, tc: ToolContext): void {
  const { session, folders } = tc;
  const lang = tc.language;

  const register = (name: string, config: ToolConfig, what: string, handler: Handler) => {
    server.registerTool(
      name,
      {
        title: config.title,
        description: config.description,
        inputSchema: fromJsonSchema<Args>(config.schema as never, localizedValidator(lang, name)),
        annotations: {
          readOnlyHint: config.readOnly ?? false,
          ...(config.readOnly ? {} : { destructiveHint: config.destructive ?? false }),
          openWorldHint: true,
        },
      },
      async (args: Args, ctx: ServerContext) => {
        try {
          return await handler(args, ctx);
        } catch (error) {
          return toolError(
            toMcpError(error, { tool: name, what, language: lang(), server: session.baseUrl }),
            name,
          );
        }
      },
    );
  };

  /** Waits for a task (progress, cancellation), then answers its pictures, links and written files. */
  async function finish(
    tool: string,
    taskId: string,
    ctx: ServerContext,
    saveTo: SaveTo | undefined,
  ): Promise<CallToolResult> {
    const signal = ctx.mcpReq.signal;
    const progress = progressReporter(ctx);
    let task: Task;
    try {
      task = await session.run((api) =>
        api.waitForTask(taskId, { signal, onEvent: progress.onEvent, onProgress: progress.onProgress }),
      );
    } catch (error) {
      if (signal.aborted)
        throw new AssetloomMcpError('cancelled', say(lang(), 'cancelled', { tool, taskId }));
      throw error;
    }
    const { assets } = await session.run((api) =>
      api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } }, signal }),
    );
    const pictures = new Map<string, Uint8Array>();
    for (const asset of assets.slice(0, MAX_IMAGES)) {
      const file = await session.run((api) => api.downloadAsset(asset, { signal }));
      pictures.set(asset.key, file.bytes);
    }
    const written = saveTo ? await save(task, assets, saveTo, 'saveTo.folder', signal) : undefined;
    return taskAnswer({ task, assets, pictures, language: lang(), ...(written ? { written } : {}) });
  }

  async function checkSaveTo(saveTo: SaveTo | undefined): Promise<void> {
    if (saveTo !== undefined) await folders.folder(saveTo.folder, 'saveTo.folder', lang(), { make: false });
  }

  function save(task: Task, assets: Asset[], saveTo: SaveTo, field: string, signal: AbortSignal) {
    return session.run((api) =>
      downloadTask({
        api,
        folders,
        task,
        assets,
        folder: saveTo.folder,
        layout: saveTo.layout ?? tc.layout,
        overwrite: saveTo.overwrite ?? false,
        field,
        language: lang(),
        signal,
      }),
    );
  }

  // --- the account ---
  if (tc.login) {
    register(
      'login',
      {
        title: 'Log in',
        description:
          'Logs this MCP server in to the Assetloom server, with a token or with a username and password (better: set ASSETLOOM_TOKEN in its environment, so no secret passes through the conversation). The token is kept and never shown.',
        schema: SCHEMAS.login,
      },
      'the login',
      async (args) => {
        if (!args.token && !(args.username && args.password)) {
          throw new AssetloomMcpError('invalid_arguments', say(lang(), 'loginNeedsOne'), { field: 'token' });
        }
        const username = await session.login(
          args as { token?: string; username?: string; password?: string },
        );
        return text(say(lang(), 'loggedIn', { server: session.baseUrl, username }), { username });
      },
    );
  }
  register(
    'whoami',
    {
      title: 'Who am I',
      description: 'The account this MCP server acts as (never its token).',
      schema: SCHEMAS.none,
      readOnly: true,
    },
    'the current user',
    async () => json(await session.run((api) => api.GET('/api/v1/auth/me'))),
  );

  // --- projects and styles ---
  register(
    'list_projects',
    {
      title: 'List projects',
      description: 'Your projects, newest first: id, name, task count.',
      schema: SCHEMAS.none,
      readOnly: true,
    },
    'the project list',
    async () => {
      const items = await session.run(async (api) => {
        const out = [];
        for await (const item of api.paginate('/api/v1/projects')) out.push(item);
        return out;
      });
      return json(items);
    },
  );
  register(
    'create_project',
    {
      title: 'Create a project',
      description:
        'Makes a project; its style (palette, artStyle, lineWeight, lighting, tileable, and free keys such as theme) applies to every asset generated in it. style_catalog lists the values.',
      schema: SCHEMAS.createProject,
    },
    'the new project',
    async (args) => json(await session.run((api) => api.POST('/api/v1/projects', { body: args as never }))),
  );
  register(
    'get_style',
    {
      title: 'Read a style',
      description: "A project's style keys.",
      schema: SCHEMAS.project,
      readOnly: true,
    },
    'the style',
    async (args) =>
      json(
        await session.run(async (api) => {
          const projectId = await projectIdOf(api, String(args.projectId), lang());
          return api.GET('/api/v1/projects/{projectId}/style', { params: { path: { projectId } } });
        }),
      ),
  );
  register(
    'set_style',
    {
      title: 'Set a style',
      description:
        "Sets keys of a project's style (replace: true makes it exactly these keys). A value the generator does not read is refused naming the key and the values it takes.",
      schema: SCHEMAS.setStyle,
    },
    'the style',
    async (args) =>
      json(
        await session.run(async (api) => {
          const projectId = await projectIdOf(api, String(args.projectId), lang());
          const given = args.kvPairs as Record<string, string>;
          let kvPairs: Record<string, string> = given;
          if (args.replace !== true) {
            const current = await api.GET('/api/v1/projects/{projectId}/style', {
              params: { path: { projectId } },
            });
            kvPairs = { ...(current.kvPairs as Record<string, string>), ...given };
          }
          kvPairs = Object.fromEntries(Object.entries(kvPairs).filter(([, v]) => v !== ''));
          return api.PUT('/api/v1/projects/{projectId}/style', {
            params: { path: { projectId } },
            body: { kvPairs },
          });
        }),
      ),
  );
  register(
    'style_catalog',
    {
      title: 'Style catalogue',
      description:
        'What style keys take: the named palettes with their colours, the art styles, and every key the generator reads.',
      schema: SCHEMAS.styleCatalog,
      readOnly: true,
    },
    'the style catalogue',
    async () => json(await session.api.getStyleCatalog()),
  );

  // --- one generate_* tool per asset type ---
  for (const [assetType, row] of Object.entries(ASSET_TYPE_TOOLS) as [
    AssetType,
    (typeof ASSET_TYPE_TOOLS)[AssetType],
  ][]) {
    register(
      row.tool,
      {
        title: row.title,
        description: `${row.description} Reports progress while it runs and answers the PNG as an image with links to every file; saveTo also writes them into an allowed folder.`,
        schema: GENERATE_SCHEMAS[assetType],
      },
      'the generation',
      async (args, ctx) => {
        await checkSaveTo(args.saveTo as SaveTo | undefined);
        const { taskId } = await session.run(async (api) => {
          const projectId = await projectIdOf(api, String(args.projectId), lang());
          const body = {
            projectId,
            prompt: args.prompt,
            assetType,
            ...(args.taskStyle !== undefined ? { taskStyle: args.taskStyle } : {}),
            ...(args.params !== undefined ? { params: args.params } : {}),
          } as GenerateRequest;
          return api.generate(body, { signal: ctx.mcpReq.signal });
        });
        if (args.wait === false) {
          return text(`Task ${taskId} submitted (${assetType}); wait_for_task follows it.`, {
            taskId,
            status: 'running',
          });
        }
        return finish(row.tool, taskId, ctx, args.saveTo as SaveTo | undefined);
      },
    );
  }

  // --- kept characters: made once, then animated and turned (character-tools.ts) ---
  registerCharacterTools({ tc, register, checkSaveTo, finish });

  // --- pictures in ---
  register(
    'upload_image',
    {
      title: 'Upload a picture',
      description:
        'Uploads a PNG, JPEG, WebP or GIF (a file inside the allowed folders, or base64) for params.image, mask, references or paletteFrom of a generate_* call; answers its uploadId.',
      schema: SCHEMAS.upload,
    },
    'the upload',
    async (args, ctx) => {
      let bytes: Uint8Array;
      if (typeof args.path === 'string') {
        bytes = await folders.read(args.path, 'path', lang());
      } else if (typeof args.base64 === 'string') {
        bytes = new Uint8Array(Buffer.from(args.base64.replace(/^data:[^,]*,/, ''), 'base64'));
      } else {
        throw new AssetloomMcpError(
          'invalid_arguments',
          say(lang(), 'required', { field: 'path | base64' }),
          { field: 'path' },
        );
      }
      return json(await session.run((api) => api.uploadImage(bytes, { signal: ctx.mcpReq.signal })));
    },
  );

  // --- tasks ---
  register(
    'task_status',
    {
      title: 'Task status',
      description: 'A task: status, stage, progress, retries, error.',
      schema: SCHEMAS.task,
      readOnly: true,
    },
    'the task',
    async (args) =>
      json(
        await session.run((api) =>
          api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: String(args.taskId) } } }),
        ),
      ),
  );
  register(
    'list_tasks',
    {
      title: 'List tasks',
      description: "A project's tasks, newest first.",
      schema: SCHEMAS.listTasks,
      readOnly: true,
    },
    'the task list',
    async (args) =>
      json(
        await session.run(async (api) => {
          const projectId = await projectIdOf(api, String(args.projectId), lang());
          return api.GET('/api/v1/projects/{projectId}/tasks', {
            params: {
              path: { projectId },
              query: {
                ...(args.page !== undefined ? { page: args.page as number } : {}),
                ...(args.pageSize !== undefined ? { pageSize: args.pageSize as number } : {}),
              },
            },
          });
        }),
      ),
  );
  register(
    'wait_for_task',
    {
      title: 'Wait for a task',
      description:
        'Waits until a task ends, reporting progress (cancel the call to stop waiting: the task goes on), and answers its PNG as an image with links to every file; saveTo also writes them.',
      schema: SCHEMAS.waitForTask,
      readOnly: true,
    },
    'the task',
    async (args, ctx) => finish('wait_for_task', String(args.taskId), ctx, args.saveTo as SaveTo | undefined),
  );
  register(
    'download_task',
    {
      title: 'Download a task',
      description:
        "Writes a completed task's PNGs and engine files into a folder this MCP server may write (layout godot, unity, phaser, tiled, ldtk or all; Godot's res:// paths follow where the files land).",
      schema: SCHEMAS.download,
    },
    'the download',
    async (args, ctx) => {
      const taskId = String(args.taskId);
      const signal = ctx.mcpReq.signal;
      const written = await session.run(async (api) => {
        const task = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } }, signal });
        const { assets } = await api.GET('/api/v1/tasks/{taskId}/assets', {
          params: { path: { taskId } },
          signal,
        });
        return downloadTask({
          api,
          folders,
          task,
          assets,
          folder: String(args.folder),
          layout: (args.layout as LayoutName | undefined) ?? tc.layout,
          overwrite: args.overwrite === true,
          field: 'folder',
          language: lang(),
          signal,
        });
      });
      return text(
        `Wrote ${written.length} file(s): ${written.map((w) => (w.res ? `${w.path} (${w.res})` : w.path)).join(', ')}`,
        { written },
      );
    },
  );
}

import type { AssetClient } from '@assetloom/sdk';
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { characterUri, characterWithTasks } from './character-tools.js';
import { FILE_URI_PREFIX, fileUri, isText, mimeOf } from './files.js';
import type { Language } from './messages.js';
import { type Session, toMcpError } from './session.js';
import { publicAsset } from './task-result.js';

const JSON_TYPE = 'application/json';

function jsonContents(uri: URL, value: unknown) {
  return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(value, null, 2) }] };
}

function one(value: string | string[] | undefined): string {
  return decodeURIComponent(Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));
}

/**
 * Resources: what the server can draw (its capabilities), the projects, a project with its style,
 * tasks and characters, a character with its tasks, a task with its assets, and every stored file (`assetloom://files/<key>`: the targets of the tools' resource links).
 */
export function registerResources(server: McpServer, session: Session, language: () => Language): void {
  /** A read through the SDK whose failure is said as the tools say it (not logged in, unreachable …). */
  const read = async <T>(what: string, call: (api: AssetClient<true>) => Promise<T>): Promise<T> => {
    try {
      return await session.run(call);
    } catch (error) {
      const mapped = toMcpError(error, {
        tool: 'resources/read',
        what,
        language: language(),
        server: session.baseUrl,
      });
      throw mapped instanceof Error ? new Error(mapped.message, { cause: error }) : mapped;
    }
  };
  const listProjects = async (api: AssetClient<true>) => {
    const out = [];
    for await (const item of api.paginate('/api/v1/projects')) out.push(item);
    return out;
  };

  server.registerResource(
    'capabilities',
    'assetloom://capabilities',
    {
      title: 'What the server can draw',
      description:
        "The server's image provider: the asset types it draws, the picture inputs it honours (redrawing a picture, masks and references need a model provider; pixelating and a palette from a picture work everywhere), whether it takes uploads, and its limits. Read it before asking for what a provider may refuse. No login needed.",
      mimeType: JSON_TYPE,
    },
    async (uri) => jsonContents(uri, await read('what the server can do', (api) => api.getCapabilities())),
  );

  server.registerResource(
    'projects',
    'assetloom://projects',
    { title: 'Projects', description: 'Your projects, newest first.', mimeType: JSON_TYPE },
    async (uri) => jsonContents(uri, await read('the projects', listProjects)),
  );

  server.registerResource(
    'project',
    new ResourceTemplate('assetloom://projects/{projectId}', {
      list: async () => ({
        resources: (await read('the projects', listProjects)).map((p) => ({
          uri: `assetloom://projects/${encodeURIComponent(p.id)}`,
          name: p.name,
          mimeType: JSON_TYPE,
        })),
      }),
    }),
    {
      title: 'Project',
      description: 'A project with its style, its latest tasks and its kept characters.',
      mimeType: JSON_TYPE,
    },
    async (uri, variables) => {
      const projectId = one(variables.projectId);
      const value = await read('the project', async (api) => {
        const project = await api.GET('/api/v1/projects/{projectId}', { params: { path: { projectId } } });
        const style = await api.GET('/api/v1/projects/{projectId}/style', {
          params: { path: { projectId } },
        });
        const tasks = await api.GET('/api/v1/projects/{projectId}/tasks', {
          params: { path: { projectId }, query: { pageSize: 20 } },
        });
        const characters = await api.characters.list(projectId, { pageSize: 20 });
        return {
          ...project,
          style,
          tasks: tasks.tasks.map((t) => ({ ...t, uri: `assetloom://tasks/${encodeURIComponent(t.id)}` })),
          characters: characters.characters.map((c) => ({
            id: c.id,
            name: c.name,
            prompt: c.identity.prompt,
            size: c.identity.size,
            uri: characterUri(c.id),
          })),
        };
      });
      return jsonContents(uri, value);
    },
  );

  server.registerResource(
    'task',
    new ResourceTemplate('assetloom://tasks/{taskId}', { list: undefined }),
    {
      title: 'Task',
      description: 'A task with its assets (each with the URI of its file).',
      mimeType: JSON_TYPE,
    },
    async (uri, variables) => {
      const taskId = one(variables.taskId);
      const value = await read('the task', async (api) => {
        const task = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } } });
        const { assets } = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
        return { ...task, assets: assets.map(publicAsset) };
      });
      return jsonContents(uri, value);
    },
  );

  server.registerResource(
    'character',
    new ResourceTemplate('assetloom://characters/{characterId}', { list: undefined }),
    {
      title: 'Character',
      description:
        'A kept character: its identity (prompt, seed, style, size, palette) and its tasks (base view, animations, turns), each with its URI.',
      mimeType: JSON_TYPE,
    },
    async (uri, variables) =>
      jsonContents(
        uri,
        await read('the character', (api) => characterWithTasks(api, one(variables.characterId))),
      ),
  );

  server.registerResource(
    'file',
    new ResourceTemplate(`${FILE_URI_PREFIX}{key}`, { list: undefined }),
    {
      title: 'Generated file',
      description:
        'A PNG or engine file of a task, by its storage key (the resource links of the tools point here).',
    },
    async (_uri, variables) => {
      const key = one(variables.key);
      const file = await read('the file', (api) => api.downloadAsset(key));
      const name = key.slice(key.lastIndexOf('/') + 1);
      const mimeType = mimeOf(name);
      const href = fileUri(key);
      return {
        contents: [
          isText(name)
            ? { uri: href, mimeType, text: new TextDecoder().decode(file.bytes) }
            : { uri: href, mimeType, blob: Buffer.from(file.bytes).toString('base64') },
        ],
      };
    },
  );
}

import type { AssetClient } from '@assetloom/sdk';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { AssetloomMcpError } from '../errors.js';
import { type Language, say } from './messages.js';

/** A text answer, with structured content when there is some. */
export function text(value: string, structured?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: value }],
    ...(structured ? { structuredContent: structured } : {}),
  };
}

/** A JSON answer: the value as text and as structured content (a list as `{ items }`). */
export function json(value: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: (Array.isArray(value) ? { items: value } : value) as Record<string, unknown>,
  };
}

/** A project id or an exact project name → the id (names are what agents remember). */
export async function projectIdOf(
  api: AssetClient<true>,
  project: string,
  language: Language,
): Promise<string> {
  let byName: string | undefined;
  for await (const item of api.paginate('/api/v1/projects')) {
    if (item.id === project) return item.id;
    if (item.name === project) byName ??= item.id;
  }
  if (byName !== undefined) return byName;
  throw new AssetloomMcpError('project_not_found', say(language, 'noProject', { project }), {
    field: 'projectId',
  });
}

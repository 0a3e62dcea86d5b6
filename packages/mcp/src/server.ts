import { McpServer } from '@modelcontextprotocol/server';
import { AllowedFolders } from './internal/folders.js';
import { isLayoutName, LAYOUT_NAMES, type LayoutName } from './internal/layouts.js';
import type { Language } from './internal/messages.js';
import { registerPrompts } from './internal/prompts.js';
import { registerResources } from './internal/resources.js';
import { type ApiConnection, Session } from './internal/session.js';
import { registerTools } from './internal/tools.js';

declare const __ASSETLOOM_MCP_VERSION__: string | undefined;

/** This package's version (written in by the build). */
export const VERSION: string =
  typeof __ASSETLOOM_MCP_VERSION__ === 'string' ? __ASSETLOOM_MCP_VERSION__ : '0.0.0-dev';

export type { LayoutName } from './internal/layouts.js';
export type { Language } from './internal/messages.js';
export type { ApiConnection } from './internal/session.js';

/** What {@link createAssetloomMcpServer} needs: the API and the folders it may write. */
export interface AssetloomMcpOptions {
  /** The Assetloom API and the account the tools act as. */
  api: ApiConnection;
  /**
   * The folders the tools may write into (downloads) and read from (uploads by path); relative ones
   * are taken from `cwd`. None: nothing is written, the files stay readable as resources.
   */
  allow?: readonly string[];
  /** The layout of downloads when a call names none (default `all`). */
  layout?: LayoutName;
  /** The language of the tools' messages and of the API's (default `en`). */
  language?: Language;
  /** Offer the `login` tool (default true; the HTTP mount of the reference server is signed in by its request). */
  login?: boolean;
  /** Where relative `allow` folders start (default `process.cwd()`). */
  cwd?: string;
}

const INSTRUCTIONS = [
  'Assetloom makes 2D game assets: generate_sprite, generate_animation, generate_background, generate_ui, generate_tileset and generate_level draw pixel art from a prompt in a project (list_projects, create_project) and answer the PNG as an image you can look at.',
  'A character that must stay the same across actions is kept: create_character once (its identity: prompt, seed, style, size), then animate_character (walk, idle, attack … in 4 or 8 directions) and rotate_character draw it from that identity.',
  'They report progress while they run and answer links to every file; saveTo (or download_task) writes the PNGs and the engine files (layout godot, unity, phaser, tiled, ldtk or all) into a folder this server may write.',
  'A refused argument is named in the error; a rate limit says how long to wait.',
].join(' ');

function check(options: AssetloomMcpOptions): void {
  if (options === null || typeof options !== 'object' || typeof options.api?.baseUrl !== 'string') {
    throw new TypeError(
      "[assetloom/mcp] createAssetloomMcpServer needs { api: { baseUrl: 'http://127.0.0.1:8080', token? } }.",
    );
  }
  if (options.layout !== undefined && !isLayoutName(options.layout)) {
    throw new TypeError(
      `[assetloom/mcp] layout must be one of ${LAYOUT_NAMES.join(', ')}; got ${JSON.stringify(options.layout)}.`,
    );
  }
  if (options.language !== undefined && options.language !== 'en' && options.language !== 'zh') {
    throw new TypeError(
      `[assetloom/mcp] language must be 'en' or 'zh'; got ${JSON.stringify(options.language)}.`,
    );
  }
  if (
    options.allow !== undefined &&
    (!Array.isArray(options.allow) || options.allow.some((f) => typeof f !== 'string' || f === ''))
  ) {
    throw new TypeError('[assetloom/mcp] allow must be a list of folder paths.');
  }
}

/**
 * The Assetloom MCP server: tools (the account and projects, one generate_* per asset type, kept
 * characters animated and turned, uploads, tasks, downloads into allowed folders), resources
 * (projects, characters, tasks, files) and prompts,
 * every call to the service through `@assetloom/sdk`. Connect it to a transport (`StdioServerTransport`),
 * or serve it over Streamable HTTP with {@link createMcpHttpHandler}.
 */
export function createAssetloomMcpServer(options: AssetloomMcpOptions): McpServer {
  check(options);
  const language: Language = options.language ?? 'en';
  const server = new McpServer(
    { name: 'assetloom', title: 'Assetloom', version: VERSION },
    { instructions: INSTRUCTIONS },
  );
  const session = new Session(options.api, () => language);
  registerTools(server, {
    session,
    folders: new AllowedFolders(options.allow ?? [], options.cwd),
    layout: options.layout ?? 'all',
    language: () => language,
    login: options.login ?? true,
  });
  registerResources(server, session, () => language);
  registerPrompts(server);
  return server;
}

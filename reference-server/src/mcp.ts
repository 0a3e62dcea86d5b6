import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AssetService } from '@assetloom/core';
import { bearerToken } from '@assetloom/core/http';
import type Koa from 'koa';

/** Where the MCP server for coding agents answers (MCP_ENABLED). */
export const MCP_PATH = '/mcp';

/** The Streamable HTTP handler of `@assetloom/mcp` (its `createMcpHttpHandler`), as the app mounts it. */
export interface McpMount {
  handle(req: IncomingMessage, res: ServerResponse, call: { token: string; baseUrl: string }): Promise<void>;
}

/** The server's own address as this request reached it, for the MCP tools' calls back into the API. */
function ownBaseUrl(req: IncomingMessage): string {
  const { localAddress, localPort } = req.socket;
  const address = (localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `http://${address.includes(':') ? `[${address}]` : address}:${localPort}`;
}

/**
 * `/mcp`: the request's bearer token is checked as the API checks it (401 `未登录或 Token 已过期`
 * otherwise, with `WWW-Authenticate: Bearer`), then `@assetloom/mcp` answers on the raw request; its
 * tools call the API back over this server's own address with the same token, through the SDK.
 */
export function createMcpMiddleware<S extends { user?: unknown }>(
  mount: McpMount,
  service: Pick<AssetService, 'authenticate'>,
): Koa.Middleware<S> {
  return async (ctx) => {
    const token = bearerToken(ctx.req.headers.authorization);
    try {
      ctx.state.user = await service.authenticate(token);
    } catch (error) {
      ctx.set('WWW-Authenticate', 'Bearer realm="assetloom"');
      throw error;
    }
    ctx.respond = false;
    await mount.handle(ctx.req, ctx.res, { token: token as string, baseUrl: ownBaseUrl(ctx.req) });
  };
}

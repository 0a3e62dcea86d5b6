import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { languageOf } from './internal/messages.js';
import { type AssetloomMcpOptions, createAssetloomMcpServer } from './server.js';

/** One Streamable HTTP request: whose token it carries and where the API is for it. */
export interface McpHttpCall {
  /** The bearer token the request was authenticated with (the tools act as its user). */
  token: string;
  /** The API's origin as seen from this process (e.g. the server's own loopback address). */
  baseUrl: string;
}

interface CallContext extends McpHttpCall {
  language: 'en' | 'zh' | undefined;
}

/** The Streamable HTTP handler {@link createMcpHttpHandler} answers. */
export interface McpHttpHandler {
  /** Answers one MCP request (POST, GET or DELETE) on the Node request and response. */
  handle(req: IncomingMessage, res: ServerResponse, call: McpHttpCall): Promise<void>;
  /** Ends the requests in flight. */
  close(): Promise<void>;
}

/**
 * Streamable HTTP for a server that authenticates the request itself (the reference server mounts
 * it at /mcp behind its bearer-token check): every request gets a fresh MCP server acting with that
 * request's token, without sessions, so any process behind a load balancer answers any request.
 */
export function createMcpHttpHandler(
  options: Omit<AssetloomMcpOptions, 'api' | 'login'> & { maxRequestBodySize?: number },
): McpHttpHandler {
  const { maxRequestBodySize, ...rest } = options;
  const handler = createMcpHandler(({ authInfo }) => {
    const call = authInfo?.extra as unknown as CallContext | undefined;
    if (call === undefined)
      throw new Error('[assetloom/mcp] an MCP request reached the handler without its token');
    return createAssetloomMcpServer({
      ...rest,
      // the request's Accept-Language, when it names English or Chinese, else the handler's language
      ...(call.language ? { language: call.language } : {}),
      api: { baseUrl: call.baseUrl, token: call.token },
      login: false,
    });
  });
  const node = toNodeHandler(handler, maxRequestBodySize === undefined ? undefined : { maxRequestBodySize });
  return {
    async handle(req, res, call) {
      (req as IncomingMessage & { auth?: unknown }).auth = {
        token: call.token,
        clientId: 'assetloom',
        scopes: [],
        extra: {
          token: call.token,
          baseUrl: call.baseUrl,
          language: languageOf(String(req.headers['accept-language'] ?? '').split(',')[0]),
        } satisfies CallContext,
      };
      await node(req, res);
    },
    close: () => handler.close(),
  };
}

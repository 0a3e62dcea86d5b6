/**
 * `@assetloom/mcp`: the Assetloom MCP server for coding agents. The bin is `assetloom-mcp` (stdio);
 * the reference server mounts {@link createMcpHttpHandler} at /mcp for Streamable HTTP.
 */
export { AssetloomMcpError, type McpErrorCode } from './errors.js';
export { createMcpHttpHandler, type McpHttpCall, type McpHttpHandler } from './http.js';
export {
  type ApiConnection,
  type AssetloomMcpOptions,
  createAssetloomMcpServer,
  type Language,
  type LayoutName,
  VERSION,
} from './server.js';

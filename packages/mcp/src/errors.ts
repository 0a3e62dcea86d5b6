/** What went wrong, for code that reads the tool errors' structured content or catches this class. */
export type McpErrorCode =
  | 'invalid_arguments'
  | 'no_allowed_folders'
  | 'outside_allowed_folders'
  | 'not_a_folder'
  | 'file_exists'
  | 'unreadable'
  | 'not_logged_in'
  | 'unreachable'
  | 'rate_limited'
  | 'api_refused'
  | 'task_failed'
  | 'task_not_completed'
  | 'project_not_found'
  | 'cancelled';

/**
 * The one error class of `@assetloom/mcp`. A tool answers it as an MCP tool error (`isError: true`)
 * whose text is `message` (in the agent's language, starting `[assetloom/mcp]`, saying what to do
 * next) and whose structured content carries `code`, `field` and `retryAfter`.
 */
export class AssetloomMcpError extends Error {
  /** What went wrong (stable, for code). */
  readonly code: McpErrorCode;
  /** The argument at fault (`params.resolution`, `saveTo.folder`), when one is. */
  readonly field: string | undefined;
  /** Seconds to wait before calling again (a rate limit). */
  readonly retryAfter: number | undefined;

  constructor(
    code: McpErrorCode,
    message: string,
    options: { field?: string; retryAfter?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AssetloomMcpError';
    this.code = code;
    this.field = options.field;
    this.retryAfter = options.retryAfter;
  }
}

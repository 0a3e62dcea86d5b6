import { type AssetClient, AssetloomApiError, createAssetClient, type FetchLike } from '@assetloom/sdk';
import WebSocket from 'ws';
import { AssetloomMcpError } from '../errors.js';
import { type Language, say, type TextKey } from './messages.js';

type WebSocketConstructor = NonNullable<Parameters<typeof createAssetClient>[0]['WebSocket']>;

/** How the MCP server reaches the Assetloom API: the server, and whose account. */
export interface ApiConnection {
  /** The API's origin, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** A token from `POST /auth/login` (ASSETLOOM_TOKEN). Never shown in any answer. */
  token?: string;
  /** An account to log in with when there is no token, and again when the token expires. */
  username?: string;
  /** The password of `username` (never shown). */
  password?: string;
  /** The fetch the SDK sends with (tests and the offline mock). */
  fetch?: FetchLike;
  /** The WebSocket class for progress (default: the `ws` package). */
  WebSocket?: WebSocketConstructor;
}

/**
 * The SDK client of one MCP server instance and its account: the token from the environment, else a
 * login with the account's username and password (again after a 401, once), else the login tool's.
 */
export class Session {
  readonly api: AssetClient<true>;
  readonly baseUrl: string;
  #credentials: { username: string; password: string } | undefined;
  #loggingIn: Promise<void> | undefined;

  constructor(connection: ApiConnection, language: () => Language) {
    this.baseUrl = connection.baseUrl.replace(/\/+$/, '');
    this.api = createAssetClient({
      baseUrl: this.baseUrl,
      throwOnError: true,
      language: () => language(),
      ...(connection.token ? { token: connection.token } : {}),
      ...(connection.fetch ? { fetch: connection.fetch } : {}),
      // the `ws` package this one depends on: the SDK's own lookup of it may not see it (pnpm)
      WebSocket: connection.WebSocket ?? (WebSocket as unknown as WebSocketConstructor),
      onWarning: () => {},
    });
    if (connection.username && connection.password) {
      this.#credentials = { username: connection.username, password: connection.password };
    }
  }

  /** Logs in with the kept account when no token is held. */
  async ready(): Promise<void> {
    if (this.api.token !== undefined || this.#credentials === undefined) return;
    this.#loggingIn ??= this.api
      .login(this.#credentials)
      .then(() => undefined)
      .finally(() => {
        this.#loggingIn = undefined;
      });
    await this.#loggingIn;
  }

  /** Runs `call`; a 401 with a kept account logs in again and runs it once more. */
  async run<T>(call: (api: AssetClient<true>) => Promise<T>): Promise<T> {
    await this.ready();
    try {
      return await call(this.api);
    } catch (error) {
      if (AssetloomApiError.is(error) && error.code === 401 && this.#credentials !== undefined) {
        this.api.setToken(undefined);
        await this.ready();
        return call(this.api);
      }
      throw error;
    }
  }

  /** The login tool: a token, or an account (kept for later logins). Answers the username. */
  async login(input: { token?: string; username?: string; password?: string }): Promise<string> {
    if (input.token) {
      this.api.setToken(input.token);
      const me = await this.api.GET('/api/v1/auth/me');
      return me.username;
    }
    if (input.username && input.password) {
      const data = await this.api.login({ username: input.username, password: input.password });
      this.#credentials = { username: input.username, password: input.password };
      return data.user.username;
    }
    throw new AssetloomMcpError('invalid_arguments', '', { field: 'token' });
  }
}

/** The argument a refusal's `data.reason` is about, and the tool that finds the right value. */
const REASON_ARGUMENTS: Record<string, { field: string; next: TextKey }> = {
  character_not_found: { field: 'characterId', next: 'nextCharacter' },
  character_forbidden: { field: 'characterId', next: 'nextCharacter' },
  task_not_found: { field: 'taskId', next: 'nextTask' },
  task_forbidden: { field: 'taskId', next: 'nextTask' },
};

/** A field of an API refusal, `data.errors[]`, as the agent reads it: `params.resolution: 不能大于 1024`. */
function fieldText(error: AssetloomApiError): string {
  const fields = (error.errors ?? []).map((f) => {
    const path = f.path
      .split('/')
      .filter(Boolean)
      .reduce((out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');
    const allowed = f.allowed === undefined ? '' : ` (${f.allowed.join(', ')})`;
    return `${path || f.in}: ${f.message}${allowed}`;
  });
  return fields.length === 0 ? '' : ` — ${fields.join('; ')}`;
}

/**
 * An SDK error as the MCP tool error the agent reads: the server's own message (already in the asked
 * language) with the fields it names, a rate limit with its wait, a missing login with where a token
 * goes. Never the token, never a signed URL.
 */
export function toMcpError(
  error: unknown,
  context: { tool: string; what: string; language: Language; server: string },
): unknown {
  if (!AssetloomApiError.is(error)) return error;
  const { language, tool, server } = context;
  const field = error.errors?.[0]?.path.split('/').filter(Boolean).join('.');
  if (error.code === 429 || (error.code === 503 && error.retryAfter !== undefined)) {
    const seconds = error.retryAfter ?? 1;
    return new AssetloomMcpError(
      'rate_limited',
      say(language, 'rateLimited', { message: error.message, seconds, tool }),
      {
        retryAfter: seconds,
        cause: error,
      },
    );
  }
  if (error.code === 401) {
    return new AssetloomMcpError(
      'not_logged_in',
      say(language, 'notLoggedIn', { server, detail: ` (${error.message})` }),
      {
        cause: error,
      },
    );
  }
  if (error.code === 'network_error' || error.code === 'timeout') {
    return new AssetloomMcpError(
      'unreachable',
      say(language, 'unreachable', { server, message: error.code }),
      { cause: error },
    );
  }
  if (error.code === 'task_failed') {
    return new AssetloomMcpError(
      'task_failed',
      say(language, 'taskFailed', {
        taskId: error.task?.taskId ?? '?',
        reason: error.task?.error ?? error.message,
      }),
      { cause: error },
    );
  }
  if (error.code === 'aborted') return new AssetloomMcpError('cancelled', error.message, { cause: error });
  // a 403 or 404 about an id the agent passed: that argument, and where to find the right one
  const byReason = REASON_ARGUMENTS[String(error.data?.reason)];
  if (byReason !== undefined && field === undefined) {
    return new AssetloomMcpError(
      'api_refused',
      say(language, 'idRefused', {
        field: byReason.field,
        message: error.message,
        code: error.code,
        next: say(language, byReason.next),
      }),
      { field: byReason.field, cause: error },
    );
  }
  const rig = error.errors?.some((f) => f.rule === 'rig') ? say(language, 'rigOnly') : '';
  return new AssetloomMcpError(
    'api_refused',
    say(language, 'apiRefused', {
      what: context.what,
      message: `${error.code} ${error.message}`,
      fields: fieldText(error),
    }) + rig,
    { ...(field ? { field } : {}), cause: error },
  );
}

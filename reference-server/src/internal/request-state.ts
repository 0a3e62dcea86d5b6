import type { AuthUser } from '@assetloom/core';
import type { Bindings, Logger } from 'pino';

/**
 * `ctx.state` of one request: its id, the signed-in user once known, and a logger bound to the
 * request id. The child logger is made on first use from a prototype getter: most requests log
 * only their request line, which the app writes through the root logger with the id as a field,
 * so they never pay for a child. (A per-request `Object.defineProperty` getter costs more than
 * the child it saves; a class getter costs nothing until read.)
 */
export class RequestState {
  readonly requestId: string;
  user?: AuthUser;
  readonly #root: Logger;
  readonly #bindings: Bindings | undefined;
  #log: Logger | undefined;

  constructor(requestId: string, root: Logger, bindings?: Bindings) {
    this.requestId = requestId;
    this.#root = root;
    this.#bindings = bindings;
  }

  /** The request's logger: every line carries `reqId` (and the bindings given at construction). */
  get log(): Logger {
    this.#log ??= this.#root.child({ reqId: this.requestId, ...this.#bindings });
    return this.#log;
  }
}

import type { ApiResult } from './internal/envelope.js';

/**
 * Turns one result-style call into the throwing style: resolves to `data`, rejects with the
 * {@link AssetloomApiError}.
 *
 * ```ts
 * const task = await orThrow(api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } } }));
 * ```
 */
export async function orThrow<T>(result: ApiResult<T> | Promise<ApiResult<T>>): Promise<T> {
  const settled = await result;
  if (settled.error) throw settled.error;
  return settled.data as T;
}

import type { OpenApiDocument } from '@assetloom/openapi';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** One operation of the OpenAPI document, as the router needs it. */
export interface RouteSpec {
  operationId: string;
  method: HttpMethod;
  /** The OpenAPI path (`/api/v1/projects/{projectId}`). */
  path: string;
  /** The same path in @koa/router syntax (`/api/v1/projects/:projectId`). */
  routerPath: string;
  /** False when the operation's `security` is an empty list. */
  authenticated: boolean;
  /** True when the operation declares a request body. */
  hasBody: boolean;
  /** The names of the path parameters, in order. */
  pathParams: string[];
}

const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * Lists the operations of an OpenAPI document in document order. Paths that would need a
 * parameter spanning several segments (`/files/{key}`) are kept as single-segment params; the
 * server decides which operations it mounts.
 */
export function routesOf(document: OpenApiDocument): RouteSpec[] {
  const globalSecurity = Array.isArray(document.security) ? document.security : [];
  const routes: RouteSpec[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as
        | { operationId?: string; security?: unknown[]; requestBody?: unknown }
        | undefined;
      if (operation === undefined || typeof operation.operationId !== 'string') continue;
      const security = Array.isArray(operation.security) ? operation.security : globalSecurity;
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
      routes.push({
        operationId: operation.operationId,
        method,
        path,
        routerPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        authenticated: security.length > 0,
        hasBody: operation.requestBody !== undefined,
        pathParams,
      });
    }
  }
  return routes;
}

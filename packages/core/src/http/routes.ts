import type { OpenApiDocument } from '@assetloom/openapi';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** One operation of the OpenAPI document, as a router needs it. */
export interface RouteSpec {
  operationId: string;
  method: HttpMethod;
  /** The OpenAPI path (`/api/v1/projects/{projectId}`). */
  path: string;
  /** The same path in @koa/router syntax (`/api/v1/projects/:projectId`). */
  routerPath: string;
  /** The path as a RegExp (one group per path parameter; one trailing slash tolerated, as @koa/router does). */
  pattern: RegExp;
  /** False when the operation's `security` is an empty list. */
  authenticated: boolean;
  /** True when the operation declares a request body. */
  hasBody: boolean;
  /** True when that body is not JSON (an uploaded picture): the transport hands over its raw bytes. */
  rawBody: boolean;
  /** The names of the path parameters, in order. */
  pathParams: string[];
}

const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch'];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The operations of an OpenAPI document in document order. Path parameters are single segments
 * (`/files/{key}` included); a transport decides which operations it mounts.
 */
export function routesOf(document: OpenApiDocument): RouteSpec[] {
  const globalSecurity = Array.isArray(document.security) ? document.security : [];
  const routes: RouteSpec[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = (item as Record<string, unknown>)[method] as
        | { operationId?: string; security?: unknown[]; requestBody?: { content?: Record<string, unknown> } }
        | undefined;
      if (operation === undefined || typeof operation.operationId !== 'string') continue;
      const security = Array.isArray(operation.security) ? operation.security : globalSecurity;
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
      const source = path
        .split(/(\{[^}]+\})/)
        .map((part) => (/^\{[^}]+\}$/.test(part) ? '([^/]+)' : escapeRegExp(part)))
        .join('');
      routes.push({
        operationId: operation.operationId,
        method,
        path,
        routerPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        pattern: new RegExp(`^${source}/?$`, 'i'),
        authenticated: security.length > 0,
        hasBody: operation.requestBody !== undefined,
        rawBody:
          operation.requestBody !== undefined &&
          operation.requestBody.content?.['application/json'] === undefined,
        pathParams,
      });
    }
  }
  return routes;
}

export interface RouteMatch {
  route: RouteSpec;
  params: Record<string, string>;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // @koa/router leaves an undecodable parameter as it came; the id check then answers 404
    return value;
  }
}

/**
 * The route for a method and path, matched as @koa/router matches (case-insensitive, one trailing
 * slash, HEAD served by GET): `{ match }`, or `{ allow }` (the path's methods, HEAD beside GET) when
 * the path exists under other methods, or null.
 */
export function matchRoute(
  routes: readonly RouteSpec[],
  method: string,
  pathname: string,
): { match: RouteMatch } | { allow: string[] } | null {
  const upper = method.toUpperCase();
  const wanted = upper === 'HEAD' ? 'get' : upper.toLowerCase();
  const allow: string[] = [];
  for (const route of routes) {
    const found = route.pattern.exec(pathname);
    if (found === null) continue;
    if (route.method === wanted) {
      const params: Record<string, string> = {};
      route.pathParams.forEach((name, i) => {
        params[name] = decode(found[i + 1] ?? '');
      });
      return { match: { route, params } };
    }
    if (route.method === 'get') allow.push('HEAD', 'GET');
    else allow.push(route.method.toUpperCase());
  }
  return allow.length > 0 ? { allow: [...new Set(allow)] } : null;
}

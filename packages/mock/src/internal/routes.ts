import type { OpenApiDocument } from '@assetloom/openapi';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';

/** One operation of the OpenAPI document, as the mock's router needs it. */
export interface RouteSpec {
  operationId: string;
  method: HttpMethod;
  path: string;
  pattern: RegExp;
  authenticated: boolean;
  hasBody: boolean;
  pathParams: string[];
}

const METHODS: readonly HttpMethod[] = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The operations of an OpenAPI document in document order (the same walk as the server's router). */
export function routesOf(document: OpenApiDocument): RouteSpec[] {
  const globalSecurity = Array.isArray(document.security) ? document.security : [];
  const routes: RouteSpec[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = (item as Record<string, unknown>)[method.toLowerCase()] as
        | { operationId?: string; security?: unknown[]; requestBody?: unknown }
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
        // @koa/router tolerates one trailing slash
        pattern: new RegExp(`^${source}/?$`),
        authenticated: security.length > 0,
        hasBody: operation.requestBody !== undefined,
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

function decode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * The route for a method and path: `{ match }`, or `{ allow }` (the methods of the path, as
 * @koa/router lists them: HEAD beside GET) when the path exists under other methods, or null.
 */
export function matchRoute(
  routes: readonly RouteSpec[],
  method: string,
  pathname: string,
): { match: RouteMatch } | { allow: string[] } | null {
  const wanted = method === 'HEAD' ? 'GET' : method;
  const allow: string[] = [];
  for (const route of routes) {
    const found = route.pattern.exec(pathname);
    if (found === null) continue;
    if (route.method === wanted) {
      const params: Record<string, string> = {};
      let bad = false;
      route.pathParams.forEach((name, i) => {
        const value = decode(found[i + 1] ?? '');
        if (value === null) bad = true;
        else params[name] = value;
      });
      // @koa/router leaves an undecodable parameter as it came; the id check then answers 404
      if (bad) {
        route.pathParams.forEach((name, i) => {
          params[name] ??= found[i + 1] ?? '';
        });
      }
      return { match: { route, params } };
    }
    if (route.method === 'GET') allow.push('HEAD', 'GET');
    else allow.push(route.method);
  }
  return allow.length > 0 ? { allow: [...new Set(allow)] } : null;
}

import { assetApiDocument } from '@assetloom/openapi';
import { describe, expect, it } from 'vitest';
import { matchRoute, routesOf } from './routes.js';

const routes = routesOf(assetApiDocument);

describe('routesOf', () => {
  it('lists every operation of the contract once, with auth, body and path parameters', () => {
    const ids = routes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const getTask = routes.find((r) => r.operationId === 'getTask');
    expect(getTask).toMatchObject({
      method: 'get',
      path: '/api/v1/tasks/{taskId}',
      routerPath: '/api/v1/tasks/:taskId',
      authenticated: true,
      hasBody: false,
      pathParams: ['taskId'],
    });
    expect(routes.find((r) => r.operationId === 'login')).toMatchObject({
      authenticated: false,
      hasBody: true,
    });
  });
});

describe('matchRoute', () => {
  it.each([
    ['GET', '/api/v1/projects', { op: 'listProjects' }],
    ['HEAD', '/api/v1/projects/', { op: 'listProjects' }],
    ['GET', '/api/v1/projects/p1/style', { op: 'getProjectStyle', params: { projectId: 'p1' } }],
    ['GET', '/api/v1/tasks/a%2Fb', { op: 'getTask', params: { taskId: 'a/b' } }],
    ['GET', '/api/v1/tasks/%E0%A4%A', { op: 'getTask', params: { taskId: '%E0%A4%A' } }],
    ['PATCH', '/api/v1/projects', { allow: ['HEAD', 'GET', 'POST'] }],
    ['GET', '/API/V1/PROJECTS', { op: 'listProjects' }],
    ['GET', '/api/v1/nothing', null],
  ] as Array<[string, string, { op?: string; params?: Record<string, string>; allow?: string[] } | null]>)(
    '%s %s',
    (method, path, want) => {
      const found = matchRoute(routes, method, path);
      if (want === null) return expect(found).toBeNull();
      if (want.allow !== undefined) return expect(found).toEqual({ allow: want.allow });
      expect(found !== null && 'match' in found && found.match.route.operationId).toBe(want.op);
      if (want.params && found && 'match' in found) expect(found.match.params).toEqual(want.params);
    },
  );
});

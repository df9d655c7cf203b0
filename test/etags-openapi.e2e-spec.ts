import { resourceRouteOf } from '../src/common/http/conditional-writes';
import { RouteRegistry } from '../src/common/http/route-registry';
import { startTestApp, TestApp } from './harness';

/** The OpenAPI document of ETags and conditional requests (issue 27 §2): test/etags.e2e-spec.ts tests the behaviour. */
describe('ETags in the OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('documents ETag, If-None-Match and 304 on JSON GETs, If-Match and 412 on every conditional write', async () => {
    const doc = (await t.http().get('/api/v1/openapi.json')).body;
    const registry = t.app.get(RouteRegistry);
    const served = (path: string) => `${path.replace(/:([A-Za-z_]+)/g, '{$1}')}/`;
    const refs = (op: { parameters?: { $ref?: string }[] }) => (op.parameters ?? []).map((p) => p.$ref);
    const missing: string[] = [];
    let writes = 0;
    for (const route of registry.routes) {
      const op = doc.paths[served(route.path)]?.[route.method.toLowerCase()];
      if (!op) continue;
      if (route.method === 'GET') {
        if (!op.responses['200']?.content?.['application/json']) continue;
        if (!refs(op).includes('#/components/parameters/IfNoneMatch'))
          missing.push(`GET ${route.path}: If-None-Match`);
        if (!op.responses['304']) missing.push(`GET ${route.path}: 304`);
        if (!op.responses['200'].headers?.ETag) missing.push(`GET ${route.path}: ETag`);
      } else if (resourceRouteOf(registry.routes, route)) {
        writes++;
        if (!refs(op).includes('#/components/parameters/IfMatch'))
          missing.push(`${route.method} ${route.path}: If-Match`);
        if (op.responses['412']?.$ref !== '#/components/responses/PreconditionFailed') {
          missing.push(`${route.method} ${route.path}: 412`);
        }
      } else if (refs(op).includes('#/components/parameters/IfMatch')) {
        missing.push(`${route.method} ${route.path}: If-Match on a write without a resource`);
      }
    }
    expect(missing).toEqual([]);
    expect(writes).toBeGreaterThan(100);
    expect(doc.components.responses.PreconditionFailed.headers.ETag).toEqual({
      $ref: '#/components/headers/ETag',
    });
  });
});

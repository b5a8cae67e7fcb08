import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.js';
import { openApiDocument, openApiPath, printedOpenApi } from '../../src/rest/openapi/document.js';
import { routes } from '../../src/rest/routes.js';
import { TOKEN_PATH } from '../../src/rest/token-route.js';

const ROOT = resolve(import.meta.dirname, '../..');
const committed = () => JSON.parse(readFileSync(join(ROOT, 'schema/openapi.json'), 'utf8'));

describe('the OpenAPI document', () => {
  it('schema/openapi.json equals the document generated from the route table and the GraphQL schema', () => {
    expect(
      readFileSync(join(ROOT, 'schema/openapi.json'), 'utf8') === printedOpenApi(),
      'schema/openapi.json is stale: run `npm run openapi:print` and commit the result',
    ).toBe(true);
  });

  it('is a valid OpenAPI 3.1 document according to @readme/openapi-parser', async () => {
    const result = await validate(committed());
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(committed().openapi).toBe('3.1.0');
  });

  it('a broken document is refused by the same validator (the check can fail)', async () => {
    const broken = committed();
    broken.paths['/api/external/sites'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Nope' };
    const result = await validate(broken);
    expect(result.valid).toBe(false);
  });

  it('has one operation per route of the route table, plus the token request', () => {
    const document = committed();
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const expected = [...routes.map((r) => `${r.method} ${openApiPath(r.path)}`), `POST ${TOKEN_PATH}`];
    expect(operations.sort()).toEqual(expected.sort());
  });

  it('describes both security schemes, and every route but the token request needs both', () => {
    const document = committed();
    expect(document.components.securitySchemes.subscriptionKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'external-gh-apim-sub-key' });
    expect(document.components.securitySchemes.bearerToken).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { security: unknown }>>)) {
      for (const operation of Object.values(item)) {
        expect(operation.security, path).toEqual(path === TOKEN_PATH ? [{ subscriptionKey: [] }] : [{ subscriptionKey: [], bearerToken: [] }]);
      }
    }
  });

  it('describes every query parameter a route reads, with its type and limits', () => {
    const document = committed();
    for (const route of routes) {
      const operation = document.paths[openApiPath(route.path)][route.method.toLowerCase()];
      const query = operation.parameters.filter((p: { in: string }) => p.in === 'query');
      expect(query.map((p: { name: string }) => p.name), `${route.method} ${route.path}`).toEqual(route.query.map((p) => p.name));
      for (const parameter of query) {
        expect(parameter.schema.type, `${route.path} ${parameter.name}`).toBeDefined();
        if (parameter.name === 'pageSize') expect(parameter.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
        if (parameter.name === 'after' || parameter.name === 'before') expect(parameter.schema).toEqual({ type: 'string' });
      }
      const path = operation.parameters.filter((p: { in: string }) => p.in === 'path');
      expect(path.map((p: { name: string }) => p.name)).toEqual([...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]));
    }
    const timesheets = document.paths['/api/external/timesheets'].get.parameters;
    expect(timesheets.find((p: { name: string }) => p.name === 'from').schema).toEqual({ type: 'string', format: 'date-time' });
    expect(timesheets.find((p: { name: string }) => p.name === 'siteId').schema).toEqual({ type: 'integer', minimum: 1 });
  });

  it('lists the failure statuses each route can answer', () => {
    const document = committed();
    const statusesOf = (path: string, method: string) => Object.keys(document.paths[path][method].responses);
    const common = ['400', '401', '408', '413', '414', '415', '429', '431', '500', '503'];
    expect(statusesOf('/api/external/timesheets/{id}', 'get')).toEqual(['200', ...common, '403', '404'].sort());
    expect(statusesOf('/api/external/customers', 'get')).toEqual(['200', ...common].sort());
    expect(statusesOf('/api/webhook/subscriptions', 'post')).toEqual(['201', ...common, '403', '404', '409'].sort());
    expect(statusesOf('/api/webhook/subscriptions/{id}/deliveries/{deliveryId}/redeliver', 'post')).toEqual(['202', ...common, '403', '404', '409'].sort());
    expect(statusesOf(TOKEN_PATH, 'post')).toEqual(['200', ...common].sort());
    for (const status of ['429', '503']) {
      expect(document.components.responses[`Status${status}`].headers['retry-after']).toEqual({ $ref: '#/components/headers/RetryAfterRequired' });
    }
  });

  it("takes each record's fields, aliases, nullability and descriptions from the operation and the GraphQL schema", () => {
    const document = openApiDocument(schema, routes);
    const subscription = (document.components as { schemas: Record<string, any> }).schemas.EventSubscription;
    // `id` is the alias of subscriptionId in fragments.graphql.
    expect(Object.keys(subscription.properties)).toContain('id');
    expect(Object.keys(subscription.properties)).not.toContain('subscriptionId');
    expect(subscription.properties.id.type).toBe('integer');
    const timesheet = (document.components as { schemas: Record<string, any> }).schemas.Timesheet;
    expect(timesheet.properties.timesheetId.type).toBe('integer');
    expect(timesheet.properties.staffId.type).toEqual(['string', 'null']);
    expect(timesheet.properties.scheduledStartTime).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    expect(timesheet.required).toEqual(Object.keys(timesheet.properties));
  });
});

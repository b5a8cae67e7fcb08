import { schema } from '../../graphql/schema.js';
import { routes } from '../routes.js';
import { openApiDocument } from './document.js';

/** The OpenAPI document as served at /openapi.json and committed as schema/openapi.json. */
export function printedOpenApi(): string {
  return `${JSON.stringify(openApiDocument(schema, routes), null, 2)}\n`;
}

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks one REST response against the committed OpenAPI document (schema/openapi.json): that its
 * path and method are described, that the status is one the operation lists, that the headers it
 * requires are there with values of their schemas, and that the body is JSON of the response's
 * schema (JSON Schema 2020-12, by ajv). test/support/test-app.ts runs every response of every test
 * server through it, so no route or status escapes the document.
 */

export interface CapturedResponse {
  method: string;
  /** The request target as sent (path and query). */
  url: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

interface ResponseObject {
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, unknown>;
}

interface HeaderObject {
  required?: boolean;
  schema: unknown;
}

const DOCUMENT_ID = 'https://shiftgate.invalid/openapi.json';
const document = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../schema/openapi.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
ajv.addSchema({ ...document, $id: DOCUMENT_ID });

const templates = Object.keys(document.paths as Record<string, unknown>).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
}));

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const validators = new Map<string, ValidateFunction>();

function validatorAt(path: string): ValidateFunction {
  let validate = validators.get(path);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${path}` });
    validators.set(path, validate);
  }
  return validate;
}

function resolveRef<T>(value: { $ref: string } | T): T {
  if (typeof value === 'object' && value !== null && '$ref' in value) {
    return (value.$ref as string)
      .slice(2)
      .split('/')
      .reduce((node: any, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], document) as T;
  }
  return value as T;
}

function headerValue(headers: CapturedResponse['headers'], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

function bodyProblems(response: CapturedResponse, schemaPath: string): string[] {
  if (response.method === 'HEAD') return [];
  const contentType = headerValue(response.headers, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) return [`content-type is "${contentType}", not application/json`];
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    return ['the body is not JSON'];
  }
  const validate = validatorAt(schemaPath);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** A failure of a path or method the document cannot describe (unknown path, 405, refused before routing). */
function unroutedProblems(response: CapturedResponse, why: string): string[] {
  if (response.status < 400) return [`${why}, yet it answered ${response.status}`];
  const problems = bodyProblems(response, pointer('components', 'schemas', 'Failure'));
  if (problems.length === 0 && response.method !== 'HEAD') {
    const body = JSON.parse(response.body.toString('utf8')) as { status: { code: number } };
    if (body.status.code !== response.status) problems.push(`status.code ${body.status.code} is not the HTTP status`);
  }
  if (response.status === 405 && headerValue(response.headers, 'allow') === undefined) problems.push('405 without Allow');
  return problems;
}

/** The problems of one REST response; empty when the document describes it. Non-REST paths are not checked. */
export function openApiProblems(response: CapturedResponse): string[] {
  const pathname = response.url.split('?')[0] ?? '/';
  // Preflights are the CORS layer's answer (src/server/cors.ts), not an operation of the API.
  if (!pathname.startsWith('/api/') || response.method === 'OPTIONS') return [];
  const matched = templates.find((t) => t.pattern.test(pathname));
  if (!matched) return unroutedProblems(response, `no path of the document matches ${pathname}`);
  const method = response.method.toLowerCase();
  const operation = (document.paths[matched.template] as Record<string, { responses: Record<string, unknown> }>)[method];
  if (!operation) return unroutedProblems(response, `the document has no ${response.method} ${matched.template}`);
  const declared = operation.responses[String(response.status)];
  if (!declared) return [`status ${response.status} is not a documented response of ${response.method} ${matched.template}`];
  const responseObject = resolveRef<ResponseObject>(declared as ResponseObject);
  const problems: string[] = [];
  for (const [name, ref] of Object.entries(responseObject.headers ?? {})) {
    const header = resolveRef<HeaderObject>(ref);
    const value = headerValue(response.headers, name);
    if (value === undefined) {
      if (header.required) problems.push(`header ${name} is missing`);
      continue;
    }
    const validate = ajv.compile(header.schema as object);
    if (!validate(value)) problems.push(`header ${name}: "${value}" ${ajv.errorsText(validate.errors)}`);
  }
  const responsePath =
    typeof declared === 'object' && declared !== null && '$ref' in declared
      ? (declared as { $ref: string }).$ref.slice(2)
      : pointer('paths', matched.template, method, 'responses', String(response.status));
  problems.push(...bodyProblems(response, `${responsePath}/content/application~1json/schema`));
  return problems;
}

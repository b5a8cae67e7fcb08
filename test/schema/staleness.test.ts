import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generate, loadCodegenConfig } from '@graphql-codegen/cli';
import { Kind, parse, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../../src/graphql/schema.js';
import { routes } from '../../src/rest/routes.js';

// Committed artefacts must match what the code produces.

const ROOT = resolve(import.meta.dirname, '../..');
const OPERATIONS_DIR = join(ROOT, 'schema/operations');

function operationNames(document: DocumentNode): string[] {
  return document.definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION && d.name ? [d.name.value] : []));
}

describe('committed schema and generated code are up to date', () => {
  it('schema/schema.graphql equals the schema printed from src/graphql/schema.ts', () => {
    const committed = readFileSync(join(ROOT, 'schema/schema.graphql'), 'utf8');
    const printed = printedSchema();
    expect(
      committed === printed,
      'schema/schema.graphql is stale: run `npm run schema:print` (then `npm run codegen`) and commit the result',
    ).toBe(true);
  });

  it(
    'src/generated/operations.ts equals what GraphQL Code Generator produces from codegen.yml',
    async () => {
      const { config } = await loadCodegenConfig({ configFilePath: join(ROOT, 'codegen.yml') });
      const outputs = (await generate({ ...config, cwd: ROOT, silent: true }, false)) as { filename: string; content: string }[];
      expect(outputs.map((o) => o.filename)).toEqual(['src/generated/operations.ts']);
      const committed = readFileSync(join(ROOT, 'src/generated/operations.ts'), 'utf8');
      expect(
        outputs[0]!.content === committed,
        'src/generated/operations.ts is stale: run `npm run schema:print` and then `npm run codegen`, and commit the result',
      ).toBe(true);
    },
    60_000,
  );

  it('every file in schema/operations (except fragments.graphql) is served by a REST route', () => {
    const files = readdirSync(OPERATIONS_DIR).filter((f) => f.endsWith('.graphql') && f !== 'fragments.graphql');
    expect(files.length).toBeGreaterThan(0);
    const routed = new Set(routes.flatMap((r) => operationNames(r.operation as DocumentNode)));
    for (const file of files) {
      const names = operationNames(parse(readFileSync(join(OPERATIONS_DIR, file), 'utf8')));
      expect(names, `${file} defines exactly one named operation`).toHaveLength(1);
      expect(routed.has(names[0]!), `${file} (operation ${names[0]}) is not used by any route in src/rest/routes.ts`).toBe(true);
    }
  });

  it('every REST route runs an operation that comes from schema/operations', () => {
    const fromFiles = new Set(
      readdirSync(OPERATIONS_DIR)
        .filter((f) => f.endsWith('.graphql'))
        .flatMap((f) => operationNames(parse(readFileSync(join(OPERATIONS_DIR, f), 'utf8')))),
    );
    for (const route of routes) {
      const [name] = operationNames(route.operation as DocumentNode);
      expect(fromFiles.has(name ?? ''), `${route.method} ${route.path} runs ${name}, which no operation file defines`).toBe(true);
    }
  });
});

/**
 * Which way dependencies point between the top-level folders of src/ (docs/architecture.md):
 *
 *   shared ─► repositories ─► auth, webhooks ─► import ─► graphql ─► rest, workers ─► server ─► cli
 *
 * A folder imports only folders to its left (and itself; two folders named together do not import
 * each other). src/config.ts and src/generated/ may be imported from anywhere; every other module
 * lives in one of the folders, since a module outside them would escape these rules:
 * test/architecture/dependencies.test.ts, which runs them over src/, also checks that.
 */
const LOWER = {
  shared: [],
  repositories: ['shared'],
  auth: ['shared', 'repositories'],
  webhooks: ['shared', 'repositories'],
  import: ['shared', 'repositories', 'webhooks'],
  graphql: ['shared', 'repositories', 'auth', 'webhooks', 'import'],
  rest: ['shared', 'repositories', 'auth', 'webhooks', 'import', 'graphql'],
  workers: ['shared', 'repositories', 'auth', 'webhooks', 'import', 'graphql'],
  server: ['shared', 'repositories', 'auth', 'webhooks', 'import', 'graphql', 'rest', 'workers'],
  cli: ['shared', 'repositories', 'auth', 'webhooks', 'import', 'graphql', 'rest', 'workers', 'server'],
};

const layerRules = Object.entries(LOWER).map(([folder, lower]) => ({
  name: `${folder}-imports-only-lower-folders`,
  severity: 'error',
  comment: `src/${folder}/ may import ${lower.length > 0 ? lower.map((l) => `src/${l}/`).join(', ') : 'nothing else in src/'} (and src/config.ts, src/generated/)`,
  from: { path: `^src/${folder}/` },
  to: {
    path: '^src/',
    pathNot: [`^src/(${[folder, ...lower].join('|')})/`, '^src/config\\.ts$', '^src/generated/'],
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, directly or through others',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'database-drivers-only-in-repositories',
      severity: 'error',
      comment: 'knex, pg and better-sqlite3 are used by src/repositories/ and src/shared/db/ alone: every SQL statement lives there',
      from: { path: '^src/', pathNot: '^src/(repositories|shared/db)/' },
      to: { path: '(^|/)node_modules/(knex|pg|better-sqlite3)/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};

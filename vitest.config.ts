import { createRequire } from 'node:module';
import { configDefaults, defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

const include = ['test/**/*.test.ts'];
const postgresUrl = process.env.TEST_DATABASE_URL?.trim();

// The whole suite runs once per backend: always on SQLite, and on PostgreSQL when
// TEST_DATABASE_URL names a server. Each test file makes its own SQLite file or `t_<random>`
// schema (test/support/backend.ts), so files of both projects run in parallel.
if (!postgresUrl && !process.env.SHIFTGATE_SKIP_NOTICE_PRINTED) {
  process.env.SHIFTGATE_SKIP_NOTICE_PRINTED = '1';
  console.log('PostgreSQL suite skipped: TEST_DATABASE_URL is not set');
}

export default defineConfig({
  resolve: {
    // graphql ships CJS (index.js) and ESM (index.mjs). Node, and so graphql-yoga, loads the
    // CJS entry; without this alias vite resolves src's `import 'graphql'` to the ESM one, two
    // GraphQLError classes exist, and yoga masks every coded error as INTERNAL_SERVER_ERROR.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests that spawn bin/shiftgate.js run dist/: brought up to date first.
    globalSetup: ['test/support/build-dist.ts'],
    projects: [
      { extends: true as const, test: { name: 'sqlite', include, env: { SHIFTGATE_TEST_BACKEND: 'sqlite' } } },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              // Browser tests check HTTP and the pages, not the backend: SQLite runs them once.
              test: { name: 'postgres', include, exclude: ['test/browser/**', ...configDefaults.exclude], env: { SHIFTGATE_TEST_BACKEND: 'postgres', TEST_DATABASE_URL: postgresUrl } },
            },
          ]
        : []),
    ],
  },
});

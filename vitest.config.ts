import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql ships CJS (index.js) and ESM (index.mjs). Node, and so graphql-yoga, loads the
    // CJS entry; without this alias vite resolves src's `import 'graphql'` to the ESM one, two
    // GraphQLError classes exist, and yoga masks every coded error as INTERNAL_SERVER_ERROR.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});

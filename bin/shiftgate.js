#!/usr/bin/env node
// Runs the compiled CLI in dist/ (built by `npm run build`, which npm install runs through `prepare`).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('shiftgate: dist/ is missing its compiled code; run `npm run build` first');
  process.exit(1);
}
await import(cli.href);

#!/usr/bin/env node
// Runs one TypeScript script given as the first argument through tsx (development only:
// npm scripts for the bench and schema printing; tsx is a devDependency).
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

register();
const [script, ...rest] = process.argv.slice(2);
if (!script) {
  console.error('usage: run-ts.js SCRIPT [ARGS…]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(script), ...rest];
await import(pathToFileURL(resolve(script)).href);

import { writeFileSync } from 'node:fs';
import { printedSchema } from '../src/graphql/schema.js';

writeFileSync('schema/schema.graphql', printedSchema());
console.log('wrote schema/schema.graphql');
